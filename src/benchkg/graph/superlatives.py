"""The verdict of every superlative a claim asserts (``asserts``: rank, scope, among), derived at build
time beside ``bk:auditedBy`` and read by the saved query ``superlatives``, the shapes of
``shapes/superlatives.ttl`` and ``benchkg show`` — one computation, so the three cannot disagree.

The population is the audited results (measured by MLCommons) that every facet of ``among`` admits
(round, division, system type, model, scenario, tier, chip, the chips' vendor, accelerator count,
node count, kind of organisation; a facet not given does not narrow it), in the claim's unit and
metric, other than the claim and the audited result it restates. A chip admits results on it, on a
rack made of it, and on its variants; a rack named in ``among`` stands for its chip; several chips
admit results on any of them. A vendor admits results whose chips are all its own ("AMD-based": a
system mixing AMD and NVIDIA chips is out). Organisations of the kind named are in, of another kind out, and of
no kind yet (the reviewed table has not classified them) *unclassified*: never counted as better,
never guessed away. Both numbers are read in the ranked scope: as stated, or a throughput between
aggregate and per accelerator (never a latency, a per-user or per-node value times the count).

A result is *better* when it is better in the unit's direction (:mod:`benchkg.graph.facts`) than every
number the claim states (``bk:statedInterval``: "74K, the highest" is beaten only by a result above
74,500; a latency "5.7 s" only by one below 5.65 s), so the claim's own rounding never beats it.
The verdict: ``unchecked`` (no audited result of that population), ``beaten`` (at least ``rank`` of
them are better), ``open`` (only with the unclassified would it be beaten), else ``holds``. ``best``
is the best of the population (the runner-up when the claim holds).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pyoxigraph import Literal, NamedNode, Quad, Store

from benchkg.graph.facts import RDF_TYPE
from benchkg.graph.opening import rows, select
from benchkg.kernel.matching import Interval, published_digits, stated_interval
from benchkg.kernel.vocab import BK, LOWER_IS_BETTER, UNITS, sparql_prefixes

SUPERLATIVE = NamedNode(BK + "superlative")
VERDICT_CLASS = NamedNode(BK + "SuperlativeVerdict")
_OUT = {
    name: NamedNode(BK + name)
    for name in ("verdict", "population", "better", "unclassifiedBetter", "claimValue", "bestValue", "best")
}
_OUT["unit"] = NamedNode("http://qudt.org/schema/qudt/hasUnit")
_INTEGER = NamedNode("http://www.w3.org/2001/XMLSchema#integer")
_DECIMAL = NamedNode("http://www.w3.org/2001/XMLSchema#decimal")
_LOWER_UNITS = {UNITS[u] for u in LOWER_IS_BETTER if u in UNITS}
_THROUGHPUT = BK + "metric-throughput"
_PER_ACCELERATOR, _AGGREGATE = BK + "scope-per-accelerator", BK + "scope-aggregate"
_FACETS = ("suite", "division", "systemType", "model", "scenario", "accuracyTarget")

#: the claims that assert a rank, a row per facet value their population gives
_CLAIMS = """
SELECT ?claim ?rank ?ranked ?v ?unit ?scope ?metric ?derived ?count ?facet ?given ?part ?audited ?interval WHERE {
  # (every required pattern before the first OPTIONAL: a pattern after one is read for every result and joined,
  # 0.25 s of every build on data/, where the claims that assert a rank are 15)
  ?claim bk:asserts ?as ; bk:result ?r . ?r qudt:value ?v ; qudt:hasUnit ?unit ; bk:scope ?scope ; bk:metric ?metric .
  OPTIONAL { ?as bk:rank ?rank } OPTIONAL { ?as bk:rankScope ?ranked }
  OPTIONAL { ?claim bk:perAcceleratorValue ?derived } OPTIONAL { ?claim bk:acceleratorCount ?count }
  OPTIONAL { ?claim bk:auditedBy ?audited } OPTIONAL { ?r bk:statedInterval ?interval }
  OPTIONAL { ?as bk:among ?pop . ?pop ?facet ?given OPTIONAL { ?given bk:madeOf ?part } }
}
"""
#: every audited result, a row per chip it meets (the rack it names, the chip it ran on, their base chips: the
#: derived facts, graph/facts.py; a mixed system meets its combination, never one of its chips) and kind
_AUDITED = """
SELECT ?o ?v ?unit ?scope ?metric ?derived ?count ?nodes ?suite ?division ?systemType ?model ?scenario
       ?accuracyTarget ?chip ?vendor ?sub ?kind WHERE {
  ?o bk:measuredBy bk:measured-by-mlcommons ; bk:result ?r .
  ?r qudt:value ?v ; qudt:hasUnit ?unit ; bk:scope ?scope ; bk:metric ?metric .
  OPTIONAL { ?o bk:perAcceleratorValue ?derived } OPTIONAL { ?o bk:acceleratorCount ?count }
  OPTIONAL { ?o bk:nodeCount ?nodes } OPTIONAL { ?o bk:accelerator/bk:vendor ?vendor }
  OPTIONAL { ?o bk:suite ?suite } OPTIONAL { ?o bk:division ?division } OPTIONAL { ?o bk:systemType ?systemType }
  OPTIONAL { ?o bk:model ?model } OPTIONAL { ?o bk:scenario ?scenario } OPTIONAL { ?o bk:accuracyTarget ?accuracyTarget }
  OPTIONAL { { ?o bk:ranOnAsNamed ?chip } UNION { ?o bk:ranOn ?chip }
             UNION { ?o bk:ranOnAsNamed/bk:variantOf ?chip } UNION { ?o bk:ranOn/bk:variantOf ?chip } }
  OPTIONAL { ?o bk:submitter ?sub OPTIONAL { ?sub bk:organizationKind ?kind } }
}
"""
_AMONG = {f"among{name[0].upper()}{name[1:]}": name for name in _FACETS} | {
    "amongAccelerator": "chip",
    "amongAcceleratorVendor": "vendor",
    "amongAcceleratorCount": "size",
    "amongNodeCount": "nodes",
    "amongOrganizationKind": "kind",
}
#: the columns an audited result has several values of, one per row
_SETS = ("chip", "vendor", "kind", "audited")


def _rows(store: Store, text: str, key: str) -> dict[NamedNode, dict[str, Any]]:
    """key -> its one-valued columns, and a set of values for each column that varies across its rows."""
    found: dict[NamedNode, dict[str, Any]] = {}
    for row in rows(select(store, sparql_prefixes() + text, use_default_graph_as_union=True)):
        seen = found.setdefault(row[key], {name: set() for name in _SETS} | {"facets": {}})
        for name, term in row.items():
            if term is None:
                continue
            if name in _SETS:
                seen[name].add(term)
            elif name == "facet":
                given = row["part"] if row.get("part") is not None else row.get("given")
                seen["facets"].setdefault(_AMONG.get(term.value.rsplit("#", 1)[1], ""), set()).add(given)
            else:
                seen[name] = term
    return found


def _in_scope(row: dict[str, Any], ranked: str) -> Literal | None:
    """A result's number in the ranked scope: as stated, or a throughput between aggregate and per
    accelerator (never a latency, a per-user or per-node value times the count).

    >>> row = {"v": Literal("800"), "scope": NamedNode(_AGGREGATE), "metric": NamedNode(_THROUGHPUT),
    ...        "derived": Literal("100"), "count": Literal("8")}
    >>> _in_scope(row, _AGGREGATE).value, _in_scope(row, _PER_ACCELERATOR).value
    ('800', '100')
    """
    scope = row["scope"].value
    if scope == ranked:
        return _literal(row["v"])
    if row["metric"].value != _THROUGHPUT:
        return None
    if ranked == _PER_ACCELERATOR and scope == _AGGREGATE and "derived" in row:
        return _literal(row["derived"])
    if ranked == _AGGREGATE and scope == _PER_ACCELERATOR and "count" in row:
        product = Decimal(row["v"].value) * Decimal(row["count"].value)
        return Literal(format(product.normalize(), "f"), datatype=_DECIMAL)
    return None


def _interval_in_scope(claim: dict[str, Any], ranked: str) -> Interval | None:
    """The numbers the claim's value states (:func:`benchkg.kernel.matching.stated_interval`, as the mapping
    wrote it), read in the ranked scope: "74K" is 73,500 to 74,500 in aggregate, a ninth of that per
    accelerator of 9. None when it has no reading there."""
    stated = Interval.parse(claim["interval"].value) if "interval" in claim else stated_interval(claim["v"].value)
    scope = claim["scope"].value
    if scope == ranked:
        return stated
    if ranked == _PER_ACCELERATOR and scope == _AGGREGATE and "derived" in claim:  # it has a per-accelerator value
        return stated.scaled(1 / Decimal(claim["count"].value))
    if ranked == _AGGREGATE and scope == _PER_ACCELERATOR and "count" in claim:
        return stated.scaled(Decimal(claim["count"].value))
    return None


def _beyond(stated: Interval | None, number: Decimal, sign: int) -> bool:
    """Whether an audited ``number`` is better than every number the claim states (``sign`` 1: higher is
    better): above the interval's high end, or below its low end for a latency, by more than its own
    rounding. A rival inside the interval is the claim's equal as written, never better.

    >>> five_seven = Interval(Decimal("5.65"), Decimal("5.75"))
    >>> _beyond(five_seven, Decimal("5.70"), -1), _beyond(five_seven, Decimal("5.6"), -1)
    (False, True)
    >>> _beyond(Interval(Decimal("1E+6"), None, open_low=True), Decimal("3E+6"), 1)  # "over 1M": no top
    False
    """
    if stated is None:
        return False
    bound = stated.high if sign > 0 else stated.low
    return bound is not None and sign * (number - bound) > 0 and not stated.meets(published_digits(number))


def _literal(term: Any) -> Literal | None:
    return term if isinstance(term, Literal) else None


def _admitted(facets: dict[str, set[Any]], result: dict[str, Any]) -> int | None:
    """1 when ``result`` is of the population, 0 when only its organisation is unclassified, None when out."""
    for name, wanted in facets.items():
        if name in ("kind", ""):
            continue
        if name == "vendor":  # every chip of the vendor named
            if not result["vendor"] or not result["vendor"] <= wanted:
                return None
            continue
        if name in ("size", "nodes"):  # counts compare as numbers (8 and 8.0 are one count)
            have = result.get("count" if name == "size" else "nodes")
            if have is None or Decimal(have.value) not in {Decimal(w.value) for w in wanted}:
                return None
            continue
        have = result["chip"] if name == "chip" else {result.get(name)}
        if not wanted & have:
            return None
    if "kind" in facets:
        if facets["kind"] & result["kind"]:
            return 1
        return None if result["kind"] else 0
    return 1


def verdict(claim: dict[str, Any], audited: dict[NamedNode, dict[str, Any]], iri: NamedNode) -> dict[str, Any]:
    """The verdict of one claim's superlative against the audited results (see the module doc):
    counts, the claim's number in the ranked scope, and the best of the population with its number.
    An assertion that says no scope cannot be checked (``superlative-is-complete`` says why)."""
    if "ranked" not in claim:
        return {"verdict": "unchecked", "claim_value": None, "best": [], "rows": 0}
    ranked = claim["ranked"].value
    stated = _in_scope(claim, ranked)
    mine = Decimal(stated.value) if stated is not None else None
    sign = -1 if claim["unit"].value in _LOWER_UNITS else 1
    stated_as = _interval_in_scope(claim, ranked)
    counts = {"rows": 0, "population": 0, "better": 0, "unclassified": 0}
    top: Decimal | None = None
    best: list[tuple[NamedNode, Literal]] = []
    for o, result in audited.items():
        if o == iri or o in claim["audited"] or result["unit"] != claim["unit"] or result["metric"] != claim["metric"]:
            continue
        admitted = _admitted(claim["facets"], result)
        value = _in_scope(result, ranked)
        if admitted is None or mine is None or value is None:
            continue
        number = Decimal(value.value)
        beats = _beyond(stated_as, number, sign)
        counts["rows"] += 1
        counts["population"] += admitted
        counts["better"] += admitted * beats
        counts["unclassified"] += (1 - admitted) * beats
        if admitted and (top is None or sign * number >= top):
            best = ([] if top is None or sign * number > top else best) + [(o, value)]
            top = sign * number
    # (no rank, or one below 1, is a finding of its own, not a beaten one)
    rank = max(1, int(claim["rank"].value)) if "rank" in claim else 1
    if counts["population"] == 0:
        outcome = "unchecked"
    elif counts["better"] >= rank:
        outcome = "beaten"
    elif counts["better"] + counts["unclassified"] >= rank:
        outcome = "open"
    else:
        outcome = "holds"
    return {"verdict": outcome, "claim_value": stated, "best": best, **counts}


def _audited_of(claims: dict[NamedNode, dict[str, Any]]) -> str:
    """The query of the audited results the claims' populations can hold: of their models only, when
    every population names its model (as a curator's claims do), else of every model."""
    models = [claim["facets"].get("model") for claim in claims.values()]
    if not models or not all(models):
        return _AUDITED
    named = sorted({f"<{m.value}>" for given in models for m in given if isinstance(m, NamedNode)})
    text = _AUDITED.replace("WHERE {\n", "WHERE {\n  VALUES ?model { " + " ".join(named) + " }\n", 1)
    return text.replace("OPTIONAL { ?o bk:model ?model }", "?o bk:model ?model .")


def superlative_quads(store: Store, graph: NamedNode) -> list[Quad]:
    """The ``bk:superlative`` verdict node of every claim that asserts a rank, as quads in ``graph``."""
    claims = _rows(store, _CLAIMS, "claim")
    if not claims:
        return []
    audited = _rows(store, _audited_of(claims), "o")
    quads = []
    for iri, claim in sorted(claims.items(), key=lambda item: item[0].value):
        found = verdict(claim, audited, iri)
        node = NamedNode(iri.value + "#superlative")
        out: list[tuple[NamedNode, NamedNode | Literal]] = [
            (RDF_TYPE, VERDICT_CLASS),
            (_OUT["verdict"], Literal(found["verdict"])),
        ]
        if found["rows"]:
            out += [
                (_OUT["population"], Literal(str(found["population"]), datatype=_INTEGER)),
                (_OUT["better"], Literal(str(found["better"]), datatype=_INTEGER)),
                (_OUT["unclassifiedBetter"], Literal(str(found["unclassified"]), datatype=_INTEGER)),
                (_OUT["claimValue"], found["claim_value"]),
                (_OUT["unit"], claim["unit"]),
            ]
        for best, value in found["best"]:
            out += [(_OUT["best"], best), (_OUT["bestValue"], value)]
        quads.append(Quad(iri, SUPERLATIVE, node, graph))
        quads += [Quad(node, p, o, graph) for p, o in out]
    return quads


def remove_superlatives(store: Store, graph: NamedNode) -> None:
    """Take away every derived verdict (they are derived again whole: any result may be a rival)."""
    for old in list(store.quads_for_pattern(None, SUPERLATIVE, None, graph)):
        store.remove(old)
    for typed in list(store.quads_for_pattern(None, RDF_TYPE, VERDICT_CLASS, graph)):
        for old in list(store.quads_for_pattern(typed.subject, None, None, graph)):
            store.remove(old)
