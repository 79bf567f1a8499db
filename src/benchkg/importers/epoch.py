"""Epoch AI's ML hardware table (``ml_hardware.csv``) -> specs on accelerator records.

Rows are matched to records only through the reviewed accelerator table's aliases; a row no
record claims is counted and left alone. Specs fill fields a record lacks (curated values are
never overwritten) and add Epoch as a source. CC BY: credit Epoch AI.
"""

from __future__ import annotations

import csv
from pathlib import Path

from benchkg.importers.common import SAMPLES, accelerator_table, alias_index, slug
from benchkg.importers.contract import Plain, Target
from benchkg.importers.organizations import organization_record
from benchkg.kernel.errors import InputError

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
NUMERIC = (
    "Memory (bytes)",
    "Memory bandwidth (byte/s)",
    "TDP (W)",
    "Tensor-FP16/BF16 performance (FLOP/s)",
    "FP8 performance (FLOP/s)",
    "FP4 performance (FLOP/s)",
)


def _numbers(row: dict) -> None:
    """:raises ValueError: (message, column) for a numeric column that holds no number."""
    for column in NUMERIC:
        try:
            _num(row.get(column) or "")
        except ValueError as e:
            raise ValueError(str(e), column) from None


def read_epoch(csv_path: Path, target: Target) -> None:
    """Add Epoch specs (memory, bandwidth, TDP, peak TFLOP/s by format, release date) to the
    accelerator records that the folder holds or that the reviewed table names.

    :raises InputError: if the file is not Epoch's hardware CSV.
    """
    report = target.report
    rows = _read_rows(csv_path)
    table = accelerator_table()
    aliases = alias_index(table)
    matched = 0
    for row in rows:
        acc_id = aliases.get(row["Hardware name"].strip().lower())
        if acc_id is None:
            report.skip("Epoch rows no accelerator record claims")
            continue
        spec = table[acc_id]
        rec = target.existing("accelerators", acc_id) or {
            "id": acc_id,
            "name": spec["name"],
            "vendor_id": slug(spec["vendor"]),
            "kind": spec["kind"],
        }
        if rec.get("vendor_id") and target.existing("organizations", rec["vendor_id"]) is None:
            target.write("organizations", organization_record(rec["vendor_id"], spec["vendor"]))
        _add_specs(rec, row)
        target.write("accelerators", rec)
        matched += 1
    _write_support(target)
    report.imported["epoch accelerators"] = matched


IMPORTER = Plain(
    name="epoch",
    reads="Epoch AI's ml_hardware.csv (Data on Machine Learning Hardware): chip specifications",
    refuses="a file that is not that CSV: another header, a number it cannot read, more than 50 MB",
    sample=SAMPLES / "epoch_ml_hardware" / "ml_hardware.csv",
    read=read_epoch,
)


def _read_rows(csv_path: Path) -> list[dict]:
    """The rows of Epoch's hardware CSV, every number checked.

    :raises InputError: naming the line and column of the first that is not Epoch's.
    """
    if not csv_path.is_file():  # a folder, a FIFO or /dev/zero: nothing to read, or reading never ends
        raise InputError.at(csv_path, None, "", "not a regular file; pass Epoch's ml_hardware.csv")
    size = csv_path.stat().st_size
    if size > MAX_CSV_BYTES:
        raise InputError.at(
            csv_path,
            None,
            "",
            f"{size / 1e6:,.0f} MB is not Epoch's ml_hardware.csv (under {MAX_CSV_BYTES // 10**6} MB)",
        )
    try:
        with open(csv_path, newline="", encoding="utf-8") as f:  # quoted newlines: a real CSV parser
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise InputError.at(csv_path, None, "", f"cannot read the CSV: {e}") from None
    missing = [c for c in REQUIRED if rows and c not in rows[0]]
    if not rows or missing:
        raise InputError.at(
            csv_path, 1, "", f"not Epoch's ml_hardware.csv (missing columns: {', '.join(missing) or 'all'})"
        )
    for line, row in enumerate(rows, 2):
        try:
            _numbers(row)
        except ValueError as e:
            why = f"{e.args[0]}; Epoch gives numbers in these columns (or leaves them empty)"
            raise InputError.at(csv_path, line, f"/{e.args[1]}", why) from None
    return rows


def _add_specs(rec: dict, row: dict) -> None:
    """Epoch's figures for the fields ``rec`` does not give yet, each cited in ``spec_sources``
    (a figure the record has from another source stays, with its source)."""
    values = {
        "memory_gb": _num(row["Memory (bytes)"], 1e-9),
        "memory_bandwidth_tbs": _num(row["Memory bandwidth (byte/s)"], 1e-12),
        "tdp_w": _num(row["TDP (W)"]),
    }
    cited = dict(rec.get("spec_sources", {}))  # which source gives each field: Epoch for what it adds
    for key, value in values.items():
        if value is not None and key not in rec:
            rec[key] = value
            cited[key] = SOURCE_ID
    tflops = {
        "bf16": _num(row.get("Tensor-FP16/BF16 performance (FLOP/s)", ""), 1e-12),
        "fp8": _num(row.get("FP8 performance (FLOP/s)", ""), 1e-12),
        "fp4": _num(row.get("FP4 performance (FLOP/s)", ""), 1e-12),
    }
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
        order = ("memory_gb", "memory_bandwidth_tbs", "tdp_w", "peak_tflops", "released")
        rec["spec_sources"] = {k: cited[k] for k in order if k in cited}
    rec["aliases"] = list(dict.fromkeys(rec.get("aliases", []) + [row["Hardware name"].strip()]))
    rec["source_ids"] = list(dict.fromkeys(rec.get("source_ids", []) + [SOURCE_ID]))


def _write_support(target: Target) -> None:
    """Epoch AI and its dataset as an organisation and a source, when the data has not got them."""
    if target.existing("organizations", "epoch-ai") is None:
        target.write("organizations", organization_record("epoch-ai", "Epoch AI", url="https://epoch.ai/"))
    if target.existing("sources", SOURCE_ID) is None:
        source = {
            "id": SOURCE_ID,
            "name": "Epoch AI, Data on Machine Learning Hardware",
            "title": "Data on Machine Learning Hardware",
            "kind": "dataset",
            "publisher_id": "epoch-ai",
            "url": "https://epoch.ai/data/machine-learning-hardware",
            "license": "https://creativecommons.org/licenses/by/4.0/",
        }
        target.write("sources", source)
