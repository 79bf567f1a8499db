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

Long because each fact's rule and the one reader of what the rules read (:class:`Inputs`: a claim's
record, its chips' and its system's, from the records as mapped or from the store) belong in one place:
apart, the rules and the rows they read would drift.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable, Iterator

from pyoxigraph import Literal, NamedNode, Quad, Store

from benchkg.graph.opening import select
from benchkg.kernel.text import fold
from benchkg.kernel.vocab import BK, LOWER_IS_BETTER, UNITS, expand, framework_family, sparql_prefixes

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

#: the predicates the facts and the audited links read, of a claim and its result and derived value, of the
#: accelerators it names and the chips they are made of, and of its system and the system's description
READ = frozenset(
    expand(p)
    for p in (
        "bk:model", "bk:accelerator", "bk:madeOf", "bk:vendor", "bk:acceleratorKind", "bk:variantOf", "bk:system",
        "rdfs:seeAlso", "bk:systemDescription", "bk:sdAcceleratorMemoryCapacity", "bk:sdAcceleratorModelName",
        "bk:sdFramework", "bk:framework", "bk:result", "qudt:value", "qudt:hasUnit", "bk:scope", "bk:metric",
        "bk:derivedValue", "bk:accuracyTarget", "bk:measuredBy", "bk:suite", "bk:scenario", "bk:acceleratorCount",
        "bk:division", "bk:submitter", "bk:restates", "bk:statedInterval",
    )
)  # fmt: skip
_BENCHMARK = NamedNode(BK + "Benchmark")
_MLCOMMONS = NamedNode(expand("bk:measured-by-mlcommons"))
_P = {p.rsplit("#", 1)[-1].rsplit("/", 1)[-1]: p for p in READ}


class Inputs:
    """What the facts and the audited links read of the records, by subject: the terms of the predicates of
    :data:`READ`, taken from the quads the build maps (:meth:`add`; a cold build is read from them, not
    queried back out of the store: 48 s of a cold build at 100,000 claims), and of any other subject from
    ``store``, read from its records' graphs when first asked for (an incremental build's unchanged chips
    and systems), never from the graph of derived facts; or from ``parent`` (a cold build's worker: its
    chunk of claims here, every chip and system there).

    >>> from benchkg.graph.mapping import record_quads
    >>> from benchkg.records.reader import Record
    >>> from pathlib import Path
    >>> inputs = Inputs()
    >>> inputs.add(record_quads(Record("benchmarks", "a", Path("a.json"), {"id": "a", "model_id": "m"})))
    >>> inputs.claims, [t.value for t in inputs.of(inputs.claims[0])[_P["model"]]]
    (['https://w3id.org/benchkg/id/benchmarks/a'], ['https://w3id.org/benchkg/id/models/m'])
    """

    def __init__(
        self, store: Store | None = None, derived: NamedNode | None = None, parent: Inputs | None = None
    ) -> None:
        self.known: dict[str, dict[str, list[Any]]] = {}
        self.found: list[str] = []  # the claims among the quads added, in the order they came
        self.store, self.derived, self.parent = store, derived, parent

    def add(self, quads: Iterable[Quad]) -> None:
        """Keep what the facts read of these quads (a record's, or several records')."""
        for q in quads:
            predicate, subject = q.predicate.value, str(getattr(q.subject, "value", ""))
            if predicate in READ:
                terms = self.known.setdefault(subject, {}).setdefault(predicate, [])
                if q.object not in terms:
                    terms.append(q.object)
            elif q.predicate == RDF_TYPE and q.object == _BENCHMARK:
                self.found.append(subject)
                self.known.setdefault(subject, {})

    @property
    def claims(self) -> list[str]:
        """The claims among the quads added, in the order of their IRIs."""
        return sorted(self.found)

    def of(self, subject: str) -> dict[str, list[Any]]:
        """What the facts read of ``subject``: ``{predicate IRI: [terms]}``."""
        found = self.known.get(subject)
        if found is None and self.parent is not None:  # (a worker's chunk of claims: the chips and systems)
            return self.parent.of(subject)
        if found is None:
            found = {}
            if self.store is not None:
                for q in self.store.quads_for_pattern(NamedNode(subject), None, None, None):
                    if q.predicate.value in READ and q.graph_name != self.derived:
                        terms = found.setdefault(q.predicate.value, [])
                        if q.object not in terms:
                            terms.append(q.object)
            self.known[subject] = found
        return found

    def one(self, subject: Any, name: str) -> Any:
        """The term of ``subject``'s predicate ``name`` (its local name: ``"model"``), or None; of
        several, the least (as text: one answer whatever the order they were read in)."""
        if subject is None:
            return None
        terms = self.of(subject.value if isinstance(subject, NamedNode) else subject).get(_P[name])
        return (terms[0] if len(terms) == 1 else min(terms, key=str)) if terms else None

    def every(self, subject: Any, name: str) -> list[Any]:
        """Every term of ``subject``'s predicate ``name``."""
        return list(self.of(subject.value if isinstance(subject, NamedNode) else subject).get(_P[name], ()))

    def row(self, claim: str) -> dict[str, Any]:
        """What the facts of ``claim`` are derived from: its model, result, tier…, ``chips`` the chips it ran
        on (an accelerator's parts, or itself), ``named`` the accelerators it names, their ``vendors`` and
        ``kinds``, and its system's URL, stated memory, chip spelling and framework."""
        row: dict[str, Any] = {"chips": set(), "named": set(), "vendors": set(), "kinds": set()}
        for acc in self.every(claim, "accelerator"):
            for chip in self.every(acc, "madeOf") or [acc]:
                row["chips"].add(chip.value)
                row["named"].add(acc.value)
                row["vendors"].update(self.every(chip, "vendor"))
            row["kinds"].update(kind.value.rsplit("-", 1)[-1] for kind in self.every(acc, "acceleratorKind"))
        result, system = self.one(claim, "result"), self.one(claim, "system")
        description = self.one(system, "systemDescription")
        found = {
            "model": self.one(claim, "model"),
            "unit": self.one(result, "hasUnit"),
            "metric": self.one(result, "metric"),
            "scope": self.one(result, "scope"),
            "v": self.one(result, "value"),
            "derived": self.one(self.one(claim, "derivedValue"), "value"),
            "tier": self.one(claim, "accuracyTarget"),
            "audited": Literal("true" if _MLCOMMONS in self.every(claim, "measuredBy") else "false"),
            "url": self.one(system, "seeAlso"),
            "memory": self.one(description, "sdAcceleratorMemoryCapacity"),
            "fw": self.one(claim, "framework"),
            "sdfw": self.one(description, "sdFramework"),
            "spelled": self.one(description, "sdAcceleratorModelName"),
        }
        row.update((name, term) for name, term in found.items() if term is not None)
        return row


def combination_iri(base: str, chips: list[str]) -> str:
    """The IRI of the combination of several chips: their ids joined by ``+``, in order.

    >>> combination_iri("https://w3id.org/benchkg/", ["https://w3id.org/benchkg/id/accelerators/nvidia-h200",
    ...                                               "https://w3id.org/benchkg/id/accelerators/amd-mi350x"])
    'https://w3id.org/benchkg/combinations/amd-mi350x+nvidia-h200'
    """
    return f"{base}combinations/" + "+".join(sorted(c.rsplit("/", 1)[1] for c in chips))


@dataclass(frozen=True)
class Tiered:
    """The models (IRIs) some claim states an accuracy tier for (``any``), and those some audited result
    states one for (``audited``): what makes a claim of the model that states none "not stated", a
    repository claim's and an audited result's."""

    any: frozenset[str]
    audited: frozenset[str]

    @classmethod
    def stating(cls, pairs: Iterable[tuple[str, bool]]) -> Tiered:
        """The models of ``(model, audited)`` pairs, one per claim that states a tier.

        >>> Tiered.stating([("m", True), ("n", False)]).audited
        frozenset({'m'})
        """
        found = list(pairs)
        return cls(frozenset(m for m, _ in found), frozenset(m for m, audited in found if audited))

    def of(self, audited: bool) -> frozenset[str]:
        """The models a claim that states no tier is "not stated" for: an audited result's, or another's."""
        return self.audited if audited else self.any


#: no model tiered (a cold build's worker: which are is known once every chunk is in)
NO_TIERS = Tiered(frozenset(), frozenset())


def tiered_models(store: Store, models: list[str] | None = None) -> Tiered:
    """The models some claim states an accuracy tier for, and those some audited result states one for;
    of ``models`` only (N-Triples IRIs) if given."""
    only = "VALUES ?model { " + " ".join(models) + " } " if models is not None else ""
    found = [
        (row["model"].value, row["audited"].value == "true")
        for row in select(
            store,
            sparql_prefixes()
            + f"SELECT DISTINCT ?model ?audited WHERE {{ {only}?c bk:accuracyTarget ?t ; bk:model ?model "
            + "BIND (EXISTS { ?c bk:measuredBy bk:measured-by-mlcommons } AS ?audited) }",
            use_default_graph_as_union=True,
        )
    ]
    return Tiered.stating(found)


def models_of(store: Store, claims: list[str]) -> frozenset[str]:
    """The models (N-Triples IRIs) of ``claims`` (IRIs) as the store has them now."""
    if not claims:
        return frozenset()
    return frozenset(
        str(row["m"])
        for row in select(
            store,
            sparql_prefixes()
            + "SELECT DISTINCT ?m WHERE { VALUES ?c { "
            + " ".join(f"<{c}>" for c in claims)
            + " } ?c bk:model ?m }",
            use_default_graph_as_union=True,
        )
    )


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
    if claims is None:
        claims = (
            [str(c.value) for c in claims_of_models(store, models)]
            if models is not None
            else sorted(
                str(getattr(q.subject, "value", "")) for q in store.quads_for_pattern(None, RDF_TYPE, _BENCHMARK)
            )
        )
    elif models is not None:
        claims = sorted(set(claims) & {str(c.value) for c in claims_of_models(store, models)})
    # (a claim, not a system that names the same chip, nor one deleted)
    claims = [c for c in claims if next(iter(store.quads_for_pattern(NamedNode(c), RDF_TYPE, _BENCHMARK)), None)]
    yield from facts_of(Inputs(store, graph), sorted(set(claims)), graph, base, store)


def facts_of(
    inputs: Inputs, claims: list[str], graph: NamedNode, base: str, store: Store | None = None
) -> Iterator[Quad]:
    """The comparison facts of ``claims`` (IRIs, in order), read from ``inputs``; whether a model is
    tiered from ``store`` (its models' claims), else from the claims ``inputs`` holds (a cold build's
    every claim)."""
    read = [(claim, inputs.row(claim)) for claim in claims]
    if store is not None:
        models = sorted({str(row["model"]) for _, row in read if isinstance(row.get("model"), NamedNode)})
        tiered = tiered_models(store, models) if models else NO_TIERS
    else:
        stating = [(row["model"].value, is_audited(row)) for _, row in read if "tier" in row and "model" in row]
        tiered = Tiered.stating(stating)
    for claim, row in read:
        yield from _claim_facts(NamedNode(claim), row, graph, base, tiered)


@dataclass
class Mapped:
    """The facts of a chunk of claims derived while they are mapped (a cold build's worker): every fact but
    a "not stated" tier (whether a model is tiered is known once every chunk is), with what that needs."""

    quads: list[Quad]
    ran_on: dict[str, Any]  # the chip or combination each claim ran on (bk:ranOn), by IRI
    stating: set[tuple[str, bool]]  # (model, audited) of each claim that states a tier
    unstated: list[tuple[str, str, bool]]  # (claim, model, audited) of each claim of a model that states none

    def not_stated(self, tiered: Tiered, graph: NamedNode) -> list[Quad]:
        """The "not stated" tiers of the chunk's claims, once ``tiered`` is known (of every chunk)."""
        return [
            Quad(NamedNode(claim), TIER, Literal(NOT_STATED), graph)
            for claim, model, audited in self.unstated
            if model in tiered.of(audited)
        ]


def mapped_facts(inputs: Inputs, graph: NamedNode, base: str) -> Mapped:
    """The facts of the claims ``inputs`` holds (:class:`Mapped`), by the rule of :func:`fact_quads`."""
    out = Mapped([], {}, set(), [])
    for claim in inputs.claims:
        row = inputs.row(claim)
        quads = _claim_facts(NamedNode(claim), row, graph, base, NO_TIERS)
        out.quads += quads
        out.ran_on.update((claim, q.object) for q in quads if q.predicate == RAN_ON)
        model = row.get("model")
        if isinstance(model, NamedNode) and "tier" in row:
            out.stating.add((model.value, is_audited(row)))
        elif isinstance(model, NamedNode):
            out.unstated.append((claim, model.value, is_audited(row)))
    return out


def _claim_facts(claim: NamedNode, row: dict[str, Any], graph: NamedNode, base: str, tiered: Tiered) -> list[Quad]:
    """The comparison facts of one claim (its :meth:`Inputs.row`); ``tiered`` the models some
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
    """Whether a claim's row (:meth:`Inputs.row`) is an audited result's (measured by MLCommons)."""
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
