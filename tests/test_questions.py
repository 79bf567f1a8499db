"""The README's question list: every question is answered by the command beside it, on the full
data/, and each answer holds what the question asks for."""
from __future__ import annotations

import json
import re
import shlex
import shutil

import pytest

from conftest import FULL_DATA, cli
from benchkg.resources import ROOT

QUESTIONS = re.findall(r"^\| (.+\?) \| `benchkg (.+?)` \|$",
                       (ROOT / "README.md").read_text(encoding="utf-8").split("### Questions and the commands")[1],
                       re.M)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    target = tmp_path_factory.mktemp("questions") / "data"
    shutil.copytree(FULL_DATA, target, ignore=shutil.ignore_patterns(".benchkg"))
    return target


def test_the_readme_lists_the_questions():
    assert len(QUESTIONS) >= 12


@pytest.mark.parametrize("question,command", QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_each_question_is_answered(data, question, command):
    args = shlex.split(command)
    if args[0] == "query":
        result = cli(*args, "--format", "json", "--data", data)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout), f"no rows for: {question}"
    else:
        result = cli(*args, "--data", data)
        assert result.exit_code == 0, result.output
        assert len(result.stdout.splitlines()) > 5


def test_submitters_per_round_counts_match_the_records(data):
    rows = json.loads(cli("query", "submitters-per-round", "--format", "json", "--data", data).stdout)
    claims = [json.loads(p.read_text()) for p in (data / "benchmarks").glob("*.json")]
    cpus = {p.stem for p in (data / "accelerators").glob("*.json") if json.loads(p.read_text())["kind"] == "cpu"}
    for row in rows:
        mine = [c for c in claims if c["suite_id"] == row["suite"]]
        assert row["results"] == len(mine)
        assert row["submitters"] == len({c["submitter_id"] for c in mine if "submitter_id" in c})
        assert row["cpu_only_results"] == sum(1 for c in mine if set(c["accelerator_ids"]) <= cpus)
    assert {r["suite"]: r["results"] for r in rows if r["suite"] != "mlperf-inference-v6.1"} == \
        {"mlperf-inference-v4.1": 937, "mlperf-inference-v5.1": 1448, "mlperf-inference-v6.0": 520}


def test_sorting_by_total_ranks_the_stated_values(data):
    rows = json.loads(cli("query", "leaderboard", "--param", "scenario=offline", "--param", "sort=total",
                          "--format", "json", "--limit", "0", "--data", data).stdout)
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True)
    per = json.loads(cli("query", "leaderboard", "--param", "scenario=offline", "--format", "json", "--limit", "0",
                         "--data", data).stdout)
    ranked = [r["per_accelerator"] for r in per if r["per_accelerator"] is not None]
    assert ranked == sorted(ranked, reverse=True) and len(ranked) > 10
    # a heterogeneous system has no per-accelerator value: it comes after every result that has one
    assert all(r["per_accelerator"] is None for r in per[len(ranked):])
