"""How a vendor claim stands against the audited record, in one line a curator can paste: the verdict of
the one matching rule (:func:`benchkg.kernel.matching.judge`) on the claim and the audited results of its
round and model, and of its submitter, read from whatever store answers (embedded or an endpoint). ``show``,
the site's claim page and ``kg.show()`` all give this verdict; ``bk:auditedBy`` links what it calls a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from benchkg.graph.audited import SIDE_COLUMNS, SIDE_VARIABLES, side_result
from benchkg.kernel.matching import (
    Interval,
    Result,
    Verdict,
    judge,
    platform_key,
    ratio_interval,
    record_interval,
)
from benchkg.kernel.vocab import sparql_prefixes

#: the claim's own row, then every audited result of its round and model or of its submitter, with what
#: the rule compares (the columns of :data:`benchkg.graph.audited.SIDE`)
_CANDIDATES = (
    f"SELECT {SIDE_VARIABLES} ?mine WHERE {{"
    """
  { BIND (%(claim)s AS ?claim) %(claim)s bk:measuredBy bk:measured-by-vendor . BIND (true AS ?mine) }
  UNION { %(claim)s bk:suite ?s0 ; bk:model ?m0 . ?claim bk:model ?m0 ; bk:suite ?s0 ; bk:measuredBy bk:measured-by-mlcommons }
  UNION { %(claim)s bk:submitter ?sub0 . ?claim bk:submitter ?sub0 ; bk:measuredBy bk:measured-by-mlcommons }
  UNION { %(claim)s bk:restates ?claim . ?claim bk:measuredBy bk:measured-by-mlcommons }
  ?claim bk:result ?r ."""
    + SIDE_COLUMNS
    + "  OPTIONAL { ?claim bk:suite ?suite } OPTIONAL { ?claim bk:model ?model } OPTIONAL { ?claim bk:scenario ?scenario }\n}\n"
)


@dataclass(frozen=True)
class ClaimVerdict:
    """A vendor claim's verdict as data: ``verdict`` (the rule's, with the audited results it names),
    ``claim`` (the claim as the rule read it) and ``line``, the sentence ``show`` prints."""

    verdict: Verdict
    claim: Result
    line: str

    @property
    def kind(self) -> str:
        """matches, matches as written, differs or no audited result."""
        return self.verdict.kind

    def as_dict(self) -> dict[str, Any]:
        """The verdict as plain values (ids, not IRIs): what the site and the API carry."""
        return {
            "verdict": self.verdict.kind,
            "audited": [_id(r.id) for r in self.verdict.results],
            "audited_values": [r.reading(self.claim.scope) for r in self.verdict.results],
            "ratio": self.verdict.ratio,
            "lacking": self.verdict.lacking or None,
            "same_number_elsewhere": [_id(r.id) for r in self.verdict.elsewhere],
            "interval": str(self.claim.interval) if self.claim.interval else None,
            "line": self.line,
        }


def record_verdicts(backend: Any, iri: str, record: dict) -> tuple[ClaimVerdict | None, RelativeVerdict | None]:
    """A claim's verdicts, from its record's fields (``value``, ``value_as_written``, ``sources``' quotes,
    ``measured_by``, ``relative``) and the store: the verdict against the audited record (a vendor claim's),
    and its stated ratio's (a claim that states one). What ``show`` prints and the site's claim page shows."""
    judged = None
    if record.get("measured_by") == "vendor":
        judged = claim_verdict(backend, iri, written_spelling(record))
    relative = record.get("relative")
    return judged, relative_verdict(backend, iri, relative, judged) if isinstance(relative, dict) else None


def written_spelling(record: dict) -> str | None:
    """The spelling a claim's value was read from (:func:`benchkg.kernel.matching.record_interval`): its
    ``value_as_written``, else its quote's mention of it, else its digits."""
    return record_interval(record).written if "value" in record else None


def claim_verdict(backend: Any, iri: str, as_written: str | None = None) -> ClaimVerdict | None:
    """The verdict on the vendor claim ``iri`` (None when it is not a vendor claim with a value), read
    through ``backend`` in one query; ``as_written`` is the claim's own spelling, for the line."""
    rows = backend.results(sparql_prefixes() + _CANDIDATES % {"claim": f"<{iri}>"}, "verdict").rows
    mine = [side_result(row) for row in rows if row.get("mine") is not None]
    if not mine:
        return None
    claim = mine[0]
    audited = {r.id: r for r in (side_result(row) for row in rows if row.get("mine") is None)}
    verdict = judge(claim, audited.values())
    return ClaimVerdict(verdict, claim, verdict_line(verdict, claim, as_written))


def _id(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]


def _name(term: str | None) -> str:
    """A record's or a concept's id from the text of its IRI (``<…/organizations/coreweave>``)."""
    name = (term or "").strip("<>").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    return name.removeprefix("scope-").removeprefix("scenario-")


def number_text(number: Decimal | None) -> str:
    """A number as a line shows it: digits grouped, no exponent, at most six significant figures after
    the point (a reading per accelerator is unrounded).

    >>> number_text(Decimal("1186750")), number_text(Decimal("74385.6")), number_text(Decimal("16482.63888888"))
    ('1,186,750', '74,385.6', '16,482.64')
    >>> number_text(Decimal("5.7315499433")), number_text(Decimal("0.00979775"))
    ('5.7315499433', '0.00979775')
    """
    if number is None:
        return "none"
    if number.as_tuple().exponent is not None and len(number.normalize().as_tuple().digits) > 12:
        number = number.quantize(Decimal("0.01")) if abs(number) >= 100 else +number
    text = format(number.normalize(), ",f")
    return text


def percent_text(percent: Decimal) -> str:
    """A difference in per cent: one decimal, or two significant figures below 0.1 %.

    >>> percent_text(Decimal("3.1073")), percent_text(Decimal("0.000173929"))
    ('3.1', '0.00017')
    """
    if percent >= Decimal("0.1") or not percent:
        return format(percent.quantize(Decimal("0.1")), "f")
    return format(Decimal(f"{percent:.2g}").normalize(), "f")


def interval_text(interval: Interval | None) -> str:
    """The numbers an interval holds, as a line says them.

    >>> interval_text(Interval(Decimal("1185000"), Decimal("1195000"))), interval_text(Interval(Decimal(10**6), None, True))
    ('1,185,000 to 1,195,000', 'above 1,000,000')
    """
    if interval is None:
        return "its digits"
    if interval.high is None:
        return f"{'above' if interval.open_low else 'at least'} {number_text(interval.low)}"
    if interval.low is None:
        return f"{'below' if interval.open_high else 'at most'} {number_text(interval.high)}"
    return f"{number_text(interval.low)} to {number_text(interval.high)}"


def verdict_line(verdict: Verdict, claim: Result, as_written: str | None = None) -> str:
    """The verdict in one line a curator can paste.

    >>> from benchkg.kernel.matching import stated_interval
    >>> key = dict(suite="r", model="m", scenario="<x/scenario-offline>", chips=frozenset({"c"}), unit="u",
    ...            scope="aggregate", count=72, submitter="<x/organizations/coreweave>")
    >>> audited = Result("x/benchmarks/off", value=Decimal(1197710), **key)
    >>> claim = Result("x/benchmarks/c", value=Decimal(1160490), interval=stated_interval(1160490), **key)
    >>> verdict_line(judge(claim, [audited]), claim)
    'differs from off: the audited 1,197,710, the claim 1,160,490 is 3.1 % below'
    >>> claim = Result("x/benchmarks/c", value=Decimal(1200000), interval=stated_interval(1200000, "1.2M"), **key)
    >>> verdict_line(judge(claim, [audited]), claim, "1.2M")
    "matches as written off (1,197,710; '1.2M' states 1,150,000 to 1,250,000)"
    """
    results = verdict.results
    names = ", ".join(_id(r.id) for r in results)
    if verdict.kind == "matches":
        line = f"matches {names} ({number_text(results[0].reading(claim.scope))})"
    elif verdict.kind == "matches as written":
        values = "; ".join(number_text(r.reading(claim.scope)) for r in results)
        said = as_written or (claim.interval.written if claim.interval else "") or number_text(claim.value)
        line = f"matches as written {names} ({values}; {said!r} states {interval_text(claim.interval)})"
    elif verdict.kind == "differs" and verdict.lacking:  # the result it names is not of its key
        line = f"differs from {names}, the result it names: its {verdict.lacking} is not the claim's"
        published = results[0].reading(claim.scope)
        if published:
            line += f" (the audited {number_text(published)}, the claim {number_text(claim.value)})"
    elif verdict.kind == "differs":
        published = results[0].reading(claim.scope)
        ratio = verdict.ratio or Decimal(1)
        published = published or Decimal(0)
        percent = percent_text(abs(claim.value / published - 1) * 100 if published else Decimal(0))
        per = " per accelerator" if claim.scope == "per-accelerator" else ""
        line = (
            f"differs from {names}: the audited {number_text(published)}{per}, the claim {number_text(claim.value)} "
            f"is {percent} % {'below' if ratio < 1 else 'above'}"
        )
    else:
        line = f"no audited result of this {_LACKING.get(verdict.lacking, verdict.lacking)}"
    for other in verdict.elsewhere:
        line += "; " + _elsewhere(claim, other)
    return line


def _elsewhere(claim: Result, other: Result) -> str:
    """An audited result of the claim's submitter, outside its key, whose value is the claim's: named, with
    how it differs from what the claim says."""
    differ = [
        (what, _name(str(mine)), _name(str(theirs)))
        for what, mine, theirs in (
            ("round", claim.suite, other.suite),
            ("model", claim.model, other.model),
            ("scenario", claim.scenario, other.scenario),
            ("hardware", "+".join(sorted(claim.chips)), "+".join(sorted(other.chips))),
            ("count", claim.count, other.count),
        )
        if mine is not None and mine != theirs
    ]
    theirs = ", ".join(f"{what} {t}" for what, _, t in differ) or "another division, tier or unit"
    mine = ", ".join(f"{what} {m}" for what, m, _ in differ)
    return (
        f"{number_text(other.reading(claim.scope))} is {_name(other.submitter)}'s audited result {_id(other.id)} "
        f"({theirs})" + (f", and the claim says {mine}" if mine else "")
    )


#: what "no audited result of this …" names, by the first dimension no audited result shares
_LACKING = {
    "round and model": "round and model",
    "scenario": "round, model and scenario",
    "hardware": "round, model, scenario and hardware",
    "unit": "round, model, scenario and hardware in this unit",
    "count": "round, model, scenario and hardware at this accelerator count",
    "division": "round, model, scenario, hardware and count in this division",
    "tier": "round, model, scenario, hardware and count at this accuracy tier",
    "submitter": "round, model, scenario, hardware and count by this submitter",
}


#: one audited result by its IRI, or the audited results of a round, model, scenario and submitter, with
#: their MLPerf system IDs (the columns of :data:`benchkg.graph.audited.SIDE`, and ?platform)
_BASELINE = (
    f"SELECT {SIDE_VARIABLES} ?platform WHERE {{"
    """
  %(which)s
  ?claim bk:result ?r ."""
    + SIDE_COLUMNS
    + "  OPTIONAL { ?claim bk:suite ?suite } OPTIONAL { ?claim bk:model ?model } OPTIONAL { ?claim bk:scenario ?scenario }\n"
    + "  OPTIONAL { ?claim bk:platformId ?platform }\n}\nORDER BY ?claim\n"
)


@dataclass(frozen=True)
class RelativeVerdict:
    """A stated ratio judged: ``verdict`` (holds, does not hold, unchecked), the ``ratio`` the record gives,
    the ``baseline`` (an IRI, or None) and ``line``, what ``show`` prints."""

    verdict: str
    ratio: Decimal | None
    baseline: str | None
    line: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "ratio": self.ratio,
            "baseline": _id(self.baseline) if self.baseline else None,
            "line": self.line,
        }


def relative_verdict(backend: Any, iri: str, relative: dict, judged: ClaimVerdict | None) -> RelativeVerdict:
    """Whether the record bears out a claim's stated ratio (``relative``): the claim's number (the audited
    result it restates, when it restates one) over the baseline, within the precision the ratio is written
    to (:func:`benchkg.kernel.matching.ratio_interval`)."""
    written = ratio_interval(relative.get("times"), relative.get("percent"), relative.get("as_written"))
    said = relative.get("as_written") or (
        f"{relative['times']}x" if "times" in relative else f"{relative.get('percent')} %"
    )
    over = relative.get("over", {})
    linked = judged.verdict.results if judged and judged.kind.startswith("matches") else ()
    mine = linked[0] if linked else (judged.claim if judged else None)
    baseline: Result | None = None
    why = ""
    if "claim_id" in over:
        found = _baseline_rows(backend, f"VALUES ?claim {{ <{iri.rsplit('/', 1)[0]}/{over['claim_id']}> }}")
        baseline = found[0] if found else None
        why = f"no result {over['claim_id']} in the store"
    elif "same_system_in" in over:
        baseline, why = _same_system(backend, mine if linked else None, over["same_system_in"])
    elif over.get("next_best"):
        best = backend.select(
            "PREFIX bk: <https://w3id.org/benchkg/ontology#> SELECT ?best ?value ?claimed WHERE { "
            f"<{iri}> bk:superlative ?s . ?s bk:best ?best ; bk:bestValue ?value ; bk:claimValue ?claimed }} ORDER BY ?best"
        )
        why = "no superlative population with a result other than the claim (asserts names none)"
        if best and mine is not None:
            ratio = Decimal(best[0]["claimed"]) / Decimal(best[0]["value"])
            return _relative(written, said, ratio, best[0]["best"], number_text(Decimal(best[0]["value"])))
    if baseline is None or mine is None:
        return RelativeVerdict("unchecked", None, None, f"unchecked: {why}")
    number = baseline.reading(mine.scope)
    if not number:
        return RelativeVerdict(
            "unchecked", None, baseline.id, f"unchecked: {_id(baseline.id)} has no {mine.scope} value"
        )
    return _relative(written, said, mine.value / number, baseline.id, number_text(number))


def _relative(written: Interval, said: str, ratio: Decimal, baseline: str, shown: str) -> RelativeVerdict:
    holds = written.holds(ratio)
    text = format(ratio.quantize(Decimal("0.001")).normalize(), "f")
    line = (
        f"{'holds' if holds else 'does not hold'}: {text}x {_id(baseline)} ({shown}); "
        f"{said!r} states {interval_text(written)}x"
    )
    return RelativeVerdict("holds" if holds else "does not hold", ratio, baseline, line)


def _baseline_rows(backend: Any, which: str) -> list[Result]:
    rows = backend.results(sparql_prefixes() + _BASELINE % {"which": which}, "verdict").rows
    return [side_result(row) for row in rows]


def _same_system(backend: Any, mine: Result | None, suite: str) -> tuple[Result | None, str]:
    """The audited result of the same system (MLPerf system ID, :func:`platform_key`), submitter, model,
    scenario and tier as the audited result ``mine``, in round ``suite``."""
    if mine is None:
        return None, "the claim restates no audited result, so its system's MLPerf ID is not known"
    rows = backend.results(
        sparql_prefixes() + _BASELINE % {"which": f"VALUES ?claim {{ <{mine.id}> }}"}, "verdict"
    ).rows
    platform = next((row["platform"].value for row in rows if row.get("platform") is not None), None)
    if platform is None:
        return None, f"{_id(mine.id)} has no MLPerf system ID"
    base = mine.id.rsplit("/benchmarks/", 1)[0]
    which = (
        f"?claim bk:measuredBy bk:measured-by-mlcommons ; bk:suite <{base}/suites/{suite}> ; "
        f"bk:model {mine.model} ; bk:scenario {mine.scenario} ."
        + (f" ?claim bk:submitter {mine.submitter} ." if mine.submitter else "")
    )
    rows = backend.results(sparql_prefixes() + _BASELINE % {"which": which}, "verdict").rows
    same = [
        side_result(row)
        for row in rows
        if row.get("platform") is not None and platform_key(row["platform"].value) == platform_key(platform)
    ]
    same = [r for r in same if mine.tier is None or r.tier in (None, mine.tier)]
    if not same:
        return None, f"no audited result of system {platform} in {suite}"
    return same[0], ""
