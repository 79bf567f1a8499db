"""`make bench-data`: build times on a copy of the real data/ (2,909 claims): cold, no-op, one
changed claim, and the share of the finding caveats (the shapes a gotcha cites, re-run on every
build that changes a claim). ``--smoke`` is the same run (it takes seconds already)."""

import argparse
import shutil
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the claim the one-change build edits, and the edit
CHANGED = ("benchmarks/mlperf-6.0-0010-llama2-70b-99-server.json", '"value": 114504', '"value": 114505')


def main() -> None:
    from pyoxigraph import NamedNode

    from benchkg.graph.derived import caveats_graph, finding_caveats
    from benchkg.graph.store import build_graph
    from benchkg.kernel.vocab import BK, DEFAULT_BASE

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="the same run (seconds already)")
    parser.parse_args()
    d = Path(tempfile.mkdtemp()) / "data"
    try:
        shutil.copytree(ROOT / "data", d, ignore=shutil.ignore_patterns(".benchkg"))
        t = time.time()
        r = build_graph(d)
        print("cold build", round(time.time() - t, 2))
        st = r.store
        del r
        t = time.time()
        finding_caveats(st, caveats_graph(DEFAULT_BASE), NamedNode(BK + "caveat"))  # (every claim)
        print("finding caveats", round(time.time() - t, 2))
        del st
        t = time.time()
        build_graph(d)
        print("no-op build", round(time.time() - t, 2))
        path, before, after = CHANGED
        p = d / path
        text = p.read_text()
        if before not in text:
            raise SystemExit(f"{path} no longer holds {before}: name another change in CHANGED")
        p.write_text(text.replace(before, after))
        t = time.time()
        changed = build_graph(d).changed
        print("one changed claim", round(time.time() - t, 2), f"({len(changed)} record rebuilt)")
    finally:
        shutil.rmtree(d.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
