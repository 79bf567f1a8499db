"""push and remote queries never go elsewhere and never hang: a store that redirects, stalls or drips
bytes on 127.0.0.1 gets exit 2 within the documented timeout, and no credential reaches another host."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import DATA, cli
from servers import Server, free_port

TOKEN = "s3cret-token"


class Catcher(ThreadingHTTPServer):
    """Records every request that reaches it (where a redirect points)."""

    daemon_threads = True

    def __init__(self):
        self.seen: list[dict] = []
        catcher = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _record(self):
                catcher.seen.append({"method": self.command, "headers": dict(self.headers)})
                self.send_response(204)
                self.end_headers()

            do_GET = do_POST = do_PUT = do_DELETE = _record

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/store"


def redirector(to: str, code: int = 302) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _redirect(self):
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            self.send_response(code)
            self.send_header("Location", to)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = do_PUT = do_DELETE = _redirect

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def raw_server(behaviour) -> tuple[int, threading.Event]:
    """A TCP server on 127.0.0.1 that runs ``behaviour(conn, stop)`` for each connection."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            threading.Thread(target=behaviour, args=(conn, stop), daemon=True).start()
        listener.close()

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1], stop


def stall(conn, stop):
    """Read the request, then say nothing."""
    stop.wait()
    conn.close()


def drip(conn, stop):
    """Answer one byte every 0.2 s, forever: never silent long enough for the idle limit."""
    conn.recv(65536)
    reply = b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+json\r\nContent-Length: 100000\r\n\r\n"
    reply += b" " * 100000
    for byte in reply:
        if stop.is_set():
            break
        try:
            conn.send(bytes([byte]))
        except OSError:
            break
        time.sleep(0.2)
    conn.close()


def timed_push(endpoint: str, *extra: str, timeout: float = 2.0):
    started = time.monotonic()
    result = cli(
        "push", "--endpoint", endpoint, "--timeout", str(timeout), *extra, "--data", DATA, env={"BENCHKG_TOKEN": TOKEN}
    )
    return result, time.monotonic() - started


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirecting_query_endpoint_is_an_error_and_the_token_stays_home(code):
    catcher = Catcher()
    bouncer = redirector(catcher.url, code)
    result, _ = timed_push(f"http://127.0.0.1:{bouncer.server_address[1]}/query")
    assert result.exit_code == 2, result.output
    assert "redirect" in result.stderr and catcher.url in result.stderr and "does not follow" in result.stderr
    assert "pushed to" not in result.stdout
    assert catcher.seen == [], "a request reached the redirect's target"
    bouncer.shutdown(), catcher.shutdown()


def test_a_push_whose_graph_store_redirects_is_not_reported_as_pushed(tmp_path):
    """The query endpoint is a real Oxigraph server; its Graph Store URL bounces elsewhere."""
    server = Server(tmp_path / "oxigraph").start()
    catcher = Catcher()
    bouncer = redirector(catcher.url)
    try:
        result, _ = timed_push(server.query, "--gsp", f"http://127.0.0.1:{bouncer.server_address[1]}/store", timeout=10)
        assert result.exit_code == 2, result.output
        assert "pushed to" not in result.stdout and "redirect" in result.stderr
        assert not any("Authorization" in r["headers"] for r in catcher.seen) and catcher.seen == []
    finally:
        bouncer.shutdown(), catcher.shutdown(), server.kill()


@pytest.mark.slow
@pytest.mark.parametrize("behaviour", [stall, drip], ids=["stalls", "drips"])
def test_a_store_that_stalls_or_drips_is_given_up_within_the_timeout(behaviour):
    port, stop = raw_server(behaviour)
    try:
        result, took = timed_push(f"http://127.0.0.1:{port}/query", timeout=2.0)
        assert result.exit_code == 2, result.output
        assert "did not answer in time" in result.stderr and "--timeout" in result.stderr
        assert took < 2.0 + 1.5, f"took {took:.1f} s for a 2 s timeout"
    finally:
        stop.set()


def test_a_remote_query_that_stalls_is_given_up_within_the_timeout():
    port, stop = raw_server(stall)
    try:
        started = time.monotonic()
        result = cli(
            "query",
            "submitters-per-round",
            "--endpoint",
            f"http://127.0.0.1:{port}/query",
            "--timeout",
            "1.5",
            "--data",
            DATA,
        )
        took = time.monotonic() - started
        assert result.exit_code == 2 and "did not answer in time" in result.stderr
        assert took < 1.5 + 1.5
    finally:
        stop.set()


def test_nothing_listening_is_exit_2_after_retries():
    result, took = timed_push(f"http://127.0.0.1:{free_port()}/query")
    assert result.exit_code == 2 and "cannot reach" in result.stderr and TOKEN not in result.output
    assert took < 10
