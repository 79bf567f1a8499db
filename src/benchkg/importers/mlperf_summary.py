"""MLPerf Inference v6.1's ``summary.json`` read as the rows of v4.1–v6.0's ``summary_results.json``.

From v6.1 on, MLCommons' results repository carries one ``summary.json``: a JSON object keyed by row
number ("0"…"491"), 31 other column names, **no public result IDs**, and no system descriptions beside
it (each row carries its system's own fields: nodes, accelerators per node and in all, host processor,
framework, operating system). :func:`read_summary` turns each row into the columns the importer reads
and builds, per system, a description from those fields, so :mod:`benchkg.importers.mlperf` imports a
v6.1 round as it imports the others.

**Ids without public result numbers.** A v6.1 result is named by what identifies it in the round:
``mlperf-6.1-<division>-<submitter>-<platform>-<benchmark>-<scenario>`` (``Platform`` is the system
description's file name, unique per submitter; the benchmark is the results folder name, tier
included). The id stays the same when MLCommons publishes result numbers later: those become the
record's ``mlperf_result_id``, an alias, without renaming anything.

The round's quirks, each handled here and tested (``tests/test_import.py``): scenario names in lower
case (``offline``, ``singlestream``); ``llama3_1-8b`` beside ``llama3.1-8b``; ``resnet50`` for the
benchmark earlier rounds call ``resnet``; CPU-only rows with 0 accelerators and no accelerator name; a
system named "72x GB300" with 288 accelerators on 72 nodes (kept as stated: the shape
name-states-another-count finds it); results rounded to six significant figures (kept as published).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchkg.importers import common
from benchkg.kernel.errors import InputError, InputProblem

#: v6.1 scenario names, in any case, as the earlier rounds write them
SCENARIOS = {
    "offline": "Offline",
    "server": "Server",
    "interactive": "Interactive",
    "singlestream": "SingleStream",
    "multistream": "MultiStream",
}
#: v6.1 benchmark folder names -> the name earlier rounds use for the same benchmark
MODELS = {"llama3_1-8b": "llama3.1-8b", "resnet50": "resnet"}
#: the columns every v6.1 row needs
REQUIRED = (
    "Organization",
    "Division",
    "SystemType",
    "Platform",
    "Model",
    "Scenario",
    "Availability",
    "Result",
    "Units",
    "number_of_nodes",
    "total_accelerators",
)


def read_summary(summary: Path) -> tuple[list[dict], dict[tuple[str, str, str], dict]]:
    """(rows in the v4.1–v6.0 columns, a system description per (division, submitter, platform)).

    >>> rows, systems = read_summary(EXAMPLE)
    >>> [(r["ID"], r["Scenario"], r["Model"], r["Total Accelerators"]) for r in rows]
    [('6.1-closed-CoreWeave-GB200', 'Server', 'llama2-70b-99.9', 72), ('6.1-closed-Acme-cpu1', 'SingleStream', 'llama3.1-8b', '')]
    >>> systems[("closed", "CoreWeave", "GB200")]["number_of_nodes"]
    18

    :raises InputError: for a file that is not v6.1's summary.json, naming the row and column at fault.
    """
    try:
        data = json.loads(Path(summary).read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError.at(summary, None, "", f"not JSON: {e}") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and k.isdigit() for k in data):
        raise InputError.at(summary, None, "", "not MLPerf's summary.json (an object keyed by row number)")
    ordered = [data[k] for k in sorted(data, key=int)]
    common.check_rows(
        summary,
        ordered,
        REQUIRED,
        lambda n, row: _check_row(summary, n, row),
        rows_are="results",
        row_is="a result",
        hint="is this MLPerf v6.1's summary.json?",
    )
    rows: list[dict[Any, Any]] = []
    systems: dict[tuple[str, str, str], dict[Any, Any]] = {}
    for row in ordered:
        rows.append(_row(row))
        systems.setdefault((row["Division"], row["Organization"], row["Platform"]), _description(row))
    return rows, systems


def _check_row(summary: Path, n: int, row: dict) -> list[InputProblem]:
    problems = []
    for key in REQUIRED:
        value = row[key]
        if key in ("Result", "number_of_nodes", "total_accelerators"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                problems.append(InputProblem(summary, None, f"/{n}/{key}", f"{str(value)[:40]!r} is not a number"))
        elif not isinstance(value, str):
            problems.append(InputProblem(summary, None, f"/{n}/{key}", "expected text"))
        elif key in ("Division", "Organization", "Platform") and ("/" in value or value in (".", "..")):
            problems.append(InputProblem(summary, None, f"/{n}/{key}", f"{value[:40]!r} is not a name"))
    return problems


def _row(row: dict) -> dict:
    """One v6.1 row in the columns of the earlier rounds."""
    accelerator = (row.get("accelerator_model_name") or "").strip()
    scenario = SCENARIOS.get(row["Scenario"].replace("-", "").replace("_", "").lower(), row["Scenario"])
    model = MODELS.get(row["Model"], row["Model"])
    return {
        "ID": f"6.1-{row['Division']}-{row['Organization']}-{row['Platform']}",
        "public_id": False,  # no public result number: the id is made of what identifies the result
        "Location": row.get("Location") or "",
        "Category": row["Division"],
        "Submitter": row["Organization"],
        "Platform": row["Platform"],
        "Model": model,
        "Scenario": scenario,
        "Suite": row["SystemType"],
        "Availability": row["Availability"],
        "Performance_Result": row["Result"],
        "Performance_Units": row["Units"],
        "Accelerator": accelerator,
        "Total Accelerators": row["total_accelerators"] if accelerator else "",
        "a#": row.get("accelerators_per_node") if accelerator else "",
        "Nodes": row["number_of_nodes"],
        "Processor": row.get("host_processor_model_name") or "",
        "host_processors_per_node": row.get("host_processors_per_node"),
        "System": row.get("SystemName") or "",
        "Software": row.get("framework") or "",
        "weight_data_types": row.get("weight_data_types") or "",
        "Accuracy": row.get("Accuracy") or "",
        "has_power": bool(row.get("has_power")),
        "inferred": bool(row.get("inferred")),
        "version": "v6.1",
    }


def _description(row: dict) -> dict:
    """A system description from the fields a v6.1 row carries of its system (verbatim)."""
    keys = {
        "system_name": "SystemName",
        "number_of_nodes": "number_of_nodes",
        "host_processor_model_name": "host_processor_model_name",
        "host_processors_per_node": "host_processors_per_node",
        "host_processor_core_count": "host_processor_core_count",
        "accelerator_model_name": "accelerator_model_name",
        "accelerators_per_node": "accelerators_per_node",
        "framework": "framework",
        "operating_system": "operating_system",
    }
    return {name: row[key] for name, key in keys.items() if row.get(key) not in (None, "")}


def is_summary_round(round_dir: Path) -> bool:
    """Whether a round folder holds v6.1's ``summary.json`` (and not an earlier round's files)."""
    return (Path(round_dir) / "summary.json").is_file() and not (Path(round_dir) / "summary_results.json").is_file()


#: a two-row summary.json for the doctests
EXAMPLE = Path(__file__).with_name("mlperf_summary_example.json")

__all__ = ["read_summary", "is_summary_round", "SCENARIOS", "MODELS"]
