"""The comparison facts, derived once at build time for every claim (graph ``caveats``), so that every
saved query, shape and verb reads one meaning of each (docs/architecture.md, "one rule, one place"):

- ``bk:ranOn``: the chip the result ran on, a rack read as the chip it is made of; a system of mixed
  chips as one :class:`bk:AcceleratorCombination` (``…/combinations/h200+mi350x``: not a record of its own) whose
  ``bk:part`` are its chips (and whose ``bk:vendor`` is theirs when they share one), never as one of
  them. None for a CPU-only result.
- ``bk:ranOnAsNamed``: the same, but a rack stays the rack the claim names (the ``chip`` column), also
  where the claim names its chip beside it (one name a claim: the rack).
- ``bk:perAcceleratorValue``: the value per accelerator, by one rule: a per-accelerator throughput as
  stated, an aggregate one divided by the count (``bk:derivedValue``, to 10 significant digits); none for a latency, a
  power, a per-user or per-node value, a mixed system (it belongs to no one chip) or a CPU-only result
  (its count is of sockets).
- ``bk:perSocketValue``: a CPU-only result's value per socket, by the same rule (its count is of sockets).
- ``bk:tier``: the accuracy tier as stated; ``"not stated"`` when the claim states none but other
  claims of its model do (a tier filter then leaves it out, and says so); nothing for a model no
  claim states a tier for. An audited result (measured by MLCommons) reads only the audited results
  of its model: a repository claim stating a tier never makes the audited record "not stated" (one
  vendor's ``"99"`` for deepseek-r1, whose round has one accuracy target, left out all 37 of its v6.1
  Offline results and ranked the vendor's number alone; issue 64).
- ``bk:lowerIsBetter``: the direction of the headline value, from one table by unit
  (:data:`benchkg.kernel.vocab.LOWER_IS_BETTER`: ms, s, W, mJ).
- ``bk:platformId``: the MLPerf system ID (the name of the submission's system description file,
  ``8xMI350X_2xEPYC_9575F``), the one name a system keeps across rounds.
- ``bk:statedMemoryGB``: the accelerator memory the system description states, in GB (``"141 GB"``,
  ``"81559 MiB"``, ``"1,024 GB"``); none where it states none or several ("N/A", "Shared with host", two
  chips'), or only in bits ("2304Gb"); a bandwidth beside it ("8 TB/s") is not a size.
- ``bk:acceleratorKindRanOn``: what the result ran on: chip, superchip, rack or system, ``"none"`` for a
  CPU-only result (its processor is its ``chip``), a combination's kind when its parts share one.
- ``bk:chipSpelling``: the chip's name as the system description spells it, folded
  (:func:`benchkg.kernel.text.fold`: "NVIDIA B300-SXM-270GB" and "Nvidia B300-SXM-270GB" are one).
- ``bk:frameworkFamily``: the software the framework text names, by one table
  (:data:`benchkg.kernel.vocab.FRAMEWORK_FAMILIES`: ``"TensorRT 10.14, CUDA 13"`` and ``"TRTLLM 1.2"`` are
  tensorrt); none for a placeholder ("N/A", "TODO").

The superlative verdicts are derived beside them (:mod:`benchkg.graph.superlatives`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterator

from pyoxigraph import Literal, NamedNode, Quad, Store

from benchkg.graph.opening import rows, select
from benchkg.kernel.text import fold
from benchkg.kernel.vocab import BK, LOWER_IS_BETTER, UNITS, framework_family, sparql_prefixes

RAN_ON = NamedNode(BK + "ranOn")
AS_NAMED = NamedNode(BK + "ranOnAsNamed")
VENDOR = NamedNode(BK + "vendor")
PER_ACCELERATOR_VALUE = NamedNode(BK + "perAcceleratorValue")
TIER = NamedNode(BK + "tier")
LOWER = NamedNode(BK + "lowerIsBetter")
PART = NamedNode(BK + "part")
COMBINATION = NamedNode(BK + "AcceleratorCombination")
PLATFORM_ID = NamedNode(BK + "platformId")
STATED_MEMORY = NamedNode(BK + "statedMemoryGB")
KIND = NamedNode(BK + "acceleratorKindRanOn")  # (bk:acceleratorKind is the chip record's own: a concept)
FRAMEWORK_FAMILY = NamedNode(BK + "frameworkFamily")
CHIP_SPELLING = NamedNode(BK + "chipSpelling")
PER_SOCKET_VALUE = NamedNode(BK + "perSocketValue")
FACT_PREDICATES = (
    RAN_ON,
    AS_NAMED,
    PER_ACCELERATOR_VALUE,
    TIER,
    LOWER,
    PLATFORM_ID,
    STATED_MEMORY,
    KIND,
    FRAMEWORK_FAMILY,
    CHIP_SPELLING,
    PER_SOCKET_VALUE,
)
NOT_STATED = "not stated"
_LOWER_UNITS = {UNITS[u] for u in LOWER_IS_BETTER if u in UNITS}
RDF_TYPE = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
_XSD_BOOLEAN = NamedNode("http://www.w3.org/2001/XMLSchema#boolean")
_XSD_DECIMAL = NamedNode("http://www.w3.org/2001/XMLSchema#decimal")

#: what the facts are derived from, a row per chip a claim ran on
_CLAIMS = """
SELECT ?claim ?model ?acc ?chip ?vendor ?kind ?unit ?metric ?scope ?v ?derived ?tier ?audited ?url ?memory ?fw ?sdfw ?spelled WHERE {
  ?claim a bk:Benchmark .
  OPTIONAL { ?claim bk:model ?model }
  OPTIONAL { ?claim bk:accelerator ?acc OPTIONAL { ?acc bk:madeOf ?part } BIND (COALESCE(?part, ?acc) AS ?chip)
             OPTIONAL { ?chip bk:vendor ?vendor } OPTIONAL { ?acc bk:acceleratorKind ?kind } }
  OPTIONAL { ?claim bk:system/rdfs:seeAlso ?url }
  OPTIONAL { ?claim bk:system/bk:systemDescription/bk:sdAcceleratorMemoryCapacity ?memory }
  OPTIONAL { ?claim bk:system/bk:systemDescription/bk:sdAcceleratorModelName ?spelled }
  OPTIONAL { ?claim bk:framework ?fw }
  OPTIONAL { ?claim bk:system/bk:systemDescription/bk:sdFramework ?sdfw }
  # (one path per OPTIONAL: Oxigraph reads a one-pattern OPTIONAL claim by claim, where a group of patterns was
  # read for every claim, 0.29 s of a one-claim rebuild at 10,000 claims)
  OPTIONAL { ?claim bk:result/qudt:value ?v } OPTIONAL { ?claim bk:result/qudt:hasUnit ?unit }
  OPTIONAL { ?claim bk:result/bk:scope ?scope } OPTIONAL { ?claim bk:result/bk:metric ?metric }
  OPTIONAL { ?claim bk:derivedValue/qudt:value ?derived }
  OPTIONAL { ?claim bk:accuracyTarget ?tier }
  BIND (EXISTS { ?claim bk:measuredBy bk:measured-by-mlcommons } AS ?audited)
}
ORDER BY ?claim
"""


def combination_iri(base: str, chips: list[str]) -> str:
    """The IRI of the combination of several chips: their ids joined by ``+``, in order.

    >>> combination_iri("https://w3id.org/benchkg/", ["https://w3id.org/benchkg/id/accelerators/nvidia-h200",
    ...                                               "https://w3id.org/benchkg/id/accelerators/amd-mi350x"])
    'https://w3id.org/benchkg/combinations/amd-mi350x+nvidia-h200'
    """
    return f"{base}combinations/" + "+".join(sorted(c.rsplit("/", 1)[1] for c in chips))


def _claims(
    store: Store, models: list[str] | None, claims: list[str] | None = None
) -> Iterator[tuple[NamedNode, dict[str, Any]]]:
    """Each claim with its row, with ``chips`` the set of chips it ran on, in the order of their IRIs; only
    claims of ``models`` if given, and ``claims`` (IRIs) if given. A claim is given when its last row is
    read (the rows come sorted by claim), so a build holds one claim's row at a time, not every claim's."""
    text = _CLAIMS
    if claims is not None:  # (the VALUES first: Oxigraph then reads only those claims)
        text = text.replace("WHERE {\n", "WHERE {\n  VALUES ?claim { " + " ".join(f"<{c}>" for c in claims) + " }\n", 1)
    if models is not None:  # (the model joined, not optional: an OPTIONAL would keep every claim, any model)
        text = text.replace("WHERE {\n", "WHERE {\n  VALUES ?model { " + " ".join(models) + " }\n", 1)
        text = text.replace("OPTIONAL { ?claim bk:model ?model }", "?claim bk:model ?model .")
    claim: NamedNode | None = None
    seen: dict[str, Any] = {}
    for row in rows(select(store, sparql_prefixes() + text, use_default_graph_as_union=True)):
        if row["claim"] != claim:
            if claim is not None:
                yield claim, seen
            claim, seen = row["claim"], {"chips": set(), "named": set(), "vendors": set(), "kinds": set()}
        for name in (
            "model",
            "unit",
            "metric",
            "scope",
            "v",
            "derived",
            "tier",
            "audited",
            "url",
            "memory",
            "fw",
            "sdfw",
            "spelled",
        ):
            if row[name] is not None:
                seen[name] = row[name]
        if row["chip"] is not None:
            seen["chips"].add(row["chip"].value)
            seen["named"].add(row["acc"].value)
        if row["vendor"] is not None:
            seen["vendors"].add(row["vendor"])
        if row["kind"] is not None:
            seen["kinds"].add(row["kind"].value.rsplit("-", 1)[-1])
    if claim is not None:
        yield claim, seen


@dataclass(frozen=True)
class Tiered:
    """The models (IRIs) some claim states an accuracy tier for (``any``), and those some audited result
    states one for (``audited``): what makes a claim of the model that states none "not stated", a
    repository claim's and an audited result's."""

    any: frozenset[str]
    audited: frozenset[str]

    def of(self, audited: bool) -> frozenset[str]:
        """The models a claim that states no tier is "not stated" for: an audited result's, or another's."""
        return self.audited if audited else self.any


def tiered_models(store: Store) -> Tiered:
    """The models some claim states an accuracy tier for, and those some audited result states one for."""
    found = [
        (row["model"].value, row["audited"].value == "true")
        for row in select(
            store,
            sparql_prefixes()
            + "SELECT DISTINCT ?model ?audited WHERE { ?c bk:accuracyTarget ?t ; bk:model ?model "
            + "BIND (EXISTS { ?c bk:measuredBy bk:measured-by-mlcommons } AS ?audited) }",
            use_default_graph_as_union=True,
        )
    ]
    return Tiered(frozenset(m for m, _ in found), frozenset(m for m, audited in found if audited))


def fact_quads(
    store: Store, graph: NamedNode, base: str, models: list[str] | None = None, claims: list[str] | None = None
) -> Iterator[Quad]:
    """The comparison facts of every claim in ``store`` (of ``models`` only, if given: N-Triples IRIs;
    and of ``claims`` only, if given: IRIs), as quads in ``graph``, claim by claim (in the order of
    their IRIs: a cold build puts them in the store as they come, in batches).

    >>> from decimal import Decimal as D
    >>> from pathlib import Path
    >>> from benchkg.graph.mapping import record_quads
    >>> from benchkg.records.reader import Record
    >>> same = {"suite_id": "v", "model_id": "m", "scenario": "server", "metric": "throughput", "unit": "tokens/s"}
    >>> rows = [{"id": "a", "accelerator_ids": ["c"], "accelerator_count": 8, "value": D("800"),
    ...          "scope": "aggregate", "accuracy_target": "99", **same},
    ...         {"id": "b", "accelerator_ids": ["c", "d"], "accelerator_count": 8, "value": D("800"),
    ...          "scope": "aggregate", **same}]
    >>> store = Store()
    >>> for d in rows:
    ...     store.extend(record_quads(Record("benchmarks", d["id"], Path("x.json"), d)))
    >>> for q in fact_quads(store, NamedNode("urn:g"), "https://w3id.org/benchkg/"):
    ...     print(q.subject.value.rsplit("/", 1)[1], q.predicate.value.rsplit("#", 1)[1], q.object.value.rsplit("/", 1)[-1])
    a ranOn c
    a ranOnAsNamed c
    a perAcceleratorValue 100
    a tier 99
    a lowerIsBetter false
    b ranOn c+d
    b ranOnAsNamed c+d
    c+d type ontology#AcceleratorCombination
    c+d part c
    c+d part d
    b tier not stated
    b lowerIsBetter false
    """
    tiered = tiered_models(store)
    for claim, row in _claims(store, models, claims):
        yield from _claim_facts(claim, row, graph, base, tiered)


def _claim_facts(claim: NamedNode, row: dict[str, Any], graph: NamedNode, base: str, tiered: Tiered) -> list[Quad]:
    """The comparison facts of one claim (its ``row`` of :func:`_claims`); ``tiered`` the models some
    claim states a tier for."""
    quads: list[Quad] = []
    chips = sorted(row["chips"])
    if len(chips) == 1:
        quads.append(Quad(claim, RAN_ON, NamedNode(chips[0]), graph))
        # a rack named beside its own chip is the rack: the chip adds nothing, and two names were two rows
        # of every answer that lists the claim by what it ran on (issue 64)
        named = sorted(row["named"] - set(chips)) or chips
        quads += [Quad(claim, AS_NAMED, NamedNode(name), graph) for name in named]
    elif chips:
        combination = NamedNode(combination_iri(base, chips))
        quads += [Quad(claim, RAN_ON, combination, graph), Quad(claim, AS_NAMED, combination, graph)]
        quads.append(Quad(combination, RDF_TYPE, COMBINATION, graph))
        quads += [Quad(combination, PART, NamedNode(chip), graph) for chip in chips]
        if len(row["vendors"]) == 1:
            quads.append(Quad(combination, VENDOR, next(iter(row["vendors"])), graph))
    per_accelerator = _per_accelerator(row, len(chips))
    if per_accelerator is not None:
        quads.append(Quad(claim, PER_ACCELERATOR_VALUE, per_accelerator, graph))
    per_socket = _per_accelerator(row, len(chips), cpu=True) if row["kinds"] == {"cpu"} else None
    if per_socket is not None:  # (a CPU-only result's count is of sockets: its value per socket, named so)
        quads.append(Quad(claim, PER_SOCKET_VALUE, per_socket, graph))
    if "tier" in row:
        quads.append(Quad(claim, TIER, Literal(row["tier"].value), graph))
    elif row.get("model") is not None and row["model"].value in tiered.of(is_audited(row)):
        quads.append(Quad(claim, TIER, Literal(NOT_STATED), graph))
    if "unit" in row:
        lower = "true" if row["unit"].value in _LOWER_UNITS else "false"
        quads.append(Quad(claim, LOWER, Literal(lower, datatype=_XSD_BOOLEAN), graph))
    quads += [Quad(claim, p, o, graph) for p, o in _system_facts(row)]
    return quads


def is_audited(row: dict[str, Any]) -> bool:
    """Whether a claim's row (of :func:`_claims`) is an audited result's (measured by MLCommons)."""
    audited = row.get("audited")
    return audited is not None and audited.value == "true"


def _system_facts(row: dict[str, Any]) -> list[tuple[NamedNode, Literal]]:
    """The facts of the system a claim ran on: its MLPerf ID, stated memory, kind, framework family and the
    chip's spelling folded."""
    out = []
    url = row.get("url")
    if url is not None and re.search(r"/systems/[^/]+\.json$", url.value):
        out.append((PLATFORM_ID, Literal(url.value.rsplit("/", 1)[1][: -len(".json")])))
    memory = stated_memory_gb(row["memory"].value) if "memory" in row else None
    if memory is not None:
        out.append((STATED_MEMORY, Literal(memory, datatype=_XSD_DECIMAL)))
    if row["kinds"] == {"cpu"}:
        out.append((KIND, Literal("none")))
    elif len(row["kinds"]) == 1:
        out.append((KIND, Literal(next(iter(row["kinds"])))))
    text = row.get("fw") or row.get("sdfw")
    family = framework_family(text.value) if text is not None else None
    if family is not None:  # (none for a placeholder: "N/A" names no framework, not some other one)
        out.append((FRAMEWORK_FAMILY, Literal(family)))
    if "spelled" in row:  # one spelling whatever its case, dashes or Unicode form (kernel.text.fold; issue 62)
        out.append((CHIP_SPELLING, Literal(fold(row["spelled"].value))))
    return out


_SIZES = {"GB": Decimal(1), "GiB": Decimal("1.073741824"), "Gi": Decimal("1.073741824"), "MiB": Decimal("0.001048576"), "MB": Decimal("0.001"), "TB": Decimal(1000), "TiB": Decimal("1099.511627776")}  # fmt: skip
#: a memory size as system descriptions write it ("141 GB", "180GB", "180 GB" with a thin space, "81559 MiB",
#: "96Gi", "1,024 GB"): a number not cut out of a longer one, and a unit of bytes. Not a rate ("8 TB/s",
#: "8 TBps": the bandwidth beside the size), and not "Gb" or "gb": a lower-case b is a bit (2304 Gb would be
#: 288 GB), no published description writes it, and a size a factor of eight out is worse than none
_SIZE = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(GiB|GB|Gi|MiB|MB|TiB|TB)(?![A-Za-z/])")


def stated_memory_gb(text: str) -> str | None:
    """The one memory size a system description's text states, in GB (to a tenth), or None for none or
    several (tests/test_algebra_framings.py reads every spelling in data/systems/).

    >>> [stated_memory_gb(t) for t in ("141 GB", "288GB", "288 GB HBM3e per GPU", "81559 MiB", "96Gi")]
    ['141', '288', '288', '85.5', '103.1']
    >>> [stated_memory_gb(t) for t in ("1,024 GB", "288 GB HBM3e, 8 TB/s", "2304Gb", "14,5 GB")]
    ['1024', '288', None, None]
    >>> [stated_memory_gb(t) for t in ("N/A", "Shared with host", "256 GB (MI325X), 192 GB (MI300X)")]
    [None, None, None]
    """
    sizes = _SIZE.findall(text)
    if len(sizes) != 1:
        return None
    whole, fraction, unit = sizes[0]
    gb = (Decimal(whole.replace(",", "") + fraction) * _SIZES[unit]).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return format(gb.normalize(), "f")


def _per_accelerator(row: dict[str, Any], chips: int, cpu: bool = False) -> Literal | None:
    """A claim's per-accelerator value: one chip, a throughput, stated per accelerator or derived; none for
    a CPU-only result (its count is of sockets, not accelerators: ranked beside accelerators, a socket
    was one; issue 62). With ``cpu``, that value of a CPU-only result: its value per socket."""
    if chips != 1 or row.get("metric") != NamedNode(BK + "metric-throughput") or (row["kinds"] == {"cpu"}) != cpu:
        return None
    found = row["v"] if row.get("scope") == NamedNode(BK + "scope-per-accelerator") else row.get("derived")
    return found if isinstance(found, Literal) else None


def remove_facts(store: Store, graph: NamedNode, claims: list[NamedNode] | None = None) -> None:
    """Take away the facts of ``claims`` and of the combinations they ran on (derived again with them: a
    part's vendor may have changed), or of every claim and every combination if None."""
    subjects: list[NamedNode | None] = list(claims) if claims is not None else [None]
    if claims is not None:  # (a combination's quads are the same from every claim that ran on it)
        for node in _combinations_of(store, graph, list(claims)):
            for old in list(store.quads_for_pattern(node, None, None, graph)):
                store.remove(old)
    for subject in subjects:
        for predicate in FACT_PREDICATES:
            for old in list(store.quads_for_pattern(subject, predicate, None, graph)):
                store.remove(old)
    if claims is None:
        for predicate in (PART, VENDOR):
            for old in list(store.quads_for_pattern(None, predicate, None, graph)):
                store.remove(old)
        for old in list(store.quads_for_pattern(None, RDF_TYPE, COMBINATION, graph)):
            store.remove(old)


def combination_mates(store: Store, graph: NamedNode, claims: list[str]) -> list[str]:
    """The claims that ran on a combination one of ``claims`` ran on (their facts are redone with it)."""
    combinations = _combinations_of(store, graph, [NamedNode(c) for c in claims])
    mates = {
        str(getattr(q.subject, "value", ""))
        for node in combinations
        for q in store.quads_for_pattern(None, RAN_ON, node, graph)
    }
    return sorted(mates - set(claims))


def _combinations_of(store: Store, graph: NamedNode, claims: list[NamedNode]) -> set[NamedNode]:
    """The accelerator combinations ``claims`` ran on (a mixed system's chips, as one)."""
    ran_on = {q.object for c in claims for q in store.quads_for_pattern(c, RAN_ON, None, graph)}
    return {
        node
        for node in ran_on
        if isinstance(node, NamedNode)
        and next(iter(store.quads_for_pattern(node, RDF_TYPE, COMBINATION, graph)), None) is not None
    }


def claims_of_models(store: Store, models: list[str]) -> list[NamedNode]:
    """Every claim of ``models`` (N-Triples IRIs)."""
    if not models:
        return []
    by_model: dict[str, list[NamedNode]] = defaultdict(list)
    for row in select(
        store,
        sparql_prefixes() + "SELECT ?c ?model WHERE { VALUES ?model { " + " ".join(models) + " } ?c bk:model ?model }",
        use_default_graph_as_union=True,
    ):
        by_model[str(row["model"])].append(row["c"])
    return [claim for model in models for claim in by_model[model]]
