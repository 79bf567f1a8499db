"""The embedded store: records -> pyoxigraph, rebuilt only for the record files that changed.

The store lives in ``.benchkg/store`` beside the data folder. A *manifest* graph inside it keeps,
per record graph, the file's size, mtime and content hash, so an unchanged file is not even
read again.

A build is crash-safe: it leaves the store as it was or, after the next build, as it will be.
A record's new graph and its new manifest entry are written in one transaction, after its old
entry is gone, so an entry always describes the graph beside it; a graph without an entry is
rewritten or dropped. A *building* mark is written before the first change and removed after the
last: a build that finds it knows the one before was cut off, trusts no snapshot and no "only the
mtime changed", sweeps graphs no entry accounts for and derives every caveat again.
"""

from __future__ import annotations

import errno
import fcntl
import gc
import hashlib
import json
import multiprocessing
import os
import shutil
import sys
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, Store, serialize

from benchkg.graph.audited import AUDITED_BY, audited_quads
from benchkg.graph.mapping import record_quads
from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.errors import InputError, InputProblem, StoreError, UsageError, cannot_write
from benchkg.kernel.lifeline import die_with_parent
from benchkg.kernel.resources import ONTOLOGY_FILE
from benchkg.kernel.version import __version__
from benchkg.kernel.vocab import BK, DEFAULT_BASE, expand, sparql_prefixes
from benchkg.records.layout import layout_for, shape_files
from benchkg.records.reader import Record, read_record, record_entries, stat_key
from benchkg.records.schema import BENCHMARK, BENCHMARK_FIELD_PATHS
from benchkg.rules.engine import run_fast
from benchkg.rules.shapes import load_shapes

ONTOLOGY_GRAPH = "https://w3id.org/benchkg/ontology"
#: bump when the mapping changes, so stores built by an older mapping are rebuilt whole.
MAPPING_VERSION = f"{__version__}+3"
_STATE = NamedNode(BK + "buildState")
_STAT = NamedNode(BK + "fileStat")
_GENERATION = NamedNode(BK + "manifestGeneration")
_CAVEATS_DONE = NamedNode(BK + "caveatsDerived")
_BUILDING = NamedNode(BK + "buildInProgress")
#: an empty store is filled by worker processes from this many files on, CHUNK files per task
PARALLEL_FROM = 2000
CHUNK = 1000


def manifest_graph(base: str) -> NamedNode:
    """The graph that records what the store holds (never exported)."""
    return NamedNode(f"{base}graph/manifest")


def caveats_graph(base: str) -> NamedNode:
    """The graph of what a build derives about claims: ``bk:caveat`` links to the gotchas that apply
    to them, and ``bk:auditedBy`` links to the audited results vendor claims restate."""
    return NamedNode(f"{base}graph/caveats")


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


#: the on-disk stores this process has open, by folder: RocksDB lets a process open a folder once,
#: so a second build, query or ``benchkg.open`` of the same data in one process shares the store
_OPEN: dict[str, Store] = {}
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
    _OPEN.pop(key, None)  # the store closes here, when nothing else holds it …
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
    for old in [k for k in _OPEN if sys.getrefcount(_OPEN[k]) <= 2 or not Path(k, "CURRENT").exists()]:
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
    if key in _OPEN:
        return _OPEN[key]
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
    _OPEN[key] = store
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


@dataclass
class BuildResult:
    """What a build did."""

    store: Store
    base: str
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0

    @property
    def touched(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def _stat_key(path) -> str:
    """The :func:`~benchkg.records.reader.stat_key` of the file at ``path`` now."""
    return stat_key(os.stat(path))


def _ontology_quads() -> list[Quad]:
    graph = NamedNode(ONTOLOGY_GRAPH)
    store = Store()
    store.load(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE, to_graph=graph)
    return list(store.quads_for_pattern(None, None, None, graph))


def build_graph(
    data_dir: Path, store: Store | None = None, *, base: str = DEFAULT_BASE, persist: bool = True, progress=None
) -> BuildResult:
    """Bring the store up to date with ``data_dir`` and return it.

    Longer than most on purpose: it is the crash-safe build's steps in the order they must happen
    (read the state, plan from every record read, mark the build begun, write, drop, finish), each
    a function of its own; split further, the order would be spread over several places.

    :param store: an open store to update; by default the persistent store beside the data
        (``persist=True``) or a fresh in-memory one.
    :param progress: optional callable ``(done, total)`` for a progress bar.
    :raises InputError: if any record cannot be read; the store is then left as it was.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "models").mkdir(); _ = (d / "models" / "m.json").write_text('{"id": "m", "name": "M"}')
    >>> r = build_graph(d, persist=False)
    >>> r.added, len(build_graph(d, r.store).added)
    (['models/m'], 0)
    """
    data_dir = Path(data_dir)
    if not data_dir.is_dir():  # before the store is opened: a mistyped --data must leave nothing behind
        raise InputError.at(data_dir, None, "", "data folder not found; pass --data DIR or set BENCHKG_DATA")
    snapshot = readers_copy = None
    if store is None:
        store = open_store(store_dir_for(data_dir) if persist else None)
        snapshot = store_dir_for(data_dir).parent / "manifest.json" if persist else None
        readers_copy = snapshot_dir_for(store_dir_for(data_dir)) if persist else None
    manifest = manifest_graph(base)
    state = f"{MAPPING_VERSION} {base} {hashlib.sha256(ONTOLOGY_FILE.read_bytes()).hexdigest()}"
    old_state = [q.object.value for q in store.quads_for_pattern(manifest, _STATE, None, manifest)]
    rebuild_all = old_state != [state]  # another mapping, base IRI or ontology: nothing is reusable
    interrupted = next(iter(store.quads_for_pattern(manifest, _BUILDING, None, manifest)), None) is not None
    known, snapshot_valid = (
        ({}, False) if rebuild_all else _read_manifest(store, manifest, None if interrupted else snapshot)
    )
    entries = dict(known)  # the manifest as this build leaves it
    result = BuildResult(store, base)
    names = record_entries(data_dir)  # the data folder's records, and the reference records it uses
    shape_dirs = layout_for(data_dir).shape_dirs
    if rebuild_all and not old_state and len(names) > PARALLEL_FROM and not len(store):
        store.add(Quad(manifest, _BUILDING, Literal("1"), manifest))
        _cold_load(
            store, [(kind, Path(folder, kind, name)) for kind, name, folder in names], base, result, progress, entries
        )
        return _finish(
            store,
            base,
            state,
            result,
            rebuild_all=True,
            optimize=True,
            snapshot=snapshot,
            entries=entries,
            shape_dirs=shape_dirs,
            readers_copy=readers_copy,
        )
    todo, seen = _plan(names, known, f"{base}id/", interrupted, result)
    gone = [iri for iri in known if iri not in seen]
    if todo or gone or interrupted or rebuild_all:  # only now that every record has read
        _begin_changes(store, manifest, readers_copy)
    if rebuild_all:  # a failed build leaves the store as it was
        store.clear()
        store.add(Quad(manifest, _BUILDING, Literal("1"), manifest))
    bulk = not known and len(todo) > 1000
    problems = _write_changes(
        store,
        todo,
        base,
        entries,
        result,
        rebuild_all=rebuild_all,
        bulk=bulk,
        progress=progress,
        total=len(todo) + len(gone),
    )
    _drop_gone(store, gone, base, entries, result, interrupted)
    result = _finish(
        store,
        base,
        state,
        result,
        rebuild_all=rebuild_all,
        optimize=bulk,
        snapshot=snapshot,
        entries=entries,
        snapshot_valid=snapshot_valid,
        shape_dirs=shape_dirs,
        interrupted=interrupted,
        readers_copy=readers_copy,
    )
    if problems:  # records that could not be mapped: the rest is built, these are as they were
        raise InputError(problems)
    return result


def _plan(names, known: dict, prefix: str, interrupted: bool, result: BuildResult) -> tuple[list, set[str]]:
    """What this build does per record: ``(record, "added" | "changed" | "touch")`` for each record
    that is new or whose file changed (a touch when only its stat did), and the graph IRIs seen.
    Every record is read before anything is written.

    :raises InputError: with every record that cannot be read.
    """
    todo: list[tuple[Record, str]] = []
    problems = []
    seen: set[str] = set()
    for kind, name, folder in names:
        graph_iri = f"{prefix}{kind}/{name[:-5]}"
        seen.add(graph_iri)
        old = known.get(graph_iri)
        stat = _stat_or_empty(f"{folder}/{kind}/{name}")
        if old is not None and stat and old.split(" ")[0] == stat:
            result.unchanged += 1
            continue
        try:
            record = read_record(Path(folder, kind, name), kind)
        except InputError as e:
            problems.extend(e.problems)
            continue
        if old is not None and old.split(" ")[-1] == record.digest and not interrupted:
            todo.append((record, "touch"))
        else:
            todo.append((record, "changed" if old is not None else "added"))
    if problems:
        raise InputError(problems)
    return todo, seen


def _write_changes(
    store: Store,
    todo: list,
    base: str,
    entries: dict,
    result: BuildResult,
    *,
    rebuild_all: bool,
    bulk: bool,
    progress,
    total: int,
) -> list:
    """Write each planned record's graph with its manifest entry in one transaction (a touch only
    renews the entry); the problems of records that could not be mapped, which stay as they were."""
    manifest, prefix = manifest_graph(base), f"{base}id/"
    problems: list = []
    batch: list[Quad] = []
    for n, (record, what) in enumerate(todo, 1):
        graph = NamedNode(prefix + f"{record.kind}/{record.id}")
        entry = Literal(f"{record.stat} {record.digest}")
        if what != "touch":
            try:  # mapped before anything is removed: a record that cannot be mapped stays as it was
                quads = record_quads(record, base)
            except _MAPPING_ERRORS as e:
                problems.append(_unmappable(record.path, e))
                continue
        entries[graph.value] = entry.value
        for q in list(store.quads_for_pattern(graph, _STAT, None, manifest)):
            store.remove(q)  # the entry first: a graph without an entry is rewritten by the next build
        if what == "touch":
            store.add(Quad(graph, _STAT, entry, manifest))
            result.unchanged += 1
            continue
        if not rebuild_all:  # "added" too: a graph may be left by a build cut off after its entry went
            store.remove_graph(graph)
        quads.append(Quad(graph, _STAT, entry, manifest))  # the graph and its entry in one transaction
        if bulk:
            batch.extend(quads)
            if len(batch) > 200_000:
                store.bulk_extend(batch)
                batch = []
        else:
            store.extend(quads)
        (result.added if what == "added" else result.changed).append(f"{record.kind}/{record.id}")
        if progress:
            progress(n, total)
    if batch:
        store.bulk_extend(batch)
    return problems


def _drop_gone(store: Store, gone: list[str], base: str, entries: dict, result: BuildResult, interrupted: bool) -> None:
    """Remove the graphs of deleted records (graph first, then entry), and after an interrupted build
    any record graph no entry accounts for."""
    manifest, prefix = manifest_graph(base), f"{base}id/"
    for iri in gone:
        graph = NamedNode(iri)
        store.remove_graph(graph)  # the graph first: an entry without its graph is "gone" again next time
        for q in list(store.quads_for_pattern(graph, _STAT, None, manifest)):
            store.remove(q)
        entries.pop(iri, None)
        result.removed.append(iri[len(prefix) :])
    if interrupted:  # a graph no entry accounts for was being written or dropped when the build stopped
        for graph in list(store.named_graphs()):
            if graph.value.startswith(prefix) and graph.value not in entries:
                store.remove_graph(graph)


#: what a record that passed its checks may still raise when mapped (a value the checks let through)
_MAPPING_ERRORS = (ValueError, TypeError, OverflowError, ArithmeticError)


def _unmappable(path: Path, error: Exception) -> InputProblem:
    return InputProblem(
        path,
        None,
        "",
        f"cannot be turned into RDF ({error}); fix the record (the store keeps what it had for this file)",
    )


def _finish(
    store: Store,
    base: str,
    state: str,
    result: BuildResult,
    *,
    rebuild_all: bool,
    optimize: bool,
    snapshot: Path | None,
    entries: dict[str, str],
    snapshot_valid: bool = False,
    shape_dirs: tuple[Path, ...] = (),
    interrupted: bool = False,
    readers_copy: Path | None = None,
) -> BuildResult:
    """What every build ends with once the records are in: the ontology and build state (after a
    full rebuild), the gotcha links of what changed (all of them after an interrupted build),
    compaction after a bulk load, the manifest snapshot, and last the building mark removed."""
    manifest, prefix = manifest_graph(base), f"{base}id/"
    if rebuild_all:
        store.extend(_ontology_quads())
        store.add(Quad(manifest, _STATE, Literal(state), manifest))
    # caveats derived to the end, with today's shapes (finding caveats are the findings of some of them)
    digest = _shapes_digest(shape_dirs)
    complete = any(q.object.value == digest for q in store.quads_for_pattern(manifest, _CAVEATS_DONE, None, manifest))
    if (
        rebuild_all
        or not complete
        or interrupted
        or any(key.startswith("gotchas/") for key in result.added + result.changed + result.removed)
    ):
        _derive_caveats(store, base, shape_dirs=shape_dirs)
    elif result.touched:  # only claims (or entities they name) changed: re-derive just those claims
        keys = result.added + result.changed + result.removed
        claims = [prefix + key for key in keys if key.startswith("benchmarks/")]
        _derive_caveats(store, base, claims, shape_dirs=shape_dirs, claims_only=len(claims) == len(keys))
    if optimize:
        store.optimize()  # after a bulk load; at 100k claims: leaderboard 0.63 -> 0.27 s, for 6.8 s
    if result.touched or rebuild_all or interrupted or (snapshot is not None and not snapshot_valid):
        _write_manifest(store, manifest, snapshot, entries)
    for q in list(store.quads_for_pattern(manifest, _BUILDING, None, manifest)):
        store.remove(q)
    if readers_copy is not None:  # readers read the store itself again
        _remove_tree(readers_copy)
    return result


def is_complete(store: Store, base: str = DEFAULT_BASE) -> bool:
    """Whether ``store`` holds a complete build: its build state is recorded and no build is writing
    it (or was cut off writing it). A reader answers only from a complete store.

    >>> is_complete(Store())
    False
    """
    manifest = manifest_graph(base)
    has = lambda p: next(iter(store.quads_for_pattern(manifest, p, None, manifest)), None) is not None  # noqa: E731
    return has(_STATE) and not has(_BUILDING)


def _begin_changes(store: Store, manifest: NamedNode, readers_copy: Path | None) -> None:
    """Before a build's first change: a copy of the store for readers while it writes (RocksDB
    hard links: ~50 ms for data/), if the store is complete now; then the building mark."""
    if readers_copy is not None and is_complete(store, manifest.value[: -len("graph/manifest")]):
        _remove_tree(readers_copy)
        fresh = readers_copy.with_name(f"{readers_copy.name}.{os.getpid()}.tmp")
        _remove_tree(fresh)
        try:
            store.backup(str(fresh))
            os.replace(fresh, readers_copy)
        except OSError:  # no copy: readers wait for the build instead
            _remove_tree(fresh)
    store.add(Quad(manifest, _BUILDING, Literal("1"), manifest))


def _remove_tree(path: Path) -> None:
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


def _stat_or_empty(path) -> str:
    try:
        return _stat_key(path)
    except OSError:
        return ""


def _read_manifest(store: Store, manifest: NamedNode, snapshot: Path | None) -> tuple[dict[str, str], bool]:
    """graph IRI -> "size:mtime sha256" of every record file the store holds, and whether it came
    from the snapshot file. The manifest quads are the truth; the snapshot (``.benchkg/manifest.json``)
    is a copy written after each build, used when its generation is the store's (reading 100k
    quads takes ~1.5 s, the snapshot ~0.2 s). A snapshot older than the store only makes a build
    re-read files, which is harmless: every step of a build can be repeated."""
    generation = [q.object.value for q in store.quads_for_pattern(manifest, _GENERATION, None, manifest)]
    if snapshot is not None and generation:
        try:
            data = json.loads(snapshot.read_text(encoding="utf-8"))
            if data.get("generation") == generation[0] and isinstance(data.get("entries"), dict):
                return data["entries"], True
        except (OSError, ValueError):
            pass
    return {q.subject.value: q.object.value for q in store.quads_for_pattern(None, _STAT, None, manifest)}, False


def _write_manifest(store: Store, manifest: NamedNode, snapshot: Path | None, entries: dict[str, str]) -> None:
    """A new generation in the store, then the snapshot of the manifest that goes with it."""
    if snapshot is None:
        return

    generation = uuid.uuid4().hex
    for q in list(store.quads_for_pattern(manifest, _GENERATION, None, manifest)):
        store.remove(q)
    store.add(Quad(manifest, _GENERATION, Literal(generation), manifest))
    write_atomic(
        snapshot, json.dumps({"generation": generation, "entries": entries}, separators=(",", ":")).encode("utf-8")
    )


@contextmanager
def _main_not_rerun():
    """While workers start: a spawned worker runs the parent's ``__main__`` again (as ``__mp_main__``)
    unless it cannot find it. The workers need nothing of it, and a user's script without an
    ``if __name__ == "__main__"`` guard would build again in each worker, each waiting for the lock
    the first holds, for ever. So they are not told where it is."""
    main = sys.modules.get("__main__")
    saved = {name: main.__dict__[name] for name in ("__file__", "__spec__") if main and name in main.__dict__}
    try:
        if main is not None:
            main.__dict__.pop("__file__", None)
            main.__spec__ = None
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)


def _cold_load(store: Store, files, base: str, result: BuildResult, progress, entries: dict[str, str]) -> None:
    """Fill an empty store from many files: worker processes read, check and map the records to
    N-Quads text while this one bulk-loads it (Oxigraph parses it in Rust). On any input error
    the store is emptied again, as it was, and every problem is reported."""
    chunks = [files[i : i + CHUNK] for i in range(0, len(files), CHUNK)]
    problems, done = [], 0
    workers = max(1, min(4, os.cpu_count() or 1))
    # spawn, not fork: the open store runs threads of its own
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:  # a killed build leaves no worker
        with _main_not_rerun():  # map submits every chunk now: every worker starts inside
            answers = pool.map(_map_chunk, [(base, chunk) for chunk in chunks])
        for data, written, found in answers:
            problems += found
            if not problems:
                store.bulk_load(input=data, format=RdfFormat.N_QUADS)
            entries.update(written)
            result.added += [iri[len(base) + 3 :] for iri in written]
            done += len(written)
            if progress:
                progress(done, len(files))
    if problems:
        store.clear()
        raise InputError(problems)


def _map_chunk(job) -> tuple[bytes, dict[str, str], list]:
    """Worker: (base, [(kind, path)…]) -> (N-Quads of the records and their manifest entries,
    the entries by graph IRI, input problems)."""
    base, chunk = job
    quads, entries, problems = [], {}, []
    manifest = manifest_graph(base)
    for kind, path in chunk:
        try:
            record = read_record(path, kind)
        except InputError as e:
            problems += e.problems
            continue
        graph = NamedNode(f"{base}id/{kind}/{record.id}")
        entry = f"{record.stat} {record.digest}"
        try:
            quads += record_quads(record, base)
        except _MAPPING_ERRORS as e:
            problems.append(_unmappable(record.path, e))
            continue
        quads.append(Quad(graph, _STAT, Literal(entry), manifest))
        entries[graph.value] = entry
    return (serialize(quads, format=RdfFormat.N_QUADS) or b"") if not problems else b"", entries, problems


def _field_paths_by_predicate() -> dict[str, str]:
    """predicate IRI -> SPARQL property path from a claim to its values (a nested field such as
    ``load.concurrency`` goes through its parent node)."""

    paths: dict[str, list[str]] = {}
    for name, spec in BENCHMARK_FIELD_PATHS.items():
        steps = name.split(".")
        hops, fields = [], BENCHMARK
        for step in steps:
            field = fields[step]
            hops.append(f"<{expand(field.pred)}>")
            inner = field.items if field.type == "list" else field
            fields = inner.fields if inner.type == "obj" else {}
        if name in ("metric", "value", "unit", "scope"):
            hops = [f"<{expand('bk:result')}>"] + hops
        paths.setdefault(expand(spec.pred), []).append("/".join(hops))
    return {pred: "|".join(f"({p})" for p in alts) for pred, alts in paths.items()}


def _derive_caveats(
    store: Store,
    base: str,
    claims: list[str] | None = None,
    *,
    shape_dirs: tuple[Path, ...] = (),
    claims_only: bool = False,
) -> None:
    """Recompute which gotchas apply to which single claims (DESIGN §5.4): those a claim links
    (``gotcha_ids``); *claim caveats*, whose ``applies_to`` facets all match it (one join query per
    gotcha keeps it linear in the number of claims); and *finding caveats*, which apply to exactly
    the claims their ``finding_shapes`` flag. *Comparison caveats* (``compares``) apply to a set of
    claims, never to one, and are found per answer (:mod:`benchkg.answers.caveats`).

    ``claims`` limits the linked and claim caveats to those claim IRIs (when no gotcha changed, they
    depend only on the claim itself); finding caveats are recomputed whole, because a finding may
    pair a claim with another (Server beats Offline). By default every claim is re-derived.
    ``shape_dirs`` are the folders of shapes (benchkg's by default). ``claims_only`` says that nothing
    but those claims changed (no system or chip a match reads at), so only their audited links are redone."""
    graph = caveats_graph(base)
    manifest = manifest_graph(base)
    for old in list(store.quads_for_pattern(manifest, _CAVEATS_DONE, None, manifest)):
        store.remove(old)  # back only when this derivation is complete: an interrupted one is redone whole
    done = Quad(manifest, _CAVEATS_DONE, Literal(_shapes_digest(shape_dirs)), manifest)
    prefixes = sparql_prefixes()
    only = "VALUES ?claim { " + " ".join(f"<{c}>" for c in claims) + " } " if claims is not None else ""
    quads = [
        Quad(t.subject, t.predicate, t.object, graph)
        for t in store.query(
            prefixes + "CONSTRUCT { ?claim bk:caveat ?g } WHERE { " + only + "?claim a bk:Benchmark ; bk:gotcha ?g }",
            use_default_graph_as_union=True,
        )
    ]
    finding_gotchas, finding_quads = _finding_caveats(store, graph, NamedNode(BK + "caveat"), shape_dirs)
    if claims is not None and finding_gotchas:
        # a finding gotcha's links are all redone (below), so its linked and matched ones are derived
        # for every claim, not only the changed ones
        changed = set(claims)
        quads += [
            Quad(t.subject, t.predicate, t.object, graph)
            for t in store.query(
                prefixes
                + "CONSTRUCT { ?claim bk:caveat ?g } WHERE { VALUES ?g { "
                + " ".join(f"<{g.value}>" for g in finding_gotchas)
                + " } ?claim a bk:Benchmark ; bk:gotcha ?g }",
                use_default_graph_as_union=True,
            )
            if t.subject.value not in changed
        ]
    jobs = _claim_caveat_queries(store, prefixes, only, {g.value for g in finding_gotchas})
    caveat = NamedNode(BK + "caveat")

    def run(job):
        node, query = job
        return [Quad(r["claim"], caveat, node, graph) for r in store.query(query, use_default_graph_as_union=True)]

    with ThreadPoolExecutor(max_workers=2) as pool:  # Oxigraph runs queries without Python's lock
        for found in pool.map(run, jobs):
            quads += found
    # which audited result each vendor claim restates: when only claims changed, the links from and to
    # them (a changed audited result changes the links of unchanged vendor claims), else all of them
    finding_quads = finding_quads + audited_quads(store, graph, claims if claims_only else None)
    if claims is None:
        if next(iter(store.quads_for_pattern(None, None, None, graph)), None) is not None:
            store.remove_graph(graph)
        store.bulk_extend(sorted(set(quads + finding_quads), key=str))
    else:
        for claim in claims:
            for old in list(store.quads_for_pattern(NamedNode(claim), None, None, graph)):
                store.remove(old)
        for gotcha in finding_gotchas:
            for old in list(store.quads_for_pattern(None, caveat, gotcha, graph)):
                store.remove(old)
        changed = {NamedNode(c) for c in claims}
        for old in list(store.quads_for_pattern(None, AUDITED_BY, None, graph)):
            if not claims_only or old.subject in changed or old.object in changed:
                store.remove(old)
        store.extend(set(quads + finding_quads))
    store.add(done)


def _claim_caveat_queries(store: Store, prefixes: str, only: str, redone: set[str]) -> list[tuple[NamedNode, str]]:
    """One ``(gotcha, SELECT ?claim …)`` per claim caveat: the claims all its ``applies_to`` facets
    match. ``only`` (a VALUES clause) limits them to changed claims, except for the gotchas in
    ``redone`` (finding gotchas, whose links are all rederived)."""
    facets: dict[str, dict[str, list[str]]] = {}
    for row in store.query(
        prefixes
        + """SELECT ?g ?facet ?v WHERE { ?g a bk:Gotcha ; bk:appliesTo ?a .
            ?a ?facet ?v . FILTER (?facet IN (bk:appliesToSuite, bk:appliesToScenario, bk:appliesToMetric,
            bk:appliesToField, bk:appliesToMeasuredBy)) }""",
        use_default_graph_as_union=True,
    ):
        facets.setdefault(row["g"].value, {}).setdefault(row["facet"].value.rsplit("#", 1)[1], []).append(
            row["v"].value
        )
    field_paths = _field_paths_by_predicate()
    jobs = []
    for gotcha, given in sorted(facets.items()):
        where = [("" if gotcha in redone else only) + "?claim a bk:Benchmark ."]
        for facet, pattern in (
            ("appliesToSuite", "?claim bk:suite ?{v} ."),
            ("appliesToScenario", "?claim bk:scenario ?{v} ."),
            ("appliesToMetric", "?claim bk:result/bk:metric ?{v} ."),
            ("appliesToMeasuredBy", "?claim bk:measuredBy ?{v} ."),
        ):
            if facet in given:
                var = facet.lower()
                where.append(f"VALUES ?{var} {{ {' '.join(f'<{v}>' for v in given[facet])} }} " + pattern.format(v=var))
        if "appliesToField" in given:
            alternatives = [field_paths.get(p, f"<{p}>") for p in given["appliesToField"]]
            where.append("FILTER EXISTS { " + " UNION ".join(f"{{ ?claim {a} ?any }}" for a in alternatives) + " }")
        jobs.append((NamedNode(gotcha), prefixes + "SELECT DISTINCT ?claim WHERE { " + " ".join(where) + " }"))
    return jobs


def _shapes_digest(shape_dirs: tuple[Path, ...] = ()) -> str:
    """A digest of the shapes the finding caveats were derived with: new shapes, new derivation."""
    h = hashlib.sha256()
    for path in shape_files(shape_dirs):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _finding_caveats(
    store: Store, graph: NamedNode, caveat: NamedNode, shape_dirs: tuple[Path, ...] = ()
) -> tuple[list[NamedNode], list[Quad]]:
    """The finding caveats: (the gotchas that name finding shapes, a link from each claim one of
    those shapes flags to the gotcha). Only the named shapes run, over the whole graph."""
    by_shape: dict[str, list[NamedNode]] = {}
    for row in store.query(
        sparql_prefixes() + "SELECT ?g ?shape WHERE { ?g a bk:Gotcha ; bk:findingShape ?shape }",
        use_default_graph_as_union=True,
    ):
        by_shape.setdefault(row["shape"].value.rsplit("#", 1)[1], []).append(row["g"])
    if not by_shape:
        return [], []

    flagged = [r for r in run_fast(store, load_shapes(shape_dirs), only=set(by_shape)) if r.focus.startswith("http")]
    # a finding on a system (its name states another count) is a caveat on every claim that ran on it
    systems = {r.focus for r in flagged}
    on_system: dict[str, list[NamedNode]] = {}
    if systems:
        values = " ".join(f"<{s}>" for s in sorted(systems))
        for row in store.query(
            sparql_prefixes()
            + f"SELECT ?system ?claim WHERE {{ VALUES ?system {{ {values} }} ?system a bk:System "
            + "OPTIONAL { ?claim bk:system ?system } }",
            use_default_graph_as_union=True,
        ):
            on_system.setdefault(row["system"].value, []).extend([row["claim"]] if row["claim"] else [])
    quads = {
        Quad(claim, caveat, gotcha, graph)
        for r in flagged
        for claim in (on_system[r.focus] if r.focus in on_system else [NamedNode(r.focus)])
        for gotcha in by_shape[r.shape]
    }
    return sorted({g for gs in by_shape.values() for g in gs}, key=str), sorted(quads, key=str)


def content_graphs(store: Store, base: str = DEFAULT_BASE) -> list[NamedNode]:
    """The graphs of the published dataset: one per record, plus the derived caveats; not the
    manifest and not the ontology (published on its own).
    """
    skip = {manifest_graph(base).value, ONTOLOGY_GRAPH}
    return sorted(
        (g for g in store.named_graphs() if isinstance(g, NamedNode) and g.value not in skip), key=lambda g: g.value
    )


def content_quads(store: Store, base: str = DEFAULT_BASE):
    """Every quad of the published dataset (see :func:`content_graphs`)."""
    for graph in content_graphs(store, base):
        yield from store.quads_for_pattern(None, None, None, graph)
