"""Query results out: a table or Markdown for people; CSV, TSV and JSON for spreadsheets and programs; the
W3C SPARQL 1.1 results formats (JSON, CSV, TSV, XML) for SPARQL tools."""
from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal, InvalidOperation

from .queries import Results
from .terminal import printable
from .vocab import PREFIXES, curator_name

XSD = PREFIXES["xsd"]
_NUMERIC = {XSD + t for t in ("decimal", "integer", "double", "float", "int", "long")}


def term_json(term) -> dict:
    """One RDF term in the SPARQL 1.1 JSON results format."""
    from pyoxigraph import BlankNode, Literal, NamedNode

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
    return json.dumps({"head": {"vars": results.vars},
                       "results": {"bindings": [{k: term_json(v) for k, v in row.items()}
                                                for row in results.rows]}},
                      indent=2, ensure_ascii=False)


def to_csv(results: Results) -> str:
    """SPARQL 1.1 Query Results CSV: plain values, CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(results.vars)
    for row in results.rows:
        writer.writerow([row[v].value if v in row else "" for v in results.vars])
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
    from pyoxigraph import Literal, NamedNode

    if term is None:
        return ""
    if isinstance(term, NamedNode):
        return curator_name(term.value)
    if isinstance(term, Literal) and term.datatype.value in _NUMERIC:
        return format_number(term.value)
    return printable(term.value)


def _is_number(term) -> bool:
    from pyoxigraph import Literal

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


def _cells(results: Results) -> list[list[str]]:
    return [[short(row.get(v)) for v in results.vars] for row in results.rows]


def window(results: Results, limit: int | None, offset: int = 0, claims: tuple[str, ...] = ()) -> Results:
    """The rows ``offset`` … ``offset + limit`` (all from ``offset`` when ``limit`` is 0 or None) of a
    whole answer, counting all of them and keeping the ``claims`` columns of every row."""
    rows = results.rows[offset:]
    claim_rows = [tuple(row[c].value if c in row else None for c in claims) for row in results.rows] if claims else None
    return Results(results.vars, rows[:limit] if limit else rows, len(results.rows), False, claim_rows)


def to_table(results: Results, total: int | None = None, offset: int = 0, width: int | None = None,
             more: bool = False) -> str:
    """A table that fits the terminal (``COLUMNS``): long cells end in "…", numbers right-aligned;
    with ``total``, a last line says which rows of how many it shows.

    >>> from pyoxigraph import Literal
    >>> print(to_table(Results(["claim"], [{"claim": Literal("a-rather-long-claim-id")}]), width=14))
    claim
    ──────────────
    a-rather-long…
    (1 row)
    """
    import shutil

    from rich.box import SIMPLE_HEAD
    from rich.console import Console
    from rich.table import Table

    cells = _cells(results)
    numeric = [bool(cells) and all(re.fullmatch(r"-?[\d,]+(\.\d+)?", r[i] or "0") for r in cells)
               for i in range(len(results.vars))]
    width = width or shutil.get_terminal_size((120, 24)).columns
    natural = [max([len(v)] + [len(r[i]) for r in cells]) for i, v in enumerate(results.vars)]
    shown = len(natural)  # the columns that fit at a readable width; those to the right are named below
    while shown > 1:
        widths = fit_widths(natural[:shown], numeric[:shown], width - GAP * (shown - 1), least=min(8, width),
                            first=min(40, width))
        if sum(widths) + GAP * (shown - 1) <= width:
            break
        shown -= 1
    else:
        widths = [max(3, width)]
    table = Table(box=SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold", expand=False)
    for name, num, w in zip(results.vars, numeric, widths):
        table.add_column(name, justify="right" if num else "left", overflow="ellipsis", no_wrap=True, width=w)
    for row in cells:
        table.add_row(*row[:shown])
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False, legacy_windows=False).print(table)
    lines = [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]
    n = len(cells)
    if shown < len(results.vars):
        lines.append(wrap(f"(columns not shown here: {', '.join(results.vars[shown:])}; widen the terminal or use "
                          f"--format csv)", width))
    if total is not None and (n < total or offset or more):
        of = f"more than {total:,}" if more else f"{total:,}"
        rest = "; --limit 0 for all" if offset + n < total or more else ""
        lines.append(f"(rows {offset + 1}–{offset + n} of {of}{rest})" if n else f"(no rows here; {of} in all)")
    else:
        lines.append(f"({n} row{'s' if n != 1 else ''})")
    return "\n".join(lines)


#: the characters between two columns of a terminal table (rich's padding and rule)
GAP = 3


def wrap(text: str, width: int | None = None, indent: str = "") -> str:
    """Text folded to the terminal's width (``COLUMNS``), continuation lines indented.

    >>> print(wrap("a bb ccc dddd", 8, "  "))
    a bb ccc
      dddd
    """
    import shutil
    import textwrap

    width = width or shutil.get_terminal_size((120, 24)).columns
    return "\n".join(textwrap.fill(line, width, subsequent_indent=indent, break_long_words=True,
                                   break_on_hyphens=False) for line in text.splitlines())


def fit_widths(natural: list[int], numeric: list[bool], room: int, least: int = 3, first: int = 0) -> list[int]:
    """Column widths that fit ``room`` characters: numbers keep their width while they can, text
    columns share the rest under one cap (the widest are cut first), the first (the row's name)
    keeps at least ``first``. Where nothing fits, each column gets ``least`` (the caller drops some).

    >>> fit_widths([30, 6, 40], [False, True, False], 40)
    [17, 6, 17]
    >>> fit_widths([30, 6, 40], [False, True, False], 40, first=25)
    [25, 6, 9]
    >>> fit_widths([5, 6], [False, True], 40)
    [5, 6]
    """
    if sum(natural) <= room:
        return natural
    floor = [min(w, max(least, first if i == 0 else 0)) for i, w in enumerate(natural)]
    fixed = sum(w for w, num in zip(natural, numeric) if num)
    text = [i for i, num in enumerate(numeric) if not num]

    def widths(cap: int, numbers_too: bool) -> list[int]:
        return [max(floor[i], min(w, cap)) if (not numeric[i] or numbers_too) else w for i, w in enumerate(natural)]

    for numbers_too in (False, True):
        if not numbers_too and not text:
            continue
        fitting = [c for c in range(least, max(natural) + 1) if sum(widths(c, numbers_too)) <= room]
        if fitting:
            return widths(max(fitting), numbers_too)
    return floor


def to_markdown(results: Results) -> str:
    """A GitHub-flavoured Markdown table."""
    def esc(v: str) -> str:
        return v.replace("|", "\\|").replace("\n", " ")

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
    from pyoxigraph import Literal, NamedNode

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
    return format(value, "f") if isinstance(value, Decimal) else str(value)


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

    return json.dumps([{v: number(plain(row.get(v))) for v in results.vars} for row in results.rows],
                      indent=2, ensure_ascii=False)


def _nt(term) -> str:
    return str(term)


def to_sparql_tsv(results: Results) -> str:
    """SPARQL 1.1 Query Results TSV: terms in their SPARQL (N-Triples) syntax."""
    lines = ["\t".join(f"?{v}" for v in results.vars)]
    lines += ["\t".join(_nt(row[v]) if v in row else "" for v in results.vars) for row in results.rows]
    return "\n".join(lines) + "\n"


def to_sparql_xml(results: Results) -> str:
    """SPARQL Query Results XML Format."""
    from xml.sax.saxutils import escape, quoteattr

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
                attrs = (f" datatype={quoteattr(t['datatype'])}" if "datatype" in t else "") + \
                        (f" xml:lang={quoteattr(t['xml:lang'])}" if "xml:lang" in t else "")
                body = f"<literal{attrs}>{escape(t['value'])}</literal>"
            out.append(f"      <binding name={quoteattr(v)}>{body}</binding>")
        out.append("    </result>")
    out += ["  </results>", "</sparql>"]
    return "\n".join(out) + "\n"


#: format name -> writer; csv, tsv and json are for people and programs, sparql-* are the W3C formats
FORMATS = {"table": to_table, "csv": to_plain_csv, "tsv": lambda r: to_plain_csv(r, "\t"), "json": to_plain_json,
           "markdown": to_markdown, "sparql-json": to_json, "sparql-csv": to_csv, "sparql-tsv": to_sparql_tsv,
           "sparql-xml": to_sparql_xml}
TABLE_ROWS = 25


CHART_ROWS = 25


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
    return [" · ".join(short(r.get(c)) for c in varying if r.get(c) is not None) for r in rows]


def to_chart(results: Results, path, label: str, value: str, title: str = "", limit: int = CHART_ROWS) -> None:
    """A horizontal bar chart of one numeric column by its label columns, written to PNG or SVG.

    ``label`` is a column or columns joined by "+" (``system+accelerators+round``): a bar reads
    "system · chip", and "· round" only where the rows span rounds. The axis names the column and its
    unit (when the rows have one); derived values are hatched; a bar whose claim carries caveats of
    its own (claim and finding caveats) is marked with ⚠ and their count; the caveats of the whole
    comparison are listed under the chart by the caller, not on every bar. Only the first ``limit``
    rows are drawn (the query's order: best first), and the chart says so.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in results.rows if value in r and _is_number(r[value])]
    if results.rows and not rows:
        from .errors import UsageError

        raise UsageError(f"the chart's value column {value!r} holds no numbers to draw; "
                         "name a numeric column in '#+ chart: label=COLUMN value=COLUMN'")
    shown = f"the first {limit} of {len(rows)} rows" if len(rows) > limit else ""
    rows = rows[:limit]
    labels = chart_labels(rows, label)
    values = [float(r[value].value) for r in rows]
    units = {short(r["unit"]) for r in rows if "unit" in r}
    unit = f" ({units.pop()})" if len(units) == 1 else ""
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.55 * max(len(rows), 1)))
    bars = ax.barh(range(len(rows)), values, color="#4477aa")
    for bar, row in zip(bars, rows):
        if row.get("derived") is not None and row["derived"].value == "true":
            bar.set_hatch("//")
            bar.set_facecolor("#88aacc")
        gotchas = row.get("gotchas")
        n = len(gotchas.value.split()) if gotchas is not None and gotchas.value else 0
        text = f" {format_number(row[value].value)}" + (f"  ⚠ {n} gotcha{'s' if n != 1 else ''}" if n else "")
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, text, va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(value.replace("_", " ") + unit)
    ax.set_ylabel(" · ".join(label.split("+")).replace("_", " "))
    ax.set_xlim(0, max(values + [1]) * 1.45)
    notes = [shown] if shown else []
    if any(r.get("derived") is not None and r["derived"].value == "true" for r in rows):
        notes.append("hatched: derived (aggregate ÷ accelerator count), not an official metric")
    note = "; ".join(notes)
    ax.set_title(title, fontsize=10, loc="left")
    if note:
        fig.text(0.01, 0.01, note, fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.04 if note else 0, 1, 1))
    from pathlib import Path

    from .export import write_atomic

    buffer = io.BytesIO()
    fmt = Path(path).suffix.lstrip(".").lower()
    # the same chart, the same bytes: no date in the file, SVG ids from a fixed salt
    with plt.rc_context({"svg.hashsalt": "benchkg"}):
        fig.savefig(buffer, format=fmt, metadata={"Date": None} if fmt in ("svg", "pdf") else {"Software": None})
    plt.close(fig)
    write_atomic(Path(path), buffer.getvalue())
