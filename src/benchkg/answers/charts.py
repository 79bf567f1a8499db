"""An answer as a bar chart (PNG or SVG, matplotlib): a bar per row, vendor numbers marked, the
derived per-accelerator values said so in the note under it."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

from benchkg.answers.results import format_number, is_number, short
from benchkg.answers.tables import shorten_column
from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.errors import UsageError
from benchkg.kernel.rows import Results
from benchkg.kernel.vocab import LOWER_IS_BETTER

CHART_ROWS = 25


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

    rows = [r for r in results.rows if value in r and is_number(r[value])]
    if results.rows and not rows:
        raise UsageError(
            f"the chart's value column {value!r} holds no numbers to draw; "
            "name a numeric column in '#+ chart: label=COLUMN value=COLUMN'"
        )
    total = max(len(rows), results.total or 0)  # a windowed answer (--limit) counts the rows it left out
    rows = rows[:limit]
    shown = f"the first {len(rows)} of {total} rows" if total > len(rows) else ""
    labels = shorten_column(chart_labels(rows, label), 48)
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
