"""`make bench-reference`: the reference set in a data repository of one's own — the first
`benchkg validate` ever (it prepares the cache, once per benchkg version), the first in another new
repository once the cache is there, a second run in the same one, and the first in a new repository
after a reinstall of the same version (the reference files' times change); and the size of the set.
Then a curator's loop in a data repository (issue 42): seven claims ``benchkg draft`` wrote from a
press release (``tests/bench/press-release.md``), validated; one of them changed, validated again.
Each run is the installed `benchkg` in a subprocess, as a curator runs it. ``--smoke`` is the same run
(it takes seconds already)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCHKG = Path(sys.executable).with_name("benchkg")


PRESS_RELEASE = Path(__file__).with_name("press-release.md")
#: the curator's loop targets (issue 42), seconds
TARGETS = {"7 drafted claims": 2.0, "one changed claim": 1.0}


def timed(args: list[str], cwd: Path, env: dict, ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    done = subprocess.run([str(BENCHKG), *args], cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in ok:
        sys.exit(f"benchkg {' '.join(args)} failed: {done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="the same run (seconds already)")
    parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="benchkg-reference-bench-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHKG_")}
    env["XDG_CACHE_HOME"] = str(root / "cache")  # an empty cache: the first run prepares it
    try:
        for name in ("first", "second", "third", "curator"):
            subprocess.run([str(BENCHKG), "init", name], cwd=root, env=env, check=True, capture_output=True)
        first = timed(["validate"], root / "first", env)
        cold = timed(["validate"], root / "second", env)
        warm = timed(["validate"], root / "second", env)
        # a reinstall of the same version: the reference files' times change, their content does not
        reference = Path(
            subprocess.run(
                [
                    str(BENCHKG.with_name("python")),
                    "-c",
                    "from benchkg.kernel.resources import REFERENCE_DIR as R; print(R)",
                ],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        )
        for path in reference.rglob("*.json"):
            os.utime(path)
        reinstalled = timed(["validate"], root / "third", env)
        described = json.loads(
            subprocess.run(
                [str(BENCHKG), "reference", "--format", "json"],
                cwd=root / "first",
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        info = described.get("cache_info") or {}
        print(
            f"reference set: {described['records']['benchmarks']:,} results, {described['systems']:,} systems, "
            f"{info.get('quads', 0):,} quads (prepared in {info.get('built_s', 0)} s)"
        )
        print(f"first validate ever (prepares the cache): {first:.2f} s")
        print(f"first validate in a new repository, cache there: {cold:.2f} s")
        print(f"validate again, nothing changed: {warm:.2f} s")
        print(
            f"first validate in a new repository after a reinstall (reference file times changed): {reinstalled:.2f} s"
        )
        loop = curators_loop(root / "curator", env)
        for what, seconds in loop.items():
            target = TARGETS.get(what)
            mark = "" if target is None else f"  (target ≤ {target:g} s: {'met' if seconds <= target else 'NOT met'})"
            print(f"data repository, validate after {what}: {seconds:.2f} s{mark}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def curators_loop(repo: Path, env: dict) -> dict[str, float]:
    """A new repository (its reference cache ready): validated once, then the claims ``draft`` writes
    from a press release, validated (they have violations to fix: exit 1 is expected), then one of
    them changed, validated; then nothing changed."""
    timed(["validate", "-q"], repo, env)
    drafted = subprocess.run(
        [str(BENCHKG), "draft", str(PRESS_RELEASE), "--out", "data"], cwd=repo, env=env, capture_output=True, text=True
    )
    claims = sorted((repo / "data" / "benchmarks").glob("press-release-*.json"))
    if drafted.returncode not in (0, 1) or len(claims) != 7:
        sys.exit(f"benchkg draft wrote {len(claims)} claims, not 7: {drafted.stderr}")
    out = {"7 drafted claims": timed(["validate", "-q"], repo, env, ok=(0, 1))}
    record = json.loads(claims[3].read_text())
    record["value"] = record["value"] + 1
    claims[3].write_text(json.dumps(record, indent=2) + "\n")
    out["one changed claim"] = timed(["validate", "-q"], repo, env, ok=(0, 1))
    out["nothing changed"] = timed(["validate", "-q"], repo, env, ok=(0, 1))
    return out


if __name__ == "__main__":
    main()
