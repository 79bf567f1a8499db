"""``bk:auditedBy``: which audited result a vendor claim restates, derived at build time by the one
matching rule (:func:`benchkg.kernel.matching.restates`): an audited result of the claim's round, model,
scenario, unit and scope, on the same hardware as a whole (``bk:ranOn``: a rack is its chip, a variant its
base chip, a mixed system its combination), count, division, tier and submitter where the claim states
them, whose value as published lies in the interval the claim's number states (``bk:statedInterval``:
"1.19M" states 1,185,000–1,195,000). A per-accelerator claim reads the audited aggregate ÷ its count,
unrounded. Every such audited result is linked; a claim that restates none has no link and stays the
vendor's own measurement.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Iterable

from pyoxigraph import NamedNode, Quad, Store

from benchkg.graph.opening import bound_terms, rows, select
from benchkg.kernel.matching import Interval, Result, restates
from benchkg.kernel.vocab import BK, sparql_prefixes

if TYPE_CHECKING:
    from benchkg.graph.facts import Inputs

AUDITED_BY = NamedNode(BK + "auditedBy")

#: the columns the rule reads of a result (:func:`side_result`), and the patterns that give them once a query
#: has found ``?claim`` and its result ``?r``
SIDE_VARIABLES = "?claim ?suite ?model ?scenario ?count ?chip ?unit ?scope ?metric ?v ?interval ?div ?tier ?sub ?named"
SIDE_COLUMNS = """
  ?r qudt:value ?v ; qudt:hasUnit ?unit ; bk:scope ?scope .
  OPTIONAL { ?claim bk:ranOn ?ran_on OPTIONAL { ?ran_on bk:variantOf ?base } } BIND (COALESCE(?base, ?ran_on) AS ?chip)
  OPTIONAL { ?r bk:metric ?metric } OPTIONAL { ?r bk:statedInterval ?interval }
  OPTIONAL { ?claim bk:acceleratorCount ?count }
  OPTIONAL { ?claim bk:division ?div } OPTIONAL { ?claim bk:accuracyTarget ?tier } OPTIONAL { ?claim bk:submitter ?sub }
  OPTIONAL { ?claim bk:restates ?named }
"""
#: one side's results (vendor or MLCommons) with what the rule compares, a row per result
SIDE = (
    f"SELECT {SIDE_VARIABLES} WHERE {{\n"
    "  ?claim bk:measuredBy %s ; bk:suite ?suite ; bk:model ?model ; bk:scenario ?scenario ; bk:result ?r ."
    + SIDE_COLUMNS
    + "}\n"
)


def _tail(term: Any) -> str | None:
    """The last part of an IRI (a concept's or a record's id), a literal's value; None for no term."""
    if term is None:
        return None
    return str(term.value).rsplit("/", 1)[-1].rsplit("#", 1)[-1] if isinstance(term, NamedNode) else str(term.value)


def side_result(row: dict[str, Any]) -> Result:
    """One row of :data:`SIDE` (or a query of the same columns) as the matching rule reads it.

    >>> from pyoxigraph import Literal
    >>> row = {"claim": NamedNode("https://w3id.org/benchkg/id/benchmarks/c"), "v": Literal("1190000"),
    ...        "scope": NamedNode(BK + "scope-aggregate"), "interval": Literal("[1185000, 1195000]")}
    >>> r = side_result(row); r.id[-2:], r.scope, r.interval.holds(1186750)
    ('/c', 'aggregate', True)
    """
    scope = _tail(row.get("scope")) or ""
    metric = _tail(row.get("metric")) or "throughput"
    count = row.get("count")
    interval = row.get("interval")
    return Result(
        id=str(row["claim"].value),
        suite=str(row.get("suite")),
        model=str(row.get("model")),
        scenario=str(row.get("scenario")),
        chips=frozenset({str(row["chip"])} if row.get("chip") is not None else ()),
        unit=str(row.get("unit")),
        scope=scope.removeprefix("scope-"),
        metric=metric.removeprefix("metric-"),
        value=Decimal(str(row["v"].value)),
        count=int(count.value) if count is not None else None,
        division=None if row.get("div") is None else str(row["div"]),
        tier=None if row.get("tier") is None else str(row["tier"]),
        submitter=None if row.get("sub") is None else str(row["sub"]),
        interval=Interval.parse(interval.value) if interval is not None else None,
        names=None if row.get("named") is None else str(row["named"].value),
    )


def links(vendor: Iterable[Result], audited: Iterable[Result]) -> set[tuple[str, str]]:
    """The (vendor claim id, audited result id) pairs the rule links, each side read once and met by its
    round, model and scenario (the rule never links across them).

    >>> key = dict(suite="r", model="m", scenario="s", chips=frozenset({"c"}), unit="u", scope="aggregate", count=8)
    >>> a = Result("a", value=Decimal("910621.36"), **key)
    >>> sorted(links([Result("v", value=Decimal(910621), **key), Result("w", value=Decimal(944898), **key)], [a]))
    [('v', 'a')]
    """
    by_key: dict[tuple[str, str, str], list[Result]] = {}
    for result in audited:
        by_key.setdefault((result.suite, result.model, result.scenario), []).append(result)
    return {
        (claim.id, other.id)
        for claim in vendor
        for other in by_key.get((claim.suite, claim.model, claim.scenario), ())
        if restates(claim, other)
    }


def side_results(inputs: Inputs, ran_on: dict[str, Any]) -> tuple[list[Result], list[Result]]:
    """The vendor claims and the audited results among the claims ``inputs`` holds
    (:class:`benchkg.graph.facts.Inputs`: a cold build's, read from its records, not queried back out of the
    store: 25 s of a cold build at 100,000 claims), each read as :data:`SIDE` reads it; ``ran_on`` the chip
    or combination each claim ran on (``bk:ranOn``, by IRI)."""
    vendor, audited = NamedNode(BK + "measured-by-vendor"), NamedNode(BK + "measured-by-mlcommons")
    sides: tuple[list[Result], list[Result]] = ([], [])
    for claim in inputs.claims:
        measured = inputs.every(claim, "measuredBy")
        result = inputs.one(claim, "result")
        row = {
            "claim": NamedNode(claim),
            **{name: inputs.one(claim, name) for name in ("suite", "model", "scenario")},
            **{
                name: inputs.one(result, key) for name, key in (("v", "value"), ("unit", "hasUnit"), ("scope", "scope"))
            },
        }
        if (vendor not in measured and audited not in measured) or any(term is None for term in row.values()):
            continue  # (what SIDE requires of a result)
        chip = ran_on.get(claim)
        row["chip"] = inputs.one(chip, "variantOf") or chip
        row.update(metric=inputs.one(result, "metric"), interval=inputs.one(result, "statedInterval"))
        for name, key in (("count", "acceleratorCount"), ("div", "division"), ("tier", "accuracyTarget")):
            row[name] = inputs.one(claim, key)
        row.update(sub=inputs.one(claim, "submitter"), named=inputs.one(claim, "restates"))
        for side, by in zip(sides, (vendor, audited)):
            if by in measured:
                side.append(side_result(row))
    return sides


def keys_of(store: Store, claims: list[str]) -> list[tuple[str, str, str]]:
    """The (suite, model, scenario) of ``claims`` as the store has them now (N-Triples): a link joins
    only results of one key, so the results of these keys are all a change can link or unlink."""
    query = (
        sparql_prefixes()
        + "SELECT DISTINCT ?suite ?model ?scenario WHERE { VALUES ?claim { "
        + " ".join(f"<{c}>" for c in claims)
        + " } ?claim bk:suite ?suite ; bk:model ?model ; bk:scenario ?scenario }"
    )
    keys = rows(select(store, query, use_default_graph_as_union=True))
    return sorted((str(r["suite"]), str(r["model"]), str(r["scenario"])) for r in keys)


def audited_quads(store: Store, graph: NamedNode, claims: list[str] | None = None) -> list[Quad]:
    """The ``bk:auditedBy`` links of every vendor claim in ``store``, as quads in ``graph``; with
    ``claims`` (IRIs of changed claims), only the links from or to those claims, read among the results
    of their round, model and scenario alone.

    >>> from decimal import Decimal as D
    >>> from pathlib import Path
    >>> from benchkg.graph.facts import fact_quads
    >>> from benchkg.graph.mapping import record_quads
    >>> from benchkg.records.reader import Record
    >>> same = {"suite_id": "v", "model_id": "m", "scenario": "server", "accelerator_ids": ["c"],
    ...         "accelerator_count": 8, "metric": "throughput", "unit": "tokens/s", "scope": "aggregate"}
    >>> audited = {"id": "a", "measured_by": "mlcommons", "value": D("910621.36"), **same}
    >>> vendor = {"id": "v1", "measured_by": "vendor", "value": D("910621"), **same}
    >>> rounded = {"id": "v2", "measured_by": "vendor", "value": D("911000"), "value_as_written": "911K", **same}
    >>> higher = {"id": "v3", "measured_by": "vendor", "value": D("920000"), "value_as_written": "920K", **same}
    >>> store = Store()
    >>> for d in (audited, vendor, rounded, higher):
    ...     store.extend(record_quads(Record("benchmarks", d["id"], Path("x.json"), d)))
    >>> store.extend(fact_quads(store, NamedNode("urn:g"), "https://w3id.org/benchkg/"))
    >>> [(q.subject.value[-2:], q.object.value[-1:]) for q in audited_quads(store, NamedNode("urn:g"))]
    [('v1', 'a'), ('v2', 'a')]
    >>> [q.subject.value[-2:] for q in audited_quads(store, NamedNode("urn:g"), ["https://w3id.org/benchkg/id/benchmarks/v3"])]
    []
    """

    def side(measured_by: str, models: str = "") -> list[Result]:
        text = SIDE % measured_by
        if models:  # (the VALUES first, then the model, its fewest claims: Oxigraph reads from the first
            # pattern it can, and a round's or a scenario's claims are a fifth of all; 0.19 -> 0.06 s a side
            # at 100,000 claims)
            text = text.replace("WHERE {\n", "WHERE {\n  " + models + "\n  ?claim bk:model ?model .\n", 1)
        solutions = select(store, sparql_prefixes() + text, use_default_graph_as_union=True)
        names = [v.value for v in solutions.variables]
        return [side_result(bound_terms(names, solution)) for solution in solutions]

    models = ""
    if claims is not None:
        keys = keys_of(store, claims)
        if not keys:  # (claims removed, or none given: no link from or to them is left to make)
            return []
        models = "VALUES (?suite ?model ?scenario) { " + " ".join(f"({' '.join(k)})" for k in keys) + " }"
    # each side read once and matched by key here: the same match as one SPARQL join of the two sides,
    # which at 10,000 claims took a minute of every build
    linked = links(side("bk:measured-by-vendor", models), side("bk:measured-by-mlcommons", models))
    pairs = {(NamedNode(v), NamedNode(a)) for v, a in linked}
    if claims is not None:
        changed = {NamedNode(c) for c in claims}
        pairs = {(v, a) for v, a in pairs if v in changed or a in changed}
    return sorted((Quad(claim, AUDITED_BY, by, graph) for claim, by in pairs), key=str)
