"""Comparisons you can trust by default: like with like, and only the caveats that apply.

The query fixture graph holds, beside an 8×H100 Llama 2 70B Offline result, the same result in
another unit, at another accuracy tier, in the open division, as a preview system and as an inferred
result: each is left out or marked as the defaults say. On the full data/, caveats land exactly."""

from __future__ import annotations

import json
import shutil

import pytest
from pyoxigraph import NamedNode

from benchkg.answers.caveats import comparison_caveats
from benchkg.answers.queries import run_query
from benchkg.checks.validate import validate_graph
from benchkg.graph.backend import Embedded
from benchkg.graph.store import build_graph
from conftest import DATA, FULL_DATA, cli
from test_query_graph import graph_data, graph_store  # noqa: F401  (module fixtures)

FX = "fx-h100x8-llama2-70b-offline-v6-0"
EXCLUDED = {f"{FX}-queries-per-second": "unit", f"{FX}-tier-99-9": "accuracy-tier", f"{FX}-open-division": "division"}
MARKED = {f"{FX}-preview": ("availability", "preview"), f"{FX}-inferred": ("inferred", "true")}
RANKINGS = [
    ("leaderboard", {"model": "llama2-70b", "scenario": "offline"}),
    ("best-per-accelerator", {"model": "llama2-70b", "scenario": "offline", "suite": "fx-mlperf-inference-v6.0"}),
    ("round-over-round", {"accelerator": "nvidia-h100-sxm", "model": "llama2-70b", "scenario": "offline"}),
    ("tokens-per-bandwidth", {"model": "llama2-70b"}),
    # (vendor-vs-audited pairs within the claim's round since issue 60, and the fixture's audited decoys are
    # of v6.0, its vendor claim of v6.1: no row to hold; tests/test_hardware.py and test_honesty.py hold it)
]


def claims_of(results) -> set[str]:
    return {
        v.value.rsplit("/", 1)[1]
        for row in results.rows
        for k, v in row.items()
        if k in ("claim", "vendor_claim", "audited_claim") and "/id/benchmarks/" in v.value
    }


@pytest.mark.parametrize("name,params", RANKINGS, ids=[n for n, _ in RANKINGS])
def test_rankings_leave_out_other_units_tiers_and_divisions(graph_store, name, params):
    got = claims_of(run_query(graph_store, name, params))
    assert got, "the ranking has rows"
    assert not got & set(EXCLUDED), f"{name} mixes in {sorted(got & set(EXCLUDED))}"


def test_each_left_out_row_comes_back_when_its_default_is_lifted(graph_store):
    params = {"model": "llama2-70b", "scenario": "offline"}
    for claim, param in zip(EXCLUDED, ("unit", "accuracy", "division")):
        assert claim in claims_of(run_query(graph_store, "leaderboard", {**params, param: "any"}))


def test_leaderboard_marks_preview_and_inferred_and_shows_the_round(graph_store):
    rows = {
        r["claim"].value.rsplit("/", 1)[1]: r
        for r in run_query(graph_store, "leaderboard", {"model": "llama2-70b", "scenario": "offline"}).rows
    }
    for claim, (column, value) in MARKED.items():
        assert rows[claim][column].value.endswith(value)
    assert {r["round"].value for r in rows.values()} >= {"5.1", "6.0"}
    # issue 41: the v6.1 vendor claims state no tier, where the model's results do: tier 99 does not take them
    assert not {c for c in rows if "v6-1" in c}, "a claim that states no tier passed the tier filter"
    assert len(rows) == len(run_query(graph_store, "leaderboard", {"model": "llama2-70b", "scenario": "offline"}).rows)


def test_the_cli_counts_what_the_defaults_left_out(graph_data):
    result = cli(
        "query", "leaderboard", "--param", "model=llama2-70b", "--param", "scenario=offline", "--data", graph_data
    )
    assert result.exit_code == 0
    note = result.stdout[result.stdout.index("Left out") :].replace("\n  ", " ")
    assert (
        "5 results" in note
        and "unit queries/s 1" in note
        and "accuracy-tier not stated 2, 99.9 1" in note  # the two v6.1 vendor claims: their own value
        and "division open 1" in note
    )


@pytest.fixture(scope="module")
def full_store():
    return build_graph(FULL_DATA, persist=False).store


def caveat_links(store) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in store.query(
        "PREFIX bk: <https://w3id.org/benchkg/ontology#> SELECT ?c ?g WHERE { ?c bk:caveat ?g }",
        use_default_graph_as_union=True,
    ):
        out.setdefault(r["g"].value.rsplit("/", 1)[1], set()).add(r["c"].value)
    return out


def test_a_single_claim_carries_no_comparison_caveat(full_store):
    comparison = {p.stem for p in (FULL_DATA / "gotchas").glob("*.json") if "compares" in json.loads(p.read_text())}
    assert "endpoints-not-comparable-with-inference-server" in comparison and "fp4-vs-fp8" in comparison
    assert not comparison & set(caveat_links(full_store))


@pytest.mark.slow
def test_a_finding_caveat_applies_to_exactly_the_claims_whose_finding_fires(full_store):
    findings = validate_graph(full_store, FULL_DATA).findings
    links = caveat_links(full_store)
    for gotcha, shape in (
        ("samples-times-tokens-per-sample-mismatch", "samples-times-tokens-agrees"),
        ("system-descriptions-are-free-text", "fabric-stated-only-by-the-system"),
    ):
        flagged = {"https://w3id.org/benchkg/id/" + f.focus for f in findings if f.shape == shape}
        assert flagged and links[gotcha] == flagged


def test_the_endpoints_caveat_only_where_endpoints_meets_inference(full_store):
    iri = "https://w3id.org/benchkg/id/benchmarks/{}".format
    select = Embedded(full_store).select
    mixed = comparison_caveats(
        select,
        [
            iri("bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server"),
            iri("bench-mlperf-endpoints-v0-7-coreweave-gb200-nvl72-deepseek-r1"),
        ],
    )
    endpoints = [c for c in mixed if c.gotcha == "endpoints-not-comparable-with-inference-server"]
    assert endpoints and dict(endpoints[0].split) == {"mlperf-inference": 1, "mlperf-endpoints": 1}
    two_inference = comparison_caveats(
        select,
        [
            iri("bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server"),
            iri("mlperf-6.0-0075-llama2-70b-99-offline"),
        ],
    )
    assert "endpoints-not-comparable-with-inference-server" not in {c.gotcha for c in two_inference}
    assert "scenarios-load-systems-differently" in {c.gotcha for c in two_inference}


def test_the_comparison_values_the_mapping_writes_are_what_each_dimension_reads(tmp_path):
    """An answer's caveats read each claim's values as the mapping wrote them (``bk:comparisonValues``,
    one row a claim, and a row a suite for its family, in one query); a store without them (another
    tool's, or pushed by an older benchkg) is read a dimension at a time. On every claim of the seed data
    and in every dimension the two agree: a claim of two system types, a tier stated by none, a suite's
    family read through the suite."""
    from benchkg.answers.caveats import DIMENSIONS, NOT_STATED, all_claim_values

    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns(".benchkg"))
    two = data / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json"
    two.write_text(json.dumps({**json.loads(two.read_text()), "system_type": ["datacenter", "edge"]}, indent=2))
    select = Embedded(build_graph(data, persist=False).store).select
    claims = [r["c"] for r in select("SELECT ?c WHERE { ?c a <https://w3id.org/benchkg/ontology#Benchmark> }")]
    sent: list[str] = []
    derived = all_claim_values(lambda text: sent.append(text) or select(text), claims, DIMENSIONS)
    assert len(sent) == 1, sent
    read = all_claim_values(lambda text: [] if "comparisonValues" in text else select(text), claims, DIMENSIONS)
    assert derived == read
    assert {"datacenter", "edge"} in derived["system-type"].values()
    assert any(v == {NOT_STATED} for v in derived["accuracy-tier"].values())
    assert {next(iter(v)) for v in derived["suite-family"].values()} >= {"mlperf-inference", "mlperf-endpoints"}


@pytest.mark.slow
def test_compare_reports_the_pair_caveats_once_and_each_claims_own(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FULL_DATA, data, ignore=shutil.ignore_patterns(".benchkg"))
    out = cli(
        "compare", "mlperf-6.0-0075-llama2-70b-99-offline", "mlperf-6.0-0075-llama2-70b-99-server", "--data", data
    ).stdout
    assert "endpoints-not-comparable" not in out and "fp4-vs-fp8" not in out
    assert out.count("scenarios-load-systems-differently") == 1
    assert "ratio: " in out and "per accelerator" in out


@pytest.mark.slow
def test_default_leaderboard_is_like_with_like_on_data(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FULL_DATA, data, ignore=shutil.ignore_patterns(".benchkg"))
    result = cli(
        "query",
        "leaderboard",
        "--param",
        "model=llama2-70b",
        "--param",
        "scenario=server",
        "--format",
        "json",
        "--data",
        data,
    )
    rows = json.loads(result.stdout)
    assert rows and {r["unit"] for r in rows} == {"tokens/s"} and {r["division"] for r in rows} == {"closed"}
    assert {r["tier"] for r in rows} <= {"99", None} and len({r["claim"] for r in rows}) == len(rows)
    assert all("round" in r and "availability" in r for r in rows)
    caveats = [line for line in result.stderr.splitlines() if line.startswith("  [")]
    assert len(caveats) == len({line.split(":")[0] for line in caveats}), "each caveat once"
    assert not any("endpoints-not-comparable" in line for line in caveats)
    heterogeneous = [r for r in rows if len(r["accelerators"].split()) > 1]
    assert all(sum(1 for s in rows if s["claim"] == r["claim"]) == 1 for r in heterogeneous)


def test_tables_fit_the_terminal(graph_data):
    shown = {}
    for width in (80, 120):
        result = cli(
            "query",
            "leaderboard",
            "--param",
            "model=llama2-70b",
            "--param",
            "scenario=offline",
            "--data",
            graph_data,
            env={"COLUMNS": str(width)},
        )
        assert result.exit_code == 0
        lines = result.stdout.splitlines()
        assert max(len(line) for line in lines) <= width, f"a line is wider than {width}"
        assert lines[0].startswith("leaderboard: model=llama2-70b scenario=offline")  # the title names the slice
        header = next(i for i, line in enumerate(lines) if line.startswith("─")) - 1
        lines = lines[header:]
        shown[width] = len(lines[0].split())
        hidden = result.stdout[result.stdout.index("(columns not shown here:") :].split(")")[0]
        assert "gotchas" in hidden, "what does not fit is named"
    assert shown[120] > shown[80]


@pytest.mark.slow
def test_a_table_shows_25_rows_and_says_how_many_there_are(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FULL_DATA, data, ignore=shutil.ignore_patterns(".benchkg"))
    everything = json.loads(cli("query", "leaderboard", "--format", "json", "--data", data).stdout)
    table = cli("query", "leaderboard", "--data", data, env={"COLUMNS": "200"}).stdout
    assert f"(rows 1–25 of {len(everything)}; --limit 0 for all)" in table
    page = json.loads(
        cli("query", "leaderboard", "--format", "json", "--limit", "5", "--offset", "10", "--data", data).stdout
    )
    assert page == everything[10:15]


def test_an_id_that_names_no_record_exits_2_with_the_closest(graph_data):
    result = cli("query", "leaderboard", "--param", "model=llama2", "--data", graph_data)
    assert result.exit_code == 2 and "'llama2' names no record of models; did you mean llama2-70b" in result.stderr


def test_data_formats_have_short_ids_and_plain_numbers_and_the_w3c_formats_stay(graph_data):
    import csv
    import io
    import xml.dom.minidom

    args = ("query", "leaderboard", "--param", "model=llama2-70b", "--param", "scenario=offline", "--data", graph_data)
    rows = list(csv.DictReader(io.StringIO(cli(*args, "--format", "csv").stdout)))
    assert rows[0]["unit"] == "tokens/s" and not rows[0]["claim"].startswith("http") and float(rows[0]["value"]) > 0
    tsv = cli(*args, "--format", "tsv").stdout.splitlines()
    assert tsv[0].split("\t")[0] == "claim"
    sparql = json.loads(cli(*args, "--format", "sparql-json").stdout)
    assert sparql["results"]["bindings"][0]["claim"]["type"] == "uri"
    assert cli(*args, "--format", "sparql-csv").stdout.splitlines()[1].startswith("https://w3id.org/benchkg/id/")
    assert cli(*args, "--format", "sparql-tsv").stdout.splitlines()[1].startswith("<https://w3id.org/benchkg/id/")
    doc = xml.dom.minidom.parseString(cli(*args, "--format", "sparql-xml").stdout)
    assert len(doc.getElementsByTagName("result")) == len(rows)


def test_every_shape_that_doubts_a_number_reaches_the_rows_through_a_gotcha():
    """The shapes that say a claim's number or count may be wrong (mistakes.ttl, physics.ttl) are each
    named by a gotcha's finding_shapes, so their findings show in every table's caveat column."""
    import re

    from benchkg.kernel.resources import SHAPES_DIR

    doubting = {
        name
        for path in ("mistakes.ttl", "physics.ttl")
        for name in re.findall(r"^bkshape:([\w-]+) a sh:NodeShape", (SHAPES_DIR / path).read_text(), re.M)
    }
    named = {
        shape
        for p in (FULL_DATA / "gotchas").glob("*.json")
        for shape in json.loads(p.read_text()).get("finding_shapes", [])
    }
    assert doubting and not doubting - named


def test_a_finding_on_a_claim_or_its_system_shows_once_in_its_rows(full_store):
    """The Nebius v6.0 "4x GB300" system counts 1 accelerator: its result tops the per-accelerator
    ranking, and the row carries the finding's caveat, once; the rows without a finding carry none of it."""
    rows = run_query(
        full_store, "leaderboard", {"suite": "mlperf-inference-v6.0", "model": "gpt-oss-120b", "scenario": "offline"}
    ).rows
    top = rows[0]
    assert "4x GB300" in top["system_name"].value and top["accelerator_count"].value == "1"
    assert top["gotchas"].value.split().count("name-in-the-record-states-another-count") == 1
    flagged = caveat_links(full_store)["name-in-the-record-states-another-count"]
    for row in rows[1:]:
        cell = row["gotchas"].value.split() if "gotchas" in row else []
        assert ("name-in-the-record-states-another-count" in cell) == (row["claim"].value in flagged)
    # a finding on the system record reaches the claims that ran on it
    systems = {
        r["c"].value
        for r in full_store.query(
            "PREFIX bk: <https://w3id.org/benchkg/ontology#> SELECT ?c WHERE { ?c bk:system ?s . "
            "?s bk:nameStatesCount 4 ; bk:acceleratorCount 1 }",
            use_default_graph_as_union=True,
        )
    }
    assert systems and systems <= flagged


def test_capped_vs_uncapped_pairs_the_same_server_unless_asked_across_submitters(full_store):
    """MangoBoost's capped MI355X result meets its own uncapped server (0.84), not another submitter's best
    (0.79); asked across submitters, the pair says it crosses."""
    same = run_query(full_store, "capped-vs-uncapped", {}).rows
    assert same and all(r["same_submitter"].value == "true" for r in same)
    across = {
        r["capped"].value: r for r in run_query(full_store, "capped-vs-uncapped", {"across_submitters": "true"}).rows
    }
    assert {r["capped"].value for r in same} == set(across)
    for row in same:
        other = across[row["capped"].value]
        assert float(other["uncapped_per_accelerator"].value) >= float(row["uncapped_per_accelerator"].value)
    assert any(r["same_submitter"].value == "false" for r in across.values())


def test_open_vs_closed_pairs_within_a_submitter(full_store):
    rows = run_query(full_store, "open-vs-closed", {"suite": "mlperf-inference-v4.1"}).rows
    subs = {(r["accelerator"].value, r["submitter"].value) for r in rows}
    assert len(subs) == len(rows) and all(r["submitter"].value != "any" for r in rows)
    for r in rows:
        for claim in (r["open_claim"], r["closed_claim"]):
            got = full_store.query(
                f"PREFIX bk: <https://w3id.org/benchkg/ontology#> SELECT ?s WHERE {{ <{claim.value}> bk:submitter ?s }}",
                use_default_graph_as_union=True,
            )
            assert [x["s"].value.rsplit("/", 1)[1] for x in got] == [r["submitter"].value]


#: a repository claim stating an accuracy tier for deepseek-r1, whose MLPerf round has one accuracy target
#: (no audited result states one): the audited record must stay as it is (issue 64)
VENDOR_TIER = {
    "id": "vendor-deepseek-r1-tier-99",
    "title": "A vendor's DeepSeek-R1 Offline result at the 99% tier",
    "suite_id": "mlperf-inference-v6.1",
    "scenario": "offline",
    "model_id": "deepseek-r1",
    "accelerator_ids": ["nvidia-b200-sxm-180gb"],
    "accelerator_count": 8,
    "metric": "throughput",
    "value": 123456,
    "unit": "tokens/s",
    "scope": "aggregate",
    "accuracy_target": "99",
    "division": "closed",
    "measured_by": "vendor",
    "sources": [{"source_id": "coreweave-gb200-nvl72-llama2-70b-server-record", "quote": "123,456 tokens/s"}],
}
DEEPSEEK_OFFLINE = {"model": "deepseek-r1", "scenario": "offline", "suite": "mlperf-inference-v6.1"}


@pytest.fixture(scope="module")
def vendor_tier_data(tmp_path_factory):
    """data/ in full, built, then the vendor's tiered claim added (the next command builds incrementally)."""
    data = tmp_path_factory.mktemp("vendor-tier") / "data"
    shutil.copytree(FULL_DATA, data, ignore=shutil.ignore_patterns(".benchkg"))
    del build_graph(data).store
    (data / "benchmarks" / f"{VENDOR_TIER['id']}.json").write_text(json.dumps(VENDOR_TIER, indent=2))
    return data


@pytest.mark.slow
def test_a_vendor_claims_tier_leaves_the_audited_results_untiered(vendor_tier_data):
    """A clean build: no audited deepseek-r1 result is "not stated" because one vendor claim states "99"."""
    store = build_graph(vendor_tier_data, persist=False).store
    tiers = {
        (r["c"].value.rsplit("/", 1)[1], r["t"].value if r["t"] is not None else None)
        for r in store.query(
            "PREFIX bk: <https://w3id.org/benchkg/ontology#> SELECT ?c ?t WHERE { GRAPH ?g { ?c bk:model "
            "<https://w3id.org/benchkg/id/models/deepseek-r1> ; bk:measuredBy bk:measured-by-mlcommons } "
            "OPTIONAL { GRAPH <https://w3id.org/benchkg/graph/caveats> { ?c bk:tier ?t } } }"
        )
    }
    assert len(tiers) > 37 and {t for _, t in tiers} == {None}, sorted(t for t in tiers if t[1])[:3]
    vendor = NamedNode("https://w3id.org/benchkg/id/benchmarks/vendor-deepseek-r1-tier-99")
    stated = store.quads_for_pattern(vendor, NamedNode("https://w3id.org/benchkg/ontology#tier"), None, None)
    assert [q.object.value for q in stated] == ["99"], "the vendor's own tier stays as stated"


@pytest.mark.slow
def test_the_default_leaderboard_ranks_the_audited_results_beside_a_vendors_tier(vendor_tier_data):
    """The default leaderboard (tier 99) of deepseek-r1 Offline in v6.1 after an incremental build: the 37
    audited results and the vendor's number, not the vendor's alone."""
    args = [a for k, v in DEEPSEEK_OFFLINE.items() for a in ("--param", f"{k}={v}")]
    result = cli("query", "leaderboard", *args, "--format", "json", "--data", vendor_tier_data)
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    measured = [r["measured_by"] for r in rows]
    assert measured.count("vendor") == 1 and measured.count("mlcommons") >= 30, measured
