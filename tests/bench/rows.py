"""Every saved query's rows, as a user gets them, written to a folder, so that a change meant to be
faster and nothing else can be held to the same rows byte for byte (issue 42).

    python tests/bench/rows.py --out /tmp/before              # on data/
    python tests/bench/rows.py --size 10000 --out /tmp/before-10k
    (change the code)
    python tests/bench/rows.py --out /tmp/after --compare /tmp/before

Each query runs as ``benchkg query NAME --limit 0 --format sparql-json`` (the synthetic ids of
:data:`bench.PARAMS` where a query needs some, and again with :data:`bench.FILTERED`'s filters);
its stdout is ``NAME.json``, its stderr (the caveats and notes) ``NAME.notes``. ``--compare`` lists
every file that differs and exits 1 if a row file does (a note may change on purpose: listed, not
failed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
ROOT = HERE.parents[1]


def asked(synthetic: bool) -> dict[str, dict[str, str]]:
    """The answers to write, by file name: every saved query (with the synthetic ids it needs), and
    the whole-table ones again with an analyst's filter."""
    from bench import FILTERED, PARAMS
    from benchkg.answers.savedquery import saved_queries

    out = {name: (PARAMS.get(name, {}) if synthetic else {}) for name in saved_queries()}
    if synthetic:
        out.update({f"{name}.filtered": params for name, params in FILTERED.items()})
    return out


def write(data: Path, out: Path, synthetic: bool) -> None:
    """Build ``data`` and write each answer's rows and notes under ``out``."""
    benchkg = [sys.executable, "-c", "from benchkg.cli import main; main()"]
    subprocess.run([*benchkg, "build", "--data", str(data)], check=True, capture_output=True)
    out.mkdir(parents=True, exist_ok=True)
    for file, params in asked(synthetic).items():
        name = file.split(".")[0]
        args = [a for k, v in params.items() for a in ("-p", f"{k}={v}")]
        done = subprocess.run(
            [*benchkg, "query", name, *args, "--limit", "0", "--format", "sparql-json", "--data", str(data)],
            capture_output=True,
        )
        (out / f"{file}.json").write_bytes(done.stdout)
        (out / f"{file}.notes").write_bytes(done.stderr + f"exit {done.returncode}\n".encode())
        print(f"{file}: {len(done.stdout):,} bytes", file=sys.stderr)


def compare(after: Path, before: Path) -> int:
    """Name every file of ``before`` that ``after`` differs in; 1 if rows differ, else 0."""
    rows_differ = 0
    for old in sorted(before.iterdir()):
        new = after / old.name
        if not new.exists() or new.read_bytes() != old.read_bytes():
            print(f"differs: {old.name}")
            rows_differ |= old.suffix == ".json"
    print("rows: " + ("DIFFERENT" if rows_differ else "the same, byte for byte"))
    return int(rows_differ)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=0, help="generated claims (0: the repository's data/)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--compare", type=Path, help="a folder an earlier run wrote")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="benchkg-rows-") as tmp:
        if args.size:
            from synthetic import generate

            data = generate(Path(tmp), args.size, base_data=ROOT / "data")
        else:
            data = Path(tmp) / "data"
            subprocess.run(["cp", "-r", str(ROOT / "data"), str(data)], check=True)
        write(data, args.out, synthetic=bool(args.size))
    if args.compare:
        sys.exit(compare(args.out, args.compare))


if __name__ == "__main__":
    main()
