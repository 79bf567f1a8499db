"""Records named as people name them: an alias, a name, another case; a name that matches nothing says
what it might have meant; and rows as pandas types a spreadsheet user expects."""

from __future__ import annotations

import json

import pytest

import benchkg
from benchkg.kernel.errors import UsageError
from conftest import FULL_DATA, cli


@pytest.fixture(scope="module")
def kg():
    with benchkg.open(FULL_DATA) as graph:
        yield graph


@pytest.mark.parametrize(
    "typed,kind,ident",
    [
        ("NVIDIA GB300", "accelerators", "nvidia-gb300"),  # a record's name
        ("ORACLE", "organizations", "oracle"),  # MLPerf v6.0's spelling of a submitter
        ("Oracle", "organizations", "oracle"),  # v4.1's
        ("NVIDIA H100-SXM-80GB", "accelerators", "nvidia-h100-sxm"),  # an alias the importer resolves
        ("GB300", "accelerators", "nvidia-gb300"),  # the short name texts write (benchkg draft reads it)
        ("systems/coreweave-gb200-nvl72", "systems", "coreweave-gb200-nvl72"),  # kind/id
    ],
)
def test_a_record_is_found_by_any_of_its_names(kg, typed, kind, ident):
    found = kg.find(typed)
    assert (found.kind, found.id) == (kind, ident)


def test_a_name_that_matches_nothing_says_what_it_might_mean(kg):
    with pytest.raises(UsageError, match=r"'gb3000' names no record; did you mean nvidia-gb300, .*nvidia-gb300-nvl72"):
        kg.find("gb3000")


@pytest.mark.slow
def test_a_parameter_takes_a_name_and_says_what_it_resolved_to():
    result = cli(
        "query",
        "leaderboard",
        "--param",
        "submitter=ORACLE",
        "--param",
        "scenario=offline",
        "--format",
        "json",
        "--data",
        FULL_DATA,
    )
    assert result.exit_code == 0
    assert "('ORACLE' is organizations/oracle)" in result.stderr
    rows = json.loads(result.stdout)
    assert rows and all(r["claim"].startswith("mlperf-6.0-") for r in rows)
    by_id = json.loads(
        cli(
            "query",
            "leaderboard",
            "--param",
            "submitter=oracle",
            "--param",
            "scenario=offline",
            "--format",
            "json",
            "--data",
            FULL_DATA,
        ).stdout
    )
    assert rows == by_id


def test_an_unknown_parameter_value_is_exit_2_with_the_closest():
    result = cli("query", "round-over-round", "--param", "accelerator=nvidia-h300", "--data", FULL_DATA)
    assert result.exit_code == 2 and "did you mean" in result.stderr and "nvidia-h200-sxm-141gb" in result.stderr


def test_rows_become_a_dataframe_of_the_types_they_hold(kg):
    pandas = pytest.importorskip("pandas")
    rows = kg.query("leaderboard", model="llama2-70b", scenario="offline", limit=0)
    df = rows.to_pandas()
    assert len(df) == len(rows) > 50
    assert df["accelerator_count"].dtype == "int64" and df["per_accelerator"].dtype == "float64"
    # (nullable "boolean" where a row lacks it; every row here states it since no-tier claims are left out)
    assert str(df["inferred"].dtype) in ("bool", "boolean") and df["derived"].dtype == bool
    assert df["value"].iloc[0] == float(rows[0]["value"])
    assert pandas.api.types.is_string_dtype(df["claim"])
