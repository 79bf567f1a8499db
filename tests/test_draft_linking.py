"""`benchkg draft` reads a text against the graph (issue 61): each figure linked to the audited result it
restates, named in ``restates``; the claim then judged against that result alone.

A curator's loop, run the way a curator runs it: a new data repository (``benchkg init``), a real
announcement drafted into it (``draft --out``), the one field a person fills in (``measured_by``), then
``validate`` and ``show``. What each claim should restate is the corpus's curated answer
(tests/fixtures/draft/announcements/expected.json); every audited value is read from its own file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchkg.records.scaffold import init_repo
from conftest import FIXTURES, audited, cli, verdict_line

pytestmark = pytest.mark.slow  # data repositories over the whole reference set, built

CORPUS = FIXTURES / "draft" / "announcements"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
COREWEAVE = "d21-coreweave-v61-rubin-blog.md"
AMD = "mlperf-6.0-0002-llama2-70b-99-server"  # AMD's 8× MI355X Server result, 100,282 tokens/s
GIGA = "mlperf-6.0-0037-llama2-70b-99-server"  # Giga Computing's 8× MI355X Server result, of the same key
AMD_OFFLINE = "mlperf-6.0-0002-llama2-70b-99-offline"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> tuple[Path, dict[str, dict], str]:
    """CoreWeave's v6.1 post drafted into a new repository, measured_by filled in as the docs say."""
    root = tmp_path_factory.mktemp("linking") / "repo"
    init_repo(root)
    data = root / "data"
    out = cli("draft", CORPUS / COREWEAVE, "--out", data, "--data", data)
    assert out.exit_code == 0, out.output
    claims = {}
    for path in sorted((data / "benchmarks").glob("d21-*.json")):
        record = json.loads(path.read_text())
        record["measured_by"] = "vendor"
        path.write_text(json.dumps(record, indent=2) + "\n")
        claims[record["id"]] = record
    return data, claims, out.stderr


def test_each_figure_names_the_audited_result_it_restates(drafted):
    """Every figure of the post whose audited result the curator names is drafted naming that result, and
    nothing the text does not say is copied from it: stderr says what the result has instead."""
    _, claims, said = drafted
    want = {c["value"]: c["restates"] for c in EXPECTED[COREWEAVE]["claims"] if c.get("restates")}
    got = {c["value"]: c.get("restates") for c in claims.values()}
    assert {v: got.get(v) for v in want} == want
    b300 = next(c for c in claims.values() if c["value"] == 112840)
    result = audited(b300["restates"])
    assert result["node_count"] == 1 and "node_count" not in b300  # the text does not say it
    assert f"restates: {b300['restates']}" in said and "1 node" in said


def test_the_drafted_release_validates_and_each_linked_claim_matches_its_result(drafted):
    data, claims, _ = drafted
    checked = cli("validate", "--data", data)
    assert checked.exit_code in (0, 1), checked.output  # (findings are the curator's to read, not errors)
    assert "restates" not in checked.stdout
    for claim in claims.values():
        if claim.get("restates"):
            published = audited(claim["restates"])["value"]
            line = verdict_line(data, claim["id"])
            assert line.startswith(("matches ", "matches as written ")), line
            assert claim["restates"] in line and f"{published:,}"[:5] in line.replace(",", ",")


def _claim(data: Path, name: str, **fields) -> None:
    record = {
        "id": name,
        "title": name,
        "suite_id": "mlperf-inference-v6.0",
        "division": "closed",
        "scenario": "server",
        "model_id": "llama2-70b",
        "accelerator_ids": ["amd-instinct-mi355x"],
        "accelerator_count": 8,
        "metric": "throughput",
        "value": audited(AMD)["value"],
        "unit": "tokens/s",
        "scope": "aggregate",
        "measured_by": "vendor",
        "sources": [{"source_id": "mlperf-inference-v6.0-results", "quote": f"{audited(AMD)['value']:,} tokens/s"}],
        **fields,
    }
    (data / "benchmarks" / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n")


def test_a_claim_is_judged_against_the_result_it_names_alone(tmp_path):
    """AMD's number, named as Giga Computing's result of the same key, differs from the result it names
    (not "matches" AMD's); named as AMD's Offline result, it says the scenario is not the claim's; named
    as nothing, the rule finds AMD's. A name that is no record is a violation at its file, line and field."""
    init_repo(tmp_path / "r")
    data = tmp_path / "r" / "data"
    _claim(data, "acme-unnamed")
    _claim(data, "acme-named-giga", restates=GIGA)
    _claim(data, "acme-named-offline", restates=AMD_OFFLINE)
    assert cli("build", "--data", data).exit_code == 0
    assert verdict_line(data, "acme-unnamed").startswith(f"matches {AMD}")
    giga = verdict_line(data, "acme-named-giga")
    assert giga.startswith(f"differs from {GIGA}") and AMD not in giga.split(";")[0], giga
    above = audited(AMD)["value"] / audited(GIGA)["value"] - 1
    assert f"{above * 100:.1f} % above" in giga, giga
    offline = verdict_line(data, "acme-named-offline")
    assert offline.startswith(f"differs from {AMD_OFFLINE}, the result it names: its scenario"), offline
    _claim(data, "acme-named-nothing", restates="mlperf-6.0-9999-llama2-70b-99-server")
    bad = cli("validate", "--data", data)
    assert bad.exit_code == 1, bad.output
    named = [line for line in bad.output.splitlines() if "acme-named-nothing.json" in line and "/restates" in line]
    assert len(named) == 1 and "[violation]" in named[0] and "mlperf-6.0-9999" in named[0], bad.output
