"""A claim's numbers against their metric and unit: the checks the record reader runs on a benchmark
record's value and on each of its ``reported`` values, once the fields' types are right.

A result is a positive number (a throughput, a latency, a power: none of them is zero or below; -5 ms
"held" a lowest-latency superlative, issue 64), in a unit of its metric (:data:`benchkg.kernel.vocab.METRIC_UNITS`:
"50 ms" with ``metric: throughput`` was divided per accelerator as if it were a rate). An unknown metric or
unit is the vocabulary shapes' to name, not this module's.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from benchkg.kernel.vocab import METRIC_UNITS

#: which metrics each unit belongs to, read off :data:`METRIC_UNITS`
_METRICS_OF = {
    unit: tuple(m for m, units in METRIC_UNITS.items() if unit in units) for unit in sum(METRIC_UNITS.values(), ())
}


def value_problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(pointer, message) for each value of a benchmark record (its own and its ``reported`` ones) that
    is not positive or whose unit is not one of its metric's.

    >>> value_problems({"metric": "throughput", "value": 100, "unit": "tokens/s"})
    []
    >>> value_problems({"metric": "latency", "value": -5, "unit": "ms"})
    [('/value', 'a result is greater than zero, and -5 ms is not: write the value as the source states it')]
    >>> value_problems({"reported": [{"metric": "throughput", "value": 50, "unit": "ms"}]})[0][1]
    "unit 'ms' is a unit of ttft, tpot or latency, not of metric 'throughput' (use tokens/s, samples/s, queries/s or tasks/s, or the metric the value measures)"
    """
    out = _problems(data, "")
    for i, item in enumerate(data.get("reported") or []):
        if isinstance(item, dict):
            out += _problems(item, f"/reported/{i}")
    return out


def _problems(quantity: dict[str, Any], pointer: str) -> list[tuple[str, str]]:
    """The problems of one quantity (a dict with ``metric``, ``value``, ``unit``) at ``pointer``."""
    out = []
    value, unit, metric = quantity.get("value"), quantity.get("unit"), quantity.get("metric")
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool) and value <= 0:
        stated = f"{value} {unit}" if isinstance(unit, str) else str(value)
        out.append(
            (
                f"{pointer}/value",
                f"a result is greater than zero, and {stated} is not: write the value as the source states it",
            )
        )
    if isinstance(metric, str) and metric in METRIC_UNITS and unit in _METRICS_OF and unit not in METRIC_UNITS[metric]:
        out.append(
            (
                f"{pointer}/unit",
                f"unit {unit!r} is a unit of {_or(_METRICS_OF[unit])}, not of metric {metric!r} "
                f"(use {_or(METRIC_UNITS[metric])}, or the metric the value measures)",
            )
        )
    return out


def _or(words: tuple[str, ...]) -> str:
    """``a, b or c``.

    >>> _or(("a",)), _or(("a", "b", "c"))
    ('a', 'a, b or c')
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
