"""Epoch AI's ML hardware table (``ml_hardware.csv``) -> specs on accelerator records.

Rows are matched to records only through the reviewed accelerator table's aliases; a row no
record claims is counted and left alone. Specs fill fields a record lacks (curated values are
never overwritten) and add Epoch as a source. CC BY: credit Epoch AI.
"""
from __future__ import annotations

import csv
from pathlib import Path

from benchkg.kernel.errors import InputError, InputProblem
from benchkg.importers.common import ImportReport, accelerator_table, alias_index, read_record_json, slug, write_record

SOURCE_ID = "epoch-ml-hardware"
REQUIRED = ("Hardware name", "Memory (bytes)", "Memory bandwidth (byte/s)", "TDP (W)")


def _num(text: str, scale: float = 1.0):
    """A CSV cell as a JSON number in the given unit, or None.

    >>> _num("8000000000000.0", 1e-12), _num(""), _num("700")
    (8, None, 700)
    >>> _num("n/a")
    Traceback (most recent call last):
    ValueError: 'n/a' is not a number
    """
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = round(float(text) * scale, 3)
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:40]!r} is not a finite number")
    return int(value) if value == int(value) else value


#: Epoch's hardware table is ~100 kB; anything near this is another file
MAX_CSV_BYTES = 50_000_000


#: the numeric columns benchkg reads (FLOP/s, bytes, watts)
NUMERIC = ("Memory (bytes)", "Memory bandwidth (byte/s)", "TDP (W)", "Tensor-FP16/BF16 performance (FLOP/s)",
           "FP8 performance (FLOP/s)", "FP4 performance (FLOP/s)")


def _numbers(row: dict) -> None:
    """:raises ValueError: (message, column) for a numeric column that holds no number."""
    for column in NUMERIC:
        try:
            _num(row.get(column) or "")
        except ValueError as e:
            raise ValueError(str(e), column) from None


def import_epoch(csv_path: Path, out_dir: Path, report: ImportReport | None = None) -> ImportReport:
    """Add Epoch specs (memory, bandwidth, TDP, peak TFLOP/s by format, release date) to the
    accelerator records that exist in ``out_dir`` or that the reviewed table names.

    :raises InputError: if the file is not Epoch's hardware CSV.
    """
    csv_path, out_dir = Path(csv_path), Path(out_dir)
    report = report or ImportReport()
    if not csv_path.is_file():  # a folder, a FIFO or /dev/zero: nothing to read, or reading never ends
        raise InputError([InputProblem(csv_path, None, "", "not a regular file; pass Epoch's ml_hardware.csv")])
    if csv_path.stat().st_size > MAX_CSV_BYTES:
        raise InputError([InputProblem(csv_path, None, "", f"{csv_path.stat().st_size / 1e6:,.0f} MB is not Epoch's "
                                       f"ml_hardware.csv (under {MAX_CSV_BYTES // 10**6} MB)")])
    try:
        with open(csv_path, newline="", encoding="utf-8") as f:  # quoted newlines: a real CSV parser
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise InputError([InputProblem(csv_path, None, "", f"cannot read the CSV: {e}")]) from None
    missing = [c for c in REQUIRED if rows and c not in rows[0]]
    if not rows or missing:
        raise InputError([InputProblem(csv_path, 1, "", f"not Epoch's ml_hardware.csv (missing columns: {', '.join(missing) or 'all'})")])
    table = accelerator_table()
    aliases = alias_index(table)
    matched = 0
    for line, row in enumerate(rows, 2):
        try:
            _numbers(row)
        except ValueError as e:
            raise InputError([InputProblem(csv_path, line, f"/{e.args[1]}", f"{e.args[0]}; Epoch gives numbers in "
                                           "these columns (or leaves them empty)")]) from None
        acc_id = aliases.get(row["Hardware name"].strip().lower())
        if acc_id is None:
            report.skip("Epoch rows no accelerator record claims")
            continue
        spec = table[acc_id]
        rec = read_record_json(out_dir, "accelerators", acc_id) or {
            "id": acc_id, "name": spec["name"], "vendor_id": slug(spec["vendor"]), "kind": spec["kind"]}
        if read_record_json(out_dir, "organizations", rec.get("vendor_id", "")) is None and rec.get("vendor_id"):
            report.wrote("organizations", write_record(out_dir, "organizations", {"id": rec["vendor_id"], "name": spec["vendor"]}))
        values = {"memory_gb": _num(row["Memory (bytes)"], 1e-9), "memory_bandwidth_tbs": _num(row["Memory bandwidth (byte/s)"], 1e-12),
                  "tdp_w": _num(row["TDP (W)"])}
        cited = dict(rec.get("spec_sources", {}))  # which source gives each field: Epoch for what it adds
        for key, value in values.items():
            if value is not None and key not in rec:
                rec[key] = value
                cited[key] = SOURCE_ID
        tflops = {"bf16": _num(row.get("Tensor-FP16/BF16 performance (FLOP/s)", ""), 1e-12),
                  "fp8": _num(row.get("FP8 performance (FLOP/s)", ""), 1e-12),
                  "fp4": _num(row.get("FP4 performance (FLOP/s)", ""), 1e-12)}
        peak = dict(rec.get("peak_tflops", {}))
        added = {k: v for k, v in tflops.items() if v is not None and k not in peak}
        peak.update(added)
        if peak:
            rec["peak_tflops"] = peak
            if added:
                cited.setdefault("peak_tflops", SOURCE_ID)
        released = (row.get("Release date") or "").strip()[:10]
        if len(released) == 10 and "released" not in rec:
            rec["released"] = released
            cited["released"] = SOURCE_ID
        if cited:
            rec["spec_sources"] = {k: cited[k] for k in ("memory_gb", "memory_bandwidth_tbs", "tdp_w", "peak_tflops",
                                                          "released") if k in cited}
        rec["aliases"] = list(dict.fromkeys(rec.get("aliases", []) + [row["Hardware name"].strip()]))
        rec["source_ids"] = list(dict.fromkeys(rec.get("source_ids", []) + [SOURCE_ID]))
        report.wrote("accelerators", write_record(out_dir, "accelerators", rec))
        matched += 1
    if read_record_json(out_dir, "organizations", "epoch-ai") is None:
        report.wrote("organizations", write_record(out_dir, "organizations",
                                                   {"id": "epoch-ai", "name": "Epoch AI", "url": "https://epoch.ai/"}))
    if read_record_json(out_dir, "sources", SOURCE_ID) is None:
        report.wrote("sources", write_record(out_dir, "sources", {
            "id": SOURCE_ID, "name": "Epoch AI, Data on Machine Learning Hardware", "title": "Data on Machine Learning Hardware",
            "kind": "dataset", "publisher_id": "epoch-ai", "url": "https://epoch.ai/data/machine-learning-hardware",
            "license": "https://creativecommons.org/licenses/by/4.0/"}))
    report.imported["epoch accelerators"] = matched
    return report
