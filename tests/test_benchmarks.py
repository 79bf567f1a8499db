"""Every benchmark the docs name runs, as a user runs it (`make TARGET`), at its smallest size
(`BENCH_ARGS=--smoke`): a benchmark that no longer runs fails here, not on the next person to measure.
These tests check that each one ran through and printed its whole table, never a timing."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from benchkg.answers.savedquery import saved_queries
from benchkg.kernel.resources import ROOT

pytestmark = pytest.mark.slow

DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def named_in_docs() -> set[str]:
    """The `make bench…` targets the README and docs/ tell a user to run."""
    return {m for path in DOCS for m in re.findall(r"make (bench[-a-z]*)", path.read_text(encoding="utf-8"))}


def run_make(target: str) -> str:
    """``make TARGET BENCH_ARGS=--smoke`` in the checkout; its output, or the test fails with it."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(
        ["make", "--no-print-directory", target, "BENCH_ARGS=--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (
        f"make {target} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    )
    return done.stdout


def _lines_starting(out: str, *starts: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(starts)]


def check_bench(out: str) -> None:
    """The measures table, the naive stack's row (finished or stopped), and one answer row per saved
    query and algebra command, each with its first page, whole answer and row count."""
    for measure in ("cold build (s)", "validate, fast engine, full (s)", "rebuild after one changed file (s)"):
        assert re.search(rf"^\| {re.escape(measure)} \| \d+\.\d\d \|$", out, re.M), measure
    assert re.search(
        r"^\| naive: rdflib build \+ pyshacl validate \(s\) \| (\d+\.\d \+ \d+\.\d|> \d+ s \(stopped\)) \|$", out, re.M
    )
    answers = {m[0]: m[1] for m in re.findall(r"^\| ([a-z -]+) \| (\d+\.\d\d / \d+\.\d\d \([\d,]+\)) \|$", out, re.M)}
    assert set(saved_queries()) | {"results where", "results pair", "results group-by", "results best-per"} <= set(
        answers
    )


def check_algebra(out: str) -> None:
    rows = re.findall(r"^\| (data/|[\d,]+ generated) \| ([^|]+) \| \d+\.\d\d \| \d+ \|$", out, re.M)
    assert len([r for r in rows if r[0] == "data/"]) == 10 and len([r for r in rows if r[0] != "data/"]) == 6, out


def check_data(out: str) -> None:
    for step in ("cold build", "finding caveats", "no-op build"):
        assert re.search(rf"^{step} \d+(\.\d+)?$", out, re.M), step
    assert re.search(r"^one changed claim \d+(\.\d+)? \(1 record rebuilt\)$", out, re.M), out


def check_draft(out: str) -> None:
    shapes = ("repeated names", "one line of figures", "unclosed markdown", "one sentence again")
    assert len(_lines_starting(out, *shapes)) == 4, out
    assert all(re.search(r"(\d+\.\d\ds\s+){3}\d+\.\dx$", line) for line in _lines_starting(out, *shapes)), out


def check_import(out: str) -> None:
    assert re.search(r"^\| import mlperf_inference_v[\d.]+.* \+ Epoch \| \d+\.\d\d \|$", out, re.M), out
    assert re.search(r"^\| build \([\d,]+ quads\) \| \d+\.\d\d \|$", out, re.M), out
    assert re.search(r"^\| validate \(\d+ findings\) \| \d+\.\d\d \|$", out, re.M), out


def check_reference(out: str) -> None:
    assert re.search(r"^reference set: [\d,]+ results, [\d,]+ systems, [\d,]+ quads", out, re.M), out
    assert len(re.findall(r"^(first|validate again).*: \d+\.\d\d s$", out, re.M)) == 4, out


def check_rows(out: str) -> None:
    """The first run keeps the rows or compares them with those kept; a second run compares, and finds
    them the same (nothing changed between the two)."""
    assert re.search(r"^data/: 3 answers( kept in \.benchkg/rows-smoke/0|; rows the same, byte for byte)", out, re.M), (
        out
    )
    again = run_make("bench-rows")
    assert re.search(r"^data/: 3 answers; rows the same, byte for byte$", again, re.M), again


def check_serve(out: str) -> None:
    assert len(re.findall(r"^(in-process|serve) (small|leaderboard): \d+ ms$", out, re.M)) == 4, out
    assert re.search(
        r"^cartesian stopped: HTTP 503 after [\d.]+ s \(limit 5 s\); a small query beside it: \d+ ms$", out, re.M
    ), out


CHECKS = {
    "bench": check_bench,
    "bench-algebra": check_algebra,
    "bench-data": check_data,
    "bench-draft": check_draft,
    "bench-import": check_import,
    "bench-reference": check_reference,
    "bench-rows": check_rows,
    "bench-serve": check_serve,
}


def test_every_benchmark_the_docs_name_is_smoke_run_here():
    assert named_in_docs() == set(CHECKS)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert set(re.findall(r"^(bench[-a-z]*):", makefile, re.M)) == set(CHECKS)


@pytest.mark.parametrize("target", sorted(CHECKS))
def test_the_benchmark_runs_and_prints_its_table(target):
    CHECKS[target](run_make(target))
