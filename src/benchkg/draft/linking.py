"""Each figure of a text linked to the audited result it restates.

A press release restates results the graph already holds: the audited result knows its model, scenario,
round, chips, count and submitter. A draft claim is linked when exactly one audited result of the
reference set agrees with everything the text says of the number — its round, model, scenario, chips,
count, division and submitter where the text states them, one of the readings where the text allows
several ("H100 and H200" in its sentence) — and its value as published lies in the interval the
number states ("1.19M" is 1,185,000 to 1,195,000), by the one matching rule
(:mod:`benchkg.kernel.matching`). The draft then names it (``restates``) and says on stderr what the
result has that the text does not say; it never copies a field the text does not state into the claim.
Several candidates are listed and none is chosen; where the number is an audited result of the same
submitter that disagrees with the text (another scenario, round or count), the draft says so as a
conflict and keeps what the text says.

The audited results are read from the reference set's records (3,400 files in 0.1 s), once per process.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from benchkg.kernel.matching import Interval, Result, published_interval, record_interval

#: the fields a link compares, with the name stderr gives each
_FIELDS = (
    ("suite_id", "round"),
    ("model_id", "model"),
    ("scenario", "scenario"),
    ("accelerator_ids", "chips"),
    ("accelerator_count", "accelerator count"),
    ("division", "division"),
    ("submitter_id", "submitter"),
)


def weak(record: dict, name: str, why: str) -> None:
    """Mark a field of a draft claim as read away from its number (another paragraph, the whole text): the
    draft leaves it open, saying ``why`` (:func:`settle`), before linking the claim."""
    record.setdefault("_weak", {})[name] = why


@dataclass(frozen=True)
class Reference:
    """The audited results of the reference set as the rule reads them, their records by id, and each
    chip's base chip (a rack is the chip it is made of)."""

    results: tuple[Result, ...]
    records: dict[str, dict]
    base: dict[str, str]

    def chips(self, ids: Iterable[str]) -> frozenset[str]:
        """The chips ``ids`` name, each at the chip it is made of (``nvidia-gb300-nvl72`` is ``nvidia-gb300``).

        >>> Reference((), {}, {"r": "c"}).chips(["r", "d"]) == frozenset({"c", "d"})
        True
        """
        out = set()
        for chip in ids:
            seen = set()
            while chip in self.base and chip not in seen:
                seen.add(chip)
                chip = self.base[chip]
            out.add(chip)
        return frozenset(out)


def audited_reference(folders: Iterable[Path]) -> Reference:
    """The audited results (``measured_by: mlcommons``) of the record folders ``folders``, read once per
    process for the same folders and files."""
    folders = tuple(Path(f) for f in folders)
    stamp = tuple(
        (str(f), (f / "benchmarks").stat().st_mtime_ns if (f / "benchmarks").is_dir() else 0) for f in folders
    )
    return _reference(stamp)


@functools.lru_cache(maxsize=4)
def _reference(stamp: tuple[tuple[str, int], ...]) -> Reference:
    records: dict[str, dict] = {}
    base: dict[str, str] = {}
    for folder, _ in stamp:
        for path in sorted(Path(folder, "accelerators").glob("*.json")):
            data = _json(path)
            made_of = data.get("made_of_id") or data.get("variant_of_id")  # a rack's chip, a variant's base chip
            if isinstance(made_of, str):
                base[path.stem] = made_of
        for path in sorted(Path(folder, "benchmarks").glob("*.json")):
            data = _json(path)
            if data.get("measured_by") == "mlcommons" and "value" in data and "id" in data:
                records[data["id"]] = data
    ref = Reference((), records, base)
    results = tuple(r for r in (_result(d, ref) for d in records.values()) if r is not None)
    return Reference(results, records, base)


def _json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _result(record: dict, ref: Reference) -> Result | None:
    """An audited record as the rule reads it (ids as in the records, not IRIs)."""
    try:
        return Result(
            id=record["id"],
            suite=record["suite_id"],
            model=record["model_id"],
            scenario=record["scenario"],
            chips=ref.chips(record.get("accelerator_ids") or ()),
            unit=record["unit"],
            scope=record.get("scope", "aggregate"),
            value=Decimal(str(record["value"])),
            metric=record.get("metric", "throughput"),
            count=record.get("accelerator_count"),
            division=record.get("division"),
            tier=record.get("accuracy_target"),
            submitter=record.get("submitter_id"),
        )
    except (KeyError, ArithmeticError, ValueError, TypeError):
        return None


@dataclass
class Reading:
    """What the text says of one number: each field one value (stated), several (the readings its words
    allow: two chips in its sentence), or none (not stated, any)."""

    value: Decimal
    interval: Interval
    unit: str
    scope: str
    stated: dict[str, set] = field(default_factory=dict)

    @classmethod
    def of(cls, record: dict, readings: dict[str, list], ref: Reference) -> Reading:
        """The reading of a draft claim: its fields, and for a field the text leaves open between several
        values (``readings``), those values."""
        value = Decimal(str(record["value"]))
        reading = cls(value, record_interval(record), record["unit"], record["scope"])
        for name, _ in _FIELDS:
            values = readings.get(name) or ([record[name]] if name in record else [])
            if name == "accelerator_ids":
                chips = {ref.chips(v if isinstance(v, list) else [v]) for v in values}
                if chips:
                    reading.stated[name] = chips
            elif values:
                reading.stated[name] = set(values)
        return reading

    def agrees(self, result: Result, without: Iterable[str] = ()) -> bool:
        """Whether ``result`` is one of this number's readings: every field the text states (but those
        ``without``) allows it, and its value as published meets the number's interval."""
        mine = _fields(result)
        skip = set(without)
        if any(name not in skip and mine[name] not in allowed for name, allowed in self.stated.items()):
            return False
        if result.unit != self.unit:
            return False
        published = published_interval(result, self.scope)
        return published is not None and self.interval.meets(published)


def _fields(result: Result) -> dict[str, object]:
    """An audited result's fields as a draft claim names them."""
    return {
        "suite_id": result.suite,
        "model_id": result.model,
        "scenario": result.scenario,
        "accelerator_ids": result.chips,
        "accelerator_count": result.count,
        "division": result.division,
        "submitter_id": result.submitter,
    }


@dataclass(frozen=True)
class Link:
    """How a draft claim stands against the audited record: ``result`` (the one it restates), or the
    ``candidates`` (several: none chosen), or a ``conflict`` (an audited result of the same submitter
    whose value it is, that disagrees with the text)."""

    result: Result | None = None
    candidates: tuple[Result, ...] = ()
    conflict: tuple[Result, ...] = ()


#: what the text may disagree with its own result on: the number is theirs, the words are the text's
_CONFLICTS = ("suite_id", "scenario", "accelerator_count", "division", "accelerator_ids")


def link(reading: Reading, ref: Reference) -> Link:
    """The audited result the number restates (one), the candidates (several), or the results of the
    same submitter and model whose value it is against what the text says (none agrees).

    >>> key = dict(suite="r", model="m", chips=frozenset({"c"}), unit="tokens/s", scope="aggregate", count=8,
    ...            submitter="acme")
    >>> off = Result("off", scenario="offline", value=Decimal("104120"), **key)
    >>> srv = Result("srv", scenario="server", value=Decimal("98765.4"), **key)
    >>> from benchkg.kernel.matching import stated_interval
    >>> ref = Reference((off, srv), {}, {})
    >>> r = Reading(Decimal(104000), stated_interval(104000, "104K"), "tokens/s", "aggregate", {"model_id": {"m"}})
    >>> link(r, ref).result.id
    'off'
    >>> r.stated["scenario"] = {"server"}; r.stated["submitter_id"] = {"acme"}
    >>> [c.id for c in link(r, ref).conflict]
    ['off']
    """
    for without in ((), ("submitter_id",)):  # a text names its partners too: whose result it is may be another's
        found = tuple(sorted((r for r in ref.results if reading.agrees(r, without)), key=lambda r: r.id))
        if len(found) == 1 or found and _one_run(found):
            first = min(found, key=lambda r: (r.tier or "", r.id))
            return Link(result=first, candidates=tuple(r for r in found if r is not first))
        if found:
            return Link(candidates=found)
    if not reading.stated.get("model_id") or not (
        reading.stated.get("submitter_id") or reading.stated.get("accelerator_ids")
    ):
        return Link()  # whose number it is, the text must say to call a disagreement a conflict
    return Link(conflict=tuple(sorted((r for r in ref.results if reading.agrees(r, _CONFLICTS)), key=lambda r: r.id)))


def _one_run(found: tuple[Result, ...]) -> bool:
    """Whether the results are one run published under several accuracy tiers (MLPerf publishes a run that
    meets 99.9 % under 99 % too): the same system, value and everything but the tier."""
    keys = {(r.suite, r.model, r.scenario, r.chips, r.count, r.division, r.submitter, r.value, r.unit) for r in found}
    return len(keys) == 1 and len({r.tier for r in found}) == len(found)


def _has(result: Result, record: dict, audited: dict) -> list[str]:
    """What the audited record says that the draft does not: "72 accelerators", "the offline scenario"."""
    out = []
    if "accelerator_count" not in record and result.count:
        out.append(f"{result.count} accelerators")
    if "node_count" not in record and audited.get("node_count"):
        out.append(f"{audited['node_count']} node{'' if audited['node_count'] == 1 else 's'}")
    for name, what in (
        ("scenario", "the {} scenario"),
        ("division", "the {} division"),
        ("submitter_id", "submitter {}"),
        ("suite_id", "round {}"),
    ):
        value = _fields(result)[name]
        if name not in record and value:
            out.append(what.format(value))
    if "accelerator_ids" not in record and result.chips:
        out.append(" + ".join(sorted(result.chips)))
    return out


def _differs(result: Result, reading: Reading) -> list[str]:
    """What the text says of the number that its audited result does not: "the text says server, the
    result is offline"."""
    mine = _fields(result)
    out = []
    for name in _CONFLICTS:
        allowed = reading.stated.get(name)
        if allowed and mine[name] not in allowed:
            said = ", ".join(sorted("+".join(sorted(v)) if isinstance(v, frozenset) else str(v) for v in allowed))
            value = mine[name]
            theirs = "+".join(sorted(value)) if isinstance(value, frozenset) else value
            out.append(f"{dict(_FIELDS)[name]}: the text says {said}, the result {theirs}")
    return out


def apply(record: dict, readings: dict[str, list], ref: Reference, undecided: list[str]) -> None:
    """Link a draft claim (a throughput or latency with a value) to the audited result it restates: name
    it in ``restates``, settle a field the text left between several readings to the one that agrees,
    and say on stderr what the result has that the text does not; else list the candidates or the
    conflict. Fields the text does not state stay absent."""
    if "value" not in record or record.get("_vendor"):  # the vendor's own number restates no result
        return
    reading = Reading.of(record, readings, ref)
    found = link(reading, ref)
    number = f"{Decimal(str(record['value'])):,} {record['unit']}"
    if found.result is not None:
        result = found.result
        record["restates"] = result.id
        settled = {
            "model_id": result.model,
            "scenario": result.scenario,
            "suite_id": result.suite,
            "submitter_id": result.submitter,
        }
        for name, value in settled.items():
            if len(readings.get(name) or ()) > 1 and value in readings[name]:
                record[name] = value
                undecided[:] = [u for u in undecided if not u.startswith(f"{name}:")]
                undecided.append(f"{name}: {value}, the reading of the text its audited result agrees with")
        if len(readings.get("accelerator_ids") or ()) > 1:
            chosen = [c for c in readings["accelerator_ids"] if ref.chips([c]) == result.chips]
            if chosen:
                record["accelerator_ids"] = chosen[:1]
                undecided[:] = [u for u in undecided if not u.startswith("accelerator_ids:")]
                undecided.append(f"accelerator_ids: {chosen[0]}, the chip of the audited result it restates")
        if record.get("submitter_id") not in (None, result.submitter):
            undecided.append(
                f"submitter_id: the text names {record.pop('submitter_id')}, but the audited result it restates is "
                f"{result.submitter}'s (left out)"
            )
        has = _has(result, record, ref.records.get(result.id, {}))
        if found.candidates:  # one run under two tiers: the text names none, the lower is named
            has.append(f"tier {result.tier} (also published as {', '.join(r.id for r in found.candidates)})")
        undecided.append(
            f"restates: {result.id}, the audited result whose value {number} restates"
            + (f"; it has {', '.join(has)}: the text does not say (left out)" if has else "")
        )
    elif len(found.candidates) > 1:
        shown = ", ".join(r.id for r in found.candidates[:5]) + (" …" if len(found.candidates) > 5 else "")
        undecided.append(
            f"restates: {len(found.candidates)} audited results have {number} and all the text says of it "
            f"({shown}): none chosen; name the one it restates, or leave it out"
        )
    elif found.conflict:
        runs = {
            (r.suite, r.scenario, r.chips, r.count, r.division, r.submitter, r.value): r for r in found.conflict[::-1]
        }
        for result in sorted(runs.values(), key=lambda r: r.id)[:3]:  # one run under two tiers: said once
            undecided.append(
                f"conflict: {number} is the value of the audited {result.id} ({result.submitter}, {result.model}), but "
                + "; ".join(_differs(result, reading))
                + ": the draft keeps what the text says"
            )

    else:
        undecided.append(
            f"restates: no audited result agrees with {number} and what the text says of it (the vendor's own "
            "number, a round or result the reference set does not hold, or a field the text gives wrongly)"
        )


def settle(record: dict, weak: dict[str, str], undecided: list[str]) -> None:
    """Leave open each field read away from the number (``weak``: field -> why) and say why: a chip named in
    another paragraph is another system's as often as this one's, and an audited result that agrees is no
    proof the text means it (rule 2 of docs/records.md, "Drafting from a text")."""
    for name, why in weak.items():
        if name not in record:
            continue
        value = record.pop(name)
        undecided[:] = [u for u in undecided if not u.startswith(f"{name}:")]
        shown = ", ".join(value) if isinstance(value, list) else value
        undecided.append(f"{name}: {shown}? {why}: left open (fill it in if the text means this number)")
