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

Long because it is the build's steps in the order they must happen, the cold build's workers with them
(what a worker maps and derives, and what the build does with it once every chunk is in, are read
together).
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, Store, serialize

from benchkg.graph.audited import AUDITED_BY, links, side_results
from benchkg.graph.derived import caveats_graph, claims_on, derive_caveats, partners, shapes_digest
from benchkg.graph.facts import Inputs, Mapped, Tiered, mapped_facts, models_of
from benchkg.graph.fingerprint import code_fingerprint
from benchkg.graph.manifest import (
    BUILDING,
    CAVEATS_DONE,
    STAT,
    STATE,
    Entry,
    is_complete,
    manifest_graph,
    read_manifest,
    stat_or_empty,
    write_manifest,
)
from benchkg.graph.mapping import record_quads
from benchkg.graph.opening import Workspace, open_store, remove_tree
from benchkg.kernel.errors import InputError, InputProblem
from benchkg.kernel.lifeline import die_with_parent, main_not_rerun
from benchkg.kernel.matching import Result
from benchkg.kernel.resources import ONTOLOGY_FILE
from benchkg.kernel.terminal import Progress
from benchkg.kernel.version import __version__
from benchkg.kernel.vocab import DEFAULT_BASE
from benchkg.records.reader import Record, read_record, record_entries

ONTOLOGY_GRAPH = "https://w3id.org/benchkg/ontology"
#: the code that makes the mapped and derived graph, computed (graph/fingerprint.py): a store built by
#: other code is rebuilt whole; nothing to bump by hand (issue 63)
MAPPING_VERSION = f"{__version__}+{code_fingerprint('benchkg.graph.store')}"
#: an empty store is filled by worker processes from this many files on, CHUNK files per task
PARALLEL_FROM = 2000
CHUNK = 1000


@dataclass
class BuildResult:
    """What a build did."""

    store: Store
    base: str
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    restated: int = 0  # unchanged records whose file state was recorded again (read, same content)

    @property
    def touched(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def _ontology_quads() -> list[Quad]:
    graph = NamedNode(ONTOLOGY_GRAPH)
    store = Store()
    store.load(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE, to_graph=graph)
    return list(store.quads_for_pattern(None, None, None, graph))


def build_graph(
    data_dir: Path,
    store: Store | None = None,
    *,
    base: str = DEFAULT_BASE,
    persist: bool = True,
    progress: Progress | None = None,
    workspace: Workspace | None = None,
) -> BuildResult:
    """Bring the store up to date with ``data_dir`` and return it.

    Long because it is the crash-safe build's steps in the order they must happen
    (read the state, plan from every record read, mark the build begun, write, drop, finish), each
    a function of its own; split further, the order would be spread over several places.

    :param store: an open store to update; by default the persistent store beside the data
        (``persist=True``) or a fresh in-memory one.
    :param progress: optional callable ``(done, total)`` for a progress bar.
    :param workspace: the data folder's :class:`~benchkg.graph.opening.Workspace` (its layout and
        state paths), when the caller has it; read here otherwise.
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
    ws = workspace or Workspace.of(data_dir, base)
    snapshot = readers_copy = None
    if store is None:
        store = open_store(ws.store_dir if persist else None)
        snapshot = ws.snapshot if persist else None
        readers_copy = ws.readers_copy if persist else None
    manifest = manifest_graph(base)
    state = f"{MAPPING_VERSION} {base} {hashlib.sha256(ONTOLOGY_FILE.read_bytes()).hexdigest()}"
    old_state = [str(getattr(q.object, "value", "")) for q in store.quads_for_pattern(manifest, STATE, None, manifest)]
    rebuild_all = old_state != [state]  # another mapping, base IRI or ontology: nothing is reusable
    interrupted = next(iter(store.quads_for_pattern(manifest, BUILDING, None, manifest)), None) is not None
    known, snapshot_valid = (
        ({}, False) if rebuild_all else read_manifest(store, manifest, None if interrupted else snapshot)
    )
    entries = dict(known)  # the manifest as this build leaves it
    result = BuildResult(store, base)
    names = record_entries(data_dir, ws.layout)  # the data folder's records, and the reference records it uses
    shape_dirs = ws.layout.shape_dirs
    if rebuild_all and not old_state and len(names) > PARALLEL_FROM and not len(store):
        store.add(Quad(manifest, BUILDING, Literal("1"), manifest))
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
            derived=True,
        )
    todo, seen = _plan(names, known, f"{base}id/", interrupted, result)
    gone = [iri for iri in known if iri not in seen]
    if todo or gone or interrupted or rebuild_all:  # only now that every record has read
        _begin_changes(store, manifest, readers_copy)
    if rebuild_all:  # a failed build leaves the store as it was
        store.clear()
        store.add(Quad(manifest, BUILDING, Literal("1"), manifest))
    bulk = not known and len(todo) > 1000
    # the claims that could pair with a claim before it changed or went (a finding may leave them)
    before = [f"{base}id/benchmarks/{r.id}" for r, action in todo if action == "changed" and r.kind == "benchmarks"]
    before += [g for g in gone if g.startswith(f"{base}id/benchmarks/")]
    old_partners, old_models = frozenset(partners(store, before)), models_of(store, before)
    # (a whole rebuild maps every record: what their facts read is kept as they are mapped)
    inputs = Inputs(store, caveats_graph(base)) if rebuild_all else None
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
        inputs=inputs,
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
        old_partners=old_partners,
        old_models=old_models,
        inputs=inputs,
    )
    if problems:  # records that could not be mapped: the rest is built, these are as they were
        raise InputError(problems)
    return result


def _plan(
    names: Iterable[tuple[str, str, str]], known: dict[str, str], prefix: str, interrupted: bool, result: BuildResult
) -> tuple[list[tuple[Record, str]], set[str]]:
    """What this build does per record: ``(record, "added" | "changed" | "touch")`` for each record
    that is new or whose file changed (a touch when only its stat did), and the graph IRIs seen.
    Every record is read before anything is written.

    :raises InputError: with every record that cannot be read.
    """
    todo: list[tuple[Record, str]] = []
    problems: list[InputProblem] = []
    seen: set[str] = set()
    now = time.time_ns()  # (the clock read once: a build that finds nothing changed is this loop, per file)
    for kind, name, folder in names:
        graph_iri = f"{prefix}{kind}/{name[:-5]}"
        seen.add(graph_iri)
        old = known.get(graph_iri)
        if old is not None and (stat := stat_or_empty(f"{folder}/{kind}/{name}", now)) and old.startswith(stat + " "):
            result.unchanged += 1  # (the entry is "stat digest": Entry, unparsed)
            continue
        try:
            record = read_record(Path(folder, kind, name), kind)
        except InputError as e:
            problems.extend(e.problems)
            continue
        if old is not None and Entry.parse(old).digest == record.digest and not interrupted:
            todo.append((record, "touch"))
        else:
            todo.append((record, "changed" if old is not None else "added"))
    if problems:
        raise InputError(problems)
    return todo, seen


def _write_changes(
    store: Store,
    todo: list[tuple[Record, str]],
    base: str,
    entries: dict[str, str],
    result: BuildResult,
    *,
    rebuild_all: bool,
    bulk: bool,
    progress: Progress | None,
    total: int,
    inputs: Inputs | None = None,
) -> list[InputProblem]:
    """Write each planned record's graph with its manifest entry in one transaction (a touch only
    renews the entry); the problems of records that could not be mapped, which stay as they were. What
    the facts read of each record mapped goes to ``inputs``, when given."""
    manifest, prefix = manifest_graph(base), f"{base}id/"
    problems: list[InputProblem] = []
    batch: list[Quad] = []
    for n, (record, what) in enumerate(todo, 1):
        graph = NamedNode(prefix + f"{record.kind}/{record.id}")
        entry = Literal(Entry(record.stat, record.digest).text())
        if what != "touch":
            try:  # mapped before anything is removed: a record that cannot be mapped stays as it was
                quads = record_quads(record, base)
            except _MAPPING_ERRORS as e:
                problems.append(_unmappable(record.path, e))
                continue
        entries[graph.value] = entry.value
        if inputs is not None and what != "touch":
            inputs.add(quads)
        for q in list(store.quads_for_pattern(graph, STAT, None, manifest)):
            store.remove(q)  # the entry first: a graph without an entry is rewritten by the next build
        if what == "touch":
            store.add(Quad(graph, STAT, entry, manifest))
            result.unchanged += 1
            result.restated += 1
            continue
        if not rebuild_all:  # "added" too: a graph may be left by a build cut off after its entry went
            store.remove_graph(graph)
        quads.append(Quad(graph, STAT, entry, manifest))  # the graph and its entry in one transaction
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


def _drop_gone(
    store: Store, gone: list[str], base: str, entries: dict[str, str], result: BuildResult, interrupted: bool
) -> None:
    """Remove the graphs of deleted records (graph first, then entry), and after an interrupted build
    any record graph no entry accounts for."""
    manifest, prefix = manifest_graph(base), f"{base}id/"
    for iri in gone:
        graph = NamedNode(iri)
        store.remove_graph(graph)  # the graph first: an entry without its graph is "gone" again next time
        for q in list(store.quads_for_pattern(graph, STAT, None, manifest)):
            store.remove(q)
        entries.pop(iri, None)
        result.removed.append(iri[len(prefix) :])
    if interrupted:  # a graph no entry accounts for was being written or dropped when the build stopped
        for named in list(store.named_graphs()):
            if isinstance(named, NamedNode) and named.value.startswith(prefix) and named.value not in entries:
                store.remove_graph(named)


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
    old_partners: frozenset[str] = frozenset(),
    old_models: frozenset[str] = frozenset(),
    inputs: Inputs | None = None,
    derived: bool = False,
) -> BuildResult:
    """What every build ends with once the records are in: the ontology and build state (after a
    full rebuild), the gotcha links of what changed (all of them after an interrupted build),
    compaction after a bulk load, the manifest snapshot, and last the building mark removed. ``inputs``:
    what the facts read of every record, after a whole rebuild that mapped them all; ``derived``: the facts
    and audited links are in the store already (a cold build's workers derived them while mapping)."""
    manifest, prefix = manifest_graph(base), f"{base}id/"
    if rebuild_all:
        store.extend(_ontology_quads())
        store.add(Quad(manifest, STATE, Literal(state), manifest))
    # caveats derived to the end, with today's shapes (finding caveats are the findings of some of them)
    digest = shapes_digest(shape_dirs)
    complete = any(
        getattr(q.object, "value", None) == digest
        for q in store.quads_for_pattern(manifest, CAVEATS_DONE, None, manifest)
    )
    if (
        rebuild_all
        or not complete
        or interrupted
        or any(key.startswith("gotchas/") for key in result.added + result.changed + result.removed)
    ):
        derive_caveats(
            store, base, shape_dirs=shape_dirs, inputs=inputs if rebuild_all else None, derived=derived and rebuild_all
        )
    elif result.touched:  # only claims (or entities they name) changed: re-derive just those claims
        keys = result.added + result.changed + result.removed
        # a claim's facts and audited links read it, its chips and its system: a changed chip or system is
        # a change of the claims that ran on it; a new source, model or organisation (a draft writes its
        # source beside its claims) changes none of another claim's
        claims = [prefix + key for key in keys if key.startswith("benchmarks/")]
        claims += claims_on(store, [prefix + key for key in keys if key.startswith(("accelerators/", "systems/"))])
        claims = sorted(set(claims))
        derive_caveats(
            store,
            base,
            claims,
            shape_dirs=shape_dirs,
            claims_only=True,
            old_partners=old_partners,
            old_models=old_models,
        )
    if optimize:
        store.optimize()  # after a bulk load; at 100k claims: leaderboard 0.63 -> 0.27 s, for 6.8 s
    # (a record read again for its new file state is recorded in the snapshot too: else every later
    # command reads it again, 703 files each time in a data repository copied a moment before)
    if result.touched or result.restated or rebuild_all or interrupted or (snapshot is not None and not snapshot_valid):
        write_manifest(store, manifest, snapshot, entries)
    for q in list(store.quads_for_pattern(manifest, BUILDING, None, manifest)):
        store.remove(q)
    if readers_copy is not None:  # readers read the store itself again
        remove_tree(readers_copy)
    if snapshot is not None and (result.touched or rebuild_all or interrupted):
        # what the build wrote, out of the write-ahead log into tables: the next command opens the
        # store in 0.1 s instead of replaying the log (2.6 s after a claim's facts were redone)
        store.flush()
    return result


def _begin_changes(store: Store, manifest: NamedNode, readers_copy: Path | None) -> None:
    """Before a build's first change: a copy of the store for readers while it writes (RocksDB
    hard links: ~50 ms for data/), if the store is complete now; then the building mark."""
    if readers_copy is not None and is_complete(store, manifest.value[: -len("graph/manifest")]):
        remove_tree(readers_copy)
        fresh = readers_copy.with_name(f"{readers_copy.name}.{os.getpid()}.tmp")
        remove_tree(fresh)
        try:
            store.backup(str(fresh))
            os.replace(fresh, readers_copy)
        except OSError:  # no copy: readers wait for the build instead
            remove_tree(fresh)
    store.add(Quad(manifest, BUILDING, Literal("1"), manifest))


def _cold_load(
    store: Store,
    files: list[tuple[str, Path]],
    base: str,
    result: BuildResult,
    progress: Progress | None,
    entries: dict[str, str],
) -> None:
    """Fill an empty store from many files: worker processes read, check and map the records to
    N-Quads text while this one bulk-loads it (Oxigraph parses it in Rust). The workers derive the
    claims' comparison facts as they map them (from the chips and systems, read here first and sent to
    each: the facts were queried back out of the store, 48 s at 100,000 claims), and read what the
    audited links compare; the "not stated" tiers and the links, which need every claim, are derived here
    once every chunk is in. On any input error the store is emptied again, as it was, and every problem
    is reported."""
    context = _entities(files, base)
    chunks = [files[i : i + CHUNK] for i in range(0, len(files), CHUNK)]
    mapped: list[Mapped] = []
    vendor: list[Result] = []
    audited: list[Result] = []
    problems, done = [], 0
    workers = max(1, min(4, os.cpu_count() or 1))
    # spawn, not fork: the open store runs threads of its own
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:  # a killed build leaves no worker
        with main_not_rerun():  # map submits every chunk now: every worker starts inside
            answers = pool.map(_map_chunk, [(base, chunk, context) for chunk in chunks])
        with _collector_paused():
            for data, written, found, (facts, sides) in answers:
                problems += found
                if not problems:
                    # a chunk at a time (about 12 MB of N-Quads a 1,000 claims): Oxigraph's bulk load holds several
                    # times what it is given. At 30,000 claims, loads gathered to 256 MiB peaked at 1,844 MiB and took
                    # 32.0 s, a chunk at a time 322 MiB and 25.8 s (alone, pieces of 2 to 16 MiB load as fast as one)
                    store.bulk_load(input=data, format=RdfFormat.N_QUADS)
                    mapped.append(facts)
                    vendor += sides[0]
                    audited += sides[1]
                entries.update(written)
                result.added += [iri[len(base) + 3 :] for iri in written]
                done += len(written)
                if progress:
                    progress(done, len(files))
    if problems:
        store.clear()
        raise InputError(problems)
    graph = caveats_graph(base)
    stating = {pair for facts in mapped for pair in facts.stating}
    tiered = Tiered.stating(stating)
    store.bulk_extend([q for facts in mapped for q in facts.not_stated(tiered, graph)])
    store.bulk_extend(Quad(NamedNode(v), AUDITED_BY, NamedNode(a), graph) for v, a in sorted(links(vendor, audited)))


def _entities(files: list[tuple[str, Path]], base: str) -> Inputs:
    """What the claims' facts read of the chips and systems among ``files`` (a record that cannot be read
    is left to the worker that maps it, which reports it)."""
    context = Inputs()
    for kind, path in files:
        if kind in ("accelerators", "systems"):
            try:
                context.add(record_quads(read_record(path, kind), base))
            except (InputError, *_MAPPING_ERRORS):
                continue
    return context


@contextmanager
def _collector_paused() -> Iterator[None]:
    """While a cold build takes in what its workers send: Python's cycle collector paused (what they send
    is many small objects, none of them in a cycle, which each pass of the collector would walk again)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _map_chunk(
    job: tuple[str, list[tuple[str, Path]], Inputs],
) -> tuple[bytes, dict[str, str], list[InputProblem], tuple[Mapped, tuple[list[Result], list[Result]]]]:
    """Worker: (base, [(kind, path)…], the chips and systems) -> (N-Quads of the records, their manifest
    entries and their claims' comparison facts, the entries by graph IRI, input problems, and what the
    "not stated" tiers and the audited links need of the claims: :class:`~benchkg.graph.facts.Mapped`
    without its quads, and the vendor claims and audited results as the matching rule reads them)."""
    base, chunk, context = job
    quads, entries, problems = [], {}, []
    read = Inputs(parent=context)
    manifest = manifest_graph(base)
    for kind, path in chunk:
        try:
            record = read_record(path, kind)
        except InputError as e:
            problems += e.problems
            continue
        graph = NamedNode(f"{base}id/{kind}/{record.id}")
        entry = Entry(record.stat, record.digest).text()
        try:
            mapped = record_quads(record, base)
        except _MAPPING_ERRORS as e:
            problems.append(_unmappable(record.path, e))
            continue
        if kind == "benchmarks":
            read.add(mapped)
        quads += mapped
        quads.append(Quad(graph, STAT, Literal(entry), manifest))
        entries[graph.value] = entry
    facts = mapped_facts(read, caveats_graph(base), base)
    sides = side_results(read, facts.ran_on)
    quads += facts.quads
    facts.quads = []  # (in the N-Quads)
    if problems:
        return b"", entries, problems, (facts, ([], []))
    return serialize(quads, format=RdfFormat.N_QUADS) or b"", entries, problems, (facts, sides)


def content_graphs(store: Store, base: str = DEFAULT_BASE) -> list[NamedNode]:
    """The graphs of the published dataset: one per record, plus the derived caveats; not the
    manifest and not the ontology (published on its own).
    """
    skip = {manifest_graph(base).value, ONTOLOGY_GRAPH}
    return sorted(
        (g for g in store.named_graphs() if isinstance(g, NamedNode) and g.value not in skip), key=lambda g: g.value
    )


def content_quads(store: Store, base: str = DEFAULT_BASE) -> Iterator[Quad]:
    """Every quad of the published dataset (see :func:`content_graphs`)."""
    for graph in content_graphs(store, base):
        yield from store.quads_for_pattern(None, None, None, graph)
