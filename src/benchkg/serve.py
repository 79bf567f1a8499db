"""A local, read-only SPARQL 1.1 endpoint over the embedded store, with a query page.

GET or POST ``/query`` (SPARQL 1.1 Protocol: ``query=`` in the URL or a form, or an
``application/sparql-query`` body); answers in JSON, XML, CSV or TSV by the Accept header, and
RDF for CONSTRUCT/DESCRIBE. Updates are refused. Queries see the union of the named graphs, as
the saved queries expect. Bound to 127.0.0.1 unless told otherwise.
"""
from __future__ import annotations

import html
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


def make_handler(store, lock: threading.Lock):
    """A request handler class bound to ``store``."""
    from pyoxigraph import QueryBoolean, QueryResultsFormat, QuerySolutions, RdfFormat, serialize

    result_formats = [("application/sparql-results+json", QueryResultsFormat.JSON),
                      ("application/sparql-results+xml", QueryResultsFormat.XML),
                      ("text/csv", QueryResultsFormat.CSV), ("text/tab-separated-values", QueryResultsFormat.TSV)]

    class Handler(BaseHTTPRequestHandler):
        server_version = "benchkg"

        def log_message(self, fmt, *args):  # quiet: one line per request is noise here
            pass

        def _send(self, status: int, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _error(self, status: HTTPStatus, message: str) -> None:
            self._send(status, message.encode(), "text/plain; charset=utf-8")

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            params = urllib.parse.parse_qs(url.query)
            if url.path in ("/", "/index.html"):
                page = PAGE.format(query=html.escape(EXAMPLE), result="")
                return self._send(200, page.encode(), "text/html; charset=utf-8")
            if url.path != "/query":
                return self._error(HTTPStatus.NOT_FOUND, "not found: the SPARQL endpoint is /query")
            if "query" not in params:
                return self._error(HTTPStatus.BAD_REQUEST, "missing query parameter")
            self._answer(params["query"][0], params.get("format", [""])[0])

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/update":
                return self._error(HTTPStatus.FORBIDDEN, "this endpoint is read-only")
            if url.path != "/query":
                return self._error(HTTPStatus.NOT_FOUND, "not found: the SPARQL endpoint is /query")
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace")
            ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
            if ctype == "application/sparql-query":
                return self._answer(body, "")
            form = urllib.parse.parse_qs(body)
            if "update" in form:
                return self._error(HTTPStatus.FORBIDDEN, "this endpoint is read-only")
            if "query" not in form:
                return self._error(HTTPStatus.BAD_REQUEST, "missing query parameter")
            self._answer(form["query"][0], form.get("format", [""])[0])

        def _answer(self, query: str, fmt: str) -> None:
            accept = self.headers.get("Accept") or ""
            try:
                with lock:
                    result = store.query(query, use_default_graph_as_union=True)
                    if isinstance(result, (QuerySolutions, QueryBoolean)):
                        if fmt == "html":
                            return self._page(query, result)
                        mime, rf = next(((m, f) for m, f in result_formats if m in accept), result_formats[0])
                        return self._send(200, result.serialize(format=rf), mime)
                    triples = list(result)
                    rdf = RdfFormat.TURTLE if "turtle" in accept else RdfFormat.N_TRIPLES
                    return self._send(200, serialize(triples, format=rdf) or b"", rdf.media_type)
            except SyntaxError as e:
                return self._error(HTTPStatus.BAD_REQUEST, f"query does not parse: {e}")

        def _page(self, query, result) -> None:
            if isinstance(result, QueryBoolean):
                table = f"<p>{bool(result)}</p>"
            else:
                names = [v.value for v in result.variables]
                rows = "".join("<tr>" + "".join(f"<td>{html.escape(s[n].value) if s[n] is not None else ''}</td>"
                                                 for n in names) + "</tr>" for s in result)
                table = "<table><tr>" + "".join(f"<th>{html.escape(n)}</th>" for n in names) + f"</tr>{rows}</table>"
            page = PAGE.format(query=html.escape(query), result=table)
            self._send(200, page.encode(), "text/html; charset=utf-8")

    return Handler


def make_server(store, host: str = "127.0.0.1", port: int = 7878) -> ThreadingHTTPServer:
    """A server for ``store`` (call ``serve_forever()``; port 0 picks a free one)."""
    return ThreadingHTTPServer((host, port), make_handler(store, threading.Lock()))
