"""Remote stores, against a real Oxigraph server on 127.0.0.1 (the `oxigraph` package from PyPI):
push, query, serve; a server killed mid-push; refused credentials; an unreachable endpoint."""

from __future__ import annotations

import shutil
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from pyoxigraph import Store

from benchkg.answers.queries import run_query
from benchkg.answers.results import to_csv
from benchkg.graph.backend import Endpoint
from benchkg.graph.opening import close_store, store_dir_for
from benchkg.graph.remote import graph_payloads, push_graph, run_remote_sparql, split_ntriples
from benchkg.graph.store import build_graph
from benchkg.kernel.errors import StoreError
from benchkg.publish.serve import make_server
from conftest import DATA, FIXTURES, cli
from servers import Server, free_port
from test_query_graph import CASES, normalise


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "oxigraph").start()
    yield s
    s.kill()


@pytest.fixture(scope="module")
def graph_data(tmp_path_factory):
    data = tmp_path_factory.mktemp("remote") / "data"
    shutil.copytree(DATA, data)
    for path in (FIXTURES / "query-graph").glob("*/*.json"):
        shutil.copyfile(path, data / path.parent.name / path.name)
    return data


def remote_quads(endpoint: str) -> set[tuple[str, str, str, str]]:
    rows = run_remote_sparql(endpoint, "SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }").rows
    return {
        (str(r["g"]), str(r["s"]), str(r["p"]), str(r["o"]))
        for r in rows  # not a store's own graphs
        if r["g"].value.startswith("https://w3id.org/benchkg/") and not r["g"].value.endswith("/graph/push-manifest")
    }


def local_quads(store) -> set[tuple[str, str, str, str]]:
    out = set()
    from pyoxigraph import RdfFormat, parse

    for graph, nt in graph_payloads(store).items():
        for t in parse(nt, format=RdfFormat.N_TRIPLES):
            out.add((f"<{graph}>", str(t.subject), str(t.predicate), str(t.object)))
    return out


def test_every_saved_query_answers_the_same_embedded_and_remote(server, graph_data):
    store = build_graph(graph_data, persist=False).store
    push_graph(store, server.query)
    for case in CASES:
        embedded = to_csv(run_query(store, case["query"], case["params"]))
        remote = to_csv(run_query(Endpoint(server.query), case["query"], case["params"]))
        assert normalise(remote) == normalise(embedded), case["query"]


@pytest.mark.slow
def test_push_twice_sends_nothing_the_second_time(server, graph_data):
    store = build_graph(graph_data, persist=False).store
    first = push_graph(store, server.query)
    payloads = graph_payloads(store)
    parts = sum(len(split_ntriples(p)) for p in payloads.values())  # a graph over the request limit goes in parts
    assert len(first.sent) == len(payloads) and parts > len(payloads)
    manifest = first.requests - parts  # the push manifest, written twice (pending, then done), in a few parts
    assert 2 <= manifest <= 6, first.requests
    state = remote_quads(server.query)
    assert state == local_quads(store)
    second = push_graph(store, server.query)
    assert (second.sent, second.deleted, second.requests) == ([], [], 0)
    assert remote_quads(server.query) == state


def test_deleted_record_graph_is_removed(server, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    push_graph(build_graph(data, persist=False).store, server.query)
    (data / "formats" / "fp8.json").unlink()
    store = build_graph(data, persist=False).store
    result = push_graph(store, server.query)
    assert result.deleted == ["https://w3id.org/benchkg/id/formats/fp8"]
    assert remote_quads(server.query) == local_quads(store)


@pytest.mark.slow
def test_server_killed_mid_push_then_push_again_converges(tmp_path, graph_data):
    server = Server(tmp_path / "oxigraph").start()
    try:
        store = build_graph(graph_data, persist=False).store

        def kill_at_ten(done, total):
            if done == 10:
                server.kill()

        with pytest.raises(StoreError, match="cannot reach"):
            push_graph(store, server.query, progress=kill_at_ten)
        server.start()
        partial = remote_quads(server.query)
        assert partial and partial != local_quads(store)
        push_graph(store, server.query)
        assert remote_quads(server.query) == local_quads(store)
    finally:
        server.kill()


def test_push_with_sparql_update(server, graph_data):
    store = build_graph(graph_data, persist=False).store
    result = push_graph(store, server.query, update_endpoint=server.query.replace("/query", "/update"))
    remote = remote_quads(server.query)
    assert result.sent and remote == local_quads(store)
    # the comparison facts the build derived travel with the records (issue 41)
    derived = ("ranOn", "perAcceleratorValue", "lowerIsBetter", "tier", "superlative")
    sent = {p for _, _, p, _ in remote}
    assert all(f"<https://w3id.org/benchkg/ontology#{name}>" in sent for name in derived)


def test_cli_push_and_remote_query(server, graph_data):
    result = cli("push", "--endpoint", server.query, "--data", graph_data)
    assert result.exit_code == 0 and "graphs sent" in result.stdout
    again = cli("push", "--endpoint", server.query, "--data", graph_data)
    assert "0 graphs sent, 0 deleted" in again.stdout
    # (and the answers that read the derived facts: superlatives, the one-pass pairs)
    for name in ("leaderboard", "superlatives", "vendor-vs-audited", "open-vs-closed", "capped-vs-uncapped"):
        remote = cli("query", name, "--format", "csv", "--endpoint", server.query, "--data", graph_data)
        local = cli("query", name, "--format", "csv", "--data", graph_data)
        assert remote.exit_code == 0 and normalise(remote.stdout) == normalise(local.stdout), name


@pytest.mark.slow
def test_unreachable_endpoint_exits_2(graph_data):
    url = f"http://127.0.0.1:{free_port()}/query"
    for args in (["push", "--endpoint", url], ["query", "leaderboard", "--endpoint", url]):
        result = cli(*args, "--data", graph_data)
        assert result.exit_code == 2
        assert f"cannot reach {url}" in result.stderr and "Is the store running" in result.stderr


def test_missing_endpoint_path_exits_2(server, graph_data):
    result = cli("query", "leaderboard", "--endpoint", server.query.replace("/query", "/nope"), "--data", graph_data)
    assert result.exit_code == 2 and "HTTP 404" in result.stderr


class Refuse(BaseHTTPRequestHandler):
    """A stub that answers every request 401 (the one case a real server is not used for)."""

    def _refuse(self):
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="x"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = _refuse

    def log_message(self, *args):
        pass


def test_401_names_the_variables_and_never_prints_the_secret(graph_data):
    stub = HTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{stub.server_address[1]}/query"
        env = {"BENCHKG_USER": "analyst", "BENCHKG_PASSWORD": "s3cret-pw"}
        for args in (["push", "--endpoint", url], ["query", "leaderboard", "--endpoint", url]):
            result = cli(*args, "--data", graph_data, env=env)
            assert result.exit_code == 2
            assert (
                "BENCHKG_USER" in result.stderr
                and "BENCHKG_PASSWORD" in result.stderr
                and "BENCHKG_TOKEN" in result.stderr
            )
            assert "s3cret-pw" not in result.stdout + result.stderr
    finally:
        stub.shutdown()


@pytest.mark.slow
def test_serve_answers_the_saved_queries_read_only(graph_data):
    build_graph(graph_data)
    close_store(store_dir_for(graph_data))
    store = Store.read_only(str(store_dir_for(graph_data)))  # what serve's workers open
    server = make_server(store_dir_for(graph_data), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/query"
        for case in CASES:
            remote = to_csv(run_query(Endpoint(url), case["query"], case["params"]))
            assert normalise(remote) == normalise(to_csv(run_query(store, case["query"], case["params"])))
        page = urllib.request.urlopen(url.replace("/query", "/")).read().decode()
        assert "<form" in page and "textarea" in page
        request = urllib.request.Request(url.replace("/query", "/update"), data=b"update=DROP ALL", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code == 403
        html = (
            urllib.request.urlopen(
                url
                + "?format=html&query="
                + urllib.parse.quote(
                    "SELECT (COUNT(*) AS ?n) WHERE { ?s a <https://w3id.org/benchkg/ontology#Benchmark> }"
                )
            )
            .read()
            .decode()
        )
        n = sum(1 for _ in graph_data.glob("benchmarks/*.json"))
        assert f"<td>{n}</td>" in html
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.shutdown()


def test_store_rejecting_the_data_exits_2_with_its_answer(server, graph_data):
    # an update sent to the query endpoint: the store answers 4xx and says why
    result = cli("push", "--endpoint", server.query, "--update-endpoint", server.query, "--data", graph_data)
    assert result.exit_code == 2
    assert f"{server.query} answered HTTP 4" in result.stderr


def test_compare_and_show_answer_the_same_from_an_endpoint(server, graph_data, tmp_path):
    """Issue 34: compare and show take the one backend too. Against an Oxigraph server holding the
    pushed graph they say what they say embedded; show reads the record from --data and says its
    findings were not checked there, instead of "none". A data folder that was never built shows
    the same: nothing is built locally for an endpoint."""
    assert cli("push", "--endpoint", server.query, "--data", graph_data).exit_code == 0
    a, b = (
        "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server",
        "bench-mlperf-endpoints-v0-7-coreweave-gb200-nvl72-deepseek-r1",
    )
    local = cli("compare", a, b, "--data", graph_data)
    remote = cli("compare", a, b, "--endpoint", server.query, "--data", graph_data)
    assert local.exit_code == remote.exit_code == 0 and remote.stdout == local.stdout, remote.stderr
    unbuilt = tmp_path / "unbuilt" / "data"
    shutil.copytree(graph_data, unbuilt)
    for record in ("nvidia-gb200", a):
        local = cli("show", record, "--data", graph_data)
        remote = cli("show", record, "--endpoint", server.query, "--data", unbuilt)
        assert local.exit_code == remote.exit_code == 0, remote.stderr
        mine, theirs = local.stdout.split("\nfindings:")[0], remote.stdout.split("\nfindings:")[0]
        assert theirs == mine.replace(str(graph_data), str(unbuilt))
        assert "not checked here" in remote.stdout.split("\nfindings:")[1]
    assert not (unbuilt.parent / ".benchkg").exists()


#: bk:comparisonValues as another tool might write it: not JSON, a list, values not lists of text
FOREIGN_COMPARISON_VALUES = (
    "scenario=server",
    "[1, 2]",
    '{"scenario": [["server"]]}',
    '{"scenario": "server"}',
    "null",
)


@pytest.mark.parametrize("foreign", FOREIGN_COMPARISON_VALUES)
def test_a_foreign_stores_comparison_values_are_read_as_absent(server, graph_data, foreign):
    """Issue 64, round 5: a store another tool wrote holds a ``bk:comparisonValues`` that is not benchkg's
    JSON (exit 3 before: JSONDecodeError, "unhashable type: 'list'"; a text read as its letters). The
    value is taken as absent, so the claim's dimensions are read from its triples: compare and a
    query's caveats say what they say from benchkg's own push."""
    assert cli("push", "--endpoint", server.query, "--data", graph_data).exit_code == 0
    a, b = (
        "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server",
        "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-offline",
    )
    asked = [
        ["compare", a, b],
        ["results", "--where", f"claim=in:{a},{b}", "--columns", "claim"],
    ]
    before = [cli(*args, "--endpoint", server.query, "--data", graph_data) for args in asked]
    assert all(r.exit_code == 0 for r in before) and "scenarios-load-systems-differently" in before[0].stdout
    text = foreign.replace("\\", "\\\\").replace('"', '\\"')
    update = f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
    DELETE {{ GRAPH ?g {{ ?c bk:comparisonValues ?v }} }} INSERT {{ GRAPH ?g {{ ?c bk:comparisonValues "{text}" }} }}
    WHERE {{ GRAPH ?g {{ ?c bk:comparisonValues ?v }} }}"""
    body = urllib.parse.urlencode({"update": update}).encode()
    urllib.request.urlopen(urllib.request.Request(server.update, data=body, method="POST"), timeout=30).close()
    for args, said in zip(asked, before):
        now = cli(*args, "--endpoint", server.query, "--data", graph_data)
        assert now.exit_code == 0, now.output
        assert now.stdout == said.stdout
