"""`make bench-import`: time importing the three MLPerf rounds and Epoch's table into a copy of the
seed data, then building and validating the result. Needs ../shared/realdata (falls back to the
vendored subsets in tests/fixtures/realdata, which are much smaller; ``--smoke`` takes those)."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    from benchkg.checks.validate import validate_graph
    from benchkg.graph.store import build_graph
    from benchkg.importers.common import ImportReport
    from benchkg.importers.contract import run_import
    from benchkg.importers.epoch import IMPORTER as EPOCH_IMPORTER
    from benchkg.importers.mlperf import IMPORTER as MLPERF
    from benchkg.importers.mlperf_summary import is_summary_round

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="the small vendored subsets in tests/fixtures/realdata")
    real = ROOT.parent / "shared" / "realdata"
    if parser.parse_args().smoke or not real.is_dir():
        real = ROOT / "tests" / "fixtures" / "realdata"
    rounds = sorted(
        p for p in real.glob("mlperf_inference_v*") if (p / "summary_results.json").is_file() or is_summary_round(p)
    )
    if all(p.name != MLPERF.sample.name for p in rounds):  # the vendored v6.0 is the importer's own sample
        rounds.append(MLPERF.sample)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(
            ROOT / "data",
            data,
            ignore=lambda folder, names: [
                n for n in names if Path(folder).name == "benchmarks" and n.startswith("mlperf-")
            ],
        )
        report = ImportReport()
        t = time.perf_counter()
        for folder in rounds:
            run_import(MLPERF, [folder], data, report=report)
        epoch = real / "epoch_ml_hardware" / "ml_hardware.csv"
        run_import(EPOCH_IMPORTER, [epoch if epoch.is_file() else EPOCH_IMPORTER.sample], data, report=report)
        t_import = time.perf_counter() - t
        t = time.perf_counter()
        built = build_graph(data)
        t_build = time.perf_counter() - t
        t = time.perf_counter()
        result = validate_graph(built.store, data)
        t_validate = time.perf_counter() - t
    print(f"source: {real}")
    print(report.text())
    print(
        f"\n| step | seconds |\n|---|---|\n| import {', '.join(p.name for p in rounds)} + Epoch | {t_import:.2f} |\n"
        f"| build ({len(built.store):,} quads) | {t_build:.2f} |\n| validate ({len(result.findings)} findings) | {t_validate:.2f} |"
    )


if __name__ == "__main__":
    sys.exit(main())
