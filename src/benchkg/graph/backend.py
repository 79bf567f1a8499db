"""Where a query runs, decided once: the embedded pyoxigraph store (:class:`Embedded`) or a SPARQL 1.1
endpoint (:class:`Endpoint`). Both answer ``results(text)`` (rows of RDF terms, a window of them when
asked) and ``select(text)`` (rows of value text, for the small queries of caveats and notes), so the
layers above take one object and never ask which it is. An endpoint's timeouts travel with it. :func:`watching` reports every query any backend runs (a
benchmark's profile of an answer, or a log), without patching anything.

>>> from pyoxigraph import Store
>>> backend = backend_of(Store())
>>> backend.select("SELECT ?n WHERE { VALUES ?n { 1 2 } }"), backend.remote
([{'n': '1'}, {'n': '2'}], False)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from pyoxigraph import QuerySolutions, Store

from benchkg.graph.opening import bound_terms
from benchkg.graph.remote import run_remote_sparql, safe_url
from benchkg.kernel import transport
from benchkg.kernel.errors import QueryError
from benchkg.kernel.limits import within_store
from benchkg.kernel.rows import Results
from benchkg.kernel.sparqltext import names_its_dataset, parse_error

#: how many rows past its window an answer is still counted (the rows are not kept): "--limit 1"
#: on a query of a billion rows stops there
COUNT_PAST = 100_000

#: the callbacks :func:`watching` holds, each told ``(name, seconds)`` of every query a backend runs
_watchers: list[Callable[[str, float], None]] = []


@contextmanager
def watching(callback: Callable[[str, float], None]) -> Iterator[None]:
    """Within the block, tell ``callback(name, seconds)`` of every query any backend runs: an answer's
    own runs under the saved query's name, the small queries of its caveats and notes as ``"query"``.
    The call comes when a query ends, whether it answered or failed.

    >>> from pyoxigraph import Store
    >>> seen = []
    >>> with watching(lambda name, seconds: seen.append(name)):
    ...     _ = backend_of(Store()).results("SELECT * WHERE { ?s ?p ?o }", "leaderboard")
    ...     _ = backend_of(Store()).select("SELECT ?n WHERE { VALUES ?n { 1 } }")
    >>> seen
    ['leaderboard', 'query']
    """
    _watchers.append(callback)
    try:
        yield
    finally:
        _watchers.remove(callback)


class Backend:
    """What runs a query: ``results`` for an answer, ``select`` for the small queries beside it."""

    #: whether the store is another machine's: names no local record has go as typed, and the answer
    #: comes whole (run_query cuts its window)
    remote = False

    def results(
        self, text: str, name: str = "query", *, limit: int | None = None, offset: int = 0, claims: tuple[str, ...] = ()
    ) -> Results:
        """The rows of SELECT ``text`` (a window of them with ``limit``/``offset``), reported to
        :func:`watching`."""
        if not _watchers:
            return self._run(text, name, limit=limit, offset=offset, claims=claims)
        started = time.perf_counter()
        try:
            return self._run(text, name, limit=limit, offset=offset, claims=claims)
        finally:
            for watcher in list(_watchers):
                watcher(name, time.perf_counter() - started)

    def _run(
        self, text: str, name: str, *, limit: int | None, offset: int, claims: tuple[str, ...]
    ) -> Results:  # pragma: no cover - each backend says it
        raise NotImplementedError

    def select(self, text: str) -> list[dict[str, str]]:
        """Rows of ``{variable: value text}``."""
        return [{k: v.value for k, v in row.items()} for row in self.results(text).rows]

    def limited(self, seconds: float, what: str) -> Backend:
        """This backend, its queries stopped after ``seconds`` (named ``what`` in the error) where it
        can stop them; an endpoint's own timeouts stand instead."""
        return self


class Embedded(Backend):
    """The embedded pyoxigraph store (see :func:`run_sparql`)."""

    def __init__(self, store: Store, time_limit: tuple[float, str] | None = None):
        self.store, self.time_limit = store, time_limit

    def _run(self, text: str, name: str, *, limit: int | None, offset: int, claims: tuple[str, ...]) -> Results:
        if self.time_limit is None:
            return run_sparql(self.store, text, name, limit=limit, offset=offset, claims=claims)
        seconds, what = self.time_limit
        window = partial(run_sparql, limit=limit, offset=offset, claims=claims)
        return within_store(seconds, what, self.store, window, text, name)

    def limited(self, seconds: float, what: str) -> Backend:
        """The store's queries in a worker process killed after ``seconds`` (:mod:`benchkg.kernel.limits`).

        >>> from pyoxigraph import Store
        >>> Embedded(Store()).limited(5, "query mine (queries/mine.rq)").select("SELECT ?n WHERE { VALUES ?n { 7 } }")
        [{'n': '7'}]
        """
        return Embedded(self.store, (seconds, what))

    def ask(self, text: str) -> bool:
        """An ASK over the union of the graphs."""
        return bool(self.store.query(text, use_default_graph_as_union=True))

    def __repr__(self) -> str:
        return "Embedded()"


class Endpoint(Backend):
    """A SPARQL 1.1 endpoint answering over the union of its named graphs (Oxigraph server
    ``--union-default-graph``; Fuseki ``tdb2:unionDefaultGraph true``); its answers come whole."""

    remote = True

    def __init__(self, url: str, timeouts: transport.Timeouts | None = None):
        self.url, self.timeouts = url, timeouts

    def _run(self, text: str, name: str, *, limit: int | None, offset: int, claims: tuple[str, ...]) -> Results:
        return run_remote_sparql(self.url, text, self.timeouts)

    def __repr__(self) -> str:
        return f"Endpoint({safe_url(self.url)!r})"


def backend_of(source: Backend | Store) -> Backend:
    """``source`` as a :class:`Backend`: a backend as it is, a pyoxigraph store as :class:`Embedded`."""
    return source if isinstance(source, Backend) else Embedded(source)


def run_sparql(
    store: Store,
    text: str,
    name: str = "query",
    *,
    limit: int | None = None,
    offset: int = 0,
    claims: tuple[str, ...] = (),
) -> Results:
    """Run SPARQL SELECT text on a pyoxigraph store, over the union of its graphs.

    With ``limit`` (or ``offset``) the solutions are streamed: only the window's rows are kept, and
    counting stops :data:`COUNT_PAST` rows past it, so the work is bounded whatever the query; the
    ``claims`` columns of every row counted are kept in ``claim_rows``.

    >>> from pyoxigraph import Store
    >>> r = run_sparql(Store(), "SELECT ?n WHERE { VALUES ?n { 1 2 3 4 5 } }", limit=2, offset=1)
    >>> [row["n"].value for row in r.rows], r.total, r.more
    (['2', '3'], 5, False)
    """
    try:
        solutions = store.query(text, use_default_graph_as_union=not names_its_dataset(text))
    except SyntaxError as e:
        raise QueryError(parse_error(name, text, e)) from e
    except OSError as e:
        raise QueryError(f"{name}: the store could not answer: {e}") from e
    if not isinstance(solutions, QuerySolutions):
        raise QueryError(f"{name}: only SELECT queries give tables")
    names = [v.value for v in solutions.variables]
    if limit is None and not offset:
        return Results(names, [bound_terms(names, s) for s in solutions])
    keep = [names.index(c) for c in claims if c in names]
    rows: list[dict[str, Any]] = []
    claim_rows, counted, more = [], 0, False
    stop = offset + (limit if limit is not None else 0) + COUNT_PAST
    for solution in solutions:
        if counted >= stop and limit is not None:
            more = True
            break
        if offset <= counted and (limit is None or len(rows) < limit):
            rows.append(bound_terms(names, solution))
        if keep:
            claim_rows.append(tuple(solution[i].value if solution[i] is not None else None for i in keep))
        counted += 1
    return Results(names, rows, counted, more, claim_rows if keep else None)
