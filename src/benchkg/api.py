"""benchkg from Python, the layer the ``benchkg`` command calls: open a records folder, ask it the
saved questions, get Python values back.

>>> import benchkg
>>> kg = benchkg.open("data")
>>> rows = kg.query("leaderboard", model="llama2-70b", scenario="server", suite="mlperf-inference-v6.1", accuracy="99.9")
>>> top = rows[0]
>>> top["accelerators"], top["accelerator_count"], top["value"], top["unit"], top["derived"]
('nvidia-gb300', 8, Decimal('127984'), 'tokens/s', True)
>>> rows.to_pandas().loc[0, "per_accelerator"]          # doctest: +SKIP
Decimal('15998')

Every command has its call here: :meth:`KnowledgeGraph.build`, :meth:`~KnowledgeGraph.report`
(validate), :meth:`~KnowledgeGraph.answer` (query), :meth:`~KnowledgeGraph.queries`,
:meth:`~KnowledgeGraph.compare`, :meth:`~KnowledgeGraph.show`, :meth:`~KnowledgeGraph.export`,
:meth:`~KnowledgeGraph.site`, :meth:`~KnowledgeGraph.push`, :meth:`~KnowledgeGraph.server` (serve),
:meth:`~KnowledgeGraph.draft`, and the functions :func:`explain`, :func:`import_data` (import),
:func:`reference` and :func:`init`.

Every error is a :class:`benchkg.kernel.errors.BenchkgError` naming what to fix.

Long because it is the whole public surface in one page: :class:`KnowledgeGraph`'s methods are the
commands, each a few lines into the floors below.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import warnings
from collections.abc import Callable, Sequence
from decimal import Decimal
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from pyoxigraph import Literal, Store

from benchkg.answers.algebra import (
    Compiled,
    Condition,
    Request,
    compile_results,
    difference_note,
    unpaired_note,
    values_taken,
    wanting_note,
)
from benchkg.answers.answering import Answer, assemble
from benchkg.answers.compare import Comparison, check_claims_exist, compare_claims
from benchkg.answers.explain import TERMS
from benchkg.answers.explain import explain as meaning
from benchkg.answers.results import plain
from benchkg.answers.savedquery import ANY, SavedQuery, find_query, parse_query_text, saved_queries
from benchkg.answers.show import RecordPage
from benchkg.answers.show import describe as describe_record
from benchkg.checks.findings import Finding, Report
from benchkg.checks.reference import ReferenceSet, prepared, seed_store, seed_validation
from benchkg.checks.reference import describe as describe_reference
from benchkg.checks.validate import validate_graph
from benchkg.draft import draft
from benchkg.draft.groups import Draft
from benchkg.draft.linking import audited_reference
from benchkg.graph.backend import Embedded, Endpoint
from benchkg.graph.opening import Workspace, close_store, let_go, store_guard
from benchkg.graph.remote import PushResult, push_graph
from benchkg.graph.store import BuildResult, build_graph
from benchkg.importers.common import ImportReport, record_text
from benchkg.importers.contract import Importer, Listed, importer, listing, registered, run_import
from benchkg.kernel.arguments import check_window, checked
from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.errors import UsageError
from benchkg.kernel.rows import Results
from benchkg.kernel.terminal import Progress
from benchkg.kernel.transport import Timeouts, check_url
from benchkg.kernel.version import __version__
from benchkg.kernel.vocab import DEFAULT_BASE
from benchkg.publish.export import export_graph, format_from_path, refuse_inside
from benchkg.publish.serve import Limits, make_server
from benchkg.publish.site import PUBLISHED_AT, SiteReport, build_site
from benchkg.records.names import NAMED_KINDS, Names, Resolved, names_of, resolve
from benchkg.records.reader import record_names
from benchkg.records.scaffold import init_repo
from benchkg.records.schema import KINDS

#: the public surface (docs/data-repository.md, "The Python API", lists each with its type)
__all__ = [
    "KnowledgeGraph",
    "Limits",
    "Request",
    "Rows",
    "__version__",
    "explain",
    "import_data",
    "importers",  # deprecated: list_importers
    "list_importers",
    "init",
    "open",
    "reference",
    "value",
]

if TYPE_CHECKING:  # (pandas is an optional extra)
    import pandas

#: a value of a row (:func:`value`)
Value = str | int | float | bool | Decimal | dt.date | dt.datetime | None
_P = ParamSpec("_P")
_R = TypeVar("_R")


def value(term: Any) -> Value:
    """An RDF term as a Python value: record IRIs as short ids, concepts as their value, units as
    written in records, integers as ``int``, decimals as ``Decimal``, booleans as ``bool``, dates as
    ``date``, the rest as ``str``; ``None`` for an absent value.

    >>> from pyoxigraph import Literal, NamedNode
    >>> XSD = "http://www.w3.org/2001/XMLSchema#"
    >>> value(Literal("2025-09-09", datatype=NamedNode(XSD + "date")))
    datetime.date(2025, 9, 9)
    >>> value(Literal("1", datatype=NamedNode(XSD + "boolean"))), value(Literal("72", datatype=NamedNode(XSD + "integer")))
    (True, 72)
    """

    if isinstance(term, Literal):
        kind = term.datatype.value.rsplit("#", 1)[-1]
        try:
            if kind == "date":
                return dt.date.fromisoformat(term.value)
            if kind == "dateTime":
                return dt.datetime.fromisoformat(term.value)
        except ValueError:
            return term.value
        if kind in ("double", "float"):
            return float(term.value)
    return plain(term)


def _picked(results: Results, columns: list[str]) -> Results:
    """The answer ``results`` with only ``columns``, in that order.

    :raises UsageError: for a column the answer has not (naming those it has).
    """
    missing = [c for c in columns if c not in results.vars]
    if missing:
        raise UsageError(f"columns: this answer has no column {missing[0]!r}; it has {', '.join(results.vars)}")
    rows = [{c: row[c] for c in columns if c in row} for row in results.rows]
    return Results(list(columns), rows, results.total, results.more, results.claim_rows, results.extra)


class Rows(list[dict[str, Value]]):
    """A query's answer: a list of rows, each a dict of column -> Python value (see :func:`value`).

    ``columns`` lists the columns in order, ``caveats`` the comparison caveats the rows trigger (one
    line each), ``left_out`` what the like-with-like defaults left out ("" when nothing), and
    ``results`` keeps the RDF terms (:class:`benchkg.answers.queries.Results`).
    """

    def __init__(
        self, results: Results, caveats: Sequence[str] = (), left_out: str = "", notes: Sequence[str] = ()
    ) -> None:
        super().__init__({c: value(row.get(c)) for c in results.vars} for row in results.rows)
        self.columns = list(results.vars)
        self.results = results
        self.caveats = list(caveats)
        self.left_out = left_out
        self.notes = list(notes)  # absent rounds, why an answer is empty, what was left out

    def to_pandas(self) -> pandas.DataFrame:
        """The rows as a ``pandas.DataFrame`` whose columns arithmetic works on: decimals as float64,
        whole numbers as int64 (Int64 where some are missing), dates as datetime64, booleans as bool
        (boolean where some are missing), ids and text as object. The exact ``Decimal`` values stay
        on the rows (``rows[0]["value"]``). pandas is an optional extra: ``pip install benchkg[pandas]``.

        >>> df = open("data").query("leaderboard", model="llama2-70b", scenario="server").to_pandas()
        >>> str(df["value"].dtype), str(df["accelerator_count"].dtype), str(df["derived"].dtype)
        ('float64', 'int64', 'bool')
        """
        try:
            import pandas
        except ImportError:
            raise UsageError("to_pandas needs pandas: pip install 'benchkg[pandas]'") from None
        frame = pandas.DataFrame(list(self), columns=self.columns)
        for column in self.columns:
            frame[column] = _pandas_column(pandas, frame[column])
        return frame


def _pandas_column(pandas: Any, column: pandas.Series) -> pandas.Series:  # (pandas: the module)
    """One column in the dtype its values call for (see :meth:`Rows.to_pandas`)."""
    values = [v for v in column if v is not None]
    if not values:
        return column
    kinds = {type(v) for v in values}
    missing = len(values) < len(column)
    if kinds <= {bool}:
        return column.astype("boolean" if missing else bool)
    if kinds <= {int}:
        return column.astype("Int64" if missing else "int64")
    if kinds <= {int, float, Decimal}:
        return pandas.to_numeric(column.map(lambda v: float(v) if v is not None else None), errors="coerce")
    if kinds <= {dt.date, dt.datetime}:
        return pandas.to_datetime(column)
    return column


def _guarded(method: Callable[Concatenate[KnowledgeGraph, _P], _R]) -> Callable[Concatenate[KnowledgeGraph, _P], _R]:
    """Run ``method`` holding the store's lock: threads of one process take turns on one store (a
    query never sees a build half done, two builds never interleave)."""

    @functools.wraps(method)
    def call(self: KnowledgeGraph, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._guard:
            return method(self, *args, **kwargs)

    return call


class KnowledgeGraph:
    """One records folder (and the reference set and extensions it uses, :mod:`benchkg.records.layout`),
    built into the embedded store on first use (and what changed since, on each later call), or a SPARQL
    1.1 endpoint holding it.

    Threads may share one (calls on one store take turns). :meth:`close` lets go of the store, so
    another process (the CLI) may open it; ``with benchkg.open("data") as kg:`` closes at the end.

    :param data: the records folder.
    :param endpoint: answer queries from this SPARQL endpoint instead of the embedded store.
    :param persist: keep the store in ``.benchkg/`` beside the data (only what changed is rebuilt
        next time); ``False`` builds in memory.
    :param timeout: the longest one request to ``endpoint`` (or a push) may take, in seconds.
    """

    @checked
    def __init__(
        self,
        data: str | Path = "data",
        *,
        endpoint: str | None = None,
        persist: bool = True,
        base: str = DEFAULT_BASE,
        timeout: float | None = None,
    ) -> None:

        self.data = Path(data)
        self.endpoint = check_url(endpoint) if endpoint else None
        self.timeouts = Timeouts(total=timeout) if timeout else Timeouts()
        self.persist = persist
        self.base = base if base.endswith(("/", "#")) else base + "/"  # (IRIs are base + "id/…")
        self.workspace = Workspace.of(self.data, self.base)  # the layout read once, handed down
        self.layout = self.workspace.layout
        self._built: BuildResult | None = None
        self._names: Names | None = None

        self._guard = store_guard(self.workspace.store_dir if persist else None)

    def __enter__(self) -> "KnowledgeGraph":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let go of the embedded store (and its lock, once nothing else in this process holds it);
        the next call builds or opens it again.

        >>> kg = open("data"); _ = kg.query("submitters-per-round"); kg.close()
        >>> kg._built is None
        True
        """

        with self._guard:
            self._built = None
            let_go()

    def __repr__(self) -> str:
        return f"benchkg.open({str(self.data)!r}{', endpoint=' + repr(self.endpoint) if self.endpoint else ''})"

    @_guarded
    def build(self, progress: Progress | None = None) -> BuildResult:
        """Bring the embedded store up to date with the records; returns the
        :class:`benchkg.graph.store.BuildResult` (what was added, changed, removed).

        A data repository's new store starts from benchkg's prepared reference set
        (:mod:`benchkg.checks.reference`), so only the repository's own records are read.

        :raises InputError: naming the file, line and field of every record that cannot be read.
        """

        store = self._built.store if self._built is not None and not self.persist else None
        if self.layout.reference is not None and self.base == DEFAULT_BASE and self.data.is_dir():
            if self.persist and not self.workspace.store_dir.exists():
                seed_store(self.workspace.store_dir)
                seed_validation(self.workspace.findings_cache, self.data, self.layout.shape_dirs, self.base)
            elif not self.persist and store is None:
                store = seed_store(None, persist=False)
        self._built = build_graph(
            self.data, store, persist=self.persist, base=self.base, progress=progress, workspace=self.workspace
        )
        if self._built.touched:
            self._names = None  # read again: a record's names may have changed
        return self._built

    @property
    def store(self) -> Store:
        """The embedded pyoxigraph store, brought up to date with the records (built on first use)."""
        return self._store()

    def _store(self, progress: Progress | None = None) -> Store:
        """The embedded store, brought up to date with the records first (with ``progress`` as for
        :meth:`build`): built on first use, and on every later call what changed since (a file's stat
        against the manifest, nothing more when none did), so every call answers from the files as they
        are, as each command of the CLI does; a store built once answered after its files changed, where
        :meth:`show` read them (issue 64)."""
        with self._guard:
            return self.build(progress=progress).store

    def queries(self) -> dict[str, SavedQuery]:
        """The saved queries by name: benchkg's and the data repository's own.

        >>> "leaderboard" in open("data").queries()
        True
        """

        return saved_queries(self.layout.query_dirs)

    @checked
    def saved_query(self, name: str) -> SavedQuery:
        """The saved query ``name`` (benchkg's or the data repository's own) or a ``.rq`` file, read once
        into a :class:`benchkg.answers.queries.SavedQuery` (text, parameters, chart, caveat columns) that
        :meth:`answer` takes as it is.

        >>> q = open("data").saved_query("leaderboard")
        >>> q.name, q.chart, "scenario" in q.params
        ('leaderboard', ('system_name+accelerators+round', 'per_accelerator'), True)

        :raises UsageError: for a name no saved query has (with the closest names).
        """
        return find_query(name, self.layout.query_dirs)

    @_guarded
    def answer(
        self,
        query: str | SavedQuery,
        params: dict[str, str] | None = None,
        *,
        allow_service: bool = False,
        limit: int | None = None,
        offset: int = 0,
        cite: bool = False,
        progress: Progress | None = None,
    ) -> Answer:
        """Run a saved query (a name, a ``.rq`` file or a :meth:`saved_query`) with parameters as text;
        the answer with its caveats (:class:`benchkg.answers.answering.Answer`).
        With ``limit``/``offset`` only that window of rows is kept (``limit`` 0 or None: every row, as
        ``--limit 0``; embedded, the rest is counted and
        never held: see :func:`benchkg.answers.queries.run_sparql`); the caveats are those of the whole answer.
        With ``cite``, ``answer.disclosure`` holds the MLPerf disclosure footnotes of the rows shown.

        :raises UsageError: for a query of one's own that calls SERVICE, unless ``allow_service``.
        """

        check_window("answer", limit, offset)
        saved = query if isinstance(query, SavedQuery) else self.saved_query(query)
        saved.check_service(allow_service)
        return self._answer(saved, dict(params or {}), limit=limit, offset=offset, cite=cite, progress=progress)

    def _answer(
        self,
        saved: SavedQuery,
        params: dict[str, str],
        *,
        limit: int | None = None,
        offset: int = 0,
        cite: bool = False,
        progress: Progress | None = None,
    ) -> Answer:
        """:meth:`answer` of a saved query already checked."""
        params, resolved = self._resolve_params(saved, params)
        return assemble(
            saved,
            params,
            self._backend(progress),
            limit=limit or None,
            offset=offset,
            resolved=[r.note() for r in resolved if r.note()],
            base=self.base,
            cite=cite,
        )

    @property
    def backend(self) -> Embedded | Endpoint:
        """Where this graph's queries run (:mod:`benchkg.graph.backend`): the endpoint it was opened
        on, else the embedded store, built on first use."""
        return self._backend()

    def _backend(self, progress: Progress | None = None) -> Embedded | Endpoint:
        """:attr:`backend`, a build it needs reporting to ``progress``."""
        if self.endpoint:
            return Endpoint(self.endpoint, self.timeouts)
        return Embedded(self._store(progress))

    def _resolve_params(self, saved: SavedQuery, params: dict[str, str]) -> tuple[dict[str, str], list[Resolved]]:
        """The parameters with every record named as a person names it (an alias, another case) as its
        id, and what was resolved. Against an endpoint, a name no local record has goes as typed."""

        out, resolved = dict(params), list[Resolved]()
        for name, value in params.items():
            param = saved.params.get(name)
            if param is None or param.type != "id" or value == ANY:
                continue
            try:
                found = resolve(self.names(), [param.of], value, f"parameter {name}:")
            except UsageError:
                if self.endpoint:
                    continue
                raise
            out[name] = found.id
            resolved.append(found)
        return out, resolved

    def results_sparql(self, request: Request) -> str:
        """The SPARQL one results-algebra command compiles to (``benchkg results --explain``), nothing run.

        >>> print(open("data").results_sparql(Request(where=["round=6.1"], top=1)).splitlines()[0])
        #+ summary: results where round=6.1
        """
        return compile_results(request, self._record_id, self.base).text

    def _answer_request(self, request: Request) -> Answer:
        """One algebra request answered whole, nothing said under it (for the notes of another)."""
        compiled = compile_results(request, self._record_id, self.base)
        return self._answer(parse_query_text(compiled.text, Path("results.rq")), {}, limit=None)

    @_guarded
    def results_answer(
        self,
        request: Request,
        *,
        limit: int | None = None,
        offset: int = 0,
        list_unpaired: bool = False,
        progress: Progress | None = None,
    ) -> tuple[Answer, Compiled]:
        """The answer to one results-algebra command (:mod:`benchkg.answers.algebra`) and the command
        compiled (its ``.rq`` text in ``.text``). Under the answer: for ``pair``, the results that found no
        partner (counted; listed with ``list_unpaired``); for an empty answer, the ``where`` that emptied it.

        :raises UsageError: for a column, value or verb the algebra does not take.
        """
        if list_unpaired and not request.pair:
            raise UsageError(
                "--unpaired goes with --pair (--pair tier=99,99.9 --unpaired); without it, it changes nothing"
            )
        compiled = compile_results(request, self._record_id, self.base)
        saved = parse_query_text(compiled.text, Path("results.rq"))
        answer = self._answer(saved, {}, limit=limit, offset=offset, progress=progress)
        answer.heading = compiled.summary
        if compiled.sides:
            a, b = compiled.sides[:2]
            answer.unpaired = unpaired_note((a, b), answer.results.extra.get("unpaired", {}), list_unpaired)
        if answer.results.extra.get("as_stated"):  # pairs of a latency (no per-accelerator value): said in the title
            n = answer.results.extra["as_stated"]
            answer.heading += (
                f"; {n} pair{'s' if n != 1 else ''} compared as stated, a side having no value per accelerator "
                "(a latency, a mixed or CPU-only system)"
            )
        if request.only_in or request.not_in or request.first_in:  # side A's results not answered: counted
            answered = sum(int(r["results"].value) for r in answer.results.rows if r.get("results") is not None)
            note = difference_note(request, lambda r: self._answer_request(r).results, answered)
            answer.left_out = "\n".join(filter(None, [answer.left_out, note]))
            if note and not answer.results.rows:  # the note says why it is empty (nothing is new)
                answer.empty = ""
        if "wanting" in answer.results.extra:  # results of the slice that lack a fact the verb needs: counted
            answer.left_out = "\n".join(filter(None, [answer.left_out, wanting_note(answer.results.extra["wanting"])]))
        if not answer.results.rows and request.where and answer.empty:  # (not when a note said why already)
            answer.empty = self._emptied_by(request, self.backend.select)
        return answer, compiled

    @checked
    def results(
        self,
        *,
        where: Sequence[str] = (),
        columns: Sequence[str] = (),
        pair: str | None = None,
        hold: Sequence[str] | None = None,
        group_by: Sequence[str] = (),
        agg: str | None = None,
        best_per: Sequence[str] = (),
        only_in: str | None = None,
        not_in: str | None = None,
        sort: str | None = None,
        top: int | None = None,
        limit: int | None = None,
        first_in: str | None = None,
        over: Sequence[str] = (),
        compare: str | None = None,
    ) -> Rows:
        """One row per result with its dimensions as columns (every column of the view unless
        ``columns`` names some), filtered, paired, grouped or ranked (the results algebra; ``benchkg
        results --schema`` lists the columns). Returns :class:`Rows`, like :meth:`query`.

        >>> rows = open("data").results(where=["round=6.1", "submitter=coreweave", "model=llama2-70b"],
        ...                             pair="scenario=offline,server", hold=["platform", "tier"])
        >>> sorted(r["ratio"] > 0 for r in rows) == [True] * len(rows) and len(rows) >= 3
        True
        """
        check_window("results", limit)
        request, picked = Request.of(
            every_column=True,
            where=where,
            columns=columns,
            pair=pair,
            hold=hold,
            group_by=group_by,
            agg=agg,
            best_per=best_per,
            only_in=only_in,
            not_in=not_in,
            sort=sort,
            top=top,
            first_in=first_in,
            over=over,
            compare=compare,
        )
        answer, _ = self.results_answer(request, limit=limit)
        results = _picked(answer.results, picked) if picked else answer.results
        return Rows(results, [c.text() for c in answer.caveats], answer.left_out, answer.notes())

    def _record_id(self, kind: str, text: str, what: str | None = None) -> str:
        """The id of the record of ``kind`` that ``text`` names (any name or alias, any case); against
        an endpoint, a name no local record has goes as typed. ``what`` heads the error (``kind:``)."""
        try:
            return resolve(self.names(), [kind], text, f"{kind}:" if what is None else what).id
        except UsageError:
            if self.endpoint:
                return text
            raise

    def _emptied_by(self, request: Request, select: Callable[[str], list[Any]]) -> str:
        """Which ``where`` condition, added one by one, leaves no result."""
        for n in range(1, len(request.where) + 1):
            probe = compile_results(
                Request(where=request.where[:n], columns=["claim"], top=1), self._record_id, self.base
            )
            if not select(probe.text):
                before = f" (with {', '.join(request.where[: n - 1])})" if n > 1 else ""
                taken = values_taken(
                    Condition.parse(request.where[n - 1]),
                    request.where[: n - 1],
                    select,
                    lambda r: compile_results(r, self._record_id, self.base).text,
                )
                return f"Empty because no result has {request.where[n - 1]}{before}.{taken}"
        return "Empty: every condition matches results, but the verbs (pair, best-per, not-in) leave none."

    @checked
    def find(self, ident: str) -> Resolved:
        """The record ``ident`` names: an id, ``kind/id``, or any name or alias of a record, in any case
        (:class:`benchkg.records.names.Resolved`).

        >>> open("data").find("NVIDIA GB300").id
        'nvidia-gb300'

        :raises UsageError: when it names no record (with the closest) or several (say which kind).
        """

        kind, sep, rest = ident.partition("/")
        if sep and kind in KINDS:
            return resolve(self.names(), [kind], rest, "")
        return resolve(self.names(), [k for k in KINDS if k in NAMED_KINDS], ident, "")

    @checked
    def query(self, name: str, *, limit: int | None = None, offset: int = 0, **params: object) -> Rows:
        """Run a saved query; parameters as keywords (``"any"`` lifts a default), ``limit`` and
        ``offset`` a window of its rows. Returns :class:`Rows` of Python values.

        >>> rows = open("data").query("submitters-per-round")
        >>> rows.columns[:3], rows[0]["version"], isinstance(rows[0]["submitters"], int)
        (['suite', 'version', 'submitters'], '4.1', True)
        """
        check_window("query", limit, offset)
        text = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in params.items()}
        answer = self.answer(name, text, limit=limit, offset=offset)
        return Rows(answer.results, [c.text() for c in answer.caveats], answer.left_out, answer.notes())

    @_guarded
    def report(self, engine: str = "fast", progress: Progress | None = None) -> Report:
        """Validate against the shapes (benchkg's and the data repository's), incrementally against
        the findings cached beside the store; the :class:`benchkg.checks.validate.Report`."""

        cache = self.workspace.findings_cache if self.persist else None
        store = self._store(progress)
        report = validate_graph(
            store,
            self.data,
            base=self.base,
            engine=engine,
            cache=cache,
            progress=progress,
            layout=self.layout,
        )
        if self.layout.reference is not None:  # benchkg's own records are benchkg's business, not the repository's
            reference = str(self.layout.reference.resolve())
            kept = [f for f in report.findings if not str(Path(f.file).resolve()).startswith(reference + os.sep)]
            report.hidden, report.findings = len(report.findings) - len(kept), kept
        return report

    def validate(self, engine: str = "fast") -> list[Finding]:
        """The findings: every convention a record breaks, with file, line, field and severity
        (:class:`benchkg.checks.validate.Finding`).

        >>> [f for f in open("data").validate() if f.severity == "violation"]
        []
        """
        return self.report(engine).findings

    @_guarded
    @checked
    def show(self, ident: str, all_referrers: bool = False, progress: Progress | None = None) -> RecordPage:
        """One record (:class:`benchkg.answers.show.RecordPage`): its fields, what refers to it, the
        gotchas that apply and its findings; ``str()`` of it is the page ``benchkg show`` prints (derived
        values and what its terms mean too).

        >>> page = open("data").show("nvidia-gb200")
        >>> print(str(page).splitlines()[0]), page.fields["vendor_id"], "accelerators/nvidia-gb200-nvl72" in page.referrers
        accelerators/nvidia-gb200
        (None, 'nvidia', True)
        """

        found = self.find(ident)
        return describe_record(
            self._backend(progress),
            self.data,
            f"{found.kind}/{found.id}",
            None if self.endpoint else self.report(progress=progress).findings,
            base=self.base,
            all_referrers=all_referrers,
            layout=self.layout,
        )

    @_guarded
    @checked
    def compare(self, a: str, b: str, progress: Progress | None = None) -> Comparison:
        """Whether two claims can be compared: values, ratio, every difference and the caveats
        (:class:`benchkg.answers.compare.Comparison`; ``.text()`` reads it)."""

        a, b = (self._record_id("benchmarks", claim, "claim") for claim in (a, b))
        backend = self._backend(progress)
        check_claims_exist(backend, [a, b], self.base)
        return compare_claims(backend, a, b, self.base)

    @_guarded
    @checked
    def push(
        self,
        endpoint: str,
        *,
        gsp: str | None = None,
        update_endpoint: str | None = None,
        progress: Progress | None = None,
    ) -> PushResult:
        """Make the SPARQL store at ``endpoint`` hold exactly this graph, sending only what changed
        (:func:`benchkg.graph.remote.push_graph`); the :class:`benchkg.graph.remote.PushResult`.

        :raises StoreError: unreachable store, a redirect, a timeout, refused credentials, rejected data.
        """

        check_url(endpoint)
        for url, what in ((gsp, "--gsp"), (update_endpoint, "--update-endpoint")):
            if url:
                check_url(url, what)
        return push_graph(
            self._store(progress),
            endpoint,
            gsp=gsp,
            update_endpoint=update_endpoint,
            base=self.base,
            progress=progress,
            timeouts=self.timeouts,
        )

    def names(self) -> Names:
        """Every record's names (ids, names, aliases) of this folder and the reference set it uses
        (:class:`benchkg.records.names.Names`), read once per build."""

        if self._names is None:
            self._names = names_of(self.layout.layers)
        return self._names

    @checked
    def draft(self, source: str | Path, out: str | Path | None = None) -> list[Draft]:
        """The draft claims of a saved blog post, press release or record page, one per number it states
        with its own context (:mod:`benchkg.draft`); with ``out``, each written there as
        ``benchmarks/<id>.json`` (and the page's ``sources/<id>.json``, and for a claim the text says is
        unaudited, the vendor's own claim series ``suites/<submitter>-claims.json``).

        :raises UsageError: for a page it cannot read, or a record that already exists in ``out`` (then
            none is written).
        """

        names = self.names()
        results = draft(Path(source), names, audited_reference(self.layout.layers))
        if out is not None:
            claims = [Path(out) / "benchmarks" / f"{r.record['id']}.json" for r in results]
            existing = [c for c in claims if c.exists()]
            if existing:
                raise UsageError(
                    f"{existing[0]} exists; benchkg draft never overwrites a record (remove it, or draft into another folder)"
                )
            for claim, result in zip(claims, results):
                write_atomic(claim, record_text(result.record).encode("utf-8"))
            page = results[0].source
            source_file = Path(out) / "sources" / f"{page['id']}.json"
            if not source_file.exists() and not names.resolve("sources", page["id"]):  # a known source is kept
                write_atomic(source_file, record_text(page).encode("utf-8"))
            for suite in {r.suite["id"]: r.suite for r in results if r.suite}.values():  # a vendor's own series
                suite_file = Path(out) / "suites" / f"{suite['id']}.json"
                if not suite_file.exists() and not names.resolve("suites", suite["id"]):
                    write_atomic(suite_file, record_text(suite).encode("utf-8"))
        return results

    @_guarded
    @checked
    def export(self, path: str | Path, format: str | None = None, progress: Progress | None = None) -> Path:
        """Write the graph to ``path`` (Turtle, N-Triples, TriG, N-Quads or JSON-LD, by the file name
        unless ``format`` says); returns the path."""

        format_from_path(Path(path), format)
        refuse_inside(Path(path), self.data)
        export_graph(self._store(progress), Path(path), format, self.base)
        return Path(path)

    @checked
    def site(
        self,
        out: str | Path,
        *,
        endpoint: str | None = None,
        published_at: str = PUBLISHED_AT,
        findings: list[Finding] | None = None,
        progress: Progress | None = None,
    ) -> SiteReport:
        """Write the static linked-data site to ``out`` (:func:`benchkg.publish.site.build_site`), with
        each record's findings on its page (``findings``: those of :meth:`report`, found here unless
        given); the :class:`benchkg.publish.site.SiteReport`.

        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp())
        >>> (d / "models").mkdir(); _ = (d / "models" / "m.json").write_text('{"id": "m", "name": "M"}')
        >>> report = open(d, persist=False).site(d.parent / (d.name + "-site"))
        >>> report.entities, (report.out / "id" / "models" / "m" / "index.html").is_file()
        (1, True)

        :raises UsageError: when ``out`` exists and is not a site benchkg wrote.
        """
        if endpoint:
            check_url(endpoint)
        check_url(published_at, "--published-at")
        findings = self.report(progress=progress).findings if findings is None else findings
        return build_site(
            self._store(progress),
            self.data,
            Path(out),
            base=self.base,
            endpoint=endpoint,
            findings=findings,
            progress=progress,
            published_at=published_at,
            own_claims=self._own_claims(),
        )

    def _own_claims(self) -> list[str]:
        """The ids of a data repository's own claims (none for a records folder that is not one)."""
        if self.layout.reference is None:
            return []
        return [name[: -len(".json")] for kind, name in record_names(self.data) if kind == "benchmarks"]

    def server(
        self, host: str = "127.0.0.1", port: int = 7878, limits: Limits | None = None, progress: Progress | None = None
    ) -> ThreadingHTTPServer:
        """A read-only SPARQL endpoint on the store, built first (``progress`` as for :meth:`build`),
        not yet serving: call its ``serve_forever()`` (:func:`benchkg.publish.serve.make_server`). The
        store is let go of first: each query opens it read-only in a process of its own, and this
        process may build meanwhile.

        >>> server = open("data").server(port=0)
        >>> server.server_address[0], server.server_address[1] > 0
        ('127.0.0.1', True)
        >>> server.server_close()
        """
        self.build(progress=progress)
        path = self.workspace.store_dir
        self.close()
        close_store(path)
        return make_server(path, host, port, limits)


def reference(prepare: bool = False, progress: Progress | None = None) -> ReferenceSet:
    """benchkg's reference set, by version (:class:`benchkg.checks.reference.ReferenceSet`); with ``prepare``,
    built into its cache first (what a data repository's first command otherwise does).

    >>> reference().name.startswith("MLPerf Inference v4.1, v5.1, v6.0")
    True
    """

    if prepare:
        prepared(progress=progress)
    return describe_reference()


@checked
def open(data: str | Path = "data", **options: Any) -> KnowledgeGraph:  # noqa: A001 - benchkg.open, as in the README
    """Open a records folder (see :class:`KnowledgeGraph` for the options).

    >>> open("data")
    benchkg.open('data')
    """
    return KnowledgeGraph(data, **options)


@checked
def explain(term: str) -> tuple[str, str]:
    """``(term, what it means)`` for a term of the field (any case, a few spellings); ``"all"`` gives
    every term, one per line.

    >>> explain("preview")[1][:38]
    'An MLPerf availability category: a sys'

    :raises UsageError: for a term it does not know, naming the closest.
    """
    if term == "all":
        return "all", "\n".join(f"{k}: {v}" for k, v in TERMS.items())
    return meaning(term)


def list_importers() -> list[Listed]:
    """The importers ``benchkg import`` knows, sorted by name: benchkg's own and those other installed
    packages register (entry points of group ``benchkg.importers``; docs/importers.md), each imported
    alone. One that does not load is listed with why (``problem``, naming it and its package), and the
    others still work.

    >>> [found.name for found in list_importers() if found.importer][:3]
    ['epoch', 'inferencex', 'mlperf']
    """
    return listing()


def importers() -> dict[str, Importer]:
    """Deprecated (its name is the package ``benchkg.importers``'s): :func:`list_importers`. The
    importers that load, by name."""
    warnings.warn(
        "benchkg.api.importers() is deprecated: call benchkg.api.list_importers() (one entry per importer, "
        "with why one does not load)",
        DeprecationWarning,
        stacklevel=2,
    )
    return registered()


@checked
def import_data(
    source: str, paths: Sequence[str | Path], out: str | Path = "data", progress: Progress | None = None
) -> ImportReport:
    """Turn third-party data into records in ``out`` (same input, same files, byte for byte), with the
    importer called ``source`` (:func:`list_importers`): ``mlperf`` round folders, Epoch's
    ``ml_hardware.csv``, an InferenceX benchmarks export, or a registered plugin's input. Every path is
    read before anything is written: input that is refused writes nothing.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> sample = importer("inferencex").sample  # (each importer ships a sample of its input)
    >>> report = import_data("inferencex", [sample], out)
    >>> len(list(out.glob("benchmarks/inferencex-*.json"))) > 0, report.text().startswith("imported")
    (True, True)

    :raises UsageError: for a source no importer is registered as.
    :raises InputError: naming file, line and field of input that is not what it should be.
    """
    if isinstance(paths, (str, Path)) or not all(isinstance(p, (str, Path)) for p in paths):
        raise UsageError(f"benchkg.import_data(paths={paths!r:.60}): paths is a list of paths")
    return run_import(importer(source), [Path(p) for p in paths], Path(out), progress)


@checked
def init(target: str | Path) -> list[Path]:
    """Start a data repository of one's own in ``target`` (missing or empty): data/ with an example
    claim, benchkg.toml, queries/, shapes/, a .gitignore, a pre-commit config and a CI workflow; the
    files written (:func:`benchkg.records.scaffold.init_repo`).

    >>> import tempfile
    >>> written = init(Path(tempfile.mkdtemp()) / "claims")
    >>> any(p.name == "benchkg.toml" for p in written)
    True

    :raises UsageError: if ``target`` is a file or a folder with something in it.
    """
    return init_repo(Path(target))
