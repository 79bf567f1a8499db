"""The numbers of a text with a unit (throughput, latency, count), each in its sentence with its own
words, and the readers of words around them (clauses, counts in words)."""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from decimal import Decimal

from benchkg.draft.page import _short, sentences
from benchkg.kernel.numbers import NUMBER_WORDS, Mention, mentions

#: a unit right after a number (words between allowed), and what it makes the number
UNITS = [
    (
        re.compile(
            r"^\s*(?:output\s+|input\s+|total\s+|generated\s+)?(?:tokens?|tok)\s*(?:/|per)\s*(?:s|sec|second)\b"
            r"|^\s*(?:output\s+|total\s+)?tokens?/s\b|^\s*tps\b",
            re.I,
        ),
        ("throughput", "tokens/s"),
    ),
    (
        re.compile(r"^\s*(?:queries|requests)\s*(?:/|per)\s*(?:s|sec|second)\b|^\s*qps\b", re.I),
        ("throughput", "queries/s"),
    ),
    (
        re.compile(r"^\s*(?:samples?|images?|inferences?|frames?)\s*(?:/|per)\s*(?:s|sec|second)\b", re.I),
        ("throughput", "samples/s"),
    ),
    (re.compile(r"^\s*(?:ms|milliseconds?)\b", re.I), ("latency", "ms")),
    (re.compile(r"^\s*(?:s|secs?|seconds?)\b(?!\s*(?:of|per)\b)", re.I), ("latency", "s")),
    (
        re.compile(
            r"^\s*(?:(?!(?:nodes?|servers?|and|or)\b)[A-Za-z][\w.-]*\s+){0,3}(?:\d+\s+)?(?:gpus|accelerators|chips|units|cards)\b|"
            r"^-gpu\b|"
            r"^\s*in\s+(?:all|total)\b",
            re.I,
        ),
        ("count", "accelerators"),
    ),
    (re.compile(r"^\s*(?:compute\s+)?(?:nodes|trays|servers)\b|^-node\b", re.I), ("count", "nodes")),
    (re.compile(r"^\s*(?:concurrent\s+(?:requests|users|streams)|concurrency)\b", re.I), ("count", "concurrency")),
]


#: the kinds of figure that are a claim's number (a count is what it ran on)
_CLAIMED = ("throughput", "latency")
#: what makes a number something else: a price, a percentage, a year, a size of a model or of memory
NOT_A_FIGURE = re.compile(
    r"^\s*(?:%|percent|per\s*cent|x\b|×|times\b|[kmgt]b\b|gb/s|tb/s|gbps|tbps|b\b|bn\b|"
    r"billion[- ]parameter|parameters?\b|w\b|watts?\b|kw\b|nanoseconds?|ns\b|\$|usd|dollars?)",
    re.I,
)


_SCENARIOS = [
    ("interactive", r"\binteractive\b"),
    ("single-stream", r"\bsingle-?stream\b"),
    ("multi-stream", r"\bmulti-?stream\b"),
    (
        "server",
        # "Server", "server scenario", "in server", "offline and server": a lower-case "a single server" is a machine
        r"(?-i:\bServer\b)(?!\s+(?:throughput|harness|edition|Edition))|\bserver\s+(?:scenarios?|mode|results?|queries|throughput\s*:)|"
        r"\bin\s+(?:the\s+)?server\b(?!\s+(?:room|rack|market|space|hardware|class|cpus?|gpus?))|"
        r"\bserver(?=\s*(?:,|and|or|/)\s*(?:the\s+)?(?:offline|interactive)\b)|"
        r"\b(?:offline|interactive)\s*(?:,|and|or|/)\s*(?:the\s+)?server\b|"
        r"\bserving\b(?!\s+(?:software|stacks?|engines?|frameworks?|systems?|"
        r"platforms?|runtimes?|layers?|infrastructure|capabilit))",
    ),
    ("offline", r"\boffline\b"),
    ("endpoints", r"\bendpoints\b"),
]


#: "each GPU … delivered 16,500": the number is what one accelerator did
_EACH_ACCELERATOR = re.compile(
    r"\b(?:each|every)\s+(?:[\w-]+\s+){0,3}(?:gpu|accelerator|chip)\b[^.;]{0,80}?\b(?:delivered|achieved|reached|"
    r"served|processed|generated|produced|ran at|hit|posted|scored|sustained|averaged)\s+(?:[\w-]+\s+){0,3}"
    r"(?:[\d][\d,.]*\s[^.;]{0,80}?(?:,\s*(?:and\s+)?|\s+and\s+))?$",  # "… 5,842 tokens/s offline and 2,907 …"
    re.I,
)


#: what says a number was not reached: "did not reach 3M", "fell short of", "short of"
_NOT_REACHED = re.compile(
    r"\b(?:did\s+not|didn't|does\s+not|doesn't|failed\s+to|could\s+not|couldn't)\s+(?:reach|hit|exceed|break|"
    r"top|pass|achieve|surpass)\s+(?:the\s+)?$|\b(?:fell|falls|fall)\s+(?:just\s+)?short\s+of\s+$|\bshy\s+of\s+$",
    re.I,
)


#: what says a number is a mark passed, not a result: "over 1 million", "more than", "passed", "topped"
_BOUND = re.compile(
    r"\b(?:over|more\s+than|above|beyond|in\s+excess\s+of|exceed(?:ed|ing|s)?|surpass(?:ed|ing|es)?|pass(?:ed|ing|es)?|"
    r"tops|top(?:ped|ping)|cross(?:ed|ing|es)|breaks?|breaking|broke|at\s+least|at\s+most|no\s+(?:more|less|fewer)\s+than|"
    r"(?:threshold|barrier|mark|milestone|minimum|maximum|target)\s+of)\s+(?:the\s+|just\s+)?$",
    re.I,
)


#: the word before a number that makes the number part of a product's name ("Cloud AI 100 accelerators")
_IN_A_NAME = re.compile(r"(?<![\w-])(?:[A-Z]{2,}|[A-Z][a-z]+[A-Z]\w*)\s+$")


#: a number in a condition or an example: "If an R7515 outputs 23,290 samples per second, …"
_SUPPOSED = re.compile(r"(?:^|[.;:]\s+)(?:if|suppose|assuming|imagine|say)\b[^.;:]*$", re.I)


#: a sentence that states the benchmark's latency bounds, not a result ("sets 6 seconds for time to first
#: token", "a 450 ms time to first token and a 40 ms time per output token")
_REQUIRED = re.compile(
    r"\b(?:sets?|requires?|demands?|constraints?|thresholds?|targets?|bounds?|limits?|requirements?)\b[^.]{0,120}"
    r"\b(?:time[\s-]to[\s-]first[\s-]token|time[\s-]per[\s-]output[\s-]token|ttft|tpot)\b|"
    r"\b\d+(?:\.\d+)?[\s-]*(?:ms|s|seconds?|milliseconds?)\s+(?:time[\s-]to[\s-]first[\s-]token|"
    r"time[\s-]per[\s-]output[\s-]token|ttft|tpot)\b|"
    r"/\s?user\s+(?:target|threshold|requirement|limit|minimum|floor|constraint)s?\b",  # "a 12.5 tokens/s/user target"
    re.I,
)


#: a latency's unit right after a number (the requirement and token-latency readers ask it)
_LATENCY_UNIT = re.compile(r"\s*(?:ms|milliseconds?|s|secs?|seconds?)\b", re.I)
#: the latency of a token, not of a query: TTFT, TPOT, "per output token", "next-token", p99 gates
_TOKEN_LATENCY = re.compile(
    r"\b(?:ttft|tpot|itl|first[\s-]token|output[\s-]token|next[\s-]token|per[\s-]token|inter[\s-]token|p9\d(?:\.\d)?)\b",
    re.I,
)
#: a row of a table that gives a statistic of the parts ("Highest single-node throughput"), not a result
_PART_STATISTIC = re.compile(
    r"\b(?:highest|lowest|maximum|minimum|max|min|mean|average|median)\s+(?:single|per)[- ](?:node|gpu|vm)\b", re.I
)


@functools.lru_cache(maxsize=256)
def _per_user(sentence: str) -> bool:
    return bool(re.search(r"per[\s-]+user|/\s?user\b", sentence, re.I))


#: "Per-GPU server throughput … went from about 2,907 … to roughly 8,064": per GPU, said before the figures
_PER_GPU = re.compile(r"\bper[\s-](?:gpu|accelerator|chip)\b", re.I)
#: "from A … to B": A and B are each their own claim, of one scope
_FROM_TO = re.compile(r"\bfrom\b(?:[^.;]|\.\d)*\bto\s+(?:about\s+|roughly\s+|around\s+|nearly\s+|some\s+)?$", re.I)
_FROM = re.compile(r"\bfrom\s+(?:about\s+|roughly\s+|around\s+|nearly\s+|some\s+)?$", re.I)


def _per_gpu_before(sentence: str, at: int) -> bool:
    """Whether the words of the clause before a figure say per GPU, with no other figure between but the
    first of a "from … to" ("Per-GPU throughput went from about 2,907 … to roughly 8,064").

    >>> s = "Per-GPU throughput went from about 2,907 tok/sec in v5.1 to roughly 8,064 tok/sec in v6.0."
    >>> _per_gpu_before(s, s.index("2,907")), _per_gpu_before(s, s.index("8,064"))
    (True, True)
    >>> s = "At 16,500 tokens/s per GPU, the rack reached 1,186,750 tokens/s."
    >>> _per_gpu_before(s, s.index("1,186,750"))
    False
    """
    start = max(0, at - 160)
    said = [
        m
        for m in _PER_GPU.finditer(sentence, start, at)  # not "16,500 tokens/s per GPU": that figure's own
        if not re.search(
            r"\d[\d,.]*\s*[kKmM]?\s*[^\d]{0,30}?(?:/\s?s|/\s?sec|seconds?|tps)\s*$",
            sentence[max(0, m.start() - 40) : m.start()],
        )
    ]
    if not said:
        return False
    between = sentence[said[-1].end() : at]
    if re.search(r"[.;]\s", between):
        return False
    figures_between = re.search(r"\d[\d,.]*\s*(?:tokens?|tok|samples?|queries)\b", between, re.I)
    return not figures_between or bool(_FROM_TO.search(between))


@dataclass
class Figure:
    """A number the text states with a unit, in its sentence."""

    mention: Mention
    kind: str  # throughput, latency, count
    unit: str  # tokens/s, queries/s, samples/s, ms; accelerators, nodes, concurrency
    sentence: str
    own: tuple[int, int] = (0, 0)  # its own words: from the break after the figure before it to the next
    series: tuple[int, int, int] = (0, 1, 0)  # in a list of figures sharing a unit: its place, their number, the end

    @property
    def respectively(self) -> bool:
        """Whether it is one of a list read "respectively" ("A, B and C tokens/s in the Offline, Server and
        Interactive scenarios, respectively"): each its own claim, the i-th name after the list its own."""
        return self.series[1] > 1 and bool(re.search(r"\brespectively\b", self.sentence[self.series[2] :], re.I))

    @property
    def own_text(self) -> str:
        """The words that are this figure's alone ("5,103 tokens/sec (Server) on a single H100 GPU" of
        "5,777 tokens/sec (Offline) and 5,103 tokens/sec (Server) on a single H100 GPU")."""
        return self.sentence[self.own[0] : self.own[1]] if self.own[1] else _clause_text(self)

    @property
    def scope(self) -> str:
        if self.kind == "latency":  # a latency is per query: never divided by a count
            return "per-query"
        if self.kind != "throughput":
            return ""
        if (
            self.mention.per_accelerator
            or _EACH_ACCELERATOR.search(self.sentence[max(0, self.mention.start - 300) : self.mention.start])
            or _per_gpu_before(self.sentence, self.mention.start)
        ):
            return "per-accelerator"
        return "per-user" if _per_user(self.sentence) else "aggregate"

    def describe(self) -> str:
        value = f"{self.mention.value:,}"
        what = {"accelerators": "accelerators", "nodes": "nodes", "concurrency": "concurrent requests"}.get(
            self.unit, self.unit
        )
        scope = f" {self.scope}" if self.scope and self.scope != "aggregate" else ""
        return f"{value} {what}{scope}"


def figures(text: str, left: list[str] | None = None) -> list[Figure]:
    """Every number in ``text`` with a throughput, latency or count unit after it, in order; a throughput
    that is no claim's number (:func:`_not_a_result`) is said in ``left``, as draft says it on stderr."""
    out = []
    for offset, sentence in sentences(text):
        found = mentions(sentence)
        for n, m in enumerate(found):
            # what follows a number is read near it (a slice to the sentence's end was quadratic)
            after = sentence[m.end : m.end + 200]
            before = sentence[max(0, m.start - 12) : m.start]
            why = _not_a_result(sentence, m)
            if why and left is not None and any(p.search(after[:80]) for p, what in UNITS if what[0] in _CLAIMED):
                left.append(f"{_as_written(m)}: {why} (no claim drafted): {_short(sentence, 100)!r}")
            if (
                why
                or NOT_A_FIGURE.match(after)
                or re.search(r"[$€£]\s*$|\bUSD\s*$|\bv$|\bversion\s*$", before, re.I)
                or m.multiplier in ("b", "bn", "billion")
                or _NOT_REACHED.search(sentence[max(0, m.start - 40) : m.start])  # a mark not reached
            ):
                continue
            unit = next((what for pattern, what in UNITS if pattern.search(after[:80])), None)
            if unit is None:  # "103,480, 100,282 and 73,608 tokens per second": the list's unit is each one's
                unit = _list_unit(sentence, found, n)
            if unit is None or unit[0] == "count" and _IN_A_NAME.search(sentence[: m.start]):
                continue
            out.append(Figure(m, unit[0], unit[1], sentence))
    _own_words(out)
    _series(out)
    return out


def _series(found: list[Figure]) -> None:
    """Mark the figures written as one list ("103,480, 100,282 and 73,608 tokens per second"): each its
    place in the list, the list's length and where its last number ends."""
    run: list[Figure] = []
    for f in [*found, None]:
        if (
            f is not None
            and run
            and f.sentence is run[-1].sentence
            and f.unit == run[-1].unit
            and _LIST_BREAK.fullmatch(f.sentence[run[-1].mention.end : f.mention.start])
        ):
            run.append(f)
            continue
        for i, g in enumerate(run):
            g.series = (i, len(run), run[-1].mention.end)
        run = [f] if f is not None else []


#: what stands between the numbers of a list that share the unit after its last: ", ", " and ", ", and "
_LIST_BREAK = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*/\s*)")


def _list_unit(sentence: str, found: list[Mention], n: int) -> tuple[str, str] | None:
    """The unit of a number written in a list whose last number has one ("103,480, 100,282 and 73,608
    tokens per second"), else None.

    >>> s = "It delivered 103,480, 100,282 and 73,608 tokens per second."
    >>> _list_unit(s, mentions(s), 0)
    ('throughput', 'tokens/s')
    >>> s = "In 2025, 72 GPUs ran 1,000 tokens/s."
    >>> _list_unit(s, mentions(s), 0) is None
    True
    """
    for a, b in zip(found[n:], found[n + 1 :]):
        if not _LIST_BREAK.fullmatch(sentence[a.end : b.start]):
            return None
        unit = next((what for pattern, what in UNITS if pattern.search(sentence[b.end : b.end + 80])), None)
        if unit is not None:
            return unit if unit[0] != "count" else None
    return None


def _not_a_result(sentence: str, m: Mention) -> str:
    """Why a number is no claim's number, or "": a range over several results ("100,000 to 110,000"), a
    mark passed ("over 1 million"), a statistic of a run's parts ("Highest single-node throughput:
    62,803.9"), a condition ("If an R7515 outputs 23,290 …"), the benchmark's latency bounds."""
    return (
        "a range, not one result" if m.range_low is not None and not _counted(sentence, m)
        else "a mark passed, not a result" if _BOUND.search(_before_digits(sentence, m))
        else "a statistic of the run's parts" if _PART_STATISTIC.search(sentence[max(0, m.start - 300) : m.start])
        else "a condition or an example, not a result" if _SUPPOSED.search(sentence[max(0, m.start - 300) : m.start])
        else "a latency bound of the benchmark, not a result" if _bound_said(sentence, m)
        else "a requirement, not a result"
        if re.search(r"\b(?:must|should|has\s+to|have\s+to|needs?\s+to|required\s+to|within|under|below)\b[^.;]{0,40}$",
                     sentence[max(0, m.start - 60) : m.start], re.I)
        and _LATENCY_UNIT.match(sentence, m.end, m.end + 14)
        else "a token latency (time to first token, per output token) of a load, not a result"
        if _TOKEN_LATENCY.search(sentence[max(0, m.start - 60) : m.end + 60])
        and _LATENCY_UNIT.match(sentence, m.end, m.end + 14)
        else ""
    )  # fmt: skip


#: what a result says after a bound in its sentence: "…, which has to meet a 2 s TTFT, it sustained 276 tokens/s"
_RESULT_VERB = re.compile(
    r"\b(?:sustained|delivered|reached|achieved|generated|produced|processed|ran\s+at|hit|posted|scored|served)\b", re.I
)


def _bound_said(sentence: str, m: Mention) -> bool:
    """Whether the number is part of the benchmark's latency bounds the sentence states: a bound is said at
    it or after it, or before it with no result verb between."""
    bounds = _bounds(sentence)
    if not bounds:
        return False
    at = bisect.bisect_right([a for a, _ in bounds], m.start)
    if at < len(bounds):  # a bound at or after the number
        return True
    start, end = bounds[-1]
    if end > m.start:
        return True
    verbs = _verbs(sentence)
    return not any(end <= v < m.start for v in verbs[bisect.bisect_left(verbs, end) :][:1])


@functools.lru_cache(maxsize=256)
def _bounds(sentence: str) -> tuple[tuple[int, int], ...]:
    """Where a sentence states latency bounds, found once per sentence (a page of figures is one sentence)."""
    return tuple((f.start(), f.end()) for f in _REQUIRED.finditer(sentence))


@functools.lru_cache(maxsize=256)
def _verbs(sentence: str) -> tuple[int, ...]:
    """Where a sentence's result verbs start, found once per sentence."""
    return tuple(f.start() for f in _RESULT_VERB.finditer(sentence))


def _as_written(m: Mention) -> str:
    """A number as a note writes it: "1,200,000 to 1,400,000" for a range."""
    return f"{m.range_low:,} to {m.value:,}" if m.range_low is not None else f"{m.value:,}"


#: where one figure's words end and the next one's begin: a comma, "and", a semicolon, "while"
_BETWEEN = re.compile(r",\s+(?:and\s+)?|\s+and\s+|;\s+|\s+while\s+|\s+whereas\s+", re.I)


def _before_digits(sentence: str, m: Mention) -> str:
    """The words before a number's digits, its own leading words included ("reached over" of "reached
    over 1 million")."""
    lead = re.match(r"[^\d]*", sentence[m.start : m.end])
    return sentence[max(0, m.start - 40) : m.start] + (lead.group() if lead else "")


def _counted(sentence: str, m: Mention) -> bool:
    """Whether a range is a count ("11-12 nodes" is read, and left open, by the count readers)."""
    return bool(
        re.match(r"\s*(?:[\w.-]+\s+){0,3}(?:gpus|accelerators|chips|nodes)\b", sentence[m.end : m.end + 60], re.I)
    )


def _own_words(found: list[Figure]) -> None:
    """Each throughput figure's own words: its clause cut at the last break before the next throughput
    figure of the clause, and after the last break before it (the words before the clause's first
    figure, "On Llama 2 70B, eleven nodes … reached", are its own and its clause's)."""
    by_clause: dict[tuple[str, int], list[Figure]] = {}
    for f in found:
        if f.kind in _CLAIMED:
            by_clause.setdefault(_clause(f), []).append(f)
    for clause, fs in by_clause.items():
        _, start, end = _clause_span(fs[0])
        cuts = [start]
        for a, b in zip(fs, fs[1:]):
            gap = [m.end() for m in _BETWEEN.finditer(a.sentence, a.mention.end, b.mention.start)]
            cuts.append(gap[-1] if gap else b.mention.start)
        cuts.append(end)
        for n, f in enumerate(fs):
            f.own = (cuts[n], cuts[n + 1])


def _number(value: Decimal):
    return int(value) if value == value.to_integral_value() else float(value)


_CLAUSE_BREAK = re.compile(r",\s+(?:and|while|whereas|but)\s+|;\s+|\s+(?:while|whereas)\s+", re.I)


def _clause(f: Figure) -> tuple[str, int]:
    """The clause of a figure's sentence that holds it: (sentence, the clause's start)."""
    starts, ends = _breaks(f.sentence)
    i = bisect.bisect_right(starts, f.mention.start)  # the breaks that start before the figure, or at it
    return f.sentence, ends[i - 1] if i else 0


def _clause_span(f: Figure) -> tuple[str, int, int]:
    """(sentence, start, end) of the clause of a figure's sentence that holds it."""
    sentence, start = _clause(f)
    starts, _ends = _breaks(sentence)
    after = bisect.bisect_right(starts, f.mention.start)  # the first break past the figure ends its clause
    return sentence, start, starts[after] if after < len(starts) else len(sentence)


def _clause_text(f: Figure) -> str:
    sentence, start, end = _clause_span(f)
    return sentence[start:end]


@functools.lru_cache(maxsize=256)
def _breaks(sentence: str) -> tuple[list[int], list[int]]:
    """Where the clause breaks of a sentence start and end, found once per sentence (a page of figures
    on one line is one sentence, read for each of them)."""
    found = list(_CLAUSE_BREAK.finditer(sentence))
    return [m.start() for m in found], [m.end() for m in found]


@functools.lru_cache(maxsize=1024)
def _states_context(sentence: str, start: int, end: int) -> bool:
    """:func:`_own_context` of the clause ``sentence[start:end]``, read once however many figures it holds."""
    clause = sentence[start:end]
    return bool(
        re.search(r"\d[\d,]*\s+(?:[\w-]+\s+){0,3}(?:gpus|accelerators|chips|nodes)\b", clause, re.I)
        or any(re.search(pattern, clause, re.I) for _, pattern in _SCENARIOS)
        or _INSTANCES.search(clause)
    )


#: number words a release writes counts in
_NUMBER = (
    r"(?P<n>a\s+single|an?|one|single|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|eighteen|\d+)"
)


#: "a single instance", "eight instances", "two nodes": a count of nodes (servers) in words
#: (the word between is a word, not "70B": "Llama 2 70B Server" is a model and a scenario)
_INSTANCES = re.compile(
    rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[A-Za-z][\w.-]*\s+){{0,3}}(?:instances?|nodes?|servers?|compute trays?|virtual machines|VMs)\b",
    re.I,
)


#: "four nodes, each with 8 GPUs": the accelerators are the product
_EACH_WITH = re.compile(
    rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[A-Za-z-]+\s+)?(?:instances|nodes|servers|systems),?\s+each\s+(?:with|of|holding|housing|"
    rf"carrying|containing|having|running)\s+{_NUMBER.replace('?P<n>', '?P<m>')}\s+(?:[\w-]+\s+){{0,2}}"
    r"(?:gpus|accelerators|chips)\b",
    re.I,
)


#: "a single GB300 NVL72 rack", "one rack": a whole rack or system of the chip named
_RACK = re.compile(rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[\w.-]+\s+){{0,3}}(?:rack|system|domain)\b", re.I)


def _word_number(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else NUMBER_WORDS[text]


#: a chip a number is compared with, not run on: "3.1x the MI325X result", "than the H100", "over B200"
_COMPARED = re.compile(
    r"(?:\b(?:than|versus|vs\.?|compared\s+(?:with|to)|relative\s+to)|(?<![\w.])\d+(?:\.\d+)?\s?(?:[x×]|\s+times\b)\s+(?:that\s+of|the|more|higher|faster|better|over|than)\b)"
    r"\s+(?:(?:the|an?|its|previous|prior|earlier)\s+)*(?:[\w.-]+\s+){0,8}?[\w.-]*\d[\w.-]*",
    re.I,
)


def _uncompared(where: str) -> str:
    """``where`` without the chips it compares with (blanked, so offsets hold).

    >>> _uncompared("on 8 MI355X GPUs, 3.1x the MI325X result").rstrip()
    'on 8 MI355X GPUs,                 result'
    """
    return _COMPARED.sub(lambda m: " " * len(m.group()), where)
