"""The results algebra (issue 31): analysts' questions in framings no saved query was written for,
each one command and no SPARQL, checked against MLCommons' summaries read a second way
(``tests/mlperf_oracle.py``), and its ``--explain`` text run unchanged as a query file."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections import Counter
from decimal import Decimal

import pytest

import mlperf_oracle as oracle
from benchkg.api import open as open_kg
from conftest import DATA, FULL_DATA, SHARED, cli

RAW = SHARED / "realdata"


@pytest.fixture(scope="module")
def record(mlperf_record):
    return mlperf_record


@pytest.fixture(scope="module")
def kg(full_kg):
    return full_kg


def _paired(record, dim, a, b):
    names = [
        n
        for n in ("submitter", "platform", "count", "model", "tier", "scenario", "version", "division", "unit")
        if n != dim
    ] + (["system"] if dim == "tier" else [])  # a run's column: the same system record on both sides
    sides: dict[str, dict] = {a: {}, b: {}}
    results: dict[str, Counter] = {a: Counter(), b: Counter()}
    for r in record.results:
        if r.measured_by != "mlcommons" or r.metric != "throughput":
            continue
        if getattr(r, dim) in sides:
            key = tuple(str(getattr(r, n) or "") for n in names)
            best = sides[getattr(r, dim)].get(key)
            sides[getattr(r, dim)][key] = r.value if best is None else max(best, r.value)
            results[getattr(r, dim)][key] += 1
    paired = {k: (sides[a][k], sides[b][k]) for k in sides[a].keys() & sides[b].keys()}
    alone = tuple(sum(n for k, n in results[s].items() if k not in paired) for s in (a, b))
    return paired, alone


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
    ] + (["system"] if dim == "tier" else [])
    return {tuple(str(r[n]) if r[n] is not None else "" for n in names): r for r in rows}


@pytest.mark.slow
@pytest.mark.parametrize("dim,a,b", [("tier", "99", "99.9"), ("version", "6.0", "6.1")])
def test_the_same_system_across_two_tiers_or_two_rounds(kg, record, dim, a, b):
    """The share of 99 % throughput a system keeps at 99.9 %, and a system's change from v6.0 to
    v6.1: one row per system (submitter and platform) and benchmark, both sides and b ÷ a."""
    column = "round" if dim == "version" else dim
    rows = kg.results(where=["measured_by=mlcommons", "metric=throughput"], pair=f"{column}={a},{b}")
    expected, (only_a, only_b) = _paired(record, dim, a, b)
    got = _rows_by_key(rows, column)
    assert len(rows) == len(got), "one row per held key"
    assert set(got) == set(expected)
    for key, (left, right) in expected.items():
        row = got[key]
        assert abs(Decimal(str(row["a"])) - left) < Decimal("0.001") and abs(Decimal(str(row["b"])) - right) < Decimal(
            "0.001"
        )
        assert abs(Decimal(str(row["ratio"])) - right / left) < Decimal("1e-12")  # (in full: a table rounds)
    notes = " ".join(rows.notes)
    assert (
        f"Without a partner: {only_a} result{'s' if only_a != 1 else ''} with {column}={a} only, {only_b} with {column}={b} only"
        in notes
    )
    assert only_a and only_b, "a round or tier without partners is what the count is for"


@pytest.mark.slow
def test_results_per_host_cpu_vendor(kg, record):
    rows = kg.results(where=["measured_by=mlcommons"], group_by=["host_cpu_vendor"])
    expected = Counter(oracle.host_vendor(r.host) for r in record.results if r.measured_by == "mlcommons")
    expected.pop(None, None)
    assert {r["host_cpu_vendor"]: r["count"] for r in rows} == dict(expected)
    assert [r["count"] for r in rows] == sorted((r["count"] for r in rows), reverse=True)


@pytest.mark.slow
def test_the_median_per_model_and_unit(kg, record):
    """A median is no SPARQL aggregate (the "#+ then: median" step takes it): v6.1 Offline, per model
    and unit, against the summaries' own values."""
    import statistics

    rows = kg.results(
        where=["measured_by=mlcommons", "round=6.1", "scenario=offline"], group_by=["model"], agg="median"
    )
    groups: dict[tuple, list] = {}
    for r in record.results:
        if r.measured_by == "mlcommons" and r.version == "6.1" and r.scenario == "offline":
            groups.setdefault((r.model, r.unit), []).append(r.value)
    expected = {key: statistics.median(values) for key, values in groups.items()}
    got = {(r["model"], r["unit"]): Decimal(str(r["median_value"])) for r in rows}
    assert got == expected
    assert any(len(v) % 2 == 0 for v in groups.values()), "an even group: the median is the mean of two"
    assert [r["median_value"] for r in rows] == sorted((r["median_value"] for r in rows), reverse=True)


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

    def base(ids: list[str]) -> str:
        """A chip's base; a system of mixed chips is their combination (never the lowest of them)."""
        made = sorted({chips[a].get("made_of_id") or a for a in ids})
        return chips[made[0]].get("variant_of_id") or made[0] if len(made) == 1 else "+".join(made)

    spellings: dict[str, set] = {}
    for p in (FULL_DATA / "benchmarks").glob("*.json"):
        claim = json.loads(p.read_text())
        spelled = systems.get(claim.get("system_id"), {}).get("description", {}).get("accelerator_model_name")
        if spelled and claim.get("accelerator_ids"):
            spellings.setdefault(base(claim["accelerator_ids"]), set()).add(spelled.casefold())  # (issue 62)
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


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["--where", "model=llama2-70b", "--pair", "tier=99,99.9"],
        ["--group-by", "submitter", "--agg", "share"],
        ["--where", "scenario=offline", "--best-per", "chip", "--sort", "-per_accelerator"],
        ["--group-by", "submitter", "--only-in", "round=6.0", "--not-in", "round=6.1"],
        ["--where", "round=6.1", "--pair", "scenario=offline,server", "--group-by", "chip", "--agg", "median"],
        ["--where", "measured_by=mlcommons", "--first-in", "round=6.1", "--over", "chip"],
        ["--where", "chip_vendor=any:amd", "--group-by", "chip,accelerator_kind", "--sort", "-count"],
        ["--where", "round=in:6.0,6.1", "--group-by", "platform_id", "--agg", "distinct:round", "--sort", "-distinct"],
    ],
    ids=["pair", "share", "best-per", "only-in", "pair-median", "first-in", "any", "platform-id"],
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


def _every_form():
    """Each column under each verb: filtered (as text, number or not-equal), grouped, set-differenced,
    ranked, held in a pair and aggregated."""
    from benchkg.answers.algebra import COLUMNS, SET_COLUMNS, Request

    for name, col in COLUMNS.items():
        ops = {"text": ["~x", "!=x", "=x"], "tier": ["~9", ">99"], "num": [">1", "=2"]}.get(col.kind, [])
        for op in ops:
            yield Request(where=[name + op], columns=list(COLUMNS))
        yield Request(group_by=[name], agg="count")
        yield Request(group_by=[name], only_in="round=6.0", not_in="round=6.1")
        yield Request(best_per=[name])
        if name != "round":
            yield Request(pair="round=6.0,6.1", hold=[name])
            yield Request(pair="round=6.0,6.1", group_by=[name], agg="median:ratio")
            yield Request(first_in="round=6.1", over=[name])
        if name in SET_COLUMNS:
            yield Request(where=[f"{name}=any:x"], columns=[name])
        if col.kind == "num":
            yield Request(group_by=["chip"], agg=f"median:{name}")


def test_every_form_the_algebra_writes_passes_the_query_lint():
    """No generated query has a pattern that binds a variable to anything (an OPTIONAL read from
    nothing, a join through a key one side may leave unbound): the lint of the saved queries
    (issue 29) over every column under every verb."""
    from pathlib import Path

    from benchkg.answers.algebra import compile_results
    from benchkg.answers.querylint import lint_saved
    from benchkg.answers.savedquery import parse_query_text

    forms = list(_every_form())
    problems = {}
    for request in forms:
        text = compile_results(request, lambda kind, value: value).text
        problems[repr(request)] = lint_saved(parse_query_text(text, Path("results.rq")))
    assert len(forms) > 200
    assert not {k: v for k, v in problems.items() if v}


def test_a_result_on_both_sides_of_a_pair_is_never_paired_with_itself(kg):
    """Issue 45: a result of a system typed "datacenter,edge" is on both sides of --pair
    system_type=datacenter,edge, and was paired with itself (ratio 1.000)."""
    both = {
        p.stem
        for p in (FULL_DATA / "benchmarks").glob("*.json")
        if {"datacenter", "edge"} <= set(json.loads(p.read_text()).get("system_type") or [])
    }
    assert both, "data/ has results of a datacenter,edge system (else this test could not fail)"
    rows = kg.results(pair="system_type=datacenter,edge", limit=0)
    assert rows and all(row["a_claim"] != row["b_claim"] for row in rows)
    assert any(row["a_claim"] in both for row in rows)


@pytest.mark.slow
def test_not_equal_keeps_every_result_without_the_values_those_with_none_too(kg, record):
    """Issue 45: ``!=`` is what users mean — every result without the value, those with no value at all
    too — and several ``!=`` of one column leave out each of their values. Counted per round against
    the summaries; the 300 of them that a NOT EXISTS per condition never finished answer here at the
    cost of one (``make bench-algebra`` times them)."""
    # (a condition on measured_by keeps the vendor claims that restate audited results: they state no nodes)
    nodes = ["nodes!=1", "nodes!=2", *[f"nodes!={n}" for n in range(3, 300)]]
    rows = kg.results(where=[*nodes, "measured_by!=community"], group_by=["round"])
    expected = Counter(
        r.version for r in record.results if r.nodes not in range(1, 300) and r.measured_by != "community"
    )
    assert {r["round"]: r["count"] for r in rows} == dict(expected)
    assert expected and sum(1 for r in record.results if r.nodes is None), "results without a node count stay"


@pytest.mark.slow
def test_a_pair_of_a_run_column_holds_the_system_not_its_name(kg, record):
    """Issue 45: two systems of one submitter that share a name and a count (AMD's two "QuantaGrid
    D74A-7U" of v5.1) were paired with each other: the best Offline of one beside the best Server of the
    other. A pair of a run's column (here the scenario) holds the system record too."""
    rows = kg.results(where=["measured_by=mlcommons"], pair="scenario=offline,server", limit=0)
    system = {r.claim: r.system for r in record.results}
    assert rows and all(system[row["a_claim"]] == system[row["b_claim"]] for row in rows)
    named = Counter((r.submitter, r.platform, r.count, r.version) for r in record.results if r.system)
    shared = {
        k
        for k in named
        if len({r.system for r in record.results if (r.submitter, r.platform, r.count, r.version) == k}) > 1
    }
    assert shared, "data/ has two systems of one submitter under one name (else this test could not fail)"


def test_a_pair_of_latencies_keeps_the_fastest_of_each_side(tmp_path):
    """Issue 41 (case 4): a pair kept the highest value on each side, which for a latency is the slowest.
    Two v6.0 runs of one system (611.9 ms and a faster 550 ms, single-stream) beside its v6.1 run: side
    a is the 550 ms one, and the ratio is the v6.1 latency ÷ 550."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    for name in (
        "mlperf-6.0-0028-yolo-99-singlestream",
        "mlperf-6.1-closed-dell-dell-pro-max-gb10x1-yolo-99-singlestream",
    ):
        shutil.copy(FULL_DATA / "benchmarks" / f"{name}.json", data / "benchmarks")
    faster = json.loads((FULL_DATA / "benchmarks" / "mlperf-6.0-0028-yolo-99-singlestream.json").read_text())
    faster.update(id="mlperf-6.0-0028-yolo-99-singlestream-2", value=550)
    faster["sources"][0]["quote"] = "a second run at 550 ms"
    (data / "benchmarks" / f"{faster['id']}.json").write_text(json.dumps(faster, indent=2) + "\n")
    result = cli("results", "--where", "unit=ms", "--pair", "round=6.0,6.1", "--format", "csv", "--data", data)
    assert result.exit_code == 0, result.output
    (row,) = list(csv.DictReader(io.StringIO(result.stdout)))
    latest = json.loads(
        (data / "benchmarks" / "mlperf-6.1-closed-dell-dell-pro-max-gb10x1-yolo-99-singlestream.json").read_text()
    )
    assert row["a_claim"] == faster["id"] and Decimal(row["a"]) == 550
    # the ratio in full in a data format (17 significant digits): a table shows three places
    assert abs(Decimal(row["ratio"]) - Decimal(str(latest["value"])) / 550) < Decimal("1e-17")
