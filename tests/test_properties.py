"""Properties every saved query keeps on any data, checked on generated data folders (Hypothesis,
tests/gendata.py) in which every optional field of claims, systems, chips and models is present or absent
at random:

- a per-claim query gives at most one row per claim (the first of its ``#+ claims:`` columns), and no
  query gives the same row twice;
- adding records no claim refers to (another model, organisation, system, engine, source) changes no
  answer;
- renaming the ids of claims and systems changes no number;
- the rows are the same embedded and on a remote Oxigraph server (127.0.0.1);
- the same for the SPARQL the results algebra writes (``benchkg results --explain``): its listing has
  one row per result, its counts leave none out.

Each saved query runs with its defaults and with every slice set to ``any``. A failure prints the
Hypothesis seed and the folder; the folders that once failed are kept in tests/fixtures/properties and
run first (:func:`test_regression_folders`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings

import gendata
from benchkg.answers.algebra import Request, compile_results
from benchkg.answers.queries import run_query
from benchkg.answers.querylint import lint_saved
from benchkg.answers.savedquery import parse_query_text, saved_queries
from benchkg.graph.backend import Endpoint
from benchkg.graph.remote import push_graph
from benchkg.graph.store import build_graph
from conftest import FIXTURES
from servers import Server

REGRESSIONS = FIXTURES / "properties"
#: examples per property in `make test` (PROPERTY_EXAMPLES=1000 for a longer hunt)
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "200"))
#: the seed, printed with every failure (PROPERTY_SEED=N replays one run)
SEED = int(os.environ.get("PROPERTY_SEED", "20261204"))
SAVED = saved_queries()
#: the results algebra's verbs (issue 31), compiled as `benchkg results --explain` writes them: the
#: SPARQL the algebra generates keeps the same properties as the saved queries
ALGEBRA = {
    "results:rows": Request(),
    "results:count": Request(group_by=["chip"]),
    "results:share": Request(group_by=["host_cpu_vendor"], agg="share"),
    "results:pair": Request(pair="scenario=offline,server", hold=["system", "model", "suite"]),
    "results:best-per": Request(best_per=["model", "scenario"]),
    "results:only-in": Request(group_by=["chip"], only_in="scenario=offline", not_in="scenario=server"),
    "results:pair-median": Request(pair="scenario=offline,server", group_by=["chip"], agg="median"),
    "results:first-in": Request(first_in="round=6.1", over=["chip"]),
    "results:any": Request(where=["chip_vendor=any:amd"], group_by=["chip"]),
}
QUERIES = SAVED | {
    name: parse_query_text(compile_results(request, lambda kind, text: text).text, Path(f"{name}.rq"))
    for name, request in ALGEBRA.items()
}


def variants(query) -> list[dict[str, str]]:
    """The parameter sets each query runs with: its defaults, and every slice unset."""
    out = [{}]
    if query.slices:
        out.append({name: "any" for name in query.slices})
    return out


def answers(store) -> dict[tuple[str, int], list[dict[str, str]]]:
    """Every saved query's rows on a store, each cell as its RDF term's text."""
    out = {}
    for name, query in QUERIES.items():
        for i, params in enumerate(variants(query)):
            out[(name, i)] = [{k: str(v) for k, v in row.items()} for row in run_query(store, query, params).rows]
    return out


def build(folder: dict, where: Path):
    return build_graph(gendata.write(folder, where / "data"), persist=False).store


def per_claim_problems(result: dict) -> list[str]:
    problems = []
    for (name, i), rows in result.items():
        seen = Counter(tuple(sorted(row.items())) for row in rows)
        twice = [row for row, n in seen.items() if n > 1]
        if twice:
            problems.append(f"{name} (variant {i}): the same row {len(rows)} times: {dict(twice[0])}")
        claims = QUERIES[name].claims
        if claims:
            key = Counter(row.get(claims[0]) for row in rows if row.get(claims[0]))
            many = {c: n for c, n in key.items() if n > 1}
            if many:
                problems.append(f"{name} (variant {i}): more than one row for a claim: {many}")
    return problems


def numbers(rows: list[dict[str, str]]) -> list[tuple]:
    """The numbers of an answer, row by row, in an order that does not depend on ids."""

    def num(text: str):
        try:
            return Decimal(text.split("^^")[0].strip('"'))
        except InvalidOperation:
            return None

    return sorted(tuple(sorted(str(n) for n in map(num, row.values()) if n is not None)) for row in rows)


def explain(folder: dict) -> str:
    claims = json.dumps(folder["benchmarks"], indent=1)
    return f"seed {SEED}; systems {json.dumps(folder['systems'])}; claims {claims}"


SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("properties") / "oxigraph").start()
    yield server
    server.kill()


def test_every_saved_query_passes_the_lint():
    """No saved query, nor any the results algebra writes, has a pattern that can bind a variable to
    arbitrary resources."""
    problems = {name: lint_saved(query) for name, query in QUERIES.items()}
    assert not {name: p for name, p in problems.items() if p}


def test_the_lint_flags_the_pattern_that_multiplied_claims():
    leaderboard = SAVED["leaderboard"]
    old = leaderboard.text.replace(
        "OPTIONAL { ?claim bk:system ?system OPTIONAL { ?system rdfs:label ?system_label } }",
        "OPTIONAL { ?claim bk:system ?system }\n  OPTIONAL { ?system rdfs:label ?system_label }",
    )
    assert old != leaderboard.text
    from dataclasses import replace

    problems = lint_saved(replace(leaderboard, text=old))
    assert len(problems) == 1 and "?system" in problems[0] and "OPTIONAL" in problems[0]


def test_a_claim_without_a_system_is_one_row_whatever_else_is_labelled(tmp_path):
    """The acceptance case of issue 29: one claim without system_id and one unrelated labelled record."""
    claim = json.loads((FIXTURES / "optionals" / "benchmarks" / "opt-states-nothing-a.json").read_text())
    folder = {
        "benchmarks": {claim["id"]: {**claim, "scenario": "server"}},
        "organizations": {"acme": {"id": "acme", "name": "Acme"}},
        "models": {"llama2-70b": gendata.POOL["models"]["llama2-70b"]},
    }
    store = build(folder, tmp_path)
    rows = run_query(store, "leaderboard", {"model": "llama2-70b", "suite": "any"}).rows
    assert [row["claim"].value.rsplit("/", 1)[1] for row in rows] == [claim["id"]]
    assert "system_name" not in rows[0]


@pytest.mark.slow
@seed(SEED)
@SETTINGS
@given(folder=gendata.folders())
def test_per_claim_queries_give_one_row_per_claim_and_servers_agree(folder, oxigraph):
    with tempfile.TemporaryDirectory() as where:
        store = build(folder, Path(where))
        result = answers(store)
        assert not per_claim_problems(result), explain(folder)
        counts = [row["count"] for row in result[("results:count", 0)]]
        assert len(result[("results:rows", 0)]) == len(folder["benchmarks"]), "one row per result"
        assert sum(int(c.split('"')[1]) for c in counts) == len(folder["benchmarks"]), "no result uncounted"
        push_graph(store, oxigraph.query)
        for name, query in QUERIES.items():
            for i, params in enumerate(variants(query)):
                remote = [
                    {k: str(v) for k, v in row.items()}
                    for row in run_query(Endpoint(oxigraph.query), query, params).rows
                ]
                assert remote == result[(name, i)], f"{name} (variant {i}) differs on the server; {explain(folder)}"


def before_and_after(folder: dict, change) -> tuple[dict, dict]:
    """Every saved query's answers on a folder, and on the folder ``change`` makes of it."""
    with tempfile.TemporaryDirectory() as where:
        return answers(build(folder, Path(where))), answers(build(change(folder), Path(where)))


@pytest.mark.slow
@seed(SEED + 1)
@SETTINGS
@given(folder=gendata.folders())
def test_unrelated_records_change_no_answer(folder):
    before, after = before_and_after(folder, gendata.with_unrelated)
    changed = [key for key in before if before[key] != after[key]]
    assert not changed, f"{changed[0]}: {before[changed[0]]} became {after[changed[0]]}; {explain(folder)}"


@pytest.mark.slow
@seed(SEED + 2)
@SETTINGS
@given(folder=gendata.folders())
def test_renaming_ids_changes_no_number(folder):
    before, after = before_and_after(folder, gendata.rename)
    changed = [key for key in before if numbers(before[key]) != numbers(after[key])]
    assert not changed, (
        f"{changed[0]}: {numbers(before[changed[0]])} became {numbers(after[changed[0]])}; {explain(folder)}"
    )


@pytest.mark.parametrize("case", sorted(p.name for p in REGRESSIONS.glob("*") if p.is_dir()))
def test_regression_folders(case, tmp_path):
    """The generated folders that once broke a property, kept: they hold every property."""
    data = REGRESSIONS / case
    folder = {
        kind.name: {p.stem: json.loads(p.read_text()) for p in kind.glob("*.json")}
        for kind in data.iterdir()
        if kind.is_dir()
    }
    full = {**gendata.POOL, "systems": {}, **folder}
    result = answers(build(full, tmp_path / "a"))
    assert not per_claim_problems(result)
    assert answers(build(gendata.with_unrelated(full), tmp_path / "b")) == result
