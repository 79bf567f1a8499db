"""Every saved query against the query fixture graph (data/ + tests/fixtures/query-graph/), rows
compared whole with the SPARQL CSV results stored in tests/fixtures/query-graph/expected/."""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest

from benchkg.answers.queries import run_query
from benchkg.answers.results import to_csv
from benchkg.answers.savedquery import saved_queries
from benchkg.graph.store import build_graph
from conftest import DATA, FIXTURES, cli

GRAPH = FIXTURES / "query-graph"
CASES = json.loads((GRAPH / "cases.json").read_text())
LIST_COLUMNS = {
    "gotchas",
    "offline_gotchas",
    "audited_gotchas",
    "interconnects",
    "scale_up",
    "scale_out",
    "host",
    "accelerators",
    "merged",
}


@pytest.fixture(scope="module")
def graph_data(tmp_path_factory):
    data = tmp_path_factory.mktemp("query-graph") / "data"
    shutil.copytree(DATA, data)
    for path in GRAPH.glob("*/*.json"):
        shutil.copyfile(path, data / path.parent.name / path.name)
    return data


@pytest.fixture(scope="module")
def graph_store(graph_data):
    return build_graph(graph_data, persist=False).store


def normalise(text: str) -> list[list]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    lists = [i for i, name in enumerate(rows[0]) if name in LIST_COLUMNS]
    return [[sorted(c.split()) if i in lists else c for i, c in enumerate(row)] for row in rows]


def test_every_saved_query_has_a_case_and_every_case_a_query():
    covered = {c["query"] for c in CASES}
    assert covered == set(saved_queries()), "each saved query needs a case in cases.json"
    assert len(saved_queries()) >= 12


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["expected"])
def test_saved_query_rows(graph_store, case):
    got = to_csv(run_query(graph_store, case["query"], case["params"]))
    expected = (GRAPH / "expected" / case["expected"]).read_text()
    assert normalise(got) == normalise(expected)
    assert len(normalise(expected)) > 1 or case.get("empty"), "a case should return rows, or say why it has none"


def test_round_over_round_is_best_per_round(graph_store):
    rows = run_query(
        graph_store,
        "round-over-round",
        {"accelerator": "nvidia-h100-sxm", "model": "llama2-70b", "scenario": "offline"},
    ).rows
    values = [float(r["per_accelerator"].value) for r in rows]
    assert values == sorted(values), "the fixture rounds improve each round"
    assert len({r["suite"].value for r in rows}) == len(rows) == 2, "v6.1's vendor claim states no tier: left out"
    every = run_query(
        graph_store,
        "round-over-round",
        {"accelerator": "nvidia-h100-sxm", "model": "llama2-70b", "scenario": "offline", "accuracy": "any"},
    ).rows
    assert len({r["suite"].value for r in every}) == len(every) == 3


def test_compare_names_every_difference_and_the_endpoints_gotcha(graph_data):
    result = cli(
        "compare",
        "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server",
        "bench-mlperf-endpoints-v0-7-coreweave-gb200-nvl72-deepseek-r1",
        "--data",
        graph_data,
    )
    assert result.exit_code == 0
    out = result.stdout
    assert out.splitlines()[4].startswith("Not comparable: they differ in suite family, scenario, model")
    for line in (
        "- suite: mlperf-inference-v6.1 vs mlperf-endpoints-v0.7",
        "- scenario: server vs endpoints",
        "- model: llama2-70b vs deepseek-r1",
        "- accelerator count: 72 vs 68",
    ):
        assert line in out
    assert "[critical] endpoints-not-comparable-with-inference-server" in out


def test_compare_with_disclosures(graph_data):
    result = cli(
        "compare", "fx-h100x8-llama2-70b-offline-v6-0", "fx-h100x8-llama2-70b-offline-v6-1-vendor", "--data", graph_data
    )
    assert "Comparable only with these differences disclosed" in result.stdout
    assert "- measured by: mlcommons vs vendor" in result.stdout
    assert "- scenario" not in result.stdout


def test_compare_unknown_claim_exits_2(graph_data):
    result = cli("compare", "nope", "fx-h100x8-llama2-70b-offline-v6-0", "--data", graph_data)
    assert result.exit_code == 2 and "claim 'nope' names no record of benchmarks" in result.stderr


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_chart(graph_data, tmp_path, suffix):
    path = tmp_path / f"lb{suffix}"
    result = cli(
        "query",
        "leaderboard",
        "--param",
        "model=llama2-70b",
        "--param",
        "scenario=offline",
        "--param",
        "accuracy=any",  # (the vendor claims state no tier)
        "--chart",
        path,
        "--data",
        graph_data,
    )
    assert result.exit_code == 0 and path.stat().st_size > 5000
    if suffix == ".svg":
        svg = path.read_text()
        assert "per accelerator (tokens/s)" in svg and "⚠ 3 caveats" in svg
        assert "CoreWeave GB200 NVL72 · nvidia-gb200 · 6.1 [vendor]" in svg


def test_a_latency_leaderboard_ranks_the_lowest_first_in_the_unit_of_its_results(graph_data):
    """No unit given: the leaderboard ranks in the unit the model's single-stream results are in (s),
    lowest first, and its title says the unit was settled, not given."""
    result = cli(
        "query",
        "leaderboard",
        "--param",
        "model=wan-2.2-t2v-a14b",
        "--param",
        "scenario=single-stream",
        "--format",
        "csv",
        "--data",
        graph_data,
    )
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [float(r["value"]) for r in rows] == [18.9, 21.4, 30.2]
    assert {r["unit"] for r in rows} == {"s"} and not any(r["per_accelerator"] for r in rows)
    table = cli(
        "query",
        "leaderboard",
        "--param",
        "model=wan-2.2-t2v-a14b",
        "--param",
        "scenario=single-stream",
        "--data",
        graph_data,
    ).stdout
    title = " ".join(table.split("─", 1)[0].split())  # the title and the header, however the width wraps them
    assert "unit=s (auto)" in title


def test_chart_refused_for_a_query_without_one(graph_data, tmp_path):
    result = cli("query", "gotchas-for", "--chart", tmp_path / "x.png", "--data", graph_data)
    assert result.exit_code == 2 and "has no chart; queries with charts: " in result.stderr
    assert not (tmp_path / "x.png").exists()


def regenerate() -> None:
    """Rewrite expected/*.csv from the current answers (review the diff before committing)."""
    import tempfile
    from pathlib import Path

    data = Path(tempfile.mkdtemp()) / "data"
    shutil.copytree(DATA, data)
    for path in GRAPH.glob("*/*.json"):
        shutil.copyfile(path, data / path.parent.name / path.name)
    store = build_graph(data, persist=False).store
    for case in CASES:
        (GRAPH / "expected" / case["expected"]).write_text(
            to_csv(run_query(store, case["query"], case["params"])), newline=""
        )


if __name__ == "__main__":  # python tests/test_query_graph.py
    regenerate()


def test_chart_draws_the_first_rows_and_says_so(tmp_path):
    from pyoxigraph import Literal, NamedNode

    from benchkg.answers.charts import CHART_ROWS, to_chart
    from benchkg.answers.queries import Results

    decimal = NamedNode("http://www.w3.org/2001/XMLSchema#decimal")
    rows = [
        {"claim": Literal(f"claim-{i:02d}"), "v": Literal(str(100 - i), datatype=decimal)}
        for i in range(CHART_ROWS + 5)
    ]
    path = tmp_path / "c.svg"
    to_chart(Results(["claim", "v"], rows), path, "claim", "v")
    svg = path.read_text()
    assert f"the first {CHART_ROWS} of {CHART_ROWS + 5} rows" in svg
    assert "claim-00" in svg and f"claim-{CHART_ROWS - 1}" in svg and f"claim-{CHART_ROWS}" not in svg
