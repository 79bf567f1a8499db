"""``bk:auditedBy``: which audited result a vendor's claim restates, derived at build time.

A vendor claim is *audited by* an MLCommons result when both are of the same round, model,
scenario, chip and accelerator count, in the same unit, and the two numbers are equal within the
rounding they state: each number stands for the interval of half a unit in its last written place
(944,898 for 944,897.5–944,898.5; 910,621.36 for ±0.005), and the two intervals meet. A
per-accelerator claim is compared with the audited result's per-accelerator value (derived to four
places). The division, accuracy tier and submitter must agree where the claim states them. Every
such audited result is linked; a claim that restates none has no link and stays the vendor's own
measurement.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pyoxigraph import NamedNode, Quad, Store

from benchkg.graph.opening import bound_terms, rows, select
from benchkg.kernel.vocab import BK, sparql_prefixes

AUDITED_BY = NamedNode(BK + "auditedBy")

#: one side's results (vendor or MLCommons) with what a match compares, a row per chip they ran on,
#: read at the chip (a rack meets the chips it is made of, a variant its base chip)
SIDE = """
SELECT ?claim ?suite ?model ?scenario ?count ?chip ?unit ?scope ?v ?derived ?div ?tier ?sub WHERE {
  ?claim bk:measuredBy %s ; bk:suite ?suite ; bk:model ?model ; bk:scenario ?scenario ;
         bk:acceleratorCount ?count ; bk:accelerator ?ran_on ; bk:result ?r .
  ?r qudt:value ?v ; qudt:hasUnit ?unit ; bk:scope ?scope .
  OPTIONAL { ?ran_on bk:madeOf ?part } BIND (COALESCE(?part, ?ran_on) AS ?c1)
  OPTIONAL { ?c1 bk:variantOf ?base } BIND (COALESCE(?base, ?c1) AS ?chip)
  OPTIONAL { ?claim bk:division ?div } OPTIONAL { ?claim bk:accuracyTarget ?tier } OPTIONAL { ?claim bk:submitter ?sub }
  OPTIONAL { ?claim bk:derivedValue/qudt:value ?derived }
}
"""
PER_ACCELERATOR, AGGREGATE = NamedNode(BK + "scope-per-accelerator"), NamedNode(BK + "scope-aggregate")
_KEY = ("suite", "model", "scenario", "count", "chip", "unit")


def _restates(vendor: dict[str, Any], audited: dict[str, Any]) -> bool:
    """Whether a vendor row restates an audited row of the same key: division, tier and submitter agree
    where the claim states them, and the numbers are equal within the rounding they are written to.

    >>> from pyoxigraph import Literal
    >>> row = lambda v, **more: {"scope": AGGREGATE, "v": Literal(v), **more}
    >>> _restates(row("944898"), row("944902")), _restates(row("910621"), row("910621.36"))
    (False, True)
    >>> _restates(row("910621", sub="acme"), row("910621.36", sub="coreweave"))
    False
    """
    for name in ("div", "tier", "sub"):
        if name in vendor and vendor[name] != audited.get(name):
            return False
    if vendor["scope"] == PER_ACCELERATOR:
        published = audited["v"] if audited["scope"] == PER_ACCELERATOR else audited.get("derived")
    else:
        published = audited["v"] if audited["scope"] == AGGREGATE else None
    if published is None:
        return False
    value, published = Decimal(vendor["v"].value), Decimal(published.value)
    return abs(value - published) <= _half_unit(value) + _half_unit(published)


def _half_unit(number: Decimal) -> Decimal:
    """Half a unit in the last place ``number`` is written to (the rounding it states).

    >>> _half_unit(Decimal("944898")), _half_unit(Decimal("910621.36")), _half_unit(Decimal("1.2E+6"))
    (Decimal('0.5'), Decimal('0.005'), Decimal('5E+4'))
    """
    exponent = number.as_tuple().exponent
    return Decimal(5).scaleb(exponent - 1 if isinstance(exponent, int) else 0)  # (a NaN or an infinity: none)


def _keys_of(store: Store, claims: list[str]) -> list[tuple[str, str, str]]:
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
    >>> from benchkg.graph.mapping import record_quads
    >>> from benchkg.records.reader import Record
    >>> same = {"suite_id": "v", "model_id": "m", "scenario": "server", "accelerator_ids": ["c"],
    ...         "accelerator_count": 8, "metric": "throughput", "unit": "tokens/s", "scope": "aggregate"}
    >>> audited = {"id": "a", "measured_by": "mlcommons", "value": D("910621"), **same}
    >>> vendor = {"id": "v1", "measured_by": "vendor", "value": D("910621.36"), **same}
    >>> higher = {"id": "v2", "measured_by": "vendor", "value": D("920000"), **same}
    >>> store = Store()
    >>> for d in (audited, vendor, higher):
    ...     store.extend(record_quads(Record("benchmarks", d["id"], Path("x.json"), d)))
    >>> [(q.subject.value[-2:], q.object.value[-1:]) for q in audited_quads(store, NamedNode("urn:g"))]
    [('v1', 'a')]
    >>> [q.subject.value[-2:] for q in audited_quads(store, NamedNode("urn:g"), ["https://w3id.org/benchkg/id/benchmarks/v2"])]
    []
    """

    def side(measured_by: str, models: str = "") -> list[dict[str, Any]]:
        text = SIDE % measured_by
        if models:  # (the VALUES first, then the model, its fewest claims: Oxigraph reads from the first
            # pattern it can, and a round's or a scenario's claims are a fifth of all; 0.19 -> 0.06 s a side
            # at 100,000 claims)
            text = text.replace("WHERE {\n", "WHERE {\n  " + models + "\n  ?claim bk:model ?model .\n", 1)
        solutions = select(store, sparql_prefixes() + text, use_default_graph_as_union=True)
        names = [v.value for v in solutions.variables]
        return [bound_terms(names, solution) for solution in solutions]

    models = ""
    if claims is not None:
        found = _keys_of(store, claims)
        if not found:  # (claims removed, or none given: no link from or to them is left to make)
            return []
        models = "VALUES (?suite ?model ?scenario) { " + " ".join(f"({' '.join(k)})" for k in found) + " }"
    # each side read once and matched by key here: the same match as one SPARQL join of the two sides,
    # which at 10,000 claims took a minute of every build
    audited: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in side("bk:measured-by-mlcommons", models):
        audited.setdefault(tuple(row[k] for k in _KEY), []).append(row)
    links = {
        (row["claim"], other["claim"])
        for row in side("bk:measured-by-vendor", models)
        for other in audited.get(tuple(row[k] for k in _KEY), ())
        if _restates(row, other)
    }
    if claims is not None:
        changed = {NamedNode(c) for c in claims}
        links = {(v, a) for v, a in links if v in changed or a in changed}
    return sorted((Quad(claim, AUDITED_BY, by, graph) for claim, by in links), key=str)
