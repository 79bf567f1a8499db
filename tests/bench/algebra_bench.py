"""The results algebra's timings (issue 31): each verb on data/ after the store is built, and on
10,000 generated claims (tests/bench/synthetic.py). Prints a table of seconds per command, the
median of three runs; `make bench-algebra`. Targets: <= 0.5 s on data/, <= 1 s at 10k. ``--smoke``: 200
generated claims, one run each (that it runs)."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
ROOT = Path(__file__).resolve().parents[2]

#: (name, keyword arguments of KnowledgeGraph.results) on data/, and the same verbs on synthetic data
ON_DATA = [
    ("rows (where)", dict(where=["round=6.1", "model=llama2-70b"])),
    ("pair tier", dict(where=["measured_by=mlcommons", "metric=throughput"], pair="tier=99,99.9")),
    ("pair round", dict(where=["measured_by=mlcommons", "metric=throughput"], pair="round=6.0,6.1")),
    ("group-by count", dict(where=["measured_by=mlcommons"], group_by=["host_cpu_vendor"])),
    ("group-by share", dict(group_by=["submitter_kind"], agg="share")),
    ("distinct", dict(group_by=["base_chip"], agg="distinct:chip_spelling")),
    (
        "median",
        dict(where=["measured_by=mlcommons", "scenario=offline"], group_by=["base_chip"], agg="median:per_accelerator"),
    ),
    ("best-per", dict(where=["round=6.1", "model=gpt-oss-120b"], best_per=["submitter"])),
    ("only-in / not-in", dict(group_by=["submitter"], only_in="round=6.0", not_in="round=6.1")),
    ("where != x300 (optional)", dict(where=[f"host_cpu!=x{n}" for n in range(300)], group_by=["round"])),
]
ON_SYNTHETIC = [
    ("rows (where)", dict(where=["model=syn-model-00", "scenario=server"])),
    ("pair scenario", dict(pair="scenario=offline,server", hold=["system", "model", "suite"])),
    ("group-by count", dict(group_by=["chip"])),
    ("group-by share", dict(group_by=["suite"], agg="share")),
    ("best-per", dict(where=["model=syn-model-00"], best_per=["chip"])),
    ("only-in / not-in", dict(group_by=["chip"], only_in="suite=syn-suite-v2", not_in="suite=syn-suite-v1")),
]


def timed(kg, kwargs, repeat: int = 3) -> tuple[float, int]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        rows = kg.results(**kwargs)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), len(rows)


def main() -> None:
    from synthetic import generate

    import benchkg

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="200 generated claims, one run each")
    args = parser.parse_args()
    size, repeat = (200, 1) if args.smoke else (10_000, 3)
    out = []
    kg = benchkg.open(ROOT / "data")
    kg.build()
    out += [("data/", name, *timed(kg, kw, repeat)) for name, kw in ON_DATA]
    with tempfile.TemporaryDirectory() as tmp:
        data = generate(Path(tmp), size, base_data=ROOT / "data")
        syn = benchkg.open(data)
        syn.build()
        out += [(f"{size:,} generated", name, *timed(syn, kw, repeat)) for name, kw in ON_SYNTHETIC]
    print(f"| data | command | seconds (median of {repeat}) | rows |\n|---|---|---|---|")
    for where, name, seconds, rows in out:
        print(f"| {where} | {name} | {seconds:.2f} | {rows} |")


if __name__ == "__main__":
    main()
