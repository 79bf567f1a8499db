"""One HTTP request to a SPARQL store, bounded and sent only where it was addressed.

- **No redirects.** A 3xx answer is an error naming where it pointed: following it would send the
  credentials and the graph to another host and report a push that went elsewhere as done.
- **Three limits.** Connecting may take ``connect`` seconds, the server may stay silent for ``idle``
  seconds at a time, and the whole exchange may take ``total`` seconds: a server that never answers
  and one that drips a byte a second both end in :class:`TimedOut` within ``total``.
- **Acknowledged.** Only a 2xx answer is success; anything else is :class:`HTTPStatusError`.

The standard library's ``http.client`` does the protocol; a timer shuts the socket down at the
total deadline, which ends a read that is waiting however the server trickles.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass

from benchkg.kernel.errors import UsageError

#: the defaults documented in the README and ``--timeout``'s help
CONNECT_S = 10.0
IDLE_S = 30.0
TOTAL_S = 120.0
#: the largest answer read (a SPARQL result set or a push acknowledgement)
MAX_ANSWER_BYTES = 1 << 30


@dataclass(frozen=True)
class Timeouts:
    """How long one request may take to connect, may stay silent, and may take in all (seconds).

    >>> Timeouts(total=5).bounded().connect
    5
    """

    connect: float = CONNECT_S
    idle: float = IDLE_S
    total: float = TOTAL_S

    def bounded(self) -> "Timeouts":
        """The same limits, none longer than the total."""
        return Timeouts(min(self.connect, self.total), min(self.idle, self.total), self.total)


class TransportError(Exception):
    """A request that got no acceptable answer."""


class ConnectFailed(TransportError):
    """No connection (refused, reset, unknown host): worth retrying."""


class TimedOut(TransportError):
    """The server took longer than a limit allows: not retried (it already had its time)."""


class Redirected(TransportError):
    """The server answered 3xx; ``location`` is where it pointed."""

    def __init__(self, status: int, location: str):
        super().__init__(f"HTTP {status} to {location or '(no Location)'}")
        self.status, self.location = status, location


class HTTPStatusError(TransportError):
    """A 4xx or 5xx answer."""

    def __init__(self, status: int, reason: str, body: bytes):
        super().__init__(f"HTTP {status} {reason}")
        self.status, self.reason, self.body = status, reason, body


def check_url(url: str, what: str = "--endpoint") -> str:
    r"""``url`` if it is an http(s) URL with a host (and a port in range).

    >>> check_url("http://127.0.0.1:7878/query")
    'http://127.0.0.1:7878/query'
    >>> check_url("http://[::1")
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: --endpoint 'http://[::1' is not an http(s) URL (Invalid IPv6 URL); write e.g. http://127.0.0.1:7878/query
    >>> check_url("https://x.org/\nRewriteRule", "--published-at")
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: --published-at 'https://x.org/\nRewriteRule' is not an http(s) URL (it holds '\n', which no URL holds; percent-encode it); write e.g. https://example.org/benchkg/
    """

    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises for a port out of range
        ok, why = parts.scheme in ("http", "https") and bool(parts.hostname), "no http(s) scheme or host"
    except ValueError as e:
        ok, why = False, str(e)
    bad = next((c for c in url if not c.isprintable() or c in _NOT_IN_AN_IRI), None)
    if ok and bad is not None:  # a line break would add lines to .htaccess; a quote would end a Turtle IRI
        ok, why = False, f"it holds {bad!r}, which no URL holds; percent-encode it"
    if not ok:
        example = "https://example.org/benchkg/" if what == "--published-at" else "http://127.0.0.1:7878/query"
        raise UsageError(f"{what} {url[:80]!r} is not an http(s) URL ({why}); write e.g. {example}")
    return url


#: characters an IRI may not hold as they are (RFC 3987), besides the unprintable ones (line breaks,
#: control characters, and the stand-ins Python makes for bytes that are not UTF-8)
_NOT_IN_AN_IRI = frozenset(' <>"{}|\\^`')


def request(
    method: str,
    url: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeouts: Timeouts = Timeouts(),
    max_bytes: int = MAX_ANSWER_BYTES,
) -> tuple[int, dict[str, str], bytes]:
    """Send one request to exactly ``url``; (status, headers, body) of a 2xx answer.

    :raises ConnectFailed, TimedOut, Redirected, HTTPStatusError: see the module's doc.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConnectFailed(f"{parts.scheme or 'no'} scheme: the store's URL starts with http:// or https://")
    limits = timeouts.bounded()
    conn = _connection(parts, limits.connect)
    target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
    timer, expired = _deadline(conn, limits.total)
    started = time.monotonic()
    try:
        try:
            conn.connect()
        except socket.timeout:
            raise TimedOut(f"no connection within {limits.connect:g} s") from None
        except OSError as e:
            if expired.is_set():
                raise TimedOut(f"no connection within {limits.total:g} s") from None
            raise ConnectFailed(str(getattr(e, "strerror", None) or e)) from None
        conn.sock.settimeout(limits.idle)
        try:
            conn.request(method, target, body=body, headers=headers or {})
            response = conn.getresponse()
            answer = _read(response, max_bytes, expired)
        except (socket.timeout, TimeoutError):
            raise TimedOut(f"the store was silent for {limits.idle:g} s") from None
        except (OSError, http.client.HTTPException) as e:
            if expired.is_set():
                raise TimedOut(
                    f"no complete answer within {limits.total:g} s (took {time.monotonic() - started:.1f} s)"
                ) from None
            raise ConnectFailed(str(getattr(e, "strerror", None) or e or type(e).__name__)) from None
        status, reason = response.status, response.reason
        if 300 <= status < 400:
            raise Redirected(status, response.getheader("Location") or "")
        if not 200 <= status < 300:
            raise HTTPStatusError(status, reason, answer)
        return status, {k.lower(): v for k, v in response.getheaders()}, answer
    finally:
        timer.cancel()
        conn.close()


def _connection(parts: urllib.parse.SplitResult, connect_s: float) -> http.client.HTTPConnection:
    """An HTTP or HTTPS (certificates checked) connection to the URL's host, not yet opened."""
    host = parts.hostname or ""  # (check_url has refused a URL without a host)
    if parts.scheme == "https":
        return http.client.HTTPSConnection(host, parts.port, timeout=connect_s, context=ssl.create_default_context())
    return http.client.HTTPConnection(host, parts.port, timeout=connect_s)


def _deadline(conn: http.client.HTTPConnection, total_s: float) -> tuple[threading.Timer, threading.Event]:
    """A started timer that, after ``total_s``, sets the event and shuts the connection's socket (which
    wakes a read waiting for the next trickle); cancel it when the request is done."""
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(total_s, expire)
    timer.daemon = True
    timer.start()
    return timer, expired


def _read(response: http.client.HTTPResponse, max_bytes: int, expired: threading.Event) -> bytes:
    out = bytearray()
    while True:
        chunk = response.read(65536)
        if expired.is_set():
            raise OSError("deadline")
        if not chunk:
            return bytes(out)
        out += chunk
        if len(out) > max_bytes:
            raise HTTPStatusError(413, f"answer larger than {max_bytes // 2**20} MiB", b"")
