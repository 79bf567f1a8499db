"""The README's questions, run from the README's text on the full data/: each MLPerf question's rows are
compared with the answer computed a second way from MLCommons' own results summaries in
../shared/realdata (tests/mlperf_oracle.py; skipped with the reason where that folder is absent), each
other question with what its answer must hold."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from decimal import Decimal

import pytest

import mlperf_oracle as oracle
from benchkg.kernel.resources import ROOT
from conftest import FULL_DATA, SHARED, cli

SECTION = (
    (ROOT / "docs" / "queries.md")
    .read_text(encoding="utf-8")
    .split("## Questions and the commands")[1]
    .split("\n# ")[0]
)
#: (question, command, its form in the results algebra or "") of each row of the README's table
TABLE = re.findall(r"^\| (.+\?) \| `benchkg (.+?)` \| (?:`benchkg (results .+?)`|—) \|$", SECTION, re.M)
QUESTIONS = [(q, c) for q, c, _ in TABLE]
ALGEBRA_FORMS = [(q, c, a) for q, c, a in TABLE if a]
RAW = SHARED / "realdata"
TOLERANCE = Decimal("0.0001")  # the derived per-accelerator values are rounded to 4 places


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    target = tmp_path_factory.mktemp("questions") / "data"
    shutil.copytree(FULL_DATA, target, ignore=shutil.ignore_patterns(".benchkg"))
    return target


@pytest.fixture(scope="module")
def record():
    if not (RAW / "mlperf_inference_v6.0" / "summary_results.json").exists():
        pytest.skip(f"the MLPerf summaries are not here ({RAW}): a checkout without ../shared")
    return oracle.load(RAW, FULL_DATA)


def answer(data, command: str) -> tuple[list[dict], str]:
    result = cli(*shlex.split(command), "--format", "json", "--limit", "0", "--data", data)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout, parse_float=Decimal), result.stderr


def params_of(command: str) -> dict[str, str]:
    args = shlex.split(command)
    return dict(args[i + 1].split("=", 1) for i, a in enumerate(args) if a == "--param")


def near(a, b) -> bool:
    return a is None and b is None or a is not None and b is not None and abs(Decimal(a) - Decimal(b)) <= TOLERANCE


def check_best_per_accelerator(rows, notes, record, params):
    expected = oracle.best_per_accelerator(record, params)
    got = {r["accelerator"]: r["best_per_accelerator"] for r in rows}
    assert set(got) == set(expected)
    assert all(near(got[chip], abs(expected[chip])) for chip in expected), (got, expected)


def check_leaderboard(rows, notes, record, params):
    expected = oracle.leaderboard(record, params)
    assert {r["claim"] for r in rows} == {claim for claim, _, _ in expected}
    want = {claim: (per, value) for claim, per, value in expected}
    for row in rows:
        per, value = want[row["claim"]]
        assert near(row["per_accelerator"], per) and Decimal(row["value"]) == value, row
    key = "value" if params.get("sort") == "total" or rows[0]["unit"] in oracle.LOWER_IS_BETTER else "per_accelerator"
    ranked = [Decimal(r[key]) for r in rows if r[key] is not None]
    lower = rows[0]["unit"] in oracle.LOWER_IS_BETTER
    assert ranked == sorted(ranked, reverse=not lower), "best first, as the unit reads"


def check_round_over_round(rows, notes, record, params):
    best, absent = oracle.round_over_round(record, params)
    got = {
        r["version"]: (-Decimal(r["value"]) if r["unit"] in oracle.LOWER_IS_BETTER else r["per_accelerator"])
        for r in rows
    }
    assert set(got) == set(best) and all(near(got[v], best[v]) for v in best), (got, best)
    for version in absent:
        assert f"MLPerf Inference v{version}" in notes.split("No result in", 1)[-1], notes


def check_submitters_per_round(rows, notes, record, params):
    expected = oracle.submitters_per_round(record, params)
    got = {
        r["suite"]: {
            k: r[k] or 0
            for k in ("submitters", "systems", "results", "cpu_only_results", "closed_results", "open_results")
        }
        for r in rows
    }
    assert got == expected


def check_new_in_round(rows, notes, record, params):
    assert {(r["model"], r["scenario"]): (r["results"], r["submitters"]) for r in rows} == oracle.new_in_round(
        record, params
    )


def check_preview_to_available(rows, notes, record, params):
    got = {
        (r["submitter"], r["accelerator"], r["version"]): (
            r["preview_results"],
            r["next_version"],
            r["next_availability"],
            r["next_results"],
        )
        for r in rows
    }
    assert got == oracle.preview_to_available(record, params)


def check_vendor_vs_audited(rows, notes, record, params):
    expected = oracle.vendor_vs_audited(record, params)
    got = {r["vendor_claim"]: (r["audited_per_accelerator"], r["ratio"]) for r in rows}
    assert set(got) == set(expected)
    for claim, (best, ratio) in expected.items():
        assert near(got[claim][0], best) and abs(Decimal(got[claim][1]) - ratio) <= TOLERANCE, (claim, got[claim])


def check_server_vs_offline(rows, notes, record, params):
    expected = oracle.server_vs_offline(record, params)
    got = {(r["server"], r["offline"]): Decimal(r["ratio"]) for r in rows}
    assert set(got) == set(expected)
    assert all(abs(got[c] - expected[c]) <= TOLERANCE for c in expected)
    assert all(r["inverted"] == (Decimal(r["ratio"]) > 1) for r in rows)


def check_capped_vs_uncapped(rows, notes, record, params):
    expected = oracle.capped_vs_uncapped(record, params)
    got = {r["capped"]: (r["uncapped_per_accelerator"], Decimal(r["ratio"])) for r in rows}
    assert set(got) == set(expected) and expected
    assert all(near(got[c][0], expected[c][0]) and abs(got[c][1] - expected[c][1]) <= TOLERANCE for c in expected)


def check_open_vs_closed(rows, notes, record, params):
    expected = oracle.open_vs_closed(record, params)
    got = {
        (r["accelerator"], r["submitter"], r["suite"]): (r["open_best"], r["closed_best"], Decimal(r["ratio"]))
        for r in rows
    }
    assert set(got) == set(expected)
    for key, (o, c, ratio) in expected.items():
        assert near(got[key][0], o) and near(got[key][1], c) and abs(got[key][2] - ratio) <= TOLERANCE


def check_rate(column: str, query: str, field: str, places: int):
    def check(rows, notes, record, params):
        expected = oracle.per_chip_rate(record, query, params, field, places)
        got = {r["claim"]: Decimal(r[column]) for r in rows}
        assert set(got) == set(expected)
        assert all(abs(got[c] - expected[c]) <= Decimal(1).scaleb(-places) for c in expected)
        assert list(got.values()) == sorted(got.values(), reverse=True)

    return check


MLPERF_CHECKS = {
    "best-per-accelerator": check_best_per_accelerator,
    "leaderboard": check_leaderboard,
    "round-over-round": check_round_over_round,
    "submitters-per-round": check_submitters_per_round,
    "new-in-round": check_new_in_round,
    "preview-to-available": check_preview_to_available,
    "vendor-vs-audited": check_vendor_vs_audited,
    "server-vs-offline": check_server_vs_offline,
    "capped-vs-uncapped": check_capped_vs_uncapped,
    "open-vs-closed": check_open_vs_closed,
    "tokens-per-bandwidth": check_rate("tokens_per_s_per_tbs", "tokens-per-bandwidth", "memory_bandwidth_tbs", 2),
    "per-watt-of-tdp": check_rate("per_watt_of_tdp", "per-watt-of-tdp", "tdp_w", 3),
}
#: what the answer to each other question must say (its first word is the command)
OTHER_CHECKS = {
    "show": ["accelerator_interconnect: 5th Gen NVLink", "referred to by:", "mlperf-6.0-0010-llama2-70b-99-offline"],
    "compare": ["Not comparable", "- scenario: server vs offline"],
    "explain": ["MLPerf submission checker derived"],
}


def test_the_readme_lists_thirty_questions_each_one_command():
    mlperf = [c for _, c in QUESTIONS if shlex.split(c)[0] == "query" and shlex.split(c)[1] in MLPERF_CHECKS]
    assert len(QUESTIONS) >= 30 and len(mlperf) >= 30
    for _, command in QUESTIONS:
        args = shlex.split(command)
        assert args[0] in ("query", "show", "compare", "explain"), command
        assert (
            args[0] != "query"
            or args[1] in MLPERF_CHECKS
            or args[1]
            in (
                "fabric-claims",
                "accelerator-fabrics",
                "per-accelerator-consistency",
                "omitted-by-source",
                "compute-bound",
                "at-interactivity",
                "superlatives",
            )
        ), command


@pytest.mark.slow  # every question on the full data/, against MLCommons' own summaries
@pytest.mark.parametrize(
    "question,command",
    [qc for qc in QUESTIONS if shlex.split(qc[1])[0] == "query" and shlex.split(qc[1])[1] in MLPERF_CHECKS],
    ids=[q for q, c in QUESTIONS if shlex.split(c)[0] == "query" and shlex.split(c)[1] in MLPERF_CHECKS],
)
def test_each_mlperf_question_gives_the_rows_the_summaries_give(data, record, question, command):
    rows, notes = answer(data, command)
    assert rows, f"no rows for: {question}"
    MLPERF_CHECKS[shlex.split(command)[1]](rows, notes, record, params_of(command))


@pytest.mark.parametrize(
    "question,command",
    [qc for qc in QUESTIONS if not (shlex.split(qc[1])[0] == "query" and shlex.split(qc[1])[1] in MLPERF_CHECKS)],
    ids=[q for q, c in QUESTIONS if not (shlex.split(c)[0] == "query" and shlex.split(c)[1] in MLPERF_CHECKS)],
)
@pytest.mark.slow
def test_each_other_question_is_answered(data, question, command):
    args = shlex.split(command)
    if args[0] == "query":
        rows, _ = answer(data, command)
        assert rows, f"no rows for: {question}"
        return
    result = cli(*args, *(["--data", data] if args[0] != "explain" else []))
    assert result.exit_code == 0, result.output
    for text in OTHER_CHECKS[args[0]]:
        assert text in result.stdout, (text, result.stdout[:2000])


def test_every_row_of_the_table_is_read():
    rows = [line for line in SECTION.splitlines() if line.startswith("| ") and not line.startswith("| question")]
    assert len(TABLE) == len(rows) and len(ALGEBRA_FORMS) >= 8


@pytest.mark.slow
@pytest.mark.parametrize("question,command,form", ALGEBRA_FORMS, ids=[q for q, _, _ in ALGEBRA_FORMS])
def test_each_algebra_form_answers_with_the_saved_query_s_claims(data, question, command, form):
    """The third column: the results algebra, all defaults spelled out, gives the very claims of the
    saved query (both read as the README prints them)."""
    saved, _ = answer(data, command)
    algebra, _ = answer(data, form)
    assert saved and {r["claim"] for r in algebra} == {r["claim"] for r in saved}, question
    assert len(algebra) == len(saved)


def test_the_oracle_is_not_the_graph(record):
    """The second route reads the summaries' own numbers: a result whose record was edited would differ."""
    row = next(r for r in record.results if r.claim == "mlperf-6.0-0033-llama2-70b-99-offline")
    assert row.capped and row.value == Decimal("81870.5") and row.count == 8 and row.submitter == "dell-mangoboost"


def test_submitters_per_round_counts_match_the_records(data):
    rows = json.loads(cli("query", "submitters-per-round", "--format", "json", "--data", data).stdout)
    assert {r["suite"]: r["results"] for r in rows if r["suite"] != "mlperf-inference-v6.1"} == {
        "mlperf-inference-v4.1": 937,
        "mlperf-inference-v5.1": 1448,
        "mlperf-inference-v6.0": 520,
    }


def test_a_mix_has_no_per_accelerator_value_and_ranks_last(data):
    per = json.loads(
        cli(
            "query",
            "leaderboard",
            "--param",
            "scenario=offline",
            "--param",
            "model=llama2-70b",
            "--format",
            "json",
            "--limit",
            "0",
            "--data",
            data,
        ).stdout
    )
    ranked = [r["per_accelerator"] for r in per if r["per_accelerator"] is not None]
    assert ranked == sorted(ranked, reverse=True) and len(ranked) > 10
    assert all(r["per_accelerator"] is None for r in per[len(ranked) :])
    assert all("+" in r["accelerators"] for r in per[len(ranked) :]), "only a mix has none"
