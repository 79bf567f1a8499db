"""The results algebra (issue 31): analysts' questions in framings no saved query was written for,
each one command and no SPARQL, checked against MLCommons' summaries read a second way
(``tests/mlperf_oracle.py``), and its ``--explain`` text run unchanged as a query file."""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal

import pytest

import mlperf_oracle as oracle
from benchkg.api import open as open_kg
from conftest import DATA, FULL_DATA, SHARED, cli

RAW = SHARED / "realdata"


@pytest.fixture(scope="module")
def record():
    if not (RAW / "mlperf_inference_v6.1" / "summary.json").exists():
        pytest.skip(f"the MLPerf summaries are not here ({RAW}): a checkout without ../shared")
    return oracle.load(RAW, FULL_DATA)


@pytest.fixture(scope="module")
def kg():
    graph = open_kg(FULL_DATA, persist=False)  # in memory: the doctests open data/'s own store in this process
    graph.build()
    return graph


def _paired(record, dim, a, b):
    names = [
        n
        for n in ("submitter", "platform", "count", "model", "tier", "scenario", "version", "division", "unit")
        if n != dim
    ]
    sides: dict[str, dict] = {a: {}, b: {}}
    for r in record.results:
        if r.measured_by != "mlcommons" or r.metric != "throughput":
            continue
        if getattr(r, dim) in sides:
            key = tuple(str(getattr(r, n) or "") for n in names)
            best = sides[getattr(r, dim)].get(key)
            sides[getattr(r, dim)][key] = r.value if best is None else max(best, r.value)
    return {k: (sides[a][k], sides[b][k]) for k in sides[a].keys() & sides[b].keys()}


def _rows_by_key(rows, dim):
    names = [
        n
        for n in (
            "submitter",
            "platform",
            "accelerator_count",
            "model",
            "tier",
            "scenario",
            "round",
            "division",
            "unit",
        )
        if n != dim
    ]
    return {tuple(str(r[n]) if r[n] is not None else "" for n in names): r for r in rows}


@pytest.mark.slow
@pytest.mark.parametrize("dim,a,b", [("tier", "99", "99.9"), ("version", "6.0", "6.1")])
def test_the_same_system_across_two_tiers_or_two_rounds(kg, record, dim, a, b):
    """The share of 99 % throughput a system keeps at 99.9 %, and a system's change from v6.0 to
    v6.1: one row per system (submitter and platform) and benchmark, both sides and b ÷ a."""
    column = "round" if dim == "version" else dim
    rows = kg.results(where=["measured_by=mlcommons", "metric=throughput"], pair=f"{column}={a},{b}")
    expected = _paired(record, dim, a, b)
    got = _rows_by_key(rows, column)
    assert len(rows) == len(got), "one row per held key"
    assert set(got) == set(expected)
    for key, (left, right) in expected.items():
        row = got[key]
        assert abs(Decimal(str(row["a"])) - left) < Decimal("0.001") and abs(Decimal(str(row["b"])) - right) < Decimal(
            "0.001"
        )
        assert abs(Decimal(str(row["ratio"])) - (right / left).quantize(Decimal("0.001"))) <= Decimal("0.001")
    notes = " ".join(rows.notes)
    assert "Without a partner:" in notes


@pytest.mark.slow
def test_results_per_host_cpu_vendor(kg, record):
    rows = kg.results(where=["measured_by=mlcommons"], group_by=["host_cpu_vendor"])
    expected = Counter(oracle.host_vendor(r.host) for r in record.results if r.measured_by == "mlcommons")
    expected.pop(None, None)
    assert {r["host_cpu_vendor"]: r["count"] for r in rows} == dict(expected)
    assert [r["count"] for r in rows] == sorted((r["count"] for r in rows), reverse=True)


@pytest.mark.slow
def test_the_submitters_of_one_round_and_not_the_next(kg, record):
    rows = kg.results(group_by=["submitter"], only_in="round=6.0", not_in="round=6.1")
    assert {r["submitter"] for r in rows} == oracle.submitters_only_in(record, "6.0", "6.1")
    counts = Counter(r.submitter for r in record.results if r.version == "6.0")
    assert all(r["results"] == counts[r["submitter"]] for r in rows)


@pytest.mark.slow
def test_distinct_chip_spellings_per_base_chip(kg):
    """How many ways each chip was spelled, read from the system records' own descriptions."""
    systems = {p.stem: json.loads(p.read_text()) for p in (FULL_DATA / "systems").glob("*.json")}
    chips = {p.stem: json.loads(p.read_text()) for p in (FULL_DATA / "accelerators").glob("*.json")}

    def base(acc: str) -> str:
        acc = chips[acc].get("made_of_id") or acc
        return chips[acc].get("variant_of_id") or acc

    spellings: dict[str, set] = {}
    for p in (FULL_DATA / "benchmarks").glob("*.json"):
        claim = json.loads(p.read_text())
        spelled = systems.get(claim.get("system_id"), {}).get("description", {}).get("accelerator_model_name")
        if spelled and claim.get("accelerator_ids"):
            spellings.setdefault(min(base(a) for a in claim["accelerator_ids"]), set()).add(spelled)
    rows = kg.results(group_by=["base_chip"], agg="distinct:chip_spelling")
    got = {r["base_chip"]: r["distinct_chip_spelling"] for r in rows if r["distinct_chip_spelling"]}
    assert got == {chip: len(names) for chip, names in spellings.items()}
    assert max(got.values()) > 3, "a chip spelled many ways is what the question is for"


def test_a_filter_that_matches_nothing_names_the_condition_that_emptied_it():
    kg = open_kg(DATA)
    rows = kg.results(where=["model=llama2-70b", "tier>100"])
    assert not rows and any("no result has tier>100 (with model=llama2-70b)" in n for n in rows.notes)


def test_the_tier_matches_as_text_and_as_a_number():
    kg = open_kg(DATA)
    as_text = kg.results(where=["tier=99.9"], columns=["claim"])
    as_number = kg.results(where=["tier>99.5"], columns=["claim"])
    files = [json.loads(p.read_text()) for p in (DATA / "benchmarks").glob("*.json")]
    expected = {f["id"] for f in files if f.get("accuracy_target") == "99.9"}
    assert {r["claim"] for r in as_text} == {r["claim"] for r in as_number} == expected


def test_a_column_or_value_the_view_has_not_is_exit_2_with_the_closest():
    result = cli("results", "--where", "submiter=nvidia", "--data", DATA)
    assert result.exit_code == 2 and "did you mean 'submitter'" in result.stderr
    result = cli("results", "--where", "division=closd", "--data", DATA)
    assert result.exit_code == 2 and "division is one of closed" in result.stderr


@pytest.fixture(scope="module")
def full_copy(tmp_path_factory):
    """data/ copied: the CLI keeps its store beside the folder, and data/'s own is the doctests'."""
    import shutil

    copy = tmp_path_factory.mktemp("algebra") / "data"
    shutil.copytree(FULL_DATA, copy, ignore=shutil.ignore_patterns(".benchkg"))
    return copy


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["--where", "model=llama2-70b", "--pair", "tier=99,99.9"],
        ["--group-by", "submitter", "--agg", "share"],
        ["--where", "scenario=offline", "--best-per", "chip", "--sort", "-per_accelerator"],
        ["--group-by", "submitter", "--only-in", "round=6.0", "--not-in", "round=6.1"],
    ],
    ids=["pair", "share", "best-per", "only-in"],
)
def test_explain_runs_unchanged_as_a_query_file(tmp_path, full_copy, args):
    explained = cli("results", *args, "--explain", "--data", full_copy)
    assert explained.exit_code == 0, explained.output
    path = tmp_path / "mine.rq"
    path.write_text(explained.stdout)
    direct = cli("results", *args, "--format", "csv", "--limit", "0", "--data", full_copy)
    queried = cli("query", str(path), "--format", "csv", "--limit", "0", "--data", full_copy)
    assert queried.exit_code == 0, queried.output
    assert queried.stdout == direct.stdout and len(direct.stdout.splitlines()) > 1
