"""Nothing is computed twice per command: one ``benchkg query leaderboard`` and one ``benchkg show``
on a store already built are profiled in-process, and the SPARQL queries they send to the store, the
saved queries they parse and the times they resolve the data folder are counted and held to the
numbers reached when the CLI was made thin (issue 34). A count that grows fails here, naming what.

Before that change one ``query leaderboard`` parsed all 21 saved queries and checked SERVICE twice,
and one ``show`` read every record's names twice and validated twice (the issue counted 83 layouts
in one cold ``show`` on the full data).
"""

from __future__ import annotations

import cProfile
import dataclasses
import json
import pstats
import re
import time
from pathlib import Path

import pytest

import benchkg
from conftest import cli

#: the most each command may do on a store already built: (SPARQL queries, saved-query parses,
#: layout_for calls); measured, with no slack: the next change that adds work has to say why here
BOUNDS = {
    "query": (4, 1, 1),
    "show": (3, 0, 1),
}


#: the functions whose calls are counted too, by (file, name): where a command reads the data folder's
#: layout, checks a query for SERVICE, reads every record's names, and validates
COUNTED = {
    (str(Path(benchkg.__file__).parent / path), name)
    for path, name in (
        ("records/layout.py", "layout_for"),
        ("answers/savedquery.py", "check_service"),
        ("records/names.py", "names_of"),
        ("checks/validate.py", "validate_graph"),
    )
}


def work(*args: str) -> dict[str, int]:
    """Run ``benchkg ARGS`` in-process under cProfile; how often it queried the store, parsed a
    saved query and called each function of :data:`COUNTED`."""
    profile = cProfile.Profile()
    profile.enable()
    result = cli(*args)
    profile.disable()
    assert result.exit_code == 0, result.output
    calls = {}
    for (file, _line, name), (_cc, count, *_rest) in pstats.Stats(profile).stats.items():
        if file == "~" and "pyoxigraph.Store" in name and ("'query'" in name):
            calls["sparql"] = calls.get("sparql", 0) + count
        elif file.endswith("answers/savedquery.py") and name == "parse_query_text":
            calls["parses"] = calls.get("parses", 0) + count
        elif (file, name) in COUNTED:
            calls[name] = calls.get(name, 0) + count
    return {k: calls.get(k, 0) for k in ("sparql", "parses", *(name for _, name in COUNTED))}


@pytest.fixture
def built(data_copy):
    """A copy of the seed data, built and validated (what a second command finds). A file copied less
    than RACY_S before a build is read again by the next one (its state cannot be trusted yet): the
    validation runs again once the copy is older, so the counted command finds every key settled,
    however loaded the machine (on two busy cores the first validation could end within RACY_S)."""
    from benchkg.records.reader import RACY_S

    assert cli("validate", "--data", data_copy, "-q").exit_code in (0, 1)
    time.sleep(RACY_S)
    assert cli("validate", "--data", data_copy, "-q").exit_code in (0, 1)
    return data_copy


def test_one_query_parses_one_saved_query_and_sends_a_bounded_number_of_queries(built):
    counted = work("query", "leaderboard", "-p", "scenario=server", "--data", built)
    sparql, parses, layouts = BOUNDS["query"]
    assert counted["parses"] == parses, counted  # the leaderboard alone, not all 21
    assert counted["layout_for"] <= layouts, counted
    assert 0 < counted["sparql"] <= sparql, counted  # the answer, its caveats and notes in 4
    assert counted["check_service"] == 1 and counted["validate_graph"] == counted["names_of"] == 0, counted


def test_one_show_resolves_the_folder_once_and_validates_once(built):
    counted = work("show", "nvidia-gb200", "--data", built)
    sparql, parses, layouts = BOUNDS["show"]
    assert counted["layout_for"] <= layouts, counted
    assert counted["parses"] <= parses, counted  # a chip's page runs no saved query
    assert counted["validate_graph"] == 1 and counted["names_of"] == 1, counted  # (twice each, before)
    assert 0 < counted["sparql"] <= sparql, counted


def test_the_counter_sees_the_work_it_counts(built):
    """The profile counts what it claims to: ``benchkg queries`` parses every saved query."""
    counted = work("queries", "--data", built)
    assert counted["parses"] >= 20, counted


def test_an_answer_s_caveats_read_every_dimension_in_one_query(seed_store):
    """The comparison caveats of an answer cost two queries whatever the gotchas' dimensions (13 to
    15 of them): the comparison gotchas, and every dimension's values of the answer's claims in one
    (issue 42; one query per dimension before), for a list of claims and for pairs alike."""
    from benchkg.answers.caveats import DIMENSIONS, comparison_caveats, comparison_gotchas, pair_caveats
    from benchkg.graph.backend import backend_of

    backend = backend_of(seed_store)
    sent: list[str] = []

    def select(text: str) -> list[dict]:
        sent.append(text)
        return backend.select(text)

    claims = [
        row["c"].value
        for row in seed_store.query(
            "SELECT ?c WHERE { ?c a <https://w3id.org/benchkg/ontology#Benchmark> }", use_default_graph_as_union=True
        )
    ]
    dimensions = {g["dimension"] for g in comparison_gotchas(backend.select)} & set(DIMENSIONS)
    assert len(claims) >= 5 and len(dimensions) > 5
    found = comparison_caveats(select, claims)
    assert found and len(sent) == 2, sent
    sent.clear()
    paired = pair_caveats(select, list(zip(claims, claims[1:])))
    assert paired and len(sent) == 2, sent


def _pair_group(data: Path, n: int) -> None:
    """``n`` audited 8x and 72x B300 gpt-oss-120b Offline results of two submitters, and ``n`` vendor
    claims on the same chip, model and scenario at the same two counts, added to ``data``."""
    base = {
        "suite_id": "mlperf-inference-v6.1",
        "scenario": "offline",
        "model_id": "gpt-oss-120b",
        "accelerator_ids": ["nvidia-b300-sxm-270gb"],
        "metric": "throughput",
        "unit": "tokens/s",
        "scope": "aggregate",
        "verification": {"status": "unverified", "label": "medium", "confidence": 0.6},
        "updated": "2026-12-06",
    }
    for i in range(n):
        count = (8, 72)[i % 2]
        audited = {
            **base,
            "id": f"audited-{i:03}",
            "title": f"audited {i}",
            "value": 10000 * count + 7 * i,
            "accelerator_count": count,
            "measured_by": "mlcommons",
            "division": "closed",
            "accuracy_target": "99",
            "submitter_id": ("nvidia", "dell")[i % 3 == 0],
        }
        vendor = {**base, "id": f"vendor-{i:03}", "title": f"vendor {i}", "value": 9000 * count + 11 * i}
        vendor |= {"accelerator_count": count, "measured_by": "vendor"}
        for claim in (audited, vendor):
            claim["sources"] = [
                {
                    "source_id": "mlperf-inference-v6.1-results",
                    "quote": f"{claim['value']} tokens/s",
                    "retrieved": "2026-12-06",
                }
            ]
            (data / "benchmarks" / f"{claim['id']}.json").write_text(json.dumps(claim, indent=2))


@pytest.mark.parametrize("n", [6, 24])
def test_a_vendor_claim_meets_a_handful_of_candidates_not_its_whole_group(data_copy, n):
    """vendor-vs-audited pairs each vendor claim with the nearest and best audited result of its chip,
    model, scenario and unit. Its cost is linear in the group (issue 42): each claim meets the best
    audited result of each round, submitter, count, division and tier (here 2 submitters × 2 counts),
    not every audited result of its group (it met all n before: the group's square, 61 s at 100,000
    claims). Counted by running the pairing step of the query as it is sent, with COUNT for MIN;
    and each partner is the one the record files say (the best audited result at the claim's count)."""
    import benchkg
    from benchkg.answers.queries import bound_text, find_query

    _pair_group(data_copy, n)
    kg = benchkg.open(data_copy, persist=False)
    # (the pairing as the query runs it for any parameters; with its defaults it reads the partner the build
    # derived by the same rule: tests/test_partners.py)
    live = dataclasses.replace(find_query("vendor-vs-audited"), derived={})
    text = bound_text(live, {}, select=kg.backend.select)
    pairing = (
        r"\{ SELECT \?vendor_claim \?accelerator [^{]*\(MIN\(\?key\) AS \?best\).*?\} GROUP BY \?vendor_claim [^}]*\}"
    )
    step = re.search(pairing, text, re.S)
    inner = step.group(0).replace("(MIN(?key) AS ?best)", "(COUNT(?key) AS ?met)")
    counted = kg.backend.select(text[: text.index("SELECT")] + f"SELECT ?vendor_claim ?met WHERE {{ {inner} }}")
    met = {r["vendor_claim"].rsplit("/", 1)[-1]: int(r["met"]) for r in counted if "/vendor-" in r["vendor_claim"]}
    assert len(met) == n and max(met.values()) == 4, met

    audited = [json.loads(p.read_text()) for p in (data_copy / "benchmarks").glob("audited-*.json")]
    rows = kg.query("vendor-vs-audited", model="gpt-oss-120b", scenario="offline", limit=0)
    partner = {r["vendor_claim"]: r["audited_claim"] for r in rows if r["vendor_claim"].startswith("vendor-")}
    expected = {
        f"vendor-{i:03}": max(
            (a for a in audited if a["accelerator_count"] == (8, 72)[i % 2]), key=lambda a: a["value"]
        )["id"]
        for i in range(n)
    }
    assert partner == expected


def _separable() -> list[str]:
    from benchkg.answers.savedquery import saved_queries

    return [name for name, saved in saved_queries().items() if saved.separable]


@pytest.mark.parametrize("name", _separable())
def test_a_separable_answer_runs_its_query_once_and_says_what_two_runs_said(full_kg, name):
    """Issue 42: an answer and what its like-with-like defaults left out come from one run of the query
    (with those defaults lifted; the rows they keep found by one small query over the slice). The
    rows and the note are those of the query run with its defaults and the note counted from a second
    run with them lifted, as before, for the whole answer and its first page."""
    from benchkg.answers.answering import assemble
    from benchkg.answers.caveats import answer_claims, left_out
    from benchkg.answers.queries import find_query, run_query, settle
    from benchkg.graph.backend import watching

    saved, backend = find_query(name), full_kg.backend
    runs: list[str] = []
    with watching(lambda query, _seconds: runs.append(query)):
        answer = assemble(saved, {}, backend)
        first_page = assemble(saved, {}, backend, limit=5)
    # once per answer, and six small queries at most each: the unit auto stands for, the rows the defaults
    # keep, the caveats (two), the values of what was left out and the results that state no tier
    assert runs.count(name) == 2 and runs.count("query") <= 12, runs

    settled = settle(saved, {}, full_kg.base, backend.select)
    alone = run_query(backend, saved, settled)
    assert answer.results.rows == alone.rows and first_page.results.rows == alone.rows[:5]
    assert first_page.results.count == answer.results.count == len(alone.rows)
    twice = left_out(
        saved,
        {},
        lambda p: run_query(backend, saved, {**settled, **p}),
        backend.select,
        answer_claims(alone, saved.claims),
        settled,
    )
    assert answer.left_out == first_page.left_out == twice
    assert bool(twice) == (name != "open-vs-closed")  # (its defaults leave out nothing on data/)


def test_an_empty_answer_runs_its_query_once_besides_what_empties_it(full_kg):
    """An empty answer of a separable query: one run for the rows and what the defaults left out; the
    runs that find which parameter emptied it (lifting the parameters typed, together and then each
    alone: four here) come on top, no more (the note lifting the defaults ran the query once more
    before). The note is the one those runs say."""
    from benchkg.answers.answering import assemble
    from benchkg.answers.explain import why_empty
    from benchkg.answers.queries import find_query, run_query, settle
    from benchkg.graph.backend import watching

    saved, backend = find_query("leaderboard"), full_kg.backend
    asked = {"model": "gpt-oss-120b", "scenario": "interactive", "suite": "mlperf-inference-v4.1"}
    runs: list[str] = []
    with watching(lambda query, _seconds: runs.append(query)):
        answer = assemble(saved, asked, backend)
    settled = settle(saved, asked, full_kg.base, backend.select)
    lifting: list[dict] = []

    def run(p, **window_):
        lifting.append(p)
        return run_query(backend, saved, p, **window_)

    said = why_empty(saved, {**asked, **settled}, run, given=set(asked))
    assert not answer.results.rows and runs.count("leaderboard") == 1 + len(lifting) == 5, runs
    assert answer.empty == said and "suite=mlperf-inference-v4.1 (--param suite=any gives 9 rows)" in said


def test_the_queries_read_from_one_run_are_those_whose_rows_stand_alone(tmp_path):
    """Listings and pairs keyed by division, tier and unit are separable; a query that ranks across
    claims (the best per chip, per round) is not, and a '#+ separable:' line on a column that holds no
    claim or over a step that ranks rows is refused."""
    from benchkg.answers.savedquery import parse_query_text
    from benchkg.kernel.errors import QueryError

    assert set(_separable()) == {
        "leaderboard",
        "per-watt-of-tdp",
        "tokens-per-bandwidth",
        "capped-vs-uncapped",
        "open-vs-closed",
    }
    for header in ("#+ claims: claim\n#+ separable: system", "#+ claims: claim\n#+ separable: claim\n#+ then: best"):
        with pytest.raises(QueryError, match="separable"):
            parse_query_text(f"{header}\nSELECT ?claim WHERE {{ ?claim ?p ?o }}", tmp_path / "mine.rq")
