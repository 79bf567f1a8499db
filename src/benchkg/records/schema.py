"""The record format (docs/records.md): every field of every kind, its JSON type and its RDF predicate.

One table serves the loader (types, unknown fields), the mapping (predicates) and the
reporting (predicate -> field name, to point a finding at the JSON that caused it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dc_field

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.-]*$")

KINDS = (
    "benchmarks",
    "systems",
    "accelerators",
    "interconnects",
    "engines",
    "formats",
    "models",
    "organizations",
    "suites",
    "sources",
    "gotchas",
)

#: kind -> the class of its records (CURIE).
CLASSES = {
    "benchmarks": "bk:Benchmark",
    "systems": "bk:System",
    "accelerators": "bk:Accelerator",
    "interconnects": "bk:Interconnect",
    "engines": "bk:Engine",
    "formats": "bk:NumericFormat",
    "models": "bk:Model",
    "organizations": "prov:Organization",
    "suites": "bk:Suite",
    "sources": "bk:Source",
    "gotchas": "bk:Gotcha",
}


@dataclass(frozen=True)
class Field:
    """One field of a record: its JSON type and where it goes in RDF.

    ``type`` is one of str, int, num, bool, date, url, ref, vocab, unit, field-name, shape, obj, list.
    """

    type: str
    pred: str
    ref: str | None = None
    scheme: str | None = None
    items: "Field | None" = None
    fields: dict[str, "Field"] = dc_field(default_factory=dict)
    cls: str | None = None
    many: bool = False  # a vocab field that may also be an array of values


def S(pred: str) -> Field:
    return Field("str", pred)


def I(pred: str) -> Field:
    return Field("int", pred)


def N(pred: str) -> Field:
    return Field("num", pred)


def B(pred: str) -> Field:
    return Field("bool", pred)


def D(pred: str) -> Field:
    return Field("date", pred)


def R(pred: str, kind: str) -> Field:
    return Field("ref", pred, ref=kind)


def V(pred: str, scheme: str) -> Field:
    return Field("vocab", pred, scheme=scheme)


def L(pred: str, items: Field) -> Field:
    return Field("list", pred, items=items)


def O(pred: str, cls: str, **fields: Field) -> Field:
    return Field("obj", pred, fields=fields, cls=cls)


def _common(**fields: Field) -> dict[str, Field]:
    return {
        "id": S("dcterms:identifier"),
        "name": S("rdfs:label"),
        "url": Field("url", "rdfs:seeAlso"),
        "notes": S("skos:note"),
        "source_ids": L("dcterms:source", R("dcterms:source", "sources")),
        **fields,
    }


def _quantity(pred: str, cls: str = "qudt:QuantityValue") -> Field:
    return O(
        pred,
        cls,
        metric=V("bk:metric", "metric"),
        value=N("qudt:value"),
        unit=Field("unit", "qudt:hasUnit"),
        scope=V("bk:scope", "scope"),
    )


BENCHMARK = {
    "id": S("dcterms:identifier"),
    "title": S("rdfs:label"),
    "notes": S("skos:note"),
    # what was measured
    "suite_id": R("bk:suite", "suites"),
    "division": V("bk:division", "division"),
    "system_type": Field("vocab", "bk:systemType", scheme="system-type", many=True),
    "availability": V("bk:availability", "availability"),
    "scenario": V("bk:scenario", "scenario"),
    "model_id": R("bk:model", "models"),
    "accuracy_target": S("bk:accuracyTarget"),
    "format_id": R("bk:numericFormat", "formats"),
    "kv_cache_format_id": R("bk:kvCacheFormat", "formats"),
    "weight_data_types": S("bk:weightDataTypes"),
    "engine_id": R("bk:engine", "engines"),
    "engine_version": S("bk:engineVersion"),
    "tokens_per_sample": N("bk:tokensPerSample"),
    # on what
    "system_id": R("bk:system", "systems"),
    "system_name": S("bk:systemName"),
    "accelerator_ids": L("bk:accelerator", R("bk:accelerator", "accelerators")),
    "accelerator_count": I("bk:acceleratorCount"),
    "accelerator_mix": L(
        "bk:acceleratorShare",
        O(
            "bk:acceleratorShare",
            "bk:AcceleratorShare",
            accelerator_id=R("bk:accelerator", "accelerators"),
            count=I("bk:count"),
        ),
    ),
    "node_count": I("bk:nodeCount"),
    "interconnect_ids": L("bk:interconnect", R("bk:interconnect", "interconnects")),
    "parallelism": O(
        "bk:parallelism",
        "bk:ParallelLayout",
        tensor=I("bk:tensorParallel"),
        pipeline=I("bk:pipelineParallel"),
        expert=I("bk:expertParallel"),
        data=I("bk:dataParallel"),
    ),
    "disaggregated": B("bk:disaggregated"),
    "fabric_exercised": B("bk:fabricExercised"),
    "clock_state": S("bk:clockState"),
    "framework": S("bk:framework"),
    "speculative_decoding": S("bk:speculativeDecoding"),
    "input_length": I("bk:inputLength"),
    "output_length": I("bk:outputLength"),
    # the number
    "metric": V("bk:metric", "metric"),
    "value": N("qudt:value"),
    # the text's own spelling of the value ("1.19M", "74K", "5.7 s", "over 1M"): the precision it states
    "value_as_written": S("bk:valueAsWritten"),
    "unit": Field("unit", "qudt:hasUnit"),
    "scope": V("bk:scope", "scope"),
    "reported": L("bk:reported", _quantity("bk:reported")),
    "points": L(
        "bk:point",
        O(
            "bk:point",
            "bk:CurvePoint",
            concurrency=I("bk:concurrency"),
            system_tps=N("bk:systemTps"),
            total_tps=N("bk:totalTps"),
            tps_per_user=N("bk:tpsPerUser"),
            ttft_ms=N("bk:ttftMs"),
            ttft_percentile=N("bk:ttftPercentile"),
        ),
    ),
    # how
    "load": O(
        "bk:load",
        "bk:LoadSpec",
        arrival=V("bk:arrival", "arrival"),
        target_qps=N("bk:targetQps"),
        min_duration_ms=I("bk:minDurationMs"),
        min_query_count=I("bk:minQueryCount"),
        concurrency=I("bk:concurrency"),
    ),
    "latency_constraints_met": B("bk:latencyConstraintsMet"),
    "power": O("bk:power", "bk:PowerMeasurement", measured=B("bk:powerMeasured"), watts=N("bk:watts")),
    # who and how sure
    "measured_by": V("bk:measuredBy", "measured-by"),
    "submitter_id": R("bk:submitter", "organizations"),
    "reproducible": B("bk:reproducible"),
    "verification": O(
        "bk:verification",
        "bk:Verification",
        status=V("bk:verificationStatus", "verification-status"),
        label=V("bk:verificationLabel", "verification-label"),
        confidence=N("bk:confidence"),
    ),
    "updated": D("dcterms:modified"),
    "sources": L(
        "bk:citation",
        O(
            "bk:citation",
            "bk:Citation",
            source_id=R("bk:source", "sources"),
            quote=S("bk:quote"),
            retrieved=D("bk:retrieved"),
        ),
    ),
    "mlperf_result_id": S("bk:mlperfResultId"),
    # the audited result a vendor's number restates, as the curator (or benchkg draft) names it: the claim is
    # then judged against that result alone ("differs from the result it names")
    "restates": R("bk:restates", "benchmarks"),
    "inferred": B("bk:inferred"),
    "omitted_by_source": L("bk:omittedBySource", Field("field-name", "bk:omittedBySource")),
    "gotcha_ids": L("bk:gotcha", R("bk:gotcha", "gotchas")),
    # a ratio the source states ("2.1x what the same system delivered last round", "29 % higher than the
    # previous generation", "nearly five times the next-best"): times or percent, over one baseline
    "relative": O(
        "bk:relative",
        "bk:RelativeClaim",
        times=N("bk:times"),
        percent=N("bk:percent"),
        as_written=S("bk:ratioAsWritten"),
        over=O(
            "bk:over",
            "bk:Baseline",
            same_system_in=R("bk:sameSystemIn", "suites"),  # the same system (MLPerf system ID) in that round
            claim_id=R("bk:overClaim", "benchmarks"),  # a named result or claim
            next_best=B("bk:overNextBest"),  # the best of the claim's superlative population other than it
        ),
    ),
    # a superlative the source states ("the highest per-GPU throughput of any … submission"): the
    # claim's rank among a population of audited results, each ``among`` field narrowing it
    "asserts": O(
        "bk:asserts",
        "bk:RankAssertion",
        rank=I("bk:rank"),
        scope=V("bk:rankScope", "scope"),
        among=O(
            "bk:among",
            "bk:Population",
            suite_id=R("bk:amongSuite", "suites"),
            division=V("bk:amongDivision", "division"),
            system_type=V("bk:amongSystemType", "system-type"),
            model_id=R("bk:amongModel", "models"),
            scenario=V("bk:amongScenario", "scenario"),
            accuracy_target=S("bk:amongAccuracyTarget"),
            accelerator_id=R("bk:amongAccelerator", "accelerators"),
            # several chips ("on H100 or H200"): results on any of them
            accelerator_ids=L("bk:amongAccelerator", R("bk:amongAccelerator", "accelerators")),
            accelerator_vendor_id=R("bk:amongAcceleratorVendor", "organizations"),  # "AMD-based"
            accelerator_count=I("bk:amongAcceleratorCount"),  # "8-GPU systems"
            node_count=I("bk:amongNodeCount"),  # "a single node"
            organization_kind=V("bk:amongOrganizationKind", "organization-kind"),
        ),
    ),
}

#: the fields of an MLPerf system description (``systems/<Platform>.json``) a system record keeps
#: verbatim, as its submitter wrote them: what the hardware is, how it is connected, what ran it.
DESCRIPTION_FIELDS = (
    "system_name",
    "status",
    "number_of_nodes",
    "host_processor_model_name",
    "host_processors_per_node",
    "host_processor_core_count",
    "host_processor_interconnect",
    "host_memory_capacity",
    "host_networking",
    "host_networking_topology",
    "host_network_card_count",
    "accelerator_model_name",
    "accelerators_per_node",
    "accelerator_memory_capacity",
    "accelerator_memory_configuration",
    "accelerator_host_interconnect",
    "accelerator_interconnect",
    "accelerator_interconnect_topology",
    "cooling",
    "hw_notes",
    "framework",
    "other_software_stack",
    "operating_system",
    "sw_notes",
)


def description_predicate(name: str) -> str:
    """The predicate of one verbatim system-description field.

    >>> description_predicate("accelerator_interconnect")
    'bk:sdAcceleratorInterconnect'
    """
    return "bk:sd" + "".join(part.capitalize() for part in name.split("_"))


SYSTEM = _common(
    submitter_id=R("bk:submitter", "organizations"),
    suite_id=R("bk:suite", "suites"),
    division=V("bk:division", "division"),
    system_type=Field("vocab", "bk:systemType", scheme="system-type", many=True),
    availability=V("bk:availability", "availability"),
    accelerator_ids=BENCHMARK["accelerator_ids"],
    accelerator_count=I("bk:acceleratorCount"),
    accelerator_mix=BENCHMARK["accelerator_mix"],
    node_count=I("bk:nodeCount"),
    host_processor=S("bk:hostProcessor"),
    host_processor_count=I("bk:hostProcessorCount"),
    interconnect_ids=L("bk:interconnect", R("bk:interconnect", "interconnects")),
    description=O(
        "bk:systemDescription",
        "bk:SystemDescription",
        **{name: S(description_predicate(name)) for name in DESCRIPTION_FIELDS},
    ),
)

SCHEMA: dict[str, dict[str, Field]] = {
    "benchmarks": BENCHMARK,
    "systems": SYSTEM,
    "accelerators": _common(
        vendor_id=R("bk:vendor", "organizations"),
        kind=V("bk:acceleratorKind", "accelerator-kind"),
        made_of_id=R("bk:madeOf", "accelerators"),
        accelerators_per_unit=I("bk:acceleratorsPerUnit"),
        variant_of_id=R("bk:variantOf", "accelerators"),
        memory_gb=N("bk:memoryGB"),
        memory_bandwidth_tbs=N("bk:memoryBandwidthTBs"),
        interconnect_ids=L("bk:interconnect", R("bk:interconnect", "interconnects")),
        interconnect_sources=L(
            "bk:fabricCitation",
            O(
                "bk:fabricCitation",
                "bk:FabricCitation",
                interconnect_id=R("bk:interconnect", "interconnects"),
                source_id=R("bk:source", "sources"),
                quote=S("bk:quote"),
            ),
        ),
        aliases=L("skos:altLabel", S("skos:altLabel")),
        released=D("bk:released"),
        tdp_w=N("bk:tdpWatts"),
        peak_tflops=O(
            "bk:peakTflops", "bk:PeakThroughput", bf16=N("bk:tflopsBF16"), fp8=N("bk:tflopsFP8"), fp4=N("bk:tflopsFP4")
        ),
        spec_sources=O(
            "bk:specSources",
            "bk:SpecSources",
            memory_gb=R("bk:memorySource", "sources"),
            memory_bandwidth_tbs=R("bk:bandwidthSource", "sources"),
            tdp_w=R("bk:tdpSource", "sources"),
            peak_tflops=R("bk:peakSource", "sources"),
            released=R("bk:releasedSource", "sources"),
        ),
    ),
    "interconnects": _common(
        vendor_id=R("bk:vendor", "organizations"),
        kind=V("bk:interconnectKind", "interconnect-kind"),
        bandwidth_gbit_s=N("bk:bandwidthGbitPerSec"),
        aliases=L("skos:altLabel", S("skos:altLabel")),
    ),
    "engines": _common(vendor_id=R("bk:vendor", "organizations")),
    "formats": _common(bits=N("bk:bits")),
    "models": _common(
        publisher_id=R("bk:publisher", "organizations"),
        aliases=L("skos:altLabel", S("skos:altLabel")),  # the names texts use ("ResNet50", "Llama 405B")
        parameters_b=N("bk:parametersBillions"),
        active_parameters_b=N("bk:activeParametersBillions"),
        architecture=S("bk:architecture"),
        spec_sources=O(
            "bk:specSources",
            "bk:SpecSources",
            parameters_b=R("bk:parametersSource", "sources"),
            active_parameters_b=R("bk:activeParametersSource", "sources"),
        ),
    ),
    "organizations": _common(
        kind=Field("vocab", "bk:organizationKind", scheme="organization-kind", many=True),
    ),
    "suites": _common(
        family=V("bk:suiteFamily", "suite-family"),
        version=S("bk:version"),
        publisher_id=R("bk:publisher", "organizations"),
        released=D("bk:released"),
    ),
    "sources": _common(
        title=S("dcterms:title"),
        kind=V("bk:sourceKind", "source-kind"),
        publisher_id=R("bk:publisher", "organizations"),
        published=D("dcterms:issued"),
        retrieved=D("bk:retrieved"),
        license=Field("url", "dcterms:license"),
    ),
    "gotchas": {
        "id": S("dcterms:identifier"),
        "title": S("rdfs:label"),
        "statement": S("bk:statement"),
        "notes": S("skos:note"),
        "applies_to": O(
            "bk:appliesTo",
            "bk:Applicability",
            suites=L("bk:appliesToSuite", R("bk:appliesToSuite", "suites")),
            scenarios=L("bk:appliesToScenario", V("bk:appliesToScenario", "scenario")),
            metrics=L("bk:appliesToMetric", V("bk:appliesToMetric", "metric")),
            fields=L("bk:appliesToField", Field("field-name", "bk:appliesToField")),
            measured_by=L("bk:appliesToMeasuredBy", V("bk:appliesToMeasuredBy", "measured-by")),
            # true: only claims that restate no audited result (no bk:auditedBy: the vendor's own number)
            unaudited=B("bk:appliesToUnaudited"),
        ),
        "finding_shapes": L("bk:findingShape", Field("shape", "bk:findingShape")),
        "compares": O(
            "bk:compares",
            "bk:ComparisonRule",
            dimension=V("bk:dimension", "dimension"),
            between=L("bk:betweenValue", S("bk:betweenValue")),
            metrics=L("bk:comparesMetric", V("bk:comparesMetric", "metric")),
        ),
        "evidence_ids": L("bk:evidence", R("bk:evidence", "sources")),
        "severity": V("bk:severity", "severity"),
    },
}


def field_paths(fields: dict[str, Field] = BENCHMARK, prefix: str = "") -> dict[str, Field]:
    """Every field of a benchmark by dotted path (``load.concurrency``): the names
    ``omitted_by_source`` and a gotcha's ``applies_to.fields`` may use.

    >>> paths = field_paths()
    >>> paths["load.concurrency"].pred, paths["interconnect_ids"].pred, paths["points.ttft_ms"].pred
    ('bk:concurrency', 'bk:interconnect', 'bk:ttftMs')
    """
    out: dict[str, Field] = {}
    for name, spec in fields.items():
        out[prefix + name] = spec
        inner = spec.items if spec.type == "list" else spec
        if inner is not None and inner.type == "obj":
            out.update(field_paths(inner.fields, f"{prefix}{name}."))
    return out


BENCHMARK_FIELD_PATHS = field_paths()
