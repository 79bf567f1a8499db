"""Incremental validation: after each kind of edit, the findings equal a full run's, and only the
records the edit can affect were re-checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchkg.checks.incremental import cache_path_for
from benchkg.checks.validate import validate_graph
from benchkg.graph.store import build_graph
from conftest import DATA

SERVER = "benchmarks/bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json"
OFFLINE = "benchmarks/bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-offline.json"
GB200 = "accelerators/nvidia-gb200-nvl72.json"
CHIP = "accelerators/nvidia-gb200.json"
SYSTEM = "systems/coreweave-gb200-nvl72.json"


def _edit(data: Path, rel: str, change) -> None:
    path = data / rel
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record, indent=2) + "\n")


def _check(data: Path):
    """Build, validate incrementally, validate fully on the same store; both must agree."""
    store = build_graph(data).store
    incremental = validate_graph(store, data, cache=cache_path_for(data))
    full = validate_graph(store, data)
    assert sorted(map(str, incremental.findings)) == sorted(map(str, full.findings))
    del store
    return incremental


def _shapes(report, focus: str) -> set[str]:
    return {f.shape for f in report.findings if f.focus == focus}


@pytest.mark.slow
def test_incremental_findings_equal_a_full_run_after_each_kind_of_edit(data_copy):
    records = len(list(data_copy.glob("*/*.json")))
    first = _check(data_copy)
    assert first.rechecked is None, "no cache yet: a full run"
    again = _check(data_copy)
    assert again.rechecked == 0 and len(again.findings) == len(first.findings)

    # a local edit: the claim's own quote no longer contains its number
    _edit(data_copy, SERVER, lambda r: r["sources"][0].update(quote="a record result"))
    report = _check(data_copy)
    assert 0 < report.rechecked < records / 4
    assert "quote-contains-number" in _shapes(report, SERVER[:-5])

    # the system no longer states the fabric: the rack's specification still has it
    _edit(data_copy, SYSTEM, lambda r: r.update(interconnect_ids=["infiniband-ndr"]))
    report = _check(data_copy)
    assert "fabric-present" not in _shapes(report, SERVER[:-5])

    # the rack loses its fabric too: nvswitch-5 is nowhere now (nvlink-5 is still the chip's)
    _edit(data_copy, GB200, lambda r: [r.pop(k) for k in ("interconnect_ids", "interconnect_sources")])
    report = _check(data_copy)
    assert {
        f.message.split()[0] for f in report.findings if f.focus == SERVER[:-5] and f.shape == "fabric-present"
    } == {"nvswitch-5"}
    assert 0 < report.rechecked < records / 4

    # two hops: the chip the rack is made of loses nvlink-5, so the rack's claims lose it as well
    _edit(
        data_copy,
        CHIP,
        lambda r: r.update(
            interconnect_ids=["nvlink-c2c"],
            interconnect_sources=[s for s in r["interconnect_sources"] if s["interconnect_id"] == "nvlink-c2c"],
        ),
    )
    report = _check(data_copy)
    assert {
        f.message.split()[0] for f in report.findings if f.focus == SERVER[:-5] and f.shape == "fabric-present"
    } == {"nvswitch-5", "nvlink-5"}

    # the rack disappears: every reference to it is reported; then it comes back, fabric and all
    (data_copy / GB200).unlink()
    report = _check(data_copy)
    assert any(s.startswith("ref-") for s in _shapes(report, SERVER[:-5]))
    (data_copy / GB200).write_text((DATA / GB200).read_text())
    report = _check(data_copy)
    assert not any(s.startswith("ref-") or s == "fabric-present" for s in _shapes(report, SERVER[:-5]))

    # Server beats Offline: a finding on the Server claim ...
    assert "server-beats-offline" in _shapes(report, SERVER[:-5])
    # ... which goes when the *Offline* claim changes (its partner is re-checked)
    _edit(data_copy, OFFLINE, lambda r: r.update(value=990000))
    report = _check(data_copy)
    assert "server-beats-offline" not in _shapes(report, SERVER[:-5])
    assert 0 < report.rechecked < records / 4

    # a gotcha decides every claim's caveats: a full run
    gotcha = next((data_copy / "gotchas").glob("*.json"))
    _edit(data_copy, f"gotchas/{gotcha.name}", lambda r: r.update(severity="critical"))
    assert _check(data_copy).rechecked is None


def test_a_damaged_cache_means_a_full_run(data_copy):
    _check(data_copy)
    cache = cache_path_for(data_copy)
    cache.write_text("{not json")
    report = _check(data_copy)
    assert report.rechecked is None
    from benchkg.checks.incremental import CACHE_VERSION

    assert json.loads(cache.read_text())["version"] == CACHE_VERSION


def test_changed_shapes_mean_a_full_run(data_copy, tmp_path):
    import shutil

    from benchkg.kernel.resources import SHAPES_DIR

    shapes = tmp_path / "shapes"
    shutil.copytree(SHAPES_DIR, shapes)
    store = build_graph(data_copy).store
    cache = cache_path_for(data_copy)
    assert validate_graph(store, data_copy, shapes_dir=shapes, cache=cache).rechecked is None
    assert validate_graph(store, data_copy, shapes_dir=shapes, cache=cache).rechecked == 0
    with (shapes / "fabric.ttl").open("a") as f:
        f.write("\n# a curator's comment changes the file\n")
    assert validate_graph(store, data_copy, shapes_dir=shapes, cache=cache).rechecked is None


def test_validate_command_says_what_it_rechecked(data_copy):
    from conftest import cli

    first = cli("validate", "--data", data_copy)
    assert "incremental" not in first.stderr, "the first run checks everything"
    again = cli("validate", "--data", data_copy)
    assert "re-checked 0 record(s)" in again.stderr and again.stdout == first.stdout
    _edit(data_copy, OFFLINE, lambda r: r.update(value=990000))
    third = cli("validate", "--data", data_copy)
    n = int(third.stderr.split("re-checked ")[1].split(" ")[0])
    assert 0 < n < 10, third.stderr


def test_findings_name_files_as_the_data_folder_is_given(data_copy, monkeypatch):
    from conftest import cli

    monkeypatch.chdir(data_copy.parent)
    relative = cli("validate", "--data", "data")
    absolute = cli("validate", "--data", data_copy)
    assert "data/benchmarks/" in relative.stdout and str(data_copy) not in relative.stdout
    assert str(data_copy / "benchmarks") in absolute.stdout, (
        "a cache written for ./data is not reused for another spelling"
    )


@pytest.mark.slow
def test_a_superlative_is_rechecked_when_a_rival_changes(data_copy):
    """Issue 45: a claim asserting a rank is checked against every audited result of the population it
    names; raising a rival above it (a record the claim does not refer to) must bring
    ``superlative-beaten``, lowering it back must take it away — the cached finding stayed for ever."""
    claim = "benchmarks/bench-mlperf-v6-1-coreweave-gb300-nvl72-gpt-oss-120b-offline"
    record = json.loads((data_copy / f"{claim}.json").read_text())
    assert record["asserts"]["rank"] == 1 and record["scope"] == "per-accelerator"
    rival = {k: v for k, v in record.items() if k not in ("asserts", "audited_by", "notes", "system_id")}
    # (another system and count: not a Server/Offline partner, which is re-checked anyway)
    rival.update(id="rival-gpt-oss-offline", measured_by="mlcommons", submitter_id="nvidia", accelerator_count=8)
    path = data_copy / "benchmarks" / "rival-gpt-oss-offline.json"

    def with_value(value):
        path.write_text(json.dumps(dict(rival, value=value), indent=2) + "\n")
        return _check(data_copy)

    _check(data_copy)  # the cache
    assert "superlative-beaten" in _shapes(with_value(record["value"] * 2), claim)
    assert "superlative-beaten" not in _shapes(with_value(record["value"] // 2), claim)
    assert "superlative-beaten" in _shapes(with_value(record["value"] + 100), claim)
