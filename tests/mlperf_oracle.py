"""The answers to the README's questions computed a second way: from MLCommons' own results summaries
(``../shared/realdata/mlperf_inference_v*/summary_results.json``, and v6.1's ``summary.json``), in plain
Python, never through RDF.

Each MLPerf result is read from the summary row: round, division, suite (datacenter, edge), availability,
model and tier, scenario, value and unit, nodes, submitter, inferred, a power cap in its Accelerator
field. What the summary cannot say on its own comes from the imported record of the same result id —
which chips it ran on and how many in all (the importer resolves the Accelerator text and the system
description; tests/test_import.py checks that) — and from the chip records (a rack's chip, a variant's
base part, CPU or not, bandwidth, TDP). The seed claims (vendor posts, not in any summary) come from
their records. The functions then filter, rank and pair exactly as each question asks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from pathlib import Path

ROUNDS = ("4.1", "5.1", "6.0")
SCENARIOS = {
    "Offline": "offline",
    "Server": "server",
    "Interactive": "interactive",
    "SingleStream": "single-stream",
    "MultiStream": "multi-stream",
}
UNITS = {
    "Tokens/s": "tokens/s",
    "Samples/s": "samples/s",
    "Queries/s": "queries/s",
    "Tasks/s": "tasks/s",
    "Latency (ms)": "ms",
    "Latency (s)": "s",
}
LOWER_IS_BETTER = {"ms", "s", "mJ", "W"}


@dataclass(frozen=True)
class Result:
    claim: str
    suite: str
    version: str
    family: str
    division: str | None
    system_types: frozenset
    availability: str | None
    model: str
    tier: str | None
    scenario: str
    value: Decimal
    unit: str
    metric: str
    nodes: int | None
    submitter: str | None
    inferred: bool | None
    measured_by: str
    capped: bool
    system: str | None
    ran_on: tuple  # the accelerator ids the claim names
    chips: tuple  # the same read at the chip (a rack is its chip)
    count: int | None
    per_accelerator_stated: Decimal | None = None  # a per-accelerator headline, as stated
    platform: str | None = None  # the system's name as the summary gives it
    host: str | None = None  # the host processor as the summary gives it
    spelling: str | None = None  # the accelerator as the summary spells it
    cpu_only: bool = False  # every chip it ran on is a CPU (its value per socket is no per-accelerator value)

    @property
    def single_chip(self) -> bool:
        return len(set(self.chips)) == 1

    @property
    def per_accelerator(self) -> Decimal | None:
        """The per-accelerator value: stated, or aggregate ÷ count for a throughput of one chip that is no CPU."""
        if self.metric != "throughput" or not self.single_chip or self.cpu_only:
            return None
        if self.per_accelerator_stated is not None:
            return self.per_accelerator_stated
        return self.value / self.count if self.count else None

    @property
    def score(self) -> Decimal | None:
        """Higher is better: the per-accelerator value, or minus a latency."""
        return -self.value if self.unit in LOWER_IS_BETTER else self.per_accelerator


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.")


def _model_and_tier(name: str) -> tuple[str, str | None, str | None]:
    m = re.match(r"^(.*?)(?:-(99(?:\.9)?))?$", name)
    base, tier = m.group(1), m.group(2)
    if base.endswith("-interactive"):
        return base[: -len("-interactive")], tier, "interactive"
    return base, tier, None


@dataclass
class Record:
    """Every result (summary rows and seed claims) and the chip records they are read against."""

    results: list[Result]
    chips: dict[str, dict]
    suites: dict[str, dict]
    claims: dict[str, dict] = field(default_factory=dict)

    def chip(self, acc: str) -> str:
        return self.chips.get(acc, {}).get("made_of_id") or acc

    def base(self, chip: str) -> str:
        return self.chips.get(chip, {}).get("variant_of_id") or chip

    def is_cpu(self, r: Result) -> bool:
        return all(self.chips.get(a, {}).get("kind") == "cpu" for a in r.ran_on)

    @cached_property
    def tiered_models(self) -> set[str]:
        """The models some result states an accuracy tier for."""
        return {r.model for r in self.results if r.tier is not None}


def load(raw: Path, data: Path) -> Record:
    """All results: the MLPerf summaries of :data:`ROUNDS` under ``raw`` and the other claims of ``data``."""
    chips = {p.stem: json.loads(p.read_text()) for p in (data / "accelerators").glob("*.json")}
    suites = {p.stem: json.loads(p.read_text()) for p in (data / "suites").glob("*.json")}
    claims = {p.stem: json.loads(p.read_text(), parse_float=Decimal) for p in (data / "benchmarks").glob("*.json")}
    record = Record([], chips, suites, claims)
    for version in ROUNDS:
        rows = json.loads((raw / f"mlperf_inference_v{version}" / "summary_results.json").read_text())
        seen: set[str] = set()
        for row in rows:
            claim = stem = _slug(f"mlperf-{row['ID'].lstrip('v')}-{row['Model']}-{row['Scenario']}")
            n = 2
            while claim in seen:  # one id twice in a summary: the importer numbers the second
                claim, n = f"{stem}-{n}", n + 1
            seen.add(claim)
            rec = claims[claim]
            model, tier, scenario = _model_and_tier(row["Model"])
            unit = UNITS[row["Performance_Units"]]
            record.results.append(
                Result(
                    claim=claim,
                    suite=f"mlperf-inference-v{version}",
                    version=version,
                    family="mlperf-inference",
                    division=row["Category"],
                    system_types=frozenset(row["Suite"].split(",")),
                    availability=row["Availability"],
                    model=model,
                    tier=tier,
                    scenario=scenario or SCENARIOS[row["Scenario"]],
                    value=Decimal(str(row["Performance_Result"])),
                    unit=unit,
                    metric="latency" if unit in ("ms", "s") else "throughput",
                    nodes=int(row.get("Nodes") or 1),
                    submitter=_slug(row["Submitter"]),
                    inferred=bool(row.get("inferred")),
                    measured_by="mlcommons",
                    capped="Power Cap" in row["Accelerator"],
                    system=rec.get("system_id"),
                    ran_on=tuple(rec["accelerator_ids"]),
                    chips=tuple(record.chip(a) for a in rec["accelerator_ids"]),
                    count=rec.get("accelerator_count"),
                    platform=row["System"].strip(),
                    host=row.get("Processor"),
                    spelling=row.get("Accelerator"),
                )
            )
    from_summary = _load_v61(raw, record, claims)
    for cid, rec in claims.items():
        if rec.get("mlperf_result_id") or cid in from_summary or "value" not in rec:
            continue
        suite = suites.get(rec["suite_id"], {})
        types = rec.get("system_type") or []
        record.results.append(
            Result(
                claim=cid,
                suite=rec["suite_id"],
                version=str(suite.get("version", "")),
                family=suite.get("family", ""),
                division=rec.get("division"),
                system_types=frozenset([types] if isinstance(types, str) else types),
                availability=rec.get("availability"),
                model=rec["model_id"],
                tier=rec.get("accuracy_target"),
                scenario=rec["scenario"],
                value=Decimal(str(rec["value"])),
                unit=rec["unit"],
                metric=rec["metric"],
                nodes=rec.get("node_count"),
                submitter=rec.get("submitter_id"),
                inferred=rec.get("inferred"),
                measured_by=rec["measured_by"],
                capped="cap" in rec.get("clock_state", "").lower(),
                system=rec.get("system_id"),
                ran_on=tuple(rec.get("accelerator_ids", [])),
                chips=tuple(record.chip(a) for a in rec.get("accelerator_ids", [])),
                count=rec.get("accelerator_count"),
                per_accelerator_stated=Decimal(str(rec["value"])) if rec.get("scope") == "per-accelerator" else None,
            )
        )
    record.results[:] = [replace(r, cpu_only=record.is_cpu(r)) for r in record.results]
    return record


#: v6.1's lower-case scenario names and renamed benchmarks (its summary.json is not v6.0's summary_results.json)
V61_SCENARIOS = {k.lower(): k for k in SCENARIOS}
V61_MODELS = {"llama3_1-8b": "llama3.1-8b", "resnet50": "resnet"}


def _load_v61(raw: Path, record: Record, claims: dict) -> set[str]:
    """The v6.1 results read from its summary.json (rows keyed by number, no public ids: a result is named
    by division, submitter, platform, benchmark and scenario); the claim ids it covers."""
    path = raw / "mlperf_inference_v6.1" / "summary.json"
    if not path.is_file():
        return set()
    data = json.loads(path.read_text())
    covered: set[str] = set()
    for key in sorted(data, key=int):
        row = data[key]
        unit = UNITS.get(row["Units"])
        if unit is None:  # (a unit benchkg does not read: none in v6.1)
            continue
        name = V61_MODELS.get(row["Model"], row["Model"])
        scenario_name = V61_SCENARIOS[row["Scenario"].lower()]
        stem = _slug(f"mlperf-6.1-{row['Division']}-{row['Organization']}-{row['Platform']}-{name}-{scenario_name}")
        claim, n = stem, 2
        while claim in covered:
            claim, n = f"{stem}-{n}", n + 1
        covered.add(claim)
        rec = claims[claim]
        model, tier, scenario = _model_and_tier(name)
        record.results.append(
            Result(
                claim=claim,
                suite="mlperf-inference-v6.1",
                version="6.1",
                family="mlperf-inference",
                division=row["Division"],
                system_types=frozenset([row["SystemType"]]),
                availability=row["Availability"],
                model=model,
                tier=tier,
                scenario=scenario or SCENARIOS[scenario_name],
                value=Decimal(str(row["Result"])),
                unit=unit,
                metric="latency" if unit in ("ms", "s") else "throughput",
                nodes=int(row.get("number_of_nodes") or 1),
                submitter=_slug(row["Organization"]),
                inferred=bool(row.get("inferred")),
                measured_by="mlcommons",
                capped="Power Cap" in (row.get("accelerator_model_name") or ""),
                system=rec.get("system_id"),
                ran_on=tuple(rec["accelerator_ids"]),
                chips=tuple(record.chip(a) for a in rec["accelerator_ids"]),
                count=rec.get("accelerator_count"),
                platform=row["SystemName"].strip(),
                host=row.get("host_processor_model_name"),
                spelling=row.get("accelerator_model_name"),
            )
        )
    return covered


SLICE_DEFAULTS = {  # the defaults each saved query's "#+ slice:" line gives (the README documents them)
    "leaderboard": {
        "model": "llama2-70b",
        "scenario": "server",
        "division": "closed",
        "accuracy": "99",
        "system_type": "datacenter",
        "unit": "auto",
    },
    "best-per-accelerator": {
        "suite": "mlperf-inference-v6.0",
        "model": "llama2-70b",
        "scenario": "offline",
        "division": "closed",
        "accuracy": "99",
        "system_type": "datacenter",
        "unit": "auto",
    },
    "round-over-round": {
        "accelerator": "nvidia-gb200-nvl72",
        "model": "llama2-70b",
        "scenario": "offline",
        "division": "closed",
        "accuracy": "99",
        "unit": "auto",
    },
    "submitters-per-round": {"family": "mlperf-inference"},
    "new-in-round": {"suite": "mlperf-inference-v6.0"},
    "preview-to-available": {"family": "mlperf-inference"},
    "vendor-vs-audited": {},
    "server-vs-offline": {},
    "capped-vs-uncapped": {"division": "closed", "accuracy": "99"},
    "open-vs-closed": {"model": "llama2-70b", "scenario": "offline", "accuracy": "99", "unit": "auto"},
    "tokens-per-bandwidth": {"division": "closed", "accuracy": "99"},
    "per-watt-of-tdp": {
        "model": "llama2-70b",
        "scenario": "offline",
        "division": "closed",
        "accuracy": "99",
        "system_type": "datacenter",
        "unit": "auto",
    },
}


def chip_family(record: Record, accelerator: str, merge: bool) -> set[str]:
    """The chips an ``accelerator`` slice matches, read at the chip (and the base part, merged)."""
    chip = record.chip(accelerator)
    return {record.base(chip)} if merge else {chip}


def matches(record: Record, r: Result, s: dict) -> bool:
    """Whether result ``r`` is in slice ``s`` (values as typed; absent or "any": no filter)."""

    def want(name):
        v = s.get(name)
        return None if v in (None, "any", "auto") else v

    for name, have in (
        ("suite", r.suite),
        ("family", r.family),
        ("model", r.model),
        ("scenario", r.scenario),
        ("availability", r.availability),
        ("unit", r.unit),
    ):
        if want(name) is not None and have != want(name):
            return False
    if want("submitter") and r.submitter != _slug(want("submitter")):  # "ORACLE" is the organisation oracle
        return False
    # a result that states no tier passes a tier only when no result of its model states one (issue 41)
    if want("accuracy") and r.tier != want("accuracy") and (r.tier is not None or r.model in record.tiered_models):
        return False
    if want("division") and r.division not in (None, want("division")):
        return False
    if want("system_type") and r.system_types and want("system_type") not in r.system_types:
        return False
    if want("inferred") is not None and bool(r.inferred) != (want("inferred") == "true"):
        return False
    if want("accelerator_count") and r.count != int(want("accelerator_count")):
        return False
    if want("min_accelerators") and (r.count or 0) < int(want("min_accelerators")):
        return False
    if want("max_accelerators") and (r.count or 0) > int(want("max_accelerators")):
        return False
    if want("node_count") and r.nodes != int(want("node_count")):
        return False
    if want("accelerator"):
        merge = s.get("merge_variants") == "true"
        family = chip_family(record, want("accelerator"), merge)
        if not any((record.base(c) if merge else c) in family for c in r.chips):
            return False
    return True


def sliced(record: Record, query: str, params: dict) -> list[Result]:
    """The results of the slice a query answers with these parameters (its defaults filled in, ``auto``
    settled as the unit most of them are in)."""
    s = {**SLICE_DEFAULTS[query], **params}
    found = [r for r in record.results if matches(record, r, {**s, "unit": "any"})]
    if s.get("unit") == "auto":
        counts: dict[str, int] = {}
        for r in found:
            counts[r.unit] = counts.get(r.unit, 0) + 1
        s["unit"] = min(counts, key=lambda u: (-counts[u], u)) if counts else "any"
    return [r for r in found if matches(record, r, s)]


def q(value: Decimal | None, places: int = 4) -> Decimal | None:
    """A value rounded as the queries round it (half up)."""
    return None if value is None else value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


# ---------------------------------------------------------------- the questions


def leaderboard(record: Record, params: dict) -> list[tuple]:
    """(claim, per_accelerator, value) best first: lower-is-better units by value, the rest by the
    per-accelerator value (or the stated value with sort=total), rows without one last."""
    rows = sliced(record, "leaderboard", {k: v for k, v in params.items() if k != "sort"})
    total = params.get("sort") == "total"

    def key(r: Result):
        if r.unit in LOWER_IS_BETTER:
            return (0, r.value, r.claim)
        k = r.value if total else r.per_accelerator
        return (1 if k is not None else 2, -(k if k is not None else r.value), r.claim)

    return [(r.claim, r.per_accelerator, r.value) for r in sorted(rows, key=key)]


def best_per_accelerator(record: Record, params: dict) -> dict[str, Decimal]:
    """chip (or base part, merged) -> its best score: one chip only, no CPU-only result."""
    merge = params.get("merge_variants") == "true"
    best: dict[str, Decimal] = {}
    for r in sliced(record, "best-per-accelerator", params):
        if not r.single_chip or record.is_cpu(r) or r.score is None:
            continue
        chip = record.base(r.chips[0]) if merge else r.chips[0]
        best[chip] = max(best.get(chip, r.score), r.score)
    return best


def round_over_round(record: Record, params: dict) -> tuple[dict[str, Decimal], list[str]]:
    """(version -> the best score of the round, the audited rounds of the family with no result)."""
    best: dict[str, Decimal] = {}
    for r in sliced(record, "round-over-round", params):
        if r.single_chip and r.score is not None:
            best[r.version] = max(best.get(r.version, r.score), r.score)
    audited = {r.version for r in record.results if r.measured_by == "mlcommons" and r.family == "mlperf-inference"}
    return best, sorted(audited - set(best))


def submitters_per_round(record: Record, params: dict) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for r in sliced(record, "submitters-per-round", params):
        if r.measured_by != "mlcommons":  # a vendor's restatement is no result of the round (issue 62)
            continue
        row = out.setdefault(
            r.suite,
            {
                "submitters": set(),
                "systems": set(),
                "results": 0,
                "cpu_only_results": 0,
                "closed_results": 0,
                "open_results": 0,
            },
        )
        row["submitters"] |= {r.submitter} - {None}
        row["systems"] |= {r.system} - {None}
        row["results"] += 1
        row["cpu_only_results"] += record.is_cpu(r)
        row["closed_results"] += r.division == "closed"
        row["open_results"] += r.division == "open"
    return {suite: {k: len(v) if isinstance(v, set) else v for k, v in row.items()} for suite, row in out.items()}


def new_in_round(record: Record, params: dict) -> dict[tuple, tuple]:
    """(model, scenario) -> (results, submitters) of the round's benchmarks no earlier round had."""
    first: dict[tuple, str] = {}
    for r in record.results:
        key = (r.model, r.scenario, r.family)
        first[key] = min(first.get(key, r.version), r.version, key=lambda v: tuple(map(int, v.split("."))))
    out: dict[tuple, list] = {}
    for r in sliced(record, "new-in-round", params):
        if first[(r.model, r.scenario, r.family)] == r.version:
            entry = out.setdefault((r.model, r.scenario), [0, set()])
            entry[0] += 1
            entry[1] |= {r.submitter} - {None}
    return {k: (n, len(subs)) for k, (n, subs) in out.items()}


def preview_to_available(record: Record, params: dict) -> dict[tuple, tuple]:
    """(submitter, chip, version) -> (preview results, next version, availabilities there, results there)."""
    audited = sorted(
        {r.version for r in record.results if r.measured_by == "mlcommons" and r.family == "mlperf-inference"},
        key=lambda v: tuple(map(int, v.split("."))),
    )
    previews: dict[tuple, int] = {}
    for r in sliced(record, "preview-to-available", params):
        if r.availability == "preview":
            for chip in set(r.chips):
                previews[(r.submitter, chip, r.version)] = previews.get((r.submitter, chip, r.version), 0) + 1
    out = {}
    for (submitter, chip, version), n in previews.items():
        later = [v for v in audited if tuple(map(int, v.split("."))) > tuple(map(int, version.split(".")))]
        nxt = later[0] if later else None
        there = [r for r in record.results if nxt and r.version == nxt and r.submitter == submitter and chip in r.chips]
        kinds = " ".join(sorted({r.availability for r in there})) if there else ("no result" if nxt else None)
        out[(submitter, chip, version)] = (n, nxt, kinds, len(there) if there else None)
    return out


def vendor_vs_audited(record: Record, params: dict) -> dict[str, tuple]:
    """vendor claim -> (audited per-accelerator best of the claim's round (issue 60: a round without the
    benchmark has none) at the nearest (the vendor's own result, then the nearest count), or at any count, or
    at the same; the ratio)."""
    mode = params.get("count", "nearest")
    s = {**SLICE_DEFAULTS["vendor-vs-audited"], **{k: v for k, v in params.items() if k != "count"}}
    out = {}
    for v in (r for r in record.results if r.measured_by == "vendor" and matches(record, r, s)):
        vpa = v.per_accelerator
        if vpa is None:
            continue
        pairs = []
        for a in record.results:
            if a.measured_by != "mlcommons" or a.model != v.model or a.scenario != v.scenario or a.unit != v.unit:
                continue
            if a.suite != v.suite:
                continue
            if not a.single_chip or a.chips[0] not in v.chips or a.per_accelerator is None:
                continue
            if v.division and a.division != v.division:
                continue
            if (a.tier or "99") != (v.tier or s.get("accuracy") or a.tier or "99"):
                continue
            times = Decimal(1) if mode == "any" else max(a.count, v.count) / Decimal(min(a.count, v.count))
            if mode == "same" and times != 1:
                continue
            # nearest first: the same round, then the vendor's own audited result, then the nearest scale
            distance = times
            if mode != "any":
                distance += (0 if a.suite == v.suite else 1000000) + (
                    0 if v.submitter and a.submitter == v.submitter else 10000
                )
                distance += Decimal("0.0001") if a.tier == "99.9" else 0  # a tie between tiers: 99 first
            pairs.append((distance, a))
        if pairs:
            nearest = min(d for d, _ in pairs)
            best = max(a.per_accelerator for d, a in pairs if d == nearest)
            out[v.claim] = (best, q(vpa / best))
    return out


def server_vs_offline(record: Record, params: dict) -> dict[tuple, Decimal]:
    """(server claim, offline claim) -> server ÷ offline, for the same system, count, model, tier,
    division, round and unit."""
    rows = sliced(record, "server-vs-offline", params)

    def key(r: Result) -> tuple:
        return (r.system, r.count, r.model, r.tier, r.division, r.suite, r.unit)

    offline: dict[tuple, list[Result]] = {}
    for r in rows:
        if r.scenario == "offline" and r.system:
            offline.setdefault(key(r), []).append(r)
    return {
        (r.claim, o.claim): q(r.value / o.value)
        for r in rows
        if r.scenario == "server"
        for o in offline.get(key(r), [])
    }


def capped_vs_uncapped(record: Record, params: dict) -> dict[str, tuple]:
    """capped claim -> (best uncapped per accelerator of the same server (submitter, chip and count; any
    submitter's with across_submitters=true), round, model, scenario, unit, division and tier; the ratio)."""
    out = {}
    across = params.get("across_submitters") == "true"
    rows = sliced(record, "capped-vs-uncapped", params)
    for c in (r for r in rows if r.capped and r.single_chip and r.per_accelerator is not None):
        peers = [
            u.per_accelerator
            for u in record.results
            if not u.capped
            and u.single_chip
            and u.chips[0] == c.chips[0]
            and (across or (u.submitter, u.count) == (c.submitter, c.count))
            and (u.suite, u.model, u.scenario, u.unit, u.division, u.tier)
            == (c.suite, c.model, c.scenario, c.unit, c.division, c.tier)
            and u.per_accelerator is not None
        ]
        if peers:
            out[c.claim] = (max(peers), q(c.per_accelerator / max(peers)))
    return out


def open_vs_closed(record: Record, params: dict) -> dict[tuple, tuple]:
    """(chip, submitter, suite) -> (best open, best closed, open ÷ closed), best by score; the submitter is
    "any" with across_submitters=true (and "-" for a result that names none)."""
    best: dict[tuple, Decimal] = {}
    across = params.get("across_submitters") == "true"
    s = {**params, "division": "any"}
    for r in sliced(record, "open-vs-closed", s):
        if r.single_chip and r.score is not None and r.division in ("open", "closed"):
            key = (r.chips[0], "any" if across else (r.submitter or "-"), r.suite, r.division)
            best[key] = max(best.get(key, r.score), r.score)
    out = {}
    for (chip, submitter, suite, division), score in best.items():
        if division == "open" and (chip, submitter, suite, "closed") in best:
            o, c = abs(score), abs(best[(chip, submitter, suite, "closed")])
            out[(chip, submitter, suite)] = (o, c, q(o / c))
    return out


def per_chip_rate(record: Record, query: str, params: dict, field_: str, places: int) -> dict[str, Decimal]:
    """claim -> per-accelerator value ÷ the chip record's ``field_`` (bandwidth: the rack's where the
    chip gives none; TDP), rounded."""
    out = {}
    for r in sliced(record, query, params):
        if not r.single_chip or len(set(r.ran_on)) != 1 or r.per_accelerator is None:
            continue
        rate = record.chips.get(r.chips[0], {}).get(field_)
        if field_ == "memory_bandwidth_tbs":
            rate = rate or record.chips.get(r.ran_on[0], {}).get(field_)
        if rate and (r.unit == "tokens/s" if query == "tokens-per-bandwidth" else r.metric == "throughput"):
            out[r.claim] = q(r.per_accelerator / Decimal(str(rate)), places)
    return out


# --- the results algebra's questions (issue 31), each computed from the summaries' own rows


def _best(rows) -> Decimal:
    return max(r.value for r in rows)


def paired(record: Record, dim: str, a: str, b: str, model: str | None = None) -> dict[tuple, tuple]:
    """(submitter, platform, model, tier, scenario, round, division, unit) less ``dim`` -> (best a, best b)
    of the audited throughput results, for the keys both sides have."""
    names = ("submitter", "platform", "model", "tier", "scenario", "version", "division", "unit")
    sides: dict[str, dict[tuple, list]] = {a: {}, b: {}}
    for r in record.results:
        if r.measured_by != "mlcommons" or r.metric != "throughput" or (model and r.model != model):
            continue
        side = getattr(r, dim)
        if side in sides:
            key = tuple(getattr(r, n) or "" for n in names if n != dim)
            sides[side].setdefault(key, []).append(r)
    both = sides[a].keys() & sides[b].keys()
    return {k: (_best(sides[a][k]), _best(sides[b][k])) for k in both}


def host_vendor(text: str | None) -> str | None:
    """The host processor's maker, read as benchkg's host_cpu_vendor column reads it."""
    if not text:
        return None
    for vendor, pattern in (
        ("intel", "xeon|intel"),
        ("amd", "epyc|amd|ryzen"),
        ("nvidia", "grace|vera|nvidia"),
        ("ampere", "ampere|altra"),
        ("aws", "graviton"),
        ("arm", "arm|neoverse|aarch64|cortex"),
        ("ibm", "power"),
    ):
        if re.search(pattern, text, re.I):
            return vendor
    return "other"


def submitters_only_in(record: Record, a: str, b: str) -> set[str]:
    """The submitters with a result in round ``a`` and none in round ``b``."""
    by_round: dict[str, set] = {}
    for r in record.results:
        by_round.setdefault(r.version, set()).add(r.submitter)
    return by_round.get(a, set()) - by_round.get(b, set())
