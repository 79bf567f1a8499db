"""An answer's rows: the variables of a SELECT and its rows of RDF terms (pyoxigraph terms), whole or a
window of them, whichever engine answered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Results:
    """The answer of a SELECT query: its variables and rows of RDF terms (pyoxigraph terms).

    A windowed answer (``--limit``/``--offset``) keeps only the rows of its window; ``total`` then
    counts the rows of the whole answer (at least that many when ``more``: counting stops
    :data:`COUNT_PAST` rows past the window), and ``claim_rows`` holds the claim columns of every
    row counted, which its comparison caveats are computed from.
    """

    vars: list[str]
    rows: list[dict[str, Any]]
    total: int | None = None
    more: bool = False
    claim_rows: list[tuple[Any, ...]] | None = None
    extra: dict[str, Any] = field(
        default_factory=dict
    )  # what a "#+ then:" step gives beside the rows (the curves of a chart)

    @property
    def count(self) -> int:
        """The rows of the whole answer (see ``more``)."""
        return len(self.rows) if self.total is None else self.total


def window(results: Results, limit: int | None, offset: int = 0, claims: tuple[str, ...] = ()) -> Results:
    """The rows ``offset`` … ``offset + limit`` (all from ``offset`` when ``limit`` is 0 or None) of a
    whole answer, counting all of them and keeping the ``claims`` columns of every row."""
    rows = results.rows[offset:]
    claim_rows = [tuple(row[c].value if c in row else None for c in claims) for row in results.rows] if claims else None
    return Results(results.vars, rows[:limit] if limit else rows, len(results.rows), False, claim_rows, results.extra)
