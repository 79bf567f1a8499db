"""``benchkg draft SOURCE``: the draft claims of one saved page (see :mod:`benchkg.draft`)."""

from __future__ import annotations

import re
from pathlib import Path

from benchkg.draft import linking
from benchkg.draft.context import (
    STATED_OR_OMITTED,
    _masked,
    _scopes,
    _stated,
    _superlative,
    _theirs,
    _what_was_measured,
    _whose,
    vendor_suite,
)
from benchkg.draft.figures import (
    _CLAIMED,
    _SCENARIOS,
    Figure,
    _as_written,
    _bounds,
    _breaks,
    _number,
    _per_user,
    _states_context,
    _verbs,
    figures,
)
from benchkg.draft.groups import Draft, Group, _earlier, _referred_back, _restated_per_accelerator, groups
from benchkg.draft.hardware import _on_what
from benchkg.draft.linking import Reference
from benchkg.draft.page import _headline, _paragraph, _short, page_id, read_page
from benchkg.draft.ratios import draft_relative
from benchkg.kernel.matching import digits_interval, written_interval
from benchkg.records.names import Names


def draft(path: Path, names: Names, ref: Reference | None = None) -> list[Draft]:
    """The draft claims of one saved source, one per number it states with its own context (see the
    module's doc); a source that states none gives one draft that says so.

    With ``ref`` (the audited results of the reference set: :func:`benchkg.draft.linking.audited_reference`),
    each claim is linked to the audited result it restates (:mod:`benchkg.draft.linking`).

    :raises UsageError: for a file that is not a readable .html, .md or .txt page.
    """
    try:
        return _draft(Path(path), names, ref)
    finally:
        _forget()


def _forget() -> None:
    """Empty the per-sentence caches: within one text a sentence is one object, found by identity; a
    later text's equal sentence would be compared whole, at every lookup (megabytes, each time)."""
    for cached in (_per_user, _short, _breaks, _states_context, _bounds, _verbs):
        cached.cache_clear()


def _draft(path: Path, names: Names, ref: Reference | None) -> list[Draft]:
    text, heading = read_page(path)
    source_id = page_id(path.stem)
    left: list[str] = []
    found = figures(text, left)
    claimed = []
    for f in found:
        if f.kind in _CLAIMED and _earlier(f, names):  # given for comparison: no claim, nor reported
            why = "an earlier figure given for comparison"
            left.append(f"{_as_written(f.mention)}: {why} (no claim drafted): {_short(f.sentence, 100)!r}")
        else:
            claimed.append(f)
    title = heading or _headline(text) or path.stem
    claims: list[Group | None] = list(groups(claimed, names)) or [None]
    source = {"id": source_id, "name": _short(title, 200), "notes": f"Drafted by benchkg draft from {path.name}."}
    leads = [g.lead for g in claims if g]
    out = []
    for group in claims:
        others = [f for f in leads if not group or f is not group.lead]
        record, undecided = _claim("", group, text, title, names, claimed, len(claims) == 1, others)
        record["sources"] = _quotes(group, found, source_id, title, single=len(claims) == 1)
        readings = record.pop("_readings", {})
        linking.settle(record, record.pop("_weak", {}), undecided)  # (read away from its number: left open)
        if ref is not None:
            linking.apply(record, readings, ref, undecided)
            if group and not record.get("_vendor"):
                draft_relative(record, group.lead, text, ref, names, undecided)
        suite = vendor_suite(record, source_id, names) if record.pop("_vendor", False) else None
        out.append(Draft(record, source, found, undecided, suite))
    _referred_back(out, [g.lead if g else None for g in claims])
    out = _restated_per_accelerator(out) or out[:1]
    for n, d in enumerate(out, 1):
        d.record["id"] = source_id if len(out) == 1 else f"{source_id}-{n}"
        d.record = _ordered(d.record)
    out[0].undecided += [f"left out {why}" for why in left]
    return out


def _quotes(group: Group | None, found: list[Figure], source_id: str, title: str, single: bool) -> list[dict]:
    """The claim's sentences as quotes: the headline's first, then where the number is restated, then
    (for the only claim of a text) every other sentence with a figure."""
    mine = [group.lead, *group.restated, *group.reported] if group else []
    ours = {id(m) for m in mine}
    rest = [f for f in found if id(f) not in ours] if single else []
    quotes: list[dict] = []
    said: set[str] = set()
    for f in mine + rest:
        quote = _short(f.sentence, 400)
        if quote not in said:
            said.add(quote)
            quotes.append({"source_id": source_id, "quote": quote})
    return quotes or [{"source_id": source_id, "quote": _short(title, 400)}]


def _claim(
    claim_id: str,
    group: Group | None,
    text: str,
    title: str,
    names: Names,
    found: list[Figure],
    single: bool,
    others: list[Figure] = (),  # type: ignore[assignment]
) -> tuple[dict, list[str]]:
    """One claim's record and what is left undecided: its number and what the text says of it, read
    nearest first — its clause, its sentence, its paragraph, then (for the only claim) the title."""
    record: dict = {"id": claim_id, "title": _short(title, 200)}
    undecided: list[str] = []
    lead = group.lead if group else None
    spans = [_theirs(o, lead) for o in others]
    scopes, words = _scopes(group, text, title, single, spans)
    whole, text = text, _masked(text, spans)
    found = [f for f in found if not any(f.sentence == o and a <= f.mention.start < b for o, a, b in spans)]
    before = next(
        (o.own_text for o in reversed(others) if lead and o.sentence == lead.sentence and o.own[1] <= lead.own[0]), ""
    )
    _what_was_measured(record, text, words, names, undecided, whole, single, before, lead.mention.end if lead else 0)
    if lead and lead.respectively:
        _respectively(record, lead, names, undecided)
    paragraph = _paragraph(whole, lead.sentence) if lead else ""
    said = paragraph.find(lead.sentence) + len(lead.sentence) if lead and lead.sentence in paragraph else None
    earlier = whole[: max(whole.find(paragraph), 0)] if paragraph else ""
    _on_what(record, text, scopes, names, found, undecided, lead, said, earlier)
    _the_number(record, group, found, names, single, undecided)
    rivals = {o for o, _, _ in names.find("organizations", title)} - {record.get("submitter_id"), "mlcommons"}
    _superlative(
        record, [s for s in scopes if s != title or not rivals], undecided, names
    )  # "Nvidia leads …" ranks Nvidia
    concurrency = [f for f in found if f.unit == "concurrency" and any(f.sentence in s for s in scopes[:4] or [text])]
    if concurrency:
        record["load"] = {"concurrency": int(concurrency[0].mention.value)}
    unaudited = _whose(record, whole, lead, names, undecided)
    # a field the claim must state (an MLPerf Inference claim's division) is a gap to fill, not an omission
    required = {"division"} if record.get("suite_id", "").startswith("mlperf-inference") else set()
    never = {"mlperf_result_id"} if unaudited else set()
    record["omitted_by_source"] = [
        f for f in STATED_OR_OMITTED if not _stated(record, f, text) and f not in required | never
    ]
    return record, undecided


def value_as_written(f: Figure) -> str | None:
    """The number as the text writes it, where its spelling states more than its digits ("1.19M" is
    1,185,000 to 1,195,000; "1,190,000" in a text, to the nearest ten thousand), else None.

    >>> [value_as_written(f) for f in figures("It hit 1.19M tokens/s, then 910,621 tokens/s.")]
    ['1.19M', None]
    """
    written = f.sentence[f.mention.start : f.mention.end].strip()
    if re.fullmatch(r"[\d.,\s\u00a0\u2009\u202f]+", written):  # digits alone: the quote states them
        return None
    stated, digits = written_interval(written), digits_interval(f.mention.value)
    if stated is None or (stated.low, stated.high, stated.open_low, stated.open_high) == (
        digits.low,
        digits.high,
        digits.open_low,
        digits.open_high,
    ):
        return None
    return written


def _respectively(record: dict, lead: Figure, names: Names, undecided: list[str]) -> None:
    """The scenario and model of one figure of a list read "respectively": the i-th of as many named after
    the list, in order ("103,480, 100,282 and 73,608 tokens per second in the Offline, Server and
    Interactive scenarios, respectively")."""
    place, length, end = lead.series
    tail = lead.sentence[end:]
    found = {
        "scenario": sorted((m.start(), s) for s, pattern in _SCENARIOS for m in re.finditer(pattern, tail, re.I)),
        "model_id": sorted((a, m) for m, a, _ in names.find("models", tail)),
    }
    for name, hits in found.items():
        if len(hits) == length:
            record[name] = hits[place][1]
            record.get("_readings", {}).pop(name, None)
            undecided[:] = [u for u in undecided if not u.startswith(f"{name}:")]


def _the_number(
    record: dict, group: Group | None, found: list[Figure], names: Names, single: bool, undecided: list[str]
) -> None:
    """The claim's number, what else its clause reports beside it (for the only claim of a text, every
    other throughput the text states), and where the text writes it again."""
    if not group:
        undecided.append(
            "the headline number: the text gives no number with a throughput unit (tokens/s, queries/s, samples/s)"
        )
        return
    lead = group.lead
    record.update({"metric": lead.kind, "value": _number(lead.mention.value), "unit": lead.unit, "scope": lead.scope})
    written = value_as_written(lead)
    if written:
        record["value_as_written"] = written
    others = [f for f in group.reported if f.mention.value != lead.mention.value]
    if single:  # the only claim of a text: every other throughput it states is reported with it
        taken = {id(f) for f in (lead, *group.restated, *others)}
        others += [f for f in found if f.kind == lead.kind and id(f) not in taken]
    if others:
        record["reported"] = [
            {"metric": f.kind, "value": _number(f.mention.value), "unit": f.unit, "scope": f.scope} for f in others
        ]
    if group.restated:
        again = [f"{f.mention.value:,}" if not f.mention.multiplier else _short(f.sentence, 60) for f in group.restated]
        undecided.append(
            f"value: the text also writes it {', '.join(again)}; the draft took the precise {lead.mention.value:,}"
        )


ORDER = (
    "id",
    "title",
    "suite_id",
    "division",
    "system_type",
    "scenario",
    "model_id",
    "format_id",
    "engine_id",
    "accelerator_ids",
    "accelerator_count",
    "node_count",
    "metric",
    "value",
    "value_as_written",
    "unit",
    "scope",
    "reported",
    "relative",
    "load",
    "submitter_id",
    "measured_by",
    "sources",
    "omitted_by_source",
    "asserts",
    "restates",
)


def _ordered(record: dict) -> dict:
    return {k: record[k] for k in ORDER if k in record}
