"""The results algebra (docs/queries.md, "Any comparison without SPARQL"): one flat view of the results, a few composable verbs,
compiled to one SPARQL query per command.

The view has one row per result (claim) and one column per dimension (:data:`COLUMNS`). A command
picks columns and verbs — ``where`` filters, ``pair`` puts two values of one dimension side by side
with their ratio, ``group_by`` with ``agg`` counts and sums, ``best_per`` keeps the best row of each
group, ``only_in``/``not_in`` take set differences, ``sort`` and ``top`` order and cut — and
:func:`compile_results` writes the ``.rq`` text (a ``#+`` header and portable SPARQL 1.1) that
``benchkg query FILE.rq`` runs unchanged, on the embedded store or on any endpoint. Only the columns
a command needs are joined, so a command costs what it asks for.

Values are resolved like a ``--param`` value: ids, names and aliases in any case for the columns of
records (model, chip, submitter…), the vocabulary's words for the others (``division=closed``);
``round=6.0`` is the suite's version; ``round<6.1`` the rounds of one suite family before it (MLPerf
Inference's, or the family the bound names: ``round<=mlperf-endpoints-v0.7``; :func:`round_bound`);
``tier=99.9`` matches the accuracy tier stored as text, and ``tier>99`` compares it as a number.

Long because the view's columns, the verbs and their compilation to one query are one grammar: how a
verb is written in SPARQL depends on how each column is read, and the two are kept where one reads
both.
"""

from __future__ import annotations

import re
import shlex
import statistics
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation
from typing import Any, Callable

from pyoxigraph import Literal, NamedNode

from benchkg.kernel.arguments import sequence_of_text
from benchkg.kernel.errors import UsageError
from benchkg.kernel.matching import platform_key
from benchkg.kernel.rows import Results
from benchkg.kernel.sparqltext import refuse_line_breaks, sparql_string
from benchkg.kernel.text import fold
from benchkg.kernel.vocab import DEFAULT_BASE, PREFIXES, SCHEMES, UNITS, concept_iri, curator_name

AGGREGATES = ("count", "sum", "min", "max", "avg", "median", "share", "distinct")


@dataclass(frozen=True)
class Column:
    """One column of the view: how it is read from a claim ``{c}`` (and its result node ``{r}``) into
    ``{v}`` (``{t}`` prefixes the pattern's own variables), what it holds, and an example."""

    pattern: str
    kind: str  # id, concept, num, text, bool, tier
    of: str = ""  # the kind of record (id) or the scheme (concept)
    example: str = ""
    about: str = ""
    many: bool = False  # a claim may have several values (its chips): filtered with EXISTS, shown as the lowest
    optional: bool = False  # the pattern is already OPTIONALs anchored on the claim (never wrapped in another)

    @property
    def type(self) -> str:
        return f"{self.kind}:{self.of}" if self.of else self.kind


# the first of two that binds: two OPTIONALs anchored on the claim, then COALESCE (an OPTIONAL inside
# an OPTIONAL would be read for every claim first; two OPTIONALs binding one variable answer nothing
# on Virtuoso 7); {required} is where a pair's held column filters for a value (on the two variables:
# Virtuoso 7 fails on a FILTER of the COALESCE's own, "equiv replaces filter but under deprecation")
_EITHER = "OPTIONAL {{ {c} %s {t}p }} OPTIONAL {{ {c} %s {t}q }} {required}BIND (COALESCE({t}p, {t}q) AS {v})"
_SYSTEM_NAME = _EITHER % ("bk:systemName", "bk:system/rdfs:label")
_HOST = _EITHER % ("bk:system/bk:hostProcessor", "bk:system/bk:systemDescription/bk:sdHostProcessorModelName")
# the chip a result ran on (a rack's chip, a mixed system's combination: benchkg.graph.facts), and a
# variant's base chip
_BASE_CHIP = "{c} bk:ranOn {t}c . OPTIONAL {{ {t}c bk:variantOf {t}b }} BIND (COALESCE({t}b, {t}c) AS {v})"
_CPU_VENDOR = (
    'BIND (IF(REGEX({t}x, "xeon|intel", "i"), "intel", IF(REGEX({t}x, "epyc|amd|ryzen", "i"), "amd", '
    'IF(REGEX({t}x, "grace|vera|nvidia", "i"), "nvidia", IF(REGEX({t}x, "ampere|altra", "i"), "ampere", '
    'IF(REGEX({t}x, "graviton", "i"), "aws", IF(REGEX({t}x, "arm|neoverse|aarch64|cortex", "i"), "arm", '
    'IF(REGEX({t}x, "power", "i"), "ibm", IF(BOUND({t}x), "other", {t}none)))))))) AS {v})'
)

#: the columns of the view, in the order ``--schema`` lists them
COLUMNS: dict[str, Column] = {
    "claim": Column("", "id", "benchmarks", "mlperf-6.1-closed-…-llama2-70b-99.9-server", "the result"),
    "round": Column("{c} bk:suite/bk:version {v}", "text", "", "6.1", "the suite's version"),
    "suite": Column("{c} bk:suite {v}", "id", "suites", "mlperf-inference-v6.1"),
    "family": Column("{c} bk:suite/bk:suiteFamily {v}", "concept", "suite-family", "mlperf-inference"),
    "division": Column("{c} bk:division {v}", "concept", "division", "closed"),
    "system_type": Column("{c} bk:systemType {v}", "concept", "system-type", "datacenter", many=True),
    "availability": Column("{c} bk:availability {v}", "concept", "availability", "available"),
    "inferred": Column("{c} bk:inferred {v}", "bool", "", "false", "the MLPerf checker derived it"),
    "submitter": Column("{c} bk:submitter {v}", "id", "organizations", "coreweave"),
    "submitter_kind": Column(
        "{c} bk:submitter/bk:organizationKind {v}", "concept", "organization-kind", "cloud-provider", many=True
    ),
    "system": Column("{c} bk:system {v}", "id", "systems", "mlperf-6.1-closed-coreweave-b200-sxm-180gbx8-trt"),
    "platform": Column(
        _SYSTEM_NAME, "text", "", "CoreWeave B200 SXM (8x B200-SXM-180GB)", "the system's name", optional=True
    ),
    "chip": Column(
        "{c} bk:ranOnAsNamed {v}", "id", "accelerators", "nvidia-b200-sxm-180gb", "a mixed system's chips as one: a+b"
    ),
    "base_chip": Column(_BASE_CHIP, "id", "accelerators", "nvidia-b200", "a rack's chip, a variant's base"),
    "chip_vendor": Column(
        "{c} bk:ranOn/bk:vendor {v}", "id", "organizations", "nvidia", "none for a system of two vendors' chips"
    ),
    "chip_spelling": Column(
        "{c} bk:chipSpelling {v}",
        "text",
        "",
        "nvidia b200-sxm-180gb",
        "the chip's name as submitters spell it, case folded (NVIDIA and Nvidia are one)",
    ),
    "chip_spelling_as_written": Column(
        "{c} bk:system/bk:systemDescription/bk:sdAcceleratorModelName {v}",
        "text",
        "",
        "NVIDIA B200-SXM-180GB",
        "the chip's name as the submitter spelled it",
    ),
    "accelerator_count": Column("{c} bk:acceleratorCount {v}", "num", "", "8"),
    "nodes": Column(
        _EITHER % ("bk:nodeCount", "bk:system/bk:nodeCount"),
        "num",
        "",
        "1",
        optional=True,
    ),
    "host_cpu": Column(
        _HOST, "text", "", "AMD EPYC 9575F", "the host processor as the submitter wrote it", optional=True
    ),
    "host_cpu_vendor": Column(
        _HOST.replace("AS {v})", "AS {t}x)") + " " + _CPU_VENDOR,
        "text",
        "",
        "amd",
        "read from the host processor's name: intel, amd, nvidia, ampere, aws, arm, ibm or other",
        optional=True,
    ),
    "host_cpu_count": Column("{c} bk:system/bk:hostProcessorCount {v}", "num", "", "2", "per node"),
    "framework": Column(
        _EITHER % ("bk:framework", "bk:system/bk:systemDescription/bk:sdFramework"),
        "text",
        "",
        "TensorRT 10.11, CUDA 12.9",
        optional=True,
    ),
    "engine": Column("{c} bk:engine {v}", "id", "engines", "tensorrt-llm"),
    "format": Column("{c} bk:numericFormat {v}", "id", "formats", "fp4"),
    "tier": Column(
        "{c} bk:accuracyTarget {v}", "tier", "", "99.9", "the accuracy tier: text, or a number with < and >"
    ),
    "model": Column("{c} bk:model {v}", "id", "models", "llama2-70b"),
    "scenario": Column("{c} bk:scenario {v}", "concept", "scenario", "server"),
    "metric": Column("{r} bk:metric {v}", "concept", "metric", "throughput"),
    "value": Column("{r} qudt:value {v}", "num", "", "910621", "the number as stated"),
    "unit": Column("{r} qudt:hasUnit {v}", "unit", "", "tokens/s"),
    "scope": Column("{r} bk:scope {v}", "concept", "scope", "aggregate"),
    "per_accelerator": Column(
        "{c} bk:perAcceleratorValue {v}",
        "num",
        "",
        "12647.5189",
        "stated, or derived (value ÷ accelerator_count); none for a latency, a mixed system or a CPU-only one",
    ),
    "per_socket": Column(
        "{c} bk:perSocketValue {v}",
        "num",
        "",
        "12286.85",
        "a CPU-only result's value per socket (its count is of sockets)",
    ),
    "memory_per_accelerator": Column(
        _BASE_CHIP.replace("AS {v})", "AS {t}z) {t}z bk:memoryGB {v}"),
        "num",
        "",
        "180",
        "GB, the chip's specification",
    ),
    "power_measured": Column("{c} bk:power/bk:powerMeasured {v}", "bool", "", "true"),
    "watts": Column("{c} bk:power/bk:watts {v}", "num", "", "10800"),
    "clock_state": Column("{c} bk:clockState {v}", "text", "", "power capped"),
    "input_length": Column("{c} bk:inputLength {v}", "num", "", "1024"),
    "weight_data_types": Column(
        "{c} bk:weightDataTypes {v}",
        "text",
        "",
        "NVFP4 weights with FP8 KV cache",
        "the weights' formats as the submitter wrote them (format: the one benchkg reads from it)",
    ),
    "tokens_per_sample": Column(
        "{c} bk:tokensPerSample {v}",
        "num",
        "",
        "284.1",
        "tokens per sample as the result states it (samples/s × it = tokens/s)",
    ),
    "output_length": Column("{c} bk:outputLength {v}", "num", "", "1024"),
    "disaggregated": Column("{c} bk:disaggregated {v}", "bool", "", "false"),
    "measured_by": Column("{c} bk:measuredBy {v}", "concept", "measured-by", "mlcommons"),
    "platform_id": Column(
        "{c} bk:platformId {v}", "text", "", "8xMI350X_2xEPYC_9575F", "the MLPerf system ID, the same across rounds"
    ),
    "stated_memory": Column(
        "{c} bk:statedMemoryGB {v}", "num", "", "288", "GB per accelerator, as the system description states it"
    ),
    "accelerator_kind": Column(
        "{c} bk:acceleratorKindRanOn {v}", "text", "", "chip", "chip, superchip, rack, system; none for CPU-only"
    ),
    "framework_family": Column(
        "{c} bk:frameworkFamily {v}", "text", "", "tensorrt", "vllm, sglang, tensorrt, pytorch… read from framework"
    ),
    "source": Column("{c} bk:citation/bk:source {v}", "id", "sources", "mlperf-inference-v6.1-results", many=True),
}
#: the columns of the chips a result ran on: a mixed system's value is its combination (``a+b``, a group
#: of its own; a vendor only when its chips share one), ``=every:`` (or ``=``) asks the whole, ``=any:``
#: any of its chips
SET_COLUMNS = ("chip", "base_chip", "chip_vendor")
#: what identifies a result (the same system is its submitter, platform and count): --pair holds these,
#: except the one paired
IDENTITY = ("submitter", "platform", "accelerator_count", "model", "tier", "scenario", "round", "division", "unit")
#: the columns of a run, not of the system it ran on: one system record has results of both values, so a
#: pair of these holds the system record too (two systems of one submitter may share a name and count)
RUN_COLUMNS = ("tier", "model", "scenario", "metric", "unit", "scope", "input_length", "output_length")
#: held columns a result may lack (held equal as "" on both sides): untiered benchmarks, vendor claims
_MAY_LACK = ("tier", "system")
#: the columns a plain listing shows
DEFAULT_COLUMNS = ("claim", "round", "division", "submitter", "platform", "chip", "accelerator_count", "model", "tier", "scenario", "value", "unit", "per_accelerator")  # fmt: skip


@dataclass
class Condition:
    """One ``--where``: a column, an operator (=, !=, <, >, ~, in, any) and the value(s) as typed."""

    column: str
    op: str
    values: tuple[str, ...]
    text: str

    @classmethod
    def parse(cls, text: str, option: str = "--where") -> "Condition":
        """Read ``COL=V``, ``COL!=V``, ``COL<V``, ``COL>V``, ``COL~TEXT``, ``COL=in:A,B``, and for the
        columns of a system's chips ``COL=any:A`` (any of them) or ``COL=every:A`` (all: as ``=``).

        >>> Condition.parse("tier=99.9"), Condition.parse("round=in:6.0,6.1").values
        (Condition(column='tier', op='=', values=('99.9',), text='tier=99.9'), ('6.0', '6.1'))
        >>> Condition.parse("chip_vendor=any:amd").op, Condition.parse("chip_vendor=every:amd").op
        ('any', 'in')

        :raises UsageError: for text that is none of these, or a column the view has not.
        """
        refuse_line_breaks(option, text)  # (a value's line break would start a header line of its own)
        m = re.match(r"^\s*([a-z_]+)\s*(!=|<=|>=|=|<|>|~)\s*(.*)$", text)
        if not m:
            raise UsageError(f"{option} {text!r}: write COLUMN=VALUE (or !=, <, >, ~TEXT, =in:A,B)")
        column, op, value = m.group(1), m.group(2), m.group(3).strip()
        check_column(column, option)
        word = re.match(r"^(in|any|every):", value) if op == "=" else None
        if word:
            values = tuple(v.strip() for v in value[len(word.group(0)) :].split(",") if v.strip())
            if word.group(1) != "in" and column not in SET_COLUMNS:
                raise UsageError(
                    f"{option} {text!r}: {word.group(1)}: is for the columns of a system's chips "
                    f"({', '.join(SET_COLUMNS)}); {column} has one value, write {column}={value[len(word.group(0)) :]}"
                )
            # every: the whole is the value (a combination is one of its own; a shared vendor is the parts')
            return cls(column, "in" if word.group(1) in ("in", "every") else "any", values, text)
        return cls(column, op, (value,), text)


def check_column(name: str, option: str) -> Column:
    """The column ``name``; :raises UsageError: naming the closest when the view has none."""
    if name not in COLUMNS:
        import difflib

        close = difflib.get_close_matches(name, list(COLUMNS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UsageError(f"{option}: the results have no column {name!r}{hint}; `benchkg results --schema` lists them")
    return COLUMNS[name]


@dataclass
class Request:
    """One algebra command, as the CLI and :meth:`benchkg.api.KnowledgeGraph.results` take it."""

    where: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    pair: str | None = None
    hold: list[str] | None = None
    group_by: list[str] = field(default_factory=list)
    agg: str | None = None  # count, with --group-by, when not given (given without it: exit 2, check_verbs)
    best_per: list[str] = field(default_factory=list)
    only_in: str | None = None
    not_in: str | None = None
    sort: str | None = None
    top: int | None = None
    first_in: str | None = None
    over: list[str] = field(default_factory=list)
    compare: str | None = (
        None  # a pair's value: value or per_accelerator (by default, per accelerator unless the count is held)
    )

    @property
    def shaped(self) -> bool:
        """A pair, a group or a difference: its answer has columns of its own (``ratio``, ``count``…).

        >>> Request(where=["round=6.1"]).shaped, Request(group_by=["chip"]).shaped
        (False, True)
        """
        return bool(self.pair or self.group_by or self.only_in or self.not_in or self.first_in)

    @classmethod
    def of(cls, *, columns=(), every_column: bool = False, **options) -> tuple[Request, list[str]]:
        """The one request the CLI's ``results`` and :meth:`benchkg.api.KnowledgeGraph.results` make of the same
        options (lists of text; ``hold=None`` is the default hold), and the answer's columns to pick.
        ``columns`` picks the view's columns of a listing, and the answer's of a shaped one; none named, a
        listing has every column with ``every_column`` (the API) or the view's own (the CLI's table).

        >>> request, picked = Request.of(where=["round=6.1"], group_by=["chip"], columns=["chip", "count"])
        >>> request.columns, picked
        ([], ['chip', 'count'])
        >>> Request.of(where=["round=6.1"], columns=["claim"])[0].columns
        ['claim']
        """
        lists = {"where", "group_by", "best_per", "over"}
        named: dict[str, Any] = {
            k: list(sequence_of_text(v, k, "results")) if k in lists else v for k, v in options.items()
        }
        if named.get("hold") is not None:
            named["hold"] = list(sequence_of_text(named["hold"], "hold", "results"))
        request = cls(**named)
        columns = list(sequence_of_text(columns, "columns", "results"))
        if request.shaped:
            return request, columns
        request.columns = columns or ([] if request.best_per or not every_column else list(COLUMNS))
        return request, []


class _Vars:
    """Fresh variable prefixes: each use of a column pattern gets its own."""

    def __init__(self):
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"?_{self.n}_"


def _pattern(col: Column, claim: str, var: str, fresh: _Vars, required: bool = False) -> str:
    """Column ``col`` of ``claim`` into ``var`` (with ``required``, an optional column only where it
    has a value); its result node is the one the view's first line binds (``?_r`` + the claim's name):
    one result node, not a path per column, which Virtuoso 7 plans badly."""
    t = fresh()
    test = f"FILTER (BOUND({t}p) || BOUND({t}q)) " if required else ""
    return col.pattern.format(c=claim, v=var, t=t, r=f"?_r{claim[1:]}", required=test)


def _use(name: str, claim: str, var: str, fresh: _Vars) -> str:
    """The pattern that binds column ``name`` of ``claim`` to ``var``, in an OPTIONAL (a result that
    lacks it is still a row)."""
    col = COLUMNS[name]
    if name == "claim":
        return "" if var == claim else f"BIND ({claim} AS {var})"
    text = _pattern(col, claim, var, fresh)
    if col.many:  # one value per row: the lowest, so a claim is one row whatever it has several of
        t = fresh()
        inner = _pattern(col, claim, t + "m", fresh)
        # (the lowest as text: engines order IRIs differently, so MIN over IRIs picks differently)
        lowest = (
            f"MIN({t}m)"
            if col.kind == "num"
            else f"IRI(MIN(STR({t}m)))"
            if col.kind in ("id", "concept")
            else f"MIN(STR({t}m))"
        )
        return f"OPTIONAL {{ SELECT {claim} ({lowest} AS {var}) WHERE {{ {inner} }} GROUP BY {claim} }}"
    return text if col.optional else f"OPTIONAL {{ {text} }}"


def _term(col: Column, name: str, value: str, resolve: Callable[[str, str], str], base: str) -> str:
    """The SPARQL term a typed value stands for in column ``name``."""
    if col.kind == "id" and col.of == "accelerators" and "+" in value:  # a combination, by its chips
        ids = sorted(resolve(col.of, part.strip()) for part in value.split("+"))
        return f"<{base}combinations/{'+'.join(ids)}>"
    if col.kind == "id":
        return f"<{base}id/{col.of}/{resolve(col.of, value)}>"
    if col.kind == "concept":
        if value.lower() not in SCHEMES[col.of]:
            raise UsageError(f"{name}={value}: {name} is one of {', '.join(SCHEMES[col.of])}")
        return f"<{concept_iri(col.of, value.lower())}>"
    if col.kind == "unit":
        if value not in UNITS:
            raise UsageError(f"{name}={value}: unit is one of {', '.join(UNITS)}")
        return f"<{UNITS[value]}>"
    if col.kind == "bool":
        if value.lower() not in ("true", "false"):
            raise UsageError(f"{name}={value}: {name} is true or false")
        return value.lower()
    if col.kind == "num":
        if not re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", value):
            raise UsageError(f"{name}={value}: {name} is a number")
        return value
    if name == "round":
        value = re.sub(r"^(?:mlperf-inference-)?v", "", value.lower())
    if name == "chip_spelling":  # (stored folded: a spelling as typed, in any case, names it)
        value = fold(value)
    return sparql_string(value)


def _required(name: str, claim: str, var: str, fresh: _Vars) -> str:
    """Column ``name`` of ``claim`` bound to ``var``, or no row (for the columns a pair holds)."""
    col = COLUMNS[name]
    if name == "claim":
        return _use(name, claim, var, fresh)
    if col.many:  # the lowest value, joined
        return _use(name, claim, var, fresh).replace("OPTIONAL ", "", 1)
    return _pattern(col, claim, var, fresh, required=col.optional) + ("" if col.optional else " .")


#: the suite family whose rounds a bare version compares by order (``round<6.1``): MLPerf Inference's,
#: whose versions ``round=6.1`` has always named
ROUND_FAMILY = "mlperf-inference"
_ORDER = ("<", ">", "<=", ">=")


def round_bound(text: str, condition: str = "") -> tuple[str, str]:
    """A round that bounds an order comparison, as (its suite family, its version): rounds are compared
    only within one family, as each family numbers its own (MLPerf Endpoints 0.7 is not before MLPerf
    Inference 4.2: ``round<4.2`` took it in, and ``--first-in round=5.1 --over model`` lost deepseek-r1
    to it; issue 64). A bare version (``6.1``, ``v6.1``) is :data:`ROUND_FAMILY`'s; a suite's id names
    its own (``mlperf-endpoints-v0.7``).

    >>> round_bound("6.1"), round_bound("mlperf-endpoints-v0.7"), round_bound("MLPerf-Inference-v5.1")
    (('mlperf-inference', '6.1'), ('mlperf-endpoints', '0.7'), ('mlperf-inference', '5.1'))
    >>> round_bound("endpoints-v1", "round<endpoints-v1")
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: --where round<endpoints-v1: endpoints is not a suite family; a round is a version (6.1), or a family's (mlperf-inference-v6.1, mlperf-endpoints-v0.7)
    """
    found = re.fullmatch(r"(?:([a-z][a-z0-9-]*?)-)?v?(\d+(?:\.\d+)?)", text.strip().lower())
    family = (found.group(1) or ROUND_FAMILY) if found else None
    if found is None or family not in SCHEMES["suite-family"]:
        what = f"{family} is not a suite family; a round" if found else "a round"
        raise UsageError(
            f"--where {condition}: {what} is a version (6.1), or a family's (mlperf-inference-v6.1, "
            "mlperf-endpoints-v0.7)"
        )
    return family, found.group(2)


def _test(cond: Condition, var: str, resolve, base: str) -> str:
    """The FILTER expression ``cond`` asks of ``var`` (for ``!=``, the value it must not have)."""
    col = COLUMNS[cond.column]
    if cond.op == "~":  # an id or a concept by its own name, not its IRI (submitter~organ is not every row)
        text = f"STR({var})"
        if col.kind == "id":
            text = f'STRAFTER(STR({var}), "/id/{col.of}/")'
        elif col.kind == "concept":
            text = f'STRAFTER(STR({var}), "#{col.of}-")'
        if col.kind == "unit":  # the unit as shown (tokens/s), not its IRI (unit~http was every row)
            shown = [u for u in UNITS if cond.values[0].lower() in u.lower()]
            return (
                f"{var} IN ({', '.join(_term(col, cond.column, u, resolve, base) for u in shown)})"
                if shown
                else "false"
            )
        return f"CONTAINS(LCASE({text}), LCASE({sparql_string(cond.values[0])}))"
    if cond.column == "round" and cond.op in _ORDER:  # (and of the bound's family: _filter)
        return f"xsd:decimal(STR({var})) {cond.op} {round_bound(cond.values[0], cond.text)[1]}"
    if col.kind == "tier" and cond.op in _ORDER:
        number = cond.values[0]
        if not re.fullmatch(r"\d+(\.\d+)?", number):
            raise UsageError(f"--where {cond.text}: a tier is a number such as 99 or 99.9")
        return f"xsd:decimal(STR({var})) {cond.op} {number}"
    if cond.op in ("<", ">", "<=", ">="):
        if col.kind != "num":
            raise UsageError(f"--where {cond.text}: {cond.column} is not a number; use = != ~ or in:")
        return f"{var} {cond.op} {_term(col, cond.column, cond.values[0], resolve, base)}"
    terms = ", ".join(_term(col, cond.column, v, resolve, base) for v in cond.values)
    # text as written: the tier "99.9" whether stored as text or as a number
    return f"STR({var}) IN ({terms})" if col.kind in ("tier", "text") else f"{var} IN ({terms})"


def _filters(conditions: list[Condition], claim: str, fresh: _Vars, resolve, base: str) -> list[str]:
    """The ``--where`` conditions as patterns on ``claim``; the ``!=`` of one column are one MINUS (a claim
    with any of those values goes, and one with none stays, those with no value at all too), whose group
    is read once and taken away by claim: a NOT EXISTS per condition was read per claim (16 s for one on
    an optional column, 300 never ended).

    >>> fresh = _Vars()
    >>> conds = [Condition.parse(t) for t in ("nodes!=1", "nodes!=2", "round=6.1")]
    >>> [p.split(" ")[0] for p in _filters(conds, "?c", fresh, None, "https://x/")]
    ['VALUES', 'MINUS']
    """
    unequal: dict[str, list[Condition]] = {}
    out = []
    for cond in conditions:
        if cond.op == "!=" and cond.column != "claim":
            unequal.setdefault(cond.column, []).append(cond)
        else:
            out.append(_filter(cond, claim, fresh, resolve, base))
    for name, conds in unequal.items():
        var = fresh() + "w"
        tests = " || ".join(f"({_test(c, var, resolve, base)})" for c in conds)
        # a column of the result node reads it through the claim: unlinked, the MINUS was every claim times
        # every result (metric!=throughput took 77 s embedded, and timed out on a server)
        link = f"{claim} bk:result ?_r{claim[1:]} . " if "{r}" in COLUMNS[name].pattern else ""
        out.append(
            f"MINUS {{ {claim} a bk:Benchmark . {link}{_pattern(COLUMNS[name], claim, var, fresh)} FILTER ({tests}) }}"
        )
    return out


def _filter(cond: Condition, claim: str, fresh: _Vars, resolve, base: str) -> str:
    """One ``--where`` (not a column's ``!=``, which :func:`_filters` takes) as a pattern on ``claim``: a
    column of several values by EXISTS, others by FILTER."""
    col = COLUMNS[cond.column]
    var = claim if cond.column == "claim" else fresh() + "w"
    test = _test(cond, var, resolve, base)
    if cond.column == "claim":  # the claim itself: no pattern to read it through
        if cond.op in ("=", "in"):
            return f"VALUES {claim} {{ {' '.join(_term(col, 'claim', v, resolve, base) for v in cond.values)} }}"
        return f"FILTER (!({test}))" if cond.op == "!=" else f"FILTER ({test})"
    pattern = _pattern(col, claim, var, fresh)
    if cond.column == "round" and cond.op in _ORDER:  # a round of the bound's own suite family
        family = concept_iri("suite-family", round_bound(cond.values[0], cond.text)[0])
        pattern += f" . {claim} bk:suite/bk:suiteFamily <{family}>"
    if cond.op == "any":  # the whole (one chip, or a combination's shared vendor) or any of its parts
        parts = _pattern(_of_parts(col), claim, var, fresh)
        terms = ", ".join(_term(col, cond.column, v, resolve, base) for v in cond.values)
        return f"FILTER EXISTS {{ {{ {pattern} }} UNION {{ {parts} }} FILTER ({var} IN ({terms})) }}"
    if col.many:
        return f"FILTER EXISTS {{ {pattern} FILTER ({test}) }}"
    if cond.op in ("=", "in") and _joinable(cond):  # a join, not a filter late
        terms = " ".join(_term(col, cond.column, v, resolve, base) for v in cond.values)
        return f"VALUES {var} {{ {terms} }} {pattern} ."
    # a group of its own, filtered before the columns are joined; an optional column's OPTIONALs
    # anchored on the claim first (from nothing, the second would be read for whatever the first bound)
    anchor = f"{claim} a bk:Benchmark . " if col.optional else ""
    return f"{{ {anchor}{pattern} FILTER ({test}) }}"


def _of_parts(col: Column) -> Column:
    """Column ``col`` read from each chip of a system's combination (its ``bk:part``).

    >>> _of_parts(COLUMNS["chip_vendor"]).pattern
    '{c} bk:ranOn/bk:part/bk:vendor {v}'
    """
    pattern = col.pattern.replace("bk:ranOnAsNamed ", "bk:ranOnAsNamed/bk:part ")
    pattern = pattern.replace("bk:ranOn ", "bk:ranOn/bk:part ").replace(
        "bk:ranOn/bk:vendor", "bk:ranOn/bk:part/bk:vendor"
    )
    return Column(pattern, col.kind, col.of)


#: the numeric columns stored as xsd:integer (an integer there is the very term stored)
INTEGERS = ("accelerator_count", "nodes", "host_cpu_count", "input_length", "output_length")


def _joinable(cond: Condition) -> bool:
    """Whether ``cond`` (= or in) can be a join on the terms stored: a column of one value per result,
    and the value written as the term is stored — records, concepts, units, booleans, text (stored as
    plain strings, the tier too) and whole numbers in an integer column; a decimal is compared by value,
    so ``value=100`` matches 100.0.

    >>> _joinable(Condition.parse("round=6.1")), _joinable(Condition.parse("value=100"))
    (True, False)
    >>> _joinable(Condition.parse("base_chip=nvidia-b300"))
    False
    """
    col = COLUMNS[cond.column]
    if col.many or col.optional or "BIND" in col.pattern:  # (a BIND's variable cannot be bound by VALUES first)
        return False
    if col.kind == "num":
        return cond.column in INTEGERS and all(re.fullmatch(r"\d+", v) for v in cond.values)
    return True


def _view(claim: str, wanted: list[str], conditions: list[Condition], fresh: _Vars, resolve, base: str, names=None):
    """The flat view's pattern for ``claim``: its conditions, then the columns ``wanted`` as ``?name``
    (or as ``names[name]``)."""
    names = names or {}
    parts = [f"{claim} a bk:Benchmark ; bk:result ?_r{claim[1:]} ."]
    parts += _filters(conditions, claim, fresh, resolve, base)
    if not {c.column for c in conditions} & {"measured_by", "claim"}:
        # a vendor claim that restates an audited result (bk:auditedBy) is that result again, not one more:
        # counted, ranked or paired twice otherwise (issue 41); --where measured_by=… shows it
        parts.append(f"FILTER NOT EXISTS {{ {claim} bk:auditedBy ?_restated{claim[1:]} }}")
    parts += [_use(n, claim, names.get(n, f"?{n}"), fresh) for n in wanted]
    return "\n  ".join(p for p in parts if p)


_PREFIXES = (
    "PREFIX bk: <https://w3id.org/benchkg/ontology#>\nPREFIX qudt: <http://qudt.org/schema/qudt/>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
)


def _header(summary: str, columns: list[str], claims=(), keep=(), then: str = "") -> str:
    summary = " ".join(summary.split())  # (a value's line break would end the comment)
    lines = [
        f"#+ summary: {summary}",
        "#+ description: Written by benchkg results (the results algebra); runs as it is.",
    ]
    if claims:
        lines.append(f"#+ claims: {' '.join(claims)}")
    lines.append(f"#+ columns: {' '.join(columns)}")
    if keep:
        lines.append(f"#+ keep: {' '.join(keep)}")
    if then:
        lines.append(f"#+ then: {then}")
    return "\n".join(lines) + "\n"


def _pair_spec(text: str) -> tuple[str, str, str]:
    refuse_line_breaks("--pair", text or "")
    m = re.match(r"^\s*([a-z_]+)\s*=\s*([^,\n]+),([^,\n]+)\Z", text or "")
    if not m:
        raise UsageError(f"--pair {text!r}: write COLUMN=A,B (e.g. tier=99,99.9 or round=6.0,6.1)")
    check_column(m.group(1), "--pair")
    a, b = m.group(2).strip(), m.group(3).strip()
    if a == b:
        raise UsageError(f"--pair {text!r}: the two sides are the same ({a}); name two values, e.g. tier=99,99.9")
    return m.group(1), a, b


def _side(spec: str, option: str) -> Condition:
    """One side of a difference: ``COL=V``, ``COL=in:A,B`` or ``COL=A,B`` (several values), or a
    comparison (``round<6.1``).

    >>> _side("round=6.0,6.1", "--only-in").values
    ('6.0', '6.1')
    """
    cond = Condition.parse(spec, option)
    if cond.op == "~":
        raise UsageError(f"{spec!r}: {option} takes COLUMN=VALUE, COLUMN=A,B or a comparison (round<6.1)")
    if cond.op == "=" and "," in cond.values[0]:
        return Condition(cond.column, "in", tuple(v.strip() for v in cond.values[0].split(",") if v.strip()), spec)
    return cond


def _first_in(request: Request) -> Request:
    """``--first-in COL=V --over KEYS`` as the difference it is: the KEYS that results with COL=V have
    and no result with COL < V (an earlier round) has.

    >>> r = _first_in(Request(first_in="round=6.1", over=["chip"]))
    >>> r.only_in, r.not_in, r.group_by
    ('round=6.1', 'round<6.1', ['chip'])
    """
    from dataclasses import replace

    cond = Condition.parse(request.first_in or "", "--first-in")
    if cond.op != "=" or (cond.column != "round" and COLUMNS[cond.column].kind not in ("num", "tier")):
        raise UsageError(
            f"--first-in {request.first_in}: write COLUMN=VALUE of an ordered column (round=6.1, or a number)"
        )
    if not request.over:
        raise UsageError("--first-in: say what is new with --over COLUMN (chip, submitter, model…)")
    if request.only_in or request.not_in or request.pair:
        raise UsageError("--first-in is a difference of its own: not with --only-in, --not-in or --pair")
    value = cond.values[0]
    return replace(
        request,
        only_in=f"{cond.column}={value}",
        not_in=f"{cond.column}<{value}",
        group_by=list(request.over),
        first_in=None,
    )


#: an option that shapes a verb's answer -> (the verbs it goes with, an example of it with one)
NEEDS = {
    "agg": (("group_by",), "--group-by submitter --agg median, or --pair tier=99,99.9 --group-by model --agg median"),
    "hold": (("pair",), "--pair tier=99,99.9 --hold model,scenario"),
    "compare": (("pair", "best_per"), "--best-per submitter --compare value"),
    "over": (("first_in",), "--first-in round=6.1 --over chip"),
}
#: a verb's option on the command line
_FLAG = {"group_by": "--group-by", "pair": "--pair", "best_per": "--best-per", "first_in": "--first-in"}
#: the differences, whose groups count results and take no --agg
_DIFFERENCES = ("only_in", "not_in", "first_in")


def check_verbs(request: Request) -> None:
    """Every option given with the verb it shapes: alone it would change nothing, and say nothing of it.

    >>> check_verbs(Request(over=["chip"]))
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: --over chip goes with --first-in (--first-in round=6.1 --over chip); without it, it changes nothing

    :raises UsageError: naming the option and the verb it needs.
    """
    for option, (verbs, example) in NEEDS.items():
        value = getattr(request, option)
        if value is None or value == [] or any(getattr(request, verb) for verb in verbs):
            continue
        shown = ",".join(value) if isinstance(value, list) else value
        needed = " or ".join(_FLAG[v] for v in verbs)
        raise UsageError(f"--{option} {shown} goes with {needed} ({example}); without it, it changes nothing")
    if request.agg is not None and any(getattr(request, d) for d in _DIFFERENCES):
        raise UsageError(
            f"--agg {request.agg}: --only-in, --not-in and --first-in count the results of each group; they take no --agg"
        )


@dataclass
class Compiled:
    """One algebra command compiled: the ``.rq`` text, a line saying what it asks, and for a pair the
    labels of its two sides (``("tier=99", "tier=99.9")``)."""

    text: str
    summary: str
    sides: tuple[str, ...] = ()


def compile_results(request: Request, resolve: Callable[[str, str], str], base: str = DEFAULT_BASE) -> Compiled:
    """One algebra command as a ``.rq`` text (see :class:`Compiled`).

    ``resolve(kind, text)`` gives the id of the record of ``kind`` that ``text`` names.

    >>> ids = lambda kind, text: text.lower()
    >>> done = compile_results(Request(where=["model=llama2-70b"], group_by=["submitter"]), ids)
    >>> done.summary
    'results where model=llama2-70b, count by submitter'
    >>> "GROUP BY ?submitter" in done.text and "<https://w3id.org/benchkg/id/models/llama2-70b>" in done.text
    True

    :raises UsageError: for a column, value or combination of verbs the algebra does not take.
    """
    check_verbs(request)
    conditions = [Condition.parse(w) for w in request.where]
    for option, names in (
        ("--columns", request.columns),
        ("--group-by", request.group_by),
        ("--best-per", request.best_per),
        ("--hold", request.hold or []),
        ("--over", request.over),
    ):
        for name in names:
            check_column(name, option)
        if twice := next((n for n in names if names.count(n) > 1), None):  # (SPARQL's "Duplicated variable")
            raise UsageError(f"{option} {','.join(names)}: {twice} is named twice")
    said = ["results"] + ([f"where {', '.join(c.text for c in conditions)}"] if conditions else [])
    fresh = _Vars()
    if request.first_in:
        request = _first_in(request)
    if request.pair:
        text, more = _compile_pair(request, conditions, fresh, resolve, base)
    elif request.only_in or request.not_in:
        text, more = _compile_difference(request, conditions, fresh, resolve, base)
    elif request.group_by:
        text, more = _compile_group(request, conditions, fresh, resolve, base)
    else:
        text, more = _compile_rows(request, conditions, fresh, resolve, base)
    summary = ", ".join([" ".join(said)] + more) if more else " ".join(said)
    order = "" if len(text) > 4 else _order(request, text[1])  # (a "#+ then:" step orders its own rows)
    body = _header(summary, *text[1:]) + _PREFIXES + text[0] + order
    sides = tuple(f"{dim}={v}" for dim, *pair in [_pair_spec(request.pair)] for v in pair) if request.pair else ()
    return Compiled(body, summary, sides)


#: the largest --top (engines read LIMIT as a 64-bit count; no answer comes near it)
MAX_TOP = 10**12


def sort_column(sort: str, columns: list[str]) -> str:
    """``--sort`` as the answer's column: as named, or an aggregate as written (``-median`` is
    ``-median_per_accelerator`` where that is the one column it begins).

    >>> sort_column("-median", ["chip", "median_per_accelerator", "count"]), sort_column("chip", ["chip"])
    ('-median_per_accelerator', 'chip')

    :raises UsageError: for a column the answer has not.
    """
    name, sign = sort.lstrip("-"), "-" if sort.startswith("-") else ""
    if name in columns:
        return sort
    begun = [c for c in columns if c.startswith(name + "_")]
    if len(begun) == 1:
        return sign + begun[0]
    raise UsageError(f"--sort {sort}: not a column of this answer ({', '.join(columns)})")


def _check_window(request: Request, columns: list[str]) -> None:
    """:raises UsageError: for a ``--sort`` column the answer has not, or a ``--top`` below 1."""
    if request.sort:
        request.sort = sort_column(request.sort, columns)
    if request.top is not None and not 1 <= request.top <= MAX_TOP:
        raise UsageError(f"--top {request.top}: N is 1 or more, and at most {MAX_TOP:,}")


def _order(request: Request, columns: list[str]) -> str:
    """The ORDER BY and LIMIT of ``--sort`` and ``--top``."""
    _check_window(request, columns)
    out = ""
    if request.sort:
        key = request.sort.lstrip("-")
        ties = "".join(f" ?{c}" for c in columns if c != key)  # ties in one order, whatever the engine's
        out += f"ORDER BY {'DESC' if request.sort.startswith('-') else 'ASC'}(?{key}){ties}\n"
    if request.top is not None:
        out += f"LIMIT {request.top}\n"
    return out


def _step(name: str, words: list[str], request: Request, columns: list[str]) -> str:
    """A ``#+ then:`` step's line with its words, and ``--sort``/``--top`` for the step to apply (the
    rows it orders are not the engine's)."""
    _check_window(request, columns)
    window = ([f"sort={request.sort}"] if request.sort else []) + (
        [f"top={request.top}"] if request.top is not None else []
    )
    return " ".join([name, *words, *window])


def _compile_rows(request, conditions, fresh, resolve, base):
    columns = list(dict.fromkeys(request.columns or DEFAULT_COLUMNS))
    if "claim" not in columns:
        columns.insert(0, "claim")
    if request.best_per:
        # the best result of each group (and unit): the highest per accelerator, the lowest latency
        keys = list(dict.fromkeys(request.best_per + ["unit"]))
        need = list(dict.fromkeys(columns + keys + ["value", "per_accelerator"]))
        # the keys optional: a result without one (a model without a tier) is a group of its own, "not
        # stated", never dropped; the step groups by the values as read, an unbound key one of them
        body = _view("?claim", need, conditions, fresh, resolve, base)
        # the direction as the build derived it (benchkg.graph.facts: by unit), the one every answer reads
        body += "\n  ?claim bk:lowerIsBetter ?_lower_is_better ."
        by_value = _compare(request, []) == "value" if request.compare else False
        rank = (
            "IF(?_lower_is_better, -?value, ?value)" if by_value else "IF(?_lower_is_better, -?value, ?per_accelerator)"
        )
        said = (
            f"best per {', '.join(request.best_per)} ("
            + ("the value as stated" if by_value else "per accelerator")
            + "; the lowest where lower is better; a result without a key's value in a group of its own, not stated)"
        )
        # each result with its score; the "#+ then: best" step keeps the best of each group. In SPARQL
        # (the group's MAX in a sub-select, joined or compared to each result's score) Virtuoso 7.2
        # dropped 10 of 13 groups, a different few on each push: it joins computed decimals unreliably
        shown = " ".join(f"?{n}" for n in dict.fromkeys(columns + keys))
        first = " ".join(f"?{n}" for n in request.best_per)
        text = (
            f"SELECT DISTINCT {shown} ?_best WHERE {{\n  {body}\n  BIND ({rank} AS ?_best)\n}}\n"
            f"ORDER BY {first} {'DESC(?value) ' if 'value' in columns else ''}?claim\n"
        )
        hidden = [k for k in keys if k not in columns]  # (read by the step, not shown)
        words = [f"keys={','.join(keys)}"] + ([f"hide={','.join(hidden)}"] if hidden else [])
        if not by_value:  # what a result without a score lacks, and the option that ranks it
            words.append("wanting=per_accelerator")
        return (text, columns, ("claim",), (), _step("best", words, request, columns)), [said]
    where = _view("?claim", columns, conditions, fresh, resolve, base)
    select = " ".join(f"?{n}" for n in columns)
    order = "" if request.sort else f"ORDER BY  {'DESC(?value) ' if 'value' in columns else ''}?claim\n"
    return (f"SELECT DISTINCT {select} WHERE {{\n  {where}\n}}\n{order}", columns, ("claim",), ()), []


def _compile_group(request, conditions, fresh, resolve, base):
    asked = request.agg or "count"
    agg, _, of = asked.partition(":")
    if agg not in AGGREGATES:
        raise UsageError(
            f"--agg {asked}: one of {', '.join(AGGREGATES)} (sum, min, max, avg, median and distinct take :COLUMN, value by default)"
        )
    if agg == "share" and of:  # the share of each group's results that meet a condition
        return _compile_share_of(request, conditions, fresh, resolve, base, Condition.parse(of, "--agg share:"))
    if agg == "distinct" and "," in of:  # how many distinct combinations of several columns
        return _compile_distinct(request, conditions, fresh, resolve, base, [c.strip() for c in of.split(",")])
    of = of or ("value" if agg in ("sum", "min", "max", "avg", "median") else "claim")
    column = check_column(of, "--agg")
    if agg in ("sum", "avg", "median") and column.kind != "num":  # (an average of text printed an empty column)
        numbers = ", ".join(n for n, c in COLUMNS.items() if c.kind == "num")
        raise UsageError(f"--agg {asked}: {of} is not a number; {agg} takes one of {numbers}")
    keys = list(request.group_by)
    more = [f"{asked} by {', '.join(keys)}"]
    if agg in ("sum", "min", "max", "avg", "median") and of in ("value", "per_accelerator") and "unit" not in keys:
        keys.append("unit")  # numbers of two units are never summed, averaged or ranked together
        more[0] += " (and unit)"
    if agg in ("sum", "min", "max", "avg", "median"):  # over the values present, in a step (see median_of)
        return _compile_median(request, conditions, fresh, resolve, base, of, keys, more, agg)
    need = list(dict.fromkeys(keys + [of]))
    body = _view("?claim", need, conditions, fresh, resolve, base)
    group = " ".join(f"?{k}" for k in keys)
    out = f"{agg}_{of}" if agg not in ("count", "share") else agg
    if agg == "count":
        expr = "(COUNT(DISTINCT ?claim) AS ?count)"
    elif agg == "share":
        total = _view("?t", [], conditions, fresh, resolve, base)
        # (a decimal count: Virtuoso divides integers as integers)
        expr = "(ROUND(1000 * xsd:decimal(COUNT(DISTINCT ?claim)) / ?_total) / 10 AS ?share) (COUNT(DISTINCT ?claim) AS ?count)"
        body += f"\n  {{ SELECT (COUNT(DISTINCT ?t) AS ?_total) WHERE {{ {total} }} }}"
        group += " ?_total"
    elif agg == "distinct":
        expr = f"(COUNT(DISTINCT ?{of}) AS ?{out})"
    else:
        expr = f"({agg.upper()}(?{of}) AS ?{out})"
    columns = keys + (["share", "count"] if agg == "share" else [out])
    order = (
        ""
        if request.sort
        else f"ORDER BY DESC(?{'count' if agg == 'share' else out}) {group.replace(' ?_total', '')}\n"
    )
    text = f"SELECT {' '.join(f'?{k}' for k in keys)} {expr} WHERE {{\n  {body}\n}}\nGROUP BY {group}\n{order}"
    return (text, columns, (), ()), more


def _compile_share_of(request, conditions, fresh, resolve, base, cond: Condition):
    """``--agg share:COND``: per group, how many of its results meet ``cond`` (a ``--where`` condition),
    how many it has, and the share (%) unrounded ("what share of each submitter's results is inferred",
    issue 62); a result without the condition's column does not meet it."""
    keys = list(request.group_by)
    body = _view("?claim", keys, conditions, fresh, resolve, base)
    test = _filters([cond], "?claim", fresh, resolve, base)[0]
    if test.startswith("MINUS"):  # (a != is the results that have not the value: NOT EXISTS of its MINUS group)
        hit = f"NOT EXISTS {{ {test[len('MINUS {') : -1].strip()} }}"
    else:
        hit = f"EXISTS {{ {test} }}"
    body += f"\n  BIND (IF({hit}, ?claim, ?_never) AS ?_hit)"
    group = " ".join(f"?{k}" for k in keys)
    # (a decimal count: Virtuoso divides integers as integers)
    expr = (
        "(100 * xsd:decimal(COUNT(DISTINCT ?_hit)) / COUNT(DISTINCT ?claim) AS ?share) "
        "(COUNT(DISTINCT ?_hit) AS ?matching) (COUNT(DISTINCT ?claim) AS ?count)"
    )
    order = "" if request.sort else f"ORDER BY DESC(?share) {group}\n"
    text = f"SELECT {group} {expr} WHERE {{\n  {body}\n}}\nGROUP BY {group}\n{order}"
    return (text, [*keys, "share", "matching", "count"], (), ()), [f"share with {cond.text} by {', '.join(keys)}"]


def _compile_distinct(request, conditions, fresh, resolve, base, names: list[str]):
    """``--agg distinct:A,B``: per group, how many distinct combinations of the columns ``names`` its
    results have (a result without one of them is a combination with it "not stated")."""
    for name in names:
        check_column(name, "--agg distinct:")
    keys = list(request.group_by)
    body = _view("?claim", list(dict.fromkeys(keys + names)), conditions, fresh, resolve, base)
    group = " ".join(f"?{k}" for k in keys)
    out = "distinct_" + "_".join(names)
    combined = ', "\\u001f", '.join(f'COALESCE(STR(?{n}), "")' for n in names)
    order = "" if request.sort else f"ORDER BY DESC(?{out}) {group}\n"
    text = f"SELECT {group} (COUNT(DISTINCT CONCAT({combined})) AS ?{out}) WHERE {{\n  {body}\n}}\nGROUP BY {group}\n{order}"
    return (text, [*keys, out], (), ()), [f"distinct {', '.join(names)} by {', '.join(keys)}"]


def _compile_median(request, conditions, fresh, resolve, base, of, keys, more, agg="median"):
    """A median is no SPARQL aggregate, and SPARQL's SUM, MIN, MAX and AVG of a group with one value
    missing are none at all (Oxigraph: an unbound value is an error, and the group's aggregate with it):
    the query gives each result's value, the ``#+ then: median`` step ``agg`` of each group over the values
    present, with how many results have none."""
    if COLUMNS[of].kind != "num":
        raise UsageError(f"--agg {agg}:{of}: {of} is not a number")
    columns = [*keys, f"{agg}_{of}", "count", "without"]
    then = _step("median", [f"of={of}", f"agg={agg}"], request, columns)
    body = _view("?claim", list(dict.fromkeys(keys + [of])), conditions, fresh, resolve, base)
    text = (
        f"# Each result's {of}; benchkg takes the {agg} of each group (#+ then: median)\n"
        f"SELECT DISTINCT {' '.join(f'?{k}' for k in keys)} ?claim ?{of} WHERE {{\n  {body}\n}}\n"
    )
    return (text, columns, (), (), then), more


def median_of(results: Results, args: dict[str, str]) -> Results:
    """One row per group (the columns other than ``claim`` and ``args["of"]``): ``args["agg"]`` (median by
    default; sum, min, max, avg) of the group's values, over the values present, ``count`` how many
    results have one and ``without`` how many have none (a group's one missing value once blanked its
    whole aggregate: issue 62); highest first (or by ``args["sort"]``, cut at ``args["top"]``).

    >>> from pyoxigraph import Literal
    >>> rows = [{"chip": Literal(c), "claim": Literal(str(n))} | ({"value": Literal(v)} if v else {})
    ...         for n, (c, v) in enumerate([("x", "1"), ("x", "4"), ("x", "10"), ("y", "3"), ("y", "5"), ("y", "")])]
    >>> [(r["chip"].value, r["median_value"].value, r["count"].value, r["without"].value) for r in median_of(Results(["chip", "claim", "value"], rows), {"of": "value"}).rows]
    [('x', '4', '3', '0'), ('y', '4', '2', '1')]
    >>> [r["avg_value"].value for r in median_of(Results(["chip", "claim", "value"], rows), {"of": "value", "agg": "avg"}).rows]
    ['5', '4']
    """
    of, agg = args.get("of", "value"), args.get("agg", "median")
    keys = [v for v in results.vars if v not in ("claim", of)]
    groups: dict[tuple, list] = {}
    without: dict[tuple, int] = {}
    for row in results.rows:
        key = tuple(row.get(k) for k in keys)
        values = groups.setdefault(key, [])
        if of in row:
            values.append(row[of])
        else:
            without[key] = without.get(key, 0) + 1
    out = []
    integer = NamedNode(PREFIXES["xsd"] + "integer")
    for key, terms in groups.items():
        row = {k: t for k, t in zip(keys, key) if t is not None}
        row["count"] = Literal(str(len(terms)), datatype=integer)
        row["without"] = Literal(str(without.get(key, 0)), datatype=integer)
        if terms:
            row[f"{agg}_{of}"] = _aggregate(agg, terms)
        out.append(row)
    out.sort(key=lambda r: tuple(_sort_key(r[k]) if k in r else (2, Decimal(0), "") for k in keys))
    columns = [*keys, f"{agg}_{of}", "count", "without"]
    return _ordered(Results(columns, out), args.get("sort", f"-{agg}_{of}"), args.get("top"))


def _aggregate(agg: str, terms: list) -> Literal:
    """``agg`` of the numbers ``terms`` (RDF literals), unrounded: min and max the term itself, a sum an
    integer when its terms are, an average to 17 significant digits.

    >>> from pyoxigraph import Literal
    >>> [_aggregate(a, [Literal(1), Literal(2)]).value for a in ("sum", "min", "max", "avg", "median")]
    ['3', '1', '2', '1.5', '1.5']
    """
    numbers = [Decimal(t.value) for t in terms]
    if agg in ("min", "max"):
        pick = min if agg == "min" else max
        return terms[pick(range(len(terms)), key=lambda i: numbers[i])]
    if agg == "sum":
        total = sum(numbers, Decimal(0))
        whole = all(t.datatype.value == PREFIXES["xsd"] + "integer" for t in terms)
        return Literal(format(total, "f"), datatype=NamedNode(PREFIXES["xsd"] + ("integer" if whole else "decimal")))
    if agg == "avg":
        return _decimal(sum(numbers, Decimal(0)) / len(numbers))
    middle = statistics.median(numbers)
    return Literal(format(middle.normalize(), "f"), datatype=NamedNode(PREFIXES["xsd"] + "decimal"))


def _ordered(results: Results, sort: str | None, top: str | None) -> Results:
    """The rows sorted by ``sort`` (``-COLUMN`` descending; rows without it last; None keeps their
    order), then the first ``top``."""
    rows = results.rows
    if sort:
        column, descending = sort.lstrip("-"), sort.startswith("-")
        present = [r for r in rows if column in r]
        present.sort(key=lambda r: _sort_key(r[column]), reverse=descending)
        rows = present + [r for r in rows if column not in r]
    results.rows = rows[: int(top)] if top is not None else rows
    return results


def _hold(request: Request, dim: str) -> list[str]:
    if request.hold is None:
        hold = [c for c in IDENTITY if c != dim] + (["system"] if dim in RUN_COLUMNS else [])
    else:
        hold = request.hold
    if dim in hold:
        raise UsageError(f"--hold {','.join(hold)}: the paired column {dim} cannot also be held")
    return hold


#: what a pair's groups aggregate (``--agg median:ratio``), and of which of its numbers
PAIR_AGGREGATES, PAIR_OF = ("median", "min", "max", "avg", "count"), ("ratio", "a", "b")


def _pair_agg(request: Request) -> tuple[str, str]:
    """A pair's ``--agg`` as (aggregate, of): ``median`` is ``median:ratio``.

    >>> _pair_agg(Request(agg="median")), _pair_agg(Request(agg="max:b"))
    (('median', 'ratio'), ('max', 'b'))
    """
    asked = request.agg or "count"
    agg, _, of = asked.partition(":")
    if agg not in PAIR_AGGREGATES or (of or "ratio") not in PAIR_OF:
        raise UsageError(
            f"--agg {asked}: a pair's groups take {'|'.join(PAIR_AGGREGATES)}[:{'|'.join(PAIR_OF)}] "
            "(of the ratio by default)"
        )
    return agg, of or "ratio"


def _compare(request: Request, hold: list[str]) -> str:
    """The value a pair compares: ``--compare`` as asked, else the value as stated when the count is
    held (a system beside itself) and the value per accelerator when it is not."""
    if request.compare is None:
        return "value" if "accelerator_count" in hold else "per_accelerator"
    if request.compare not in ("value", "per_accelerator"):
        raise UsageError(f"--compare {request.compare}: value or per_accelerator")
    return request.compare


def _compile_pair(request, conditions, fresh, resolve, base):
    dim, a, b = _pair_spec(request.pair)
    hold = _hold(request, dim)
    if dim in request.group_by:
        raise UsageError(f"--group-by {dim}: the paired column is on both sides of every pair; group by another")
    if request.group_by:  # a pair's two sides share its group (and unit: its numbers are aggregated)
        hold += [g for g in [*request.group_by, "unit"] if g not in hold]
    others = [c for c in conditions if c.column != dim]
    value = _compare(request, hold)
    # held columns are joined, not optional (unbound would join anything); a result without one is not
    # held equal to another, except for those _MAY_LACK names
    plain = [h for h in hold if not (COLUMNS[h].many or COLUMNS[h].optional or h in _MAY_LACK)]
    branches = []
    for side, v in (("a", a), ("b", b)):
        cond = Condition(dim, "=", (v,), f"{dim}={v}")
        parts = [_view("?claim", [], [*others, cond], fresh, resolve, base)]
        parts += [_required(h, "?claim", f"?{h}", fresh) for h in plain]
        # which way is better, as the build derived it (benchkg.graph.facts: a latency's best is its lowest)
        parts.append("?claim bk:lowerIsBetter ?_lower .")
        if value == "per_accelerator":  # a result without one (a latency) is compared as stated: pair_up
            # (the stated value before the OPTIONAL: after it, it was a pattern of its own, every value of the
            # store joined to every claim, minutes at 10,000 claims; issue 65)
            parts.append("?_rclaim qudt:value ?_stated .")
            parts.append(f"OPTIONAL {{ {_pattern(COLUMNS[value], '?claim', '?value', fresh)} }}")
        else:
            parts.append(_pattern(COLUMNS[value], "?claim", "?value", fresh) + " .")
        for h in hold:
            if h in _MAY_LACK:
                parts.append(_use(h, "?claim", f"?_{h}", fresh) + f' BIND (COALESCE(?_{h}, "") AS ?{h})')
            elif h not in plain:
                parts.append(_required(h, "?claim", f"?{h}", fresh))
        branches.append("{ " + "\n    ".join(parts) + f' BIND ("{side}" AS ?side) }}')
    keys = " ".join(f"?{h}" for h in hold)
    words = [shlex.quote(f"a={dim}={a}"), shlex.quote(f"b={dim}={b}")]
    if set(hold) & set(FOLDED):  # (held equal as folded: the same system ID spelled two ways is one)
        words.append(f"fold={','.join(h for h in hold if h in FOLDED)}")
    compared = "the value as stated" if value == "value" else "the value per accelerator"
    said = [f"{dim} {a} (a) beside {b} (b), ratio b ÷ a of {compared}, holding {', '.join(hold)}"]
    if request.group_by:
        agg, of = _pair_agg(request)
        # (a side's numbers are of one unit in a group; a ratio has none)
        group = request.group_by + (["unit"] if of != "ratio" and "unit" not in request.group_by else [])
        words += [f"group={','.join(group)}", f"agg={agg}:{of}"]
        cols = [*group, *([] if agg == "count" else [f"{agg}_{of}"]), "pairs"]
        said.append(f"{agg} of {'the ratio' if of == 'ratio' else 'side ' + of} by {', '.join(group)}")
        keep: tuple[str, ...] = ()
        shown: tuple[str, ...] = tuple(cols)
    else:
        cols = [*hold, "a", "b", "ratio", "a_claim", "b_claim"]
        keep, shown = ("a_claim", "b_claim"), ("a", "b", "ratio")
    then = _step("pair", words, request, cols)
    text = (
        f"# The results of both sides with the columns held; benchkg pairs them (#+ then: pair): for each\n"
        f"# held key the best result of side a ({dim}={a}) and of side b ({dim}={b}), and b ÷ a.\n"
        f"SELECT ?side {keys} ?claim ?value {'?_stated ' if value == 'per_accelerator' else ''}?_lower WHERE {{\n  {branches[0]}\n  UNION\n  {branches[1]}\n}}\n"
    )
    return (text, cols, keep, shown, then), said


def pair_up(results: Results, args: dict[str, str]) -> Results:
    """The rows of a pair's two sides (``side`` a or b, the held columns, ``claim``, ``value``) as one
    row per held key that both sides have: the best result of each (the highest value, or the lowest
    where ``_lower`` is true, a latency's; of equals, the first claim id), ``a``, ``b`` and ``ratio`` =
    b ÷ a in full (a table shows three places), highest ratio first (or by ``args["sort"]``, cut at ``args["top"]``). The results whose key the other side lacks go in
    ``extra["unpaired"]``, by side.

    >>> from pyoxigraph import Literal, NamedNode
    >>> row = lambda s, k, c, v: {"side": Literal(s), "system": Literal(k), "claim": NamedNode("https://x/" + c), "value": Literal(v)}
    >>> sides = [row("a", "x", "c1", "200"), row("a", "x", "c2", "100"), row("b", "x", "c3", "150"), row("b", "y", "c4", "9")]
    >>> done = pair_up(Results(["side", "system", "claim", "value"], sides), {})
    >>> [(r["a_claim"].value[-2:], r["b_claim"].value[-2:], r["ratio"].value) for r in done.rows], done.extra["unpaired"]
    ([('c1', 'c3', '0.75')], {'a': [], 'b': ['c4']})
    """
    keys = [v for v in results.vars if v not in ("side", "claim", "value", "_lower", "_stated")]
    folded = set(filter(None, args.get("fold", "").split(",")))
    ranked: dict[str, dict[tuple, list[tuple]]] = {"a": {}, "b": {}}
    claims: dict[str, dict[tuple, list[str]]] = {"a": {}, "b": {}}
    for row in results.rows:
        if "value" not in row and "_stated" in row:  # (no per-accelerator value, a latency's: as stated)
            row = {**row, "value": row["_stated"], "_as_stated": True}
        if "value" not in row:
            continue
        side = row["side"].value
        key = _key(row, keys, folded)
        number, claim = Decimal(row["value"].value), row["claim"].value
        lower = "_lower" in row and row["_lower"].value == "true"
        claims[side].setdefault(key, []).append(claim.rsplit("/", 1)[-1])
        # (a value per accelerator ranks before one as stated: a side's best is per accelerator if it can be)
        ranked[side].setdefault(key, []).append(((int("_as_stated" in row), number if lower else -number), claim, row))
    for by_key in ranked.values():
        for entries in by_key.values():
            entries.sort(key=lambda t: (t[0], t[1]))
    chosen = {key: _apart(ranked["a"][key], ranked["b"][key]) for key in ranked["a"].keys() & ranked["b"].keys()}
    best = {side: {key: ranked[side][key][0] for key in ranked[side] if key not in chosen} for side in ranked}
    out = []
    as_stated = 0
    for key, pair in chosen.items():
        if pair is None:  # (one result alone on both sides: nothing to pair it with)
            continue
        (_, _, ra), (_, _, rb) = pair
        if ("_as_stated" in ra) != ("_as_stated" in rb):  # one side per accelerator, one not: both as stated
            ra, rb = {**ra, "value": ra["_stated"]}, {**rb, "value": rb["_stated"]}
        as_stated += "_as_stated" in ra or "_as_stated" in rb
        x, y = Decimal(ra["value"].value), Decimal(rb["value"].value)
        row = {k: ra[k] for k in keys if k in ra}  # (a folded key as side a spells it)
        row |= {"a": ra["value"], "b": rb["value"], "a_claim": ra["claim"], "b_claim": rb["claim"]}
        if x:
            row["ratio"] = _decimal(y / x)
        out.append(row)
    out.sort(key=lambda r: r["a_claim"].value)
    alone = [key for key, pair in chosen.items() if pair is None]
    unpaired = {
        side: sorted(c for k in [*best[side].keys() - best[other].keys(), *alone] for c in claims[side][k])
        for side, other in (("a", "b"), ("b", "a"))
    }
    extra: dict = {"unpaired": unpaired} | ({"as_stated": as_stated} if as_stated else {})
    paired = Results([*keys, "a", "b", "ratio", "a_claim", "b_claim"], out, extra=extra)
    if args.get("group"):
        return _ordered(_pair_groups(paired, args), args.get("sort"), args.get("top"))
    return _ordered(paired, args.get("sort", "-ratio"), args.get("top"))


#: the columns compared folded, and how: an MLPerf system ID with ``_``/``-`` and case folded
#: (``8xMI355X_2xEPYC_9575F`` in v6.0 is ``8xMI355X_2xEPYC-9575F`` in v6.1)
FOLDED = {"platform_id": platform_key}


def _key(row: dict, keys: list[str], folded: set[str]) -> tuple:
    """The held key of ``row``: its terms, those of the ``folded`` columns folded (:data:`FOLDED`).

    >>> from pyoxigraph import Literal
    >>> rows = [{"platform_id": Literal(t)} for t in ("8xMI355X_2xEPYC_9575F", "8xMI355X_2xEPYC-9575F")]
    >>> len({_key(r, ["platform_id"], {"platform_id"}) for r in rows}), len({_key(r, ["platform_id"], set()) for r in rows})
    (1, 2)
    """
    return tuple(FOLDED[k](row[k].value) if k in folded and row.get(k) is not None else row.get(k) for k in keys)


def _decimal(number: Decimal) -> Literal:
    """A number as an xsd:decimal to 17 significant digits, a double's precision (a table rounds it; a
    CSV or JSON keeps them).

    >>> _decimal(Decimal(2) / Decimal(3)).value, _decimal(Decimal("0.750")).value
    ('0.66666666666666667', '0.75')
    """
    rounded = Context(prec=17, rounding=ROUND_HALF_EVEN).plus(number)
    return Literal(format(rounded.normalize(), "f"), datatype=NamedNode(PREFIXES["xsd"] + "decimal"))


_PAIR_AGG: dict[str, Callable[[list[Decimal]], Decimal]] = {
    "median": statistics.median,
    "min": min,
    "max": max,
    "avg": lambda n: sum(n, Decimal(0)) / len(n),
}


def _pair_groups(paired: Results, args: dict[str, str]) -> Results:
    """The pairs grouped by ``args["group"]`` with ``args["agg"]`` (``median:ratio``) of each group and
    how many pairs it has, in the groups' order.

    >>> from pyoxigraph import Literal
    >>> rows = [{"chip": Literal(c), "ratio": Literal(r)} for c, r in (("x", "0.5"), ("x", "0.9"), ("x", "0.7"), ("y", "1"))]
    >>> done = _pair_groups(Results(["chip", "ratio"], rows), {"group": "chip", "agg": "median:ratio"})
    >>> [(r["chip"].value, r["median_ratio"].value, r["pairs"].value) for r in done.rows]
    [('x', '0.7', '3'), ('y', '1', '1')]
    """
    keys = args["group"].split(",")
    agg, of = args["agg"].split(":")
    groups: dict[tuple, list[Decimal]] = {}
    for row in paired.rows:
        numbers = groups.setdefault(tuple(row.get(k) for k in keys), [])
        if of in row:
            numbers.append(Decimal(row[of].value))
    out = []
    for key in sorted(groups, key=lambda k: tuple(_sort_key(t) if t is not None else (2, Decimal(0), "") for t in k)):
        numbers = groups[key]
        row = {k: t for k, t in zip(keys, key) if t is not None}
        row["pairs"] = Literal(str(len(numbers)), datatype=NamedNode(PREFIXES["xsd"] + "integer"))
        if numbers and agg != "count":
            row[f"{agg}_{of}"] = _decimal(_PAIR_AGG[agg](numbers))
        out.append(row)
    return Results([*keys, *([] if agg == "count" else [f"{agg}_{of}"]), "pairs"], out, extra=paired.extra)


def best_of(results: Results, args: dict[str, str]) -> Results:
    """The rows whose score (``_best``: the per-accelerator value, or minus a latency) is the best of
    their group (the columns in ``args["keys"]``), ties all kept, in the query's order (or by
    ``args["sort"]``), cut at ``args["top"]``; the score and the columns in ``args["hide"]`` dropped.

    >>> from pyoxigraph import Literal
    >>> row = lambda chip, claim, score: {"chip": Literal(chip), "claim": Literal(claim), "_best": Literal(score)}
    >>> rows = [row("x", "c1", "5"), row("x", "c2", "7"), row("y", "c3", "-2.5"), row("y", "c4", "-2.50")]
    >>> [r["claim"].value for r in best_of(Results(["chip", "claim", "_best"], rows), {"keys": "chip"}).rows]
    ['c2', 'c3', 'c4']
    """
    keys = args["keys"].split(",")
    scored = [
        (tuple(row.get(k) for k in keys), Decimal(row["_best"].value), row) for row in results.rows if "_best" in row
    ]
    unscored = sorted({row["claim"].value.rsplit("/", 1)[-1] for row in results.rows if "_best" not in row})
    extra = dict(results.extra)
    if unscored:  # counted under the answer with the fact they lack (answers.algebra.wanting_note)
        extra["wanting"] = {"fact": args.get("wanting", "_best"), "claims": unscored, "of": len(results.rows)}
    best: dict[tuple, Decimal] = {}
    for key, score, _ in scored:
        best[key] = max(best.get(key, score), score)
    dropped = {"_best", *filter(None, args.get("hide", "").split(","))}
    rows = [{k: v for k, v in row.items() if k not in dropped} for key, score, row in scored if score == best[key]]
    out = Results([v for v in results.vars if v not in dropped], rows, extra=extra)
    return _ordered(out, args.get("sort"), args.get("top"))


def _apart(a: list[tuple], b: list[tuple]) -> tuple[tuple, tuple] | None:
    """The best of each side (entries ``(rank, claim, row)``, best first: the rank is minus the value,
    or the value where lower is better), never one result on both:
    a result on both sides (a system of type "datacenter,edge" in --pair system_type=datacenter,edge) is
    not paired with itself; b then takes its runner-up, or else a does; none when neither has one.

    >>> _apart([(-2, "c", 0)], [(-2, "c", 0), (-1, "d", 0)]), _apart([(-2, "c", 0)], [(-2, "c", 0)])
    (((-2, 'c', 0), (-1, 'd', 0)), None)
    """
    if a[0][1] != b[0][1]:
        return a[0], b[0]
    if len(b) > 1:
        return a[0], b[1]
    if len(a) > 1:
        return a[1], b[0]
    return None


def _sort_key(term):
    """A cell's order: numbers by value, everything else by its text."""
    try:
        return (0, Decimal(term.value), "")
    except (InvalidOperation, ValueError):
        return (1, Decimal(0), term.value)


def _compile_difference(request, conditions, fresh, resolve, base):
    if not (request.only_in and request.not_in):
        raise UsageError("--only-in COLUMN=A and --not-in COLUMN=B go together (what A has that B has not)")
    keys = request.group_by or request.columns
    if not keys:
        raise UsageError("--only-in/--not-in: say what to compare with --group-by (submitter, chip, system…)")
    inside, outside = _side(request.only_in, "--only-in"), _side(request.not_in, "--not-in")
    group = " ".join("?" + k for k in keys)
    # the keys joined on both sides: a result without one is in no group (unbound, it would join all)
    sides = []
    for cond, mark in ((inside, "?_in"), (outside, "?_out")):
        side = _view("?claim", [], [*conditions, cond], fresh, resolve, base)
        side += "".join(f" {_required(k, '?claim', f'?{k}', fresh)}" for k in keys)
        sides.append(f"{{ {side} BIND (?claim AS {mark}) }}")
    # both sides in one pass, grouped once: a group with results inside and none outside (MINUS of a
    # sub-select answers nothing on Virtuoso 7, NOT EXISTS redoes the other side per row, and an
    # OPTIONAL join of two groupings joins an unbound key to every group)
    text = (
        f"SELECT {group} (COUNT(DISTINCT ?_in) AS ?results) WHERE {{\n  {sides[0]}\n  UNION\n  {sides[1]}\n}}\n"
        f"GROUP BY {group}\nHAVING (COUNT(?_out) = 0)\n" + ("" if request.sort else f"ORDER BY {group}\n")
    )
    said = [f"{', '.join(keys)} in {inside.text} and not in {outside.text}"]
    return (text, [*keys, "results"], (), ()), said


def difference_note(request: Request, run: Callable[[Request], Results], answered: int) -> str:
    """What a difference (``--only-in A --not-in B``, ``--first-in``) says of the results of side A it does
    not answer (issue 62: nothing dropped unsaid): those whose key side B has too, and those that state no
    key (in no group). ``run`` answers a request; ``answered`` is the sum of the answer's ``results``.

    >>> from pyoxigraph import Literal
    >>> groups = Results(["chip", "count"], [{"chip": Literal("a"), "count": Literal("5")}, {"count": Literal("2")}])
    >>> print(difference_note(Request(only_in="round=6.0", not_in="round=6.1", group_by=["chip"]), lambda r: groups, 1))
    Not in the answer, of the 7 results with round=6.0: 4 whose chip round=6.1 has too; 2 that state no chip (in no group).

    An empty answer (``answered`` 0) is said as what it means: nothing is new.

    >>> print(difference_note(Request(first_in="round=6.1", over=["chip"]), lambda r: groups, 0))
    Nothing is new in round=6.1. Not in the answer, of the 7 results with round=6.1: 5 whose chip round<6.1 has too; 2 that state no chip (in no group).
    >>> print(difference_note(Request(first_in="round=6.0", over=["chip"]), lambda r: Results(["count"], []), 0))
    Nothing is new in round=6.0: no result has round=6.0.
    """
    new_in = request.first_in
    if request.first_in:
        request = _first_in(request)
    keys = request.group_by or request.columns
    side = Request(where=[*request.where, request.only_in or ""], group_by=list(keys))
    keyed = keyless = 0
    for row in run(side).rows:
        n = int(row["count"].value)
        if all(row.get(k) is not None for k in keys):
            keyed += n
        else:
            keyless += n
    nothing = f"Nothing is new in {new_in}" if new_in else f"{request.only_in} has nothing {request.not_in} has not"
    if not keyed + keyless:
        kept = " (of those --where keeps)" if request.where else ""
        return f"{nothing}: no result has {request.only_in}{kept}." if not answered else ""
    if keyed + keyless == answered:
        return ""
    said = [f"{keyed - answered} whose {', '.join(keys)} {request.not_in} has too"] if keyed > answered else []
    if keyless:
        said.append(f"{keyless} that state no {' or '.join(keys)} (in no group)")
    note = f"Not in the answer, of the {keyed + keyless} results with {request.only_in}: {'; '.join(said)}."
    return note if answered else f"{nothing}. {note}"


def values_taken(cond: Condition, where: list[str], select: Callable[[str], list], compiled: Callable) -> str:
    """What ``cond``'s column takes, most results first, where ``where`` holds: said when ``cond`` emptied
    an answer (``framework_family=TensorRT``: the values are tensorrt, vllm…); "" for a number or an order.

    ``compiled(request)`` is the request's SPARQL text, ``select`` runs it.
    """
    if cond.op not in ("=", "in", "any", "~") or COLUMNS[cond.column].kind == "num":
        return ""
    rows = select(compiled(Request(where=where, group_by=[cond.column])))
    values = [f"{curator_name(r[cond.column])} {int(r['count']):,}" for r in rows if r.get(cond.column)]
    if not values:
        return f" No result here states {cond.column}." if rows else ""
    if len(values) > _LISTED:  # (a free text: a framework's name and versions)
        return f" {cond.column} has {len(values):,} values here: --group-by {cond.column} lists them."
    return f" {cond.column} takes these values here (results of each): {', '.join(values)}."


#: the most values :func:`values_taken` names (a controlled vocabulary's, a family's)
_LISTED = 12

#: what keeps a result that lacks a fact a verb needs: the option to give, by the fact
KEEPS = {
    "per_accelerator": "--compare value ranks them by the value as stated",
}
#: why a result lacks a fact, by the fact
WHY_NOT = {
    "per_accelerator": "a mixed-chip system, a CPU-only result, a per-node or per-user value",
}


def wanting_note(wanting: dict) -> str:
    """What is said under an answer about the results of its slice that lack a fact the verb needs: how
    many, which fact, why and the option that keeps them (issue 62: nothing dropped unsaid).

    >>> wanting_note({"fact": "per_accelerator", "claims": ["a", "b"], "of": 9})
    'Left out for want of per_accelerator: 2 of 9 results (a mixed-chip system, a CPU-only result, a per-node or per-user value; --compare value ranks them by the value as stated): a, b'
    """
    fact, claims = wanting["fact"], wanting["claims"]
    why = "; ".join(w for w in (WHY_NOT.get(fact, ""), KEEPS.get(fact, "")) if w)
    shown = ", ".join(claims[:10]) + (f" and {len(claims) - 10} more" if len(claims) > 10 else "")
    return (
        f"Left out for want of {fact}: {len(claims)} of {wanting['of']} result{'s' if wanting['of'] != 1 else ''}"
        + (f" ({why})" if why else "")
        + f": {shown}"
    )


def unpaired_note(
    labels: tuple[str, str], unpaired: dict[str, list[str]], listed: bool = False, hint: str = "--unpaired lists them"
) -> str:
    """What is said under a pair's answer: how many results of each side found no partner (the
    same held columns on the other side), and with ``listed`` which.

    >>> unpaired_note(("tier=99", "tier=99.9"), {"a": ["c2"], "b": []})
    'Without a partner: 1 result with tier=99 only, 0 with tier=99.9 only (--unpaired lists them).'
    """
    only_a, only_b = unpaired.get("a", []), unpaired.get("b", [])
    note = (
        f"Without a partner: {len(only_a)} result{'s' if len(only_a) != 1 else ''} with {labels[0]} only, "
        f"{len(only_b)} with {labels[1]} only"
    )
    if not listed:
        return note + (f" ({hint})." if (only_a or only_b) and hint else ".")
    return (
        note
        + ":\n"
        + "\n".join([f"  {labels[0]} only: {c}" for c in only_a] + [f"  {labels[1]} only: {c}" for c in only_b])
    )


def schema() -> list[dict]:
    """The columns of the view: name, type, example and what it is.

    >>> [c for c in schema() if c["column"] == "tier"][0]["type"]
    'tier'
    """
    return [
        {
            "column": name,
            "type": col.type + (" (several)" if col.many else ""),
            "example": col.example,
            "about": col.about,
        }
        for name, col in COLUMNS.items()
    ]
