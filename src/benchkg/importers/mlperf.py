"""MLPerf Inference results (``summary_results.json`` + ``systems/**.json``) -> records.

One benchmark per result row (a CPU-only result counts its processors), one system per system
description, plus the accelerators, organisations, suite, models, formats, engines, interconnects and
the source they need. Names are resolved only
through the reviewed tables beside this file; what they do not know is reported, never guessed.

Long because one MLPerf round becomes records of nine kinds, and each reviewed name table is used
beside the rows that need it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

from benchkg.importers import common
from benchkg.importers.common import SAMPLES, TABLES, ImportReport, accelerator_table, alias_index, slug
from benchkg.importers.contract import Plain, Target
from benchkg.importers.mlperf_summary import is_summary_round, read_summary
from benchkg.importers.organizations import organization_record
from benchkg.kernel.errors import InputError, InputProblem
from benchkg.records.schema import DESCRIPTION_FIELDS

SCENARIOS = {
    "Offline": "offline",
    "Server": "server",
    "Interactive": "interactive",
    "SingleStream": "single-stream",
    "MultiStream": "multi-stream",
}
UNITS = {
    "Tokens/s": ("throughput", "tokens/s", "aggregate"),
    "Samples/s": ("throughput", "samples/s", "aggregate"),
    "Queries/s": ("throughput", "queries/s", "aggregate"),
    "Tasks/s": ("throughput", "tasks/s", "aggregate"),
    "Latency (ms)": ("latency", "ms", "per-query"),
    "Latency (s)": ("latency", "s", "per-query"),
}
FORMATS = {
    "fp4": "fp4",
    "mxfp4": "mxfp4",
    "fp8": "fp8",
    "float8": "fp8",
    "fp16": "fp16",
    "bf16": "bf16",
    "bfloat16": "bf16",
    "fp32": "fp32",
    "int8": "int8",
    "int4": "int4",
    "uint4": "int4",
}
FORMAT_NAMES = {
    "fp4": ("FP4", 4),
    "mxfp4": ("MXFP4", 4),
    "fp8": ("FP8", 8),
    "fp16": ("FP16", 16),
    "bf16": ("BF16", 16),
    "fp32": ("FP32", 32),
    "int8": ("INT8", 8),
    "int4": ("INT4", 4),
}
ENGINES = [
    ("tensorrt-llm", "TensorRT-LLM", r"tensorrt[- ]llm|trt[- ]llm"),
    ("vllm", "vLLM", r"\bvllm\b"),
    ("sglang", "SGLang", r"\bsglang\b"),
    ("openvino", "OpenVINO", r"openvino"),
    ("onnxruntime", "ONNX Runtime", r"onnx\s*runtime"),
]
SOURCES = {
    "4.1": ("https://github.com/mlcommons/inference_results_v4.1", "https://www.apache.org/licenses/LICENSE-2.0"),
    "5.1": ("https://github.com/mlcommons/inference_results_v5.1", None),
    "6.0": ("https://github.com/mlcommons/inference_results_v6.0", "https://www.apache.org/licenses/LICENSE-2.0"),
    "6.1": ("https://github.com/mlcommons/inference_results_v6.1", None),
}


def interconnect_rules() -> tuple[dict[str, Any], list[tuple[re.Pattern[str], list[str]]], set[str]]:
    table = json.loads((TABLES / "interconnects.json").read_text(encoding="utf-8"))
    rules = [(re.compile(r["pattern"], re.I), r["ids"]) for r in table["rules"]]
    return table["interconnects"], rules, set(table["none"])


def fabric_ids(
    text: str, rules: list[tuple[re.Pattern[str], list[str]]], none: set[str], report: ImportReport
) -> list[str]:
    """Interconnect ids a system-description text names (by the reviewed rules)."""
    text = (text or "").strip()
    if text in none or not text:
        return []
    ids = [i for pattern, out in rules if pattern.search(text) for i in out]
    if not ids:
        report.unknown(f"interconnect: {text}")
    return list(dict.fromkeys(ids))


def split_accelerators(text: str) -> list[tuple[str, int | None]]:
    """Heterogeneous 'A (x32), B (x16)' / 'A (x8) and B (x8)' -> [(name, count)].

    >>> split_accelerators("AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)")
    [('AMD Instinct MI300X 192GB HBM3', 32), ('AMD Instinct MI325X 256GB HBM3e', 16)]
    >>> split_accelerators("AMD Instinct MI355X 288GB HBM3e (Power Cap 1000 W)")
    [('AMD Instinct MI355X 288GB HBM3e', None)]
    >>> split_accelerators("NVIDIA H200-SXM-141GB + AMD Instinct MI350X 288GB HBM3e")
    [('NVIDIA H200-SXM-141GB', None), ('AMD Instinct MI350X 288GB HBM3e', None)]
    >>> split_accelerators("AMD Instinct MI300X 192GB HBM3 (x2x8) and AMD Instinct MI355X 288GB HBM3e (x2x8)")
    [('AMD Instinct MI300X 192GB HBM3', 16), ('AMD Instinct MI355X 288GB HBM3e', 16)]
    """
    parts = re.split(r",\s+(?=[A-Z])|\s+and\s+|\s+\+\s+", text)
    out = []
    for part in parts:
        m = re.search(r"\s*\(x(\d+)(?:x(\d+))?\)\s*$", part)  # v6.1 writes "(x2x8)": 2 nodes × 8
        count = int(m.group(1)) * int(m.group(2) or 1) if m else None
        name = re.sub(r"\s*\((x\d+(?:x\d+)?|Power Cap[^)]*)\)\s*$", "", part).strip()
        out.append((name, count))
    return out


def model_and_accuracy(model: str) -> tuple[str, str | None, str | None]:
    """(model id, accuracy tier, scenario override) of an MLPerf benchmark name.

    >>> model_and_accuracy("llama2-70b-99.9"), model_and_accuracy("llama2-70b-interactive-99")
    (('llama2-70b', '99.9', None), ('llama2-70b', '99', 'interactive'))
    """
    m = re.match(r"^(.*?)(?:-(99(?:\.9)?))?$", model)
    assert m is not None  # (the pattern matches any text)
    base, tier = m.group(1), m.group(2)
    if base.endswith("-interactive"):
        return base[: -len("-interactive")], tier, "interactive"
    return base, tier, None


def _number(value) -> int | float:
    """A JSON number as the source wrote it: whole numbers as int, others as the same float."""
    d = Decimal(str(value))
    return int(d) if d == d.to_integral_value() else float(str(value))


def _system_name(row: dict, system: dict | None) -> str:
    name = (row.get("System") or "").strip()
    if not name or name.startswith("("):  # v5.1 quirk: empty product name, e.g. " (4x GB200-186GB_aarch64, TensorRT)"
        name = (system or {}).get("system_name", "").strip() or row.get("Platform", "")
    return name


def _count(value) -> int | None:
    """A count the results or a system description state (8, "8", 8.0), or None if it states none."""
    try:
        return int(float(value)) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def system_id(version: str, row: dict) -> str:
    """The id of the system record of a result row: round, division, submitter and platform (one
    platform name can be described in both divisions of a round, differently).

    >>> system_id("4.1", {"Category": "closed", "Submitter": "NVIDIA", "Platform": "H200-SXM-141GB-CTSx8_TRT"})
    'mlperf-4.1-closed-nvidia-h200-sxm-141gb-ctsx8-trt'
    """
    return slug(f"mlperf-{version}-{row['Category']}-{row['Submitter']}-{row['Platform']}")


def _description(system: dict | None) -> dict:
    """The description fields benchkg keeps, verbatim as the submitter wrote them (empty ones left out)."""
    out = {}
    for name in DESCRIPTION_FIELDS:
        value = (system or {}).get(name)
        text = str(value).strip() if value is not None and not isinstance(value, (dict, list)) else ""
        if text:
            out[name] = text
    return out


def compute_device(row: dict, system: dict | None) -> tuple[list[tuple[str, int | None]], int | None, list[str]]:
    """What a result ran on: [(name, count from the Accelerator text)], the total count, and notes.

    A result without an accelerator is a CPU-only result: its compute device is its host processor,
    counted as nodes × processors per node. A result that names an accelerator but states no count,
    whose system description says 0 accelerators per node, ran on the processor's integrated GPU: it
    is counted on the processor too, and the note says so.

    >>> compute_device({"Accelerator": "", "Processor": "Intel(R) Xeon(R) 6980P", "Nodes": 1,
    ...                 "host_processors_per_node": 2, "p#": 2}, None)[:2]
    ([('Intel(R) Xeon(R) 6980P', None)], 2)
    """
    nodes = int(row.get("Nodes") or 1)
    accelerator = (row.get("Accelerator") or "").strip()
    total, per_node = row.get("Total Accelerators"), row.get("a#")
    count = (
        _count(total)
        if total not in (None, "")
        else (int(nodes * float(per_node)) if per_node not in (None, "") else None)
    )
    notes = []
    if accelerator and count is None and system and _count(system.get("accelerators_per_node")) == 0:
        notes.append(
            f"The Accelerator field names {accelerator!r} with no count, and the system description "
            f"says 0 accelerators per node: counted on the processor, whose integrated GPU ran it."
        )
        accelerator = ""
    if accelerator:
        return split_accelerators(accelerator), count, notes
    processors = _count(row.get("host_processors_per_node")) or _count(row.get("p#")) or 1
    notes.append("CPU-only result: the compute device is the host processor; accelerator_count counts processors.")
    return [((row.get("Processor") or "").strip(), None)], nodes * processors, notes


#: the columns of summary_results.json every row needs, and those that name folders of systems/
REQUIRED = (
    "ID",
    "Category",
    "Submitter",
    "Platform",
    "Model",
    "Scenario",
    "Suite",
    "Availability",
    "Performance_Result",
    "Performance_Units",
)
PATH_PARTS = ("Category", "Submitter", "Platform")


def check_rows(summary: Path, rows) -> None:
    """:raises InputError: unless ``rows`` is a list of result objects with the columns benchkg
    reads, as text (the result as a number), and folder names that stay inside ``systems/``.

    >>> check_rows(Path("s.json"), [{"ID": "4.1-0001"}])
    Traceback (most recent call last):
    benchkg.kernel.errors.InputError: s.json: /0: missing Category, Submitter, Platform, Model, Scenario, Suite, Availability, Performance_Result, Performance_Units; is this MLPerf's summary_results.json?
    """

    def check_row(n: int, row: dict) -> list[InputProblem]:
        problems = []
        for key in REQUIRED:
            number = key == "Performance_Result"
            if number and (
                isinstance(row[key], bool)
                or not isinstance(row[key], (int, float, str))
                or not re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", str(row[key]).strip())
            ):
                problems.append(InputProblem(summary, None, f"/{n}/{key}", f"{str(row[key])[:40]!r} is not a number"))
            elif not number and not isinstance(row[key], str):
                problems.append(InputProblem(summary, None, f"/{n}/{key}", "expected text"))
        for key in PATH_PARTS:
            if isinstance(row[key], str) and ("/" in row[key] or "\\" in row[key] or row[key] in (".", "..")):
                why = f"{row[key][:40]!r} names no folder of systems/ (a path is not a name)"
                problems.append(InputProblem(summary, None, f"/{n}/{key}", why))
        return problems

    common.check_rows(
        summary,
        rows,
        REQUIRED,
        check_row,
        rows_are="results",
        row_is="a result",
        hint="is this MLPerf's summary_results.json?",
    )


def _system_description(path: Path) -> dict | None:
    """A system description JSON (None when the round has none for the platform).

    :raises InputError: when the file is there but is not a JSON object.
    """
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, OSError) as e:
        raise InputError.at(path, None, "", f"not a system description (JSON): {e}") from None
    if not isinstance(data, dict):
        raise InputError.at(path, 1, "", "a system description is a JSON object")
    return data


@dataclass
class _Round:
    """What one round's import keeps as it goes: its ids, the reviewed tables, what the claims used."""

    version: str
    table: dict = field(default_factory=accelerator_table)
    aliases: dict = field(init=False)
    fabric_rules: tuple[dict[str, Any], list[tuple[re.Pattern[str], list[str]]], set[str]] = field(
        default_factory=interconnect_rules
    )
    used: dict = field(
        default_factory=lambda: {
            k: set() for k in ("accelerators", "organizations", "models", "formats", "engines", "interconnects")
        }
    )
    systems: dict = field(default_factory=dict)
    descriptions: dict = field(default_factory=dict)
    seen_ids: set = field(default_factory=set)

    def __post_init__(self):
        self.aliases = alias_index(self.table)

    suite_id = property(lambda self: f"mlperf-inference-v{self.version}")
    source_id = property(lambda self: f"mlperf-inference-v{self.version}-results")
    repo_url = property(lambda self: SOURCES.get(self.version, (None, None))[0])

    def unique_id(self, record_id: str) -> str:
        """``record_id``, or with -2, -3 … when a result id repeats in the round."""
        suffix, candidate = 2, record_id
        while candidate in self.seen_ids:
            candidate, suffix = f"{record_id}-{suffix}", suffix + 1
        self.seen_ids.add(candidate)
        return candidate


def _read_round(round_dir: Path) -> tuple[list[dict], str, dict[Path, dict]]:
    """The checked rows of a round's ``summary_results.json``, its version (``4.1``) and no system
    descriptions (they are read from ``systems/`` as the rows name them); for v6.1's ``summary.json``
    (:mod:`benchkg.importers.mlperf_summary`), its rows in the same columns and the system descriptions
    its rows carry, by the path a description file would have."""
    if is_summary_round(round_dir):
        rows, systems = read_summary(round_dir / "summary.json")
        return rows, "6.1", {_system_path(round_dir, *key): description for key, description in systems.items()}
    summary = round_dir / "summary_results.json"
    if not summary.is_file():
        raise InputError.at(
            round_dir, None, "", "no summary_results.json (or v6.1's summary.json): pass the folder of one MLPerf round"
        )
    try:
        rows = json.loads(summary.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError.at(summary, None, "", f"not JSON: {e}") from None
    check_rows(summary, rows)
    version = str(rows[0].get("version", "")).lstrip("v") if rows else ""
    if rows and not re.fullmatch(r"\d{1,3}(\.\d{1,3}){0,2}", version):  # it names files: 4.1, never ../..
        raise InputError.at(
            summary, None, "/0/version", f"{rows[0].get('version')!r} is not an MLPerf round number like v4.1"
        )
    return rows, version, {}


def read_round(round_dir: Path, target: Target) -> None:
    """Read one round (a folder with ``summary_results.json`` or ``summary.json``, and ``systems/``):
    one claim per result, one system record per system description the results name, and the
    records they refer to.

    :raises InputError: if the folder is not an MLPerf results round.
    """
    rows, version, descriptions = _read_round(round_dir)
    report = target.report
    state = _Round(version)
    state.descriptions.update(descriptions)
    count = cpu_only = 0
    for n, row in enumerate(rows, 1):
        target.tick(n, len(rows))
        rec = _claim(state, round_dir, row, report)
        if rec is None:
            continue
        target.write("benchmarks", rec)
        count += 1
        cpu_only += state.table[rec["accelerator_ids"][0]]["kind"] == "cpu"
    report.imported[f"v{version}"] = count
    if cpu_only:
        report.imported[f"v{version} CPU-only"] = cpu_only
    _write_support(target, version, state.suite_id, state.source_id, state.used, state.table, state.fabric_rules[0])
    for rec in state.systems.values():
        target.write("systems", rec)


IMPORTER = Plain(
    name="mlperf",
    reads="an MLPerf Inference round folder: summary_results.json (v4.1–v6.0) or summary.json (v6.1), and systems/",
    refuses="a folder without a summary, a summary of another shape, a round number it cannot read",
    sample=SAMPLES / "mlperf_inference_v6.0",
    read=read_round,
)


def _claim(state: _Round, round_dir: Path, row: dict, report: ImportReport) -> dict | None:
    """The claim record of one result row (and its system added to ``state``), or None when it is
    skipped (an unknown accelerator, no headline result, no count), with the reason in ``report``."""
    system_path = _system_path(round_dir, row["Category"], row["Submitter"], row["Platform"])
    if system_path not in state.descriptions:
        state.descriptions[system_path] = _system_description(system_path)
    system = state.descriptions[system_path]
    parts, accelerator_count, notes = compute_device(row, system)
    acc_ids: list[Any] = [state.aliases.get(name.lower()) for name, _ in parts]
    unit = UNITS.get(str(row.get("Performance_Units")))
    if _skipped(row, parts, acc_ids, unit, accelerator_count, report) or unit is None or accelerator_count is None:
        return None
    fabric = _fabric(state, system, report)
    system_type = row["Suite"].split(",") if "," in row["Suite"] else row["Suite"]
    mix = (
        [{"accelerator_id": acc, "count": c} for acc, (_, c) in zip(acc_ids, parts) if c]
        if len(parts) > 1 or parts[0][1] is not None
        else None
    )
    sid, nodes = system_id(state.version, row), int(row.get("Nodes") or 1)
    _add_system(state, sid, row, system, system_type, acc_ids, accelerator_count, mix, nodes, fabric)
    rec = _claim_fields(state, row, system, unit, system_type)
    rec.update(
        {
            "system_id": sid,
            "system_name": _system_name(row, system),
            "accelerator_ids": list(dict.fromkeys(acc_ids)),
            "accelerator_count": accelerator_count,
        }
    )
    if mix:
        rec["accelerator_mix"] = mix
    rec["node_count"] = nodes
    if fabric:
        rec["interconnect_ids"] = fabric
    _claim_provenance(state, row, system, rec, notes)
    state.used["accelerators"].update(acc_ids)
    state.used["organizations"].add((rec["submitter_id"], row["Submitter"]))
    state.used["models"].add(rec["model_id"])
    state.used["interconnects"].update(fabric)
    return rec


def _system_path(round_dir: Path, division: str, submitter: str, platform: str) -> Path:
    """Where a round's system description of a platform is (``systems/<division>/<submitter>/systems/``)."""
    return round_dir / "systems" / division / submitter / "systems" / f"{platform}.json"


def _skipped(row: dict, parts, acc_ids: list, unit, accelerator_count, report: ImportReport) -> bool:
    """Whether a result row is left out, with the reason in ``report``: a chip the reviewed table does
    not know, no headline result, or no accelerator count (an aggregate needs its count)."""
    if None in acc_ids:
        for (name, _), acc in zip(parts, acc_ids):
            if acc is None:
                report.unknown(f"accelerator: {name}")
        report.skip("accelerator or processor not in the reviewed table")
        return True
    if row.get("Performance_Result") in (None, ""):
        report.skip("no headline result")
        return True
    if unit is None:
        report.skip(
            f"unit {row.get('Performance_Units')!r} is none benchkg reads (tokens/s, samples/s, queries/s, tasks/s, ms, s)"
        )
        return True
    if not accelerator_count:
        report.skip(
            "accelerator count not stated (a# empty, no Total Accelerators, none in the system description): "
            "an aggregate needs its count"
        )
        return True
    return False


def _fabric(state: _Round, system: dict | None, report: ImportReport) -> list[str]:
    """The interconnects a system description names, through the reviewed rules (unknown text reported)."""
    fabric: list[str] = []
    if system:
        for key in ("accelerator_interconnect", "accelerator_host_interconnect", "host_networking"):
            _, rules, none = state.fabric_rules
            fabric += fabric_ids(system.get(key, ""), rules, none, report)
    return list(dict.fromkeys(fabric))


def _claim_fields(state: _Round, row: dict, system: dict | None, unit: tuple, system_type) -> dict:
    """A claim's id, title, run (suite, division, scenario, model, tier, format, engine)."""
    model, tier, scenario_override = model_and_accuracy(row["Model"])
    rec: dict = {
        "id": state.unique_id(slug(f"mlperf-{row['ID'].lstrip('v')}-{row['Model']}-{row['Scenario']}")),
        "title": f"{_system_name(row, system)}: {row['Model']} {row['Scenario']}, "
        f"MLPerf Inference v{state.version} {row['Category']}",
        "suite_id": state.suite_id,
        "division": row["Category"],
        "system_type": system_type,
        "availability": row["Availability"],
        "scenario": scenario_override or SCENARIOS.get(row["Scenario"]),
        "model_id": model,
    }
    if tier:
        rec["accuracy_target"] = tier
    published = str(row.get("weight_data_types") or "").strip()
    if published and published.upper() != "UNSET":  # as written, whether or not a format is read from it (issue 62)
        rec["weight_data_types"] = published
    fmt = FORMATS.get(published.lower())
    if fmt:
        rec["format_id"] = fmt
        state.used["formats"].add(fmt)
    engines = [e for e in ENGINES if re.search(e[2], row.get("Software") or "", re.I)]
    if len(engines) == 1:  # one engine named: that ran it; several or none: not guessed
        rec["engine_id"] = engines[0][0]
        state.used["engines"].add(engines[0])
    tps = re.search(r"TOKENS_PER_SAMPLE:\s*([\d.]+)", row.get("Accuracy") or "")
    if tps:
        rec["tokens_per_sample"] = _number(tps.group(1))
    return rec


def _claim_provenance(state: _Round, row: dict, system: dict | None, rec: dict, notes: list[str]) -> None:
    """The result (metric, value, unit, scope), who measured and submitted it, its source, the
    fields the source leaves out, and notes, added to ``rec``."""
    metric, unit_name, scope = UNITS[row["Performance_Units"]]
    rec.update({"metric": metric, "value": _number(row["Performance_Result"]), "unit": unit_name, "scope": scope})
    rec["power"] = {"measured": bool(row.get("has_power"))}
    rec["measured_by"] = "mlcommons"
    rec["submitter_id"] = slug(row["Submitter"])
    public = row.get("public_id", True)  # v6.1 has no public result numbers: its row is named by its folder
    quote = (
        f"{row['ID']} {row['Platform']} {row['Model']} {row['Scenario']}: "
        f"Performance_Result {row['Performance_Result']} {row['Performance_Units']}"
        if public
        else f"{row.get('Location') or row['ID']}: Result {row['Performance_Result']} {row['Performance_Units']}"
    )
    rec["sources"] = [{"source_id": state.source_id, "quote": quote}]
    if public:
        rec["mlperf_result_id"] = row["ID"]
    rec["inferred"] = bool(row.get("inferred"))
    rec["omitted_by_source"] = (
        ["parallelism", "fabric_exercised"]
        + (["power.watts"] if row.get("has_power") else [])
        + ([] if public else ["mlperf_result_id"])
    )
    # two counts that disagree (the Accelerator field's x87, Total Accelerators' 88) stay data: the mix
    # keeps the one, accelerator_count the other, and the shape mix-states-another-count says so
    if "Virtualized" in row["Accelerator"]:
        notes.append("Virtualized accelerators.")
    cap = re.search(r"\(Power Cap ([^)]*)\)", row["Accelerator"])
    if cap:
        rec["clock_state"] = f"power cap {cap.group(1)}"
    listed = (row.get("System") or "").strip()
    if (
        system
        and system.get("system_name", "").strip()
        and system["system_name"].strip() != listed
        and not listed.startswith("(")
    ):
        notes.append(f"The system description now names it {system['system_name'].strip()!r}.")
    if notes:
        rec["notes"] = " ".join(notes)


def _add_system(
    state: _Round,
    sid: str,
    row: dict,
    system: dict | None,
    system_type,
    acc_ids: list[str],
    count: int,
    mix,
    nodes: int,
    fabric: list[str],
) -> None:
    """Record the system a result ran on (once per system; its count is the largest any result used)."""
    systems, suite_id, source_id, repo_url = state.systems, state.suite_id, state.source_id, state.repo_url
    if sid in systems:
        systems[sid]["accelerator_count"] = max(systems[sid]["accelerator_count"], count)
        return
    processors = _count(row.get("host_processors_per_node")) or _count(row.get("p#"))
    rec: dict = {
        "id": sid,
        "name": _system_name(row, system),
        "submitter_id": slug(row["Submitter"]),
        "suite_id": suite_id,
        "division": row["Category"],
        "system_type": system_type,
        "availability": row["Availability"],
        "accelerator_ids": list(dict.fromkeys(acc_ids)),
        "accelerator_count": count,
    }
    if mix:
        rec["accelerator_mix"] = mix
    rec["node_count"] = nodes
    if (row.get("Processor") or "").strip():
        rec["host_processor"] = row["Processor"].strip()
    if processors:
        rec["host_processor_count"] = nodes * processors
    if fabric:
        rec["interconnect_ids"] = fabric
    description = _description(system)
    if description:
        rec["description"] = description
    if repo_url and system is not None:
        path = "/".join(
            quote(part) for part in (row["Category"], row["Submitter"], "systems", f"{row['Platform']}.json")
        )
        rec["url"] = f"{repo_url}/blob/main/{path}"  # "Orrick Industries LLC" is a folder name: spaces escaped
    rec["source_ids"] = [source_id]
    systems[sid] = rec


def _write_support(target: Target, version, suite_id, source_id, used, table, fabrics) -> None:
    """The suite, source, organisations, models, formats, engines, interconnects and accelerators the
    benchmarks refer to; existing records are extended (aliases, variant_of), never overwritten. A
    system description's fabric goes on its system record, never on an accelerator: a chip's fabric
    is its maker's specification, which a curator cites (``interconnect_sources``)."""
    w = target.write
    if target.existing("organizations", "mlcommons") is None:
        w("organizations", organization_record("mlcommons", "MLCommons", url="https://mlcommons.org/"))
    w(
        "suites",
        {
            "id": suite_id,
            "name": f"MLPerf Inference v{version}",
            "family": "mlperf-inference",
            "version": version,
            "publisher_id": "mlcommons",
        },
    )
    url, licence = SOURCES.get(version, (None, None))
    source = {
        "id": source_id,
        "name": f"MLPerf Inference v{version} results and system descriptions",
        "title": f"mlcommons/inference_results_v{version}: summary_results.json and systems/",
        "kind": "results",
        "publisher_id": "mlcommons",
    }
    if url:
        source["url"] = url
    if licence:
        source["license"] = licence
    w("sources", source)
    _write_named(target, used, fabrics)
    _write_accelerators(target, used, table, source_id)


def _write_named(target: Target, used: dict, fabrics: dict) -> None:
    """The organisations, models, formats, engines and interconnects the claims name, where missing."""
    w = target.write
    for org_id, name in sorted(used["organizations"]):
        if target.existing("organizations", org_id) is None:
            w("organizations", organization_record(org_id, name))
    for model in sorted(used["models"]):
        if target.existing("models", model) is None:
            w("models", {"id": model, "name": model})
    for fmt in sorted(used["formats"]):
        if target.existing("formats", fmt) is None:
            name, bits = FORMAT_NAMES[fmt]
            w("formats", {"id": fmt, "name": name, "bits": bits})
    for engine_id, name, _ in sorted(used["engines"]):
        if target.existing("engines", engine_id) is None:
            w("engines", {"id": engine_id, "name": name})
    for ic in sorted(used["interconnects"]):
        if target.existing("interconnects", ic) is None:
            spec = fabrics[ic]
            rec = {"id": ic, "name": spec["name"]}
            if spec.get("vendor"):
                rec["vendor_id"] = slug(spec["vendor"])
            rec["kind"] = spec["kind"]
            w("interconnects", rec)


def _write_accelerators(target: Target, used: dict, table: dict, source_id: str) -> None:
    """Each accelerator the claims name, from the reviewed table: added, or extended with its aliases,
    variant and this source (a curated field is never overwritten)."""
    w = target.write
    for acc in sorted(used["accelerators"]):
        spec = table[acc]
        vendor = slug(spec["vendor"])
        if target.existing("organizations", vendor) is None:
            w("organizations", organization_record(vendor, spec["vendor"]))
        rec = target.existing("accelerators", acc) or {
            "id": acc,
            "name": spec["name"],
            "vendor_id": vendor,
            "kind": spec["kind"],
        }
        if "memory_gb" in spec and "memory_gb" not in rec:
            rec["memory_gb"] = spec["memory_gb"]
        if "variant_of" in spec and "variant_of_id" not in rec:
            rec["variant_of_id"] = spec["variant_of"]
        rec["aliases"] = list(dict.fromkeys(rec.get("aliases", []) + spec["aliases"]))
        rec["source_ids"] = list(dict.fromkeys(rec.get("source_ids", []) + [source_id]))
        if "notes" in spec and "notes" not in rec:
            rec["notes"] = spec["notes"]
        w("accelerators", rec)
