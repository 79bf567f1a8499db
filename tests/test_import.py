"""Importers against the real MLPerf and Epoch files (vendored subsets; the full rounds when
../shared/realdata is there), with expected answers computed from the raw files by a second route."""

from __future__ import annotations

import hashlib
import json
import shutil
from decimal import Context, Decimal
from pathlib import Path

import pytest

from benchkg.answers.queries import run_query
from benchkg.checks.validate import validate_graph
from benchkg.graph.store import build_graph
from benchkg.importers.common import ImportReport
from benchkg.importers.contract import run_import
from benchkg.importers.epoch import IMPORTER as EPOCH_IMPORTER
from benchkg.importers.mlperf import IMPORTER as MLPERF
from conftest import DATA, FIXTURES, SHARED, cli

REAL = FIXTURES / "realdata"
V41, V60, EPOCH = (
    REAL / "mlperf_inference_v4.1",
    MLPERF.sample,  # (the importers' own samples, in the package)
    EPOCH_IMPORTER.sample,
)


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*.json")):
        h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


def rows(round_dir: Path) -> list[dict]:
    return json.loads((round_dir / "summary_results.json").read_text())


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    data = tmp_path_factory.mktemp("import") / "data"
    shutil.copytree(DATA, data)
    report = ImportReport()
    run_import(MLPERF, [V41], data, report=report)
    run_import(MLPERF, [V60], data, report=report)
    run_import(EPOCH_IMPORTER, [EPOCH], data, report=report)
    return data, report


def claim(data: Path, record_id: str) -> dict:
    return json.loads((data / "benchmarks" / f"{record_id}.json").read_text())


def test_imported_records_validate(imported):
    data, report = imported
    store = build_graph(data, persist=False).store
    result = validate_graph(store, data)
    assert result.count("violation") == 0, [str(f) for f in result.findings if f.severity == "violation"]
    assert sum(report.imported[k] for k in ("v4.1", "v6.0")) == len(rows(V41)) + len(rows(V60))
    cpu_rows = [r for r in rows(V41) if not r["Accelerator"]]
    assert cpu_rows and report.imported["v4.1 CPU-only"] == len(cpu_rows)
    assert not [reason for reason in report.skipped if "Epoch" not in reason]


def test_cpu_only_result_counts_its_processors(imported):
    data, _ = imported
    raw = next(r for r in rows(V41) if not r["Accelerator"])
    rec = claim(data, f"mlperf-{raw['ID'].lstrip('v')}-{raw['Model']}-{raw['Scenario'].lower()}")
    cpu = json.loads((data / "accelerators" / f"{rec['accelerator_ids'][0]}.json").read_text())
    assert cpu["kind"] == "cpu" and raw["Processor"].lower() in [a.lower() for a in cpu["aliases"]]
    assert rec["accelerator_count"] == int(raw["Nodes"]) * int(raw["host_processors_per_node"])
    assert "CPU-only" in rec["notes"]


def test_reimport_is_byte_for_byte_idempotent(imported, tmp_path):
    data, _ = imported
    before = tree_digest(data)
    again = ImportReport()
    run_import(MLPERF, [V41], data, report=again)
    run_import(MLPERF, [V60], data, report=again)
    run_import(EPOCH_IMPORTER, [EPOCH], data, report=again)
    assert again.written == {} and again.unchanged > 0
    assert tree_digest(data) == before


def test_87_vs_88_accelerators(imported):
    data, _ = imported
    raw = next(r for r in rows(V60) if r["ID"] == "6.0-0001")
    rec = claim(data, f"mlperf-6.0-0001-{raw['Model']}-{raw['Scenario'].lower()}")
    assert rec["accelerator_count"] == raw["Total Accelerators"] == 88
    assert rec["accelerator_mix"] == [{"accelerator_id": "amd-instinct-mi355x", "count": 87}]
    assert "x87" not in rec.get("notes", "")  # said by a finding, not in prose
    store = build_graph(data, persist=False).store
    findings = [f for f in validate_graph(store, data).findings if f.focus == f"benchmarks/{rec['id']}"]
    assert [(f.shape, f.severity) for f in findings if "count" in f.shape] == [("mix-states-another-count", "warning")]
    assert "counts 87 accelerators, but accelerator_count is 88" in next(
        f.message for f in findings if f.shape == "mix-states-another-count"
    )


def test_heterogeneous_system_keeps_every_kind_with_its_count(imported):
    data, _ = imported
    raw = next(r for r in rows(V60) if r["ID"] == "6.0-0031")
    rec = claim(data, f"mlperf-6.0-0031-{raw['Model']}-{raw['Scenario'].lower()}")
    assert rec["accelerator_ids"] == ["amd-instinct-mi300x", "amd-instinct-mi325x", "amd-instinct-mi355x"]
    assert [m["count"] for m in rec["accelerator_mix"]] == [8, 8, 8]
    assert rec["accelerator_count"] == raw["Total Accelerators"]


def test_renamed_system_file(imported):
    data, _ = imported
    raw = next(r for r in rows(V60) if "AS-8126GS-NB3RT" in r["Platform"])
    rec = claim(data, f"mlperf-6.0-{raw['ID'].split('-')[1]}-{raw['Model']}-{raw['Scenario'].lower()}")
    assert rec["system_name"] == raw["System"].strip()
    assert "Supermicro AS-8126GS-NB3RT" in rec["notes"]


def test_99_and_99_9_rows_stay_two_claims(imported):
    data, _ = imported
    pairs = {}
    for r in rows(V41):
        if r["Model"] in ("llama2-70b-99", "llama2-70b-99.9") and r["Accelerator"]:
            pairs.setdefault((r["ID"], r["Scenario"]), {})[r["Model"]] = r
    both = [p for p in pairs.values() if len(p) == 2]
    assert both
    for p in both:
        a, b = (claim(data, f"mlperf-{r['ID'].lstrip('v')}-{r['Model']}-{r['Scenario'].lower()}") for r in p.values())
        assert {a["accuracy_target"], b["accuracy_target"]} == {"99", "99.9"}
        assert Decimal(str(a["value"])) == Decimal(str(p["llama2-70b-99"]["Performance_Result"]))


def test_one_record_per_chip_across_spellings_and_sources(imported):
    data, _ = imported
    spellings = {r["Accelerator"] for r in rows(V41) if "MI300X" in r["Accelerator"]}
    assert {"AMD Instinct MI300X-NPS1-SPX-192GB-750W", "AMD MI300X-NPS1-SPX-192GB-750W"} <= spellings
    ids = {
        claim(data, p.stem)["accelerator_ids"][0]
        for p in (data / "benchmarks").glob("mlperf-4.1-*.json")
        if "MI300X" in claim(data, p.stem)["system_name"] or claim(data, p.stem)["accelerator_ids"][0].startswith("amd")
    }
    assert ids == {"amd-instinct-mi300x"}
    h200 = json.loads((data / "accelerators" / "nvidia-h200-sxm-141gb.json").read_text())
    assert {"NVIDIA H200-SXM-141GB", "NVIDIA H200 SXM"} <= set(h200["aliases"])
    assert "epoch-ml-hardware" in h200["source_ids"] and h200["memory_bandwidth_tbs"] == 4.8


def test_a_variant_is_a_record_of_its_own_never_an_alias(imported):
    data, _ = imported
    raw = next(r for r in rows(V41) if r["Accelerator"] == "NVIDIA H200-SXM-141GB-CTS")
    rec = claim(data, f"mlperf-{raw['ID'].lstrip('v')}-{raw['Model']}-{raw['Scenario'].lower()}")
    assert rec["accelerator_ids"] == ["nvidia-h200-sxm-141gb-cts"]
    cts = json.loads((data / "accelerators" / "nvidia-h200-sxm-141gb-cts.json").read_text())
    assert cts["variant_of_id"] == "nvidia-h200-sxm-141gb"
    h200 = json.loads((data / "accelerators" / "nvidia-h200-sxm-141gb.json").read_text())
    assert raw["Accelerator"] not in h200["aliases"]


def test_a_system_record_keeps_the_description_verbatim(imported):
    data, _ = imported
    raw = next(
        r for r in rows(V41) if r["Accelerator"] == "NVIDIA H200-SXM-141GB-CTS" and r["Platform"].endswith("x8_TRT")
    )
    described = json.loads(
        (V41 / "systems" / raw["Category"] / raw["Submitter"] / "systems" / f"{raw['Platform']}.json").read_text()
    )
    rec = claim(data, f"mlperf-{raw['ID'].lstrip('v')}-{raw['Model']}-{raw['Scenario'].lower()}")
    system = json.loads((data / "systems" / f"{rec['system_id']}.json").read_text())
    assert system["submitter_id"] == "nvidia" and system["accelerator_count"] == 8 and system["node_count"] == 1
    for field in (
        "accelerator_interconnect",
        "accelerator_host_interconnect",
        "host_networking",
        "framework",
        "other_software_stack",
        "hw_notes",
    ):
        assert system["description"][field] == str(described[field]).strip()
    assert system["host_processor"] == raw["Processor"] and system["host_processor_count"] == 2
    assert {"nvlink-4", "pcie-gen5"} <= set(system["interconnect_ids"])
    assert system["url"].endswith(f"/closed/NVIDIA/systems/{raw['Platform']}.json")


def test_fabric_comes_from_system_files_through_the_table(imported):
    data, _ = imported
    raw = next(r for r in rows(V41) if r["Accelerator"] == "NVIDIA H200-SXM-141GB" and r["Model"] == "llama2-70b-99")
    system = json.loads(
        (V41 / "systems" / raw["Category"] / raw["Submitter"] / "systems" / f"{raw['Platform']}.json").read_text()
    )
    rec = claim(data, f"mlperf-{raw['ID'].lstrip('v')}-{raw['Model']}-{raw['Scenario'].lower()}")
    if "4th Gen NVLink" in system["accelerator_interconnect"]:
        assert "nvlink-4" in rec["interconnect_ids"]
    assert "fabric_exercised" not in rec and "fabric_exercised" in rec["omitted_by_source"]


def test_epoch_csv_with_quoted_newlines(imported):
    data, report = imported
    import csv

    with open(EPOCH, newline="", encoding="utf-8") as f:
        raw = list(csv.DictReader(f))
    assert any("\n" in v for r in raw for v in r.values())
    assert report.imported["epoch accelerators"] + report.skipped["Epoch rows no accelerator record claims"] == len(raw)
    b200 = json.loads((data / "accelerators" / "nvidia-b200-sxm-180gb.json").read_text())
    row = next(r for r in raw if r["Hardware name"] == "NVIDIA B200")
    assert b200["tdp_w"] == int(float(row["TDP (W)"]))


def test_best_per_accelerator_llama2_offline_v41_matches_the_raw_file(imported):
    data, _ = imported
    store = build_graph(data, persist=False).store
    got = run_query(
        store,
        "leaderboard",
        {"model": "llama2-70b", "scenario": "offline", "suite": "mlperf-inference-v4.1", "division": "closed"},
    ).rows
    best = max(
        Decimal(str(r["Performance_Result"])) / (int(r["Nodes"]) * int(float(r["a#"])))
        for r in rows(V41)
        if r["Model"] == "llama2-70b-99"
        and r["Scenario"] == "Offline"
        and r["Category"] == "closed"
        and r["Accelerator"]
        and "datacenter" in r["Suite"]
    )
    assert Decimal(got[0]["per_accelerator"].value) == Context(prec=10).plus(best)


def test_best_8x_h200_round_over_round_matches_the_raw_files(imported):
    data, _ = imported
    store = build_graph(data, persist=False).store
    got = run_query(
        store,
        "round-over-round",
        {
            "accelerator": "nvidia-h200-sxm-141gb",
            "model": "llama2-70b",
            "scenario": "offline",
            "accelerator_count": "8",
        },
    ).rows
    expected = {}
    for version, folder in (("4.1", V41), ("6.0", V60)):
        values = [
            Decimal(str(r["Performance_Result"]))
            for r in rows(folder)
            if r["Accelerator"] == "NVIDIA H200-SXM-141GB"
            and r["Model"] == "llama2-70b-99"
            and r["Scenario"] == "Offline"
            and r["Category"] == "closed"
            and int(r["Nodes"]) * int(float(r["a#"])) == 8
        ]
        if values:
            expected[version] = max(values)
    assert {r["version"].value: Decimal(r["value"].value) for r in got} == expected
    assert all(r["ran_on"].value.endswith("/nvidia-h200-sxm-141gb") for r in got), (
        "the CTS variant is not the plain part"
    )


def test_per_accelerator_ranking_keeps_variants_apart_and_spellings_together(imported):
    data, _ = imported
    store = build_graph(data, persist=False).store
    params = {"model": "llama2-70b", "scenario": "offline", "suite": "mlperf-inference-v4.1"}
    got = {r["accelerator"].value.rsplit("/", 1)[1]: r for r in run_query(store, "best-per-accelerator", params).rows}
    assert {"nvidia-h200-sxm-141gb", "nvidia-h200-sxm-141gb-cts", "amd-instinct-mi300x"} <= set(got)
    for chip, spelling in (
        ("nvidia-h200-sxm-141gb", "NVIDIA H200-SXM-141GB"),
        ("nvidia-h200-sxm-141gb-cts", "NVIDIA H200-SXM-141GB-CTS"),
    ):
        best = max(
            Decimal(str(r["Performance_Result"])) / (int(r["Nodes"]) * int(float(r["a#"])))
            for r in rows(V41)
            if r["Accelerator"] == spelling and r["Model"] == "llama2-70b-99" and r["Scenario"] == "Offline"
        )
        assert Decimal(got[chip]["best_per_accelerator"].value) == Context(prec=10).plus(best)
    merged = {
        r["accelerator"].value.rsplit("/", 1)[1]: r
        for r in run_query(store, "best-per-accelerator", {**params, "merge_variants": "true"}).rows
    }
    assert "nvidia-h200-sxm-141gb-cts" not in merged
    assert merged["nvidia-h200-sxm-141gb"]["merged"].value == "nvidia-h200-sxm-141gb-cts"
    assert Decimal(merged["nvidia-h200-sxm-141gb"]["best_per_accelerator"].value) == max(
        Decimal(got[c]["best_per_accelerator"].value) for c in ("nvidia-h200-sxm-141gb", "nvidia-h200-sxm-141gb-cts")
    )


def edit_system_file(folder: Path, **changes) -> None:
    """Change fields of the system description the one-row round's result names."""
    path = system_file(folder)
    system = json.loads(path.read_text())
    system.update(changes)
    path.write_text(json.dumps(system))


def system_file(folder: Path) -> Path:
    row = rows(folder)[0]
    return folder / "systems" / row["Category"] / row["Submitter"] / "systems" / f"{row['Platform']}.json"


def synthetic_round(tmp_path: Path, **changes) -> Path:
    """A one-row round made from a vendored row, with fields changed."""
    folder = tmp_path / "round"
    shutil.copytree(V60, folder)
    row = dict(next(r for r in rows(V60) if r["ID"] == "6.0-0031"))
    row.update(changes)
    (folder / "summary_results.json").write_text(json.dumps([row]))
    return folder


def test_blank_system_name_falls_back_to_the_system_file(tmp_path, data_copy):
    folder = synthetic_round(tmp_path, System=" (24x MI300X, vLLM)")
    run_import(MLPERF, [folder], data_copy)
    rec = next(json.loads(p.read_text()) for p in (data_copy / "benchmarks").glob("mlperf-6.0-0031-*.json"))
    system = json.loads(system_file(folder).read_text())
    assert rec["system_name"] == system["system_name"].strip()


def test_empty_accelerator_count_is_skipped_not_guessed(tmp_path, data_copy):
    folder = synthetic_round(tmp_path, **{"a#": "", "Total Accelerators": None})
    report = run_import(MLPERF, [folder], data_copy)
    assert report.imported["v6.0"] == 0
    assert any("accelerator count not stated" in reason for reason in report.skipped)


def test_an_integrated_gpu_with_no_count_is_counted_on_its_processor(tmp_path, data_copy):
    """v5.1-0387: 'Intel(R) Arc(TM) 140T GPU', a# empty, and a system description that says 0
    accelerators per node: the result ran on the processor's integrated GPU."""
    folder = synthetic_round(
        tmp_path,
        **{
            "a#": "",
            "Total Accelerators": None,
            "Accelerator": "Intel(R) Arc(TM) 140T GPU",
            "Processor": "Intel(R) Core(TM) Ultra 7 Processor 255H",
            "Nodes": 1,
            "host_processors_per_node": 1,
        },
    )
    edit_system_file(folder, accelerators_per_node="0")
    report = run_import(MLPERF, [folder], data_copy)
    assert report.imported["v6.0"] == 1 and report.imported["v6.0 CPU-only"] == 1
    rec = next(json.loads(p.read_text()) for p in (data_copy / "benchmarks").glob("mlperf-6.0-0031-*.json"))
    assert rec["accelerator_ids"] == ["intel-core-ultra-7-255h"] and rec["accelerator_count"] == 1
    assert "0 accelerators per node" in rec["notes"]


def test_a_system_description_never_puts_a_fabric_on_a_chip(tmp_path, data_copy):
    """An MLPerf system that says NVLink: the fabric lands on its system record, never on the chip."""
    folder = synthetic_round(tmp_path)
    edit_system_file(folder, accelerator_interconnect="5th Gen NVLink, 1800GB/s")
    before = {p.name: p.read_bytes() for p in (data_copy / "accelerators").glob("*.json")}
    run_import(MLPERF, [folder], data_copy)
    rec = next(json.loads(p.read_text()) for p in (data_copy / "benchmarks").glob("mlperf-6.0-0031-*.json"))
    assert (
        "nvlink-5" in json.loads((data_copy / "systems" / f"{rec['system_id']}.json").read_text())["interconnect_ids"]
    )
    for name, content in before.items():
        after = json.loads((data_copy / "accelerators" / name).read_text())
        assert after.get("interconnect_ids") == json.loads(content).get("interconnect_ids"), name


def test_unknown_interconnect_text_is_reported_and_left_out(tmp_path, data_copy):
    folder = synthetic_round(tmp_path)
    edit_system_file(folder, accelerator_interconnect="Quantum foam link")
    report = run_import(MLPERF, [folder], data_copy)
    assert report.unresolved == {"interconnect: Quantum foam link": 1}


def test_import_cli_bad_inputs(tmp_path, data_copy):
    assert cli("import", "mlperf", tmp_path, "--out", data_copy).exit_code == 2
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n")
    result = cli("import", "epoch", bad, "--out", data_copy)
    assert result.exit_code == 2 and "not Epoch's ml_hardware.csv" in result.stderr
    assert cli("import", "inferencex", tmp_path, "--out", data_copy).exit_code == 2


@pytest.mark.parametrize(
    "changes,said",
    [
        ({"version": "v../../../escape"}, "/0/version: 'v../../../escape' is not an MLPerf round"),
        ({"Model": "../../../escape"}, "'../../../escape' is not a record id"),
    ],
)
@pytest.mark.slow
def test_an_import_never_writes_outside_out(tmp_path, data_copy, changes, said):
    """A round whose version or model field holds a path: exit 2 saying which value, and no file
    appears outside --out."""
    folder = synthetic_round(tmp_path, **changes)
    outside = tmp_path.parent
    before = {p for p in outside.rglob("*") if data_copy not in p.parents}
    result = cli("import", "mlperf", folder, "--out", data_copy)
    after = {p for p in outside.rglob("*") if data_copy not in p.parents}
    assert after == before
    assert result.exit_code == 2 and said in result.stderr, result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "realdata").is_dir(), reason="../shared/realdata is not here")
def test_full_rounds_import_and_validate(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    result = cli(
        "import",
        "mlperf",
        *(SHARED / "realdata" / f"mlperf_inference_v{v}" for v in ("4.1", "5.1", "6.0")),
        "--out",
        data,
    )
    assert result.exit_code == 0
    counts = {"4.1": (937, 110), "5.1": (1448, 880), "6.0": (520, 33)}
    for v, (results, cpu_only) in counts.items():
        raw = json.loads((SHARED / "realdata" / f"mlperf_inference_v{v}" / "summary_results.json").read_text())
        assert len(raw) == results
        assert f"v{v} {results:,}, v{v} CPU-only {cpu_only:,}" in result.stdout
    assert "skipped" not in result.stdout
    assert cli("validate", "--data", data).exit_code == 0


V61 = SHARED / "realdata" / "mlperf_inference_v6.1"


@pytest.fixture(scope="module")
def imported_v61(tmp_path_factory):
    if not (V61 / "summary.json").is_file():
        pytest.skip("../shared/realdata/mlperf_inference_v6.1 is not here")
    out = tmp_path_factory.mktemp("v61") / "data"
    shutil.copytree(DATA, out)
    report = run_import(MLPERF, [V61], out)
    return out, report


def v61(out: Path, name: str) -> dict:
    return json.loads((out / "benchmarks" / f"{name}.json").read_text())


@pytest.mark.slow
def test_v61_every_row_is_imported(imported_v61):
    """Every row, the one in Tasks/s too (e2e-rag-qna: a unit is data, and a count of v6.1's results
    counts it)."""
    out, report = imported_v61
    rows = json.loads((V61 / "summary.json").read_text())
    written = [p for p in (out / "benchmarks").glob("mlperf-6.1-*.json")]
    assert report.imported["v6.1"] == len(written) == len(rows) == 492 and report.imported["v6.1 CPU-only"] == 33
    assert not report.skipped
    rag = v61(out, "mlperf-6.1-closed-intel-1-node-2s-xeon-6787p-e2e-rag-qna-offline")
    assert (rag["value"], rag["unit"], rag["model_id"]) == (0.464076, "tasks/s", "e2e-rag-qna")
    systems = {(r["Division"], r["Organization"], r["Platform"]) for r in rows.values()}
    assert len(list((out / "systems").glob("mlperf-6.1-*.json"))) == len(systems)


@pytest.mark.slow
def test_v61_import_twice_gives_byte_identical_files(imported_v61, tmp_path):
    out, _ = imported_v61
    again = tmp_path / "data"
    shutil.copytree(DATA, again)
    run_import(MLPERF, [V61], again)
    for path in out.rglob("*.json"):
        assert path.read_bytes() == (again / path.relative_to(out)).read_bytes(), path


@pytest.mark.slow
def test_v61_quirks(imported_v61):
    """Ids from division, submitter, platform, benchmark and scenario; lower-case scenario names and
    llama3_1-8b read as the other rounds write them; the "72x" system of 288 accelerators on 72 nodes kept
    as stated (the shape finds it); a CPU-only row counts its processors; six significant figures kept."""
    out, _ = imported_v61
    rack = v61(out, "mlperf-6.1-closed-coreweave-gb200-nvl72-gb200-186gb-aarch64x72-trt-llama2-70b-99.9-server")
    assert (rack["value"], rack["accelerator_count"], rack["node_count"], rack["accuracy_target"]) == (
        910621,
        72,
        18,
        "99.9",
    )
    assert "mlperf_result_id" not in rack and "mlperf_result_id" in rack["omitted_by_source"]
    assert rack["sources"][0]["quote"].startswith("./closed/CoreWeave/results/")
    rows = list(json.loads((V61 / "summary.json").read_text()).values())
    lower = [r for r in rows if r["Scenario"] in ("offline", "singlestream", "multistream")]
    assert lower
    for row in lower:
        scenario = {"offline": "offline", "singlestream": "single-stream", "multistream": "multi-stream"}[
            row["Scenario"]
        ]
        found = [
            json.loads(p.read_text())
            for p in (out / "benchmarks").glob(f"mlperf-6.1-*-{row['Scenario'].lower()}*.json")
            if json.loads(p.read_text())["value"]
            == (int(row["Result"]) if row["Result"] == int(row["Result"]) else row["Result"])
        ]
        assert found and all(c["scenario"] == scenario for c in found)
    underscore = [p for p in (out / "benchmarks").glob("mlperf-6.1-*llama3_1*")]
    assert not underscore and any(True for _ in (out / "benchmarks").glob("mlperf-6.1-*-llama3.1-8b-*.json"))
    nvl288 = v61(out, "mlperf-6.1-closed-nvidia-gb300-nvl72-gb300-288gb-aarch64x288-trt-deepseek-r1-offline")
    assert (nvl288["accelerator_count"], nvl288["node_count"]) == (288, 72) and "72x" in nvl288["system_name"]
    cpu = [json.loads(p.read_text()) for p in (out / "benchmarks").glob("mlperf-6.1-*.json")]
    cpu = [c for c in cpu if c["accelerator_ids"][0].startswith(("intel-xeon", "amd-epyc"))]
    assert len(cpu) == 33 and all(c["accelerator_count"] >= 1 for c in cpu)
    report = validate_graph(build_graph(out, persist=False).store, data_dir=out)
    flagged = {f.file.rsplit("/", 1)[-1] for f in report.findings if f.shape == "name-states-another-count"}
    assert "mlperf-6.1-closed-nvidia-gb300-nvl72-gb300-288gb-aarch64x288-trt-deepseek-r1-offline.json" in flagged
