"""A ratio a text states about a claim's number, drafted in ``relative``: "3.1x the throughput AMD submitted
on the MI325X in MLPerf Inference v5.1", "21% more than the 956,523 tokens/s our 64-GPU configuration
posted in v6.0", "1.18 times their v5.1 result on the same hardware".

The ratio is read from the number's own sentence after it, or from the next sentence when that speaks of
it ("The Server result is 3.1x …"). Its baseline (``over``) is the same system in another round where the
words say "the same hardware/system" and name a round; else the one audited result of the claim's model
and scenario that the comparison's words describe (its round, chips, count, or the value it gives),
found in the reference set. Where no single baseline is found, no ``relative`` is drafted and stderr says
what to fill in (docs/records.md, "The number as written").
"""

from __future__ import annotations

import re
from decimal import Decimal

from benchkg.draft.context import _round_before
from benchkg.draft.figures import Figure
from benchkg.draft.linking import Reference, _fields
from benchkg.draft.page import _short
from benchkg.kernel.matching import published_digits, stated_interval
from benchkg.kernel.numbers import mentions
from benchkg.records.names import Names

#: a ratio: "3.1x", "up to 1.8 times", "≈2.77x", "21% more", "10 % lower"
_RATIO = re.compile(
    r"(?P<said>(?:(?:up\s+to|about|roughly|nearly|almost|around|some)\s+|[≈~]\s?)?"
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s?(?:(?P<times>[x×](?!\w)|times\b)|%\s*(?P<way>more|higher|faster|better|greater|"
    r"less|lower|slower|fewer)\b))",
    re.I,
)
#: words that make the baseline the same system in another round
_SAME_SYSTEM = re.compile(
    r"\bthe\s+same\s+(?:hardware|system|systems|chips|gpus|rack|node|configuration|machine)\b", re.I
)
_ROUND = re.compile(r"MLPerf(?:®|™)?\s*(?:Inference\s*)?v?(?P<v>\d+\.\d+)|(?<![\w.])v(?P<w>\d+\.\d+)\b", re.I)
_PREVIOUS = re.compile(r"\b(?:previous|last|prior|preceding)\s+(?:MLPerf\s+)?round\b", re.I)
#: what starts a sentence that speaks of the number before ("The Server result is 3.1x …", "That is 21% more …")
_OF_IT = re.compile(r"^(?:the\s+(?:\w+\s+){0,2}(?:result|figure|number|score)|this|that|it)\b", re.I)


def ratio_of(
    lead: Figure, text: str, scenario: str | None = None, names: Names | None = None
) -> tuple[re.Match[str], str] | None:
    """The ratio said of ``lead`` and the words of its comparison (from the ratio to the sentence's end).

    >>> from benchkg.draft.figures import figures
    >>> f = figures("It reached 6,294 tokens/s, 1.18 times their v5.1 result on the same hardware.")[0]
    >>> m, words = ratio_of(f, ""); m.group("said"), words
    ('1.18 times', '1.18 times their v5.1 result on the same hardware.')
    """
    sentence = lead.sentence
    after = sentence[lead.mention.end :]
    m = _RATIO.search(after)
    if m and not _RATIO_IS_ANOTHERS.search(after[: m.start()]):
        return m, after[m.start() :]
    at = text.find(sentence)
    rest = text[at + len(sentence) :] if at >= 0 else ""
    for other in [_next_sentence(text, sentence), *_results_said(rest, scenario)]:
        m = _RATIO.search(other) if other and _OF_IT.match(other) else None
        if m and _its_scenario(other[: m.start()], scenario) and _its_chip(other[: m.start()], lead, names):
            return m, other[m.start() :]
    return None


def _results_said(text: str, scenario: str | None) -> list[str]:
    """The sentences of ``text`` (what follows a claim's) that speak of "the <scenario> result" ("The Server
    result on the GB300 NVL72 is 21% more …")."""
    if not scenario:
        return []
    found = re.finditer(
        rf"(?:^|(?<=[.!?]\s))The\s+{re.escape(scenario)}\s+result\b[^.!?]*(?:\.\d[^.!?]*)*[.!?]?", text, re.I | re.M
    )
    return [m.group() for m in found]


def _its_scenario(words: str, scenario: str | None) -> bool:
    """Whether the subject words of a sentence about a result ("The Server result is") name the claim's
    scenario, or none."""
    named = {s for s in ("offline", "server", "interactive") if re.search(rf"\b{s}\b", words, re.I)}
    return not named or scenario in named


def _its_chip(words: str, lead: Figure, names: Names | None) -> bool:
    """Whether the subject words of a sentence about a result name a chip the claim's sentence names, or none."""
    if names is None:
        return True
    said = {c for c, _, _ in names.find("accelerators", words)}
    return not said or bool(said & {c for c, _, _ in names.find("accelerators", lead.sentence)})


#: a figure between the number and a ratio that the ratio is about instead
_RATIO_IS_ANOTHERS = re.compile(r"\d[\d,.]*\s*(?:tokens?|tok|samples?|queries)\b", re.I)


def _next_sentence(text: str, sentence: str) -> str:
    at = text.find(sentence)
    if at < 0:
        return ""
    rest = text[at + len(sentence) :].lstrip(" ")
    if rest.startswith("\n"):
        return ""
    return re.split(r"(?<=[.!?])\s", rest, maxsplit=1)[0]


def draft_relative(record: dict, lead: Figure, text: str, ref: Reference, names: Names, undecided: list[str]) -> None:
    """Draft ``relative`` for a claim whose number a ratio is said of, with its one baseline; else say on
    stderr what the text compares it with."""
    found = ratio_of(lead, text, record.get("scenario"), names)
    if not found or "value" not in record:
        return
    m, words = found
    number = Decimal(m.group("n"))
    relative: dict = {"times": _plain(number)} if m.group("times") else {}
    if not m.group("times"):
        lower = m.group("way").lower() in ("less", "lower", "slower", "fewer")
        relative["percent"] = _plain(-number if lower else number)
    relative["as_written"] = m.group("said").strip()
    over = _baseline(record, lead, words, ref, names)
    if over is None:
        undecided.append(
            f"relative: the text says {relative['as_written']!r} of {record['value']:,} {record['unit']}, over "
            f"{_short(words, 90)!r}: no single audited result is that baseline (give relative.over by hand)"
        )
        return
    relative["over"] = over
    record["relative"] = relative
    undecided.append(f"relative: {relative['as_written']} over {over}, from {_short(words, 90)!r}: check the baseline")


def _baseline(record: dict, lead: Figure, words: str, ref: Reference, names: Names) -> dict | None:
    """The baseline of a comparison: the same system in a named round, or the one audited result its words
    describe."""
    rounds = [f"mlperf-inference-v{r.group('v') or r.group('w')}" for r in _ROUND.finditer(words)]
    before = _round_before(record["suite_id"], names) if _PREVIOUS.search(words) and record.get("suite_id") else None
    rounds += [before] if before else []
    earlier = _from_round(lead, record, names)  # "went from 2,907 in the previous round to 8,064 in v6.0 (2.77x)"
    if earlier and earlier != record.get("suite_id"):
        return {"same_system_in": earlier}
    if _SAME_SYSTEM.search(words) and rounds:
        return {"same_system_in": rounds[0]}
    if not record.get("model_id") or not record.get("scenario"):
        return None
    chips = [c for c, _, _ in names.find("accelerators", words)]
    counts = [
        int(x.value) for x in mentions(words) if re.match(r"\s*-?\s*(?:gpus?|accelerators?)\b", words[x.end :], re.I)
    ]
    values = [x for x in mentions(words) if re.match(r"\s*(?:tokens?|tok|samples?|queries)\b", words[x.end :], re.I)]
    stated: dict[str, set] = {"model_id": {record["model_id"]}, "scenario": {record["scenario"]}}
    stated["suite_id"] = {rounds[0]} if rounds else ({record["suite_id"]} if record.get("suite_id") else set())
    if not stated["suite_id"]:
        return None
    if chips:
        stated["accelerator_ids"] = {ref.chips(chips[:1])}
    if counts:
        stated["accelerator_count"] = {counts[0]}
    if not (chips or counts or values or rounds):
        return None  # "2.7x more throughput" over nothing the words name
    if values and not re.match(
        {"tokens/s": r"\s*tok", "samples/s": r"\s*samples?", "queries/s": r"\s*quer"}.get(record["unit"], r"$^"),
        words[values[0].end :],
        re.I,
    ):
        return None  # the baseline is a number of another unit: another claim's comparison
    value = values[0].value if values else None
    candidates = [
        r
        for r in ref.results
        if all(_fields(r)[k] in v for k, v in stated.items())
        and r.unit == record["unit"]
        and (
            value is None
            or stated_interval(value, words[values[0].start : values[0].end]).meets(published_digits(r.value))
        )
        and r.id != record.get("restates")
    ]
    whose = {o for o, _, _ in names.find("organizations", words)} or (
        {record["submitter_id"]} if record.get("submitter_id") else set()
    )
    if whose and len(candidates) > 1:  # "the throughput AMD submitted on …": AMD's
        candidates = [r for r in candidates if r.submitter in whose] or candidates
    if record.get("accelerator_count") and len(candidates) > 1:  # like with like: the claim's count
        candidates = [r for r in candidates if r.count == record["accelerator_count"]] or candidates
    runs = {(r.suite, r.scenario, r.chips, r.count, r.submitter, r.value) for r in candidates}
    if len(runs) != 1:
        return None
    return {"claim_id": min(candidates, key=lambda r: (r.tier or "", r.id)).id}


#: "from A … to" before the figure B: the words of A
_FROM_A_TO = re.compile(
    r"\bfrom\b(?P<a>(?:[^.;]|\.\d)*)\bto\s+(?:about\s+|roughly\s+|around\s+|nearly\s+|some\s+)?$", re.I
)


def _from_round(lead: Figure, record: dict, names: Names) -> str | None:
    """For B of "from A … to B", the round A's words name ("in the previous round", "in v5.1"), else None."""
    m = _FROM_A_TO.search(lead.sentence[max(0, lead.mention.start - 200) : lead.mention.start])
    if not m:
        return None
    named = _ROUND.search(m.group("a"))
    if named:
        return f"mlperf-inference-v{named.group('v') or named.group('w')}"
    if _PREVIOUS.search(m.group("a")) and record.get("suite_id"):
        return _round_before(record["suite_id"], names)
    return None


def _plain(number: Decimal) -> int | float:
    return int(number) if number == number.to_integral_value() else float(number)
