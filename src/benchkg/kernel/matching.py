"""A claim judged as written: the interval a number states, and the one rule that says which audited
result a claim restates.

A written number states an interval, not a point. "1.19M" is 1,190,000 to the nearest ten thousand, so it
states anything in [1,185,000, 1,195,000]; "5.7 s" states [5.65, 5.75]; "over 1M" anything above
1,000,000; "nearly 1.2 million" and "about 50,000" their rounding. In a text a whole number's trailing
zeros are places, not digits: "1,190,000 tokens/s" is written to the ten thousand, as "1.19M" is (and a
round number to two figures at least: "100,000" is 95,000 to 105,000).
:func:`stated_interval` reads the interval from the text's own spelling (``value_as_written``), else from
the source quote's mention of the value, else from the record's value (half a unit of its last digit).

An audited result *is* the number a claim states (:func:`restates`) when its value as published lies in the
claim's interval (both read as the roundings they are: a published 910,621 is 910,620.5 to 910,621.5), in the
claim's round, model and scenario, unit and scope, and where the claim states them on the same hardware as a
whole (a mixed system meets only the same combination), count, division, tier, submitter and named result. :func:`judge` gives the verdict: ``matches`` (the written digits are the published
value), ``matches as written`` (within the interval), ``differs`` (the nearest audited result of that key,
with the ratio), or ``no audited result`` (and of what). Everything that says whether a vendor's number
is the audited one — ``bk:auditedBy``, ``vendor-vs-audited``, ``show``, the superlative check, the site —
calls these functions, so they cannot disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Iterable

from benchkg.kernel.numbers import MULTIPLIERS, Mention, mentions, words_number

#: what before a number makes it a bound, not a value: "over 1M" states anything above 1,000,000
_ABOVE_WORDS = r"over|more than|above|upwards of|in excess of|exceeding|greater than|>"
_BELOW_WORDS = r"under|less than|below|fewer than|<"
#: what before a number keeps its rounding ("nearly 1.2 million": 1,150,000 to 1,250,000)
_ROUGHLY_WORDS = r"~|≈|about|approximately|approx\.?|around|roughly|nearly|almost|close to|some|up to"
_ABOVE = re.compile(rf"^\s*(?:{_ABOVE_WORDS})\s*", re.I)
_BELOW = re.compile(rf"^\s*(?:{_BELOW_WORDS})\s*", re.I)
_QUALIFIER = rf"(?:{_ABOVE_WORDS}|{_BELOW_WORDS}|{_ROUGHLY_WORDS})\s*"


@dataclass(frozen=True)
class Interval:
    """The numbers a written value states: ``low`` to ``high`` (None: unbounded), each bound included unless
    ``open_low``/``open_high``; ``written`` is the spelling it was read from.

    >>> Interval(Decimal("1185000"), Decimal("1195000")).holds(Decimal("1186750"))
    True
    >>> Interval(Decimal("1000000"), None, open_low=True).holds(1000000)
    False
    """

    low: Decimal | None
    high: Decimal | None
    open_low: bool = False
    open_high: bool = False
    written: str = ""

    def holds(self, number: Decimal | int | float | str) -> bool:
        """Whether ``number`` is a value this interval states."""
        n = Decimal(str(number))
        if self.low is not None and (n < self.low or (self.open_low and n == self.low)):
            return False
        return not (self.high is not None and (n > self.high or (self.open_high and n == self.high)))

    def __str__(self) -> str:
        """The interval in the usual notation, as ``bk:statedInterval`` holds it: ``[1185000, 1195000]``,
        ``(1000000, *)`` for "over 1M" (``*``: unbounded).

        >>> str(Interval(Decimal("5.65"), Decimal("5.75"))), str(Interval(Decimal("1E+6"), None, open_low=True))
        ('[5.65, 5.75]', '(1000000, *)')
        """
        low = "*" if self.low is None else format(self.low, "f")
        high = "*" if self.high is None else format(self.high, "f")
        return f"{'(' if self.open_low or self.low is None else '['}{low}, {high}{')' if self.open_high or self.high is None else ']'}"

    @classmethod
    def parse(cls, text: str) -> Interval:
        """The interval ``str()`` wrote.

        >>> Interval.parse("(1000000, *)") == Interval(Decimal(1000000), None, open_low=True, open_high=True)
        True
        >>> Interval.parse(str(Interval(Decimal("73500"), Decimal("74500")))).holds(74385.6)
        True
        """
        m = re.fullmatch(r"\s*([\[(])\s*([^,\s]+)\s*,\s*([^\])\s]+)\s*([\])])\s*", text)
        if not m:
            raise ValueError(f"{text!r} is not an interval such as [1185000, 1195000]")
        low = None if m.group(2) == "*" else Decimal(m.group(2))
        high = None if m.group(3) == "*" else Decimal(m.group(3))
        return cls(low, high, m.group(1) == "(", m.group(4) == ")")

    def meets(self, other: Interval) -> bool:
        """Whether the two intervals share more than a point: some number is stated by both (a rounding's
        bound is one side's or the other's, never both).

        >>> claim, published = digits_interval(Decimal("107317")), digits_interval(Decimal("107318"))
        >>> claim.meets(published), digits_interval(Decimal("910621.36")).meets(digits_interval(Decimal("910621")))
        (False, True)
        """
        lows = [b for b in (self.low, other.low) if b is not None]
        highs = [b for b in (self.high, other.high) if b is not None]
        return not lows or not highs or max(lows) < min(highs)

    def writes(self, number: Decimal | int | float | str) -> bool:
        """Whether ``number`` is what the spelling writes: a value it states, or the bound it names ("over 1M"
        writes 1,000,000, and states only what is above it)."""
        n = Decimal(str(number))
        return self.holds(n) or n in (self.low, self.high)

    def scaled(self, factor: Decimal) -> Interval:
        """The same interval with both bounds multiplied by ``factor`` (> 0): a per-accelerator reading."""
        return Interval(
            None if self.low is None else self.low * factor,
            None if self.high is None else self.high * factor,
            self.open_low,
            self.open_high,
            self.written,
        )


def _whole_step(value: Decimal) -> Decimal:
    """The place a whole number in a text is written to: its last non-zero digit (1,190,000: ten thousands),
    but never coarser than its second significant figure ("100,000" is 95,000 to 105,000, not 50,000 to
    150,000: a text's round number is read to two figures at least).

    >>> [_whole_step(Decimal(n)) for n in ("1190000", "944898", "100000", "60000", "1", "0")]
    [Decimal('10000'), Decimal('1'), Decimal('10000'), Decimal('1000'), Decimal('1'), Decimal('1')]
    """
    digits = format(abs(value).to_integral_value(), "f")
    stripped = digits.rstrip("0")
    if not stripped:
        return Decimal(1)
    return max(Decimal(1), min(Decimal(10) ** (len(digits) - len(stripped)), Decimal(10) ** (len(digits) - 2)))


def digits_interval(value: Decimal, written: str = "") -> Interval:
    """The interval a record's number states by its digits alone: half a unit of its last digit (a
    record's ``value`` 1190000 is 1,189,999.5 to 1,190,000.5: a text's "1.19M" says more, in
    ``value_as_written``).

    >>> i = digits_interval(Decimal("5.70")); (i.low, i.high)
    (Decimal('5.695'), Decimal('5.705'))
    >>> i = digits_interval(Decimal("1190000")); (i.low, i.high)
    (Decimal('1189999.5'), Decimal('1190000.5'))
    """
    exponent = value.as_tuple().exponent
    step = Decimal(1).scaleb(exponent) if isinstance(exponent, int) and exponent < 0 else Decimal(1)
    return Interval(value - step / 2, value + step / 2, written=written or format(value, "f"))


#: MLCommons publishes a result to six significant figures (1,186,750; 74,385.6), a latency in full
PUBLISHED_FIGURES = 6


def published_digits(value: Decimal) -> Interval:
    """The interval an audited value as published states: half a unit of its last digit, and of its sixth
    significant figure for a whole number of more (1,186,750 is 1,186,745 to 1,186,755).

    >>> [str(published_digits(Decimal(v))) for v in ("1186750", "910621", "74385.6", "1200000")]
    ['[1186745, 1186755]', '[910620.5, 910621.5]', '[74385.55, 74385.65]', '[1199995, 1200005]']
    """
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent < 0:
        return digits_interval(value)
    figures = len(format(abs(value).to_integral_value(), "f"))
    step = Decimal(10) ** max(0, figures - PUBLISHED_FIGURES)
    return Interval(value - step / 2, value + step / 2)


def _qualified(value: Decimal, step: Decimal, qualifier: str, said: str) -> Interval:
    """The interval of ``value`` written to ``step``, or the bound ``qualifier`` makes it ("over", "less than")."""
    if _ABOVE.match(qualifier):
        return Interval(value, None, open_low=True, written=said)
    if _BELOW.match(qualifier):
        return Interval(None, value, open_high=True, written=said)
    return Interval(value - step / 2, value + step / 2, written=said)


def _mention_interval(mention: Mention, text: str) -> Interval:
    """The interval one mention of a number states: its rounding (a whole number's trailing zeros are
    places), or a bound when a word before it says so ("over", "less than")."""
    written = text[mention.start : mention.end].strip()
    # (the mention may hold its qualifier, "over 1M", or follow it, "in excess of 1M")
    inside = re.match(_QUALIFIER, written, re.I)
    found = inside or re.search(_QUALIFIER + "$", text[: mention.start], re.I)
    qualifier = found.group(0) if found else ""
    said = written if inside else qualifier + written
    factor = MULTIPLIERS.get(mention.multiplier, 1)
    if mention.high - mention.low >= factor:  # a whole number of its unit ("74K", "~50,000"): zeros are places
        step = _whole_step(mention.value / factor) * factor
    else:
        step = mention.high - mention.low
    return _qualified(mention.value, step, qualifier, said)


def written_interval(text: str) -> Interval | None:
    """The interval a number written as ``text`` states ("1.19M", "74K", "5.7 s", "over 1M", "nearly 1.2
    million", "one hundred and twelve thousand"); None when ``text`` writes no number.

    >>> [(str(i.low), str(i.high)) for i in map(written_interval, ["1.19M", "74K tokens/s", "5.7 s"])]
    [('1185000', '1195000'), ('73500', '74500'), ('5.65', '5.75')]
    >>> i = written_interval("over 1M"); (i.low, i.high, i.open_low)
    (Decimal('1000000'), None, True)
    >>> i = written_interval("nearly 1.2 million"); (i.low, i.high)
    (Decimal('1150000'), Decimal('1250000'))
    >>> i = written_interval("one hundred and twelve thousand"); (i.low, i.high)
    (Decimal('111500'), Decimal('112500'))
    >>> written_interval("the highest") is None
    True
    """
    in_words = words_number(text)
    if in_words is not None:
        return _qualified(in_words[0], _whole_step(in_words[0]), text, text.strip())
    found = mentions(text)
    if not found:
        return None
    return _mention_interval(found[0], text)


def stated_interval(
    value: Decimal | int | float | str, as_written: str | None = None, quotes: Iterable[str] = ()
) -> Interval:
    """The interval a claim of ``value`` asserts: read from ``as_written`` (the text's own spelling) when
    given, else from the first quote's mention of the value, else from the value's digits.

    >>> i = stated_interval(1190000, "1.19M"); (i.low, i.high, i.written)
    (Decimal('1185000'), Decimal('1195000'), '1.19M')
    >>> i = stated_interval(Decimal("53400"), quotes=["about 53.4k tokens/s"]); (i.low, i.high)
    (Decimal('53350'), Decimal('53450'))
    >>> i = stated_interval(944898); (i.low, i.high)
    (Decimal('944897.5'), Decimal('944898.5'))
    """
    number = Decimal(str(value))
    if as_written:
        found = written_interval(as_written)
        if found is not None and found.writes(number):
            return Interval(found.low, found.high, found.open_low, found.open_high, as_written.strip())
    for quote in quotes:
        hits = [m for m in mentions(quote) if m.states(number)]
        exact = [m for m in hits if m.value == number]
        if exact or hits:
            return _mention_interval((exact or hits)[0], quote)
    return digits_interval(number)


def record_interval(record: dict[str, object]) -> Interval:
    """:func:`stated_interval` of a claim record's ``value``, from its ``value_as_written`` and its sources'
    quotes: what the mapping writes (``bk:statedInterval``) and ``show`` says the claim states.

    >>> record_interval({"value": 1190000, "sources": [{"quote": "a record 1.19M tokens/s"}]}).written
    '1.19M'
    """
    sources = record.get("sources")
    quotes = [c["quote"] for c in sources if isinstance(c, dict) and "quote" in c] if isinstance(sources, list) else []
    written = record.get("value_as_written")
    return stated_interval(str(record["value"]), written if isinstance(written, str) else None, quotes)


def as_written_problem(value: Decimal | int | float | str, as_written: str) -> str | None:
    """Why ``as_written`` cannot be the spelling of ``value`` (None when it is): what a record's
    ``value_as_written`` must say.

    >>> [as_written_problem(v, w) is None for v, w in ((1190000, "1.19M"), (1190000, "1.2M"), (10**6, "over 1M"))]
    [True, True, True]
    >>> as_written_problem(1190000, "1.3M")
    "'1.3M' states 1250000 to 1350000, not the value 1190000"
    >>> as_written_problem(5, "fast")
    "'fast' writes no number; write the text's own spelling of the value, e.g. '1.19M', '74K', '5.7 s'"
    """
    found = written_interval(as_written)
    if found is None:
        return (
            f"{as_written!r} writes no number; write the text's own spelling of the value, e.g. '1.19M', '74K', '5.7 s'"
        )
    number = Decimal(str(value))
    if found.writes(number):
        return None
    bounds = " to ".join(format(b.normalize(), "f") if b is not None else "any" for b in (found.low, found.high))
    return f"{as_written!r} states {bounds}, not the value {format(number.normalize(), 'f')}"


def ratio_interval(
    times: Decimal | None = None, percent: Decimal | None = None, as_written: str | None = None
) -> Interval:
    """The ratios a relative claim states, as factors: "2.1×" is 2.05 to 2.15; "29 %" higher is 1.285 to
    1.295; "nearly five times" 4.5 to 5.5; "more than 2x" above 2. ``as_written`` gives the precision; else
    the digits of ``times`` or ``percent``.

    >>> pairs = (("2.1", "2.1×"), ("5", "nearly five times"), ("2", "more than 2x"))
    >>> [str(ratio_interval(Decimal(t), as_written=w)) for t, w in pairs]
    ['[2.05, 2.15]', '[4.5, 5.5]', '(2, *)']
    >>> str(ratio_interval(percent=Decimal(29), as_written="29 % higher")), str(ratio_interval(percent=Decimal(-10)))
    ('[1.285, 1.295]', '[0.895, 0.905]')
    """
    stated = Decimal(times if times is not None else percent if percent is not None else 0)
    found = written_interval(as_written) if as_written else None
    if found is None or not found.writes(stated):
        found = digits_interval(stated)
    if times is not None:
        return found
    return Interval(
        None if found.low is None else 1 + found.low / 100,
        None if found.high is None else 1 + found.high / 100,
        found.open_low,
        found.open_high,
    )


def platform_key(platform: str) -> str:
    """An MLPerf system ID compared across rounds: case folded, ``_`` and ``-`` one character (v6.0 writes
    ``8xMI355X_2xEPYC_9575F`` where v6.1 writes ``8xMI355X_2xEPYC-9575F``).

    >>> platform_key("8xMI355X_2xEPYC_9575F") == platform_key("8xMI355X_2xEPYC-9575F")
    True
    """
    return re.sub(r"[-_\s]+", "-", platform.strip()).casefold()


@dataclass(frozen=True)
class Result:
    """One claim or audited result as the rule reads it: ids and values as text, ``chips`` the hardware as a
    whole (a rack is its chip; a mixed system the set of its chips), ``interval`` the claim's (None for an
    audited result: its value is a point, as published)."""

    id: str
    suite: str
    model: str
    scenario: str
    chips: frozenset[str]
    unit: str
    scope: str
    value: Decimal
    metric: str = "throughput"
    count: int | None = None
    division: str | None = None
    tier: str | None = None
    submitter: str | None = None
    interval: Interval | None = None
    platform: str | None = None
    names: str | None = None  # the id of the audited result the claim names (``restates``): judged against it alone

    @property
    def stated(self) -> Interval:
        """The numbers this claim states: its interval, or its digits' when it has none."""
        return self.interval or digits_interval(self.value)

    def reading(self, scope: str) -> Decimal | None:
        """This result's number in ``scope``: as stated, or a throughput's aggregate ÷ its count per
        accelerator (unrounded); None where it has none (a latency per accelerator).

        >>> r = Result("a", "s", "m", "offline", frozenset({"c"}), "tokens/s", "aggregate", Decimal("910621.36"), count=72)
        >>> r.reading("per-accelerator")
        Decimal('12647.51888888888888888888889')
        """
        if scope == self.scope:
            return self.value
        if scope == "per-accelerator" and self.scope == "aggregate" and self.metric == "throughput" and self.count:
            return self.value / Decimal(self.count)
        if scope == "aggregate" and self.scope == "per-accelerator" and self.metric == "throughput" and self.count:
            return self.value * Decimal(self.count)
        return None


def published_interval(audited: Result, scope: str) -> Interval | None:
    """The numbers an audited result's value as published states, read in ``scope``: MLCommons rounds a
    throughput to six significant figures, so 1,186,750 is 1,186,745 to 1,186,755, and a per-accelerator
    reading is that ÷ the count.

    >>> r = Result("a", "s", "m", "o", frozenset({"c"}), "tokens/s", "aggregate", Decimal("1186750"), count=72)
    >>> str(published_interval(r, "aggregate")), published_interval(r, "per-accelerator").holds(Decimal("16482.6"))
    ('[1186745, 1186755]', True)
    """
    reading = audited.reading(scope)
    if reading is None:
        return None
    own = published_digits(audited.value)
    if reading == audited.value:
        return own
    return own.scaled(reading / audited.value) if audited.value else Interval(reading, reading)


#: the dimensions an audited result must share with a claim, in the order a verdict names the first it lacks
_SAME: tuple[tuple[str, Callable[[Result, Result], bool]], ...] = (
    ("round and model", lambda c, a: c.suite == a.suite and c.model == a.model),
    ("scenario", lambda c, a: c.scenario == a.scenario),
    ("hardware", lambda c, a: not c.chips or c.chips == a.chips),
    ("unit", lambda c, a: c.unit == a.unit and a.reading(c.scope) is not None),
    ("count", lambda c, a: c.count is None or c.count == a.count),
    ("division", lambda c, a: c.division is None or c.division == a.division),
    ("tier", lambda c, a: c.tier is None or c.tier == a.tier),
    ("submitter", lambda c, a: c.submitter is None or c.submitter == a.submitter),
)


def comparable(claim: Result, audited: Result) -> bool:
    """Whether ``audited`` is of the claim's key: round, model, scenario, unit and scope (a throughput read per
    accelerator or in aggregate), and hardware as a whole, count, division, tier and submitter where the
    claim states them."""
    return all(same(claim, audited) for _, same in _SAME)


def restates(claim: Result, audited: Result) -> bool:
    """Whether ``claim`` states ``audited``'s published value: of its key, and the numbers the claim states
    meet those the published value states (its own rounding: MLCommons publishes six significant figures).

    >>> c = Result("v", "r", "m", "offline", frozenset({"gb300"}), "tokens/s", "aggregate", Decimal(1190000),
    ...            count=72, interval=stated_interval(1190000, "1.19M"))
    >>> a = Result("a", "r", "m", "offline", frozenset({"gb300"}), "tokens/s", "aggregate", Decimal(1186750), count=72)
    >>> restates(c, a), restates(c, Result(**{**a.__dict__, "scenario": "server"}))
    (True, False)
    """
    if claim.names is not None and audited.id != claim.names or not comparable(claim, audited):
        return False
    published = published_interval(audited, claim.scope)
    interval = claim.stated
    return published is not None and interval.meets(published)


@dataclass(frozen=True)
class Verdict:
    """How a claim stands against the audited record: ``kind`` (matches, matches as written, differs, no
    audited result), the audited ``results`` it restates (or, for differs, the nearest of its key), the
    claim's ``ratio`` to it, ``lacking`` (for no audited result: the first dimension none shares) and
    ``elsewhere``: audited results of the claim's submitter and model outside its key (another round,
    scenario, count or system) whose value is the claim's."""

    kind: str
    results: tuple[Result, ...] = ()
    ratio: Decimal | None = None
    lacking: str = ""
    elsewhere: tuple[Result, ...] = field(default=())


def judge(claim: Result, audited: Iterable[Result]) -> Verdict:
    """The verdict on ``claim`` among the ``audited`` results (any; the rule picks those of its key).

    >>> key = dict(suite="r", model="m", scenario="offline", chips=frozenset({"gb300"}), unit="tokens/s",
    ...            scope="aggregate", count=72, submitter="coreweave")
    >>> offline = Result("off", value=Decimal(1197710), **key)
    >>> server = Result("srv", value=Decimal(1160490), **{**key, "scenario": "server"})
    >>> claim = Result("c", value=Decimal(1160490), interval=stated_interval(1160490), **key)
    >>> v = judge(claim, [offline, server]); v.kind, [r.id for r in v.results], v.ratio, [r.id for r in v.elsewhere]
    ('differs', ['off'], Decimal('0.9689'), ['srv'])
    >>> judge(Result(**{**claim.__dict__, "model": "mixtral"}), [offline, server]).lacking
    'round and model'
    >>> named = judge(Result(**{**claim.__dict__, "names": "srv", "scenario": "offline"}), [offline, server])
    >>> named.kind, [r.id for r in named.results], named.lacking
    ('differs', ['srv'], 'scenario')
    """
    audited = list(audited)
    interval = claim.stated
    if claim.names is not None:  # the curator named the result it restates: that result alone is its key
        named = [a for a in audited if a.id == claim.names]
        unlike = next((name for name, same in _SAME for a in named if not same(claim, a)), "")
        if unlike:
            reading = named[0].reading(claim.scope)
            ratio = (claim.value / reading).quantize(Decimal("0.0001")) if reading else None
            return Verdict("differs", tuple(named), ratio, lacking=unlike)
        audited = named or audited
    same = [a for a in audited if comparable(claim, a)]
    linked = [a for a in same if restates(claim, a)]
    if linked:
        exact = all(a.reading(claim.scope) == claim.value for a in linked)
        return Verdict("matches" if exact else "matches as written", tuple(sorted(linked, key=lambda r: r.id)))
    elsewhere = tuple(
        sorted(
            (
                a
                for a in audited
                if claim.submitter is not None
                and a.submitter == claim.submitter
                and a.model == claim.model
                and a.unit == claim.unit
                and (theirs := published_interval(a, claim.scope)) is not None
                and interval.meets(theirs)
            ),
            key=lambda r: r.id,
        )
    )
    if not same:
        lacking = next(
            (
                name
                for n, (name, _) in enumerate(_SAME)
                if not any(all(s(claim, a) for _, s in _SAME[: n + 1]) for a in audited)
            ),
            "round and model",
        )
        return Verdict("no audited result", lacking=lacking, elsewhere=elsewhere)
    nearest = min(same, key=lambda a: (abs(_log_ratio(claim.value, a.reading(claim.scope))), a.id))
    published = nearest.reading(claim.scope)
    ratio = None if not published else (claim.value / published).quantize(Decimal("0.0001"))
    return Verdict("differs", (nearest,), ratio, elsewhere=elsewhere)


def _log_ratio(a: Decimal, b: Decimal | None) -> Decimal:
    """How far apart two positive numbers are, as the logarithm of their ratio (0: equal)."""
    if b is None or not a or not b or a < 0 or b < 0:
        return Decimal("Infinity")
    return (a / b).ln()
