"""Query results out: an aligned table or Markdown for people, SPARQL 1.1 CSV and JSON for tools."""
from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal, InvalidOperation

from .queries import Results
from .vocab import BK, PREFIXES, UNIT_NAMES

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
        value = term.value
        if value in UNIT_NAMES:
            return UNIT_NAMES[value]
        m = re.search(r"/id/[a-z]+/([^/#]+)$", value)
        if m:
            return m.group(1)
        if value.startswith(BK):
            local = value[len(BK):]
            from .vocab import SCHEMES

            for scheme in sorted(SCHEMES, key=len, reverse=True):
                if local.startswith(scheme + "-"):
                    return local[len(scheme) + 1:]
            return local
        return value
    if isinstance(term, Literal) and term.datatype.value in _NUMERIC:
        return format_number(term.value)
    return term.value


def format_number(text: str) -> str:
    """Thousands separators, at most two decimals.

    >>> format_number("910621.36"), format_number("72"), format_number("0.95"), format_number("1.7")
    ('910,621.36', '72', '0.95', '1.7')
    """
    try:
        d = Decimal(text)
    except InvalidOperation:
        return text
    if d == d.to_integral_value():
        return f"{int(d):,}"
    q = d.quantize(Decimal("0.01"))
    return f"{q:,}".rstrip("0").rstrip(".") if "." in f"{q}" else f"{q:,}"


def _cells(results: Results) -> list[list[str]]:
    return [[short(row.get(v)) for v in results.vars] for row in results.rows]


def to_table(results: Results) -> str:
    """An aligned plain-text table, numbers right-aligned."""
    cells = _cells(results)
    widths = [max([len(v)] + [len(r[i]) for r in cells]) for i, v in enumerate(results.vars)]
    numeric = [all(re.fullmatch(r"-?[\d,]+(\.\d+)?", r[i] or "0") for r in cells) for i in range(len(widths))]

    def line(values):
        return "  ".join(v.rjust(w) if num else v.ljust(w)
                         for v, w, num in zip(values, widths, numeric)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(results.vars), rule] + [line(r) for r in cells] +
                     [f"({len(cells)} row{'s' if len(cells) != 1 else ''})"])


def to_markdown(results: Results) -> str:
    """A GitHub-flavoured Markdown table."""
    def esc(v: str) -> str:
        return v.replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(results.vars) + " |"
    rule = "|" + "|".join("---" for _ in results.vars) + "|"
    body = ["| " + " | ".join(esc(c) for c in row) + " |" for row in _cells(results)]
    return "\n".join([head, rule] + body)


FORMATS = {"table": to_table, "csv": to_csv, "json": to_json, "markdown": to_markdown}
