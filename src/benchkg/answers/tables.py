"""An answer as a table for a terminal: it fits the terminal and never cuts a number; a long name first
loses what its column shares, then the least important columns go, and last a name is shortened in
the middle (each step said under the table)."""

from __future__ import annotations

import difflib
import os
import re
import shutil
from dataclasses import dataclass
from decimal import Decimal

from benchkg.answers.results import ratio_cell, short, wrap
from benchkg.kernel.errors import UsageError
from benchkg.kernel.rows import Results


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
    the whole table; the steps are :func:`_importance`, :func:`shorten_column` and the layout here.

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
        legend: list[tuple[str, str]] = []
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
        # (the columns asked for by name are shortened, never dropped)
        droppable = [n for n in reversed(order) if n not in options.keep and n not in options.columns]
        while len(shown) > 1 and _width(shown, cells, need) > width and any(n in shown for n in droppable):
            shown.remove(next(n for n in droppable if n in shown))
        hidden = [n for n in names if n not in shown]
        names = shown
        if _width(names, cells) > width:
            cut = _cut_widths(names, cells, numeric, width, need)
            for name, limit in cut.items():
                if any(len(c) > limit for c in cells[name]):
                    cells[name] = shorten_column(cells[name], limit)
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
    """The narrowest width (at least ``floor``) at which :func:`shorten_column` still tells apart
    every two cells that differ.

    >>> ids = ["fx-h100x8-llama2-70b-offline-v6-0", "fx-h100x8-llama2-70b-offline-v5-1",
    ...        "fx-h200-cts-x8-llama2-70b-offline-v6-0", "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-offline"]
    >>> _distinct_limit(ids), shorten_column(ids, _distinct_limit(ids))
    (14, ['fx-h100x8…v6-0', 'fx-h100x8…v5-1', 'fx-h200…0', '…mlperf…'])
    """
    widest = max((len(c) for c in cells), default=0)
    distinct = len(set(cells))
    for limit in range(floor, widest):
        if len(set(shorten_column(cells, limit))) == distinct:
            return limit
    return max(widest, floor)


def shorten_column(cells: list[str], limit: int) -> list[str]:
    """The cells of a column at most ``limit`` wide: a long cell first loses the words (of a name) or
    parts (of an id) every cell of the column shares, at its ends and in runs of two or more inside
    (what tells the rows apart stays, and something always does), then is cut as :func:`_middle` cuts.

    >>> ids = [f"mlperf-6.0-00{n}-llama2-70b-99-server" for n in (10, 24, 73)] + ["bench-gb200-llama2-70b-server"]
    >>> shorten_column(ids, 14)
    ['…6.0-0010…99…', '…6.0-0024…99…', '…6.0-0073…99…', 'bench-gb200…']
    >>> shorten_column(["Fixture: an 8x H200 SXM CTS server", "Fixture: an 8x H200 SXM server"], 14)
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


TABLE_ROWS = 25
