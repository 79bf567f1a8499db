"""A data repository of one's own (benchkg.toml): benchkg's reference records used without copying,
its own records, queries and shapes added to benchkg's, and what it may not do."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import threading

import pytest
from pyoxigraph import RdfFormat

from benchkg.api import open as open_kg
from benchkg.graph.backend import run_sparql
from benchkg.graph.opening import open_store
from benchkg.kernel import limits
from benchkg.kernel.errors import StoreError, TimeLimitError
from benchkg.kernel.limits import within_store
from benchkg.kernel.resources import REFERENCE_DIR
from benchkg.records.scaffold import init_repo
from conftest import FULL_DATA, cli

pytestmark = pytest.mark.slow  # data repositories built on the reference set

EXAMPLE = "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server"


@pytest.fixture
def repo(tmp_path):
    init_repo(tmp_path / "claims")
    return tmp_path / "claims"


def test_init_copies_the_example_claim_and_system_from_data_word_for_word(repo):
    """The templates are copies of records in data/; this holds them equal (they ship in the wheel,
    which carries no claims)."""
    for kind, name in (("benchmarks", EXAMPLE), ("systems", "coreweave-gb200-nvl72")):
        assert (repo / "data" / kind / f"{name}.json").read_bytes() == (FULL_DATA / kind / f"{name}.json").read_bytes()


def test_init_refuses_a_folder_with_something_in_it(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = cli("init", tmp_path)
    assert result.exit_code == 2 and "is not an empty folder" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_without_benchkg_toml_the_reference_set_is_not_used(repo):
    (repo / "benchkg.toml").unlink()
    result = cli("validate", "--data", repo / "data")
    assert result.exit_code == 1
    assert "ref-model" in result.stdout and "llama2-70b" in result.stdout


def test_own_records_add_to_the_reference_set_and_an_identical_copy_is_harmless(repo):
    model = json.loads((REFERENCE_DIR / "models" / "llama2-70b.json").read_text())
    mine = {**model, "id": "llama2-70b-mine", "name": "Llama 2 70B, our fine-tune"}
    (repo / "data" / "models" / "llama2-70b-mine.json").write_text(json.dumps(mine, indent=2))
    shutil.copy(REFERENCE_DIR / "models" / "llama2-70b.json", repo / "data" / "models")
    built = cli("build", "--data", repo / "data")
    assert built.exit_code == 0, built.stderr
    shown = cli("show", "models/llama2-70b-mine", "--data", repo / "data")
    assert shown.exit_code == 0 and "our fine-tune" in shown.stdout


def test_a_different_record_under_a_reference_id_is_refused(repo):
    model = json.loads((REFERENCE_DIR / "models" / "llama2-70b.json").read_text())
    (repo / "data" / "models" / "llama2-70b.json").write_text(json.dumps({**model, "name": "Llama 2 70B?"}, indent=2))
    result = cli("validate", "--data", repo / "data")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"Error: {repo}/data/models/llama2-70b.json:1: /id: models/llama2-70b is a record of benchkg's reference set"
    )
    assert "delete this copy to use the reference record, or give yours a new id" in result.stderr


def test_own_saved_queries_extend_the_built_in_ones(repo):
    (repo / "queries" / "claims-per-system.rq").write_text(
        "#+ summary: How many claims each system has\n"
        "PREFIX bk: <https://w3id.org/benchkg/ontology#>\n"
        "SELECT ?system (COUNT(?claim) AS ?claims) WHERE { ?claim a bk:Benchmark ; bk:system ?system } "
        "GROUP BY ?system ORDER BY ?system\n"
    )
    listed = cli("queries", "--data", repo / "data")
    assert "claims-per-system: How many claims each system has" in listed.stdout and "leaderboard:" in listed.stdout
    answer = cli("query", "claims-per-system", "--format", "csv", "--data", repo / "data")
    assert answer.exit_code == 0, answer.stderr
    lines = answer.stdout.splitlines()
    assert lines[0] == "system,claims" and "coreweave-gb200-nvl72,1" in lines  # its own claim's system
    assert len(lines) > 300, "and the audited results' systems of the reference set"


def test_a_saved_query_named_like_a_built_in_one_is_refused(repo):
    (repo / "queries" / "leaderboard.rq").write_text("#+ summary: mine\nSELECT * WHERE { ?s ?p ?o }\n")
    result = cli("queries", "--data", repo / "data")
    assert result.exit_code == 2
    assert (
        "queries/leaderboard.rq: a saved query 'leaderboard' is built into benchkg; rename this file" in result.stderr
    )


def test_own_shapes_extend_the_conventions_and_findings_may_cite_them(repo):
    (repo / "shapes" / "house.ttl").write_text("""
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix bk: <https://w3id.org/benchkg/ontology#> .
@prefix bkshape: <https://w3id.org/benchkg/shapes#> .
bkshape:house-claims-name-an-engine a sh:NodeShape ;
    sh:targetClass bk:Benchmark ;
    sh:severity sh:Violation ;
    sh:property [ sh:path bk:engine ; sh:minCount 1 ; sh:message "our house rule: name the engine" ] .
""")
    result = cli("validate", "--data", repo / "data")
    assert result.exit_code == 1
    assert (
        f"{EXAMPLE}.json" in result.stdout
        and "house-claims-name-an-engine: our house rule: name the engine" in result.stdout
    )
    gotcha = {
        "id": "house-engine-unknown",
        "title": "The engine is not named",
        "severity": "warning",
        "statement": "A claim that does not name its engine cannot be reproduced.",
        "finding_shapes": ["house-claims-name-an-engine"],
    }
    (repo / "data" / "gotchas" / "house-engine-unknown.json").write_text(json.dumps(gotcha, indent=2))
    built = cli("build", "--data", repo / "data")
    assert built.exit_code == 0, built.stderr
    assert "house-engine-unknown" in str(open_kg(repo / "data").show(EXAMPLE))


#: a join of every triple with every other, twice over: it never ends on the reference set (issue 64)
THREE_WAY = '?a ?p ?b . ?c ?q ?d . ?e ?r ?f FILTER (STR(?a) = CONCAT(STR(?c), STR(?e), "!"))'


def test_a_slow_own_shape_stops_at_its_time_limit_naming_it_and_the_store_keeps(repo, monkeypatch):
    """A data repository's own shape with a three-way join hung validate, and, named in a gotcha's
    finding_shapes, every command. It now stops at the repository's time_limit (or BENCHKG_TIME_LIMIT),
    exit 2 naming the shape and its file; benchkg's own shapes run as before."""
    (repo / "shapes" / "slow.ttl").write_text(f"""
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix bk: <https://w3id.org/benchkg/ontology#> .
@prefix bkshape: <https://w3id.org/benchkg/shapes#> .
bkshape:house-three-way-join a sh:NodeShape ;
    sh:targetClass bk:Benchmark ;
    sh:message "never" ;
    sh:sparql [ sh:select \"\"\"SELECT $this WHERE {{ $this a bk:Benchmark . {THREE_WAY} }}\"\"\" ] .
""")
    config = repo / "benchkg.toml"
    config.write_text(config.read_text() + "time_limit = 1\n")
    checked = cli("validate", "--data", repo / "data")
    assert checked.exit_code == 2, checked.stdout
    assert checked.stderr == (
        "Error: shape house-three-way-join (shapes/slow.ttl) did not end within 1 s, the limit on a data "
        "repository's own shapes and queries: make it cheaper, or allow longer with time_limit = SECONDS in "
        "benchkg.toml (or BENCHKG_TIME_LIMIT=SECONDS)\n"
    )
    answer = cli("query", "leaderboard", "--format", "csv", "--data", repo / "data")
    assert answer.exit_code == 0, answer.stderr  # (the shape is no gotcha's: a build never runs it)
    gotcha = {
        "id": "house-slow",
        "title": "A slow finding",
        "severity": "warning",
        "statement": "A shape that never ends.",
        "finding_shapes": ["house-three-way-join"],
    }
    (repo / "data" / "gotchas" / "house-slow.json").write_text(json.dumps(gotcha, indent=2))
    monkeypatch.setenv("BENCHKG_TIME_LIMIT", "0.5")  # the environment's limit wins over benchkg.toml's
    stopped = cli("query", "leaderboard", "--format", "csv", "--data", repo / "data")
    assert (
        stopped.exit_code == 2 and "house-three-way-join (shapes/slow.ttl) did not end within 0.5 s" in stopped.stderr
    )
    (repo / "data" / "gotchas" / "house-slow.json").unlink()
    assert cli("query", "leaderboard", "--format", "csv", "--data", repo / "data").stdout == answer.stdout


def test_a_slow_own_saved_query_stops_at_its_time_limit(repo, monkeypatch):
    (repo / "queries" / "slow.rq").write_text(f"#+ summary: never ends\nSELECT ?a WHERE {{ {THREE_WAY} }}\n")
    monkeypatch.setenv("BENCHKG_TIME_LIMIT", "1")
    stopped = cli("query", "slow", "--data", repo / "data")
    assert stopped.exit_code == 2
    assert stopped.stderr.startswith("Error: query slow (queries/slow.rq) did not end within 1 s"), stopped.stderr
    assert cli("query", "leaderboard", "--limit", "1", "--data", repo / "data").exit_code == 0  # benchkg's: no limit


def test_a_limited_query_never_waits_on_the_stores_own_threads(tmp_path):
    """CI saw a saved query of five rows "not end within 60 s": its worker was forked while one of
    RocksDB's threads (a flush, a compaction) held the database's mutex, and waited for it for ever.
    Here a thread loads and compacts the store all along, which made about one forked query in seven
    hang; a limited query on a store on disk now runs in a spawned worker, on a copy of its folder
    that is gone after."""
    store = open_store(tmp_path / "store")
    stop = threading.Event()

    def churn():
        n = 0
        while not stop.is_set():
            lines = "".join(f'<http://x/{n}/{i}> <http://x/p> "{i}" .\n' for i in range(2000))
            store.bulk_load(input=lines.encode(), format=RdfFormat.N_TRIPLES)
            if n % 10 == 0:
                store.optimize()
            n += 1

    writer = threading.Thread(target=churn)
    writer.start()
    stuck = []
    try:
        for attempt in range(20):
            try:
                within_store(5, "query count", store, run_sparql, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
            except TimeLimitError:
                stuck.append(attempt)
    finally:
        stop.set()
        writer.join()
    assert stuck == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lock", "store"]  # (open_store's lock)


def test_a_store_that_cannot_be_copied_for_a_limited_query_is_said(tmp_path, monkeypatch):
    """The copy a limited query runs on cannot be made (here its name is taken; a full disk alike):
    a StoreError (exit 2) naming the query and the folder, and nothing of the copy left."""
    store = open_store(tmp_path / "store")
    taken = tmp_path / f"store.limited-{os.getpid()}-7"
    taken.mkdir()
    monkeypatch.setattr(limits, "_COPIES", iter([7]))
    with pytest.raises(StoreError) as raised:
        within_store(5, "query mine (queries/mine.rq)", store, run_sparql, "SELECT * WHERE { ?s ?p ?o }")
    assert str(raised.value).startswith("query mine (queries/mine.rq): cannot copy the store for the worker")
    assert f"free some space beside {tmp_path / 'store'}" in str(raised.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lock", "store"]


@pytest.mark.parametrize("value", ["-1", "0", "'a minute'", "true"])
def test_a_time_limit_is_a_number_of_seconds(repo, value):
    (repo / "benchkg.toml").write_text(f"[benchkg]\ntime_limit = {value}\n")
    result = cli("build", "--data", repo / "data")
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"Error: {repo}/benchkg.toml:2: /benchkg/time_limit: expected a number of seconds, more than 0\n"
    )


def test_a_bad_benchkg_toml_names_its_line(repo):
    (repo / "benchkg.toml").write_text("[benchkg]\nreference = true\nqueries = 'q'\n")
    result = cli("build", "--data", repo / "data")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {repo}/benchkg.toml:3: /benchkg/queries: unknown setting 'queries'; settings: reference, time_limit\n"
    )


def test_a_new_repositorys_store_starts_complete_not_as_an_interrupted_build(tmp_path, monkeypatch):
    """The seed is a backup of the prepared reference store taken read-only, which does not read the
    write-ahead log: unless preparation flushed its last writes, every new store carried the build-in-
    progress mark and no manifest generation, and re-mapped every reference record whose file times
    changed (a reinstall). A cache prepared before the flush is prepared again."""
    from pyoxigraph import Store

    from benchkg.checks.reference import prepared, seed_store
    from benchkg.graph.manifest import BUILDING, GENERATION, manifest_graph
    from benchkg.kernel.vocab import DEFAULT_BASE

    monkeypatch.setenv("BENCHKG_CACHE", str(tmp_path / "cache"))
    seed_store(tmp_path / "repo" / "store")
    store = Store.read_only(str(tmp_path / "repo" / "store"))
    manifest = manifest_graph(DEFAULT_BASE)
    assert not list(store.quads_for_pattern(manifest, BUILDING, None, manifest))
    assert len(list(store.quads_for_pattern(manifest, GENERATION, None, manifest))) == 1
    del store
    ready = prepared().parent / "ready"
    info = json.loads(ready.read_text())
    ready.write_text(json.dumps({k: v for k, v in info.items() if k != "flushed"}))
    prepared()  # an unflushed cache is prepared again
    assert json.loads(ready.read_text()).get("flushed") is True


def test_the_audited_partners_own_findings_show_in_a_data_repository(repo):
    """An AMD MI355X cluster's audited result whose Accelerator field counts 87 of its 88 accelerators
    carries that finding in vendor-vs-audited's audited_gotchas in a data repository, as in benchkg's own."""
    claim = {
        "id": "acme-mi355x-88-llama2-70b-offline",
        "title": "Acme MI355X cluster, Llama 2 70B Offline",
        "suite_id": "mlperf-inference-v6.0",
        "division": "closed",
        "scenario": "offline",
        "model_id": "llama2-70b",
        "accelerator_ids": ["amd-instinct-mi355x"],
        "accelerator_count": 88,
        "metric": "throughput",
        "value": 1100000,
        "unit": "tokens/s",
        "scope": "aggregate",
        "measured_by": "vendor",
        "sources": [
            {"source_id": "mlperf-inference-v6.0-results", "quote": "1,100,000 tokens/s", "retrieved": "2026-12-04"}
        ],
    }
    (repo / "data" / "benchmarks" / f"{claim['id']}.json").write_text(json.dumps(claim, indent=2))
    rows = json.loads(
        cli(
            "query", "vendor-vs-audited", "--param", "model=llama2-70b", "--format", "json", "--data", repo / "data"
        ).stdout
    )
    (row,) = [r for r in rows if r["vendor_claim"] == claim["id"]]
    assert row["audited_count"] == 88
    assert "accelerator-mix-states-another-count" in row["audited_gotchas"].split()


def test_the_site_of_a_data_repository_opens_on_its_own_claims_and_their_verdicts(repo, tmp_path):
    """Issue 34: the home page leads with the team's claims, each with its verdict against the audited
    record, before the reference set; a claim twice the audited number says "above", the example
    (CoreWeave's own v6.1 result) "matches". benchkg's own data/ keeps its home page as it was."""
    claim = json.loads((repo / "data" / "benchmarks" / f"{EXAMPLE}.json").read_text())
    doubled = {**claim, "id": "acme-doubled", "value": claim["value"] * 2}
    (repo / "data" / "benchmarks" / "acme-doubled.json").write_text(json.dumps(doubled, indent=2))
    result = cli("site", "-o", tmp_path / "site", "--data", repo / "data")
    assert result.exit_code == 0, result.output
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", home[home.index("<main") :])))
    assert re.search(r"<h1>2 claims of this repository, against the audited record</h1>", home), text[:300]
    ours = text.index("2 claims of this repository")
    assert ours < text.index("The graph they are compared with") < text.index("Browse")
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r'href="id/benchmarks/([^/"]+)/index.html">.*?</a></td>(.*?)</tr>', home)
    }
    assert "matches the audited result" in rows[EXAMPLE] and "above the audited result" in rows["acme-doubled"], rows
    assert "2.000" in rows["acme-doubled"], rows["acme-doubled"]  # the ratio, vendor ÷ audited per accelerator


def test_a_records_folder_that_is_not_a_repository_keeps_its_home_page(seed_site):
    home = (seed_site / "index.html").read_text(encoding="utf-8")
    assert "<h1>benchkg: AI-inference benchmark claims</h1>" in home and "of this repository" not in home
