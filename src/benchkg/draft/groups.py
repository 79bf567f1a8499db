"""The claims a text states: one per number with its own context, a restated or rounded number joining
its claim, and the readers that join claims back to a system named before."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from decimal import Decimal

from benchkg.draft.figures import (
    _CLAIMED,
    _FROM,
    _FROM_TO,
    Figure,
    _clause,
    _clause_span,
    _clause_text,
    _states_context,
)
from benchkg.draft.page import _short
from benchkg.records.names import Names


@dataclass
class Draft:
    """A draft claim, its source record, and what a person must decide."""

    record: dict
    source: dict
    figures: list[Figure] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)
    suite: dict | None = None  # the vendor's own claim series, for a claim the text says is unaudited

    def comment(self) -> str:
        lines = [
            f"benchkg draft: {len(self.figures)} number{'' if len(self.figures) == 1 else 's'} with a unit in the text; "
            "this claim's number"
            + (
                f" ({self.record['value']:,} {self.record['unit']}, {self.record['scope']})"
                if "value" in self.record
                else " (none found)"
            )
            + "."
        ]
        for f in self.figures:
            lines.append(f'  - {f.describe()}: "{_short(f.sentence)}"')
        if self.undecided:
            lines.append("Not decided (fill these in, then run `benchkg validate`):")
            lines += [f"  - {item}" for item in self.undecided]
        return "\n".join(lines)


@dataclass
class Group:
    """The figures of one claim: its headline (the most precise statement of the number), the same number
    restated elsewhere (a rounded "104K" in the title), and the other numbers of its clause (reported)."""

    lead: Figure
    restated: list[Figure] = field(default_factory=list)
    reported: list[Figure] = field(default_factory=list)


def _restates(a: Figure, b: Figure) -> bool:
    """Whether two throughput figures state one number: the same unit and scope, and each within the
    other's precision (a rounded "104K" is 104,120 written shorter)."""
    if (a.unit, a.scope) != (b.unit, b.scope):
        return False
    return a.mention.states(b.mention.value) or b.mention.states(a.mention.value)


def _precision(f: Figure) -> Decimal:
    return f.mention.high - f.mention.low


def groups(found: list[Figure], names: Names | None = None) -> list[Group]:
    """The claims a text states: one per throughput number with its own context. A number restated
    (rounded, or in the title) joins its claim, the more precise statement leading; another number of the
    same clause (an "up to … per GPU" beside the aggregate) is reported with it; a number in another
    clause or sentence that states its own count, scenario or model is a claim of its own.

    Near-linear in the figures: a restatement is looked for among the figures of the same unit and
    scope whose values lie within the widest precision stated, the clause and sentence of a claim by index."""
    out: list[Group] = []
    seen: dict[tuple[str, str], _Values] = {}
    leads: dict[object, list[int]] = {}  # a lead's clause, and its sentence -> the claims it leads, in order

    def lead(i: int, f: Figure, old: Figure | None = None) -> None:
        for place in (_clause(old), old.sentence) if old else ():
            leads[place].remove(i)
        for place in (_clause(f), f.sentence):
            bisect.insort(leads.setdefault(place, []), i)

    for f in (f for f in found if f.kind in _CLAIMED):
        values = seen.setdefault((f.unit, f.scope), _Values())
        # (a figure joins a claim it restates whose headline it does not contradict: "1.2 million" is the rounded
        # 1,197,710 and 1,160,490 alike, but those two are two numbers)
        same = min((i for i, x in values.near(f) if _restates(x, f) and _restates(out[i].lead, f)), default=None)
        if same is not None:
            group = out[same]
            if _precision(f) < _precision(group.lead):
                group.restated.append(group.lead)
                lead(same, f, group.lead)
                group.lead = f
            else:
                group.restated.append(f)
            values.add(f, same)
            continue
        places = [] if _own_context(f, names) else [_clause(f), f.sentence]
        beside = min((leads[p][0] for p in places if leads.get(p)), default=None)
        if beside is not None:
            out[beside].reported.append(f)
            continue
        out.append(Group(f))
        values.add(f, len(out) - 1)
        lead(len(out) - 1, f)
    return out


#: the words before a figure given for comparison: "against just 2,907", "up from 170", "than 24,525"
_EARLIER = re.compile(
    r"\b(?:against|versus|vs\.?|compared\s+(?:with|to)|(?:up|down)\s+from|than)\s+(?:just\s+|only\s+|the\s+)?$", re.I
)


def _earlier(f: Figure, names: Names | None) -> bool:
    """Whether a figure is an earlier one given for comparison ("against just 2,907 tokens per second in
    the previous version") whose own words state no round, chip or count: no claim, and not reported
    beside the claim it is compared with."""
    if not _EARLIER.search(f.sentence[max(0, f.mention.start - 30) : f.mention.start]):
        return False
    words = f.sentence[f.mention.start : f.own[1] or len(f.sentence)]
    return not (
        re.search(r"(?<![\w.])v\d+\.\d+\b", words)
        or (names and names.find("accelerators", words))
        or re.search(r"\d\s+(?:[\w-]+\s+){0,3}(?:gpus|accelerators|chips)\b", words, re.I)
    )


class _Values:
    """The figures of the claims so far (of one unit and scope), sorted by value, with their claim's index:
    :meth:`near` gives those a figure could restate or be restated by, without reading them all. A figure
    stated again alike (value and precision) is kept once, with the first claim it belongs to."""

    def __init__(self):
        self.values: list[Decimal] = []
        self.keys: list[tuple[Decimal, Decimal, Decimal]] = []
        self.first: dict[tuple[Decimal, Decimal, Decimal], tuple[int, Figure]] = {}
        self.reach = Decimal(0)  # the widest distance from a figure's value to the ends of its precision

    def add(self, f: Figure, group: int) -> None:
        m = f.mention
        key = (m.value, m.low, m.high)
        if key in self.first:
            self.first[key] = min(self.first[key], (group, f), key=lambda item: item[0])
            return
        i = bisect.bisect_right(self.values, m.value)
        self.values.insert(i, m.value)
        self.keys.insert(i, key)
        self.first[key] = (group, f)
        self.reach = max(self.reach, m.high - m.value, m.value - m.low)

    def near(self, f: Figure) -> list[tuple[int, Figure]]:
        m = f.mention
        reach = max(self.reach, m.high - m.value, m.value - m.low)
        lo = bisect.bisect_left(self.values, m.value - reach)
        hi = bisect.bisect_right(self.values, m.value + reach)
        return [self.first[k] for k in self.keys[lo:hi]]


def _own_context(f: Figure, names: Names | None = None) -> bool:
    """Whether a figure's own words state a count, a scenario, an instance count, or (with ``names``) a
    model or a chip of their own, or it is one of a list read "respectively": then it is a claim of its own,
    not a number reported beside another."""
    before = f.sentence[max(0, f.mention.start - 200) : f.mention.start]
    if f.respectively or _FROM.search(before) or _FROM_TO.search(before):  # "from 2,907 … to 8,064": two claims
        return True
    if f.own[1] and _states_context(f.sentence, *f.own):
        return True
    if names and f.own[1]:
        words = f.sentence[f.own[0] : f.own[1]]
        if names.find("models", words) or names.find("accelerators", words):
            return True
    return _states_context(*_clause_span(f)) and not f.own[1]


#: words that point back at a system named before: "the same 512-GPU fleet", "that cluster", "the rack"
_SAME = re.compile(
    r"\b(?:the\s+same|that|this)\s+(?:[\w-]+\s+){0,2}?(?:fleet|rack|cluster|system|nodes?|hardware|machine|"
    r"configuration|platform|setup|domain)\b",
    re.I,
)


#: words after a number that make what follows a comparison: "1.18 times their …", "than", "over"
_COMPARISON = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:[x×](?!\w)|times\b)|\bthan\b|\bcompared\b|\bversus\b", re.I)


def _referred_back(drafts: list[Draft], leads: list[Figure | None]) -> None:
    """A claim whose own words point back at a system ("the same 512-GPU fleet delivered …") takes the
    chips, accelerator count and node count it does not state from the nearest claim before it whose
    sentence names the same thing (a fleet, a rack), else the nearest claim before it, and says so."""
    for n, (draft, lead) in enumerate(zip(drafts, leads)):
        same = _SAME.search(_clause_text(lead) if lead else "")  # "the same fleet delivered X … and Y …": both
        if not same or lead and _COMPARISON.search(lead.sentence, lead.mention.end, same.start()):
            continue  # ("1.18 times their v5.1 result on the same hardware": the baseline's system, not another claim's)
        noun = re.compile(rf"\b{re.escape(same.group().split()[-1])}\b", re.I)
        before = [(d, f) for d, f in zip(drafts[:n], leads[:n]) if f]
        named = [d for d, f in before if noun.search(f.sentence)] or [d for d, _ in before]
        for field_ in ("accelerator_ids", "accelerator_count", "node_count"):
            earlier = next((d.record[field_] for d in reversed(named) if field_ in d.record), None)
            if field_ not in draft.record and earlier is not None:
                draft.record[field_] = earlier
                draft.undecided = [u for u in draft.undecided if not u.startswith(f"{field_}:")]
                draft.undecided.append(f"{field_}: {earlier}, as {same.group()!r} refers to the claim before it")


def _restated_per_accelerator(drafts: list[Draft]) -> list[Draft]:
    """The drafts without a per-accelerator figure that is another claim's aggregate divided by its count
    ("that is about 15,200 tokens/s per GPU" of 1,100,948.3 on 72 GPUs), the count the claim's own or
    one the text states: benchkg derives it; the claim says so on stderr."""
    stated = {int(f.mention.value) for d in drafts[:1] for f in d.figures if f.unit == "accelerators"}
    aggregates = []
    for d in drafts:
        if d.record.get("scope") != "aggregate":
            continue
        for count in [d.record["accelerator_count"]] if d.record.get("accelerator_count") else sorted(stated):
            aggregates.append((d, count))
    kept = []
    for d in drafts:
        r = d.record
        same = next(
            (
                a
                for a, count in aggregates
                if r.get("scope") == "per-accelerator"
                and r.get("unit") == a.record["unit"]
                and abs(a.record["value"] / count - r["value"]) <= 0.015 * r["value"]
            ),
            None,
        )
        if same:
            same.undecided.append(
                f"value: the text also gives {r['value']:,} {r['unit']} per accelerator, this claim's value per "
                "accelerator (benchkg derives it): no claim of its own"
            )
        else:
            kept.append(d)
    return kept
