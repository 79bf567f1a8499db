"""Query results as text: Markdown for people; CSV, TSV and JSON for spreadsheets and programs; the W3C
SPARQL 1.1 results formats (JSON, CSV, TSV, XML) for SPARQL tools; and the cells (short ids, numbers)
that tables (:mod:`benchkg.answers.tables`) and charts (:mod:`benchkg.answers.charts`) share."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import textwrap
from decimal import Decimal, InvalidOperation
from typing import Any
from xml.sax.saxutils import escape as _xml_escape
from xml.sax.saxutils import quoteattr as _xml_quoteattr

from pyoxigraph import BlankNode, Literal, NamedNode

from benchkg.kernel.rows import Results
from benchkg.kernel.terminal import one_line, printable
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
    tokens/s, numbers with thousands separators, text in one line (a table's cell; control characters and
    line breaks as escapes, :mod:`benchkg.kernel.terminal`).

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
    return one_line(printable(term.value))


def is_number(term) -> bool:
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
    record's text) and every line break is an escape (one row per line: :func:`short`).

    >>> from pyoxigraph import Literal
    >>> print(to_markdown(Results(["a"], [{"a": Literal('<img src=x onerror=alert(1)> [x](javascript:y)\\n|z')}])))
    | a |
    |---|
    | &lt;img src=x onerror=alert(1)&gt; \\[x\\](javascript:y)\\\\x0a\\|z |
    """

    def esc(v: str) -> str:
        if _FOOTNOTES.fullmatch(v):  # the disclosure's own marks ([^1][^2]): Markdown footnotes, kept
            return v
        return markdown_text(v)

    head = "| " + " | ".join(results.vars) + " |"
    rule = "|" + "|".join("---" for _ in results.vars) + "|"
    body = ["| " + " | ".join(esc(c) for c in row) + " |" for row in cells(results)]
    return "\n".join([head, rule] + body)


def plain(term: Any) -> str | int | Decimal | bool | None:
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
    r"""A text cell a spreadsheet shows as text, in its row: every line break is an escape (a reader of
    lines would start a row of the text's choosing at it, ``=1+1`` its first cell: :func:`one_line`), and
    one that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab first) is prefixed with
    ``'``, as OWASP recommends; a number (``-5``, ``+1.5e3``) stays a number.

    >>> csv_cell('=HYPERLINK("http://x/?"&A1)'), csv_cell("-12.5"), csv_cell("@SUM(A1)"), csv_cell("DGX")
    ('\'=HYPERLINK("http://x/?"&A1)', '-12.5', "'@SUM(A1)", 'DGX')
    >>> csv_cell("Fast\r=1+1"), csv_cell("\u2028=1+1")
    ('Fast\\x0d=1+1', '\\u2028=1+1')
    """
    text = one_line(text)
    if len(text) > 1 and text.startswith(_FORMULA):  # (a lone "-" is a dash, not a formula)
        try:
            Decimal(text)
            return text
        except ArithmeticError:
            return "'" + text
    return text


def to_plain_csv(results: Results, delimiter: str = ",") -> str:
    r"""CSV for spreadsheets and pandas: short ids, plain numbers, one header line; each row one line
    (:func:`csv_cell`), and in TSV (``delimiter`` a tab) a tab in a text as ``\x09``, so a reader that
    splits at tabs, as most read TSV, finds each cell where it is.

    >>> from pyoxigraph import Literal, NamedNode
    >>> to_plain_csv(Results(["a", "n"], [{"a": NamedNode("https://w3id.org/benchkg/id/models/x"),
    ...                                      "n": Literal("1.50", datatype=NamedNode(XSD + "decimal"))}]))
    'a,n\r\nx,1.50\r\n'
    """
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n" if delimiter == "," else "\n")
    writer.writerow(results.vars)
    for row in results.rows:
        cells = [_plain_text(plain(row.get(v))) for v in results.vars]
        writer.writerow([c.replace("\t", "\\x09") for c in cells] if delimiter == "\t" else cells)
    return out.getvalue()


def json_value(value) -> str:
    """One cell as JSON: a number written with every digit it has (a float would keep 17 at most and change
    the last: issue 62), anything else as :func:`json.dumps` writes it.

    >>> json_value(Decimal("0.88806252496023878")), json_value(Decimal("72")), json_value(Decimal("6.67E-7"))
    ('0.88806252496023878', '72', '0.000000667')
    >>> json_value("MI355X"), json_value(True), json_value(None)
    ('"MI355X"', 'true', 'null')
    """
    if isinstance(value, Decimal):
        return str(int(value)) if value == value.to_integral_value() and "." not in str(value) else format(value, "f")
    return json.dumps(value, ensure_ascii=False)


def to_plain_json(results: Results) -> str:
    """JSON for programs: a list of objects, one per row, with short ids and numbers in full (an absent
    value is null), laid out as ``json.dumps(indent=2)`` lays it out."""
    if not results.rows:
        return "[]"
    rows = []
    for row in results.rows:
        cells = [f"    {json.dumps(v, ensure_ascii=False)}: {json_value(plain(row.get(v)))}" for v in results.vars]
        rows.append("  {\n" + ",\n".join(cells) + "\n  }" if cells else "  {}")
    return "[\n" + ",\n".join(rows) + "\n]"


#: the line breaks N-Triples writes raw (it escapes CR and LF): written as \\uXXXX, the same text
_RAW_BREAKS = re.compile("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _nt(term) -> str:
    r"""A term in its N-Triples syntax, on one line: every line break escaped.

    >>> from pyoxigraph import Literal
    >>> _nt(Literal("a\r\nb\u2028c"))
    '"a\\r\\nb\\u2028c"'
    """
    return _RAW_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04X}", str(term))


def to_sparql_tsv(results: Results) -> str:
    """SPARQL 1.1 Query Results TSV: terms in their SPARQL (N-Triples) syntax, a row a line."""
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


def cells(results: Results) -> list[list[str]]:
    return [[short(row.get(v)) for v in results.vars] for row in results.rows]
