"""A time limit on what a data repository brings of its own: its shapes (run at validation, and at
every build when a gotcha names one in ``finding_shapes``) and its saved queries. benchkg's own shapes
and queries are measured (``make bench``) and need none; a repository's are anyone's SPARQL, and one
three-way join hung every command (issue 64).

pyoxigraph cannot stop a query once it has started, so a limited call runs in a worker process forked
from this one (it sees the store as it is, with nothing copied) and is killed at the limit.

The limit is ``time_limit`` (seconds) in the repository's ``benchkg.toml``, or the environment's
``BENCHKG_TIME_LIMIT`` (which wins), else :data:`DEFAULT_SECONDS`.

>>> within(5, "query sum", sum, [1, 2, 3])
6
>>> import time
>>> within(0.2, "shape slow (shapes/slow.ttl)", time.sleep, 5)
Traceback (most recent call last):
benchkg.kernel.errors.TimeLimitError: shape slow (shapes/slow.ttl) did not end within 0.2 s, the limit on a data repository's own shapes and queries: make it cheaper, or allow longer with time_limit = SECONDS in benchkg.toml (or BENCHKG_TIME_LIMIT=SECONDS)
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from typing import Any, TypeVar

from benchkg.kernel.errors import TimeLimitError, UsageError

DEFAULT_SECONDS = 60.0
ENVIRONMENT = "BENCHKG_TIME_LIMIT"
_T = TypeVar("_T")


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


def within(limit: float, what: str, function: Callable[..., _T], *args: Any) -> _T:
    """``function(*args)`` in a forked worker process, given ``limit`` seconds; its return value (and
    an exception it raises) comes back pickled.

    :raises TimeLimitError: naming ``what`` and the limit, when the worker has not answered by then
        (it is killed: nothing it did outlives it).
    """
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def work() -> None:  # (in the worker)
        try:
            outcome: tuple[bool, Any] = (True, function(*args))
        except BaseException as e:  # noqa: BLE001 - handed back to the caller, who raises it
            outcome = (False, e)
        try:
            sender.send(outcome)
        except Exception as e:  # noqa: BLE001 - an answer that cannot be pickled is said, not waited for
            sender.send((False, RuntimeError(f"{what}: its answer could not be handed back: {e}")))
        sender.close()

    worker = context.Process(target=work, daemon=True)
    worker.start()
    sender.close()
    try:
        if not receiver.poll(limit):
            raise TimeLimitError(
                f"{what} did not end within {limit:g} s, the limit on a data repository's own shapes and "
                "queries: make it cheaper, or allow longer with time_limit = SECONDS in benchkg.toml "
                f"(or {ENVIRONMENT}=SECONDS)"
            )
        done, value = receiver.recv()
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        receiver.close()
    if not done:
        raise value
    return value  # type: ignore[no-any-return]
