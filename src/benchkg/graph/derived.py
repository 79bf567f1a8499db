"""The caveats the build derives (graph ``caveats``): claim caveats (a gotcha's ``applies_when``),
finding caveats (a gotcha's ``finding_shapes``, run as SPARQL) and the ``bk:auditedBy`` links of
vendor claims to the audited results they restate (:mod:`benchkg.graph.audited`)."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any, Iterable

from pyoxigraph import Literal, NamedNode, Quad, Store

from benchkg.graph.audited import AUDITED_BY, audited_quads, links, side_results
from benchkg.graph.facts import (
    FACT_PREDICATES,
    RAN_ON,
    Inputs,
    claims_of_models,
    combination_mates,
    fact_quads,
    facts_of,
    models_of,
    remove_facts,
    tiered_models,
)
from benchkg.graph.manifest import CAVEATS_DONE, manifest_graph
from benchkg.graph.opening import construct, rows, select
from benchkg.graph.partners import PARTNER, derive_partners
from benchkg.graph.superlatives import remove_superlatives, superlative_quads
from benchkg.kernel.vocab import BK, expand, sparql_prefixes
from benchkg.records.layout import shape_files
from benchkg.records.schema import BENCHMARK, BENCHMARK_FIELD_PATHS
from benchkg.rules.engine import run_fast
from benchkg.rules.shapes import load_shapes


def caveats_graph(base: str) -> NamedNode:
    """The graph of what a build derives about claims: ``bk:caveat`` links to the gotchas that apply
    to them, and ``bk:auditedBy`` links to the audited results vendor claims restate."""
    return NamedNode(f"{base}graph/caveats")


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
            fields = inner.fields if inner is not None and inner.type == "obj" else {}
        if name in ("metric", "value", "unit", "scope"):
            hops = [f"<{expand('bk:result')}>"] + hops
        paths.setdefault(expand(spec.pred), []).append("/".join(hops))
    return {pred: "|".join(f"({p})" for p in alts) for pred, alts in paths.items()}


def derive_caveats(
    store: Store,
    base: str,
    claims: list[str] | None = None,
    *,
    shape_dirs: tuple[Path, ...] = (),
    claims_only: bool = False,
    old_partners: frozenset[str] = frozenset(),
    old_models: frozenset[str] = frozenset(),
    inputs: Inputs | None = None,
    derived: bool = False,
) -> None:
    """Recompute which gotchas apply to which single claims (docs/conventions.md, convention 4): those a claim links
    (``gotcha_ids``); *claim caveats*, whose ``applies_to`` facets all match it (one join query per
    gotcha keeps it linear in the number of claims); and *finding caveats*, which apply to exactly
    the claims their ``finding_shapes`` flag. *Comparison caveats* (``compares``) apply to a set of
    claims, never to one, and are found per answer (:mod:`benchkg.answers.caveats`).

    ``claims`` limits the linked and claim caveats to those claim IRIs (when no gotcha changed, they
    depend only on the claim itself). By default every claim is re-derived.
    ``shape_dirs`` are the folders of shapes (benchkg's by default). ``claims_only`` says that nothing
    a claim's facts or links read changed but those claims (no system or chip), so only their facts and
    audited links are redone, and the finding shapes run on the claims whose findings such a change can
    alter (:func:`finding_focus`; ``old_partners`` are the claims that could pair with the changed
    claims before the change; ``old_models`` the models those claims were of before it: a model whose
    claims the change left alone keeps its tiers). ``inputs``: what the facts read of every record, when
    the build has it from the records it mapped (a whole derivation then reads no claim back out of the
    store for its facts and audited links). ``derived``: every claim's facts and audited links are in the
    store already (a cold build's workers derived them as they mapped the records)."""
    graph = caveats_graph(base)
    manifest = manifest_graph(base)
    for old in list(store.quads_for_pattern(manifest, CAVEATS_DONE, None, manifest)):
        store.remove(old)  # back only when this derivation is complete: an interrupted one is redone whole
    done = Quad(manifest, CAVEATS_DONE, Literal(shapes_digest(shape_dirs)), manifest)
    if derived:  # (a cold build's: the facts and links are all the graph holds)
        facts, relinked = [], set[str]()
    else:
        if claims is None and next(iter(store.quads_for_pattern(None, None, None, graph)), None) is not None:
            store.remove_graph(graph)  # (all of it is derived again: facts, links and verdicts as they go)
        whole = inputs if claims is None else None
        facts = _facts(store, graph, base, claims if claims_only else None, old_models, whole)
        # which audited result each vendor claim restates: when only claims changed, the links from and to
        # them (a changed audited result changes the links of unchanged vendor claims), else all of them;
        # then every superlative (any result may be a rival), both before the finding shapes read them
        links, relinked = _audited_links(store, graph, claims if claims_only else None, whole)
        facts += links
    if claims is not None:  # a vendor claim that now restates an audited result, or no longer: its caveats too
        claims = sorted(set(claims) | relinked)
    # the audited result vendor-vs-audited sets each vendor claim beside by default (it reads the links)
    facts += derive_partners(store, graph, claims if claims_only else None)
    facts += _verdicts(store, graph)
    prefixes = sparql_prefixes()
    only = "VALUES ?claim { " + " ".join(f"<{c}>" for c in claims) + " } " if claims is not None else ""
    quads = [
        Quad(t.subject, t.predicate, t.object, graph)
        for t in construct(
            store,
            prefixes + "CONSTRUCT { ?claim bk:caveat ?g } WHERE { " + only + "?claim a bk:Benchmark ; bk:gotcha ?g }",
            use_default_graph_as_union=True,
        )
    ]
    focus = finding_focus(store, claims, old_partners) if claims is not None and claims_only else None
    finding_gotchas, finding_quads, redo = finding_caveats(store, graph, NamedNode(BK + "caveat"), shape_dirs, focus)
    # the claims whose finding-gotcha links are redone (every claim, or those the focus reached)
    redo_only = "VALUES ?claim { " + " ".join(f"<{c}>" for c in sorted(redo)) + " } " if redo is not None else ""
    if claims is not None and finding_gotchas:
        quads += _linked_finding_caveats(store, graph, finding_gotchas, redo_only, set(claims))
    jobs = _claim_caveat_queries(store, prefixes, only, {g.value for g in finding_gotchas}, redo_only)
    caveat = NamedNode(BK + "caveat")

    def run(job: tuple[NamedNode, str]) -> list[Quad]:
        node, query = job
        return [Quad(r["claim"], caveat, node, graph) for r in select(store, query, use_default_graph_as_union=True)]

    with ThreadPoolExecutor(max_workers=2) as pool:  # Oxigraph runs queries without Python's lock
        for found in pool.map(run, jobs):
            quads += found
    if claims is None:  # (the facts, links and verdicts are in the store already)
        store.bulk_extend(sorted(set(quads + finding_quads), key=str))
    else:
        _remove_redone(store, graph, claims, finding_gotchas, claims_only, redo)
        store.extend(set(quads + finding_quads + facts))
    store.add(done)


def _linked_finding_caveats(
    store: Store, graph: NamedNode, finding_gotchas: list[NamedNode], redo_only: str, changed: set[str]
) -> list[Quad]:
    """The links claims name (``gotcha_ids``) to finding gotchas, of the claims ``redo_only`` names (all,
    if empty) but the ``changed`` ones (derived with the rest of their caveats): a finding gotcha's links
    are redone for those claims, so what they link by hand is derived for them again."""
    return [
        Quad(t.subject, t.predicate, t.object, graph)
        for t in construct(
            store,
            sparql_prefixes()
            + "CONSTRUCT { ?claim bk:caveat ?g } WHERE { "
            + redo_only
            + "VALUES ?g { "
            + " ".join(f"<{g.value}>" for g in finding_gotchas)
            + " } ?claim a bk:Benchmark ; bk:gotcha ?g }",
            use_default_graph_as_union=True,
        )
        if getattr(t.subject, "value", None) not in changed
    ]


def _facts(
    store: Store,
    graph: NamedNode,
    base: str,
    claims: list[str] | None,
    old_models: frozenset[str] = frozenset(),
    inputs: Inputs | None = None,
) -> list[Quad]:
    """The comparison facts (:mod:`benchkg.graph.facts`), put in the store now (the finding shapes
    may read them): of every claim (none returned), or when only ``claims`` changed, of those claims (a
    claim's facts are its own) and of every claim of a model whose tiers they changed (its "not stated"
    comes or goes), returned (the changed part of the graph is written again at the end)."""
    if claims is None:
        remove_facts(store, graph)
        every = facts_of(inputs, inputs.claims, graph, base) if inputs is not None else fact_quads(store, graph, base)
        _put(store, every, whole=True)
        return []  # (the whole graph is not written again at the end: nothing to hold)
    claims = claims + combination_mates(store, graph, claims)  # (a combination's quads are shared)
    flipped = sorted(_tiers_changed(store, graph, claims, sorted(old_models | models_of(store, claims))))
    remove_facts(store, graph, [NamedNode(c) for c in claims] + claims_of_models(store, flipped))
    found = list(fact_quads(store, graph, base, claims=claims))
    found += fact_quads(store, graph, base, flipped) if flipped else []
    store.extend(found)
    return found


#: the quads a whole derivation puts in the store at a time (the facts of about 15,000 claims)
BULK_BATCH = 100_000


def _put(store: Store, quads: Iterable[Quad], whole: bool) -> None:
    """Put ``quads`` in the store: when the whole derivation is redone, in bulk, a batch at a time as they
    come (an interrupted one is redone whole, so it need not be one transaction: 12 s of a cold build at
    100,000 claims; and a build holds one batch, not the facts of every claim), else as one transaction."""
    if not whole:
        store.extend(quads)
        return
    it = iter(quads)
    while batch := list(islice(it, BULK_BATCH)):
        store.bulk_extend(batch)


def _verdicts(store: Store, graph: NamedNode) -> list[Quad]:
    """Every superlative's verdict derived again (any result may be a claim's rival), put in the store."""
    remove_superlatives(store, graph)
    found = superlative_quads(store, graph)
    store.extend(found)
    return found


def _audited_links(
    store: Store, graph: NamedNode, claims: list[str] | None, inputs: Inputs | None = None
) -> tuple[list[Quad], set[str]]:
    """The ``bk:auditedBy`` links derived again (of every claim, or from and to ``claims``), put in
    the store in place of the old ones; returned with the vendor claims whose links changed. Every
    claim's are read from ``inputs`` when given (with the chips the facts just put in the store)."""
    changed = {NamedNode(c) for c in claims} if claims is not None else None
    before = set()
    for old in list(store.quads_for_pattern(None, AUDITED_BY, None, graph)):
        if changed is None or old.subject in changed or old.object in changed:
            store.remove(old)
            before.add((str(old.subject), str(old.object)))
    if inputs is not None and claims is None:
        ran_on = {
            str(getattr(q.subject, "value", "")): q.object for q in store.quads_for_pattern(None, RAN_ON, None, graph)
        }
        pairs = links(*side_results(inputs, ran_on))
        found = sorted((Quad(NamedNode(v), AUDITED_BY, NamedNode(a), graph) for v, a in pairs), key=str)
    else:
        found = audited_quads(store, graph, claims)
    _put(store, found, whole=claims is None)
    after = {(str(q.subject), str(q.object)) for q in found}
    return found, {vendor.strip("<>") for vendor, _ in before ^ after}


def _tiers_changed(store: Store, graph: NamedNode, changed: list[str], models: list[str]) -> set[str]:
    """The models (N-Triples) a change made tiered or untiered (:class:`benchkg.graph.facts.Tiered`: for
    their audited results or their other claims), so their "not stated" comes or goes; of ``models``, the
    models the ``changed`` claims are of now or were of before (no other model has a claim that changed:
    its tiers are as they were; reading every model's claims was 1.8 s of a one-file rebuild at 100,000
    claims). What a model was is read from the claims the change left alone: their model is as it was,
    and whether they hold a tier fact says whether it was tiered. A changed claim's old fact says
    nothing of its model: one stating a tier, moved to a model no claim stated one for, counted its new
    model as tiered already, whose other claims never got their "not stated" (issue 64)."""
    if not models:
        return set()
    iris = " ".join(f"<{c}>" for c in changed)
    now = tiered_models(store, models)
    flipped = set()
    for row in select(
        store,
        sparql_prefixes()
        + "SELECT DISTINCT ?m ?audited ?had WHERE { VALUES ?m { "
        + " ".join(models)
        + " } GRAPH ?g { ?c bk:model ?m } "
        + f"MINUS {{ VALUES ?c {{ {iris} }} }} "
        + "BIND (EXISTS { GRAPH ?g { ?c bk:measuredBy bk:measured-by-mlcommons } } AS ?audited) "
        + f"BIND (EXISTS {{ GRAPH {graph} {{ ?c bk:tier ?t }} }} AS ?had) }}",
        use_default_graph_as_union=False,
    ):
        model, audited, had = row["m"], row["audited"].value == "true", row["had"].value == "true"
        if isinstance(model, NamedNode) and had != (model.value in now.of(audited)):
            flipped.add(str(model))
    return flipped


def _remove_redone(
    store: Store,
    graph: NamedNode,
    claims: list[str],
    finding_gotchas: list[NamedNode],
    claims_only: bool,
    redo: set[str] | None = None,
) -> None:
    """Take away what an incremental derivation redoes: the caveats of ``claims``, the links of a
    finding gotcha (of the claims in ``redo``, or every one), and the audited links from and to those
    claims (every one, unless ``claims_only``)."""
    caveat = NamedNode(BK + "caveat")
    for claim in claims:  # (not its comparison facts: _facts redid those, for the claims of their models)
        for old in list(store.quads_for_pattern(NamedNode(claim), None, None, graph)):
            if old.predicate not in FACT_PREDICATES and old.predicate != PARTNER:
                store.remove(old)
    for gotcha in finding_gotchas:
        for old in list(store.quads_for_pattern(None, caveat, gotcha, graph)):
            if redo is None or getattr(old.subject, "value", None) in redo:
                store.remove(old)
    changed = {NamedNode(c) for c in claims}
    for old in list(store.quads_for_pattern(None, AUDITED_BY, None, graph)):
        if not claims_only or old.subject in changed or old.object in changed:
            store.remove(old)


def _claim_caveat_queries(
    store: Store, prefixes: str, only: str, redone: set[str], redo_only: str = ""
) -> list[tuple[NamedNode, str]]:
    """One ``(gotcha, SELECT ?claim …)`` per claim caveat: the claims all its ``applies_to`` facets
    match. ``only`` (a VALUES clause) limits them to changed claims, except for the gotchas in
    ``redone`` (finding gotchas, whose links are rederived for the claims of ``redo_only``, or all)."""
    facets: dict[str, dict[str, list[str]]] = {}
    for row in select(
        store,
        prefixes
        + """SELECT ?g ?facet ?v WHERE { ?g a bk:Gotcha ; bk:appliesTo ?a .
            ?a ?facet ?v . FILTER (?facet IN (bk:appliesToSuite, bk:appliesToScenario, bk:appliesToMetric,
            bk:appliesToField, bk:appliesToMeasuredBy, bk:appliesToUnaudited)) }""",
        use_default_graph_as_union=True,
    ):
        facets.setdefault(row["g"].value, {}).setdefault(row["facet"].value.rsplit("#", 1)[1], []).append(
            row["v"].value
        )
    field_paths = _field_paths_by_predicate()
    jobs = []
    for gotcha, given in sorted(facets.items()):
        where = [(redo_only if gotcha in redone else only) + "?claim a bk:Benchmark ."]
        for facet, pattern in (
            ("appliesToSuite", "?claim bk:suite ?{v} ."),
            ("appliesToScenario", "?claim bk:scenario ?{v} ."),
            ("appliesToMetric", "?claim bk:result/bk:metric ?{v} ."),
            ("appliesToMeasuredBy", "?claim bk:measuredBy ?{v} ."),
        ):
            if facet in given:
                var = facet.lower()
                where.append(f"VALUES ?{var} {{ {' '.join(f'<{v}>' for v in given[facet])} }} " + pattern.format(v=var))
        if "appliesToUnaudited" in given and "true" in given["appliesToUnaudited"]:
            where.append("FILTER NOT EXISTS { ?claim bk:auditedBy ?_audited }")  # (the audited links come first)
        if "appliesToField" in given:
            alternatives = [field_paths.get(p, f"<{p}>") for p in given["appliesToField"]]
            where.append("FILTER EXISTS { " + " UNION ".join(f"{{ ?claim {a} ?any }}" for a in alternatives) + " }")
        jobs.append((NamedNode(gotcha), prefixes + "SELECT DISTINCT ?claim WHERE { " + " ".join(where) + " }"))
    return jobs


def shapes_digest(shape_dirs: tuple[Path, ...] = ()) -> str:
    """A digest of the shapes the finding caveats were derived with: new shapes, new derivation."""
    h = hashlib.sha256()
    for path in shape_files(shape_dirs):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def claims_on(store: Store, entities: list[str]) -> list[str]:
    """The claims that ran on these chips or systems (IRIs): named by the claim, or the chip a rack or a
    variant the claim names is made of or is a variant of."""
    if not entities:
        return []
    query = (
        sparql_prefixes()
        + "SELECT DISTINCT ?c WHERE { VALUES ?x { "
        + " ".join(f"<{e}>" for e in entities)
        + " } { ?c bk:system ?x } UNION { ?c bk:accelerator ?x } UNION { ?c bk:accelerator/bk:madeOf ?x }"
        + " UNION { ?c bk:accelerator/bk:variantOf ?x } UNION { ?c bk:accelerator/bk:madeOf/bk:variantOf ?x } }"
    )
    return sorted(row["c"].value for row in select(store, query, use_default_graph_as_union=True))


def partners(store: Store, claims: list[str]) -> set[str]:
    """The claims a finding may pair with ``claims``, as the store has them now: those of the same
    model, suite, accelerator count and system (each absent on both, or the same). A finding pairs
    claims of one such key at most (Server beats Offline), the rule incremental validation keeps too
    (:mod:`benchkg.checks.incremental`)."""
    if not claims:
        return set()
    keys = (
        sparql_prefixes()
        + "SELECT DISTINCT ?m ?s ?n ?sys WHERE { VALUES ?x { "
        + " ".join(f"<{c}>" for c in claims)
        + " } ?x bk:model ?m . OPTIONAL { ?x bk:suite ?s } OPTIONAL { ?x bk:acceleratorCount ?n }"
        + " OPTIONAL { ?x bk:system ?sys } }"
    )
    # one query per set of parts the keys state (eight at most): the claims of a key are then read from
    # its system or model with the parts as values, where reading every claim of the model and comparing
    # its optional parts read thousands (at 100,000 claims: one claim's 0.09 -> 0.06 s, fifty's 4.2 -> 1.0 s)
    shapes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for key in rows(select(store, keys, use_default_graph_as_union=True)):
        shapes.setdefault(tuple(v for v in _PARTS if key[v] is not None), []).append(key)
    found: set[str] = set()
    for stated, of_shape in shapes.items():
        text = _partners_text(stated, of_shape)
        found |= {row["c"].value for row in rows(select(store, text, use_default_graph_as_union=True))}
    return found


#: a key's parts beside its model, with their predicates: the system first (its claims are fewest)
_PARTS = {"sys": "bk:system", "s": "bk:suite", "n": "bk:acceleratorCount"}


def _partners_text(stated: tuple[str, ...], keys: list[dict[str, Any]]) -> str:
    """The claims of ``keys``, each of which states the parts ``stated`` (and the model) and no other.

    >>> from pyoxigraph import NamedNode as N
    >>> text = _partners_text(("s",), [{"m": N("urn:m"), "s": N("urn:s")}])
    >>> print(text[text.index("SELECT"):])
    SELECT DISTINCT ?c WHERE { VALUES (?m ?s) { (<urn:m> <urn:s>) } ?c bk:model ?m ; bk:suite ?s . FILTER NOT EXISTS { ?c bk:system ?_sys } FILTER NOT EXISTS { ?c bk:acceleratorCount ?_n } }
    """
    names = ["m", *stated]
    values = " ".join("(" + " ".join(str(key[v]) for v in names) + ")" for key in keys)
    required = ([f"{_PARTS['sys']} ?sys"] if "sys" in stated else []) + ["bk:model ?m"]
    required += [f"{_PARTS[v]} ?{v}" for v in stated if v != "sys"]
    absent = " ".join(f"FILTER NOT EXISTS {{ ?c {p} ?_{v} }}" for v, p in _PARTS.items() if v not in stated)
    return (
        sparql_prefixes()
        + f"SELECT DISTINCT ?c WHERE {{ VALUES ({' '.join('?' + v for v in names)}) {{ {values} }} "
        + f"?c {' ; '.join(required)} . {absent} }}"
    )


def finding_focus(store: Store, claims: list[str], old_partners: frozenset[str]) -> set[str]:
    """The claims whose finding caveats a change of ``claims`` alone (no system or chip) can alter: the
    changed claims and those that can pair with them now (:func:`partners`) or could before
    (``old_partners``): a finding that comes or goes with the change is on one of them."""
    return set(claims) | partners(store, claims) | set(old_partners)


def finding_caveats(
    store: Store,
    graph: NamedNode,
    caveat: NamedNode,
    shape_dirs: tuple[Path, ...] = (),
    focus: set[str] | None = None,
) -> tuple[list[NamedNode], list[Quad], set[str] | None]:
    """The finding caveats: (the gotchas that name finding shapes, a link from each claim one of
    those shapes flags to the gotcha, the claims whose links these are: None for every claim). Only the
    named shapes run, over the whole graph, or on the claims of ``focus`` and the systems they ran on."""
    by_shape: dict[str, list[NamedNode]] = {}
    for row in select(
        store,
        sparql_prefixes() + "SELECT ?g ?shape WHERE { ?g a bk:Gotcha ; bk:findingShape ?shape }",
        use_default_graph_as_union=True,
    ):
        by_shape.setdefault(row["shape"].value.rsplit("#", 1)[1], []).append(row["g"])
    if not by_shape:
        return [], [], None
    nodes, redo = None, None
    if focus is not None:  # (a system's finding links all its claims: those not in focus have them already)
        redo, nodes = set(focus), _focus_nodes(store, focus)
    shapes = load_shapes(shape_dirs)
    flagged = [r for r in run_fast(store, shapes, focus=nodes, only=set(by_shape)) if r.focus.startswith("http")]
    # a finding on a system (its name states another count) is a caveat on every claim that ran on it
    systems = {r.focus for r in flagged}
    on_system: dict[str, list[NamedNode]] = {}
    if systems:
        values = " ".join(f"<{s}>" for s in sorted(systems))
        for row in select(
            store,
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
    return sorted({g for gs in by_shape.values() for g in gs}, key=str), sorted(quads, key=str), redo


def _focus_nodes(store: Store, claims: set[str]) -> list[str]:
    """The nodes the finding shapes run on for ``claims``: the claims, the systems they ran on (a
    system's finding is a caveat on each of its claims), and the nodes nested in either."""
    values = " ".join(f"<{c}>" for c in sorted(claims))
    systems = {
        row["sys"].value
        for row in select(
            store,
            sparql_prefixes() + f"SELECT DISTINCT ?sys WHERE {{ VALUES ?c {{ {values} }} ?c bk:system ?sys }}",
            use_default_graph_as_union=True,
        )
    }
    nodes = set(claims) | systems
    for record in sorted(set(claims) | systems):
        graph = NamedNode(record)
        nodes.update(
            q.subject.value
            for q in store.quads_for_pattern(None, None, None, graph)
            if isinstance(q.subject, NamedNode)
        )
    return sorted(nodes)
