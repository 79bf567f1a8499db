"""`benchkg serve` under attack: a cartesian query is stopped at the time limit while another client
is answered within a second, and the server stays up; a client that leaves takes its query with it;
an answer over the size limit is refused; SERVICE, foreign Host names and cross-origin POSTs are
refused; the CLI builds and queries while it runs; a port in use is exit 2."""
from __future__ import annotations

import http.client
import multiprocessing
import socket
import threading
import time
import urllib.parse

import pytest
from pyoxigraph import RdfFormat, parse

from benchkg.serve import Limits, make_server
from benchkg.store import build_graph, close_store, store_dir_for

from conftest import cli

CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
SMALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s a <https://w3id.org/benchkg/ontology#Benchmark> }"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    import shutil

    from conftest import DATA

    folder = tmp_path_factory.mktemp("serve") / "data"
    shutil.copytree(DATA, folder)
    build_graph(folder)
    close_store(store_dir_for(folder))
    return folder


def start(data, **limits):
    server = make_server(store_dir_for(data), port=0, limits=Limits(**limits))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def server(data):
    s = start(data, timeout=3, max_bytes=1 << 20, workers=4)
    yield s
    s.shutdown()
    s.server_close()


def request(server, query=None, *, method="GET", headers=None, path="/query", body=None):
    """(status, headers, body) of one request to ``server``."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
    url = path + ("?query=" + urllib.parse.quote(query) if query is not None and method == "GET" else "")
    if method == "POST" and query is not None:
        body = urllib.parse.urlencode({"query": query})
        headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
    conn.request(method, url, body=body, headers=headers or {})
    response = conn.getresponse()
    out = response.status, dict(response.getheaders()), response.read()
    conn.close()
    return out


def test_a_cartesian_query_is_stopped_and_others_are_answered_meanwhile(server):
    started = time.monotonic()
    slow: dict = {}
    runner = threading.Thread(target=lambda: slow.update(result=request(server, CARTESIAN)))
    runner.start()
    time.sleep(0.5)  # the cartesian query is running
    waits = []
    for _ in range(3):
        t = time.monotonic()
        status, _, body = request(server, SMALL, headers={"Accept": "text/csv"})
        waits.append(time.monotonic() - t)
        assert status == 200 and body.splitlines()[1].isdigit()
    assert runner.is_alive(), "the cartesian query ended before the others ran: nothing was tested"
    assert max(waits) < 1.0, waits
    runner.join(30)
    status, _, body = slow["result"]
    assert status == 503 and b"stopped after 3 s" in body
    assert time.monotonic() - started < 3 + 2
    time.sleep(0.2)
    assert multiprocessing.active_children() == [], "the stopped query's process still runs"
    assert request(server, SMALL)[0] == 200  # still up


def test_a_client_that_leaves_takes_its_query_with_it(data):
    server = start(data, timeout=120)
    try:
        sock = socket.create_connection(("127.0.0.1", server.server_address[1]))
        sock.sendall(f"GET /query?query={urllib.parse.quote(CARTESIAN)} HTTP/1.1\r\nHost: 127.0.0.1:"
                     f"{server.server_address[1]}\r\n\r\n".encode())
        deadline = time.monotonic() + 10
        while not multiprocessing.active_children() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert multiprocessing.active_children(), "the query never started"
        sock.close()
        deadline = time.monotonic() + 3
        while multiprocessing.active_children() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert multiprocessing.active_children() == [], "the query ran on after its client left"
    finally:
        server.shutdown()
        server.server_close()


def test_an_answer_over_the_size_limit_is_refused(server):
    status, _, body = request(server, "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }")
    assert status == 422 and b"larger than 1 MiB" in body


@pytest.mark.parametrize("query", ["SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }",
                                   "select * where { service silent <http://169.254.169.254/> { ?s ?p ?o } }"])
def test_service_is_refused(server, query):
    status, _, body = request(server, query)
    assert status == 400 and b"SERVICE is refused" in body


def test_a_foreign_host_or_origin_is_refused_and_gets_cors_for_reads(server):
    assert request(server, SMALL, headers={"Host": "evil.example"})[0] == 421
    assert request(server, SMALL, method="POST", headers={"Origin": "http://evil.example"})[0] == 403
    status, headers, _ = request(server, SMALL, headers={"Origin": "http://evil.example"})
    assert status == 200 and headers.get("Access-Control-Allow-Origin") == "*"
    port = server.server_address[1]
    assert request(server, SMALL, method="POST", headers={"Origin": f"http://127.0.0.1:{port}"})[0] == 200


def test_the_endpoint_describes_itself(server):
    status, headers, body = request(server)
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    triples = list(parse(body, format=RdfFormat.TURTLE))
    endpoint = {t.object.value for t in triples if t.predicate.value.endswith("#endpoint")}
    assert endpoint == {f"http://127.0.0.1:{server.server_address[1]}/query"}


def test_the_cli_builds_and_queries_while_serve_runs(server, data):
    built = cli("build", "--data", data)
    assert built.exit_code == 0, built.stderr
    asked = cli("query", "leaderboard", "-p", "model=llama2-70b", "-p", "scenario=server", "--data", data)
    assert asked.exit_code == 0 and "gb200" in asked.stdout
    close_store(store_dir_for(data))
    assert request(server, SMALL)[0] == 200


def test_a_port_in_use_is_exit_2(server, data):
    result = cli("serve", "--port", str(server.server_address[1]), "--data", data)
    assert result.exit_code == 2 and "choose one with --port" in result.stderr
    close_store(store_dir_for(data))


def test_a_query_file_with_service_is_refused_unless_allowed(data, tmp_path):
    """The machine would fetch the URL: refused (exit 2) before anything runs; allowed, it runs (the
    loopback port 9 refuses, and SILENT turns that into no rows)."""
    rq = tmp_path / "federated.rq"
    rq.write_text("SELECT * WHERE { SERVICE SILENT <http://127.0.0.1:9/sparql> { ?s ?p ?o } }\n")
    refused = cli("query", str(rq), "--data", data)
    assert refused.exit_code == 2 and "uses SERVICE" in refused.stderr and "--allow-service" in refused.stderr
    allowed = cli("query", str(rq), "--allow-service", "--format", "csv", "--data", data)
    assert allowed.exit_code == 0, allowed.stderr
    close_store(store_dir_for(data))
