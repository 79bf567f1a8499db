"""Query results out: an aligned table or Markdown for people, SPARQL 1.1 CSV and JSON for tools."""
from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal, InvalidOperation

from .queries import Results
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
    return term.value


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


CHART_ROWS = 25


def to_chart(results: Results, path, label: str, value: str, title: str = "", limit: int = CHART_ROWS) -> None:
    """A horizontal bar chart of one numeric column by one label column, written to PNG or SVG.

    The axis names the column and its unit (when the rows have one); derived values are hatched;
    a bar whose row carries gotchas is marked with ⚠ and their count. Only the first ``limit``
    rows are drawn (the query's order: best first), and the chart says so.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in results.rows if value in r]
    shown = f"the first {limit} of {len(rows)} rows" if len(rows) > limit else ""
    rows = rows[:limit]
    labels = [short(r.get(label)) for r in rows]
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
    ax.set_ylabel(label.replace("_", " "))
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
    fig.savefig(buffer, format=Path(path).suffix.lstrip(".").lower())
    plt.close(fig)
    write_atomic(Path(path), buffer.getvalue())
