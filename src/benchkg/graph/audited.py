"""``bk:auditedBy``: which audited result a vendor's claim restates, derived at build time.

A vendor claim is *audited by* an MLCommons result when both are of the same round, model,
scenario, chip and accelerator count, in the same unit, and the two numbers are equal within
rounding: MLCommons publishes six significant figures (half a unit of the sixth is at most 5e-6 of
the value) and a vendor writes a whole number (half a unit). A per-accelerator claim is compared
with the audited result's per-accelerator value. The division and accuracy tier must agree where
the claim states them. Every such audited result is linked; a claim that restates none has no link
and stays the vendor's own measurement.
"""

from __future__ import annotations

from pyoxigraph import NamedNode, Quad, Store

from benchkg.kernel.vocab import BK, sparql_prefixes

AUDITED_BY = NamedNode(BK + "auditedBy")

QUERY = """
SELECT DISTINCT ?claim ?audited WHERE {
  ?claim bk:measuredBy bk:measured-by-vendor ; bk:suite ?suite ; bk:model ?model ; bk:scenario ?scenario ;
         bk:acceleratorCount ?count ; bk:accelerator ?ran_on ; bk:result ?r .
  ?r qudt:value ?v ; qudt:hasUnit ?unit ; bk:scope ?scope .
  ?audited bk:measuredBy bk:measured-by-mlcommons ; bk:suite ?suite ; bk:model ?model ; bk:scenario ?scenario ;
           bk:acceleratorCount ?count ; bk:accelerator ?audited_on ; bk:result ?ar .
  ?ar qudt:value ?av ; qudt:hasUnit ?unit ; bk:scope ?ascope .
  # the same chip: a rack meets the chips it is made of, a variant its base chip
  OPTIONAL { ?ran_on bk:madeOf ?part } BIND (COALESCE(?part, ?ran_on) AS ?c1)
  OPTIONAL { ?c1 bk:variantOf ?base } BIND (COALESCE(?base, ?c1) AS ?chip)
  OPTIONAL { ?audited_on bk:madeOf ?apart } BIND (COALESCE(?apart, ?audited_on) AS ?a1)
  OPTIONAL { ?a1 bk:variantOf ?abase } BIND (COALESCE(?abase, ?a1) AS ?achip)
  FILTER (?chip = ?achip)
  OPTIONAL { ?claim bk:division ?vdiv } OPTIONAL { ?audited bk:division ?adiv }
  FILTER (!BOUND(?vdiv) || COALESCE(?vdiv = ?adiv, false))
  OPTIONAL { ?claim bk:accuracyTarget ?vtier } OPTIONAL { ?audited bk:accuracyTarget ?atier }
  FILTER (!BOUND(?vtier) || COALESCE(?vtier = ?atier, false))
  OPTIONAL { ?audited bk:derivedValue/qudt:value ?adv }
  BIND (IF(?scope = bk:scope-per-accelerator, IF(?ascope = bk:scope-per-accelerator, ?av, ?adv),
           IF(?ascope = bk:scope-aggregate, ?av, ?none)) AS ?published)
  FILTER (BOUND(?published))
  BIND (IF(?v = FLOOR(?v), 0.5, 0) AS ?own)
  FILTER (ABS(?v - ?published) <= IF(?published * 0.000005 > ?own, ?published * 0.000005, ?own))
}
"""


def audited_quads(store: Store, graph: NamedNode) -> list[Quad]:
    """The ``bk:auditedBy`` links of every vendor claim in ``store``, as quads in ``graph``.

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
    """
    rows = store.query(sparql_prefixes() + QUERY, use_default_graph_as_union=True)
    return sorted((Quad(r["claim"], AUDITED_BY, r["audited"], graph) for r in rows), key=str)
