"""Numbers as people write them: "910,621.36", "910 621", "53.4k", "1.05 million", "~50,000", "up to
6,496 tokens per second per GPU". One reader for the quote check, the count in a name and ``draft``.

A written number states an interval, not a point: "53.4k" is 53,400 to the nearest hundred, so it
states anything in [53,350, 53,450]; "~50,000" is 50,000 to the nearest ten thousand (an approximate
number's precision is its last non-zero digit); "910,621" is 910,621 to the nearest one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

#: counts written as words ("a single node", "Sixteen GB200 GPUs"), for ``draft`` and the populations it reads
NUMBER_WORDS = {
    "a": 1, "an": 1, "a single": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "eighteen": 18,
}  # fmt: skip

_SEPARATOR = "[,\u00a0\u202f\u2009 ]"  # comma, no-break space, narrow no-break space, thin space, space
#: a multiplier word or letter after a number (lower-cased) -> its factor
MULTIPLIERS = {
    "k": 10**3,
    "thousand": 10**3,
    "m": 10**6,
    "mn": 10**6,
    "million": 10**6,
    "b": 10**9,
    "bn": 10**9,
    "billion": 10**9,
}
_APPROX = r"(?:~|≈|about|approximately|around|roughly|nearly|almost|some|over|more than|upwards of)"
_NUMBER = re.compile(
    rf"(?P<approx>{_APPROX}\s*)?"
    rf"(?<![\w.,])(?<!(?<!\d)-)(?P<digits>\d{{1,3}}(?:{_SEPARATOR}\d{{3}})+(?:\.\d+)?(?![\d])|\d+(?:\.\d+)?)"
    r"(?:\s?(?P<mult>thousand|million|billion|bn|mn|[kKmMbB])(?![A-Za-z0-9]))?",
    re.I,
)
#: what, written right after a number (its unit between), makes it a figure per accelerator
_PER_ACCELERATOR = re.compile(
    r"^[^\d;,.!?]{0,60}?(?:\bper[- ](?:gpu|accelerator|chip|card|device|xpu|tpu)|/\s?(?:gpu|chip))"
    r"(?![A-Za-z])",
    re.I,
)
#: what after a lower-case m or b makes it a million or a billion ("1.2m tokens/s"), not metres or bytes
_COUNTED = re.compile(r"\s*(?:output\s+|input\s+)?(?:tokens?|tok|tps|queries|qps|samples|requests|inferences)\b", re.I)
_PER_ACCELERATOR_BEFORE = re.compile(r"\bper[- ](?:gpu|accelerator|chip)\s+(?:\w+\s+){0,3}(?:of|:|=|at)?\s*$", re.I)


@dataclass(frozen=True)
class Mention:
    """One number in a text: the value it names, the interval its precision allows, where it is."""

    value: Decimal
    low: Decimal
    high: Decimal
    start: int
    end: int
    approximate: bool = False
    multiplier: str = ""
    per_accelerator: bool = False
    range_low: Decimal | None = None  # the high end of a range ("1.2–1.4M"): its low end

    def states(self, value: Decimal | int | float | str) -> bool:
        """Whether ``value`` is what this mention says, within its precision."""
        return self.low <= Decimal(value) <= self.high


def _plain(number: Decimal) -> Decimal:
    """``number`` without exponent or trailing zeros (53400, not 5.34E+4 or 53400.0)."""
    return Decimal(format(number.normalize(), "f"))


def mentions(text: str) -> list[Mention]:
    """Every number written in ``text``, with its stated precision.

    >>> [(str(m.value), str(m.low), str(m.high)) for m in mentions("53.4k and 1.05 million")]
    [('53400', '53350', '53450'), ('1050000', '1045000', '1055000')]
    >>> m = mentions("up to 6,496 tokens per second per GPU")[0]
    >>> m.value, m.per_accelerator
    (Decimal('6496'), True)
    >>> [str(m.value) for m in mentions("910 621 tokens/s at 16,384 concurrent requests")]
    ['910621', '16384']
    >>> [str(m.value) for m in mentions("1.2m tokens/s on a 5m cable")]  # a lower-case m before tokens only
    ['1200000', '5']
    >>> m = mentions("between 1.2-1.4M tokens/s")[-1]  # (a text's dashes normalised: "1.2–1.4M")
    >>> m.value, m.range_low
    (Decimal('1400000'), Decimal('1200000'))
    >>> [m.range_low for m in mentions("between 5,000 and 6,000 tokens/s; 8 and 9 GPUs")]
    [None, Decimal('5000'), None, None]
    """
    out: list[Mention] = []
    for m in _NUMBER.finditer(text):
        if text[m.start("digits") - 1 : m.start("digits")] == "-" and not (
            out and out[-1].end == m.start("digits") - 1
        ):
            continue  # "-70B" of "Llama-2-70B" is no number; "1.2-1.4M" is a range (a text's dashes normalised)
        digits = re.sub(_SEPARATOR, "", m.group("digits"))
        try:
            value = Decimal(digits)
        except InvalidOperation:
            continue
        places = len(digits.split(".")[1]) if "." in digits else 0
        step = Decimal(1).scaleb(-places)
        approximate = bool(m.group("approx"))
        if approximate and places == 0:  # "~50,000": to its last non-zero digit
            stripped = digits.rstrip("0")
            step = Decimal(10) ** (len(digits) - len(stripped)) if stripped else Decimal(1)
        mult = (m.group("mult") or "").lower()
        if mult in ("m", "b") and m.group("mult") in ("M", "B") or mult in MULTIPLIERS and mult not in ("m", "b"):
            factor = MULTIPLIERS[mult]
        elif mult in ("m", "b") and _COUNTED.match(text, m.end()):  # "1.2m tokens/s"
            factor = MULTIPLIERS[mult]
        elif mult in ("m", "b"):  # lower-case m and b: metres, bytes? only as M and B, or before a count
            factor, mult = 1, ""
        else:
            factor = 1
        value, step = value * factor, step * factor
        half = step / 2
        after = text[
            m.end() : m.end() + 120
        ]  # the pattern reads 60 characters and a word: a slice to the end was quadratic
        per = bool(_PER_ACCELERATOR.search(after)) or bool(
            _PER_ACCELERATOR_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
        )
        low = None
        joined = text[out[-1].end : m.start()] if out else ""
        if re.fullmatch(r"\s*(?:[–—-]|\s-\s|to)\s*", joined, re.I) or (
            re.fullmatch(r"\s+and\s+", joined) and re.search(r"\bbetween\s+$", text[: out[-1].start], re.I)
        ):
            first = out[-1]  # "1.2–1.4M": the low end is in the high end's multiplier when it has none
            low = first.value * (factor if not first.multiplier else 1)
        out.append(
            Mention(
                _plain(value),
                _plain(value - half),
                _plain(value + half),
                m.start(),
                m.end(),
                approximate,
                mult,
                per,
                _plain(low) if low is not None else None,
            )
        )
    return out


def stating(text: str, value: Decimal | int | float | str) -> Mention | None:
    """The first mention in ``text`` that states ``value`` (within its precision), if any.

    >>> stating("910621.36 output tokens/s (aggregate across all 72 GPUs)", Decimal("910621.36")).per_accelerator
    False
    >>> stating("about 53.4k tokens/s", 53462.7) is None  # 53.4k is 53,350 to 53,450
    True
    >>> stating("~50,000 tokens/s", 53462.7) is not None
    True
    """
    return next((m for m in mentions(text) if m.states(value)), None)


#: a count in a name: "4x GB300", "8xH100", "(x87)", "H100_SXM_80GBx4", "8 GPUs"
_COUNT = re.compile(
    r"(?<![\w.])(\d{1,5})\s?[x×]\s?(?=[A-Za-z])(?!large|l\b)|\(x(\d{1,5})\)|[A-Za-z0-9][x×](\d{1,5})(?![\w.])"
    r"|(?<![\w.])(\d{1,5})\s(?:GPUs|accelerators|chips)\b"
)
#: what a count in a name may count besides accelerators (host processors): not a stated accelerator count
_HOST = re.compile(r"^\s?[x×]?\s?(?:EPYC|Xeon|Grace|CPU|sockets?|Intel|AMD\s+EPYC)", re.I)


def stated_counts(name: str) -> list[int]:
    """The accelerator counts a system's name states.

    >>> stated_counts("Nebius GB300 NVL72 (4x GB300-288GB_aarch64, TensorRT)")
    [4]
    >>> stated_counts("GX2560M7_H100_SXM_80GBx4 (4x H100-SXM-80GB, TensorRT)")
    [4, 4]
    >>> stated_counts("1xMI300X_2xEPYC-9374F"), stated_counts("AMD MI355X (x87)"), stated_counts("aws-g4dn-4xlarge")
    ([1], [87], [])
    >>> stated_counts("Cisco UCS H200x8 MI350Xx8 G200 2x2 ToR")  # "2x2" is a topology, not a count
    [8, 8]
    """
    out = []
    for m in _COUNT.finditer(name):
        number = next(g for g in m.groups() if g is not None)
        if m.group(3) and re.search(r"(?:^|[^A-Za-z0-9])\d+$", name[: m.start(3) - 1]):
            continue  # "2x2", "4x4": digits on both sides of the x are a layout, not a part's count
        if _HOST.match(name[m.end() :]) or (m.group(1) and _HOST.match(name[m.end(1) :])):
            continue
        out.append(int(number))
    return out


_UNITS_IN_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES_IN_WORDS = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}
_WORD = re.compile(r"[a-z]+", re.I)


def words_number(text: str) -> tuple[Decimal, Decimal] | None:
    """A whole number written in words in ``text`` ("one hundred and twelve thousand tokens per second"):
    its value and the place it is written to (its last non-zero word's), or None when ``text`` writes
    none, or writes digits (:func:`mentions` reads those).

    >>> words_number("one hundred and twelve thousand tokens per second")
    (Decimal('112000'), Decimal('1000'))
    >>> words_number("over two million"), words_number("twenty-five"), words_number("74K"), words_number("the best")
    ((Decimal('2000000'), Decimal('1000000')), (Decimal('25'), Decimal('1')), None, None)
    """
    if re.search(r"\d", text):
        return None
    total = current = 0
    started = False
    for word in (w.lower() for w in _WORD.findall(text.replace("-", " "))):
        if word in _UNITS_IN_WORDS:
            current += _UNITS_IN_WORDS[word]
            started = True
        elif word in _SCALES_IN_WORDS and started:
            if _SCALES_IN_WORDS[word] == 100:
                current *= 100
            else:
                total, current = total + current * _SCALES_IN_WORDS[word], 0
        elif not (word == "and" and started) and started:
            break
    if not started:
        return None
    value, place = total + current, 1
    while value and value % (place * 10) == 0:
        place *= 10
    return Decimal(value), Decimal(place)
