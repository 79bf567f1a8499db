"""An :class:`~benchkg.answers.answering.Answer` as the command line shows it: the rows in one
format, and the lines said under them (caveats, notes, disclosures); its chart to a file.

The formats for people (``table``, ``markdown``) carry the notes under the rows; the data formats
(csv, json, the SPARQL results formats) keep stdout for the rows, and the notes go to stderr.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from benchkg.answers.caveats import format_caveats
from benchkg.answers.charts import CHART_ROWS, to_chart
from benchkg.answers.curves import to_curve_chart
from benchkg.answers.disclosure import with_marks
from benchkg.answers.results import (
    markdown_text,
    to_csv,
    to_json,
    to_markdown,
    to_plain_csv,
    to_plain_json,
    to_sparql_tsv,
    to_sparql_xml,
)
from benchkg.answers.tables import TableOptions, to_table
from benchkg.kernel.errors import UsageError
from benchkg.kernel.rows import Results

#: format name -> writer; csv, tsv and json are for people and programs, sparql-* are the W3C formats
FORMATS: dict[str, Callable[..., str]] = {
    "table": to_table,
    "csv": to_plain_csv,
    "tsv": lambda r: to_plain_csv(r, "\t"),
    "json": to_plain_json,
    "markdown": to_markdown,
    "sparql-json": to_json,
    "sparql-csv": to_csv,
    "sparql-tsv": to_sparql_tsv,
    "sparql-xml": to_sparql_xml,
}

#: the formats for people: notes under the rows, on stdout
FOR_PEOPLE = ("table", "markdown")


@dataclass
class Rendered:
    """What a command prints: ``out`` (the rows), then ``notes`` (to stderr when ``data``); ``resolved``
    (which record each name typed stands for) always goes to stderr."""

    out: str
    notes: list[str] = field(default_factory=list)
    data: bool = False
    resolved: list[str] = field(default_factory=list)
    chart: Path | None = None  # where its chart was drawn, when asked


def render(
    answer,
    fmt: str = "table",
    *,
    offset: int = 0,
    columns: tuple[str, ...] = (),
    wide: bool = False,
    keep: tuple[str, ...] = (),
):
    """The answer's rows in ``fmt`` (a name of :data:`benchkg.answers.results.FORMATS`), with what is
    said under them: the names resolved, the comparison caveats, the notes and the disclosures.
    ``columns`` are the columns shown, in every format (a table shortens them, never drops them),
    ``keep`` columns a table never drops either.

    >>> from benchkg.api import open
    >>> answer = open("data").answer("leaderboard", {"scenario": "server"}, limit=3, cite=True)
    >>> shown = render(answer, "markdown")
    >>> shown.out.splitlines()[0].endswith("| cite |"), shown.data, shown.notes[-1].splitlines()[1][:5]
    (True, False, '[^1]:')
    """
    markdown = fmt == "markdown"
    shown = answer.results
    if answer.disclosure is not None and answer.disclosure.notes:
        shown = with_marks(shown, answer.disclosure, markdown=markdown)
    if fmt == "table":
        cite = answer.disclosure is not None
        options = TableOptions(
            columns=columns,
            wide=wide,
            importance=(("cite",) if cite else ()) + answer.saved.columns,
            whole=answer.saved.whole,
            keep=answer.saved.keep + keep,
            title=answer.title,
        )
        out = to_table(shown, total=shown.count, offset=offset, more=shown.more, options=options)
    else:
        out = FORMATS[fmt](only_columns(shown, columns) if columns else shown)
    notes = ["\n" + n for n in filter(None, [format_caveats(answer.caveats, shown.count), *answer.notes()])]
    if markdown:  # caveats and notes quote records' text: shown as written, never as markup
        notes = [markdown_text(n) for n in notes]
    if answer.disclosure is not None and (answer.disclosure.notes or answer.disclosure.tail):
        notes.append("\n" + "\n".join(answer.disclosure.lines(markdown=markdown)))
    return Rendered(out, notes, data=fmt not in FOR_PEOPLE, resolved=[f"({note})" for note in answer.resolved])


def only_columns(results: Results, columns: tuple[str, ...]) -> Results:
    """The answer with only ``columns``, in that order (``--columns`` in a data format).

    >>> from pyoxigraph import Literal
    >>> done = only_columns(Results(["a", "b"], [{"a": Literal("1"), "b": Literal("2")}]), ("b",))
    >>> done.vars, [{k: v.value for k, v in row.items()} for row in done.rows]
    (['b'], [{'b': '2'}])

    :raises UsageError: for a column the answer has not.
    """
    unknown = [c for c in columns if c not in results.vars]
    if unknown:
        raise UsageError(f"--columns: no column {unknown[0]!r}; the columns are {', '.join(results.vars)}")
    rows = [{c: row[c] for c in columns if c in row} for row in results.rows]
    return replace(results, vars=list(columns), rows=rows)


def check_chart(saved, path: Path, queries: Callable[[], dict]) -> None:
    """Refuse a chart a query cannot draw, before it runs (``queries()`` gives the saved queries, read
    only to name those with a chart).

    :raises UsageError: for a query without a chart (naming those with one) or a file that is not
        ``.png`` or ``.svg``.
    """
    if saved.chart is None:
        with_charts = ", ".join(n for n, q in queries().items() if q.chart)
        raise UsageError(f"query {saved.name} has no chart; queries with charts: {with_charts}")
    if Path(path).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"--chart writes .png or .svg, not {Path(path).name!r}")


def draw(answer, path: Path, *, title: str | None = None, limit: int | None = None) -> None:
    """The answer's chart to ``path`` (PNG or SVG): the curves themselves for a query read at equal
    interactivity, else a bar per row (the first ``limit``, 25 by default)."""
    saved = answer.saved
    if saved.then == "at-interactivity":  # the curves, with the interactivity asked
        to_curve_chart(answer.results, path, title=title or f"{saved.name}: {answer.title.split(': ', 1)[-1]}")
        return
    shown = answer.results
    if answer.disclosure is not None and answer.disclosure.notes:
        shown = with_marks(shown, answer.disclosure)
    assert saved.chart is not None  # (check_chart refused a query without one)
    label, value = saved.chart
    to_chart(
        shown,
        path,
        label,
        value,
        title=title or f"{saved.name}: {saved.summary}",
        limit=limit or CHART_ROWS,
        axis=saved.axis,
    )
