"""Answers people can read: tables that never cut a number, a title naming the slice and defaults,
absence said aloud, own queries that cannot trip silently, show and explain, one validation line
before the demo's answer (issue 22). On the query fixture graph (data/ and tests/fixtures/query-graph)."""

from __future__ import annotations

import json
import re
import shutil
from decimal import Decimal

import pytest

from benchkg.answers.results import format_number
from benchkg.answers.savedquery import saved_queries
from benchkg.answers.tables import _round_cell
from conftest import DATA, cli
from test_query_graph import CASES, GRAPH, graph_data  # noqa: F401 - the fixture

#: the parameters a query needs to have rows on the fixture graph (the rest run as saved)
NEEDS = {c["query"]: c["params"] for c in CASES if c["query"] in ("gotchas-for", "endpoints-curve", "comparability")}


def table_and_rows(data, name: str, params: dict, width: int) -> tuple[str, list[dict]]:
    args = ["query", name, *[a for k, v in params.items() for a in ("--param", f"{k}={v}")], "--data", data]
    table = cli(*args, env={"COLUMNS": str(width)})
    rows = cli(*args, "--format", "json", "--limit", "25")
    assert table.exit_code == 0 and rows.exit_code == 0, table.output + rows.output
    return table.stdout, json.loads(rows.stdout, parse_float=Decimal)


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("name", sorted(saved_queries()))
def test_no_number_in_a_default_table_is_cut(graph_data, name, width):
    """Every number of every shown column stands whole in its row (12,934.56 may read 12,935 once a
    column must shrink; never 12,9…), and no line of the table is wider than the terminal."""
    text, rows = table_and_rows(graph_data, name, NEEDS.get(name, {}), width)
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    body = lines[rule + 1 : rule + 1 + len(rows)]
    assert all(len(line) <= width for line in lines[1 : rule + 1 + len(rows)]), "the table fits the terminal"
    hidden = re.search(r"\(columns not shown here: ([^;]+);", " ".join(lines).replace("\n", " "))
    hidden = {c.strip() for c in hidden.group(1).split(",")} if hidden else set()
    checked = 0
    for row, line in zip(rows, body):
        tokens = set(line.split())
        for column, value in row.items():
            if column in hidden or isinstance(value, bool) or not isinstance(value, (int, Decimal)):
                continue
            whole = format_number(str(value))
            if column == "ratio" or column.endswith("_ratio"):  # a ratio reads to three decimals, on purpose
                whole = f"{Decimal(value):.3f}"
            assert {whole, _round_cell(whole)} & tokens, f"{column}={value} is not whole in: {line}"
            checked += 1
    assert checked or not any(
        isinstance(v, (int, Decimal)) and not isinstance(v, bool) for row in rows for v in row.values()
    ), "numbers were checked"


def test_a_table_opens_with_a_title_naming_the_slice_and_the_defaults(graph_data):
    text = cli(
        "query",
        "leaderboard",
        "--param",
        "scenario=offline",
        "--param",
        "suite=fx-mlperf-inference-v6.0",
        "--data",
        graph_data,
        env={"COLUMNS": "200"},
    ).stdout
    title = " ".join(line.strip() for line in text.splitlines()[:2])  # (the title folds at 200 columns)
    assert title.startswith(
        "leaderboard: scenario=offline suite=fx-mlperf-inference-v6.0 · defaults: "
        "model=llama2-70b, division=closed, accuracy=99 (tiered models), system_type=datacenter, "
        "unit=tokens/s (auto), sort=per_accelerator"
    )


def test_columns_and_wide_choose_what_a_table_shows(graph_data):
    chosen = cli(
        "query",
        "leaderboard",
        "--param",
        "scenario=offline",
        "--param",
        "accuracy=any",  # (the vendor claims state no tier)
        "--columns",
        "per_accelerator,system_name",
        "--data",
        graph_data,
        env={"COLUMNS": "80"},
    ).stdout.splitlines()
    rule = next(i for i, line in enumerate(chosen) if line.startswith("─"))
    assert chosen[rule - 2].split() == ["per_"] and chosen[rule - 1].split() == ["accelerator", "system_name"]
    assert chosen[rule + 1].split()[0] == "12,416.69" and "Fixture: an 8x H" in chosen[rule + 2]
    wide = cli(
        "query",
        "leaderboard",
        *("--param", "scenario=offline", "--param", "accuracy=any", "--wide", "--data", graph_data),
        env={"COLUMNS": "80"},
    ).stdout
    assert "fx-h100x8-llama2-70b-offline-v6-1-vendor" in wide and "…" not in wide.split("(10 rows)")[0]
    wrong = cli("query", "leaderboard", "--columns", "per_acelerator", "--data", graph_data)
    assert wrong.exit_code == 2 and "did you mean 'per_accelerator'?" in wrong.stderr


def test_a_round_without_a_result_is_named(graph_data):
    result = cli(
        "query",
        "round-over-round",
        "--param",
        "accelerator=nvidia-h100-sxm",
        "--param",
        "scenario=server",
        "--columns",
        "version,claim",
        "--data",
        graph_data,
    )
    assert result.exit_code == 0
    rounds = [m.group(1) for line in result.stdout.splitlines() if (m := re.match(r"^\s*(\d\.\d)\s+\S", line))]
    assert rounds == ["6.0"], "the fixture's H100 Server result is in v6.0 only"
    assert "No result in MLPerf Inference v5.1 (fixture) (the record holds audited results of it" in " ".join(
        result.stdout.split()
    )


def test_an_empty_answer_says_what_emptied_it(graph_data):
    result = cli(
        "query",
        "leaderboard",
        "--param",
        "suite=fx-mlperf-inference-v5.1",
        "--param",
        "scenario=server",
        "--data",
        graph_data,
    )
    said = " ".join(result.stdout.split())
    assert result.exit_code == 0 and "(0 rows)" in said
    assert (
        "What empties it: scenario=server (--param scenario=any gives 1 row); "
        "suite=fx-mlperf-inference-v5.1 (--param suite=any gives 2 rows)." in said
    )
    assert "model=llama2-70b (--param" not in said, "lifting the model alone gives nothing: it is not named"


def test_an_empty_answer_costs_one_more_query_for_its_defaults_and_more_only_for_what_was_typed():
    """An empty answer asked with no parameters lifts its defaults together, once (not once per
    default); parameters the user typed are lifted together, then each alone to name the one."""
    from benchkg.answers.explain import why_empty
    from benchkg.answers.savedquery import ANY, Param

    class Saved:
        params = {name: Param(name, "string", default=value) for name, value in (("a", "1"), ("b", "2"), ("c", "3"))}

    class Found:
        def __init__(self, count):
            self.count, self.more = count, False

    def run_on(rows_when):
        runs = []

        def run(params, limit=None):
            runs.append(dict(params))
            return Found(rows_when(params))

        return run, runs

    run, runs = run_on(lambda params: 0)
    said = why_empty(Saved(), {}, run, given=set())
    assert runs == [{"a": ANY, "b": ANY, "c": ANY}]
    assert said == "No rows for a=1, b=2, c=3, and none with them lifted: the record holds no result like this."
    run, runs = run_on(lambda params: 4 if params.get("b") == ANY else 0)
    said = why_empty(Saved(), {}, run, given=set())
    assert len(runs) == 1
    assert (
        said
        == "No rows for a=1, b=2, c=3. What empties it: the defaults a=1, b=2, c=3 (--param a=any --param b=any --param c=any gives 4 rows)."
    )
    run, runs = run_on(lambda params: 4 if params.get("b") == ANY else 0)
    said = why_empty(Saved(), {"a": "1", "b": "2"}, run, given={"a", "b"})
    assert runs == [{"a": ANY, "b": ANY}, {"a": ANY, "b": "2"}, {"a": "1", "b": ANY}], "together, then each alone"
    assert said == "No rows for a=1, b=2, c=3. What empties it: b=2 (--param b=any gives 4 rows)."


def test_a_latency_answer_has_no_per_accelerator_caveat(graph_data, tmp_path):
    """Latencies are never divided: results at 4 and 8 accelerators ranked by latency carry no "compare
    per accelerator" caveat, while a throughput ranking at two scales does."""
    data = tmp_path / "data"
    shutil.copytree(graph_data, data, ignore=shutil.ignore_patterns(".benchkg"))
    path = data / "benchmarks" / "fx-wan-single-stream-b.json"
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "accelerator_count": 4}, indent=2))
    latency = cli(
        "query", "leaderboard", "--param", "model=wan-2.2-t2v-a14b", "--param", "scenario=single-stream", "--data", data
    ).stdout
    assert "18.9" in latency and "scale-differs-compare-per-accelerator" not in latency
    throughput = cli(
        "query", "leaderboard", "--param", "scenario=offline", "--param", "accuracy=any", "--data", data
    ).stdout
    assert "scale-differs-compare-per-accelerator" in throughput


def test_an_own_query_that_uses_a_parameter_as_a_column_is_refused(tmp_path):
    path = tmp_path / "mine.rq"
    path.write_text(
        "#+ param division enum:division\nPREFIX bk: <https://w3id.org/benchkg/ontology#>\n"
        "SELECT ?claim ?division WHERE { ?claim bk:division $division }\n"
    )
    result = cli("query", path, "--data", DATA)
    assert result.exit_code == 2
    assert "parameter $division is also the variable ?division" in result.stderr
    undeclared = tmp_path / "undeclared.rq"
    undeclared.write_text("SELECT ?claim WHERE { ?claim ?p $division }\n")
    result = cli("query", undeclared, "--param", "division=closed", "--data", DATA)
    assert result.exit_code == 2 and "#+ param division" in result.stderr


def test_an_own_query_with_a_claim_column_gets_caveats_without_a_header(tmp_path):
    path = tmp_path / "vendor.rq"
    path.write_text(
        "PREFIX bk: <https://w3id.org/benchkg/ontology#>\n"
        "SELECT ?claim WHERE { ?claim bk:measuredBy bk:measured-by-vendor ; bk:model ?m }\n"
    )
    result = cli("query", path, "--data", DATA)
    assert result.exit_code == 0
    assert "Comparison caveats these 5 rows trigger" in result.stdout
    assert "endpoints-not-comparable-with-inference-server" in result.stdout


def test_show_summarises_what_refers_to_a_chip_by_kind(graph_data):
    brief = cli("show", "nvidia-h100-sxm", "--data", graph_data).stdout
    referrers = [
        p.stem
        for p in (graph_data / "benchmarks").glob("*.json")
        if "nvidia-h100-sxm" in json.loads(p.read_text()).get("accelerator_ids", [])
    ]
    assert len(referrers) > 5
    assert re.search(r"^referred to by \d+ records? \(--all lists them\):$", brief, re.M)
    assert f"  benchmarks: {len(referrers)} (" in brief
    full = cli("show", "nvidia-h100-sxm", "--all", "--data", graph_data).stdout
    assert all(f"benchmarks/{r}" in full for r in referrers)
    assert len(full.splitlines()) > len(brief.splitlines())


def test_explain_says_what_a_term_means_and_show_explains_the_terms_a_record_uses(graph_data):
    result = cli("explain", "Inferred")
    assert result.exit_code == 0 and "derived rather than measured" in result.stdout
    wrong = cli("explain", "inferd")
    assert wrong.exit_code == 2 and "did you mean 'inferred'?" in wrong.stderr
    shown = cli("show", "fx-h100x8-llama2-70b-offline-v6-0-inferred", "--data", graph_data).stdout
    assert "derived rather than measured" in shown and "The MLPerf scenario with all samples in one query" in shown


def test_validate_quiet_prints_one_summary_line(data_copy):
    result = cli("validate", "--quiet", "--data", data_copy)
    assert result.exit_code == 0
    assert re.fullmatch(
        r"validate \S+: 0 violation\(s\), \d+ warning\(s\), \d+ info \(benchkg validate lists them\)\n", result.stdout
    ), result.stdout
