"""Generated data folders shaped like users' data, for the property tests (Hypothesis).

A folder holds a fixed pool of real reference records from data/ (suites, models, chips, organisations,
formats, interconnects, sources, gotchas), each model's and chip's optional fields kept or dropped at
random, plus generated systems and claims in which every optional field is present or absent at random:
claims without a system (a name only, or nothing), systems without counts, values that tie, the same
chip spelled as the rack or the GPU (or both). :func:`write` puts one on disk; :func:`rename` maps every claim and
system id through a bijection; :func:`with_unrelated` adds records no claim refers to.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import strategies as st

from conftest import DATA

SUITES = ("mlperf-inference-v5.1", "mlperf-inference-v6.0", "mlperf-inference-v6.1")
MODELS = ("llama2-70b", "gpt-oss-120b", "deepseek-r1")
CHIPS = (
    "nvidia-h200-sxm-141gb",
    "nvidia-h200-sxm-141gb-cts",
    "nvidia-b200-sxm-180gb",
    "nvidia-gb200",
    "nvidia-gb200-nvl72",
    "amd-instinct-mi355x",
)
ORGS = ("nvidia", "coreweave", "dell", "amd", "mlcommons", "meta", "openai", "deepseek")
FORMATS = ("fp4", "fp8")
SOURCE = "coreweave-gb200-nvl72-llama2-70b-server-record"
#: the fields of a model and a chip a property test may drop (never id and name)
DROPPABLE = {
    "models": ("publisher_id", "parameters_b", "architecture", "active_parameters_b", "spec_sources"),
    "accelerators": (
        "vendor_id",
        "kind",
        "made_of_id",
        "accelerators_per_unit",
        "memory_gb",
        "memory_bandwidth_tbs",
        "interconnect_ids",
        "interconnect_sources",
        "aliases",
        "tdp_w",
        "peak_tflops",
        "spec_sources",
        "released",
        "variant_of_id",
    ),
}


def _record(kind: str, ident: str) -> dict:
    return json.loads((DATA / kind / f"{ident}.json").read_text())


def reference_pool() -> dict[str, dict[str, dict]]:
    """The real records every generated folder starts from, by kind and id."""
    pool: dict[str, dict[str, dict]] = {
        "suites": {s: _record("suites", s) for s in SUITES},
        "models": {m: _record("models", m) for m in MODELS},
        "accelerators": {c: _record("accelerators", c) for c in CHIPS},
        "organizations": {o: _record("organizations", o) for o in ORGS},
        "formats": {f: _record("formats", f) for f in FORMATS},
        "sources": {SOURCE: _record("sources", SOURCE)},
    }
    pool["interconnects"] = {p.stem: json.loads(p.read_text()) for p in (DATA / "interconnects").glob("*.json")}
    pool["gotchas"] = {p.stem: json.loads(p.read_text()) for p in (DATA / "gotchas").glob("*.json")}
    # the sources the interconnect citations and gotchas name, so references resolve
    for path in (DATA / "sources").glob("*.json"):
        pool["sources"][path.stem] = json.loads(path.read_text())
    return pool


POOL = reference_pool()

maybe = st.booleans()


@st.composite
def systems(draw, n: int) -> dict[str, dict]:
    out = {}
    for i in range(n):
        chip = draw(st.sampled_from(CHIPS))
        rec: dict = {"id": f"sys-{i}", "name": draw(st.sampled_from(["Box", "Rack 72x", f"System {i}", "DGX"]))}
        if draw(maybe):
            rec["submitter_id"] = draw(st.sampled_from(ORGS[:4]))
        if draw(maybe):
            rec["suite_id"] = draw(st.sampled_from(SUITES))
        if draw(maybe):
            rec["accelerator_ids"] = [chip]
        if draw(maybe):
            rec["accelerator_count"] = draw(st.sampled_from([1, 4, 8, 72]))
        if draw(maybe):
            rec["node_count"] = draw(st.sampled_from([1, 2, 18]))
        if draw(maybe):
            rec["division"] = draw(st.sampled_from(["closed", "open"]))
        if draw(maybe):
            rec["availability"] = draw(st.sampled_from(["available", "preview"]))
        if draw(maybe):
            rec["host_processor"] = "Intel Xeon"
        out[rec["id"]] = rec
    return out


@st.composite
def claims(draw, n: int, system_ids: list[str]) -> dict[str, dict]:
    out = {}
    for i in range(n):
        chip = draw(st.sampled_from(CHIPS))
        latency = draw(st.integers(0, 5)) == 0
        rec: dict = {
            "id": f"claim-{i}",
            "title": f"Claim {i}",
            "suite_id": draw(st.sampled_from(SUITES)),
            "model_id": draw(st.sampled_from(MODELS)),
            # (a rack is sometimes named with its chip beside it: one claim all the same)
            "accelerator_ids": [chip, "nvidia-gb200"] if chip == "nvidia-gb200-nvl72" and draw(maybe) else [chip],
            "metric": "latency" if latency else "throughput",
            "value": draw(st.sampled_from([12.5, 100, 1000, 8000, 16635, 104120, 910621.36])),
            "unit": "ms" if latency else "tokens/s",
            "scope": "aggregate" if latency else draw(st.sampled_from(["aggregate", "per-accelerator"])),
            "measured_by": draw(st.sampled_from(["vendor", "mlcommons"])),
            "sources": [{"source_id": SOURCE, "quote": "a number", "retrieved": "2026-10-04"}],
        }
        optional = {
            "division": st.sampled_from(["closed", "open"]),
            "system_type": st.sampled_from(["datacenter", "edge"]),
            "availability": st.sampled_from(["available", "preview"]),
            "scenario": st.sampled_from(["server", "offline", "interactive"]),
            "accuracy_target": st.sampled_from(["99", "99.9"]),
            "format_id": st.sampled_from(FORMATS),
            "system_name": st.sampled_from(["CoreWeave GB200 NVL72", "4x GB300", "Box"]),
            "accelerator_count": st.sampled_from([1, 4, 8, 64, 72]),
            "node_count": st.sampled_from([1, 8, 18]),
            "submitter_id": st.sampled_from(ORGS[:4]),
            "inferred": st.booleans(),
        }
        for field, strategy in optional.items():
            if draw(maybe):
                rec[field] = draw(strategy)
        if system_ids and draw(maybe):
            rec["system_id"] = draw(st.sampled_from(system_ids))
        if draw(st.integers(0, 3)) == 0:
            rec["power"] = {"measured": draw(st.booleans())}
        if draw(st.integers(0, 3)) == 0:
            rec["verification"] = {"status": draw(st.sampled_from(["verified", "unverified"]))}
        out[rec["id"]] = rec
    return out


@st.composite
def folders(draw) -> dict[str, dict[str, dict]]:
    """One generated data folder: {kind: {id: record}}."""
    folder = copy.deepcopy(POOL)
    for kind, fields in DROPPABLE.items():
        for rec in folder[kind].values():
            for name in fields:
                if name in rec and draw(st.integers(0, 3)) == 0:
                    del rec[name]
    sys = draw(systems(draw(st.integers(0, 3))))
    folder["systems"] = sys
    folder["benchmarks"] = draw(claims(draw(st.integers(1, 7)), sorted(sys)))
    return folder


def write(folder: dict[str, dict[str, dict]], root: Path) -> Path:
    """The folder as record files under ``root`` (replacing what was there); returns ``root``."""
    import shutil

    if root.exists():
        shutil.rmtree(root)
    for kind, records in folder.items():
        (root / kind).mkdir(parents=True, exist_ok=True)
        for ident, rec in records.items():
            (root / kind / f"{ident}.json").write_text(json.dumps(rec, indent=2))
    return root


def rename(folder: dict[str, dict[str, dict]], prefix: str = "zz-") -> dict[str, dict[str, dict]]:
    """The same folder with every claim and system id renamed (``claim-0`` -> ``zz-claim-0``, references
    followed): no number may change."""
    out = copy.deepcopy(folder)
    systems_ = {f"{prefix}{i}": {**r, "id": f"{prefix}{i}"} for i, r in out["systems"].items()}
    claims_ = {}
    for ident, rec in out["benchmarks"].items():
        rec = {**rec, "id": f"{prefix}{ident}"}
        if "system_id" in rec:
            rec["system_id"] = f"{prefix}{rec['system_id']}"
        claims_[rec["id"]] = rec
    out["systems"], out["benchmarks"] = systems_, claims_
    return out


def with_unrelated(folder: dict[str, dict[str, dict]]) -> dict[str, dict[str, dict]]:
    """The same folder plus records no claim refers to: another model, another organisation, a system of
    nobody's, an engine, a source. No answer may change."""
    out = copy.deepcopy(folder)
    out["models"]["unrelated-model"] = {"id": "unrelated-model", "name": "Unrelated Model 9B"}
    out["organizations"]["unrelated-org"] = {"id": "unrelated-org", "name": "Unrelated Org"}
    out["systems"]["unrelated-system"] = {
        "id": "unrelated-system",
        "name": "Unrelated System",
        "submitter_id": "unrelated-org",
        "accelerator_ids": ["nvidia-h200-sxm-141gb"],
        "accelerator_count": 8,
    }
    out.setdefault("engines", {})["unrelated-engine"] = {"id": "unrelated-engine", "name": "Unrelated Engine"}
    out["sources"]["unrelated-source"] = {**out["sources"][SOURCE], "id": "unrelated-source", "title": "Unrelated"}
    return out
