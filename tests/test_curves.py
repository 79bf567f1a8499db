"""Curves compared at equal interactivity (issue 25, part 1): `benchkg import inferencex` and the saved
query at-interactivity, on the synthetic export in src/benchkg/importers/samples/inferencex (values computed by hand in
its README) and, where ../shared is here, on the real InferenceX snapshot (GPL: read there, never copied)."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal

import pytest

from benchkg.answers.curves import INTERPOLATED
from benchkg.answers.queries import run_query
from benchkg.graph.store import build_graph
from benchkg.importers.inferencex import IMPORTER as INFERENCEX
from conftest import DATA, SHARED, cli

EXPORT = INFERENCEX.sample
SNAPSHOT = SHARED / "realdata" / "inferencex_dsr1_fixture" / "benchmarks.json"
A = "inferencex-dsr1-b200-trt-fp4-1k1k-g8-tp8-ep1"
B = "inferencex-dsr1-b200-trt-fp4-1k1k-g4-tp4-ep4"
D = "inferencex-dsr1-gb200-dynamo-trt-fp4-1k1k-p4x1-tp4-ep1-d8x2-tp4-ep1-multinode"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    data = tmp_path_factory.mktemp("inferencex") / "data"
    shutil.copytree(DATA, data)
    result = cli("import", "inferencex", EXPORT, "--out", data)
    assert result.exit_code == 0, result.output
    return data, result.stdout


@pytest.fixture(scope="module")
def store(imported):
    return build_graph(imported[0], persist=False).store


def read(store, **params) -> dict[str, dict]:
    rows = run_query(store, "at-interactivity", {k: str(v) for k, v in params.items()}).rows
    return {r["curve"].value: {k: v.value for k, v in r.items()} for r in rows}


def test_each_configuration_is_a_claim_with_its_points(imported):
    data, said = imported
    assert "inferencex configurations 5, inferencex points 13" in said
    assert "skipped 1 rows: an older run of a configuration imported from its newest run" in said
    assert "skipped 1 rows: hardware no accelerator record names" in said and "'hardware: tpu-v9'" in said
    claim = json.loads((data / "benchmarks" / f"{A}.json").read_text())
    assert (claim["suite_id"], claim["scenario"], claim["measured_by"], claim["accelerator_count"]) == (
        "inferencex",
        "endpoints",
        "third-party",
        8,
    )
    assert [p["concurrency"] for p in claim["points"]] == [4, 16, 64, 256, 512], "the older run's point is not here"
    assert (claim["value"], claim["scope"]) == (3000, "per-accelerator"), "the highest tput_per_gpu, as published"
    assert cli("validate", "--data", data).exit_code == 0


def test_a_disaggregated_run_is_per_gpu_over_prefill_and_decode(imported):
    claim = json.loads((imported[0] / "benchmarks" / f"{D}.json").read_text())
    assert claim["accelerator_count"] == 12 and claim["disaggregated"] is True
    # output_tput_per_gpu 1125 is per decode GPU (8): the system's output is 9,000 tokens/s; total 1500 × 12
    assert claim["points"][0] == {
        "concurrency": 64,
        "system_tps": 9000,
        "total_tps": 18000,
        "tps_per_user": 80,
        "ttft_ms": 250,
        "ttft_percentile": 50,
    }
    assert (
        "divide by all 12 GPUs (prefill + decode), where InferenceX's output_tput_per_gpu divides by the decode "
        "GPUs only" in claim["notes"]
    )


def test_importing_again_changes_nothing(imported):
    again = cli("import", "inferencex", EXPORT, "--out", imported[0])
    assert "files written: none; unchanged: 6" in again.stdout  # five claims and their source


def test_between_two_frontier_points_the_value_is_interpolated_linearly(store):
    got = read(store, interactivity=95)
    b200, mi355x = got["nvidia-b200-sxm-180gb · trt · fp4"], got["amd-instinct-mi355x · sglang · fp8"]
    # (100, 900) and (90, 1200) pooled from A: 900 + (100 − 95) / (100 − 90) × 300
    assert Decimal(b200["tokens_per_gpu"]) == Decimal("1050") and b200["how"] == INTERPOLATED
    assert Decimal(b200["output_tokens_per_gpu"]) == Decimal("525")
    # (100, 800) and (50, 2000): 800 + 5 / 50 × 1200
    assert Decimal(mi355x["tokens_per_gpu"]) == Decimal("920")
    assert (
        got["nvidia-gb200 · dynamo-trt · fp4 · disaggregated"]["how"]
        == "outside the measured range (50–80 tokens/s per user)"
    )
    assert "tokens_per_gpu" not in got["nvidia-gb200 · dynamo-trt · fp4 · disaggregated"], "never extrapolated"
    assert list(got)[:2] == ["nvidia-b200-sxm-180gb · trt · fp4", "amd-instinct-mi355x · sglang · fp8"], "best first"


def test_at_a_measured_point_the_published_value_exactly(store):
    got = read(store, interactivity=110)["nvidia-b200-sxm-180gb · trt · fp4"]
    assert (Decimal(got["tokens_per_gpu"]), got["how"]) == (Decimal(700), "measured")  # configuration B's point
    assert got["read_from"] == f"{B} at concurrency 8 (110 tokens/s per user)"


def test_a_dominated_point_is_never_read(store):
    # (20, 2800) of A is beaten by (40, 3000): the frontier ends at 40, so 20 is outside it
    got = read(store, interactivity=20)["nvidia-b200-sxm-180gb · trt · fp4"]
    assert got["how"] == "outside the measured range (40–120 tokens/s per user)"


def test_the_step_rule_takes_the_nearest_point_that_meets_it(store):
    got = read(store, interactivity=95, rule="step")["nvidia-b200-sxm-180gb · trt · fp4"]
    assert Decimal(got["tokens_per_gpu"]) == Decimal(900) and got["how"].startswith("measured at 100 tokens/s per user")


def test_each_configuration_alone(store):
    got = read(store, interactivity=95, curve="claim")
    assert Decimal(got[A]["tokens_per_gpu"]) == Decimal("1050")
    # B alone: (110, 700) and (60, 2500): 700 + (110 − 95) / 50 × 1800
    assert Decimal(got[B]["tokens_per_gpu"]) == Decimal("1240")
    at65 = read(store, interactivity=65, curve="claim")[D]
    # disaggregated, per GPU over 12: (80, 1500) and (50, 2600) → 2050; output 750 and 1300 → 1025
    assert (Decimal(at65["tokens_per_gpu"]), Decimal(at65["output_tokens_per_gpu"])) == (Decimal(2050), Decimal(1025))


def test_lengths_and_disaggregation_slice_the_curves(store):
    assert set(read(store, interactivity=70, input_length=8192)) == {"nvidia-b200-sxm-180gb · trt · fp4 · mtp"}
    assert set(read(store, interactivity=60, disaggregated="true")) == {
        "nvidia-gb200 · dynamo-trt · fp4 · disaggregated"
    }


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown", "table"])
def test_every_format_says_interpolated_not_a_published_result(imported, fmt):
    out = cli(
        "query",
        "at-interactivity",
        "--param",
        "interactivity=95",
        "--format",
        fmt,
        "--data",
        imported[0],
        env={"COLUMNS": "120"},
    ).stdout
    assert INTERPOLATED in out


def test_the_chart_draws_the_frontiers_and_the_line_asked(imported, tmp_path):
    path = tmp_path / "curves.svg"
    result = cli("query", "at-interactivity", "--param", "interactivity=95", "--chart", path, "--data", imported[0])
    assert result.exit_code == 0, result.output
    svg = path.read_text()
    for text in (
        "nvidia-b200-sxm-180gb · trt · fp4",
        "95 tokens/s per user",
        "interactivity (tokens/s per user)",
        "hollow circles: interpolated, not a published result",
    ):
        assert text in svg


def test_a_file_that_is_not_an_export_is_exit_2_naming_the_row(tmp_path):
    path = tmp_path / "export.json"
    path.write_text(
        json.dumps(
            [
                {
                    "hardware": "b200",
                    "framework": "trt",
                    "model": "dsr1",
                    "precision": "fp4",
                    "isl": 1024,
                    "osl": 1024,
                    "conc": "many",
                    "num_prefill_gpu": 8,
                    "num_decode_gpu": 8,
                    "metrics": {"tput_per_gpu": 1, "median_intvty": 2},
                }
            ]
        )
    )
    result = cli("import", "inferencex", path, "--out", tmp_path / "data")
    assert result.exit_code == 2 and "export.json: /0/conc: 'many' is not a count" in result.stderr
    assert not (tmp_path / "data").exists()


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory):
    if not SNAPSHOT.exists():
        pytest.skip(f"{SNAPSHOT} is not here: a checkout without ../shared (InferenceX's data is GPL: never vendored)")
    data = tmp_path_factory.mktemp("snapshot") / "data"
    shutil.copytree(DATA, data)
    assert cli("import", "inferencex", SNAPSHOT, "--out", data).exit_code == 0
    return data, build_graph(data, persist=False).store


@pytest.mark.slow
def test_on_the_real_snapshot_each_configuration_gives_its_published_value_at_its_measured_points(snapshot):
    """For every configuration and every point on its own frontier, at-interactivity (curve=claim, at the
    point's interactivity) gives InferenceX's published tput_per_gpu exactly."""
    data, store = snapshot
    rows = json.loads(SNAPSHOT.read_text())
    published = {}
    for path in (data / "benchmarks").glob("inferencex-*.json"):
        claim = json.loads(path.read_text())
        for point in claim["points"]:
            published[(claim["id"], Decimal(repr(point["tps_per_user"])))] = point
    checked = 0
    for x in sorted({x for _, x in published}):
        got = run_query(
            store,
            "at-interactivity",
            {"interactivity": str(x), "curve": "claim", "input_length": "any", "output_length": "any"},
        ).rows
        for row in got:
            if row["how"].value != "measured":
                continue
            claim = row["curve"].value
            source = next(
                r
                for r in rows
                if r["metrics"]["median_intvty"] is not None
                and Decimal(repr(r["metrics"]["median_intvty"])) == x
                and claim.startswith(f"inferencex-{r['model']}-{r['hardware']}-{r['framework']}-{r['precision']}")
            )
            assert Decimal(row["tokens_per_gpu"].value) == Decimal(repr(source["metrics"]["tput_per_gpu"])), claim
            checked += 1
    assert checked >= 400, f"only {checked} points checked"


def test_one_node_counts_the_tensor_parallel_gpus_and_a_stated_count_beyond_it_is_a_finding(tmp_path):
    """InferenceX divides by the tensor-parallel size on one node (utils/process_result.py: tput_per_gpu =
    total_token_throughput / TP); expert parallelism runs on the same GPUs. A TP8 EP8 row whose num_*_gpu
    say 64 on one node ran on 8: counted 8 (totals 8x tput_per_gpu, not 64x), the stated 64 kept in
    accelerator_mix, where validate finds the two counts."""
    row = json.loads(EXPORT.read_text())[0]
    row.update({"decode_ep": 8, "prefill_ep": 8, "num_decode_gpu": 64, "num_prefill_gpu": 64})
    export = tmp_path / "export.json"
    export.write_text(json.dumps([row]))
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    assert cli("import", "inferencex", export, "--out", data).exit_code == 0
    (path,) = (data / "benchmarks").glob("inferencex-*.json")
    claim = json.loads(path.read_text())
    assert claim["accelerator_count"] == 8 and claim["node_count"] == 1
    assert claim["accelerator_mix"] == [{"accelerator_id": "nvidia-b200-sxm-180gb", "count": 64}]
    assert claim["points"][0]["total_tps"] == row["metrics"]["tput_per_gpu"] * 8
    assert "states 64 GPUs" in claim["notes"]
    report = cli("validate", "--data", data, "--format", "json")
    flagged = [f for f in json.loads(report.stdout)["findings"] if f["shape"] == "mix-states-another-count"]
    assert any(path.name in f["file"] for f in flagged)
