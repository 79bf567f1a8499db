"""``benchkg import inferencex FILE``: a user's own InferenceX results export → claims with curves.

InferenceX (SemiAnalysis) runs serving sweeps: for each configuration — chip, serving framework,
precision, speculative decoding, the prefill/decode layout and whether they are disaggregated, input
and output lengths — one row per client concurrency with tokens/s per GPU, interactivity (tokens/s
per user) and latencies. Each configuration becomes one claim (suite ``inferencex``, scenario
``endpoints``: a served endpoint at fixed concurrencies, ``measured_by`` third-party) whose points are
its rows; a configuration run on several dates keeps its newest run.

What the numbers are, and where they are divided:

- ``tput_per_gpu`` is input + output tokens/s over **all** the run's GPUs (prefill + decode when
  disaggregated); a point keeps it as ``total_tps`` (× the GPU count, the system's tokens/s) and the
  claim's headline is the highest, per accelerator, exactly as published.
- ``output_tput_per_gpu`` divides by the **decode** GPUs only. A point's ``system_tps`` is the system's
  output tokens/s (× the decode GPUs), so benchkg's output tokens/s per GPU divides by prefill + decode
  GPUs like every other per-GPU figure, and the claim's notes say so.
- ``tps_per_user`` is the median interactivity, ``ttft_ms`` the median time to first token (percentile 50).

The export is GPL-licensed data of its publisher: import your own copy; benchkg ships none of it.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path

from benchkg.importers import common
from benchkg.importers.common import SAMPLES, ImportReport, slug
from benchkg.importers.contract import Plain, Target
from benchkg.importers.organizations import organization_record
from benchkg.kernel.errors import InputError, InputProblem
from benchkg.records.reader import bounded_number

#: InferenceX's hardware keys, models, frameworks and precisions → benchkg's records
HARDWARE = {
    "b200": "nvidia-b200-sxm-180gb",
    "b300": "nvidia-b300-sxm-270gb",
    "gb200": "nvidia-gb200",
    "gb300": "nvidia-gb300",
    "h100": "nvidia-h100-sxm",
    "h200": "nvidia-h200-sxm-141gb",
    "mi300x": "amd-instinct-mi300x",
    "mi325x": "amd-instinct-mi325x",
    "mi355x": "amd-instinct-mi355x",
}
MODELS = {"dsr1": "deepseek-r1", "gptoss": "gpt-oss-120b", "gpt-oss-120b": "gpt-oss-120b", "llama70b": "llama2-70b"}
ENGINES = {
    "trt": "tensorrt-llm",
    "dynamo-trt": "tensorrt-llm",
    "sglang": "sglang",
    "dynamo-sglang": "sglang",
    "mori-sglang": "sglang",
    "vllm": "vllm",
}
FORMATS = {"fp4": "fp4", "fp8": "fp8", "bf16": "bf16", "fp16": "fp16"}
#: the fields that make a configuration (a claim); its rows differ by concurrency (and date)
CONFIGURATION = (
    "hardware",
    "framework",
    "model",
    "precision",
    "spec_method",
    "disagg",
    "is_multinode",
    "prefill_tp",
    "prefill_ep",
    "prefill_dp_attention",
    "prefill_num_workers",
    "decode_tp",
    "decode_ep",
    "decode_dp_attention",
    "decode_num_workers",
    "num_prefill_gpu",
    "num_decode_gpu",
    "isl",
    "osl",
)
REQUIRED = (
    "hardware",
    "framework",
    "model",
    "precision",
    "isl",
    "osl",
    "conc",
    "num_prefill_gpu",
    "num_decode_gpu",
    "metrics",
)
METRICS = ("tput_per_gpu", "median_intvty")  # required; output_tput_per_gpu and median_ttft when given
SUITE = {
    "id": "inferencex",
    "name": "InferenceX",
    "family": "inferencex",
    "version": "nightly",
    "publisher_id": "semianalysis",
    "notes": "SemiAnalysis InferenceX: nightly serving sweeps of open-weight models across chips and frameworks; "
    "each configuration's rows form a throughput-interactivity curve.",
}
PUBLISHER = organization_record("semianalysis", "SemiAnalysis", url="https://semianalysis.com/")
MAX_BYTES = 200_000_000


def check_rows(path: Path, rows) -> None:
    """:raises InputError: unless ``rows`` is a list of InferenceX benchmark rows, naming the row and key.

    >>> check_rows(Path("x.json"), [{"hardware": "b200"}])
    Traceback (most recent call last):
    benchkg.kernel.errors.InputError: x.json: /0: missing framework, model, precision, isl, osl, conc, num_prefill_gpu, num_decode_gpu, metrics; is this an InferenceX benchmarks export?
    """

    def check_row(n: int, row: dict) -> list[InputProblem]:
        problems = []
        for key in ("hardware", "framework", "model", "precision"):
            if not isinstance(row[key], str):
                problems.append(InputProblem(path, None, f"/{n}/{key}", "expected text"))
        for key in ("isl", "osl", "conc", "num_prefill_gpu", "num_decode_gpu"):
            if isinstance(row[key], bool) or not isinstance(row[key], int) or row[key] < 0:
                problems.append(InputProblem(path, None, f"/{n}/{key}", f"{str(row[key])[:40]!r} is not a count"))
            else:
                problems += _unreadable(path, f"/{n}/{key}", str(row[key]))
        date = row.get("date")
        if date is not None and not _is_date(date):
            problems.append(InputProblem(path, None, f"/{n}/date", f"{str(date)[:40]!r} is not a date (YYYY-MM-DD)"))
        metrics = row["metrics"]
        if not isinstance(metrics, dict):
            return problems + [InputProblem(path, None, f"/{n}/metrics", "expected an object of metrics")]
        for key in METRICS + ("output_tput_per_gpu", "median_ttft"):
            value = metrics.get(key)
            if value is None and key not in METRICS:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value < math.inf or value < 0:
                problems.append(
                    InputProblem(path, None, f"/{n}/metrics/{key}", f"{str(value)[:40]!r} is not a non-negative number")
                )
            else:
                problems += _unreadable(path, f"/{n}/metrics/{key}", repr(value))
        return problems

    common.check_rows(
        path,
        rows,
        REQUIRED,
        check_row,
        rows_are="benchmark rows",
        row_is="a benchmark row",
        hint="is this an InferenceX benchmarks export?",
    )


def _unreadable(path: Path, pointer: str, text: str) -> list[InputProblem]:
    """The problem of a number benchkg could write but not read back (:func:`bounded_number`), if any."""
    try:
        bounded_number(text)
    except ValueError as e:
        return [InputProblem(path, None, pointer, f"{e}; benchkg could not read the record back")]
    return []


def _is_date(value) -> bool:
    """Whether ``value`` is a calendar date as records write it.

    >>> _is_date("2025-10-14"), _is_date("yesterday"), _is_date("2025-02-30"), _is_date(20251014)
    (True, False, False, False)
    """
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _number(value) -> Decimal:
    """A JSON number exactly as written (0.1 is 0.1, not its binary neighbour)."""
    try:
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:  # pragma: no cover - check_rows has refused it
        raise ValueError(value) from None


def _json_number(value: Decimal):
    """A whole number as int, any other exactly as its digits (record_text writes a Decimal verbatim)."""
    return int(value) if value == value.to_integral_value() else value.normalize()


def _gpus(row: dict) -> tuple[int, int]:
    """(all GPUs of the run, the decode GPUs), counted as InferenceX counts them when it divides
    (``utils/process_result.py``): disaggregated, prefill + decode GPUs; on one node, the tensor-parallel
    size, its ``tput_per_gpu`` being total ÷ TP (expert parallelism runs on the same GPUs). An export
    row of one node whose ``num_*_gpu`` say more (64 for TP8 EP8 on an 8-GPU node) states another count:
    :func:`_stated_gpus` keeps it, and the claim's ``accelerator_mix`` says so (a finding).

    >>> _gpus({"disagg": False, "is_multinode": False, "decode_tp": 8, "decode_ep": 8, "num_decode_gpu": 64, "num_prefill_gpu": 64})
    (8, 8)
    >>> _gpus({"disagg": True, "is_multinode": True, "decode_tp": 8, "num_decode_gpu": 16, "num_prefill_gpu": 8})
    (24, 16)
    """
    if row.get("disagg"):
        return row["num_prefill_gpu"] + row["num_decode_gpu"], row["num_decode_gpu"]
    tp = row.get("decode_tp")
    if row.get("is_multinode") is False and isinstance(tp, int) and not isinstance(tp, bool) and tp > 0:
        return tp, tp
    return _stated_gpus(row), _stated_gpus(row)


def _stated_gpus(row: dict) -> int:
    """The GPUs an aggregated row's own ``num_*_gpu`` fields state."""
    return max(row["num_decode_gpu"], row["num_prefill_gpu"])


def claim_id(row: dict) -> str:
    """The id of a configuration's claim: every field that tells configurations apart, readably.

    >>> claim_id({"model": "dsr1", "hardware": "b200", "framework": "trt", "precision": "fp4", "isl": 1024, "osl": 1024,
    ...           "spec_method": "none", "disagg": False, "decode_tp": 8, "decode_ep": 1, "num_decode_gpu": 8,
    ...           "num_prefill_gpu": 8})
    'inferencex-dsr1-b200-trt-fp4-1k1k-g8-tp8-ep1'
    """

    def k(n: int) -> str:
        return f"{n // 1024}k" if n % 1024 == 0 else str(n)

    parts = [
        "inferencex",
        row["model"],
        row["hardware"],
        row["framework"],
        row["precision"],
        f"{k(row['isl'])}{k(row['osl'])}",
    ]
    if row.get("spec_method") not in (None, "", "none"):
        parts.append(str(row["spec_method"]))
    if row.get("disagg"):
        parts += [
            f"p{row['num_prefill_gpu']}x{row.get('prefill_num_workers', 0)}-tp{row.get('prefill_tp')}-ep{row.get('prefill_ep')}",
            f"d{row['num_decode_gpu']}x{row.get('decode_num_workers', 0)}-tp{row.get('decode_tp')}-ep{row.get('decode_ep')}",
        ]
    else:
        parts += [f"g{_gpus(row)[0]}", f"tp{row.get('decode_tp')}", f"ep{row.get('decode_ep')}"]
    if row.get("decode_dp_attention") or row.get("prefill_dp_attention"):
        parts.append("dpa")
    if row.get("is_multinode"):
        parts.append("multinode")
    return slug("-".join(str(p) for p in parts))


def _points(rows: list[dict]) -> list[dict]:
    points = []
    for row in sorted(rows, key=lambda r: r["conc"]):
        m, (gpus, decode) = row["metrics"], _gpus(row)
        point = {"concurrency": row["conc"]}
        if m.get("output_tput_per_gpu") is not None:  # two rows of the 2026-06 snapshot give none
            point["system_tps"] = _json_number(_number(m["output_tput_per_gpu"]) * decode)
        point.update(
            {
                "total_tps": _json_number(_number(m["tput_per_gpu"]) * gpus),
                "tps_per_user": _json_number(_number(m["median_intvty"])),
            }
        )
        if m.get("median_ttft") is not None:
            point["ttft_ms"] = _json_number(_number(m["median_ttft"]) * 1000)
            point["ttft_percentile"] = 50
        points.append(point)
    return points


def _claim(cid: str, rows: list[dict], source_id: str) -> dict:
    """A configuration's claim: its run, its headline (the highest tokens/s per GPU of its points),
    every point, the source quoted at the headline and a note on how the figures are counted."""
    row = rows[0]
    gpus, decode = _gpus(row)
    best = max(rows, key=lambda r: _number(r["metrics"]["tput_per_gpu"]))
    record = _run(cid, row, gpus)
    record.update(
        {
            "metric": "throughput",
            "value": _json_number(_number(best["metrics"]["tput_per_gpu"])),
            "unit": "tokens/s",
            "scope": "per-accelerator",
            "points": _points(rows),
            "measured_by": "third-party",
            "submitter_id": "semianalysis",
        }
    )
    if row.get("date"):
        record["updated"] = row["date"]
    record["sources"] = [
        {
            "source_id": source_id,
            "quote": f"{best.get('run_url') or row['hardware']}: conc {best['conc']}, tput_per_gpu "
            f"{best['metrics']['tput_per_gpu']}, median_intvty {best['metrics']['median_intvty']}",
        }
    ]
    record["omitted_by_source"] = ["fabric_exercised"] + ([] if "node_count" in record else ["node_count"])
    split = " (prefill + decode), where InferenceX's output_tput_per_gpu divides by the decode GPUs only"
    record["notes"] = (
        "InferenceX's tput_per_gpu counts input and output tokens over all the run's GPUs; the headline "
        f"is the highest, at concurrency {best['conc']}. Each point's system_tps is output tokens/s of the whole "
        f"system (output_tput_per_gpu × {decode} decode GPUs); benchkg's per-GPU figures divide by all {gpus} GPUs"
        f"{split if row.get('disagg') else ''}."
    )
    if "accelerator_mix" in record:  # _run found the export's count is another than the GPUs counted
        record["notes"] += (
            f" The export's num_decode_gpu states {_stated_gpus(row)} GPUs on one node, but InferenceX divides "
            f"by the tensor-parallel size (TP{gpus}, expert parallelism on the same GPUs): counted {gpus}; "
            "accelerator_mix keeps the stated count."
        )
    return record


def _run(cid: str, row: dict, gpus: int) -> dict:
    """What ran: id and title, suite, model, format, engine, sequence lengths, chips, layout."""
    layout = (
        f"disaggregated: {row['num_prefill_gpu']} prefill + {row['num_decode_gpu']} decode GPUs"
        if row.get("disagg")
        else f"{gpus} GPUs, TP{row.get('decode_tp')} EP{row.get('decode_ep')}"
    )
    spec = row.get("spec_method") if row.get("spec_method") not in (None, "", "none") else None
    record: dict = {
        "id": cid,
        "title": f"InferenceX: {row['model']} {row['isl']}/{row['osl']} on {row['hardware'].upper()} ({row['framework']}, "
        f"{row['precision']}{', ' + spec if spec else ''}; {layout}), {row.get('date') or 'undated'}",
        "suite_id": "inferencex",
        "scenario": "endpoints",
        "model_id": MODELS[row["model"]],
        "format_id": FORMATS[row["precision"]],
    }
    if row["framework"] in ENGINES:
        record["engine_id"] = ENGINES[row["framework"]]
    record.update(
        {
            "framework": row["framework"],
            "speculative_decoding": row.get("spec_method") or "none",
            "input_length": row["isl"],
            "output_length": row["osl"],
            "accelerator_ids": [HARDWARE[row["hardware"]]],
            "accelerator_count": gpus,
        }
    )
    if row.get("is_multinode") is False:
        record["node_count"] = 1
    if not row.get("disagg") and _stated_gpus(row) != gpus:  # the export states two counts: say both
        record["accelerator_mix"] = [{"accelerator_id": HARDWARE[row["hardware"]], "count": _stated_gpus(row)}]
    if isinstance(row.get("decode_tp"), int) and isinstance(row.get("decode_ep"), int):
        record["parallelism"] = {"tensor": row["decode_tp"], "expert": row["decode_ep"]}
    record["disaggregated"] = bool(row.get("disagg"))
    return record


def read_inferencex(path: Path, target: Target) -> None:
    """Read one InferenceX benchmarks export (a JSON list of rows).

    :raises InputError: for a file that is not such an export, naming the row and key at fault.
    """
    report = target.report
    rows = _read_rows(path)
    source_id = slug(f"inferencex-export-{path.stem}")
    claims = _claims(_configurations(rows, report, target.tick), report)
    if claims:
        _write_support(target, path, source_id)
    for cid, group in sorted(claims.items()):
        target.write("benchmarks", _claim(cid, group, source_id))
    report.imported["inferencex configurations"] = len(claims)
    report.imported["inferencex points"] = sum(len(g) for g in claims.values())


IMPORTER = Plain(
    name="inferencex",
    reads="your own InferenceX benchmarks export (a JSON list of rows; GPL data, never shipped by benchkg)",
    refuses="a file that is not such a list: a row missing a key, a number it cannot read",
    sample=SAMPLES / "inferencex" / "benchmarks.json",
    read=read_inferencex,
)


def _read_rows(path: Path) -> list[dict]:
    """The checked rows of an export.

    :raises InputError: for a file that is not an InferenceX export, naming the row and key at fault.
    """
    if not path.is_file():
        raise InputError.at(path, None, "", "not a regular file; pass an InferenceX benchmarks JSON export")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise InputError.at(
            path, None, "", f"{size / 1e6:,.0f} MB is not an InferenceX export (under {MAX_BYTES // 10**6} MB)"
        )
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError.at(path, None, "", f"not JSON: {e}") from None
    except RecursionError:
        raise InputError.at(
            path, None, "", "nested too deep to be an InferenceX export (a list of flat rows)"
        ) from None
    check_rows(path, rows)
    return rows


def _configurations(rows: list[dict], report: ImportReport, progress) -> dict[tuple, list[dict]]:
    """The rows benchkg has records for, grouped by configuration (the rest reported, not guessed)."""
    configurations: dict[tuple, list[dict]] = {}
    for n, row in enumerate(rows, 1):
        if progress:
            progress(n, len(rows))
        if row["hardware"] not in HARDWARE:
            report.unknown(f"hardware: {row['hardware']}")
            report.skip("hardware no accelerator record names")
            continue
        if row["model"] not in MODELS or row["precision"] not in FORMATS:
            report.unknown(f"model or precision: {row['model']} {row['precision']}")
            report.skip("model or precision benchkg has no record of")
            continue
        configurations.setdefault(tuple(json.dumps(row.get(k)) for k in CONFIGURATION), []).append(row)
    return configurations


def _claims(configurations: dict[tuple, list[dict]], report: ImportReport) -> dict[str, list[dict]]:
    """One claim per configuration, by id: the points of its newest run (older runs reported)."""
    claims: dict[str, list[dict]] = {}
    for group in configurations.values():
        newest = max(str(r.get("date") or "") for r in group)
        kept = [r for r in group if str(r.get("date") or "") == newest]
        for _ in range(len(group) - len(kept)):
            report.skip("an older run of a configuration imported from its newest run")
        cid = claim_id(kept[0])
        stem, k = cid, 2
        while cid in claims:
            cid, k = f"{stem}-{k}", k + 1
        claims[cid] = kept
    return claims


def _write_support(target: Target, path: Path, source_id: str) -> None:
    """The publisher and suite when the data has not got them, and this export as a source."""
    if target.existing("organizations", "semianalysis") is None:
        target.write("organizations", PUBLISHER)
    if target.existing("suites", "inferencex") is None:
        target.write("suites", SUITE)
    source = {
        "id": source_id,
        "name": f"InferenceX benchmarks export {path.name}",
        "kind": "dataset",
        "publisher_id": "semianalysis",
        "url": "https://inferencex.semianalysis.com/",
        "notes": "A user's own export of InferenceX benchmark rows (the dashboard API's format); GPL-licensed "
        "data of its publisher, imported here, never shipped by benchkg.",
    }
    target.write("sources", source)
