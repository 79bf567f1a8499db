"""`make bench-rows`: every saved query's rows, as a user gets them, kept from one run to the next, so
that a change meant to make benchkg faster and nothing else is held to the same rows byte for byte
(issue 42).

    make bench-rows                       # the first run keeps the rows (data/ and 10,000 claims)
    (change the code)
    make bench-rows                       # compares: names every file that differs; exit 1 if rows do
    make bench-rows BENCH_ARGS=--rebase   # keep this run's rows instead

Each query runs as ``benchkg query NAME --limit 0 --format sparql-json`` (the synthetic ids of
:data:`bench.PARAMS` where a query needs some, and again with :data:`bench.FILTERED`'s filters); its
stdout is kept as ``NAME.json``, its stderr (the caveats and notes) and exit code as ``NAME.notes``,
under ``.benchkg/rows/<size>/``. A note may change on purpose: it is named, not failed. ``--smoke``
runs three queries on data/ into ``.benchkg/rows-smoke/`` (``make test`` runs it twice).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
ROOT = HERE.parents[1]

#: the queries of ``--smoke``: a listing, a pair keyed by division, a pair of a vendor claim
SMOKE = ("leaderboard", "capped-vs-uncapped", "vendor-vs-audited")


def asked(synthetic: bool, only: tuple[str, ...] = ()) -> dict[str, dict[str, str]]:
    """The answers to write, by file name: every saved query (with the synthetic ids it needs), and
    the whole-table ones again with an analyst's filter; ``only`` those queries when given."""
    from bench import FILTERED, PARAMS
    from benchkg.answers.savedquery import saved_queries

    out = {name: (PARAMS.get(name, {}) if synthetic else {}) for name in saved_queries()}
    if synthetic:
        out.update({f"{name}.filtered": params for name, params in FILTERED.items()})
    return {file: params for file, params in out.items() if not only or file.split(".")[0] in only}


def write(data: Path, out: Path, answers: dict[str, dict[str, str]]) -> None:
    """Build ``data`` and write each answer's rows and notes under ``out``."""
    benchkg = [sys.executable, "-c", "from benchkg.cli import main; main()"]
    subprocess.run([*benchkg, "build", "--data", str(data)], check=True, capture_output=True)
    out.mkdir(parents=True, exist_ok=True)
    for file, params in answers.items():
        args = [a for k, v in params.items() for a in ("-p", f"{k}={v}")]
        done = subprocess.run(
            [*benchkg, "query", file.split(".")[0], *args, "--limit", "0", "--format", "sparql-json"]
            + ["--data", str(data)],
            capture_output=True,
        )
        (out / f"{file}.json").write_bytes(done.stdout)
        (out / f"{file}.notes").write_bytes(done.stderr + f"exit {done.returncode}\n".encode())


def compare(after: Path, before: Path) -> bool:
    """Print every file of ``before`` that ``after`` differs in; whether the rows (not notes) are the same."""
    same = True
    for old in sorted(before.iterdir()):
        new = after / old.name
        if not new.exists() or new.read_bytes() != old.read_bytes():
            print(f"  differs: {old.name}")
            same &= old.suffix != ".json"
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 10000], help="generated claims (0: data/)")
    parser.add_argument("--rebase", action="store_true", help="keep this run's rows as the ones to compare with")
    parser.add_argument("--smoke", action="store_true", help=f"data/ and {', '.join(SMOKE)} only")
    args = parser.parse_args()
    kept = ROOT / ".benchkg" / ("rows-smoke" if args.smoke else "rows")
    sizes, only = ([0], SMOKE) if args.smoke else (args.sizes, ())
    differ = False
    for size in sizes:
        name = f"{size:,} generated claims" if size else "data/"
        with tempfile.TemporaryDirectory(prefix="benchkg-rows-") as tmp:
            if size:
                from synthetic import generate

                data = generate(Path(tmp), size, base_data=ROOT / "data")
            else:
                data = Path(tmp) / "data"
                shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns(".benchkg"))
            answers = asked(bool(size), only)
            write(data, Path(tmp) / "rows", answers)
            before = kept / str(size)
            if before.is_dir() and not args.rebase:
                same = compare(Path(tmp) / "rows", before)
                print(f"{name}: {len(answers)} answers; rows " + ("the same, byte for byte" if same else "DIFFER"))
                differ |= not same
            else:
                shutil.rmtree(before, ignore_errors=True)
                shutil.copytree(Path(tmp) / "rows", before)
                print(f"{name}: {len(answers)} answers kept in {before.relative_to(ROOT)} (the next run compares)")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
