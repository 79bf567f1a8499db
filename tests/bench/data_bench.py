"""`make bench-data`: build times on a copy of the real data/ (2,909 claims): cold, no-op, one
changed claim, and the share of the finding caveats (the shapes a gotcha cites, re-run on every
build that changes a claim)."""

import shutil
import tempfile
import time
from pathlib import Path

if __name__ == "__main__":
    from pyoxigraph import NamedNode

    from benchkg.graph.derived import caveats_graph, finding_caveats
    from benchkg.graph.store import build_graph
    from benchkg.kernel.vocab import BK, DEFAULT_BASE

    d = Path(tempfile.mkdtemp()) / "data"
    shutil.copytree("data", d, ignore=shutil.ignore_patterns(".benchkg"))
    t = time.time()
    r = build_graph(d)
    print("cold build", round(time.time() - t, 2))
    st = r.store
    del r
    t = time.time()
    finding_caveats(st, caveats_graph(DEFAULT_BASE), NamedNode(BK + "caveat"))
    print("finding caveats", round(time.time() - t, 2))
    del st
    t = time.time()
    build_graph(d)
    print("no-op build", round(time.time() - t, 2))
    p = d / "benchmarks" / "mlperf-6.0-0010-llama2-70b-99-server.json"
    p.write_text(p.read_text().replace('"value": 114504', '"value": 114505'))
    t = time.time()
    build_graph(d)
    print("one changed claim", round(time.time() - t, 2))
