"""Remote SPARQL 1.1 stores: push the graph through the Graph Store HTTP Protocol (or SPARQL
Update), and run queries through SPARQLWrapper with the same binding and output as embedded.

Credentials come only from the environment (BENCHKG_USER/BENCHKG_PASSWORD, or BENCHKG_TOKEN for a
bearer token), are sent only to the URLs given (redirects are refused, :mod:`benchkg.kernel.transport`)
and are never printed. Every request is bounded in time (connect 10 s, silence 30 s, 120 s in all
by default: ``--timeout``); 5xx answers and failed connections are retried with exponential backoff.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pyoxigraph import BlankNode, Literal, NamedNode, RdfFormat, Store, Triple, serialize

from benchkg.graph.store import ONTOLOGY_GRAPH, content_graphs
from benchkg.kernel import transport
from benchkg.kernel.errors import StoreError
from benchkg.kernel.rows import Results
from benchkg.kernel.terminal import Progress
from benchkg.kernel.vocab import BK, DEFAULT_BASE

RETRIES = 3
BACKOFF_S = 0.5
_HASH = BK + "contentHash"
_PENDING = "pending"
_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
_DECIMAL = "http://www.w3.org/2001/XMLSchema#decimal"


def manifest_graph_iri(base: str = DEFAULT_BASE) -> str:
    """The remote graph that records what was pushed (graph IRI -> content hash)."""
    return f"{base}graph/push-manifest"


def _auth_header() -> dict[str, str]:
    token = os.environ.get("BENCHKG_TOKEN")
    if token:
        return {"Authorization": f"Bearer {token}"}
    user, password = os.environ.get("BENCHKG_USER"), os.environ.get("BENCHKG_PASSWORD")
    if user and password:
        pair = base64.b64encode(f"{user}:{password}".encode()).decode()
        return {"Authorization": f"Basic {pair}"}
    return {}


def safe_url(url: str) -> str:
    """A URL fit to print: any user:password@ removed.

    >>> safe_url("http://bob:secret@127.0.0.1:7878/query")
    'http://127.0.0.1:7878/query'
    """
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def _explain(url: str, code: int, reason: str, body: str = "") -> StoreError:
    where = safe_url(url)
    if code in (401, 403):
        return StoreError(
            f"{where} refused access (HTTP {code}): set BENCHKG_USER and BENCHKG_PASSWORD, "
            f"or BENCHKG_TOKEN, to credentials it accepts"
        )
    if code == 404:
        return StoreError(
            f"{where} was not found (HTTP 404): check the endpoint URL "
            f"(Oxigraph: /query, /update, /store; Fuseki: /<dataset>/sparql, /update, /data)"
        )
    detail = f": {body.strip()[:300]}" if body.strip() else ""
    return StoreError(f"{where} answered HTTP {code} {reason}{detail}")


def _retrying(url: str, call: Callable[[], tuple[int, bytes]]) -> tuple[int, bytes]:
    """``call()`` with retries and exponential backoff on 5xx answers and failed connections; a
    redirect or a timeout is not retried (the request went as far as it may, or had its time).

    :raises StoreError: unreachable after the retries, a redirect, a timeout, or a 4xx/5xx answer,
        saying what to do.
    """
    delay = BACKOFF_S
    for attempt in range(RETRIES):
        try:
            return call()
        except transport.Redirected as e:
            raise StoreError(
                f"{safe_url(url)} answered HTTP {e.status}, a redirect to {safe_url(e.location) or '(nowhere)'}; "
                "benchkg does not follow redirects (your credentials and data go only to the URL you "
                "give): pass the URL the store really answers at"
            ) from None
        except transport.TimedOut as e:
            raise StoreError(
                f"{safe_url(url)} did not answer in time: {e}; is the store overloaded, or this not its "
                "URL? (--timeout SECONDS allows longer)"
            ) from None
        except (transport.ConnectFailed, transport.HTTPStatusError) as e:
            code = getattr(e, "status", None)
            if (code is None or code >= 500) and attempt < RETRIES - 1:
                time.sleep(delay)
                delay *= 2
                continue
            if code is None or not isinstance(e, transport.HTTPStatusError):
                raise StoreError(
                    f"cannot reach {safe_url(url)}: {e}. Is the store running, and is this its URL?"
                ) from None
            raise _explain(url, code, e.reason, e.body.decode("utf-8", "replace")) from None
    raise AssertionError("unreachable")


def http(
    method: str,
    url: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeouts: transport.Timeouts | None = None,
) -> tuple[int, bytes]:
    """One HTTP request with the credentials, bounded in time, sent only to ``url``, retried on
    failed connections and 5xx answers (see :func:`_retrying`)."""
    headers = {**(headers or {}), **_auth_header()}

    def call() -> tuple[int, bytes]:
        status, _headers, answer = transport.request(method, url, body, headers, timeouts or transport.Timeouts())
        return status, answer

    return _retrying(url, call)


# ---------------------------------------------------------------- queries


def term_from_json(binding: dict[str, str]) -> NamedNode | BlankNode | Literal | Triple:
    """A pyoxigraph term from one SPARQL JSON results binding.

    >>> term_from_json({"type": "literal", "value": "72", "datatype": "http://www.w3.org/2001/XMLSchema#integer"})
    <Literal value=72 datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#integer>>
    >>> term_from_json({"type": "typed-literal", "value": "1", "datatype": "http://www.w3.org/2001/XMLSchema#boolean"}).value
    'true'
    """
    kind = binding["type"]
    if kind == "uri":
        return NamedNode(binding["value"])
    if kind == "bnode":
        return BlankNode(binding["value"])
    if "xml:lang" in binding:
        return Literal(binding["value"], language=binding["xml:lang"])
    if binding.get("datatype") == _BOOLEAN and binding["value"] in ("1", "0"):  # Virtuoso's spelling
        return Literal("true" if binding["value"] == "1" else "false", datatype=NamedNode(_BOOLEAN))
    if "datatype" in binding:
        return Literal(binding["value"], datatype=NamedNode(binding["datatype"]))
    return Literal(binding["value"])


def run_remote_sparql(endpoint: str, text: str, timeouts: transport.Timeouts | None = None) -> Results:
    """Run SELECT text on a SPARQL 1.1 endpoint; rows of pyoxigraph terms. SPARQLWrapper writes the
    protocol request (a POST of the query, JSON results); :mod:`benchkg.kernel.transport` sends it."""
    from SPARQLWrapper import JSON, POST, SPARQLWrapper

    client = SPARQLWrapper(endpoint)
    client.setReturnFormat(JSON)
    client.setMethod(POST)
    client.setQuery(text)
    request = client._createRequest()  # the request SPARQLWrapper would send, sent our way
    _status, body = http(
        request.get_method(),
        request.full_url,
        request.data if isinstance(request.data, bytes) else None,
        dict(request.header_items()),
        timeouts=timeouts,
    )
    try:
        data = json.loads(body)
    except ValueError:
        raise StoreError(
            f"{safe_url(endpoint)} did not answer SPARQL JSON results (is this a SPARQL endpoint?)"
        ) from None
    names = data.get("head", {}).get("vars", [])
    rows = [{k: term_from_json(v) for k, v in b.items()} for b in data.get("results", {}).get("bindings", [])]
    return Results(names, rows)


# ---------------------------------------------------------------- push


@dataclass
class PushResult:
    """What a push sent."""

    sent: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0
    requests: int = 0


def graph_payloads(store: Store, base: str = DEFAULT_BASE) -> dict[str, bytes]:
    """N-Triples of every graph to publish (records, caveats, ontology), sorted so equal graphs
    give equal bytes and so equal hashes."""

    graphs = content_graphs(store, base) + [NamedNode(ONTOLOGY_GRAPH)]
    out = {}
    for graph in graphs:
        triples = sorted((q.triple for q in store.quads_for_pattern(None, None, None, graph)), key=str)
        out[graph.value] = serialize(triples, format=RdfFormat.N_TRIPLES) or b""
    return out


def guess_gsp(endpoint: str) -> str:
    """The Graph Store endpoint beside a query endpoint (Oxigraph /query -> /store, Fuseki
    /<ds>/sparql or /<ds>/query -> /<ds>/data).

    >>> guess_gsp("http://127.0.0.1:7878/query"), guess_gsp("http://h:3030/ds/sparql")
    ('http://127.0.0.1:7878/store', 'http://h:3030/ds/data')
    """
    parts = urllib.parse.urlsplit(endpoint)
    path = parts.path.rstrip("/")
    head, _, last = path.rpartition("/")
    if last == "query" and not head:
        new = "/store"
    elif last in ("sparql", "query"):
        new = f"{head}/data"
    else:
        raise StoreError(
            f"cannot tell the Graph Store endpoint of {safe_url(endpoint)}; pass --gsp URL, "
            f"or --update-endpoint URL for a store without the Graph Store Protocol"
        )
    return urllib.parse.urlunsplit(parts._replace(path=new))


def remote_manifest(
    endpoint: str, base: str = DEFAULT_BASE, timeouts: transport.Timeouts | None = None
) -> dict[str, str]:
    """graph IRI -> content hash, as the last push recorded it on the store."""
    rows = run_remote_sparql(
        endpoint,
        f"""SELECT ?g ?h WHERE {{ GRAPH <{manifest_graph_iri(base)}> {{
        ?g <{_HASH}> ?h }} }}""",
        timeouts,
    ).rows
    return {r["g"].value: r["h"].value for r in rows}


def literal_datatypes(store: Store, graphs: Iterable[str]) -> Counter[str]:
    """How many literals of each datatype the named ``graphs`` of an embedded store hold.

    >>> from pyoxigraph import Quad, Store
    >>> s = Store()
    >>> g = NamedNode("http://example.org/g")
    >>> s.add(Quad(NamedNode("http://example.org/a"), NamedNode("http://example.org/v"), Literal("8", datatype=NamedNode(_DECIMAL)), g))
    >>> dict(literal_datatypes(s, [g.value]))
    {'http://www.w3.org/2001/XMLSchema#decimal': 1}
    """
    counts: Counter[str] = Counter()
    for graph in graphs:
        for quad in store.quads_for_pattern(None, None, None, NamedNode(graph)):
            if isinstance(quad.object, Literal):
                counts[quad.object.datatype.value] += 1
    return counts


def check_held_as_sent(
    store: Store, payloads: dict[str, bytes], endpoint: str, base: str, timeouts: transport.Timeouts | None = None
) -> None:
    """Refuse a store that holds other values than it was sent: its literals, counted by datatype over
    the graphs the push manifest lists, must be the embedded graph's. Virtuoso 7.2 with its shipped
    ``MaxQueryCostEstimationTime = 400`` stores some whole decimals (``"8"^^xsd:decimal``) as integers,
    a different few on each push, and answers then differ from the embedded store's.

    :raises StoreError: naming the datatypes whose counts differ and the setting to check.
    """
    rows = run_remote_sparql(
        endpoint,
        f"""SELECT ?dt (COUNT(*) AS ?n) WHERE {{
  GRAPH <{manifest_graph_iri(base)}> {{ ?g <{_HASH}> ?h }}
  GRAPH ?g {{ ?s ?p ?o }}
  FILTER (isLiteral(?o)) BIND (DATATYPE(?o) AS ?dt)
}} GROUP BY ?dt""",
        timeouts,
    ).rows
    held = Counter({r["dt"].value: int(r["n"].value) for r in rows if "dt" in r})
    sent = literal_datatypes(store, payloads)
    if held == sent:
        return
    differ = sorted(dt for dt in set(held) | set(sent) if held[dt] != sent[dt])
    counts = "; ".join(f"{dt.rsplit('#', 1)[-1]}: {sent[dt]:,} sent, {held[dt]:,} held" for dt in differ)
    raise StoreError(
        f"{safe_url(endpoint)} holds other values than it was sent ({counts}), so its answers would differ "
        "from the embedded store's. On Virtuoso set MaxQueryCostEstimationTime = 0 in the [SPARQL] section of "
        "virtuoso.ini (docs/data-and-stores.md), restart it and push again: the next push sends these graphs again."
    )


def _manifest_nt(entries: dict[str, str]) -> bytes:
    triples = [Triple(NamedNode(g), NamedNode(_HASH), Literal(h)) for g, h in sorted(entries.items())]
    return serialize(triples, format=RdfFormat.N_TRIPLES) or b""


#: the largest body benchkg sends in one request (Virtuoso refuses a large INSERT DATA: "SP030 … memory
#: exhausted"); a graph above it goes in parts
MAX_REQUEST_BYTES = 64 * 1024
#: where a graph sent in parts through SPARQL Update is assembled before it replaces the real one
STAGING_GRAPH = "urn:benchkg:push-staging"


def split_ntriples(ntriples: bytes, limit: int = MAX_REQUEST_BYTES) -> list[bytes]:
    r"""N-Triples cut at line ends into parts of at most ``limit`` bytes (a longer line is a part of its own).

    >>> split_ntriples(b"<a> <b> <c> .\n<d> <e> <f> .\n", 20)
    [b'<a> <b> <c> .\n', b'<d> <e> <f> .\n']
    """
    parts, current = [], bytearray()
    for line in ntriples.splitlines(keepends=True):
        if current and len(current) + len(line) > limit:
            parts.append(bytes(current))
            current = bytearray()
        current += line
    if current or not parts:
        parts.append(bytes(current))
    return parts


class _Writer:
    """Replaces or drops one graph, through the Graph Store Protocol or SPARQL Update, in requests
    of at most :data:`MAX_REQUEST_BYTES` of data.

    Through SPARQL Update a graph is replaced in one request (DROP + INSERT DATA), or, when larger,
    assembled in :data:`STAGING_GRAPH` and moved over it in one MOVE: either way it is old or new,
    never half. Through the Graph Store Protocol a larger graph is a PUT and POSTs (appends): it is
    incomplete until the last one, and the push manifest marks it pending, so the next push repairs
    a push cut off between them."""

    def __init__(
        self,
        gsp: str | None,
        update: str | None,
        limit: int = MAX_REQUEST_BYTES,
        timeouts: transport.Timeouts | None = None,
    ):
        self.gsp, self.update, self.limit, self.timeouts = gsp, update, limit, timeouts
        self.requests = 0

    def _update(self, text: bytes) -> None:
        self.requests += 1
        assert self.update is not None, "an update endpoint"
        http("POST", self.update, text, {"Content-Type": "application/sparql-update"}, timeouts=self.timeouts)

    def put(self, graph: str, ntriples: bytes) -> None:
        parts = split_ntriples(ntriples, self.limit)
        if self.update:
            if len(parts) == 1:
                self._update(
                    f"DROP SILENT GRAPH <{graph}> ;\nINSERT DATA {{ GRAPH <{graph}> {{\n".encode() + ntriples + b"}}"
                )
                return
            self._update(f"DROP SILENT GRAPH <{STAGING_GRAPH}>".encode())
            for part in parts:
                self._update(f"INSERT DATA {{ GRAPH <{STAGING_GRAPH}> {{\n".encode() + part + b"}}")
            self._update(f"MOVE SILENT GRAPH <{STAGING_GRAPH}> TO GRAPH <{graph}>".encode())
            return
        url = f"{self.gsp}?graph={urllib.parse.quote(graph, safe='')}"
        for n, part in enumerate(parts):
            self.requests += 1
            http(
                "PUT" if n == 0 else "POST",
                url,
                part,
                {"Content-Type": "application/n-triples"},
                timeouts=self.timeouts,
            )

    def drop(self, graph: str) -> None:
        if self.update:
            self._update(f"DROP SILENT GRAPH <{graph}>".encode())
            return
        self.requests += 1
        try:
            http("DELETE", f"{self.gsp}?graph={urllib.parse.quote(graph, safe='')}", timeouts=self.timeouts)
        except StoreError as e:
            if "HTTP 404" not in str(e):  # already gone: what we wanted
                raise


def push_graph(
    store: Store,
    endpoint: str,
    *,
    gsp: str | None = None,
    update_endpoint: str | None = None,
    base: str = DEFAULT_BASE,
    progress: Progress | None = None,
    limit: int = MAX_REQUEST_BYTES,
    timeouts: transport.Timeouts | None = None,
) -> PushResult:
    """Make the remote store hold exactly the embedded graph, sending only what changed.

    Each graph is replaced whole in requests of bounded size (see :class:`_Writer`). The push
    manifest graph on the store lists
    every graph sent; it is written first with the graphs about to change marked pending, and
    last with their hashes, so a push cut off anywhere is finished by the next one. A graph counts
    as sent only when the store acknowledged it (2xx); a redirect is an error, never followed.

    :raises StoreError: unreachable store, refused credentials, missing endpoint, rejected data.
    """
    if not update_endpoint:
        gsp = gsp or guess_gsp(endpoint)
    writer = _Writer(gsp, update_endpoint, limit, timeouts)
    payloads = graph_payloads(store, base)
    hashes = {g: hashlib.sha256(nt).hexdigest() for g, nt in payloads.items()}
    before = remote_manifest(endpoint, base, timeouts)
    to_send = sorted(g for g in payloads if before.get(g) != hashes[g])
    to_drop = sorted(g for g in before if g not in payloads)
    result = PushResult(unchanged=len(payloads) - len(to_send))
    if not to_send and not to_drop:
        return result
    manifest = manifest_graph_iri(base)
    pending = {**before, **{g: _PENDING for g in to_send}}
    writer.put(manifest, _manifest_nt(pending))
    total = len(to_send) + len(to_drop)
    for n, graph in enumerate(to_send, 1):
        writer.put(graph, payloads[graph])
        result.sent.append(graph)
        if progress:
            progress(n, total)
    for n, graph in enumerate(to_drop, len(to_send) + 1):
        writer.drop(graph)
        result.deleted.append(graph)
        if progress:
            progress(n, total)
    # before the hashes go in: a store that changed what it holds is sent everything pending again
    check_held_as_sent(store, payloads, endpoint, base, timeouts)
    writer.put(manifest, _manifest_nt(hashes))
    result.requests = writer.requests
    return result
