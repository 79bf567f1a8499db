"""Tables of a saved page, read as the sentences a curator reads them as.

A results table states each number with its row's labels and its column's header: the cell
"2,494,310 tokens/sec" in the row "Offline" and the column "DeepSeek-R1" says "Offline, DeepSeek-R1:
2,494,310 tokens/sec". `benchkg draft` reads sentences, so each number of a table becomes a sentence of
its own with those words (:func:`table_sentences`); a cell that gives two numbers for two labels of
another cell ("53.4k/60.2k" under "Server + Offline") becomes two sentences, each with its own label.
A bare number under a header that names a unit ("Tokens/s", "Cluster size (GPUs)") is written with it.
"""

from __future__ import annotations

import re

#: a table row: "| a | b |" (Markdown, and HTML tables as benchkg writes them out)
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BARE = re.compile(r"^\s*[~≈]?\s*(?:\d{1,3}(?: \d{3})+|\d[\d,]*)(?:\.\d+)?\s*[kKmM]?\s*$")  # "107 318" too
#: a header that is a unit, or ends with one in brackets
_UNIT = re.compile(
    r"(?:^|\(|\bin\s+|\b(?:system|total|aggregate|cluster|node)\s+)\s*((?:output\s+)?tokens?\s*/\s*s(?:ec(?:ond)?)?|tok/s|tps|queries\s*/\s*s(?:ec(?:ond)?)?|"
    r"samples\s*/\s*s(?:ec(?:ond)?)?|tokens per second|gpus|accelerators|nodes|ms)\s*\)?\s*$",
    re.I,
)
#: what separates the parts of a cell read against another ("53.4k/60.2k", "Server + Offline")
_PARTS = re.compile(r"\s*(?:/|\+|\band\b)\s*")
#: a throughput written in a cell
_THROUGHPUT = re.compile(
    r"\d[\d,.]*\s*[kKmM]?\s*(?:(?:output\s+)?(?:tokens?|tok|queries|samples)\s*(?:/|per)\s*s|tps\b)", re.I
)


def table_sentences(text: str) -> str:
    r"""``text`` with each table (Markdown rows, the first one its header) written as sentences.

    >>> print(table_sentences("| Scenario | DeepSeek-R1 |\n|---|---|\n| Offline | 2,494,310 tokens/sec |"))
    Offline; DeepSeek-R1: 2,494,310 tokens/sec.
    >>> print(table_sentences("| Model | Scenario | Result |\n|--|--|--|\n| X | Server + Offline | 53.4k/60.2k tokens/second |"))
    X; Server: 53.4k tokens/second.
    X; Offline: 60.2k tokens/second.
    >>> print(table_sentences("| Metric | Tokens/s |\n|--|--|\n| Total | 1,100,948.3 |"))
    Total: 1,100,948.3 Tokens/s.
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not _ROW.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        block = []
        while i < len(lines) and (_ROW.match(lines[i]) or _RULE.match(lines[i]) or _between_rows(lines, i)):
            if _ROW.match(lines[i]) and not _RULE.match(lines[i]):
                block.append(_cells(lines[i]))
            i += 1
        caption = next((line for line in reversed(out) if line.strip()), "")  # "… Llama 2 70B (tokens/second)"
        unit = _UNIT.search(caption) if len(caption) <= 160 else None
        out += _read(block, unit.group(1) if unit and not _COUNT_HEAD.search(unit.group(1)) else "")
    return "\n".join(out)


def _between_rows(lines: list[str], i: int) -> bool:
    """A blank line between two rows (an HTML table's rows, written out, have them)."""
    if lines[i].strip():
        return False
    rest = next((line for line in lines[i + 1 :] if line.strip()), "")
    return bool(_ROW.match(rest))


def _cells(line: str) -> list[str]:
    m = _ROW.match(line)
    return [c.strip() for c in (m.group(1) if m else line).split("|")]


def _read(block: list[list[str]], caption: str = "") -> list[str]:
    """The sentences of one table: a row without a number stays a line of its cells; ``caption`` is the
    unit the line above the table gives its bare numbers ("MLPerf 4.1, Llama 2 70B (tokens/second)")."""
    if len(block) < 2:
        return ["; ".join(c for c in row if c) for row in block]
    header, out = block[0], []
    for row in block[1:]:
        cells = [_with_unit(c, header[j] if j < len(header) else "", caption) for j, c in enumerate(row)]
        values = [j for j, c in enumerate(cells) if _THROUGHPUT.search(c)]
        labels = [  # (a bare number under a header with no unit, "Per GPU: 13 415", is no value's label)
            j for j in range(len(cells)) if j not in values and cells[j] and not (values and _BARE.match(cells[j]))
        ]
        if not values:
            out.append("; ".join(_labelled(cells[j], header, j) for j in labels) + ".")
            continue
        for j in values:
            out += _cell_sentences(cells, labels, j, header)
    return out


#: a header that counts ("# of GPUs", "Number of nodes", "GPUs")
_COUNT_HEAD = re.compile(r"^\s*(?:(?:#|no\.|number)\s*(?:of\s+)?)?(gpus|accelerators|chips|nodes)\s*$", re.I)


def _with_unit(cell: str, head: str, caption: str = "") -> str:
    """A bare number written with its header's unit, else (not under a count's header) the caption's.

    >>> _with_unit("4", "# of GPUs", "tokens/second"), _with_unit("10700", "Offline", "tokens/second")
    ('4 GPUs', '10700 tokens/second')
    """
    if not _BARE.match(cell):
        return cell
    count = _COUNT_HEAD.search(head)
    if count:
        return f"{cell} {count.group(1)}"
    unit = _UNIT.search(head)
    if unit:
        return f"{cell} {unit.group(1)}"
    return f"{cell} {caption}" if caption else cell


def _labelled(cell: str, header: list[str], j: int) -> str:
    """A label cell; a count keeps its header's words ("Cluster size (GPUs): 88 GPUs")."""
    head = header[j] if j < len(header) else ""
    if _COUNT_HEAD.search(head):
        return cell
    return f"{head}: {cell}" if re.match(r"^\s*\d", cell) and head else cell


def _cell_sentences(cells: list[str], labels: list[int], j: int, header: list[str]) -> list[str]:
    """One sentence per number of cell ``j``; two numbers against a label cell of two parts, a
    sentence each with its own part."""
    head = header[j] if j < len(header) else ""
    numbers = [p for p in re.split(r"\s*/\s*(?=\d)", cells[j]) if p]
    unit = _THROUGHPUT.search(numbers[-1])
    tail = numbers[-1][unit.end() :] if unit else ""
    if len(numbers) > 1 and unit:  # "53.4k/60.2k tokens/second": each number with the unit written once
        written = re.sub(r"^[\d,.]+\s*[kKmM]?", "", numbers[-1][: unit.end()]).strip()
        numbers = [n if _THROUGHPUT.search(n) else f"{n} {written}{tail}" for n in numbers]
    split = next(
        (k for k in labels if len(numbers) > 1 and len(_PARTS.split(cells[k])) == len(numbers)),
        None,
    )
    out = []
    for n, number in enumerate(numbers):
        words = [_PARTS.split(cells[k])[n] if k == split else _labelled(cells[k], header, k) for k in labels]
        label = _UNIT.sub("", head).strip(" ()") if _UNIT.search(head) else head  # "Offline (tokens/s)": Offline
        if label and label.lower() not in ("result", "results", "performance", "throughput"):
            words.append(label)
        out.append("; ".join(words) + f": {number}.")
    return out
