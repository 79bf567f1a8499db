"""A time limit on what a data repository brings of its own: its shapes (run at validation, and at
every build when a gotcha names one in ``finding_shapes``) and its saved queries. benchkg's own shapes
and queries are measured (``make bench``) and need none; a repository's are anyone's SPARQL, and one
three-way join hung every command (issue 64).

pyoxigraph cannot stop a query once it has started, so a limited call runs in a worker process that is
killed at the limit. A store on disk is never handed to a forked worker: RocksDB runs threads of its
own (flushes, compactions), and a worker forked while one of them held the database's mutex waits for
it for ever (seen in CI: a saved query of five rows "did not end within 60 s"). The worker is spawned
afresh instead and opens a copy of the store's folder (RocksDB hard links: a few milliseconds), made
just before: it sees the store as it is. An in-memory store has no such threads: its worker is forked
and sees it with nothing copied.

The limit is ``time_limit`` (seconds) in the repository's ``benchkg.toml``, or the environment's
``BENCHKG_TIME_LIMIT`` (which wins), else :data:`DEFAULT_SECONDS`; it counts from when the worker is
ready (a spawned one first imports what it runs: about 0.2 s).

>>> within(5, "query sum", sum, [1, 2, 3])
6
>>> import time
>>> within(0.2, "shape slow (shapes/slow.ttl)", time.sleep, 5)
Traceback (most recent call last):
benchkg.kernel.errors.TimeLimitError: shape slow (shapes/slow.ttl) did not end within 0.2 s, the limit on a data repository's own shapes and queries: make it cheaper, or allow longer with time_limit = SECONDS in benchkg.toml (or BENCHKG_TIME_LIMIT=SECONDS)
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from pyoxigraph import Store

from benchkg.kernel.atomic import remove_stale_temporaries
from benchkg.kernel.errors import StoreError, TimeLimitError, UsageError
from benchkg.kernel.lifeline import die_with_parent, main_not_rerun

DEFAULT_SECONDS = 60.0
ENVIRONMENT = "BENCHKG_TIME_LIMIT"
_T = TypeVar("_T")

#: the on-disk stores this process has open, by folder (:func:`benchkg.graph.opening.open_store` keeps
#: it): RocksDB lets a process open a folder once, so a second build, query or ``benchkg.open`` of the
#: same data in one process shares the store; :func:`within_store` finds here the folder it copies
OPEN_STORES: dict[str, Store] = {}

#: numbers the copies one process makes
_COPIES = itertools.count()


def seconds(configured: float | None = None) -> float:
    """The limit: the environment's ``BENCHKG_TIME_LIMIT``, else ``configured`` (the repository's
    ``time_limit``), else :data:`DEFAULT_SECONDS`.

    >>> seconds(), seconds(5)
    (60.0, 5.0)
    """
    text = os.environ.get(ENVIRONMENT)
    if text is None:
        return float(configured) if configured is not None else DEFAULT_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise UsageError(f"{ENVIRONMENT}={text}: a number of seconds, more than 0 (e.g. {ENVIRONMENT}=120)")
    return value


def within_store(limit: float, what: str, store: Store, function: Callable[..., _T], *args: Any) -> _T:
    """``function(store, *args)`` in a worker process given ``limit`` seconds (see :func:`within`): on a
    copy of ``store``'s folder in a spawned worker when it is on disk (:data:`OPEN_STORES`), else on
    ``store`` itself in a forked one. ``function`` and ``args`` go to a spawned worker pickled (a
    function of a module, not a lambda).

    >>> within_store(5, "query", Store(), lambda store: len(store))
    0

    :raises StoreError: when the copy cannot be made (a full disk), naming ``what``.
    """
    folder = next((Path(f) for f, open_one in OPEN_STORES.items() if open_one is store), None)
    if folder is None:
        return within(limit, what, function, store, *args)
    remove_stale_temporaries(folder.parent, f"{folder.name}.limited-")  # a killed run's copies
    copy = folder.with_name(f"{folder.name}.limited-{os.getpid()}-{next(_COPIES)}")
    try:
        store.backup(str(copy))
    except (OSError, RuntimeError) as e:  # (RocksDB's errors come as either)
        shutil.rmtree(copy, ignore_errors=True)
        raise StoreError(
            f"{what}: cannot copy the store for the worker process that runs it ({e}); "
            f"free some space beside {folder} and run it again"
        ) from e
    try:
        return within(limit, what, partial(_on_copy, str(copy), function), *args, start="spawn")
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def _on_copy(folder: str, function: Callable[..., _T], *args: Any) -> _T:
    """(In a spawned worker) ``function(store, *args)`` on the store copied to ``folder``."""
    return function(Store(folder), *args)


def within(limit: float, what: str, function: Callable[..., _T], *args: Any, start: str = "fork") -> _T:
    """``function(*args)`` in a worker process (``start``: ``"fork"``, or ``"spawn"`` for a process
    that shares nothing with this one), given ``limit`` seconds from when it is ready; its return
    value (and an exception it raises) comes back pickled.

    :raises TimeLimitError: naming ``what`` and the limit, when the worker has not answered by then
        (it is killed: nothing it did outlives it).
    """
    context: Any = multiprocessing.get_context(start)
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_work, args=(sender, what, os.getpid(), function, args), daemon=True)
    with main_not_rerun():
        worker.start()
    sender.close()
    try:
        _receive(receiver, worker, what)  # ready: it has imported and unpickled what it runs
        if not receiver.poll(limit):
            raise TimeLimitError(
                f"{what} did not end within {limit:g} s, the limit on a data repository's own shapes and "
                "queries: make it cheaper, or allow longer with time_limit = SECONDS in benchkg.toml "
                f"(or {ENVIRONMENT}=SECONDS)"
            )
        done, value = _receive(receiver, worker, what)
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        receiver.close()
    if not done:
        raise value
    return value  # type: ignore[no-any-return]


def _receive(receiver: Any, worker: Any, what: str) -> Any:
    """The worker's next message; an error naming ``what`` if it ended without sending one (killed by
    the system for its memory, say).

    >>> within(5, "query gone", os._exit, 3)
    Traceback (most recent call last):
    RuntimeError: query gone: its worker process ended without answering (exit code 3)
    """
    try:
        return receiver.recv()
    except EOFError:
        worker.join()
        raise RuntimeError(
            f"{what}: its worker process ended without answering (exit code {worker.exitcode})"
        ) from None


def _work(sender: Any, what: str, parent: int, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """(In the worker) say it is ready, run ``function(*args)`` and send back ``(True, its value)`` or
    ``(False, the exception)``."""
    die_with_parent(parent)  # a parent killed leaves no worker running on
    sender.send(None)
    try:
        outcome: tuple[bool, Any] = (True, function(*args))
    except BaseException as e:  # noqa: BLE001 - handed back to the caller, who raises it
        outcome = (False, e)
    try:
        sender.send(outcome)
    except Exception as e:  # noqa: BLE001 - an answer that cannot be pickled is said, not waited for
        sender.send((False, RuntimeError(f"{what}: its answer could not be handed back: {e}")))
    sender.close()
