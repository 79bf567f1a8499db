"""The embedded store: records -> pyoxigraph, rebuilt only for the record files that changed.

The store lives in ``.benchkg/store`` beside the data folder. A *manifest* graph inside it keeps,
per record graph, the file's size, mtime and content hash, so an unchanged file is not even
read again. Each record is replaced together with its manifest entry, so an interrupted build
is repaired by the next one.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, Store

from . import __version__
from .errors import InputError, StoreError
from .mapping import record_quads
from .records import Record, read_record, record_files
from .resources import ONTOLOGY_FILE
from .vocab import BK, DEFAULT_BASE, sparql_prefixes


ONTOLOGY_GRAPH = "https://w3id.org/benchkg/ontology"
#: bump when the mapping changes, so stores built by an older mapping are rebuilt whole.
MAPPING_VERSION = f"{__version__}+1"
_STATE = NamedNode(BK + "buildState")
_STAT = NamedNode(BK + "fileStat")


def manifest_graph(base: str) -> NamedNode:
    """The graph that records what the store holds (never exported)."""
    return NamedNode(f"{base}graph/manifest")


def caveats_graph(base: str) -> NamedNode:
    """The graph of derived ``bk:caveat`` links from claims to the gotchas that apply to them."""
    return NamedNode(f"{base}graph/caveats")


def store_dir_for(data_dir: Path) -> Path:
    """Where the persistent store of ``data_dir`` lives: ``.benchkg/store`` beside it.

    >>> store_dir_for(Path("/repo/data"))
    PosixPath('/repo/.benchkg/store')
    """
    return data_dir.resolve().parent / ".benchkg" / "store"


def open_store(path: Path | None) -> Store:
    """Open (or create) the on-disk store at ``path``; ``None`` gives an in-memory store."""
    if path is None:
        return Store()
    try:
        path.mkdir(parents=True, exist_ok=True)
        try:
            return Store(str(path))
        except OSError as e:
            if "current process" not in str(e):
                raise
            # A store this process opened earlier may still wait in a reference cycle (pyshacl
            # keeps frames alive); collecting closes it, so in-process callers can reopen.
            import gc

            gc.collect()
            return Store(str(path))
    except OSError as e:
        raise StoreError(f"cannot open the store at {path}: {e}. Is another benchkg using it? "
                         f"If not, delete {path} and run `benchkg build`.") from e


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


def _stat_key(path: Path) -> str:
    st = path.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def _ontology_quads() -> list[Quad]:
    graph = NamedNode(ONTOLOGY_GRAPH)
    store = Store()
    store.load(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE, to_graph=graph)
    return list(store.quads_for_pattern(None, None, None, graph))


def build_graph(data_dir: Path, store: Store | None = None, *, base: str = DEFAULT_BASE,
                persist: bool = True, progress=None) -> BuildResult:
    """Bring the store up to date with ``data_dir`` and return it.

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
    if store is None:
        store = open_store(store_dir_for(data_dir) if persist else None)
    manifest = manifest_graph(base)
    state = f"{MAPPING_VERSION} {base} {hashlib.sha256(ONTOLOGY_FILE.read_bytes()).hexdigest()}"
    old_state = [q.object.value for q in store.quads_for_pattern(manifest, _STATE, None, manifest)]
    rebuild_all = old_state != [state]  # another mapping, base IRI or ontology: nothing is reusable
    known: dict[str, str] = {} if rebuild_all else {
        q.subject.value: q.object.value for q in store.quads_for_pattern(None, _STAT, None, manifest)}
    result = BuildResult(store, base)
    files = record_files(data_dir)
    todo: list[tuple[Record, str]] = []
    problems = []
    seen: set[str] = set()
    prefix = f"{base}id/"
    for kind, path in files:
        key = f"{kind}/{path.stem}"
        graph_iri = prefix + key
        seen.add(graph_iri)
        try:
            stat = _stat_key(path)
        except OSError:
            stat = ""
        old = known.get(graph_iri)
        if old is not None and stat and old.split(" ")[0] == stat:
            result.unchanged += 1
            continue
        try:
            record = read_record(path, kind)
        except InputError as e:
            problems.extend(e.problems)
            continue
        if old is not None and old.split(" ")[-1] == record.digest:
            todo.append((record, "touch"))
        else:
            todo.append((record, "changed" if old is not None else "added"))
    if problems:
        raise InputError(problems)
    if rebuild_all:  # only now that every record has read: a failed build leaves the store as it was
        store.clear()
    gone = [iri for iri in known if iri not in seen]
    total = len(todo) + len(gone)
    bulk = not known and len(todo) > 1000
    batch: list[Quad] = []
    for n, (record, what) in enumerate(todo, 1):
        graph = NamedNode(prefix + f"{record.kind}/{record.id}")
        entry = Literal(f"{_stat_key(record.path)} {record.digest}")
        old_entries = list(store.quads_for_pattern(graph, _STAT, None, manifest))
        for q in old_entries:
            store.remove(q)
        if what == "touch":
            store.add(Quad(graph, _STAT, entry, manifest))
            result.unchanged += 1
            continue
        if what == "changed":
            store.remove_graph(graph)
        quads = record_quads(record, base)
        quads.append(Quad(graph, _STAT, entry, manifest))
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
    for iri in gone:
        graph = NamedNode(iri)
        for q in list(store.quads_for_pattern(graph, _STAT, None, manifest)):
            store.remove(q)
        store.remove_graph(graph)
        result.removed.append(iri[len(prefix):])
    if rebuild_all:
        store.extend(_ontology_quads())
        store.add(Quad(manifest, _STATE, Literal(state), manifest))
    if rebuild_all or any(key.startswith("gotchas/") for key in result.added + result.changed + result.removed):
        _derive_caveats(store, base)
    elif result.touched:  # only claims (or entities they name) changed: re-derive just those claims
        claims = [prefix + key for key in result.added + result.changed + result.removed if key.startswith("benchmarks/")]
        _derive_caveats(store, base, claims)
        if bulk:
            store.optimize()
    return result


def _field_paths_by_predicate() -> dict[str, str]:
    """predicate IRI -> SPARQL property path from a claim to its values (a nested field such as
    ``load.concurrency`` goes through its parent node)."""
    from .schema import BENCHMARK, BENCHMARK_FIELD_PATHS
    from .vocab import expand

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


def _derive_caveats(store: Store, base: str, claims: list[str] | None = None) -> None:
    """Recompute which gotchas apply to which claims: those a claim links, and those whose
    ``applies_to`` facets all match it; one join query per gotcha keeps it linear in the number
    of claims. ``claims`` limits the work to those claim IRIs (when no gotcha changed, a claim's
    caveats depend only on the claim itself); by default every claim is re-derived."""
    graph = caveats_graph(base)
    prefixes = sparql_prefixes()
    only = "VALUES ?claim { " + " ".join(f"<{c}>" for c in claims) + " } " if claims is not None else ""
    quads = [Quad(t.subject, t.predicate, t.object, graph) for t in store.query(
        prefixes + "CONSTRUCT { ?claim bk:caveat ?g } WHERE { " + only + "?claim a bk:Benchmark ; bk:gotcha ?g }",
        use_default_graph_as_union=True)]
    facets: dict[str, dict[str, list[str]]] = {}
    for row in store.query(prefixes + """SELECT ?g ?facet ?v WHERE { ?g a bk:Gotcha ; bk:appliesTo ?a .
            ?a ?facet ?v . FILTER (?facet IN (bk:appliesToSuite, bk:appliesToScenario, bk:appliesToMetric,
            bk:appliesToField)) }""", use_default_graph_as_union=True):
        facets.setdefault(row["g"].value, {}).setdefault(row["facet"].value.rsplit("#", 1)[1], []).append(row["v"].value)
    field_paths = _field_paths_by_predicate()
    for gotcha, given in sorted(facets.items()):
        where = [only + "?claim a bk:Benchmark ."]
        for facet, pattern in (("appliesToSuite", "?claim bk:suite ?{v} ."),
                               ("appliesToScenario", "?claim bk:scenario ?{v} ."),
                               ("appliesToMetric", "?claim bk:result/bk:metric ?{v} .")):
            if facet in given:
                var = facet.lower()
                where.append(f"VALUES ?{var} {{ {' '.join(f'<{v}>' for v in given[facet])} }} "
                             + pattern.format(v=var))
        if "appliesToField" in given:
            alternatives = [field_paths.get(p, f"<{p}>") for p in given["appliesToField"]]
            where.append("FILTER EXISTS { " + " UNION ".join(f"{{ ?claim {a} ?any }}" for a in alternatives) + " }")
        query = prefixes + "SELECT DISTINCT ?claim WHERE { " + " ".join(where) + " }"
        node = NamedNode(gotcha)
        caveat = NamedNode(BK + "caveat")
        quads += [Quad(r["claim"], caveat, node, graph) for r in store.query(query, use_default_graph_as_union=True)]
    if claims is None:
        store.remove_graph(graph)
    else:
        for claim in claims:
            for old in list(store.quads_for_pattern(NamedNode(claim), None, None, graph)):
                store.remove(old)
    store.extend(quads)


def content_graphs(store: Store, base: str = DEFAULT_BASE) -> list[NamedNode]:
    """The graphs of the published dataset: one per record, plus the derived caveats; not the
    manifest and not the ontology (published on its own).
    """
    skip = {manifest_graph(base).value, ONTOLOGY_GRAPH}
    return sorted((g for g in store.named_graphs() if isinstance(g, NamedNode) and g.value not in skip),
                  key=lambda g: g.value)


def content_quads(store: Store, base: str = DEFAULT_BASE):
    """Every quad of the published dataset (see :func:`content_graphs`)."""
    for graph in content_graphs(store, base):
        yield from store.quads_for_pattern(None, None, None, graph)
