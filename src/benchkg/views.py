"""What the command line prints, made from what the API returns: a saved query's answer
(:func:`query_view`), a results-algebra answer (:func:`results_view`) and a validation report
(:func:`validation`) in the formats a person or a program asks for, plus the texts the CLI shows as
they are (a record as benchkg writes it, the algebra's columns). The floor between :mod:`benchkg.api`,
which returns data, and :mod:`benchkg.cli`, which parses arguments and prints these.

>>> import benchkg
>>> shown = query_view(benchkg.open("data"), "leaderboard", {"scenario": "server"}, format="csv", limit=2)
>>> shown.out.splitlines()[0].split(",")[:3], shown.data
(['claim', 'system_name', 'submitted_by'], True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from benchkg.answers.algebra import Request
from benchkg.answers.algebra import schema as results_schema
from benchkg.answers.queries import parse_params
from benchkg.answers.render import Rendered, check_chart, draw, render
from benchkg.answers.savedquery import SavedQuery
from benchkg.answers.tables import TABLE_ROWS
from benchkg.api import KnowledgeGraph
from benchkg.checks.findings import Report
from benchkg.checks.validate import FORMATS as REPORT_FORMATS
from benchkg.checks.validate import input_report, summary_line
from benchkg.importers.common import record_text
from benchkg.kernel.arguments import check_window
from benchkg.kernel.errors import InputError, UsageError
from benchkg.kernel.transport import check_url
from benchkg.publish.export import format_from_path
from benchkg.rules.engine import timed_shapes

__all__ = [
    "Rendered",
    "Validation",
    "check_url",
    "format_from_path",
    "parse_params",
    "query_view",
    "record_text",
    "results_schema",
    "results_view",
    "validation",
]


def query_view(
    kg: KnowledgeGraph,
    query: str | Path | SavedQuery,
    params: dict[str, str] | None = None,
    *,
    format: str = "table",
    limit: int | None = None,
    offset: int = 0,
    columns: tuple[str, ...] = (),
    wide: bool = False,
    cite: bool = False,
    allow_service: bool = False,
    chart: str | Path | None = None,
    title: str | None = None,
    progress=None,
) -> Rendered:
    """``benchkg query``: a saved query's answer as the command line shows it (the rows in ``format``,
    the lines said under them), its chart drawn to ``chart`` (``.png`` or ``.svg``) when asked. The
    query is read once, refused (SERVICE, a chart it cannot draw) before anything is built; a table
    shows 25 rows unless told, markdown always cites.
    """
    check_window("answer", limit, offset)
    saved = query if isinstance(query, SavedQuery) else kg.saved_query(str(query))
    if chart is not None:  # (a SERVICE is refused by kg.answer, before anything is built too)
        check_chart(saved, Path(chart), kg.queries)
    if limit is None and format == "table":
        limit = TABLE_ROWS
    answer = kg.answer(
        saved,
        dict(params or {}),
        allow_service=allow_service,
        limit=limit,
        offset=offset,
        cite=cite or format == "markdown",
        progress=progress,
    )
    shown = render(answer, format, offset=offset, columns=tuple(columns), wide=wide)
    if chart is not None:
        draw(answer, Path(chart), title=title, limit=limit)
        shown.chart = Path(chart)
    return shown


def results_view(
    kg: KnowledgeGraph,
    request: Request,
    *,
    format: str = "table",
    limit: int | None = None,
    columns: tuple[str, ...] = (),
    list_unpaired: bool = False,
    explain: bool = False,
    wide: bool = False,
    progress=None,
) -> Rendered:
    """``benchkg results``: one results-algebra command's answer as the command line shows it (a
    table shows 25 rows unless told; ``columns`` picks the answer's columns), or with ``explain``
    the SPARQL it compiles to, nothing run.

    >>> import benchkg
    >>> print(results_view(benchkg.open("data"), Request(where=["round=6.1"], top=1), explain=True).out.splitlines()[0])
    #+ summary: results where round=6.1
    """
    if explain:
        return Rendered(kg.results_sparql(request))
    if limit is None and format == "table":
        limit = TABLE_ROWS
    answer, _ = kg.results_answer(request, limit=limit, list_unpaired=list_unpaired, progress=progress)
    return render(answer, format, columns=tuple(columns), wide=wide, keep=tuple(request.columns))


@dataclass
class Validation:
    """What ``benchkg validate`` prints: the report in its format (``data``: for a program, as it is),
    a ``note`` for stderr, and the exit code; or, for records that cannot be read, their ``error``."""

    out: str
    data: bool = False
    note: str = ""
    report: Report | None = None
    error: str = ""

    def exit_code(self, strict: bool = False) -> int:
        """0 conforms, 1 violations (or warnings with ``strict``), 2 records that cannot be read."""
        return 2 if self.error or self.report is None else self.report.exit_code(strict)


def timings_note(
    built: float, in_build: dict[str, float], checked: float, seconds: dict[str, float], shown: int = 12
) -> str:
    """Where a validation's seconds went: the build (reading records, loading them, deriving the
    facts and caveats, with the seconds of the finding shapes it runs), the check, and each shape's
    queries, slowest first (summed over the threads that run them at once).

    >>> print(timings_note(1.5, {"x": 0.25}, 3.0, {"a": 0.5, "b": 1.25}))
    timings: build 1.50 s (finding shapes 0.25 s), check 3.00 s (2 shape(s), 1.75 s of queries)
      1.25 s  b
      0.50 s  a
      0.25 s  x (in the build: a finding caveat's shape)
    """
    lines = [
        f"timings: build {built:.2f} s (finding shapes {sum(in_build.values()):.2f} s), check {checked:.2f} s "
        f"({len(seconds)} shape(s), {sum(seconds.values()):.2f} s of queries)"
    ]
    both = list(seconds.items()) + [(f"{n} (in the build: a finding caveat's shape)", s) for n, s in in_build.items()]
    slowest = sorted(both, key=lambda kv: -kv[1])
    lines += [f"  {s:.2f} s  {name}" for name, s in slowest[:shown]]
    if len(slowest) > shown:
        lines.append(f"  ({len(slowest) - shown} more, {sum(s for _, s in slowest[shown:]):.2f} s in all)")
    return "\n".join(lines)


def validation(
    kg: KnowledgeGraph,
    format: str = "text",
    *,
    engine: str = "fast",
    quiet: bool = False,
    progress=None,
    timings: bool = False,
) -> Validation:
    """``benchkg validate``: the report in ``format`` (text, json, turtle, github, sarif); records that
    cannot be read give its ``error`` (exit 2), reported in the formats CI reads too. With
    ``timings``, the ``note`` says where the seconds went: the build, and each shape, slowest first.

    >>> import benchkg
    >>> v = validation(benchkg.open("data"), "text", quiet=True)
    >>> v.out.startswith("validate data: 0 violation(s)"), v.exit_code()
    (True, 0)
    """
    if format not in REPORT_FORMATS:
        raise UsageError(f"--format takes {', '.join(REPORT_FORMATS)}, not {format!r}")
    try:
        with timed_shapes() as seconds:
            start = time.perf_counter()
            if timings:  # (the build apart: its finding shapes are timed with it)
                kg.build(progress=progress)
            built, in_build = time.perf_counter() - start, dict(seconds)
            seconds.clear()
            report = kg.report(engine, progress=progress)
            checked = time.perf_counter() - start - built
    except InputError as e:  # unreadable records: the CI formats annotate them too (exit 2)
        out = REPORT_FORMATS[format](input_report(e)) if format in ("json", "github", "sarif") else ""
        return Validation(out, data=True, error=str(e))
    if quiet and format == "text":
        out = f"validate {kg.data}: {summary_line(report)} (benchkg validate lists them)"
    else:
        out = REPORT_FORMATS[format](report)
    note = timings_note(built, in_build, checked, seconds) if timings else ""
    if report.rechecked is not None and not quiet:
        note += (
            ("\n" if note else "")
            + f"incremental: re-checked {report.rechecked:,} record(s) that changed since the last "
            f"validation or depend on one that did; the other findings come from .benchkg/validation.json"
        )
    return Validation(out, data=format != "text", note=note, report=report)
