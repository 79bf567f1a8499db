"""`make bench-reference`: the reference set in a data repository of one's own — the first
`benchkg validate` ever (it prepares the cache, once per benchkg version), the first in another new
repository once the cache is there, a second run in the same one, and the first in a new repository
after a reinstall of the same version (the reference files' times change); and the size of the set.
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


def timed(args: list[str], cwd: Path, env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run([str(BENCHKG), *args], cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
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
        for name in ("first", "second", "third"):
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
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
