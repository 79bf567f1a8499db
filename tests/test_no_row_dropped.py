"""Answers that never drop a row silently (issue 62): every row of a slice is answered, kept in a group of
its own, or counted under the answer with the fact it lacks; numbers keep their precision in data formats;
one meaning for each word. Each expected answer is read a second way: from the record files, or by a Python
filter over the whole table ``kg.results()`` gives."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
from collections import Counter
from decimal import Context, Decimal

import pytest

from benchkg.kernel.vocab import LOWER_IS_BETTER
from conftest import FULL_DATA, SHARED, cli

RAW = SHARED / "realdata"

pytestmark = pytest.mark.slow  # the whole data/ folder, built


def _records(kind: str = "benchmarks") -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in (FULL_DATA / kind).glob("*.json")}


@pytest.fixture(scope="module")
def claims() -> dict[str, dict]:
    return _records()


@pytest.fixture(scope="module")
def chips() -> dict[str, dict]:
    return _records("accelerators")


def _csv(*args: str) -> list[dict[str, str]]:
    """``benchkg results ARGS --format csv --limit 0`` as rows; the command must succeed."""
    done = cli("results", *args, "--format", "csv", "--limit", "0")
    assert done.exit_code == 0, done.output
    return list(csv.DictReader(io.StringIO(done.stdout)))


def _table(*args: str) -> str:
    done = cli("results", *args, "--limit", "0", env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    return done.stdout


def _audited(claim: dict, version: str) -> bool:
    return claim.get("measured_by") == "mlcommons" and claim["suite_id"] == f"mlperf-inference-v{version}"


# ---------------------------------------------------------------- --where base_chip=… parses


def test_where_base_chip_answers_what_a_filter_over_the_whole_table_gives(full_copy, full_kg):
    every = full_kg.results(where=["round=6.1"], columns=["claim", "base_chip", "model"])
    expected = Counter(r["model"] for r in every if r["base_chip"] == "nvidia-b300-sxm-270gb")
    rows = _csv(
        "--where",
        "base_chip=nvidia-b300-sxm-270gb",
        "--where",
        "round=6.1",
        "--group-by",
        "model",
        "--data",
        str(full_copy),
    )
    assert expected and {r["model"]: int(r["count"]) for r in rows} == dict(expected)


# ---------------------------------------------------------------- per-accelerator precision; CPU-only


def test_per_accelerator_keeps_its_precision_in_a_data_format(full_copy, claims):
    """A derived value is the aggregate ÷ count to 10 significant digits (0.0783824 ÷ 8 was 0.0098)."""
    rows = _csv(
        "--where",
        "round=6.1",
        "--where",
        "accelerator_kind=chip",
        "--columns",
        "claim,per_accelerator",
        "--data",
        str(full_copy),
    )
    exact = Context(prec=10)
    checked = 0
    for row in rows:
        claim = claims[row["claim"]]
        if (
            claim.get("scope") == "aggregate"
            and claim.get("metric", "throughput") == "throughput"
            and row["per_accelerator"]
        ):
            expected = exact.divide(Decimal(str(claim["value"])), Decimal(claim["accelerator_count"]))
            assert Decimal(row["per_accelerator"]) == expected, row["claim"]
            checked += 1
    assert checked > 100


def test_a_cpu_only_result_has_no_per_accelerator_value_but_a_per_socket_one(full_copy, claims, chips):
    """Its count is of sockets: ranked per accelerator, a socket was an accelerator; its value per socket
    is a column of its own."""
    rows = _csv(
        "--where", "accelerator_kind=none", "--columns", "claim,per_accelerator,per_socket", "--data", str(full_copy)
    )  # fmt: skip
    cpu_only = {
        cid
        for cid, c in claims.items()
        if c.get("accelerator_ids") and all(chips[a].get("kind") == "cpu" for a in c["accelerator_ids"])
    }
    assert rows and {r["claim"] for r in rows} <= cpu_only
    assert [r["claim"] for r in rows if r["per_accelerator"]] == []
    aggregate = [
        r
        for r in rows
        if claims[r["claim"]].get("scope") == "aggregate"
        and claims[r["claim"]].get("metric", "throughput") == "throughput"
    ]
    assert aggregate and all(
        Decimal(r["per_socket"])
        == Context(prec=17).divide(Decimal(str(claims[r["claim"]]["value"])), claims[r["claim"]]["accelerator_count"])
        for r in aggregate
    )


# ---------------------------------------------------------------- --best-per keeps every group, counts the rest

BEST_SLICE = ["round=6.1", "division=closed", "system_type=datacenter"]


def _left_out(text: str, fact: str) -> tuple[int, int, list[str]]:
    """(left out, of, the claims named) from an answer's "Left out for want of FACT" line."""
    m = re.search(rf"Left out for want of {fact}: (\d+) of (\d+) results? \([^)]*\): (.*)", text)
    assert m, text
    return int(m.group(1)), int(m.group(2)), m.group(3).split(", ")


def test_best_per_keeps_a_group_without_a_key_and_counts_what_has_no_score(full_copy, full_kg):
    """A model without a tier is a group of its own, not dropped; a result with no per-accelerator value
    (and no lower-is-better value) is counted under the answer with the fact it lacks."""
    every = full_kg.results(where=BEST_SLICE, columns=["claim", "model", "tier", "scenario", "unit", "per_accelerator"])
    scored = [r for r in every if r["per_accelerator"] is not None or r["unit"] in LOWER_IS_BETTER]
    expected = {(r["model"], r["tier"] or "", r["scenario"], r["unit"]) for r in scored}
    where = [a for w in BEST_SLICE for a in ("--where", w)]
    args = [*where, "--best-per", "model,tier,scenario", "--data", str(full_copy)]
    rows = _csv(*args, "--columns", "model,tier,scenario,unit")
    assert {(r["model"], r["tier"], r["scenario"], r["unit"]) for r in rows} == expected
    assert any(not r["tier"] for r in rows)  # the untiered models' groups are there
    out, of, named = _left_out(_table(*args), "per_accelerator")
    assert (out, of) == (len(every) - len(scored), len(every)) and out > 0
    assert named[0] == min(r["claim"] for r in every if r not in scored)


def test_best_per_with_compare_value_ranks_what_has_no_per_accelerator_value(full_copy, full_kg):
    every = full_kg.results(where=BEST_SLICE, columns=["claim", "model", "scenario", "unit", "value"])
    where = [a for w in BEST_SLICE for a in ("--where", w)]
    args = [*where, "--best-per", "model,scenario", "--compare", "value", "--data", str(full_copy)]
    rows = _csv(*args, "--columns", "claim,model,scenario,unit,value")
    best: dict[tuple, Decimal] = {}
    for r in every:
        key, v = (r["model"], r["scenario"], r["unit"]), r["value"] if r["unit"] in LOWER_IS_BETTER else -r["value"]
        best[key] = min(best.get(key, v), v)
    got = {(r["model"], r["scenario"], r["unit"]): Decimal(r["value"]) for r in rows}
    assert got == {k: (v if k[2] in LOWER_IS_BETTER else -v) for k, v in best.items()}
    assert "Left out for want of" not in _table(*args)


# ---------------------------------------------------------------- --pair of a latency: compared as stated


def test_a_pair_of_latencies_compares_the_value_as_stated_and_says_so(full_copy, full_kg):
    """A latency has no value per accelerator: a pair not holding the count compares it as stated."""
    where = ["model=wan-2.2-t2v-a14b", "scenario=single-stream"]
    every = full_kg.results(
        where=[*where, "round=in:6.0,6.1"], columns=["claim", "submitter", "platform_id", "round", "value", "unit"]
    )
    lowest: dict[tuple, dict[str, Decimal]] = {}
    for r in every:
        assert r["unit"] in LOWER_IS_BETTER
        side = lowest.setdefault((r["submitter"], r["platform_id"]), {})
        side[r["round"]] = min(side.get(r["round"], r["value"]), r["value"])
    expected = {k: (v["6.0"], v["6.1"]) for k, v in lowest.items() if len(v) == 2}
    args = [a for w in where for a in ("--where", w)] + ["--pair", "round=6.0,6.1", "--hold", "submitter,platform_id"]
    rows = _csv(*args, "--data", str(full_copy))
    assert (
        expected and {(r["submitter"], r["platform_id"]): (Decimal(r["a"]), Decimal(r["b"])) for r in rows} == expected
    )
    assert all(Decimal(r["ratio"]) == Context(prec=17).divide(Decimal(r["b"]), Decimal(r["a"])) for r in rows)
    title = _table(*args, "--data", str(full_copy)).split("\n\n")[0]
    assert f"{len(expected)} pair{'s' if len(expected) != 1 else ''} compared as stated" in " ".join(title.split())


# ---------------------------------------------------------------- aggregates over the values present


@pytest.mark.parametrize("agg", ["avg", "sum", "min", "max"])
def test_an_aggregate_is_over_the_values_present_and_counts_the_rows_without(full_copy, full_kg, agg):
    every = full_kg.results(where=["round=6.1"], columns=["claim", "unit", "per_accelerator"])
    groups: dict[str, list] = {}
    for r in every:
        groups.setdefault(r["unit"], []).append(r["per_accelerator"])
    rows = _csv(
        "--where", "round=6.1", "--group-by", "unit", "--agg", f"{agg}:per_accelerator", "--data", str(full_copy)
    )
    got = {r["unit"]: (r[f"{agg}_per_accelerator"], int(r["count"]), int(r["without"])) for r in rows}
    expected = {}
    for unit, values in groups.items():
        present = [v for v in values if v is not None]
        number = {"avg": lambda n: Context(prec=17).divide(sum(n), len(n)), "sum": sum, "min": min, "max": max}[agg]
        expected[unit] = (number(present) if present else None, len(present), len(values) - len(present))
    assert {u: (Decimal(v) if v else None, n, w) for u, (v, n, w) in got.items()} == expected
    assert any(w and n for _, n, w in expected.values())  # a group with values and rows without


# ---------------------------------------------------------------- one spelling whatever its case


def test_chip_spellings_that_differ_only_in_case_are_one(full_copy, claims):
    systems = _records("systems")
    expected: Counter = Counter()
    for claim in claims.values():
        spelled = systems.get(claim.get("system_id"), {}).get("description", {}).get("accelerator_model_name")
        if _audited(claim, "6.1") and spelled and "b300-sxm-270" in spelled.lower():
            expected[spelled.casefold()] += 1
    assert (
        len(
            {
                s
                for c in claims.values()
                for s in [systems.get(c.get("system_id"), {}).get("description", {}).get("accelerator_model_name")]
                if s and s.casefold() == "nvidia b300-sxm-270gb"
            }
        )
        > 1
    )
    args = ["--where", "round=6.1", "--where", "measured_by=mlcommons", "--where", "chip_spelling~b300-sxm-270"]
    rows = _csv(*args, "--group-by", "chip_spelling", "--data", str(full_copy))
    assert {r["chip_spelling"]: int(r["count"]) for r in rows} == dict(expected)
    named = _csv(
        "--where",
        "round=6.1",
        "--where",
        "measured_by=mlcommons",
        "--where",
        "chip_spelling=Nvidia B300-SXM-270GB",
        "--columns",
        "claim",
        "--data",
        str(full_copy),
    )
    assert len(named) == expected["nvidia b300-sxm-270gb"]


# ---------------------------------------------------------------- submitters-per-round counts MLCommons results


def test_submitters_per_round_counts_mlcommons_results_and_the_rest_apart(full_copy, claims):
    done = cli("query", "submitters-per-round", "--format", "json", "--data", str(full_copy))
    assert done.exit_code == 0, done.output
    got = {r["version"]: r for r in json.loads(done.stdout)}
    in_61 = [c for c in claims.values() if c["suite_id"] == "mlperf-inference-v6.1"]
    published = [c for c in in_61 if c.get("measured_by") == "mlcommons"]
    assert len(published) < len(in_61)  # vendors restated some
    assert got["6.1"]["results"] == len(published)
    assert got["6.1"]["not_mlcommons_left_out"] == len(in_61) - len(published)
    assert got["6.1"]["submitters"] == len({c["submitter_id"] for c in published})


# ---------------------------------------------------------------- one MLPerf system ID however it is spelled


def test_a_pair_holds_an_mlperf_system_id_with_dashes_and_case_folded(full_copy, full_kg):
    """Oracle's MI355X system is 8xMI355X_2xEPYC_9575F in v6.0 and 8xMI355X_2xEPYC-9575F in v6.1."""
    hold = ["submitter", "platform_id", "scenario", "tier"]
    where = ["model=llama2-70b", "measured_by=mlcommons"]
    every = full_kg.results(where=[*where, "round=in:6.0,6.1"], columns=["claim", "round", *hold])
    rounds: dict[tuple, set] = {}
    for r in every:
        if r["platform_id"]:
            key = (r["submitter"], re.sub(r"[-_]", "-", r["platform_id"]).casefold(), r["scenario"], r["tier"] or "")
            rounds.setdefault(key, set()).add(r["round"])
    expected = {k for k, v in rounds.items() if v == {"6.0", "6.1"}}
    args = [a for w in where for a in ("--where", w)] + ["--pair", "round=6.0,6.1", "--hold", ",".join(hold)]
    rows = _csv(*args, "--data", str(full_copy))
    got = {(r["submitter"], re.sub(r"[-_]", "-", r["platform_id"]).casefold(), r["scenario"], r["tier"]) for r in rows}
    assert got == expected
    assert ("oracle", "8xmi355x-2xepyc-9575f", "offline", "99.9") in got


# ---------------------------------------------------------------- the forms the analysts needed


def test_tokens_per_sample_is_a_column(full_copy, claims):
    rows = _csv(
        "--where",
        "round=6.1",
        "--where",
        "model=llama2-70b",
        "--columns",
        "claim,tokens_per_sample",
        "--data",
        str(full_copy),
    )
    stated = {r["claim"]: claims[r["claim"]].get("tokens_per_sample") for r in rows}
    assert any(stated.values())
    assert {r["claim"]: Decimal(r["tokens_per_sample"]) if r["tokens_per_sample"] else None for r in rows} == {
        c: Decimal(str(v)) if v is not None else None for c, v in stated.items()
    }


def test_the_published_weight_data_types_are_a_column(full_copy):
    """The weights' formats as MLCommons publishes them (v6.0's summary), a column beside ``format``: a text
    benchkg reads no one format from ("NVFP4 weights with FP8 KV cache") is there too."""
    raw = RAW / "mlperf_inference_v6.0" / "summary_results.json"
    if not raw.exists():
        pytest.skip(f"the MLPerf summaries are not here ({RAW})")
    published: dict[str, str] = {}
    for row in json.loads(raw.read_text()):
        claim = re.sub(r"[^a-z0-9.]+", "-", f"mlperf-{row['ID'].lstrip('v')}-{row['Model']}-{row['Scenario']}".lower())
        text = (row.get("weight_data_types") or "").strip()
        published[claim.strip("-.")] = "" if text.upper() == "UNSET" else text
    rows = _csv("--where", "round=6.0", "--columns", "claim,format,weight_data_types", "--data", str(full_copy))
    got = {r["claim"]: r["weight_data_types"] for r in rows if r["claim"] in published}
    assert len(got) > 400 and got == {c: published[c] for c in got}
    assert any(r["weight_data_types"] and not r["format"] for r in rows)  # no format read, the text kept


def test_the_api_picks_a_pairs_columns_as_the_cli_does(full_copy, full_kg):
    """``kg.results(pair=…, columns=['ratio', …])`` answers what ``--columns`` gives on the command line."""
    args = dict(
        where=["round=6.1", "measured_by=mlcommons"],
        pair="scenario=offline,server",
        columns=["submitter", "platform", "ratio"],
    )
    rows = full_kg.results(**args)
    assert rows.columns == args["columns"]
    cli_rows = _csv(
        *[a for w in args["where"] for a in ("--where", w)],
        "--pair",
        args["pair"],
        "--columns",
        ",".join(args["columns"]),
        "--data",
        str(full_copy),
    )
    assert len(rows) > 10 and [(r["submitter"], r["platform"], Decimal(r["ratio"])) for r in cli_rows] == [
        (r["submitter"], r["platform"], r["ratio"]) for r in rows
    ]
    grouped = full_kg.results(where=args["where"], group_by=["submitter"], columns=["count"])
    assert grouped.columns == ["count"] and sum(r["count"] for r in grouped) == len(
        full_kg.results(where=args["where"], columns=["claim"])
    )


def test_a_share_within_each_group(full_copy, full_kg):
    """What share of each submitter's results is inferred: one command."""
    every = full_kg.results(where=["round=6.1"], columns=["claim", "submitter", "inferred"])
    groups: dict[str, list[bool]] = {}
    for r in every:
        groups.setdefault(r["submitter"], []).append(r["inferred"] is True)
    rows = _csv(
        "--where", "round=6.1", "--group-by", "submitter", "--agg", "share:inferred=true", "--data", str(full_copy)
    )
    got = {r["submitter"]: (int(r["matching"]), int(r["count"]), Decimal(r["share"])) for r in rows}
    assert {s: (m, n) for s, (m, n, _) in got.items()} == {s: (sum(v), len(v)) for s, v in groups.items()}
    assert all(abs(share - Decimal(100 * m) / n) < Decimal("1e-12") for m, n, share in got.values())
    assert 0 < sum(m for m, _, _ in got.values()) < len(every)


def test_distinct_over_several_columns(full_copy, full_kg):
    every = full_kg.results(where=["round=6.1"], columns=["claim", "submitter", "chip", "scenario"])
    combos: dict[str, set] = {}
    for r in every:
        combos.setdefault(r["submitter"], set()).add((r["chip"], r["scenario"]))
    rows = _csv(
        "--where", "round=6.1", "--group-by", "submitter", "--agg", "distinct:chip,scenario", "--data", str(full_copy)
    )
    assert {r["submitter"]: int(r["distinct_chip_scenario"]) for r in rows} == {s: len(c) for s, c in combos.items()}


# ---------------------------------------------------------------- one meaning for "tier 99"


def _leaderboard_claims(full_copy, *params: str) -> set[str]:
    args = [a for p in params for a in ("--param", p)]
    done = cli(
        "query", "leaderboard", *args, "--columns", "claim", "--format", "csv", "--limit", "0", "--data", str(full_copy)
    )
    assert done.exit_code == 0, done.output
    return {r["claim"] for r in csv.DictReader(io.StringIO(done.stdout))}


@pytest.mark.parametrize("model,tier", [("gpt-oss-120b", "99"), ("llama2-70b", "99.9")])
def test_a_tier_named_selects_the_results_that_state_it_in_query_and_results(full_copy, claims, model, tier):
    """``--param accuracy=99`` and ``--where tier=99`` mean one thing: the results that state the tier (a
    model without tiers passed a named tier in the saved query, 55 rows of gpt-oss-120b)."""
    params = [f"model={model}", "suite=mlperf-inference-v6.1", "scenario=offline", f"accuracy={tier}"]
    named = _leaderboard_claims(full_copy, *params)
    stated = {
        cid for cid, c in claims.items() if str(c.get("accuracy_target", "")) == tier and c.get("model_id") == model
    }
    assert named <= stated
    where = _csv(
        "--where",
        f"model={model}",
        "--where",
        "round=6.1",
        "--where",
        "scenario=offline",
        "--where",
        f"tier={tier}",
        "--where",
        "division=closed",
        "--where",
        "system_type=datacenter",
        "--columns",
        "claim",
        "--data",
        str(full_copy),
    )
    assert named == {r["claim"] for r in where}
    if model == "llama2-70b":
        assert named  # a tiered model's results of the tier are there
    else:  # the default tier applies to the models that have tiers only: one without passes it
        assert not named and _leaderboard_claims(full_copy, *params[:3])


# ---------------------------------------------------------------- every row accounted for (the acceptance's property)

SLICES = [
    ["round=6.1"],
    ["round=6.0", "division=closed"],
    ["model=llama2-70b"],
    ["submitter=nvidia"],
    ["accelerator_kind=none"],
    ["unit=ms"],
]
KEYS = ["model", "tier", "scenario"]


@pytest.mark.parametrize("where", SLICES, ids=lambda w: ",".join(w))
def test_every_row_of_the_slice_is_answered_grouped_or_counted(full_kg, where):
    """Group-by: the groups (an empty key one of them) hold every row the --where matches. Best-per: each
    row's group is answered, or the row is counted under "Left out" with the fact it lacks."""
    table = full_kg.results(where=where, columns=["claim", *KEYS, "unit", "per_accelerator"])
    assert table
    grouped = full_kg.results(where=where, group_by=KEYS)
    assert sum(r["count"] for r in grouped) == len(table)
    best = full_kg.results(where=where, best_per=KEYS, columns=["claim", *KEYS, "unit"])
    answered = {tuple(r[k] for k in [*KEYS, "unit"]) for r in best}
    scoreless = [r for r in table if r["per_accelerator"] is None and r["unit"] not in LOWER_IS_BETTER]
    assert {tuple(r[k] for k in [*KEYS, "unit"]) for r in table if r not in scoreless} == answered
    if scoreless:
        out, of, named = _left_out(best.left_out, "per_accelerator")
        assert (out, of) == (len(scoreless), len(table))
    else:
        assert "Left out for want of" not in best.left_out
    assert len(best) + len(scoreless) <= len(table)


DIFFERENCES = [
    {"where": [], "group_by": ["chip"], "only_in": "round=6.0", "not_in": "round=6.1"},
    {"where": ["division=closed"], "group_by": ["tier"], "only_in": "round=6.0", "not_in": "round=6.1"},
    {"where": ["family=mlperf-inference"], "first_in": "round=6.1", "over": ["chip"]},
    {"where": ["family=mlperf-inference"], "first_in": "round=6.1", "over": ["submitter", "model"]},
]


@pytest.mark.parametrize(
    "ask", DIFFERENCES, ids=lambda a: a.get("only_in", a.get("first_in")) + str(a.get("group_by", a.get("over")))
)
def test_a_difference_answers_or_counts_every_result_of_its_side(full_kg, ask):
    """--only-in/--not-in and --first-in: each result of side A is in an answered group, or counted under
    the answer (its key side B has too, or it states none); the groups are those a Python filter gives."""
    keys = ask.get("group_by") or ask["over"]
    a_side = ask.get("only_in") or ask["first_in"]
    b_side = ask.get("not_in") or ask["first_in"].replace("=", "<")
    a = full_kg.results(where=[*ask["where"], a_side], columns=["claim", *keys])
    b = full_kg.results(where=[*ask["where"], b_side], columns=["claim", *keys])
    in_b = {tuple(r[k] for k in keys) for r in b if all(r[k] is not None for k in keys)}
    keyed = [tuple(r[k] for k in keys) for r in a if all(r[k] is not None for k in keys)]
    expected = Counter(k for k in keyed if k not in in_b)
    answer = full_kg.results(**ask)
    assert {tuple(r[k] for k in keys): r["results"] for r in answer} == dict(expected)
    note = re.search(r"Not in the answer, of the (\d+) results with [^:]+: (.*)", answer.left_out)
    rest = len(a) - sum(expected.values())
    if not rest:
        assert note is None
        return
    assert note and int(note.group(1)) == len(a), answer.left_out
    counted = dict((why, int(n)) for n, why in re.findall(r"(\d+) (whose|that state no)", note.group(2)))
    assert counted.get("whose", 0) == len(keyed) - sum(expected.values())
    assert counted.get("that state no", 0) == len(a) - len(keyed)


PAIRS = [
    (["round=6.1"], "scenario=offline,server"),
    (["model=llama2-70b"], "tier=99,99.9"),
    (["model=wan-2.2-t2v-a14b"], "round=6.0,6.1"),
]


@pytest.mark.parametrize("where,pair", PAIRS, ids=lambda x: str(x))
def test_a_pair_and_its_unpaired_cover_both_sides(full_kg, where, pair):
    """Every result of each side is in a pair or counted under "Without a partner"."""
    column, values = pair.split("=")
    answer = full_kg.results(where=where, pair=pair, columns=["a_claim", "b_claim"])
    unpaired = re.search(
        r"Without a partner: (\d+) results? with \S+ only, (\d+)", answer.left_out + " ".join(answer.notes)
    )
    for side, claim_column, n in zip(values.split(","), ("a_claim", "b_claim"), (1, 2)):
        rows = full_kg.results(where=[*where, f"{column}={side}"], columns=["claim"])
        paired = {r[claim_column] for r in answer}
        left = int(unpaired.group(n)) if unpaired else 0
        assert paired <= {r["claim"] for r in rows} and len(paired) + left == len(rows), (side, len(paired), left)


# ---------------------------------------------------------------- the new forms run as a .rq, unchanged

FORMS = [
    ["--where", "round=6.1", "--best-per", "model,tier,scenario", "--columns", "claim,model,tier,scenario,unit"],
    ["--where", "round=6.1", "--best-per", "model,scenario", "--compare", "value", "--columns", "claim,model,value"],
    ["--where", "model=wan-2.2-t2v-a14b", "--pair", "round=6.0,6.1", "--hold", "submitter,platform_id"],
    ["--where", "round=6.1", "--group-by", "unit", "--agg", "avg:per_accelerator"],
    ["--where", "round=6.1", "--group-by", "submitter", "--agg", "share:inferred=true"],
    ["--where", "round=6.1", "--group-by", "submitter", "--agg", "distinct:chip,scenario"],
]


@pytest.mark.parametrize("form", FORMS, ids=lambda f: " ".join(f[2:4]))
def test_each_new_form_explained_runs_as_a_saved_query_to_the_same_rows(full_copy, tmp_path, form):
    """``--explain`` writes a .rq that ``benchkg query FILE.rq`` runs unchanged, to the same rows."""
    text = cli("results", *form, "--explain", "--data", str(full_copy))
    assert text.exit_code == 0, text.output
    (tmp_path / "form.rq").write_text(text.stdout)
    ran = cli("query", str(tmp_path / "form.rq"), "--format", "csv", "--limit", "0", "--data", str(full_copy))
    assert ran.exit_code == 0, ran.output
    direct = cli("results", *form, "--format", "csv", "--limit", "0", "--data", str(full_copy))
    assert ran.stdout == direct.stdout and len(ran.stdout.splitlines()) > 1


# ---------------------------------------------------------------- one path: the CLI's results is kg.results

#: the options of `benchkg results` that shape how an answer is shown or where it is asked, not what it is
_SHOWN = {"schema", "explain", "format", "wide", "endpoint", "timeout", "data", "unpaired", "limit"}
_LISTS = {"columns", "hold", "group_by", "best_per", "over"}
_MORE = [  # beside the help's examples, so that every option is tried
    "--where round=6.1 --where model=llama2-70b --columns claim,submitter,value,per_accelerator --sort -value --top 5",
    "--where round=6.1 --best-per model,tier,scenario --compare value --columns claim,model,tier,scenario",
    "--where model=wan-2.2-t2v-a14b --pair round=6.0,6.1 --hold submitter,platform_id --columns ratio,a,b",
    "--where round=6.1 --group-by submitter --agg distinct:chip,scenario --sort -distinct",
]


def _results_command():
    import typer.main

    from benchkg.cli import app

    return typer.main.get_command(app).commands["results"]  # type: ignore[attr-defined]


def _cases() -> list[str]:
    """The help's examples (`benchkg results …` lines of its docstring) and :data:`_MORE`."""
    examples = [
        line.split("benchkg results", 1)[1].strip()
        for line in _results_command().help.splitlines()
        if "benchkg results " in line
    ]
    return examples + _MORE


def _kwargs(args: str) -> dict:
    """What the command line parses ``args`` into, as kg.results' keywords (comma lists split)."""
    params = _results_command().make_context("results", shlex.split(args)).params
    out = {}
    for name, value in params.items():
        if name in _SHOWN or value in (None, (), []) or (name == "agg" and value == "count"):
            continue
        out[name] = (
            [v.strip() for v in value.split(",")] if name in _LISTS else list(value) if name == "where" else value
        )
    return out


def test_every_option_of_the_cli_is_an_argument_of_kg_results_and_tried():
    import inspect

    from benchkg.api import KnowledgeGraph

    options = {p.name for p in _results_command().params} - _SHOWN
    assert options <= set(inspect.signature(KnowledgeGraph.results).parameters)
    tried = set().union(*(_kwargs(case) for case in _cases()))
    assert options - {"agg"} <= tried and len(_cases()) >= 10


def _same(value):
    return (
        None
        if value in (None, "")
        else Decimal(str(value))
        if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
        else value
    )


@pytest.mark.parametrize("args", _cases())
def test_the_cli_s_results_are_kg_results_with_the_same_options(full_copy, full_kg, args):
    """Generated from the CLI's own options: `benchkg results ARGS --format json` and ``kg.results(**ARGS)``
    give the same rows, cell for cell (issue 62: one path)."""
    done = cli("results", *shlex.split(args), "--format", "json", "--limit", "0", "--data", str(full_copy))
    assert done.exit_code == 0, done.output
    shown = json.loads(done.stdout, parse_float=Decimal)
    api = full_kg.results(**_kwargs(args))
    assert shown, args
    assert [{k: _same(v) for k, v in r.items()} for r in shown] == [{k: _same(v) for k, v in r.items()} for r in api]


# ---------------------------------------------------------------- saved queries: answered + left out = the slice


def _listing_queries() -> list[str]:
    """The saved queries that answer one row per claim (a ``claim`` column)."""
    from benchkg.answers.savedquery import saved_queries

    best_of = {"best-per-accelerator", "round-over-round"}  # a row per group, its claim the best: lifting a
    # default may change which claim is best (their "Left out" counts results of the slice, not rows)
    return sorted(n for n, q in saved_queries().items() if "claim" in (q.columns or []) and n not in best_of)


@pytest.mark.parametrize("name", _listing_queries())
def test_a_saved_query_answers_or_counts_every_claim_its_defaults_leave_out(full_kg, name):
    """Each claim a default leaves out is counted under "Left out", by the parameter that keeps it: lifting
    those parameters (``any``) brings back exactly that many claims, and loses none."""
    kept = full_kg.query(name)
    said = " ".join(kept.left_out.split())  # (wrapped to the terminal's width)
    note = re.search(r"Left out, to compare like with like: (\d+) results?", said)
    lifted_params = set(re.findall(r"--param (\w+)=VALUE", said))
    lifted = full_kg.query(name, **{p: "any" for p in lifted_params})
    claims, more = Counter(r["claim"] for r in kept), Counter(r["claim"] for r in lifted)
    assert not claims - more, "lifting a default lost a claim"
    assert (int(note.group(1)) if note else 0) == len(set(more) - set(claims)), kept.left_out
