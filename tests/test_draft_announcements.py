"""`benchkg draft` on announcements as they are really written: 78 texts modelled on real announcements
of MLPerf Inference results (tests/fixtures/draft/announcements/README.md), each with the claims a
careful curator enters from it, field for field. The reading rules these hold are in docs/records.md
("Drafting from a text").

A drafted field is right, or left open with a reason on stderr: never filled in wrongly. Every claim
a curator enters is drafted, and nothing else is (a range, a mark passed, a statistic of a run's parts,
an earlier figure given for comparison, a requirement, a condition, a training time).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchkg.kernel.matching import stated_interval
from conftest import DATA, FIXTURES, FULL_DATA, cli, summary
from draft_scoring import FIELDS, WHERE_GIVEN, Linking, Score, score_text

CORPUS = FIXTURES / "draft" / "announcements"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
#: the structures issue 43 names, each to be in two texts or more
STRUCTURES = {
    "multi-number-clause",
    "table",
    "per-gpu-speedup",
    "rounded-headline",
    "counts-as-words",
    "reference-back",
    "unverified",
    "up-to",
    "earlier-round",
    "partners",
    "not-results",
    "contradiction",
    "superlative",
}


def _records(kind: str) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in (DATA / kind).glob("*.json")}


ACCELERATORS, SUITES = _records("accelerators"), _records("suites")


def base_of(chip: str) -> str:
    """The chip a rack is made of (queries compare there too)."""
    while ACCELERATORS.get(chip, {}).get("made_of_id"):
        chip = ACCELERATORS[chip]["made_of_id"]
    return chip


@pytest.fixture(scope="module")
def drafted() -> dict[str, tuple[list[dict], str, list[dict]]]:
    """Every text drafted as a user drafts it: ``benchkg draft TEXT`` (claims, stderr) and, written with
    --out, the suite records it adds."""
    out = {}
    for name in EXPECTED:
        result = cli("draft", CORPUS / name, "--data", FULL_DATA)
        assert result.exit_code == 0, f"{name}: {result.output}"
        claims = json.loads(result.stdout)
        claims = claims if isinstance(claims, list) else [claims]
        out[name] = (claims, result.stderr)
    return out


@pytest.fixture(scope="module")
def scored(drafted) -> Score:
    score = Score()
    for name, entry in EXPECTED.items():
        claims, _ = drafted[name]
        score_text(score, name, entry, claims, base_of, _family)
    summary("draft: the corpus field by field", score.table())
    return score


@pytest.fixture(scope="module")
def linked(drafted) -> Linking:
    links = Linking()
    for name, entry in EXPECTED.items():
        claims, said = drafted[name]
        links.add(name, entry, claims, said)
    summary("draft: each MLPerf figure linked to the audited result it restates", links.table())
    return links


def test_each_figure_is_linked_to_the_audited_result_it_restates(linked):
    """Issue 61: of the corpus's MLPerf claims whose audited result is in data/ (the curator names it in
    ``restates``), nine in ten or more are linked to it, none to another, and none is linked where the
    curator names none; every one not linked says why on stderr."""
    linkable = len(linked.right) + len(linked.wrong) + len(linked.unlinked)
    assert linkable >= 60, linked.table()
    assert (linked.wrong, linked.spurious) == ([], []), linked.table()
    assert len(linked.right) >= 0.9 * linkable, linked.table()
    assert all(": " in u for u in linked.unlinked)


def _family(suite_id: str) -> str | None:
    """A suite's family; draft's own claim series is ``<submitter or page>-claims`` of family vendor-claim."""
    if suite_id in SUITES:
        return SUITES[suite_id].get("family")
    return "vendor-claim" if suite_id.endswith("-claims") else None


def test_the_corpus_has_forty_texts_of_twelve_organisations_and_every_structure_twice():
    assert len(EXPECTED) >= 40
    assert len({entry["organisation"] for entry in EXPECTED.values()}) >= 12
    seen = Counter(s for entry in EXPECTED.values() for s in entry["structures"])
    assert {s for s in STRUCTURES if seen[s] < 2} == set(), seen
    assert all(entry["modelled_on"] for entry in EXPECTED.values())
    written_first = [n for n, e in EXPECTED.items() if e["written"] == "before draft changed"]
    assert len(written_first) >= 15, "issue 43: at least 15 texts written before draft changed"
    assert {p.name for p in CORPUS.iterdir()} - {"expected.json", "README.md"} == set(EXPECTED)


#: the classes issue 61 found draft failing on, each in two held-out texts or more
CLASSES = {
    "dash-variants",
    "other-systems",
    "respectively",
    "heterogeneous-elsewhere",
    "division-elsewhere",
    "time-span",
    "targets",
    "superlative-elsewhere",
    "per-gpu-own-claim",
    "words-and-seconds",
    "comparison-round",
    "unsubmitted",
    "mislabelled",
    "rounded-restatement",
}


def test_the_held_out_texts_of_issue_61_cover_every_class_twice():
    """Issue 61: 25 texts or more, written before draft changed by a helper that had not read it, of
    outlets new to the corpus, each class in two of them."""
    held = {n: e for n, e in EXPECTED.items() if e["written"].startswith("held out for issue 61")}
    assert len(held) >= 25
    seen = Counter(c for e in held.values() for c in e["classes"])
    assert {c for c in CLASSES if seen[c] < 2} == set(), seen
    earlier = {e["organisation"] for n, e in EXPECTED.items() if n not in held}
    assert len({e["organisation"] for e in held.values()} - earlier) >= 15


def test_no_drafted_field_is_filled_in_wrongly(scored):
    """The rule of issue 43: a field is the curator's, or left open; never another value (a wrong
    scenario, count, model, suite or measured_by would make a wrong verdict)."""
    wrong = [line for line in scored.lines if ": wrong:" in line]
    assert wrong == []
    assert sum(scored.fields[f]["wrong"] for f in FIELDS) == 0


def test_every_claim_a_curator_enters_is_drafted_and_nothing_else(scored):
    missed_or_spurious = [line for line in scored.lines if "missed" in line or "spurious" in line]
    assert missed_or_spurious == []
    assert scored.claims["matched"] == sum(len(e["claims"]) for e in EXPECTED.values())


def test_most_fields_are_drafted_exactly(scored):
    """The floor under the accuracy issue 61 measured (2,013 of 2,226 fields, restates and the ratios and
    spellings of its held-out texts among them; measured_by is left to a person for an MLPerf result, by
    design): a change that reads less must say so."""
    total = sum((scored.fields[f] for f in (*FIELDS, *WHERE_GIVEN)), Counter())
    assert total["exact"] >= 2000, scored.table()
    for field in ("value", "unit", "scope", "division", "reported", "asserts"):
        assert scored.fields[field]["open"] == 0, f"{field}: {scored.fields[field]}"


def test_a_field_left_open_is_said_on_stderr(drafted):
    """What draft does not fill in for a claim the curator enters, it says on stderr, field by field (issue 61:
    every field, the audited result it restates and a stated ratio among them)."""
    silent = []
    for name, entry in EXPECTED.items():
        claims, said = drafted[name]
        for want in entry["claims"]:
            got = next(c for c in claims if c.get("value") == want["value"])
            for field in FIELDS + WHERE_GIVEN:
                if field in ("reported", "asserts"):  # (none is open: test_most_fields_are_drafted_exactly)
                    continue
                if field == "value_as_written" and _same_precision(want):  # (its digits state it as well)
                    continue
                if want.get(field) is not None and got.get(field) is None:
                    block = _claim_block(said, got["id"])
                    reasons = [f"{field}:"] + (["conflict:"] if field == "restates" else [])
                    if not any(r in block for r in reasons) and field not in got.get("omitted_by_source", []):
                        silent.append(f"{name} {got['id']} {field}")
    assert silent == [], "\n".join(silent)


def _same_precision(want: dict) -> bool:
    """Whether the curator's spelling of the number states what its digits state ("about 2,907")."""
    return str(stated_interval(want["value"], want.get("value_as_written"))) == str(stated_interval(want["value"]))


def _claim_block(said: str, claim_id: str) -> str:
    """The part of draft's stderr about one claim ("claim 2 of 3 (id): …")."""
    blocks = said.split("\nclaim ")
    return next((b for b in blocks if f"({claim_id})" in b.split("\n", 1)[0]), said)


@pytest.mark.parametrize(
    "name,value,why",
    [
        ("a10-digitaltoday-v60-roundup.txt", "100,000 to 110,000", "a range, not one result"),
        ("a15-storagereview-amd-v60-bounds.txt", "1,000,000", "a mark passed, not a result"),
        ("a03-azure-gb300-million.md", "62,803.9", "a statistic of the run's parts"),
        ("b15-dell-infohub-units.txt", "23,290", "a condition or an example, not a result"),
        ("b02-frontiernews-nvidia-v60.txt", "2,907", "an earlier figure given for comparison"),
    ],
)
def test_a_number_that_is_no_claim_is_said_so(drafted, name, value, why):
    _, said = drafted[name]
    assert f"left out {value}: {why}" in said


def _audited(suite: str, model: str, scenario: str) -> list[dict]:
    """MLCommons' results of a round, model and scenario, read from the record files themselves."""
    out = []
    for path in (FULL_DATA / "benchmarks").glob("mlperf-*.json"):
        r = json.loads(path.read_text())
        if (r.get("suite_id"), r.get("model_id"), r.get("scenario"), r.get("measured_by")) == (
            suite,
            model,
            scenario,
            "mlcommons",
        ) and r.get("unit") == "tokens/s":
            out.append(r)
    return out


def _vendors(record: dict) -> set[str]:
    chips = {**{p.stem: json.loads(p.read_text()) for p in (FULL_DATA / "accelerators").glob("*.json")}}
    return {chips[c].get("vendor_id") for c in record["accelerator_ids"]}


def test_the_release_of_issue_43_becomes_validated_records_in_a_new_repository(tmp_path):
    """The release issue 43 was tried on: six claims drafted, the unverified one in the vendor's own
    claim series (a suite record draft writes, as docs/data-repository.md shows), and after the one
    step the docs name (measured_by of the five MLPerf results) the repository validates. "The best
    per-GPU gpt-oss-120b result of any AMD-based submission" is then checked among AMD-only results:
    the population and the rivals are counted again from the record files, and no result on another
    vendor's chips (the CoreWeave GB300 the first validate named) is in it."""
    repo = tmp_path / "mine"
    assert cli("init", repo).exit_code == 0
    data = repo / "data"
    drafted = cli("draft", CORPUS / "c01-issue43-cloud-release.md", "--out", data, "--data", data)
    assert drafted.exit_code == 0, drafted.output
    suite = json.loads((data / "suites" / "crusoe-claims.json").read_text())
    assert (suite["family"], suite["publisher_id"]) == ("vendor-claim", "crusoe")
    claims = {p.stem: json.loads(p.read_text()) for p in (data / "benchmarks").glob("c01-*.json")}
    own = [c for c in claims.values() if c.get("suite_id") == "crusoe-claims"]
    assert [(c["value"], c["measured_by"], "division" in c) for c in own] == [(3400000, "vendor", False)]
    for path in (data / "benchmarks").glob("c01-*.json"):
        record = json.loads(path.read_text())
        path.write_text(json.dumps({"measured_by": "vendor", **record}, indent=2) + "\n")
    checked = cli("validate", "--data", data)
    assert checked.exit_code == 0, checked.stdout
    rows = json.loads(cli("query", "superlatives", "--format", "json", "--data", data).stdout)
    offline = next(r for r in rows if claims[r["claim"]]["value"] == 5749440)
    mine = 5749440 / 512
    amd = [r for r in _audited("mlperf-inference-v6.1", "gpt-oss-120b", "offline") if _vendors(r) == {"amd"}]
    # its own audited result is not its rival, nor is a system of mixed chips (Dell's MI355X+MI300X): it has
    # no per-accelerator value, the scope this claim ranks in (one rule: graph/facts.py, issue 63)
    rivals = [r for r in amd if r["value"] != 5749440 and len(r["accelerator_ids"]) == 1]
    better = [r for r in rivals if r["value"] / r["accelerator_count"] > mine * 1.000005]
    assert (offline["population"], offline["better"], offline["verdict"]) == (len(rivals), len(better), "beaten")
    best = max(rivals, key=lambda r: r["value"] / r["accelerator_count"])
    assert offline["best"] == best["id"] and _vendors(best) == {"amd"}
    assert len(rivals) < len(_audited("mlperf-inference-v6.1", "gpt-oss-120b", "offline")) - 1, "others are left out"


def test_a_population_by_count_nodes_and_several_chips_is_the_audited_results_it_names(tmp_path):
    """among's system size, node count and several chips, each checked against the record files."""
    repo = tmp_path / "mine"
    assert cli("init", repo).exit_code == 0
    data = repo / "data"
    among = {
        "size": {"accelerator_count": 8, "node_count": 1},
        "chips": {"accelerator_ids": ["nvidia-b200-sxm-180gb", "amd-instinct-mi355x"]},
    }
    for name, narrowed in among.items():
        claim = {
            "id": f"acme-{name}",
            "title": f"Acme {name}",
            "suite_id": "mlperf-inference-v6.1",
            "division": "closed",
            "scenario": "offline",
            "model_id": "gpt-oss-120b",
            "accelerator_ids": ["nvidia-b200-sxm-180gb"],
            "accelerator_count": 8,
            "metric": "throughput",
            "value": 100000,
            "unit": "tokens/s",
            "scope": "aggregate",
            "measured_by": "vendor",
            "sources": [{"source_id": "mlcommons-inference-results", "quote": "100,000 tokens/s"}],
            "asserts": {
                "rank": 1,
                "scope": "aggregate",
                "among": {
                    "suite_id": "mlperf-inference-v6.1",
                    "model_id": "gpt-oss-120b",
                    "scenario": "offline",
                    **narrowed,
                },
            },
        }
        (data / "benchmarks" / f"acme-{name}.json").write_text(json.dumps(claim, indent=2) + "\n")
    assert cli("validate", "--data", data).exit_code in (0, 1)
    rows = {r["claim"]: r for r in json.loads(cli("query", "superlatives", "--format", "json", "--data", data).stdout)}
    results = _audited("mlperf-inference-v6.1", "gpt-oss-120b", "offline")
    sized = [r for r in results if r["accelerator_count"] == 8 and r.get("node_count") == 1]
    # a result on one of the chips named; a system of mixed chips is its combination, never one of them (issue 63)
    chips = [r for r in results if r["accelerator_ids"] in (["nvidia-b200-sxm-180gb"], ["amd-instinct-mi355x"])]
    assert 0 < len(sized) < len(results) and 0 < len(chips) < len(results)
    for name, population in (("size", sized), ("chips", chips)):
        row = rows[f"acme-{name}"]
        assert row["population"] == len(population), name
        assert row["better"] == sum(r["value"] > 100000 for r in population), name
