"""The ``benchkg`` command: each command turns its arguments into one call of the Python API
(:mod:`benchkg.api`) and prints what it returns; a progress bar (on a terminal) is the only thing it
adds. It imports nothing of benchkg but the API and the kernel's errors and terminal
(``tests/test_layers.py`` holds it to that). benchkg's errors become a message and an exit code
in one place, :class:`_Commands` (0 fine, 1 the data breaks a convention, 2 unreadable input or
misuse, 3 an unexpected error: one line, the traceback with ``--debug``).
The API is imported inside the commands so ``--help`` stays fast.

Long because typer declares each command's options in its signature; each command's body is a few
lines.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from typer.core import TyperGroup

#: where an unexpected error is reported
ISSUES_URL = "https://github.com/benchkg/benchkg/issues"


class _Commands(TyperGroup):
    """Every command's unexpected error becomes exit 3 and one line (the traceback with --debug):
    exit 1 means the data breaks a convention, and CI must be able to trust it."""

    def invoke(self, ctx):
        from benchkg.kernel.errors import BenchkgError, cannot_write

        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort):
            raise
        except BrokenPipeError:  # `benchkg query … | head`: the reader has what it wanted
            _quiet_stdout()
            raise typer.Exit(0) from None
        except BenchkgError as e:  # one that no command turned into its message already
            if _state["debug"]:
                raise
            message, code = str(e), e.exit_code
        except Exception as e:  # anything else is benchkg's fault, not the user's input
            if _state["debug"] or callable(getattr(e, "format_message", None)):
                raise  # --debug; or click's own usage errors, which it reports (exit 2)
            message, code = cannot_write(e), 2  # a full disk, a file-size limit, a closed output
            if message is None:
                what = " ".join(f"{type(e).__name__}: {e}".split())
                message = (
                    f"benchkg failed unexpectedly ({what[:300]}). This is a bug; please report it at "
                    f"{ISSUES_URL} with the output of the same command run as `benchkg --debug ...`."
                )
                code = 3
            _quiet_stdout()
        _fail(message, code)


def _quiet_stdout() -> None:
    """Point a stdout that can no longer be written (a closed pipe, a full disk) at /dev/null, so
    that Python's flush at exit does not fail a second time."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    except OSError:
        pass


app = typer.Typer(
    cls=_Commands,
    pretty_exceptions_enable=False,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="benchkg: a knowledge graph of AI-inference benchmark claims.\n\n"
    "Example: benchkg build && benchkg query leaderboard --param model=llama2-70b --param scenario=server",
)
_state = {"debug": False}


def _url(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
    """An http(s) URL option, checked as it is parsed (before any build): exit 2 naming it."""
    from benchkg.views import check_url

    return check_url(value, param.opts[0]) if value else value


def _text(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
    """A text option that must be UTF-8 (Python hands undecodable bytes on as surrogates)."""
    if value is not None and any("\udc80" <= c <= "\udcff" for c in value):
        raise typer.BadParameter("holds bytes that are not UTF-8; write it in UTF-8")
    return value


DataOpt = typer.Option(
    Path("data"), "--data", envvar="BENCHKG_DATA", help="The records folder (default ./data, env BENCHKG_DATA)."
)


def _endpoint_option(help: str):
    """``--endpoint URL`` (or BENCHKG_ENDPOINT): answer from a SPARQL 1.1 endpoint; ``help`` says what it is asked."""
    return typer.Option(None, "--endpoint", envvar="BENCHKG_ENDPOINT", callback=_url, help=help)


TimeoutOpt = typer.Option(
    120.0,
    "--timeout",
    min=0.1,
    help="The longest one request to the store may take, in seconds (connecting: 10 s at "
    "most; silence: 30 s at most). Redirects are refused, never followed.",
)


class ValidateFormat(str, Enum):
    text = "text"
    json = "json"
    turtle = "turtle"
    github = "github"
    sarif = "sarif"


class Engine(str, Enum):
    fast = "fast"
    pyshacl = "pyshacl"


class QueryFormat(str, Enum):
    """The formats ``benchkg query`` and ``benchkg results`` write."""

    table = "table"
    csv = "csv"
    tsv = "tsv"
    json = "json"
    markdown = "markdown"
    sparql_json = "sparql-json"
    sparql_csv = "sparql-csv"
    sparql_tsv = "sparql-tsv"
    sparql_xml = "sparql-xml"


def _echo(text: str, *, err: bool = False, nl: bool = True, data: bool = False) -> None:
    """Write ``text``: for people (and any terminal) with its control characters shown, not obeyed
    (:mod:`benchkg.kernel.terminal`); a data format to a file or a pipe as it is."""
    from benchkg.kernel.terminal import printable

    stream = sys.stderr if err else sys.stdout
    if stream is None:  # stderr closed (`2>&-`): nothing can be said there
        return
    if not data or stream.isatty():
        text = printable(text)
    typer.echo(text, err=err, nl=nl)


def _fail(message: str, code: int = 2) -> None:
    _echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def _progress(what: str):
    """A rich progress callback ``(done, total)`` while the block runs, when stdout is a terminal;
    None otherwise. The bar goes when the block ends, however it ends."""
    if not sys.stdout.isatty():
        yield None
        return
    from rich.progress import Progress

    bar = Progress(transient=True)
    task = bar.add_task(what, total=None)
    bar.start()
    try:
        yield lambda done, total: bar.update(task, completed=done, total=total)
    finally:
        bar.stop()


def _open(data: Path, endpoint: str | None = None, timeout: float | None = None):
    """The knowledge graph of ``data`` (a records folder or a data repository's), for a command."""
    from benchkg.api import KnowledgeGraph

    return KnowledgeGraph(data, endpoint=endpoint, timeout=timeout)


def _version(value: bool) -> None:
    if value:
        from benchkg.api import __version__

        _echo(f"benchkg {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks."),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print benchkg's version and stop."
    ),
):
    _state["debug"] = debug


@app.command()
def build(data: Path = DataOpt):
    """Load the records into the embedded store (.benchkg/ beside the data), only what changed.

    Example: benchkg build --data data
    """
    with _progress("building") as cb:
        result = _open(data).build(progress=cb)
    _echo(
        f"built {data}: {len(result.added)} added, {len(result.changed)} changed, "
        f"{len(result.removed)} removed, {result.unchanged} unchanged; {len(result.store)} quads"
    )


@app.command()
def validate(
    data: Path = DataOpt,
    format: ValidateFormat = typer.Option(ValidateFormat.text, "--format", "-f", help="Report format."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    engine: Engine = typer.Option(
        Engine.fast, "--engine", help="fast (SPARQL on the store) or pyshacl (the reference, slow)."
    ),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="Only the summary line (text format); the exit code is the same."
    ),
    timings: bool = typer.Option(
        False, "--timings", help="Also print (on stderr) the seconds of the build and of each shape, slowest first."
    ),
):
    """Check the records against the conventions in shapes/; exit 1 on a violation.

    Example: benchkg validate --format github --strict   (or: benchkg validate --timings)
    """
    from benchkg.views import validation

    kg = _open(data)
    with _progress("validating") as cb:
        checked = validation(kg, format.value, engine=engine.value, quiet=quiet, progress=cb, timings=timings)
    del kg  # the Exit below carries this frame, which must not hold the store open
    if checked.out:
        _echo(checked.out, data=checked.data)
    if checked.error:
        _fail(checked.error)
    if checked.note:
        _echo(checked.note, err=True)
    raise typer.Exit(checked.exit_code(strict))


@app.command()
def query(
    name: str = typer.Argument(..., help="A saved query name (see `benchkg queries`) or a .rq file."),
    param: List[str] = typer.Option([], "--param", "-p", help="KEY=VALUE, repeatable."),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f", help="Output format."),
    endpoint: Optional[str] = _endpoint_option("Query a SPARQL 1.1 endpoint instead of the embedded store."),
    chart: Optional[Path] = typer.Option(None, "--chart", help="Also draw the query's chart to FILE.png or FILE.svg."),
    limit: Optional[int] = typer.Option(
        None, "--limit", min=0, help="At most N rows (0: all). A table shows 25 unless told."
    ),
    offset: int = typer.Option(0, "--offset", min=0, help="Skip the first N rows."),
    title: Optional[str] = typer.Option(
        None, "--title", callback=_text, help="The chart's title (default: the query's summary)."
    ),
    allow_service: bool = typer.Option(
        False, "--allow-service", help="Run a query that uses SERVICE (it fetches other URLs)."
    ),
    timeout: float = TimeoutOpt,
    columns: Optional[str] = typer.Option(None, "--columns", help="The columns a table shows, in order: NAME,NAME,…"),
    wide: bool = typer.Option(
        False, "--wide", help="A table with every column and nothing shortened (wider than the terminal if need be)."
    ),
    cite: bool = typer.Option(
        False,
        "--cite",
        help="Footnote each row's result as the MLPerf results-messaging "
        "guidelines ask (round, division, category, availability, result id, source; "
        "derived values marked). Always on for markdown.",
    ),
    data: Path = DataOpt,
):
    """Run a saved query with typed parameters. table and markdown are for people; csv, tsv and json
    (a list of objects) have short ids and plain numbers; sparql-json, sparql-csv, sparql-tsv and
    sparql-xml are the W3C SPARQL 1.1 results formats. The comparison caveats the rows trigger are
    listed once under the answer (on stderr for the data formats).

    Example: benchkg query leaderboard --param model=llama2-70b --param scenario=server --chart lb.png
    """
    from benchkg.views import parse_params, query_view

    kg = _open(data, endpoint, timeout)
    with _progress("answering") as cb:
        shown = query_view(
            kg,
            name,
            parse_params(param),
            format=format.value,
            limit=limit,
            offset=offset,
            columns=tuple(c.strip() for c in columns.split(",") if c.strip()) if columns else (),
            wide=wide,
            cite=cite,
            allow_service=allow_service,
            chart=chart,
            title=title,
            progress=cb,
        )
    _print(shown)
    if shown.chart is not None:
        _echo(f"chart written to {shown.chart}", err=True)


def _print(shown) -> None:
    """An answer as the API renders it: the rows, then the names resolved (stderr) and the notes
    (under a table for people; on stderr where stdout is data for a program)."""
    _echo(shown.out, nl=not shown.out.endswith("\n"), data=shown.data)
    for note in shown.resolved:
        _echo(note, err=True)
    for note in shown.notes:
        _echo(note, err=shown.data)


@app.command()
def results(
    where: List[str] = typer.Option(
        [],
        "--where",
        "-w",
        help="COL=V, COL!=V, COL<V, COL>V, COL~TEXT or COL=in:A,B; repeatable (all must hold). round<6.1 compares the rounds of one suite family (MLPerf Inference's, or the one named: round<=mlperf-endpoints-v0.7).",
    ),
    columns: Optional[str] = typer.Option(None, "--columns", help="The columns, in order: NAME,NAME,…"),
    pair: Optional[str] = typer.Option(
        None, "--pair", help="COL=A,B: one row per held key with both sides and the ratio B ÷ A."
    ),
    hold: Optional[str] = typer.Option(
        None,
        "--hold",
        help="With --pair, the columns both sides share (default: submitter, platform, accelerator_count, model, tier, scenario, round, division, unit, less the paired one; and the system, when the paired column is a run's: tier, model, scenario, metric, unit, scope, input_length or output_length).",
    ),
    unpaired: bool = typer.Option(False, "--unpaired", help="With --pair, list the results that found no partner."),
    group_by: Optional[str] = typer.Option(None, "--group-by", help="COL,COL: one row per group."),
    agg: Optional[str] = typer.Option(
        None,
        "--agg",
        help="With --group-by: count (the default), share, distinct:COL, sum|min|max|avg|median[:COL] (of value by default; a value aggregate is per unit too). With --pair and --group-by: median|min|max|avg|count[:ratio|:a|:b].",
    ),
    best_per: Optional[str] = typer.Option(
        None, "--best-per", help="COL,COL: the best result of each group (and unit)."
    ),
    only_in: Optional[str] = typer.Option(None, "--only-in", help="COL=A (or COL=A,B): with --not-in, what A has…"),
    not_in: Optional[str] = typer.Option(
        None, "--not-in", help="COL=B (or COL=B,C, or round<6.1): …that B has not (by --group-by)."
    ),
    first_in: Optional[str] = typer.Option(
        None, "--first-in", help="COL=V: with --over, the values seen with COL=V and never before (round=6.1)."
    ),
    over: Optional[str] = typer.Option(None, "--over", help="COL,COL: what --first-in looks for (chip, submitter…)."),
    compare: Optional[str] = typer.Option(
        None,
        "--compare",
        help="With --pair or --best-per: value or per_accelerator (default: per accelerator unless a pair holds accelerator_count).",
    ),
    sort: Optional[str] = typer.Option(
        None, "--sort", help="COL, or -COL for descending; an aggregate as written (-median)."
    ),
    top: Optional[int] = typer.Option(None, "--top", help="The first N rows of the answer."),
    schema: bool = typer.Option(False, "--schema", help="List the columns with their types and examples."),
    explain: bool = typer.Option(
        False, "--explain", help="Print the SPARQL (a .rq file `benchkg query` runs) and stop."
    ),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f", help="Output format."),
    limit: Optional[int] = typer.Option(
        None, "--limit", min=0, help="At most N rows (0: all). A table shows 25 unless told."
    ),
    wide: bool = typer.Option(
        False, "--wide", help="A table with every column and nothing shortened (wider than the terminal if need be)."
    ),
    endpoint: Optional[str] = _endpoint_option("Query a SPARQL 1.1 endpoint instead of the embedded store."),
    timeout: float = TimeoutOpt,
    data: Path = DataOpt,
):
    """Any comparison without SPARQL: one row per result, every dimension a column, and verbs that
    filter, pair, group and rank them (compiled to one SPARQL query; --explain prints it).

    Example: benchkg results --where round=6.1 --where model=gpt-oss-120b --best-per submitter --sort -per_accelerator

    More:
      benchkg results --where model=llama2-70b --pair tier=99,99.9
      benchkg results --where division=closed --group-by host_cpu_vendor --agg count
      benchkg results --where family=mlperf-inference --group-by base_chip --agg distinct:chip_spelling
      benchkg results --group-by submitter --only-in round=6.0 --not-in round=6.1
      benchkg results --where round=6.1 --pair scenario=offline,server --group-by chip --agg median
      benchkg results --where family=mlperf-inference --first-in round=6.1 --over chip
      benchkg results --where chip_vendor=any:amd --columns claim,chip,chip_vendor
    """
    from benchkg.api import Request
    from benchkg.views import results_schema, results_view

    if schema:
        for c in results_schema():
            _echo(
                f"{c['column']:<24} {c['type']:<28} e.g. {c['example']}" + (f"  ({c['about']})" if c["about"] else "")
            )
        return
    split = lambda text: [c.strip() for c in (text or "").split(",") if c.strip()]  # noqa: E731
    request, picked = Request.of(  # the one request kg.results makes of the same options
        where=list(where),
        columns=split(columns),
        pair=pair,
        hold=split(hold) if hold is not None else None,
        group_by=split(group_by),
        agg=agg,
        best_per=split(best_per),
        only_in=only_in,
        not_in=not_in,
        sort=sort,
        top=top,
        first_in=first_in,
        over=split(over),
        compare=compare,
    )
    kg = _open(data, endpoint, timeout)
    with _progress("answering") as cb:
        shown = results_view(
            kg,
            request,
            format=format.value,
            limit=limit,
            wide=wide,
            columns=tuple(picked),
            list_unpaired=unpaired,
            explain=explain,
            progress=cb,
        )
    _print(shown)


@app.command("queries")
def list_queries(data: Path = DataOpt):
    """List the saved queries, what they answer and their parameters (benchkg's, and a data
    repository's own queries/).

    Example: benchkg queries
    """
    kg = _open(data)
    for q in kg.queries().values():
        _echo(f"{q.name}: {q.summary}")
        for p in q.params.values():
            _echo(f"    --param {p.describe()}")


@app.command()
def compare(
    a: str = typer.Argument(..., help="A claim id."),
    b: str = typer.Argument(..., help="Another claim id."),
    endpoint: Optional[str] = _endpoint_option("Ask a SPARQL 1.1 endpoint instead of the embedded store."),
    timeout: float = TimeoutOpt,
    data: Path = DataOpt,
):
    """Say whether two claims can be compared, every difference, and the gotchas that apply.

    Example: benchkg compare bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server bench-mlperf-endpoints-v0-7-coreweave-gb200-nvl72-deepseek-r1
    """
    kg = _open(data, endpoint, timeout)
    with _progress("building") as cb:
        comparison = kg.compare(a, b, progress=cb)
    _echo(comparison.text())


@app.command()
def show(
    ident: str = typer.Argument(..., metavar="ID", help="A record id, kind/id, or any name or alias (any case)."),
    all_referrers: bool = typer.Option(
        False, "--all", help="List every record that refers to it (not counts by kind)."
    ),
    endpoint: Optional[str] = _endpoint_option(
        "Ask a SPARQL 1.1 endpoint for what refers to it (the record is read from --data)."
    ),
    timeout: float = TimeoutOpt,
    data: Path = DataOpt,
):
    """Show one record: its fields, derived values, what refers to it, its gotchas and findings.

    Example: benchkg show "NVIDIA GB300"   (or an id: benchkg show mlperf-6.0-0075-llama2-70b-99-offline)
    """
    kg = _open(data, endpoint, timeout)
    found = kg.find(ident)
    if found.note():
        _echo(f"({found.note()})", err=True)
    with _progress("validating") as cb:
        page = kg.show(f"{found.kind}/{found.id}", all_referrers, progress=cb)
    _echo(str(page))


@app.command()
def explain(
    term: str = typer.Argument(
        ..., metavar="TERM", help="A term of the field: inferred, preview, closed, accuracy tier…"
    ),
):
    """Say what one of MLPerf's terms means (inferred, preview, available, rdi, closed, open, accuracy tier,
    the scenarios, derived, per accelerator, measured by, fabric present). `benchkg show` says it beside a
    record that uses one.

    Example: benchkg explain inferred
    """
    from benchkg.api import explain as meaning

    key, text = meaning(term)
    _echo(f"{key}: {text}" if key != "all" else text)


@app.command()
def export(
    output: Path = typer.Option(..., "-o", "--output", help="The file to write."),
    format: Optional[str] = typer.Option(
        None, "--format", "-f", help="ttl, nt, trig, nq or jsonld; by default from the file name."
    ),
    data: Path = DataOpt,
):
    """Write the graph to a file: Turtle, N-Triples, TriG, N-Quads or JSON-LD.

    Example: benchkg export -o graph.ttl
    """
    from benchkg.views import format_from_path

    fmt = format_from_path(output, format)
    with _progress("building") as cb:
        _open(data).export(output, format, progress=cb)
    _echo(f"wrote {output} ({fmt}, {output.stat().st_size:,} bytes)")


@app.command()
def site(
    output: Path = typer.Option(..., "-o", "--output", help="The folder to write (replaced if benchkg wrote it)."),
    endpoint: Optional[str] = typer.Option(
        None, "--endpoint", callback=_url, help="A public SPARQL endpoint serving this data, named in void.ttl."
    ),
    published_at: str = typer.Option(
        "https://benchkg.github.io/benchkg/",
        "--published-at",
        callback=_url,
        help="The URL the site is published at: w3id.htaccess redirects there.",
    ),
    data: Path = DataOpt,
):
    """Write a static linked-data site: a page per record (with .ttl/.jsonld), kind indexes, the
    saved comparisons with charts, the ontology, dumps and a VoID/DCAT description, with the Apache
    rules (.htaccess) that make each IRI answer Turtle, JSON-LD or HTML by Accept header, and the
    same rules for the w3id.org redirect (w3id.htaccess).

    Open DIR/index.html in a browser, or publish DIR at the base IRI.

    Example: benchkg site -o site && python -m http.server -d site 8000
    """
    with _progress("writing the site") as cb:
        result = _open(data).site(output, endpoint=endpoint, published_at=published_at, progress=cb)
    _echo(
        f"wrote {result.out}: {result.pages:,} pages ({result.entities:,} records, {result.charts} charts), "
        f"{result.files:,} files, {result.bytes / 1e6:,.1f} MB; open {result.out / 'index.html'}"
    )


@app.command()
def push(
    endpoint: str = typer.Option(
        ...,
        "--endpoint",
        envvar="BENCHKG_ENDPOINT",
        callback=_url,
        help="The store's SPARQL query endpoint (reads the push manifest).",
    ),
    gsp: Optional[str] = typer.Option(
        None,
        "--gsp",
        callback=_url,
        help="Graph Store Protocol endpoint; guessed from --endpoint for Oxigraph and Fuseki.",
    ),
    update_endpoint: Optional[str] = typer.Option(
        None,
        "--update-endpoint",
        callback=_url,
        help="Use SPARQL Update at this URL instead of the Graph Store Protocol.",
    ),
    timeout: float = TimeoutOpt,
    data: Path = DataOpt,
):
    """Load the graph into a SPARQL 1.1 store, one graph per record, sending only what changed.

    Credentials from BENCHKG_USER/BENCHKG_PASSWORD or BENCHKG_TOKEN.

    Example: benchkg push --endpoint http://127.0.0.1:7878/query
    """
    kg = _open(data, timeout=timeout)
    with _progress("pushing") as cb:
        result = kg.push(endpoint, gsp=gsp, update_endpoint=update_endpoint, progress=cb)
    _echo(
        f"pushed to {endpoint}: {len(result.sent)} graphs sent, {len(result.deleted)} deleted, "
        f"{result.unchanged} unchanged"
    )


@app.command()
def serve(
    port: int = typer.Option(7878, "--port", min=0, max=65535, help="Port to listen on (0: any free one)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback by default)."),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds a query may run before it is stopped."),
    max_result_mb: float = typer.Option(64.0, "--max-result-mb", help="The largest answer, in MiB."),
    workers: int = typer.Option(4, "--workers", help="Queries answered at once (each in its own process)."),
    max_memory_mb: float = typer.Option(
        2048.0, "--max-memory-mb", help="The memory one query may hold, in MiB; past it, it is stopped."
    ),
    allow_service: bool = typer.Option(
        False, "--allow-service", help="Allow SERVICE (federated queries fetch other URLs)."
    ),
    allow_host: List[str] = typer.Option(
        [], "--allow-host", help="Another Host name to answer to (loopback names always)."
    ),
    data: Path = DataOpt,
):
    """Serve the embedded store as a read-only SPARQL endpoint (/query) with a query page (/).

    Each query runs in a process of its own with the store opened read-only, so a runaway query is
    stopped at --timeout (or when its client goes away) without stopping the others, and the CLI can
    build and query meanwhile. /query without a query is the service description.

    Example: benchkg serve --port 7878 --timeout 10
    """
    from benchkg.api import Limits

    for value, option, example in ((max_result_mb, "--max-result-mb", 64), (max_memory_mb, "--max-memory-mb", 2048)):
        if not 0 < value < float("inf"):  # (nan is neither)
            from benchkg.kernel.errors import UsageError

            raise UsageError(f"{option} {value}: a size in MiB, more than 0 (e.g. {example})")
    limits = Limits(  # (refuses a limit that would refuse every query, before anything is built)
        timeout=timeout,
        max_bytes=max(1, int(max_result_mb * 2**20)),
        max_memory=int(max_memory_mb * 2**20),
        workers=workers,
        allow_service=allow_service,
        hosts=tuple(h.lower() for h in allow_host),
    )
    kg = _open(data)
    with _progress("building") as cb:
        server = kg.server(host, port, limits, progress=cb)
    del kg  # the workers open the store read-only; the CLI may open it meanwhile
    _echo(
        f"benchkg SPARQL endpoint on http://{host}:{server.server_address[1]}/query "
        f"(query page at /; {timeout:g} s, {max_memory_mb:g} MiB of memory and {max_result_mb:g} MiB of answer "
        f"per query, {workers} at once); "
        "Ctrl-C stops it",
        err=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@app.command("import")
def import_(
    source: Optional[str] = typer.Argument(
        None, metavar="IMPORTER", help="Which importer: mlperf, epoch, inferencex, or one a plugin adds (--list)."
    ),
    paths: Optional[List[Path]] = typer.Argument(
        None,
        help="What it reads: MLPerf round folders (with summary_results.json or summary.json), Epoch's "
        "ml_hardware.csv, an InferenceX benchmarks JSON export, or a plugin's input.",
    ),
    out: Path = typer.Option(Path("data"), "--out", envvar="BENCHKG_DATA", help="The records folder to write into."),
    list_: bool = typer.Option(False, "--list", help="List the importers (benchkg's own and plugins') and stop."),
):
    """Turn third-party data into records in data/ (same input, same files, byte for byte). Every input is
    read before anything is written: input that is refused writes nothing.

    Example: benchkg import mlperf ../shared/realdata/mlperf_inference_v6.0 --out data
             benchkg import inferencex my-inferencex-export.json --out data
             benchkg import --list
    """
    from benchkg.api import import_data, list_importers

    if list_:  # (a plugin that does not load is listed with why; the others still work)
        for found in list_importers():
            if found.importer is None:
                _echo(f"{found.name:<12} does not load\n{'':<12} {found.problem}")
            else:
                _echo(f"{found.name:<12} reads {found.importer.reads}\n{'':<12} refuses {found.importer.refuses}")
        return
    if source is None or not paths:
        raise typer.BadParameter(
            "name an importer and what it reads, e.g. benchkg import mlperf ROUND_FOLDER (or --list)"
        )
    with _progress("importing") as cb:
        report = import_data(source, paths, out, progress=cb)
    _echo(report.text())


@app.command()
def draft(
    source: Path = typer.Argument(..., metavar="SOURCE", help="A saved .html, .md or .txt page."),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Write the draft into this records folder (benchmarks/<id>.json, sources/<id>.json and, for a "
        "claim the text calls unverified or internal, suites/<submitter>-claims.json); by default it is printed.",
    ),
    data: Path = DataOpt,
):
    """Draft the claims of a blog post or press release, one per number it states with its own context:
    every number with a throughput, latency or count unit (each with its sentence as the quote), the chips,
    model, suite, scenario and counts its own words, sentence or a table's row give (what the text says only
    elsewhere is left open), a rounded headline ("1.19M") read as the precise figure the body gives and kept
    as written, a ratio it states ("3.1x … in v5.1") with its baseline, and omitted_by_source for what the
    text does not state. Each figure is read against the graph: the audited result it restates is named in
    restates, and stderr says what that result has that the text does not, or where the text disagrees with
    it. A number the text calls unverified, not verified by MLCommons or internal is the vendor's own claim,
    in the vendor's own claim series (a suite of family vendor-claim, written with --out). A range, a mark
    passed ("over 1 million"), a target or a statistic of a run's parts is no claim. It never invents a
    value: what it cannot decide is listed on stderr for you to fill in (the reading rules:
    docs/records.md). One claim prints as a record; several as a list.

    Example: benchkg draft saved-post.html > claim.json   (or: benchkg draft saved-post.html --out data)
    """
    from benchkg.views import record_text

    kg = _open(data)
    results = kg.draft(source, out)
    if out is None:
        shown = results[0].record if len(results) == 1 else [r.record for r in results]
        _echo(record_text(shown), nl=False, data=True)  # type: ignore[arg-type]  # (a list of records prints as one)
    else:
        for result in results:
            _echo(f"wrote {out}/benchmarks/{result.record['id']}.json", err=True)
        for suite in {r.suite["id"] for r in results if r.suite}:
            _echo(f"the vendor's own claims are in suite {suite} ({out}/suites/{suite}.json, if new)", err=True)
        _echo("(and the page's source record, if new)", err=True)
    for n, result in enumerate(results, 1):
        head = f"claim {n} of {len(results)} ({result.record['id']}): " if len(results) > 1 else ""
        _echo(head + result.comment(), err=True)


@app.command("reference")
def reference_(
    prepare: bool = typer.Option(False, "--prepare", help="Build it into its cache now (once per benchkg version)."),
    format: str = typer.Option("text", "--format", "-f", help="text or json."),
):
    """Which audited data benchkg's reference set holds, by version: the MLPerf Inference rounds (results and
    system descriptions) and Epoch AI's chip specifications, beside the chips, models, suites and gotchas.
    A data repository (benchkg init) compares its own claims with it without copying it.

    Example: benchkg reference --prepare
    """
    import dataclasses
    import json

    from benchkg.api import reference

    if format not in ("text", "json"):
        _fail(f"--format takes text or json, not {format!r}")
    with _progress("preparing the reference set") as cb:
        ref = reference(prepare, progress=cb)
    _echo(
        ref.text() if format == "text" else json.dumps({"name": ref.name, **dataclasses.asdict(ref)}, indent=2),
        data=format == "json",
    )


@app.command()
def init(target: Path = typer.Argument(..., metavar="DIR", help="The folder to create (missing or empty).")):
    """Start a data repository of your own: data/ with an example claim, benchkg.toml (use benchkg's
    reference records without copying them), queries/ and shapes/ for your own, a .gitignore, a
    pre-commit config and a GitHub workflow that run `benchkg validate`.

    Example: benchkg init my-claims && cd my-claims && benchkg validate
    """
    from benchkg.api import init as init_repo

    written = init_repo(target)
    here = Path(target).resolve() == Path.cwd().resolve()
    _echo(
        f"wrote {len(written)} files in {target}; next: {'' if here else f'cd {target} && '}git init && benchkg validate"
    )


def main() -> None:
    """Entry point of the ``benchkg`` script."""
    if sys.stdout is None:  # started with its output closed (`>&-`): refuse before doing anything
        if sys.stderr is not None:
            sys.stderr.write("Error: the output is closed: give the command somewhere to write (a file, a pipe)\n")
        raise SystemExit(2)
    app()


if __name__ == "__main__":
    main()
