"""Opening the embedded store: where a data folder's state lives (``.benchkg/<folder>/``), the lock
that lets one process at a time write it, the stores this process has open (RocksDB opens a folder
once per process), and the read-only copy readers use while a build writes."""

from __future__ import annotations

import errno
import fcntl
import gc
import os
import shutil
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pyoxigraph import QuerySolutions, QueryTriples, Store

from benchkg.graph.manifest import is_complete, snapshot_path
from benchkg.kernel.errors import StoreError, UsageError, cannot_write
from benchkg.kernel.limits import OPEN_STORES
from benchkg.kernel.vocab import DEFAULT_BASE
from benchkg.records.layout import Layout, layout_for


def select(store: Store, text: str, **options: Any) -> QuerySolutions:
    """The solutions of a SELECT benchkg wrote (pyoxigraph answers any query with one of three kinds).

    >>> [row["n"].value for row in select(Store(), "SELECT ?n WHERE { VALUES ?n { 1 } }")]
    ['1']
    """
    found = store.query(text, **options)
    assert isinstance(found, QuerySolutions), "a SELECT"
    return found


def rows(solutions: QuerySolutions) -> Iterator[dict[str, Any]]:
    """Each solution as ``{variable: term, or None if unbound}``, read in order (a solution read by name
    takes three times as long: a third of a cold build's reading of claims).

    >>> list(rows(select(Store(), "SELECT ?n ?m WHERE { VALUES ?n { 1 } }")))
    [{'n': <Literal value=1 datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#integer>>, 'm': None}]
    """
    names = [v.value for v in solutions.variables]
    for solution in solutions:
        yield dict(zip(names, solution))


def bound_terms(names: list[str], solution: Any) -> dict[str, Any]:
    """A solution's bound terms by variable name (``names``: the solutions' variables), read in order as
    :func:`rows` reads them; an unbound variable is left out.

    >>> solutions = select(Store(), "SELECT ?n ?m WHERE { VALUES ?n { 1 } }")
    >>> [bound_terms(["n", "m"], s)["n"].value for s in solutions]
    ['1']
    """
    return {name: term for name, term in zip(names, solution) if term is not None}


def construct(store: Store, text: str, **options: Any) -> QueryTriples:
    """The triples of a CONSTRUCT benchkg wrote."""
    found = store.query(text, **options)
    assert isinstance(found, QueryTriples), "a CONSTRUCT"
    return found


def state_dir_for(data_dir: Path) -> Path:
    """Where benchkg keeps what it derives from ``data_dir``: ``.benchkg/<folder name>/`` beside it
    (the store, its manifest snapshot, the validation cache, the lock). Named after the folder, so
    sibling data folders (``data/``, ``data2/``) never share a store.

    >>> state_dir_for(Path("/repo/data")), state_dir_for(Path("/repo/data2"))
    (PosixPath('/repo/.benchkg/data'), PosixPath('/repo/.benchkg/data2'))
    """
    real = Path(data_dir).resolve()
    return real.parent / ".benchkg" / (real.name or "root")


def store_dir_for(data_dir: Path) -> Path:
    """Where the persistent store of ``data_dir`` lives: ``store/`` in its :func:`state_dir_for`.

    >>> store_dir_for(Path("/repo/data"))
    PosixPath('/repo/.benchkg/data/store')
    """
    return state_dir_for(data_dir) / "store"


def snapshot_dir_for(store_dir: Path) -> Path:
    """The copy of the last complete store that readers use while a build writes (see
    :func:`readable_store`)."""
    return Path(store_dir).parent / "store-while-building"


#: the findings cache's name in a data folder's state
VALIDATION_CACHE = "validation.json"


@dataclass(frozen=True)
class Workspace:
    """One data folder as benchkg works on it, resolved once when a graph is opened: the folder, its
    :class:`~benchkg.records.layout.Layout` (its records, the reference set it uses, the saved-query
    and shape folders), the base IRI, and where what benchkg derives from it lives.

    >>> ws = Workspace.of(Path("/repo/data"))
    >>> ws.store_dir, ws.snapshot, ws.findings_cache
    (PosixPath('/repo/.benchkg/data/store'), PosixPath('/repo/.benchkg/data/manifest.json'), PosixPath('/repo/.benchkg/data/validation.json'))
    """

    data: Path
    layout: Layout
    base: str
    state_dir: Path

    @classmethod
    def of(cls, data: Path, base: str = DEFAULT_BASE) -> "Workspace":
        """The workspace of ``data`` (its ``benchkg.toml`` read now, once)."""
        return cls(Path(data), layout_for(Path(data)), base, state_dir_for(Path(data)))

    @property
    def store_dir(self) -> Path:
        """The persistent store (:func:`store_dir_for`)."""
        return self.state_dir / "store"

    @property
    def snapshot(self) -> Path:
        """The manifest's snapshot (:func:`benchkg.graph.manifest.snapshot_path`)."""
        return snapshot_path(self.store_dir)

    @property
    def readers_copy(self) -> Path:
        """The copy readers use while a build writes (:func:`snapshot_dir_for`)."""
        return snapshot_dir_for(self.store_dir)

    @property
    def findings_cache(self) -> Path:
        """The findings of the last validation, re-checked incrementally."""
        return self.state_dir / VALIDATION_CACHE


#: the lock each open store holds (``.benchkg/lock``), as a raw descriptor: Python's shutdown
#: closes file objects in no set order, and a lock let go before the store closes lets the next
#: process in while RocksDB still holds the folder; a descriptor goes only with the process
_LOCKS: dict[str, int] = {}


#: how long a command waits for another benchkg to let go of the store (BENCHKG_LOCK_WAIT seconds)
LOCK_WAIT_S = 600.0


#: a wait shorter than this goes unmentioned (three queries at once wait a few tenths each)
TELL_AFTER_S = 1.0


def lock_wait() -> float:
    """Seconds to wait for another benchkg to let go of a store: ``BENCHKG_LOCK_WAIT``, or 600.

    :raises UsageError: for a value that is not a number of seconds.
    """
    text = os.environ.get("BENCHKG_LOCK_WAIT")
    if text is None:
        return LOCK_WAIT_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1e9:
        raise UsageError(
            f"BENCHKG_LOCK_WAIT={text[:40]!r} is not a number of seconds; set it to e.g. 30, or unset it "
            f"(the default is {LOCK_WAIT_S:g})"
        )
    return value


class _Turn:
    """One wait for the store: the deadline, and whether the user has been told (once).

    >>> turn = _Turn(Path("/repo/.benchkg/store"), wait=0)
    >>> turn.over()
    True
    """

    def __init__(self, path: Path, wait: float | None = None) -> None:
        self.path = path
        self.wait = lock_wait() if wait is None else wait
        self.started, self.told = time.monotonic(), False
        self.deadline = self.started + self.wait

    def over(self) -> bool:
        return time.monotonic() >= self.deadline

    def pause(self, holder: str) -> None:
        """Say once whom we wait for (if the wait is long enough to notice), then sleep a little."""
        if not self.told and time.monotonic() - self.started >= TELL_AFTER_S:
            print(f"waiting for {holder} to let go of the store at {self.path}…", file=sys.stderr, flush=True)
            self.told = True
        time.sleep(0.05)

    def give_up(self, holder: str) -> StoreError:
        return StoreError(
            f"{holder} is using the store at {self.path} (waited {self.wait:g} s); let it finish and "
            "run the command again (BENCHKG_LOCK_WAIT=SECONDS waits longer); the store is fine"
        )


def _holder(fd: int) -> str:
    return os.pread(fd, 400, 0).decode("utf-8", "replace").strip() or "another benchkg"


def _take_lock(path: Path, turn: _Turn) -> int:
    """Wait for, and take, the store's lock: one process at a time opens a store read-write (RocksDB
    allows no more); the others wait, saying so once, instead of failing. ``benchkg serve`` reads
    without it."""
    try:  # never through a link: a cloned repository's lock could point at any file, which we would overwrite
        fd = os.open(path.parent / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise StoreError(
                f"the lock {path.parent / 'lock'} is a symbolic link; benchkg does not write through links "
                f"in its state: remove the link (nothing is lost: the lock holds only a process id)"
            ) from None
        raise StoreError(
            f"cannot take the lock {path.parent / 'lock'}: {e.strerror or e}; it must be a file benchkg "
            f"can write (remove whatever is there when no benchkg runs)"
        ) from None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            holder = _holder(fd)
            if turn.over():
                os.close(fd)
                raise turn.give_up(holder) from None
            turn.pause(holder)
    me = f"pid {os.getpid()} ({' '.join(['benchkg', *sys.argv[1:2]]) if sys.argv else 'benchkg'})".encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, me, 0)
    return fd


def _release(key: str) -> None:
    OPEN_STORES.pop(key, None)  # the store closes here, when nothing else holds it …
    fd = _LOCKS.pop(key, None)
    if fd is not None:
        os.close(fd)  # … and only then goes the lock


def _open_rocksdb(path: Path, turn: _Turn) -> Store:
    """Open the store's folder, waiting while a process that already let go of our lock is still
    closing it, or a program that does not take our lock has it open."""
    while True:
        try:
            return Store(str(path))
        except OSError as e:
            if "current process" in str(e):
                # A store this process opened earlier may still wait in a reference cycle (pyshacl
                # keeps frames alive); collecting closes it, so in-process callers can reopen.

                gc.collect()
                return Store(str(path))
            if "lock" not in str(e).lower():
                raise
            if turn.over():
                raise StoreError(
                    f"cannot open the store at {path}: another program has it open ({e}); "
                    "let it finish and run the command again"
                ) from e
            turn.pause("another program")


#: guards the tables above: two threads opening one store get the same store, never two locks
_TABLE = threading.RLock()


#: one lock per store folder: a build and a query of one store in two threads take turns
_GUARDS: dict[str, threading.RLock] = {}


def store_guard(path: Path | None) -> threading.RLock:
    """The lock threads of this process take to use the store at ``path`` (a new one for ``None``,
    an in-memory store of one's own)."""
    if path is None:
        return threading.RLock()
    with _TABLE:
        return _GUARDS.setdefault(str(Path(path).absolute()), threading.RLock())


def _release_unheld() -> None:
    """Let go of the stores nothing but the table holds (the table and getrefcount's argument are
    2), and of those whose folder is gone."""
    for old in [k for k in OPEN_STORES if sys.getrefcount(OPEN_STORES[k]) <= 2 or not Path(k, "CURRENT").exists()]:
        _release(old)


def open_store(path: Path | None) -> Store:
    """Open (or create) the on-disk store at ``path``, or give the one this process has open there;
    ``None`` gives an in-memory store. Threads may call it at once."""
    if path is None:
        return Store()
    with _TABLE:
        return _open_on_disk(Path(path))


def _open_on_disk(path: Path) -> Store:
    key = str(Path(path).absolute())
    _release_unheld()
    if key in OPEN_STORES:
        return OPEN_STORES[key]
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot create the store at {path}: {e.strerror or e}") from None
    turn = _Turn(path)
    fd = _take_lock(path, turn)
    try:
        store = _open_rocksdb(path, turn)
    except StoreError:
        os.close(fd)
        raise
    except OSError as e:
        os.close(fd)
        if cannot_write(e):  # RocksDB writes when it opens (its log): a full disk is not a damaged store
            raise StoreError(f"{cannot_write(e)}; the store at {path} is intact") from e
        raise StoreError(
            f"cannot open the store at {path}: {e}; it is damaged: delete {path} and run `benchkg build`"
        ) from e
    OPEN_STORES[key] = store
    _LOCKS[key] = fd
    return store


def close_store(path: Path) -> None:
    """Let go of the on-disk store at ``path`` (it closes once nothing else holds it), so other
    processes may open it: ``benchkg serve`` after its build."""
    with _TABLE:
        _release(str(Path(path).absolute()))
    gc.collect()


def let_go() -> None:
    """Close the stores of this process that nothing holds any more, and let go of their locks
    (``KnowledgeGraph.close``): another process may open them now."""
    gc.collect()
    with _TABLE:
        _release_unheld()


def remove_tree(path: Path) -> None:
    """Remove a folder benchkg made (a reader that has it open keeps reading its files)."""
    if path.is_dir() and not path.is_symlink():
        trash = path.with_name(f"{path.name}.{os.getpid()}.gone")
        try:
            os.replace(path, trash)
        except OSError:
            return
        shutil.rmtree(trash, ignore_errors=True)


def readable_store(store_dir: Path, base: str = DEFAULT_BASE) -> Store | None:
    """The last complete build of the store at ``store_dir``, opened read-only, for a reader beside
    the writer (``benchkg serve``): the store itself when no build is writing it, else the copy the
    build made before its first change (:func:`snapshot_dir_for`); None when neither is complete
    (a build writes a new store, or one was cut off: try again)."""
    for folder in (Path(store_dir), snapshot_dir_for(store_dir)):
        try:
            store = Store.read_only(str(folder))
        except OSError:  # no copy, or a build removing it right now
            continue
        if is_complete(store, base):
            return store
    return None
