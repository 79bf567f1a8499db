"""``benchkg import acme-csv FILE``: a vendor's own results table (one row per result) as claims.

A worked example of an importer (docs/importers.md): a name, what it reads and refuses, a sample, and
``read(path, target)``, which checks every row before it writes a record and names the line and column
of what it cannot read. benchkg writes the records once every input has been read.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from benchkg.importers.contract import InputError, Plain, Target

COLUMNS = ("system", "accelerator", "accelerator_count", "model", "scenario", "tokens_per_second", "url")
SCENARIOS = ("offline", "server", "interactive")


def read(path: Path, target: Target) -> None:
    """One vendor claim per row of the table at ``path``, and its source.

    :raises InputError: naming the line and column of a row it cannot read.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError.at(path, None, "", f"not a UTF-8 text file ({type(e).__name__}); pass an Acme results CSV")
    if not lines or tuple(next(csv.reader(lines[:1]))) != COLUMNS:
        raise InputError.at(path, 1, "", f"the header is not {','.join(COLUMNS)}; is this an Acme results CSV?")
    rows = list(csv.DictReader(lines))
    if not rows:
        raise InputError.at(path, 2, "", "no results under the header")
    source_id = "acme-" + re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
    for line, row in enumerate(rows, 2):
        target.tick(line - 1, len(rows))
        if not row["accelerator_count"].isdigit() or int(row["accelerator_count"]) < 1:
            raise InputError.at(path, line, "/accelerator_count", f"{row['accelerator_count']!r} is not a count")
        if not re.fullmatch(r"\d+(\.\d+)?", row["tokens_per_second"]):
            raise InputError.at(path, line, "/tokens_per_second", f"{row['tokens_per_second']!r} is not a number")
        if row["scenario"] not in SCENARIOS:
            raise InputError.at(path, line, "/scenario", f"{row['scenario']!r} is none of {', '.join(SCENARIOS)}")
        system = re.sub(r"[^a-z0-9]+", "-", row["system"].lower()).strip("-")
        target.write(
            "benchmarks",
            {
                "id": f"acme-{system}-{row['model']}-{row['scenario']}",
                "title": f"{row['system']}: {row['model']} {row['scenario']}",
                "suite_id": "acme-claims",
                "scenario": row["scenario"],
                "model_id": row["model"],
                "accelerator_ids": [row["accelerator"]],
                "accelerator_count": int(row["accelerator_count"]),
                "metric": "throughput",
                "value": int(row["tokens_per_second"]),
                "unit": "tokens/s",
                "scope": "aggregate",
                "measured_by": "vendor",
                "sources": [{"source_id": source_id, "quote": f"{row['tokens_per_second']} tokens/s"}],
            },
        )
        target.report.imported["acme results"] = target.report.imported.get("acme results", 0) + 1
    target.write("sources", {"id": source_id, "name": f"Acme results table {path.name}", "url": rows[0]["url"]})
    if target.existing("suites", "acme-claims") is None:  # a vendor's own series of claims is a suite
        target.write("suites", {"id": "acme-claims", "name": "Acme's own results", "family": "vendor-claim"})


IMPORTER = Plain(
    name="acme-csv",
    reads="Acme's results table (CSV: system, accelerator, accelerator_count, model, scenario, tokens_per_second, url)",
    refuses="another header, a count or a number it cannot read, a scenario it does not know",
    sample=Path(__file__).resolve().parent / "acme-results.csv",
    read=read,
)
