"""`make bench-serve`: what answering each query in a process of its own costs on the real data/:
the median latency of a small query and of the leaderboard through `benchkg serve` against the same
queries run in-process, and how soon a cartesian query is stopped at a 5 s limit while a small one
is answered beside it. ``--smoke``: three runs of each instead of twenty (that it runs)."""

import argparse
import shutil
import statistics
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

SMALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s a <https://w3id.org/benchkg/ontology#Benchmark> }"
CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def timed(fn, n=20):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def ask(url, query):
    try:
        return urllib.request.urlopen(url + "?query=" + urllib.parse.quote(query), timeout=120).status
    except urllib.error.HTTPError as e:
        return e.code


ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    from benchkg.answers.queries import bound_text
    from benchkg.answers.savedquery import find_query
    from benchkg.graph.backend import backend_of
    from benchkg.graph.opening import close_store, open_store, store_dir_for
    from benchkg.graph.store import build_graph
    from benchkg.publish.serve import Limits, make_server

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="three runs of each query instead of twenty")
    n = 3 if parser.parse_args().smoke else 20
    d = Path(tempfile.mkdtemp()) / "data"
    shutil.copytree(ROOT / "data", d, ignore=shutil.ignore_patterns(".benchkg"))
    build_graph(d)
    store = open_store(store_dir_for(d))
    # the text `benchkg query` sends: its unit=auto default is settled on the store
    leaderboard = bound_text(
        find_query("leaderboard"), {"model": "llama2-70b", "scenario": "server"}, select=backend_of(store).select
    )
    for name, q in (("small", SMALL), ("leaderboard", leaderboard)):
        ms = timed(lambda: list(store.query(q, use_default_graph_as_union=True)), n) * 1000
        print(f"in-process {name}: {ms:.0f} ms")
    store = None  # (the only reference: the store closes before serve opens it)
    close_store(store_dir_for(d))
    server = make_server(store_dir_for(d), port=0, limits=Limits(timeout=5))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/query"
    ask(url, SMALL)  # the fork server starts
    for name, q in (("small", SMALL), ("leaderboard", leaderboard)):
        print(f"serve {name}: {timed(lambda: ask(url, q), n) * 1000:.0f} ms")
    t = time.perf_counter()
    out = {}
    slow = threading.Thread(target=lambda: out.update(status=ask(url, CARTESIAN)))
    slow.start()
    time.sleep(1)
    beside = timed(lambda: ask(url, SMALL), min(n, 5))
    slow.join()
    print(
        f"cartesian stopped: HTTP {out['status']} after {time.perf_counter() - t:.1f} s (limit 5 s); "
        f"a small query beside it: {beside * 1000:.0f} ms"
    )
    server.shutdown()
    shutil.rmtree(d.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
