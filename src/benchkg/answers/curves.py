"""Throughput–interactivity curves, compared where it is fair: at the same interactivity.

A serving result is a curve of points — interactivity (tokens/s one user sees) against throughput per
GPU — and a system that wins at its best throughput may lose at the interactivity a product needs. The
saved query ``at-interactivity`` reads every curve at one interactivity ``x``:

1. **The frontier.** Of a curve's points, those no other point beats on both axes (at least as
   interactive *and* at least as much throughput), ordered by interactivity. A configuration's
   dominated points are never read: another setting of the same system does better there. With
   ``curve=frontier`` (the default) every configuration of one chip, framework, format, speculative
   decoding and (dis)aggregation is pooled, as InferenceX draws them; ``curve=claim`` reads each
   configuration alone.
2. **Reading it at x.** At a frontier point's own interactivity, that point's published value,
   exactly ("measured"). Between two frontier points, ``rule=linear`` (the default) interpolates
   linearly in interactivity, y = y₁ + (x₁ − x)·(y₂ − y₁)/(x₁ − x₂) for x₂ < x < x₁, rounded to 4
   decimals and labelled "interpolated, not a published result"; ``rule=step`` takes the measured
   point of least interactivity at or above x — a configuration that was run and meets x, no
   interpolation. Outside the frontier's measured range there is no value: "outside the measured
   range", never an extrapolation.

Throughput per GPU is the point's total tokens/s (input + output, InferenceX's ``tput_per_gpu``) ÷ the
run's GPUs — prefill and decode GPUs both, for a disaggregated run — or its output tokens/s ÷ GPUs where
the source gives no total (MLPerf Endpoints); output tokens/s per GPU is read beside it the same way.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from decimal import Decimal

from pyoxigraph import Literal, NamedNode

from benchkg.answers.charts import save_figure
from benchkg.kernel.rows import Results
from benchkg.kernel.vocab import PREFIXES

INTERPOLATED = "interpolated, not a published result"
MEASURED = "measured"
PLACES = Decimal("0.0001")


@dataclass(frozen=True)
class Point:
    """One point of a curve: interactivity, throughput per GPU, output throughput per GPU, where from."""

    interactivity: Decimal
    per_gpu: Decimal
    output_per_gpu: Decimal | None = None
    claim: str = ""
    concurrency: int | None = None


def frontier(points: list[Point]) -> list[Point]:
    """The points no other point beats on both axes, by interactivity ascending (of points that tie on
    both, the first).

    >>> P = lambda x, y: Point(Decimal(x), Decimal(y))
    >>> [(str(p.interactivity), str(p.per_gpu)) for p in frontier([P(120, 400), P(90, 1200), P(40, 3000), P(20, 2800), P(100, 900)])]
    [('40', '3000'), ('90', '1200'), ('100', '900'), ('120', '400')]
    """
    kept: list[Point] = []
    best = None
    for p in sorted(points, key=lambda p: (-p.interactivity, -p.per_gpu)):
        if best is None or p.per_gpu > best:
            kept.append(p)
            best = p.per_gpu
    return sorted(kept, key=lambda p: p.interactivity)


@dataclass
class Reading:
    """A curve read at one interactivity: the values, how they were got, and the points used."""

    per_gpu: Decimal | None
    output_per_gpu: Decimal | None
    how: str
    used: tuple[Point, ...] = ()


def read_at(front: list[Point], x: Decimal, rule: str = "linear") -> Reading:
    """The frontier ``front`` (ascending interactivity) read at interactivity ``x``.

    >>> P = lambda x, y: Point(Decimal(x), Decimal(y))
    >>> front = [P(40, 3000), P(90, 1200), P(100, 900), P(120, 400)]
    >>> read_at(front, Decimal(95)).per_gpu, read_at(front, Decimal(95)).how
    (Decimal('1050.0000'), 'interpolated, not a published result')
    >>> read_at(front, Decimal(100)).per_gpu, read_at(front, Decimal(100)).how
    (Decimal('900'), 'measured')
    >>> read_at(front, Decimal(95), "step").per_gpu
    Decimal('900')
    >>> read_at(front, Decimal(130)).how
    'outside the measured range (40–120 tokens/s per user)'
    """
    if not front:
        return Reading(None, None, "no points")
    low, high = front[0].interactivity, front[-1].interactivity
    if x < low or x > high:
        return Reading(None, None, f"outside the measured range ({_plain(low)}–{_plain(high)} tokens/s per user)")
    exact = next((p for p in front if p.interactivity == x), None)
    if exact is not None:
        return Reading(exact.per_gpu, exact.output_per_gpu, MEASURED, (exact,))
    above = next(p for p in front if p.interactivity > x)
    below = max((p for p in front if p.interactivity < x), key=lambda p: p.interactivity)
    if rule == "step":
        return Reading(
            above.per_gpu,
            above.output_per_gpu,
            f"measured at {_plain(above.interactivity)} tokens/s per user (step: the nearest point that meets it)",
            (above,),
        )
    share = (above.interactivity - x) / (above.interactivity - below.interactivity)

    def between(a, b):
        return None if a is None or b is None else (a + share * (b - a)).quantize(PLACES)

    return Reading(
        between(above.per_gpu, below.per_gpu),
        between(above.output_per_gpu, below.output_per_gpu),
        INTERPOLATED,
        (above, below),
    )


def _plain(value: Decimal) -> str:
    """A number as a person writes it in a sentence: at most two decimals, no trailing zeros.

    >>> _plain(Decimal("54.175576403500266")), _plain(Decimal("120")), _plain(Decimal("95.5"))
    ('54.18', '120', '95.5')
    """
    return format(value.quantize(Decimal("0.01")).normalize(), "f")


CURVE_KEYS = ("accelerator", "framework", "format", "speculative", "disaggregated", "input_length", "output_length")


#: the columns of an answer read at equal interactivity, in order
COLUMNS = [
    "curve",
    "tokens_per_gpu",
    "output_tokens_per_gpu",
    "how",
    "interactivity",
    "accelerator",
    "framework",
    "format",
    "speculative",
    "disaggregated",
    "input_length",
    "output_length",
    "frontier_points",
    "read_from",
    "claim",
    "claims",
]
#: the columns a curve's row keeps from its first point
CURVE_COLUMNS = ("accelerator", "framework", "format", "speculative", "disaggregated", "input_length", "output_length")
DECIMAL = NamedNode(PREFIXES["xsd"] + "decimal")


def at_interactivity(results, values: dict[str, str]):
    """The saved query's rows (one per point) turned into one row per curve read at the asked
    interactivity (``values``: interactivity, rule, curve), best first, "outside" rows last; the frontiers
    go with the answer (``.extra["curves"]``) for its chart."""
    x = Decimal(values.get("interactivity") or "50")
    rule = values.get("rule") or "linear"
    by_claim = (values.get("curve") or "frontier") == "claim"
    out, curves = [], {}
    for group in _curves(results.rows, by_claim).values():
        front = frontier(group["points"])
        reading = read_at(front, x, rule)
        label = _label(group["row"], by_claim)
        curves[label] = (front, group["points"], reading)
        out.append(_reading_row(group, label, x, len(front), reading))
    out.sort(
        key=lambda r: (
            0 if "tokens_per_gpu" in r else 1,
            -Decimal(r["tokens_per_gpu"].value) if "tokens_per_gpu" in r else 0,
            r["curve"].value,
        )
    )
    return Results(COLUMNS, out, extra={"curves": curves, "asked": x})


def _curves(rows, by_claim: bool) -> dict[tuple, dict]:
    """The points grouped into curves (by configuration, or by claim): each with its first row, its
    points (tokens/s per GPU over prefill and decode when given, else output tokens/s per GPU) and
    the claims they come from."""
    groups: dict[tuple, dict] = {}
    for row in rows:
        key = (row["claim"].value,) if by_claim else tuple(row[k].value if k in row else "" for k in CURVE_KEYS)
        group = groups.setdefault(key, {"row": row, "points": [], "claims": set()})
        gpus = Decimal(row["gpus"].value)
        total = Decimal(row["total_tps"].value) if "total_tps" in row else None
        output = Decimal(row["system_tps"].value) / gpus if "system_tps" in row else None
        per_gpu = total / gpus if total is not None else output
        if per_gpu is None:
            continue
        interactivity, concurrency = Decimal(row["tps_per_user"].value), int(row["concurrency"].value)
        group["points"].append(Point(interactivity, per_gpu, output, row["claim"].value, concurrency))
        group["claims"].add(row["claim"].value)
    return groups


def _reading_row(group: dict, label: str, x: Decimal, points: int, reading) -> dict:
    """One curve's row: its configuration, the value read at ``x``, how, and the points it was read from."""
    first = group["row"]
    row = {k: first[k] for k in CURVE_COLUMNS if k in first}
    row.update(
        {
            "curve": Literal(label),
            "interactivity": Literal(str(x), datatype=DECIMAL),
            "how": Literal(reading.how),
            "frontier_points": Literal(str(points), datatype=NamedNode(PREFIXES["xsd"] + "integer")),
            "claims": Literal(" ".join(sorted(c.rsplit("/", 1)[-1] for c in group["claims"]))),
        }
    )
    if reading.per_gpu is not None:
        row["tokens_per_gpu"] = Literal(str(reading.per_gpu), datatype=DECIMAL)
    if reading.output_per_gpu is not None:
        row["output_tokens_per_gpu"] = Literal(str(reading.output_per_gpu), datatype=DECIMAL)
    if reading.used:
        row["claim"] = NamedNode(reading.used[0].claim)
        row["read_from"] = Literal(
            " and ".join(
                f"{p.claim.rsplit('/', 1)[-1]} at concurrency {p.concurrency} "
                f"({_plain(p.interactivity)} tokens/s per user)"
                for p in reading.used
            )
        )
    return row


def _label(row: dict, by_claim: bool) -> str:
    """A curve's name: chip · framework · format (· speculative · disaggregated), or its claim."""

    def text(key: str) -> str:
        term = row.get(key)
        return "" if term is None else term.value.rsplit("/", 1)[-1]

    if by_claim:
        return text("claim")
    parts = [text("accelerator"), text("framework"), text("format")]
    if text("speculative") not in ("", "none"):
        parts.append(text("speculative"))
    if text("disaggregated") == "true":
        parts.append("disaggregated")
    return " · ".join(p for p in parts if p not in ("", "-"))


def to_curve_chart(results, path, title: str = "") -> None:
    """The frontiers of an at-interactivity answer (lines through their points, dominated points faint)
    with the asked interactivity as a dashed line and each curve's reading on it (hollow where
    interpolated), written to PNG or SVG."""

    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False  # a name's "$5 vs $6" is text, not math
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 6.5))
    markers = "osD^v<>ph*"
    asked = results.extra["asked"]
    for n, (label, (front, points, reading)) in enumerate(sorted(results.extra["curves"].items())):
        xs, ys = [float(p.interactivity) for p in front], [float(p.per_gpu) for p in front]
        (line,) = ax.plot(xs, ys, marker=markers[n % len(markers)], linewidth=1.5, markersize=5, label=label)
        off = [p for p in points if p not in front]
        if off:
            ax.scatter(
                [float(p.interactivity) for p in off],
                [float(p.per_gpu) for p in off],
                s=14,
                color=line.get_color(),
                alpha=0.3,
            )
        if reading.per_gpu is not None:
            ax.scatter(
                [float(asked)],
                [float(reading.per_gpu)],
                s=70,
                zorder=5,
                facecolors="none" if reading.how == INTERPOLATED else line.get_color(),
                edgecolors=line.get_color(),
                linewidths=1.5,
            )
    ax.axvline(float(asked), color="#333333", linestyle="--", linewidth=1)
    ax.text(float(asked), ax.get_ylim()[1], f" {_plain(asked)} tokens/s per user", fontsize=8, va="top")
    ax.set_xlabel("interactivity (tokens/s per user)")
    ax.set_ylabel("tokens/s per GPU (input + output, all GPUs)")
    ax.legend(fontsize=7, loc="lower left")
    ax.grid(alpha=0.3)
    lines = textwrap.wrap(title or "Throughput per GPU at one interactivity, on each curve's Pareto frontier", 110)
    fig.suptitle("\n".join(lines), x=0.01, ha="left", fontsize=10)
    fig.text(
        0.01,
        0.01,
        "lines: Pareto frontiers; faint dots: dominated points; hollow circles: interpolated, not a "
        "published result; filled: a measured point",
        fontsize=7,
        color="#555555",
    )
    fig.tight_layout(rect=(0, 0.03, 1, 1 - 0.03 * len(lines)))
    save_figure(fig, path)
