"""Every saved query parses, runs, and answers what a second route (tests/oracle.py) computes."""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Context, Decimal

import pytest

import oracle
from benchkg.answers.queries import bind, bound_text, run_query, term_for
from benchkg.answers.results import to_csv, to_json
from benchkg.answers.savedquery import Param, saved_queries
from benchkg.kernel.errors import UsageError
from conftest import DATA, cli

RECORDS = oracle.load(DATA)
QUERIES = saved_queries()


def ids(cell) -> set[str]:
    return set(cell.value.split()) if cell is not None else set()


def local(term) -> str:
    return term.value.rsplit("/", 1)[-1]


def test_every_saved_query_has_a_header():
    for name, q in QUERIES.items():
        assert q.summary and q.description, f"{name} lacks #+ summary or #+ description"


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_saved_query_runs_with_defaults(seed_store, name):
    results = run_query(seed_store, name)
    assert results.vars


@pytest.mark.parametrize(
    "model,scenario",
    [("llama2-70b", "server"), ("llama2-70b", "offline"), ("gpt-oss-120b", "offline"), ("deepseek-r1", "endpoints")],
)
def test_q_leaderboard(seed_store, model, scenario):
    got = run_query(seed_store, "leaderboard", {"model": model, "scenario": scenario}).rows
    expected = oracle.leaderboard(RECORDS, model, scenario)
    assert [
        (
            local(r["claim"]),
            Decimal(r["value"].value),
            Decimal(r["per_accelerator"].value),
            int(r["accelerator_count"].value),
            ids(r.get("gotchas")),
        )
        for r in got
    ] == expected
    assert expected, "the seed data should answer this"


def test_leaderboard_seed_server_claim(seed_store):
    row = run_query(seed_store, "leaderboard", {"model": "llama2-70b", "scenario": "server"}).rows[0]
    claim = RECORDS["benchmarks"][local(row["claim"])]
    assert Decimal(row["value"].value) == claim["value"]
    assert Decimal(row["per_accelerator"].value) == Context(prec=10).divide(claim["value"], claim["accelerator_count"])
    assert row["derived"].value == "true"
    assert {"bench-mlperf-offline-is-not-always-faster-than-server"} <= ids(row["gotchas"])


def test_leaderboard_optional_filters(seed_store):
    all_rows = run_query(seed_store, "leaderboard", {"model": "llama2-70b", "scenario": "server"}).rows
    fp4 = run_query(seed_store, "leaderboard", {"model": "llama2-70b", "scenario": "server", "format": "fp4"}).rows
    fp8 = run_query(seed_store, "leaderboard", {"model": "llama2-70b", "scenario": "server", "format": "fp8"}).rows
    closed = run_query(
        seed_store, "leaderboard", {"model": "llama2-70b", "scenario": "server", "division": "closed"}
    ).rows
    expected_fp4 = [
        c
        for c, r in RECORDS["benchmarks"].items()
        if r.get("model_id") == "llama2-70b" and r.get("scenario") == "server" and r.get("format_id") == "fp4"
    ]
    assert [local(r["claim"]) for r in fp4] == expected_fp4
    assert fp8 == [] and len(closed) == len(all_rows)


def test_q_server_vs_offline(seed_store):
    got = run_query(seed_store, "server-vs-offline").rows
    expected = oracle.server_offline_pairs(RECORDS)
    assert [
        (local(r["server"]), local(r["offline"]), Decimal(r["ratio"].value), r["inverted"].value == "true") for r in got
    ] == expected
    assert any(e[3] for e in expected), "the seed pair is an inversion"
    assert all(
        ("bench-mlperf-offline-is-not-always-faster-than-server" in ids(r.get("gotchas")))
        == (r["inverted"].value == "true")
        for r in got
    )


def test_q_fabric_claims(seed_store):
    got = run_query(seed_store, "fabric-claims").rows
    expected = oracle.fabric_claims(RECORDS)
    assert [
        (
            local(r["claim"]),
            ids(r["interconnects"]),
            int(r["span"].value) if "span" in r else None,
            (r["exercised_claimed"].value == "true") if "exercised_claimed" in r else None,
            r["evidence"].value == "true",
        )
        for r in got
    ] == expected
    one = run_query(seed_store, "fabric-claims", {"accelerator": "nvidia-gb300-nvl72"}).rows
    assert {local(r["claim"]) for r in one} == {
        c for c, r in RECORDS["benchmarks"].items() if "nvidia-gb300-nvl72" in r["accelerator_ids"]
    }


@pytest.mark.parametrize("claim", sorted(RECORDS["benchmarks"]))
def test_q_gotchas_for(seed_store, claim):
    got = run_query(seed_store, "gotchas-for", {"record": claim}).rows
    assert {local(r["gotcha"]) for r in got} == oracle.caveats(RECORDS, claim)
    linked = set(RECORDS["benchmarks"][claim].get("gotcha_ids", []))
    assert {local(r["gotcha"]) for r in got if r["how"].value == "linked"} == linked


def test_parameters_are_terms_not_text(seed_store):
    nasty = 'x" } } DELETE WHERE { ?s ?p ?o } #\n{'
    text = bind("SELECT * { ?s ?p $v }", {"v": term_for(Param("v", "string"), nasty)})
    from pyoxigraph import Store

    store = Store()
    store.update('INSERT DATA { <http://x/s> <http://x/p> "kept" }')
    assert list(store.query(text)) == [] and len(store) == 1, "the value stayed one literal"
    assert "\\n" in text and "\n" not in text
    before = len(seed_store)
    query = QUERIES["leaderboard"]
    with pytest.raises(UsageError):
        bound_text(query, {"model": nasty})
    with pytest.raises(UsageError, match="one of offline, server"):
        bound_text(query, {"scenario": "server } ; DROP ALL"})
    assert len(seed_store) == before


def test_unknown_enum_value_exits_2_listing_allowed_values():
    result = cli("query", "leaderboard", "--param", "scenario=Server")
    assert result.exit_code == 2
    assert "'Server' is not allowed; use one of offline, server, interactive" in result.stderr


def test_unknown_parameter_exits_2():
    result = cli("query", "leaderboard", "--param", "modle=llama2-70b")
    assert result.exit_code == 2 and "has no parameter modle" in result.stderr


def test_json_and_csv_are_sparql_results_formats(seed_store):
    results = run_query(seed_store, "leaderboard")
    doc = json.loads(to_json(results))
    assert doc["head"]["vars"] == results.vars
    first = doc["results"]["bindings"][0]
    assert first["claim"]["type"] == "uri"
    assert first["value"] == {
        "type": "literal",
        "value": "910621.36",
        "datatype": "http://www.w3.org/2001/XMLSchema#decimal",
    }
    rows = list(csv.reader(io.StringIO(to_csv(results), newline="")))
    assert rows[0] == results.vars and rows[1][results.vars.index("value")] == "910621.36"
    assert to_csv(results).endswith("\r\n")


def test_every_query_that_ranks_by_unit_names_the_lower_is_better_units_of_the_vocabulary():
    """ "Lower is better" is said once (kernel.vocab.LOWER_IS_BETTER, derived as bk:lowerIsBetter by
    benchkg.graph.facts); the rankings read the derived fact, and a query that still spells the units
    out is held to the vocabulary here."""
    from benchkg.kernel.resources import QUERIES_DIR
    from benchkg.kernel.vocab import LOWER_IS_BETTER, PREFIXES, UNITS

    expected = sorted(UNITS[u] for u in LOWER_IS_BETTER)
    reads = 0
    for path in sorted(QUERIES_DIR.glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        for listed in re.findall(r"\?unit IN \(([^)]*)\)", text):
            iris = sorted(PREFIXES["unit"] + t.strip()[len("unit:") :] for t in listed.split(","))
            assert iris == expected, f"{path.name}: {listed}"
        reads += "bk:lowerIsBetter" in text
    assert reads >= 4  # leaderboard, best-per-accelerator, round-over-round, open-vs-closed
