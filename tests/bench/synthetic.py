"""A seeded generator of synthetic claim records in the DESIGN format, for benchmarks.

Same seed, same size -> the same files. Numbers are made up; every record is valid under the
shapes except for a few planted defects per thousand claims (so validation has findings to report).
The claims are shaped like users' rather than like MLPerf's: two in five name no system record (a
vendor's page rarely does), and some leave out the node count, the fabric or the submitter, or write
their number with thousands separators.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

SCENARIOS = ["offline", "server", "interactive", "single-stream", "multi-stream"]


def write(folder: Path, kind: str, record: dict) -> None:
    (folder / kind).mkdir(parents=True, exist_ok=True)
    (folder / kind / f"{record['id']}.json").write_text(json.dumps(record, indent=2) + "\n")


def generate(out: Path, claims: int, seed: int = 7, base_data: Path | None = None) -> Path:
    """Write a data folder with ``claims`` benchmark records (plus what they refer to) under ``out``."""
    rnd = random.Random(seed)
    data = Path(out) / "data"
    if data.exists():
        shutil.rmtree(data)
    if base_data is not None:  # the seed's organisations, sources, gotchas, interconnects…
        shutil.copytree(
            base_data, data, ignore=lambda folder, names: [n for n in names if Path(folder).name == "benchmarks"]
        )
    interconnects = ["nvlink-4", "nvswitch-4", "pcie-gen5", "infiniband-ndr"]
    for i in interconnects:
        if not (data / "interconnects" / f"{i}.json").exists():
            write(data, "interconnects", {"id": i, "name": i, "kind": "scale-up"})
    write(data, "organizations", {"id": "syn-org", "name": "Synthetic"})
    write(data, "sources", {"id": "syn-source", "name": "Synthetic source", "kind": "dataset"})
    write(data, "sources", {"id": "syn-source-2", "name": "Second synthetic source", "kind": "dataset"})
    accelerators = [f"syn-acc-{i:03d}" for i in range(50)]
    for i, acc in enumerate(accelerators):
        write(
            data,
            "accelerators",
            {
                "id": acc,
                "name": f"Synthetic accelerator {i}",
                "vendor_id": "syn-org",
                "kind": "chip",
                "memory_gb": 40 + i,
                "memory_bandwidth_tbs": 1 + i / 10,
                "interconnect_ids": interconnects[: 1 + i % 4],
                "interconnect_sources": [
                    {"interconnect_id": ic, "source_id": "syn-source"} for ic in interconnects[: 1 + i % 4]
                ],
            },
        )
    systems = 997  # one machine per system name; its accelerator is fixed, its claims use up to 72 of them
    for n in range(min(systems, claims)):
        write(
            data,
            "systems",
            {
                "id": f"syn-system-{n:03d}",
                "name": f"System {n}",
                "submitter_id": "syn-org",
                "accelerator_ids": [accelerators[n % len(accelerators)]],
                "accelerator_count": 72,
                "source_ids": ["syn-source"],
            },
        )
    models = [f"syn-model-{i:02d}" for i in range(20)]
    for m in models:
        write(data, "models", {"id": m, "name": m})
    suites = [f"syn-suite-v{i}" for i in range(1, 6)]
    for s in suites:
        write(
            data,
            "suites",
            {
                "id": s,
                "name": s,
                "family": "mlperf-inference",
                "version": s.rsplit("v", 1)[1],
                "publisher_id": "syn-org",
            },
        )
    submitters = [f"syn-submitter-{i:02d}" for i in range(30)]
    for s in submitters:
        write(data, "organizations", {"id": s, "name": s})
    shape = random.Random(seed + 1)  # (a stream of its own: the numbers stay those of the plain claims)
    for n in range(claims):
        rnd.choice(accelerators)  # (kept so that the rest of the stream, and the numbers, stay as before)
        idx = (n % systems) % len(accelerators)
        acc = accelerators[idx]
        count = rnd.choice([1, 2, 4, 8, 8, 8, 16, 72])
        value = round(rnd.uniform(100, 1_000_000), 2)
        record = {
            "id": f"syn-claim-{n:06d}",
            "title": f"Synthetic claim {n}",
            "suite_id": rnd.choice(suites),
            "division": rnd.choice(["closed", "closed", "open"]),
            "system_type": "datacenter",
            "scenario": rnd.choice(SCENARIOS),
            "model_id": rnd.choice(models),
            "system_id": f"syn-system-{n % systems:03d}",
            "system_name": f"System {n % systems}",
            "accelerator_ids": [acc],
            "accelerator_count": count,
            "node_count": max(1, count // 8),
            "interconnect_ids": interconnects[: 1 + idx % 4],
            "metric": "throughput",
            "value": value,
            "unit": "tokens/s",
            "scope": "aggregate",
            "measured_by": rnd.choice(["vendor", "mlcommons", "third-party"]),
            "submitter_id": rnd.choice(submitters),
            "updated": "2026-10-04",
            "sources": [
                {"source_id": "syn-source", "quote": f"{value} tokens/s"},
                {"source_id": "syn-source-2", "quote": f"{value} tokens/s"},
            ],
        }
        if rnd.random() < 0.2:
            record["reported"] = [
                {
                    "metric": "throughput",
                    "value": round(value / count * rnd.choice([1, 1, 1.05]), 2),
                    "unit": "tokens/s",
                    "scope": "per-accelerator",
                }
            ]
        if rnd.random() < 0.1:
            record["parallelism"] = {"tensor": rnd.choice([1, 2, 4, 8]), "data": 1}
        if rnd.random() < 0.002:  # planted defect: an interconnect the accelerator does not have
            record["interconnect_ids"] = interconnects
        if shape.random() < 0.4:  # a claim that names no system record, only its machine's name
            del record["system_id"]
            record["system_name"] = f"{shape.choice(['', 'the ', 'A '])}System {n % systems}"
        for field, share in (("node_count", 0.2), ("interconnect_ids", 0.25), ("submitter_id", 0.1)):
            if field in record and shape.random() < share:
                del record[field]
        if shape.random() < 0.2:  # "123,456.78 tokens/s"
            record["sources"][0]["quote"] = f"{value:,} tokens/s"
        write(data, "benchmarks", record)
    return data
