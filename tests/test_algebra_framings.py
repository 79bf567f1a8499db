"""The results algebra, second round (issue 44): the framings an analyst brought that needed Python on
top of benchkg — aggregates over pairs, a mixed system's chips as a set, first appearance in a round,
the MLPerf system ID, stated memory, CPU-only results, framework families — each one command, checked
against MLCommons' summaries read a second way (``tests/mlperf_oracle.py``, and the raw summary rows).
Then the option surface ``query`` and ``results`` share, and the Python API's shapes."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections import Counter
from decimal import Decimal

import pytest

import mlperf_oracle as oracle
from conftest import FULL_DATA, SHARED, cli

RAW = SHARED / "realdata"


@pytest.fixture(scope="module")
def record(mlperf_record):
    return mlperf_record


@pytest.fixture(scope="module")
def kg(full_kg):
    return full_kg


def _named(r: oracle.Result) -> str:
    """The chip column as the oracle reads it: the chip named, or a mixed system's chips joined by +."""
    chips = sorted(set(r.chips))
    return "+".join(chips) if len(chips) > 1 else r.ran_on[0]


def _vendors(record, r: oracle.Result) -> set[str]:
    return {record.chips[c]["vendor_id"] for c in r.chips}


def _audited(record, version: str | None = None):
    return [r for r in record.results if r.measured_by == "mlcommons" and (version is None or r.version == version)]


# ---------------------------------------------------------------- aggregates over pairs


def _offline_to_server(record) -> dict[str, list[Decimal]]:
    """chip -> the Server ÷ Offline ratios of its v6.1 systems, each system's best of each side, the
    same system record, count, model, tier and unit on both sides."""
    sides: dict[str, dict[tuple, Decimal]] = {"offline": {}, "server": {}}
    for r in _audited(record, "6.1"):
        if r.scenario in sides and r.metric == "throughput":
            key = (r.submitter, r.platform, r.count, r.model, r.tier or "", r.division, r.unit, r.system, _named(r))
            sides[r.scenario][key] = max(sides[r.scenario].get(key, r.value), r.value)
    out: dict[str, list[Decimal]] = {}
    for key in sides["offline"].keys() & sides["server"].keys():
        out.setdefault(key[-1], []).append(sides["server"][key] / sides["offline"][key])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("agg", ["median", "min", "max"])
def test_the_share_of_offline_throughput_kept_in_server_by_accelerator(kg, record, agg):
    """ "What share of its Offline throughput does each system keep in Server, by accelerator": one
    command, the median, least and most of the ratios of each chip's systems, and how many pairs."""
    rows = kg.results(
        where=["round=6.1", "measured_by=mlcommons"], pair="scenario=offline,server", group_by=["chip"], agg=agg
    )
    expected = _offline_to_server(record)
    aggregate = {"median": statistics.median, "min": min, "max": max}[agg]
    got = {r["chip"]: r for r in rows}
    assert set(got) == set(expected) and len(expected) > 10
    for chip, ratios in expected.items():
        assert got[chip]["pairs"] == len(ratios), chip
        assert abs(got[chip][f"{agg}_ratio"] - aggregate(ratios)) < Decimal("1e-15"), chip
    mixed = [chip for chip in got if "+" in chip]
    assert mixed, "a system of two chips is a group of its own, under neither chip"


def test_a_pair_s_title_says_which_value_it_compares(full_copy):
    held = cli(
        "results", "--where", "round=6.1", "--pair", "scenario=offline,server", "--top", "1", "--data", full_copy
    )
    free = cli(
        "results", "--where", "round=6.1", "--pair", "scenario=offline,server", "--hold", "submitter,model",
        "--top", "1", "--data", full_copy,
    )  # fmt: skip
    forced = cli(
        "results", "--where", "round=6.1", "--pair", "scenario=offline,server", "--hold", "submitter,model",
        "--compare", "value", "--top", "1", "--data", full_copy,
    )  # fmt: skip
    assert "ratio b ÷ a of the value as stated" in " ".join(held.stdout.split())
    assert "ratio b ÷ a of the value per accelerator" in " ".join(free.stdout.split())
    assert "ratio b ÷ a of the value as stated" in " ".join(forced.stdout.split())
    wrong = cli("results", "--pair", "scenario=offline,server", "--compare", "watts", "--data", full_copy)
    assert wrong.exit_code == 2 and "value or per_accelerator" in wrong.output


# ---------------------------------------------------------------- a mixed system's chips as a set


@pytest.mark.slow
def test_any_and_every_chip_of_one_vendor(kg, record):
    """``chip_vendor=any:amd`` keeps the H200 + MI350X system; ``chip_vendor=amd`` (every chip AMD)
    does not, nor does it count the mixed system under either vendor."""
    results = _audited(record, "6.1")
    every = Counter(_named(r) for r in results if _vendors(record, r) == {"amd"})
    any_ = Counter(_named(r) for r in results if "amd" in _vendors(record, r))
    for where, expected in (
        ("chip_vendor=amd", every),
        ("chip_vendor=every:amd", every),
        ("chip_vendor=any:amd", any_),
    ):
        rows = kg.results(where=["round=6.1", "measured_by=mlcommons", where], group_by=["chip"])
        assert {r["chip"]: r["count"] for r in rows} == dict(expected), where
    assert set(any_) - set(every), "the data has a system of AMD and another vendor's chips"
    by_vendor = kg.results(where=["round=6.1", "measured_by=mlcommons"], group_by=["chip_vendor"])
    counted = {r["chip_vendor"]: r["count"] for r in by_vendor}
    assert counted["amd"] == sum(every.values())


def test_any_is_for_the_columns_of_a_system_s_chips(full_copy):
    result = cli("results", "--where", "submitter=any:amd", "--data", full_copy)
    assert result.exit_code == 2 and "chip, base_chip, chip_vendor" in result.output


@pytest.mark.slow
def test_a_median_over_mixed_and_single_chip_systems(kg, record):
    """The median value by chip, a mixed system's results their own group (never the lowest chip's)."""
    rows = kg.results(where=["round=6.1", "measured_by=mlcommons", "model=llama2-70b"], group_by=["chip"], agg="median")
    groups: dict[tuple, list[Decimal]] = {}
    for r in _audited(record, "6.1"):
        if r.model == "llama2-70b":
            groups.setdefault((_named(r), r.unit), []).append(r.value)
    got = {(r["chip"], r["unit"]): r["median_value"] for r in rows}
    assert got == {k: statistics.median(v) for k, v in groups.items()}
    assert any("+" in chip for chip, _ in got)


# ---------------------------------------------------------------- first appearance


@pytest.mark.slow
@pytest.mark.parametrize("over", ["chip", "submitter"])
def test_what_appears_in_a_round_for_the_first_time(kg, record, over):
    """The chips (or submitters) with an audited v6.1 result and none in any earlier round."""
    value = _named if over == "chip" else (lambda r: r.submitter)
    before = {value(r) for r in _audited(record) if r.family == "mlperf-inference" and float(r.version) < 6.1}
    now = Counter(value(r) for r in _audited(record, "6.1"))
    expected = {k: n for k, n in now.items() if k not in before}
    rows = kg.results(where=["measured_by=mlcommons"], first_in="round=6.1", over=[over])
    assert {r[over]: r["results"] for r in rows} == expected and expected


@pytest.mark.slow
def test_a_round_is_before_another_only_within_its_suite_family(kg):
    """``round<4.2`` is MLPerf Inference's v4.1 alone (MLPerf Endpoints 0.7 numbers its own rounds), so
    deepseek-r1, first in Inference v5.1, is new there though an Endpoints 0.7 claim names it; a bound
    that names Endpoints compares Endpoints' rounds (issue 64)."""
    before = kg.results(where=["round<4.2"], group_by=["family", "round"])
    assert {(r["family"], r["round"]) for r in before} == {("mlperf-inference", "4.1")}
    assert "deepseek-r1" in {r["model"] for r in kg.results(first_in="round=5.1", over=["model"])}
    endpoints = kg.results(where=["round<=mlperf-endpoints-v0.7"], group_by=["family"])
    assert {r["family"] for r in endpoints} == {"mlperf-endpoints"}


@pytest.mark.slow
def test_only_in_and_not_in_take_several_values(kg, record):
    by_round: dict[str, set] = {}
    for r in _audited(record):
        by_round.setdefault(r.version, set()).add(r.submitter)
    expected = (by_round["6.0"] | by_round["6.1"]) - by_round["5.1"] - by_round["4.1"]
    rows = kg.results(
        where=["measured_by=mlcommons"], group_by=["submitter"], only_in="round=6.0,6.1", not_in="round=in:4.1,5.1"
    )
    assert {r["submitter"] for r in rows} == expected and expected


# ---------------------------------------------------------------- columns the record had and the view had not


def _summary_rows(version: str) -> list[dict]:
    folder = RAW / f"mlperf_inference_v{version}"
    if version == "6.1":
        return [
            {"platform": r["Platform"], "memory": None, "framework": r.get("framework")}
            for r in json.loads((folder / "summary.json").read_text()).values()
        ]
    return [{"platform": r["Platform"]} for r in json.loads((folder / "summary_results.json").read_text())]


@pytest.mark.slow
def test_the_same_mlperf_system_across_two_rounds(kg, record):
    """``platform_id`` is the MLPerf system ID (the summary's Platform): counted per round, as the
    summaries count it, and the systems in both rounds found by it, not by a pattern on record ids."""
    expected = Counter()
    for version in ("6.0", "6.1"):
        expected.update((r["platform"], version) for r in _summary_rows(version))
    rows = kg.results(where=["measured_by=mlcommons", "round=in:6.0,6.1"], group_by=["platform_id", "round"])
    assert {(r["platform_id"], r["round"]): r["count"] for r in rows} == dict(expected)
    both = {p for p, v in expected if v == "6.0"} & {p for p, v in expected if v == "6.1"}
    kept = kg.results(
        where=["measured_by=mlcommons", "round=in:6.0,6.1"], group_by=["platform_id"], agg="distinct:round"
    )
    assert {r["platform_id"] for r in kept if r["distinct_round"] == 2} == both and both


@pytest.mark.slow
def test_cpu_only_results_per_benchmark(kg, record):
    """``accelerator_kind=none``: the results that ran on processors only, per model."""
    cpu = Counter(
        r.model for r in _audited(record) if all(record.chips[c].get("kind") == "cpu" for c in r.chips) and r.chips
    )
    rows = kg.results(where=["measured_by=mlcommons", "accelerator_kind=none"], group_by=["model"])
    assert {r["model"]: r["count"] for r in rows} == dict(cpu) and cpu
    v61 = kg.results(where=["measured_by=mlcommons", "accelerator_kind=none", "round=6.1"], group_by=["round"])
    assert [r["count"] for r in v61] == [33]  # the importer's own count of v6.1's CPU-only rows


@pytest.mark.slow
def test_the_framework_family_read_from_the_summary_text(kg, record):
    """v6.1's rows whose framework names vLLM are the vllm family, those naming TensorRT and no
    serving engine the tensorrt one, counted from the summary's own text."""
    rows = _summary_rows("6.1")
    text = [(r["framework"] or "").lower() for r in rows]
    expected = {
        "vllm": sum("vllm" in t for t in text),
        "tensorrt": sum("tensorrt" in t and "vllm" not in t and "sglang" not in t for t in text),
    }
    got = kg.results(where=["measured_by=mlcommons", "round=6.1"], group_by=["framework_family"])
    counted = {r["framework_family"]: r["count"] for r in got}
    assert {k: counted.get(k, 0) for k in expected} == expected and all(expected.values())


def test_stated_memory_is_the_one_size_a_system_description_states(kg):
    """From the system records, read a second way: "NNN GB" alone is NNN; none for "N/A" or two sizes."""
    systems = {}
    for path in (FULL_DATA / "systems").glob("*.json"):
        text = json.loads(path.read_text()).get("description", {}).get("accelerator_memory_capacity", "")
        m = re.fullmatch(r"(\d+) ?GB", text.strip())
        systems[path.stem] = Decimal(m.group(1)) if m else None
    rows = kg.results(columns=["claim", "system", "stated_memory"], where=["round=6.0"])
    checked = 0
    for row in rows:
        stated = systems.get(row["system"])
        if stated is not None:
            assert row["stated_memory"] == stated, row["claim"]
            checked += 1
        elif row["system"] in systems and systems[row["system"]] is None and row["stated_memory"] is not None:
            text = json.loads((FULL_DATA / "systems" / f"{row['system']}.json").read_text())["description"]
            assert len(re.findall(r"\d+(?:\.\d+)? ?(?:GB|GiB|MiB|Gi)", text["accelerator_memory_capacity"])) == 1
    assert checked > 100


def _published(field: str) -> set[str]:
    """Every distinct spelling of a system description's ``field`` in data/ (a claim's own ``framework`` too)."""
    found = set()
    for path in FULL_DATA.glob("*/*.json"):
        data = json.loads(path.read_text())
        found |= {t for t in (data.get("description", {}).get(field), data.get(field)) if isinstance(t, str)}
    return found


#: the published memory spellings that are not "NNN GB", read by hand (None: left unparsed on purpose), and
#: the hostile round's (issue 64: "1,024 GB" was 24, "288 GB HBM3e, 8 TB/s" none, "2304Gb" 2304)
MEMORY_READ_BY_HAND = {
    "81559 MiB": Decimal("85.5"),  # 81,559 × 1,048,576 bytes
    "96Gi": Decimal("103.1"),
    "288 GB HBM3e per GPU": Decimal(288),
    "N/A": None,
    "Shared with host": None,
    "disabled": None,
    "192 GB (MI300X), 256 GB (MI325X)": None,  # two chips' sizes: no one size
    "256 GB (MI325X), 192 GB (MI300X)": None,
    "1,024 GB": Decimal(1024),
    "288 GB HBM3e, 8 TB/s": Decimal(288),  # the bandwidth is not a size
    "2304Gb": None,  # gigabits by the standard (288 GB), bytes by habit: never published, so not guessed
}


def test_every_published_memory_spelling_is_read_as_its_size():
    """Each distinct accelerator_memory_capacity in data/systems/: "NNN GB" (a thin space, no space) is NNN to
    a tenth; every other spelling is in the table read by hand, so a new one fails here until it is read."""
    from benchkg.graph.facts import stated_memory_gb

    spellings = _published("accelerator_memory_capacity")
    assert len(spellings) > 30
    for text in sorted(spellings | set(MEMORY_READ_BY_HAND)):
        plain = re.fullmatch(r"(\d+(?:\.\d+)?)[ \u2009]?GB", text)
        assert plain or text in MEMORY_READ_BY_HAND, f"a published spelling no one has read: {text!r}"
        expected = Decimal(plain.group(1)).quantize(Decimal("0.1")) if plain else MEMORY_READ_BY_HAND[text]
        got = stated_memory_gb(text)
        assert (None if got is None else Decimal(got)) == expected, text


#: what each family is written as, read a second way: words, in the order a text naming several is read (the
#: serving engine before the framework under it)
FAMILY_WORDS = {
    "vllm": ("vllm", "llm-d"),
    "sglang": ("sglang",),
    "tensorrt": ("tensorrt", "trtllm", "trt-llm"),
    "llama.cpp": ("llama.cpp",),
    "openvino": ("openvino",),
    "onnxruntime": ("onnx",),
    "tensorflow": ("tensorflow", "tflite", "tf v"),
    "jax": ("flax", "jax"),
    "pytorch": ("pytorch", "torch"),
}
#: the published frameworks of no family above (each checked: a vendor's own stack, or CUDA/ROCm alone), and
#: the placeholders that name none at all (None: no family, not "other")
FRAMEWORK_OTHER = re.compile(
    r"(Atlas|CUDA|KISS-V|Krai|Mango LLMBoost|ROCm|TheStageAI|UntetherAI|deepsparse|shark-ai)\b.*"
)
NO_FRAMEWORK = {"N/A", "TODO"}


def test_every_published_framework_spelling_is_read_as_its_family():
    """Each distinct framework text in data/ (a system description's, a claim's) has the family its words
    name, "other" only for the stacks checked by hand and none for a placeholder; the hostile round's
    "TRTLLM 1.2" (issue 64: "other") with them."""
    from benchkg.kernel.vocab import framework_family

    spellings = _published("framework")
    assert len(spellings) > 100
    for text in sorted(spellings | {"TRTLLM 1.2", "trt-llm 0.9"}):
        named = [f for f, words in FAMILY_WORDS.items() if any(w in text.lower() for w in words)]
        if text in NO_FRAMEWORK:
            expected = None
        elif named:
            expected = named[0]
        else:
            assert FRAMEWORK_OTHER.fullmatch(text), f"a published framework no one has read: {text!r}"
            expected = "other"
        assert framework_family(text) == expected, text


@pytest.mark.slow
def test_every_v61_result_is_counted_the_one_in_tasks_per_second_too(kg, record):
    """A unit is data: v6.1's e2e-rag-qna result (Tasks/s) is a result like the others."""
    rows = kg.results(where=["measured_by=mlcommons", "round=6.1"], group_by=["unit"])
    counted = {r["unit"]: r["count"] for r in rows}
    summary = json.loads((RAW / "mlperf_inference_v6.1" / "summary.json").read_text())
    units = Counter(r["Units"] for r in summary.values())
    assert counted.get("tasks/s") == units["Tasks/s"] == 1 and sum(counted.values()) == len(summary)


# ---------------------------------------------------------------- one option surface


def test_columns_named_are_never_dropped_from_a_narrow_table(full_copy):
    args = ["--where", "round=6.1", "--columns", "claim,platform,chip_spelling,framework,value", "--top", "3"]
    narrow = cli("results", *args, "--data", full_copy, env={"COLUMNS": "60"})
    assert narrow.exit_code == 0, narrow.output
    head = narrow.stdout.splitlines()[1]
    for name in ("claim", "platform", "chip_", "framework", "value"):
        assert name in head, (name, narrow.stdout)
    assert "columns not shown here" not in narrow.stdout
    wide = cli("results", *args, "--wide", "--data", full_copy, env={"COLUMNS": "60"})
    assert wide.exit_code == 0 and max(len(line) for line in wide.stdout.splitlines()) > 60


def test_query_csv_keeps_the_columns_asked_for(full_copy):
    result = cli(
        "query", "leaderboard", "-p", "model=llama2-70b", "--columns", "submitted_by,value", "-f", "csv",
        "--limit", "3", "--data", full_copy,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    table = list(csv.reader(io.StringIO(result.stdout)))
    assert table[0] == ["submitted_by", "value"] and len(table) == 4
    unknown = cli("query", "leaderboard", "--columns", "submitter", "-f", "json", "--data", full_copy)
    assert unknown.exit_code == 2 and "submitted_by" in unknown.output


def test_sort_takes_the_aggregate_as_written(full_copy):
    args = ["--where", "round=6.1", "--group-by", "chip", "--agg", "median:per_accelerator", "-f", "csv"]
    short = cli("results", *args, "--sort", "-median", "--data", full_copy)
    long = cli("results", *args, "--sort", "-median_per_accelerator", "--data", full_copy)
    assert short.exit_code == 0, short.output
    assert short.stdout == long.stdout
    cells = [r["median_per_accelerator"] for r in csv.DictReader(io.StringIO(short.stdout))]
    medians = [Decimal(c) for c in cells if c]  # (a group of mixed systems has none: last)
    assert cells[: len(medians)] == [c for c in cells if c]
    assert medians == sorted(medians, reverse=True) and len(medians) > 5


# ---------------------------------------------------------------- Python


def test_results_gives_every_column_unless_told(kg):
    from benchkg.answers.algebra import COLUMNS

    (row,) = kg.results(where=["claim=mlperf-6.1-closed-intel-1-node-2s-xeon-6787p-e2e-rag-qna-offline"])
    assert set(row) == set(COLUMNS)
    assert (row["unit"], row["platform_id"], row["accelerator_kind"], row["framework_family"]) == (
        "tasks/s",
        "1-node-2S-Xeon_6787P",
        "chip",
        "vllm",
    )
    (few,) = kg.results(where=[f"claim={row['claim']}"], columns=["claim", "value"])
    assert set(few) == {"claim", "value"}


def test_show_returns_the_record_whose_text_is_the_page(kg):
    page = kg.show("mlperf-6.1-closed-intel-1-node-2s-xeon-6787p-e2e-rag-qna-offline")
    assert page.kind == "benchmarks" and page.fields["unit"] == "tasks/s"
    assert "systems/mlperf-6.1-closed-intel-1-node-2s-xeon-6787p" not in page.referrers  # (it refers; none to it)
    assert page.findings is not None and all(f.focus.endswith(page.id) for f in page.findings)
    assert str(page).splitlines()[0] == f"benchmarks/{page.id}" and "unit: tasks/s" in str(page)
    chip = kg.show("intel-arc-pro-b70")
    assert f"benchmarks/{page.id}" in chip.referrers and "gotchas that apply" not in str(chip)
