"""Namespaces, controlled vocabularies and units: the names the mapping and the ontology share.

Each controlled value of a record becomes a ``skos:Concept`` IRI ``bk:<scheme>-<value>``; the
ontology declares every one of them (a test checks the two agree).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote, unquote

BK = "https://w3id.org/benchkg/ontology#"
DEFAULT_BASE = "https://w3id.org/benchkg/"

PREFIXES = {
    "bk": BK,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "qudt": "http://qudt.org/schema/qudt/",
    "unit": "http://qudt.org/vocab/unit/",
    "sh": "http://www.w3.org/ns/shacl#",
}
#: the prefixes of the published data (dumps, per-record files, the JSON-LD context): not SHACL's
DATA_PREFIXES = {p: iri for p, iri in PREFIXES.items() if p != "sh"}

#: scheme name -> the values a record may use.
SCHEMES: dict[str, tuple[str, ...]] = {
    "division": ("closed", "open", "network", "standardized", "serviced", "rdi"),
    "system-type": ("datacenter", "edge"),
    "scenario": ("offline", "server", "interactive", "single-stream", "multi-stream", "endpoints"),
    "metric": ("throughput", "ttft", "tpot", "latency", "power"),
    "scope": ("aggregate", "per-accelerator", "per-node", "per-user", "per-query"),
    "measured-by": ("vendor", "third-party", "mlcommons", "community"),
    "verification-status": ("verified", "unverified", "disputed"),
    "verification-label": ("high", "medium", "low"),
    "severity": ("info", "caution", "critical"),
    "accelerator-kind": ("chip", "superchip", "system", "rack", "cpu"),
    "interconnect-kind": ("scale-up", "scale-out", "host", "switch"),
    "suite-family": ("mlperf-inference", "mlperf-endpoints", "inferencex", "vendor-claim", "other"),
    "availability": ("available", "preview", "rdi"),
    "arrival": ("poisson", "fixed-concurrency", "single-batch", "sequential"),
    "source-kind": ("record", "blog", "press-release", "results", "dataset", "rules", "datasheet"),
    "organization-kind": (
        "cloud-provider",
        "chip-maker",
        "system-builder",
        "software",
        "model-publisher",
        "research",
        "consortium",
        "individual",
    ),
    "dimension": (
        "scenario",
        "suite-family",
        "round",
        "division",
        "accuracy-tier",
        "format",
        "measured-by",
        "availability",
        "inferred",
        "accelerator-count",
        "system-type",
        "unit",
        "clock-state",
    ),
}

#: a record's unit string -> the QUDT unit IRI it stands for (tokens, samples and queries are
#: minted as contextual units, the way QUDT mints BEAT-PER-MIN).
UNITS: dict[str, str] = {
    "tokens/s": BK + "TOKEN-PER-SEC",
    "samples/s": BK + "SAMPLE-PER-SEC",
    "queries/s": BK + "QUERY-PER-SEC",
    "tasks/s": BK + "TASK-PER-SEC",
    "ms": PREFIXES["unit"] + "MilliSEC",
    "s": PREFIXES["unit"] + "SEC",
    "W": PREFIXES["unit"] + "W",
    "mJ": PREFIXES["unit"] + "MilliJ",
}
UNIT_NAMES = {iri: name for name, iri in UNITS.items()}
#: the units each metric is stated in, said here once: a latency in a time, a throughput in a rate, a power
#: in watts (MLPerf Power's system draw) or millijoules (its energy per single-stream query): a record pairing
#: a metric with another's unit is refused when it is read (:mod:`benchkg.records.values`), where "50 ms" with
#: ``metric: throughput`` was divided per accelerator
METRIC_UNITS: dict[str, tuple[str, ...]] = {
    "throughput": ("tokens/s", "samples/s", "queries/s", "tasks/s"),
    "ttft": ("ms", "s"),
    "tpot": ("ms", "s"),
    "latency": ("ms", "s"),
    "power": ("W", "mJ"),
}
#: the units whose best value is the lowest (latencies, times, energy, power), said here once: charts
#: read it, and every saved query that ranks by unit names exactly these (``tests/test_queries.py``
#: holds their ``?unit IN (…)`` lists to it; a query file must run as it is in any SPARQL tool, so it
#: spells the list out)
LOWER_IS_BETTER = ("ms", "s", "W", "mJ")

#: the dimensions claims compared together may differ in, each with the property path from a claim to
#: its value: what a comparison caveat reads (:mod:`benchkg.answers.caveats`; a gotcha's ``compares``
#: names one, and ``metric`` narrows one to claims of some metrics). Those a claim's record holds are
#: written once, when it is mapped, as its ``bk:comparisonValues`` (:mod:`benchkg.graph.mapping`); the
#: others (:data:`THROUGH_OTHER_RECORDS`) are read along their path beside them
COMPARISON_DIMENSIONS = {
    "scenario": "bk:scenario",
    "suite-family": "bk:suite/bk:suiteFamily",
    "round": "bk:suite",
    "division": "bk:division",
    "accuracy-tier": "bk:accuracyTarget",
    "format": "bk:numericFormat",
    "measured-by": "bk:measuredBy",
    "availability": "bk:availability",
    "inferred": "bk:inferred",
    "accelerator-count": "bk:acceleratorCount",
    "system-type": "bk:systemType",
    "unit": "bk:result/qudt:hasUnit",
    "metric": "bk:result/bk:metric",
    "clock-state": "bk:clockState",
}
#: the dimensions whose value is another record's, with the dimension that names that record and the
#: predicate from it (a suite's family is the suite record's, named by the claim's round): never in a
#: claim's ``bk:comparisonValues``, so a suite's change changes no claim's
THROUGH_OTHER_RECORDS = {"suite-family": ("round", "bk:suiteFamily")}

#: the software family a framework text names, first match wins: the serving engine before the
#: framework under it ("PyTorch vLLM" is vllm, "TensorRT-LLM" tensorrt), anything else "other". The
#: spellings are those of MLPerf's system descriptions (tests/test_algebra_framings.py reads each one in
#: data/): TensorRT-LLM is also "TRTLLM" and "trt-llm", and llm-d serves with vLLM
FRAMEWORK_FAMILIES = (
    ("vllm", r"vllm|\bllm-d\b"),
    ("sglang", r"sglang"),
    ("tensorrt", r"tensorrt|\btrt(?:[-_ ]?llm)?\b"),
    ("llama.cpp", r"llama\.?cpp"),
    ("openvino", r"openvino"),
    ("onnxruntime", r"onnx"),
    ("tensorflow", r"tensorflow|\btf\b|tflite"),
    ("jax", r"\bjax\b|\bflax\b"),
    ("pytorch", r"pytorch|torch"),
)
#: a framework field that names no software: a placeholder a submitter left ("N/A", "TODO")
_NO_FRAMEWORK = re.compile(r"\s*(?:n/?a|none|todo|tbd|-*)\s*", re.I)


def framework_family(text: str) -> str | None:
    """The family of a framework as a submitter wrote it (:data:`FRAMEWORK_FAMILIES`), or None where the
    text names no software at all (a placeholder: "N/A", "TODO").

    >>> [framework_family(t) for t in ("TensorRT 10.14, CUDA 13.0", "PyTorch vLLM", "tflite vmaster", "ROCm")]
    ['tensorrt', 'vllm', 'tensorflow', 'other']
    >>> [framework_family(t) for t in ("TRTLLM 1.2", "trt-llm", "LLM-D v0.5.0", "N/A", "TODO")]
    ['tensorrt', 'tensorrt', 'vllm', None, None]
    """
    if _NO_FRAMEWORK.fullmatch(text):
        return None
    for family, pattern in FRAMEWORK_FAMILIES:
        if re.search(pattern, text, re.I):
            return family
    return "other"


SHAPES_NS = "https://w3id.org/benchkg/shapes#"


def shape_iri(name: str) -> str:
    """The IRI of a shape of ``shapes/`` by its name.

    >>> shape_iri("samples-times-tokens-agrees")
    'https://w3id.org/benchkg/shapes#samples-times-tokens-agrees'
    """
    return SHAPES_NS + quote(name, safe="-._~")


def concept_iri(scheme: str, value: str) -> str:
    """The concept IRI of a controlled value (unknown values still get an IRI, so SHACL can say
    which value is wrong instead of the loader dropping it).

    >>> concept_iri("scenario", "server")
    'https://w3id.org/benchkg/ontology#scenario-server'
    >>> concept_iri("scenario", "a b")
    'https://w3id.org/benchkg/ontology#scenario-a%20b'
    """
    return f"{BK}{scheme}-{quote(value, safe='')}"


def unit_iri(value: str) -> str:
    """The QUDT unit IRI of a unit string; an unknown unit gets a ``bk:unit-…`` IRI that SHACL rejects.

    >>> unit_iri("W")
    'http://qudt.org/vocab/unit/W'
    """
    return UNITS.get(value) or concept_iri("unit", value)


def scheme_iri(scheme: str) -> str:
    """The IRI of a concept scheme.

    >>> scheme_iri("measured-by")
    'https://w3id.org/benchkg/ontology#MeasuredByScheme'
    """
    return BK + "".join(part.capitalize() for part in scheme.split("-")) + "Scheme"


def expand(curie: str) -> str:
    """Expand a prefixed name.

    >>> expand("prov:Entity")
    'http://www.w3.org/ns/prov#Entity'
    """
    prefix, _, local = curie.partition(":")
    return PREFIXES[prefix] + local


def record_iri(base: str, kind: str, record_id: str) -> str:
    """The IRI of a record: ``<base>id/<kind>/<id>`` (ids that break the id pattern are escaped).

    >>> record_iri(DEFAULT_BASE, "models", "llama2-70b")
    'https://w3id.org/benchkg/id/models/llama2-70b'
    """
    return f"{base}id/{kind}/{quote(record_id, safe='')}"


@lru_cache(maxsize=1 << 16)  # (an answer's caveats name the same few values for thousands of claims)
def curator_name(iri: str) -> str:
    """What a curator writes for an IRI: a record's id, a controlled value, a unit's symbol, an
    ontology term's local name; any other IRI unchanged.

    >>> curator_name(BK + "scope-per-accelerator"), curator_name(BK + "measured-by-vendor")
    ('per-accelerator', 'vendor')
    >>> curator_name(UNITS["tokens/s"]), curator_name("https://w3id.org/benchkg/id/models/llama2-70b")
    ('tokens/s', 'llama2-70b')
    >>> curator_name("https://w3id.org/benchkg/combinations/amd-mi350x+nvidia-h200")
    'amd-mi350x+nvidia-h200'
    >>> curator_name(unit_iri("tokens/sec")), curator_name(concept_iri("scenario", "a b"))
    ('tokens/sec', 'a b')
    """
    if iri in UNIT_NAMES:
        return UNIT_NAMES[iri]
    record = re.search(r"/(?:id/[a-z]+|combinations)/([^/#]+)$", iri)
    if record:
        return unquote(record.group(1))  # an id as its curator wrote it, never %-encoded
    if iri.startswith(BK):
        local = iri[len(BK) :]
        # longest first (system-type before system); "unit" is where unknown unit strings are minted
        for scheme in sorted([*SCHEMES, "unit"], key=len, reverse=True):
            value = local[len(scheme) + 1 :]
            if local.startswith(scheme + "-") and (value[:1].islower() or value[:1].isdigit()):
                return unquote(value)  # a value as written: concept_iri %-encodes it (tokens/sec, not tokens%2Fsec)
        return local
    return iri


def sparql_prefixes() -> str:
    """PREFIX lines for every namespace above."""
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
