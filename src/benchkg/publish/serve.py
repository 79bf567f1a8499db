"""A local, read-only SPARQL 1.1 endpoint over the embedded store, with a query page.

GET or POST ``/query`` (SPARQL 1.1 Protocol: ``query=`` in the URL or a form, or an
``application/sparql-query`` body); answers in JSON, XML, CSV or TSV by the Accept header, and
RDF for CONSTRUCT/DESCRIBE; ``/query`` without a query answers the SPARQL 1.1 Service Description.
Updates are refused. Queries see the union of the named graphs, as the saved queries expect.

One query cannot take the endpoint down: each runs in a process of its own, forked from a clean
fork server, which opens the store read-only (so ``serve`` holds no lock the CLI needs) and is killed
when the query passes its time limit, when its answer passes the size limit, or when the client
goes away. Queries run side by side, up to ``workers`` at once (no global lock). ``SERVICE`` (which
would make this machine fetch any URL) is refused unless allowed. Requests must name this server in
``Host`` (a page on another site cannot reach it through DNS rebinding); POSTs from another origin
are refused; read-only GETs carry ``Access-Control-Allow-Origin: *``. Bound to 127.0.0.1 unless told
otherwise.

Long because the HTTP server, the worker processes that run the queries and the limits between them
(deadline, memory, answer size, Host names) are read together to see that none can be bypassed.
"""

from __future__ import annotations

import errno
import html
import io
import multiprocessing
import os
import re
import select
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing import forkserver
from pathlib import Path
from typing import IO, Any, cast

from pyoxigraph import QueryBoolean, QueryResultsFormat, QuerySolutions, RdfFormat, serialize

from benchkg.graph.opening import readable_store
from benchkg.kernel.errors import QueryError, UsageError
from benchkg.kernel.lifeline import die_with_parent
from benchkg.kernel.sparqltext import check_depth, is_update, names_its_dataset, uses_service

#: the limits, documented in the README and `benchkg serve --help`
TIMEOUT_S = 30.0
MAX_RESULT_BYTES = 64 * 1024 * 1024
WORKERS = 4
#: the largest query body, and how long a client may take to send its request
MAX_BODY = 1_000_000
REQUEST_TIMEOUT_S = 30.0
#: the memory one query's worker may hold (resident); past it the query is stopped
MAX_MEMORY_BYTES = 2 * 1024**3
#: the time a client has to send its whole request (line, headers and body), however it trickles
REQUEST_DEADLINE_S = 10.0
#: what an update is told, however it is sent
READ_ONLY = "this endpoint is read-only: it answers queries, not updates"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>benchkg SPARQL</title>
<style>body{{font:15px system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}
textarea{{width:100%;height:14em;font:13px monospace}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px;font-size:13px}}</style></head>
<body><h1>benchkg SPARQL endpoint</h1>
<p>Read-only. Queries see the union of all record graphs. Endpoint: <code>/query</code>.</p>
<form method="get" action="/query"><label for="q">Query</label>
<textarea id="q" name="query">{query}</textarea>
<input type="hidden" name="format" value="html"><button type="submit">Run</button></form>
{result}</body></html>"""
EXAMPLE = """PREFIX bk: <https://w3id.org/benchkg/ontology#>
PREFIX qudt: <http://qudt.org/schema/qudt/>
SELECT ?claim ?value ?unit WHERE {
  ?claim a bk:Benchmark ; bk:result ?r . ?r qudt:value ?value ; qudt:hasUnit ?unit .
} ORDER BY DESC(?value) LIMIT 20"""
RESULT_FORMATS = (
    ("application/sparql-results+json", "JSON"),
    ("application/sparql-results+xml", "XML"),
    ("text/csv", "CSV"),
    ("text/tab-separated-values", "TSV"),
)


@dataclass
class Limits:
    """What one query may use: seconds, bytes of answer, queries at once, SERVICE or not, and the
    host names (beside loopback's) the server answers to."""

    timeout: float = TIMEOUT_S
    max_bytes: int = MAX_RESULT_BYTES
    workers: int = WORKERS
    allow_service: bool = False
    hosts: tuple[str, ...] = field(default_factory=tuple)
    max_memory: int = MAX_MEMORY_BYTES
    request_deadline: float = REQUEST_DEADLINE_S  # the time a client has to send its whole request

    def __post_init__(self):
        """:raises UsageError: for a limit that would refuse every query (0, negative, not a number)."""
        number = (int, float)
        if (
            isinstance(self.timeout, bool)
            or not isinstance(self.timeout, number)
            or not 0 < self.timeout < float("inf")
        ):
            raise UsageError(f"--timeout {self.timeout!r}: the seconds a query may run, more than 0 (e.g. 30)")
        if isinstance(self.max_bytes, bool) or not isinstance(self.max_bytes, int) or self.max_bytes < 1:
            raise UsageError(
                f"--max-result-mb: the largest answer must be more than 0 MiB (e.g. 64), not {self.max_bytes!r} bytes"
            )
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise UsageError(f"--workers {self.workers!r}: queries answered at once, 1 or more (e.g. 4)")
        deadline = self.request_deadline
        if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not 0 < deadline < float("inf"):
            raise UsageError(f"request_deadline {deadline!r}: the seconds a request may take to arrive, more than 0")
        if isinstance(self.max_memory, bool) or not isinstance(self.max_memory, int) or self.max_memory < 2**26:
            raise UsageError(
                f"--max-memory-mb: a query needs 64 MiB at least (its worker alone takes ~50), "
                f"not {self.max_memory!r} bytes"
            )


def _resident(pid: int | None) -> int:
    """The bytes of memory process ``pid`` holds now (0 when it is gone, or unknown)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _TooLarge(Exception):
    pass


class _Capped(io.RawIOBase):
    """A bytes buffer that refuses to grow past ``limit``: serialising a huge answer stops early."""

    def __init__(self, limit: int):
        self.buffer, self.limit = bytearray(), limit

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        if len(self.buffer) + len(data) > self.limit:
            raise _TooLarge()
        self.buffer += data
        return len(data)


def _answer(
    conn,
    store_path: str,
    query: str,
    accept: str,
    fmt: str,
    max_bytes: int,
    give_up_at: float,
    allow_service: bool = False,
    forkserver_pid: int | None = None,
) -> None:
    """In a worker process: run ``query`` on the last complete build of the store (opened read-only),
    send (status, type, body). While a build writes, that is the copy it made before its first
    change (:func:`benchkg.graph.store.readable_store`); when that copy goes away under the query (the
    build finished) the query runs again on the store. With no complete build at all (a first
    build, or one cut off) it waits until ``give_up_at`` (time.time()) and answers 503."""

    # killing serve (even with SIGKILL) leaves no query running: the fork server dies with serve, and
    # this worker with the fork server; one whose fork server died before it got here ends at once
    die_with_parent(forkserver_pid)
    try:
        check_depth(query, "the query")
    except QueryError as e:
        conn.send((400, "text/plain; charset=utf-8", str(e).encode()))
        return
    if not allow_service and uses_service(query):  # parsed here: a query that is slow to parse is killed too
        conn.send(
            (
                400,
                "text/plain; charset=utf-8",
                b"SERVICE is refused: it would make this machine fetch "
                b"another URL (benchkg serve --allow-service allows it)",
            )
        )
        return
    error = (
        "no complete build of the store to answer from: a build is writing it (a first build, or one after "
        "an interrupted build)"
    )
    while time.time() <= give_up_at:
        try:
            conn.send(_evaluate(Path(store_path), query, accept, fmt, max_bytes))
            return
        except SyntaxError as e:
            conn.send((400, "text/plain; charset=utf-8", f"query does not parse: {e}".encode()))
            return
        except _TooLarge:
            conn.send(
                (
                    422,
                    "text/plain; charset=utf-8",
                    f"the answer is larger than {max_bytes / 2**20:,.0f} MiB (benchkg serve --max-result-mb); "
                    "ask for less: add a LIMIT or fewer columns".encode(),
                )
            )
            return
        except (_NoStore, OSError, RuntimeError) as e:  # no complete build yet, or its copy went away
            error = str(e) or error
            time.sleep(0.05)
    conn.send((503, "text/plain; charset=utf-8", f"the store cannot be read now ({error}); try again".encode()))


class _NoStore(Exception):
    pass


def _evaluate(store_path: Path, query: str, accept: str, fmt: str, max_bytes: int) -> tuple[int, str, bytes]:
    """(200, media type, body) of ``query`` on the last complete build of the store."""

    store = readable_store(store_path)
    if store is None:
        raise _NoStore()
    result = store.query(query, use_default_graph_as_union=not names_its_dataset(query))
    out = _Capped(max_bytes)
    if isinstance(result, (QuerySolutions, QueryBoolean)):
        if fmt == "html":
            out.write(_page(query, result).encode())
            mime = "text/html; charset=utf-8"
        else:
            mime, name = next(((m, f) for m, f in RESULT_FORMATS if m in accept), RESULT_FORMATS[0])
            result.serialize(output=cast(IO[bytes], out), format=getattr(QueryResultsFormat, name))
    else:
        rdf = RdfFormat.TURTLE if "turtle" in accept else RdfFormat.N_TRIPLES
        serialize(result, output=cast(IO[bytes], out), format=rdf)
        mime = rdf.media_type
    return 200, mime, bytes(out.buffer)


def _page(query: str, result) -> str:
    if isinstance(result, QueryBoolean):
        table = f"<p>{bool(result)}</p>"
    else:
        names = [v.value for v in result.variables]
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(s[n].value) if s[n] is not None else ''}</td>" for n in names) + "</tr>"
            for s in result
        )
        table = "<table><tr>" + "".join(f"<th>{html.escape(n)}</th>" for n in names) + f"</tr>{rows}</table>"
    return PAGE.format(query=html.escape(query), result=table)


def service_description(endpoint: str) -> bytes:
    """The SPARQL 1.1 Service Description of the endpoint, as Turtle.

    >>> b"sd:endpoint <http://127.0.0.1:7878/query>" in service_description("http://127.0.0.1:7878/query")
    True
    """
    formats = " ".join(
        f"<http://www.w3.org/ns/formats/{f}>"
        for f in (
            "SPARQL_Results_JSON",
            "SPARQL_Results_XML",
            "SPARQL_Results_CSV",
            "SPARQL_Results_TSV",
            "N-Triples",
            "Turtle",
        )
    )
    return (
        f"@prefix sd: <http://www.w3.org/ns/sparql-service-description#> .\n"
        f"[] a sd:Service ;\n    sd:endpoint <{endpoint}> ;\n    sd:supportedLanguage sd:SPARQL11Query ;\n"
        f"    sd:feature sd:UnionDefaultGraph ;\n    sd:resultFormat {', '.join(formats.split())} .\n"
    ).encode()


class Handler(BaseHTTPRequestHandler):
    """The SPARQL protocol over HTTP, read-only; :func:`make_handler` binds it to one store and its limits."""

    store_path: Path
    limits: Limits
    context: Any  # the forkserver multiprocessing context
    slots: threading.BoundedSemaphore  # one per worker
    deadlines: _Deadlines  # the whole request is in within REQUEST_DEADLINE_S, or the connection goes

    def setup(self):
        super().setup()
        self.deadlines.start(self.connection)

    def parse_request(self) -> bool:
        if self.deadlines.missed(self.connection):  # not all in by the deadline: nothing is answered
            self.close_connection = True
            return False
        return super().parse_request()

    def finish(self):
        self.deadlines.forget(self.connection)
        super().finish()

    server_version = "benchkg"
    timeout = REQUEST_TIMEOUT_S  # a client that sends its request slowly (or never) is let go

    def log_message(self, fmt, *args):  # quiet: one line per request is noise here
        pass

    def _send(self, status: int, body: bytes, ctype: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str) -> None:
        self._send(status, message.encode(), "text/plain; charset=utf-8")

    def _names(self) -> set[str]:
        address: Any = self.server.server_address  # (host, port): an IP server's
        port = address[1]
        hosts = {"127.0.0.1", "localhost", "[::1]", address[0], *self.limits.hosts}
        return {f"{h}:{port}" for h in hosts} | set(self.limits.hosts)

    def _checked(self, post: bool) -> bool:
        """Host names this server; a POST comes from no other origin. Answers and False if not."""
        host = self.headers.get("Host")
        if host is not None and host.lower() not in self._names():
            self._error(
                HTTPStatus.MISDIRECTED_REQUEST,
                f"this server does not answer for {host!r} (benchkg serve --allow-host NAME to add a name)",
            )
            return False
        origin = self.headers.get("Origin")
        if post and origin and urllib.parse.urlsplit(origin).netloc.lower() not in self._names():
            self._error(HTTPStatus.FORBIDDEN, f"POST from {origin} refused: use GET (allowed from any origin)")
            return False
        return True

    def do_OPTIONS(self):  # CORS preflight: read-only GETs only
        if self._checked(False):
            self._send(
                204,
                b"",
                "text/plain",
                {
                    "Access-Control-Allow-Origin": "*",
                    "Access-Control-Allow-Methods": "GET",
                    "Access-Control-Allow-Headers": "Accept",
                },
            )

    def do_GET(self):
        if not self._checked(False):
            return
        url = urllib.parse.urlsplit(self.path)
        params = urllib.parse.parse_qs(url.query)
        if url.path in ("/", "/index.html"):
            return self._send(
                200, PAGE.format(query=html.escape(EXAMPLE), result="").encode(), "text/html; charset=utf-8"
            )
        if url.path != "/query":
            return self._error(HTTPStatus.NOT_FOUND, "not found: the SPARQL endpoint is /query")
        if "query" not in params:
            endpoint = f"http://{self.headers.get('Host') or '127.0.0.1'}/query"
            return self._send(
                200, service_description(endpoint), "text/turtle; charset=utf-8", {"Access-Control-Allow-Origin": "*"}
            )
        self._run(params["query"][0], params.get("format", [""])[0], {"Access-Control-Allow-Origin": "*"})

    def do_POST(self):
        if not self._checked(True):
            return
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/update":
            return self._error(HTTPStatus.FORBIDDEN, READ_ONLY)
        if url.path != "/query":
            return self._error(HTTPStatus.NOT_FOUND, "not found: the SPARQL endpoint is /query")
        raw = self._body()
        if raw is None:
            return None
        body = raw.decode("utf-8", "replace")
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if ctype == "application/sparql-query":
            return self._run(body, "")
        form = urllib.parse.parse_qs(body)
        if "update" in form or ctype == "application/sparql-update":
            return self._error(HTTPStatus.FORBIDDEN, READ_ONLY)
        if "query" not in form:
            return self._error(HTTPStatus.BAD_REQUEST, "missing query parameter")
        self._run(form["query"][0], form.get("format", [""])[0])

    def _body(self) -> bytes | None:
        """The request body, at most :data:`MAX_BODY` bytes, whether its length is given or it
        comes in chunks; None after answering 400, 411 or 413 (a negative or unreadable length,
        none at all, or too much)."""
        chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()
        length = self.headers.get("Content-Length")
        if chunked:
            return self._chunks()
        if length is None:
            self._error(HTTPStatus.LENGTH_REQUIRED, "a POST needs Content-Length (or chunked transfer encoding)")
            return None
        if not length.strip().isdigit():
            self._error(HTTPStatus.BAD_REQUEST, f"Content-Length {length[:40]!r} is not a length")
            return None
        if int(length) > MAX_BODY:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a query is at most {MAX_BODY // 10**6} MB")
            return None
        body = self.rfile.read(int(length))
        if len(body) < int(length):  # the client went, or was cut off: part of a query is not the query
            self.close_connection = True
            return None
        return body

    def _chunks(self) -> bytes | None:
        body = bytearray()
        while True:
            line = self.rfile.readline(100)
            size_text = line.split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16) if re.fullmatch(rb"[0-9A-Fa-f]{1,8}", size_text) else -1
            except ValueError:
                size = -1
            if size < 0:
                self._error(HTTPStatus.BAD_REQUEST, "a chunk of the body has no valid size")
                return None
            if size == 0:
                while self.rfile.readline(1000).strip():  # trailers, up to the blank line
                    pass
                return bytes(body)
            if len(body) + size > MAX_BODY:
                self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a query is at most {MAX_BODY // 10**6} MB")
                self.close_connection = True
                return None
            body += self.rfile.read(size)
            self.rfile.readline(3)  # the chunk's CRLF

    def _client_gone(self) -> bool:
        poller = select.poll()  # not select(): it fails on descriptors past 1023
        poller.register(self.connection, select.POLLIN | select.POLLHUP)
        if not poller.poll(0):
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _run(self, query: str, fmt: str, extra: dict | None = None) -> None:
        if self.deadlines.missed(self.connection):  # a body cut off at the deadline is not the query sent
            return None
        self.deadlines.met(self.connection)  # the request is in: the query's own limits apply now
        if is_update(query):
            return self._error(HTTPStatus.FORBIDDEN, READ_ONLY)
        deadline = time.monotonic() + self.limits.timeout
        if not self.slots.acquire(timeout=self.limits.timeout):
            return self._error(HTTPStatus.SERVICE_UNAVAILABLE, "busy: every worker is answering; try again")
        try:
            receive, send = self.context.Pipe(duplex=False)
            worker = self.context.Process(
                target=_answer,
                daemon=True,
                args=(
                    send,
                    str(self.store_path),
                    query,
                    self.headers.get("Accept") or "",
                    fmt,
                    self.limits.max_bytes,
                    time.time() + self.limits.timeout - 0.5,
                    self.limits.allow_service,
                    getattr(forkserver._forkserver, "_forkserver_pid", None),  # the worker's parent
                ),
            )
            worker.start()
            send.close()
            try:
                while not receive.poll(0.05):
                    if _resident(worker.pid) > self.limits.max_memory:
                        return self._error(
                            HTTPStatus.SERVICE_UNAVAILABLE,
                            f"the query was stopped at {self.limits.max_memory / 2**20:,.0f} MiB of memory "
                            "(benchkg serve --max-memory-mb); ask for less",
                        )
                    if time.monotonic() > deadline:
                        return self._error(
                            HTTPStatus.SERVICE_UNAVAILABLE,
                            f"the query was stopped after {self.limits.timeout:g} s "
                            "(benchkg serve --timeout); ask for less",
                        )
                    if self._client_gone():
                        return None
                    if not worker.is_alive() and not receive.poll(0):
                        return self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "the query failed (its worker ended)")
                try:
                    status, mime, body = receive.recv()
                except EOFError:
                    return self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "the query failed (its worker ended)")
                return self._send(status, body, mime, extra if status == 200 else None)
            finally:
                if worker.is_alive():
                    worker.kill()  # past its time, its client gone, or done: never left running
                worker.join()
                receive.close()
        finally:
            self.slots.release()


class _Deadlines:
    """One thread that cuts off each connection whose request is not all in by its deadline (the
    handler's own timeout counts per read: a client sending a byte every few seconds held its thread,
    and a thousand of them the server, for ever)."""

    def __init__(self, seconds: float = REQUEST_DEADLINE_S):
        self.seconds = seconds
        self.due: dict[socket.socket, float] = {}
        self.cut: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True, name="benchkg-request-deadlines").start()

    def start(self, conn: socket.socket) -> None:
        with self.lock:
            self.due[conn] = time.monotonic() + self.seconds

    def met(self, conn: socket.socket) -> None:
        with self.lock:
            self.due.pop(conn, None)

    def missed(self, conn: socket.socket) -> bool:
        """Whether ``conn`` was cut off: what was read of its request is not a request (a request line
        cut short still parses, and would run as a query)."""
        with self.lock:
            return conn in self.cut

    def forget(self, conn: socket.socket) -> None:
        with self.lock:
            self.due.pop(conn, None)
            self.cut.discard(conn)

    def _watch(self) -> None:
        while True:
            time.sleep(0.25)
            now = time.monotonic()
            with self.lock:
                late = [c for c, t in self.due.items() if t < now]
                for conn in late:
                    del self.due[conn]
                    self.cut.add(conn)
            for conn in late:
                try:
                    conn.shutdown(socket.SHUT_RDWR)  # its thread's read ends now; the thread closes it
                except OSError:
                    pass


def make_handler(store_path: Path, limits: Limits) -> type[Handler]:
    """A :class:`Handler` class answering from the store at ``store_path`` within ``limits``."""
    context = multiprocessing.get_context("forkserver")  # children forked from a clean, single-threaded process
    # so a query starts in milliseconds; forkserver_init makes the fork server die with serve
    context.set_forkserver_preload(["benchkg.kernel.forkserver_init", "benchkg.publish.serve", "pyoxigraph"])
    forkserver.ensure_running()  # from this (the main) thread: see benchkg.kernel.forkserver_init
    return type(
        "BoundHandler",
        (Handler,),
        {
            "store_path": store_path,
            "limits": limits,
            "context": context,
            "slots": threading.BoundedSemaphore(limits.workers),
            "deadlines": _Deadlines(limits.request_deadline),
        },
    )


class _Server(ThreadingHTTPServer):
    """A thread per connection, and room to queue many at once (the default five dropped connections
    while a crowd of slow clients arrived, and a normal client's connect waited seconds for a retry)."""

    request_queue_size = 1024
    daemon_threads = True


def make_server(
    store_path: Path, host: str = "127.0.0.1", port: int = 7878, limits: Limits | None = None
) -> ThreadingHTTPServer:
    """A server for the on-disk store at ``store_path`` (call ``serve_forever()``; port 0 picks a
    free one). The store is only ever opened read-only, per query."""
    limits = limits or Limits()
    try:
        server = _Server((host, port), make_handler(Path(store_path), limits))
    except OSError as e:
        raise UsageError(
            f"cannot listen on {host}:{port}: {e.strerror or e}"
            + ("; another program uses the port: choose one with --port" if e.errno == errno.EADDRINUSE else "")
        ) from None
    return server
