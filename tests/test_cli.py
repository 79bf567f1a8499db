"""Every command, in-process, against the seed data or a copy of it."""

from __future__ import annotations

import json

import pytest
from rdflib import Dataset, Graph

from benchkg.cli import app
from conftest import cli

COMMANDS = sorted(c.name or c.callback.__name__ for c in app.registered_commands)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "Example: benchkg " + command in " ".join(result.stdout.split())


def test_build_reports_what_it_did(data_copy):
    first = cli("build", "--data", data_copy)
    n = sum(1 for _ in data_copy.glob("*/*.json"))
    assert first.exit_code == 0 and f"{n} added, 0 changed, 0 removed, 0 unchanged" in first.stdout
    second = cli("build", "--data", data_copy)
    assert f"0 added, 0 changed, 0 removed, {n} unchanged" in second.stdout


def test_build_missing_data_folder_exits_2(tmp_path):
    result = cli("build", "--data", tmp_path / "nope")
    assert result.exit_code == 2 and "data folder not found" in result.stderr


def test_validate_seed_data_exits_0_with_the_seed_warning(data_copy):
    result = cli("validate", "--data", data_copy)
    assert result.exit_code == 0, result.stdout
    line = next(l for l in result.stdout.splitlines() if "[warning]" in l)
    assert line.startswith(f"{data_copy}/benchmarks/bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json:")
    assert "895328" in line and "1.7 %" in line
    assert cli("validate", "--strict", "--data", data_copy).exit_code == 1


def test_validate_interconnect_not_on_accelerator_exits_1(data_copy):
    path = data_copy / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb300-nvl72-qwen3-vl-server.json"
    record = json.loads(path.read_text())
    record["interconnect_ids"].append("nvlink-4")
    path.write_text(json.dumps(record, indent=2))
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if '"nvlink-4"' in l)
    result = cli("validate", "--data", data_copy)
    assert result.exit_code == 1
    assert (
        f"{path}:{line} /interconnect_ids/2 [violation] fabric-present: nvlink-4 is present neither in this "
        f"claim's system nor in its accelerators' specification"
    ) in result.stdout


def test_query_formats(data_copy):
    table = cli(
        "query",
        "leaderboard",
        "--param",
        "model=llama2-70b",
        "--param",
        "scenario=server",
        "--data",
        data_copy,
        env={"COLUMNS": "500"},
    )
    assert table.exit_code == 0
    row = next(l for l in table.stdout.splitlines() if l.startswith("bench-mlperf-v6-1-coreweave-gb200"))
    assert "910,621.36" in row and " 72 " in row and "12,647.52" in row and "samples-times-tokens" in row
    md = cli("query", "leaderboard", "--format", "markdown", "--data", data_copy)
    assert md.stdout.startswith("| claim | system_name | submitted_by | accelerators |")
    js = json.loads(cli("query", "leaderboard", "--format", "sparql-json", "--data", data_copy).stdout)
    assert js["results"]["bindings"][0]["accelerator_count"]["value"] == "72"
    rows = json.loads(cli("query", "leaderboard", "--format", "json", "--data", data_copy).stdout)
    assert (
        rows[0]["accelerator_count"] == 72
        and rows[0]["claim"] == "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server"
    )


def test_query_from_a_file(tmp_path, data_copy):
    rq = tmp_path / "count.rq"
    rq.write_text(
        "PREFIX bk: <https://w3id.org/benchkg/ontology#>\nSELECT (COUNT(?c) AS ?claims) WHERE { ?c a bk:Benchmark }"
    )
    result = cli("query", rq, "--format", "csv", "--data", data_copy)
    n = sum(1 for _ in (data_copy / "benchmarks").glob("*.json"))
    assert result.stdout.splitlines() == ["claims", str(n)]


def test_query_unknown_name_suggests(data_copy):
    result = cli("query", "leaderbord", "--data", data_copy)
    assert result.exit_code == 2 and "did you mean 'leaderboard'" in result.stderr


def test_bad_query_file_exits_2(tmp_path, data_copy):
    rq = tmp_path / "bad.rq"
    rq.write_text("SELECT WHERE {")
    result = cli("query", rq, "--data", data_copy)
    assert result.exit_code == 2 and "does not parse" in result.stderr


def test_queries_lists_every_saved_query_with_params():
    from benchkg.answers.savedquery import saved_queries

    result = cli("queries")
    assert result.exit_code == 0
    for name, q in saved_queries().items():
        assert f"{name}: {q.summary}" in result.stdout
        for p in q.params:
            assert f"--param {p} (" in result.stdout


def test_show_claim_with_gotchas_and_findings(data_copy):
    result = cli("show", "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server", "--data", data_copy)
    assert result.exit_code == 0
    out = result.stdout
    assert "derived: 12,647.52 tokens/s per-accelerator" in out
    assert "[caution] bench-mlperf-offline-is-not-always-faster-than-server" in out
    assert "[warning] samples-times-tokens-agrees" in out


def test_show_entity_lists_what_refers_to_it(data_copy):
    result = cli("show", "nvidia-gb300-nvl72", "--data", data_copy)
    assert result.exit_code == 0
    assert "benchmarks/bench-mlperf-v6-1-coreweave-gb300-nvl72-qwen3-vl-server" in result.stdout


def test_show_unknown_id_exits_2(data_copy):
    result = cli("show", "no-such-thing", "--data", data_copy)
    assert result.exit_code == 2 and "'no-such-thing' names no record" in result.stderr


@pytest.mark.slow
def test_export_turtle_and_ntriples_hold_the_same_triples(tmp_path, data_copy):
    ttl, nt = tmp_path / "g.ttl", tmp_path / "g.nt"
    assert cli("export", "-o", ttl, "--data", data_copy).exit_code == 0
    assert cli("export", "-o", nt, "--data", data_copy).exit_code == 0
    a, b = Graph().parse(ttl, format="turtle"), Graph().parse(nt, format="nt")
    assert len(a) > 500 and set(a) == set(b)


@pytest.mark.slow
def test_export_trig_and_jsonld_keep_named_graphs(tmp_path, data_copy):
    trig, jsonld = tmp_path / "g.trig", tmp_path / "g.jsonld"
    assert cli("export", "-o", trig, "--data", data_copy).exit_code == 0
    assert cli("export", "-o", jsonld, "--data", data_copy).exit_code == 0
    d1 = Dataset().parse(trig, format="trig")
    d2 = Dataset().parse(jsonld, format="json-ld")
    n = sum(1 for _ in data_copy.glob("*/*.json"))
    graphs = {str(g.identifier) for g in d1.graphs() if len(g)}
    assert len(graphs) == n + 1  # one per record file, plus the derived caveats
    assert {tuple(map(str, q)) for q in d1.quads()} == {tuple(map(str, q)) for q in d2.quads()}


def test_export_unknown_extension_exits_2_and_writes_nothing(tmp_path, data_copy):
    target = tmp_path / "g.xyz"
    result = cli("export", "-o", target, "--data", data_copy)
    assert result.exit_code == 2 and "--format" in result.stderr and not target.exists()


def test_an_unexpected_error_is_exit_3_in_one_line_and_the_traceback_only_with_debug(data_copy, monkeypatch):
    import benchkg.api

    def broken(self, progress=None):
        raise RuntimeError("disk on fire\nsecond line")

    monkeypatch.setattr(benchkg.api.KnowledgeGraph, "build", broken)
    result = cli("validate", "--data", data_copy)
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "Error: benchkg failed unexpectedly (RuntimeError: disk on fire second line). "
        "This is a bug; please report it at https://github.com/benchkg/benchkg/issues"
    )
    debug = cli("--debug", "validate", "--data", data_copy)
    assert isinstance(debug.exception, RuntimeError) and debug.exit_code == 1  # CliRunner: the raised error


@pytest.mark.parametrize("fmt", ["github", "sarif", "json", "text"])
def test_unreadable_records_are_reported_in_the_format_ci_asked_for(data_copy, fmt):
    bad = data_copy / "benchmarks" / "bad.json"
    bad.write_text('{\n  "id": "bad",\n  "value": "910,621"\n}\n')
    result = cli("validate", "--format", fmt, "--data", data_copy)
    assert result.exit_code == 2
    message = "expected a number, got string; write 910621 without quotes or separators"
    assert f"Error: {bad}:3: /value: {message}" in result.stderr
    if fmt == "github":
        assert result.stdout == f"::error file={bad},line=3,title=input-error /value::{message}\n"
    elif fmt == "sarif":
        [found] = json.loads(result.stdout)["runs"][0]["results"]
        assert found["ruleId"] == "input-error" and found["level"] == "error"
        assert found["locations"][0]["physicalLocation"] == {
            "artifactLocation": {"uri": str(bad)},
            "region": {"startLine": 3},
        }
    elif fmt == "json":
        assert json.loads(result.stdout)["findings"] == [
            {
                "file": str(bad),
                "line": 3,
                "pointer": "/value",
                "severity": "violation",
                "shape": "input-error",
                "message": message,
                "focus": "",
            }
        ]
    else:
        assert result.stdout == ""


def test_version_says_which_benchkg_runs_and_builds_nothing(tmp_path, monkeypatch):
    from benchkg import __version__

    monkeypatch.chdir(tmp_path)
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout == f"benchkg {__version__}\n"
    assert not any(tmp_path.iterdir())
