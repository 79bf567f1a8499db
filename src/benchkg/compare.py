"""Whether two claims can be compared, every difference, and the gotchas that apply, in words."""
from __future__ import annotations

from dataclasses import dataclass, field

from .queries import run_query, run_sparql
from .results import short
from .vocab import DEFAULT_BASE, record_iri

#: aspects whose difference makes two numbers measure different things
BLOCKING = {"suite family", "scenario", "model", "unit"}
WHY = {
    "suite": "different suites",
    "suite family": "different benchmark families measure in different ways",
    "suite version": "different rounds: rules, software and sometimes models change between versions",
    "division": "closed and open results do not compare directly",
    "system type": "datacenter and edge systems run under different rules",
    "verification": "one is verified and the other is not",
    "scenario": "different scenarios load the system differently; compare only the same scenario",
    "accelerator count": "different scale: compare per accelerator only, and a per-accelerator value derived from an aggregate is not an official metric",
    "accelerator": "different hardware",
    "base chip": "different chips",
    "system": "different systems: disclose the scale and configuration of each",
    "model": "different models: the numbers measure different work",
    "accuracy target": "different accuracy tiers (99 vs 99.9)",
    "format": "different weight formats: both may be legal, but not like for like",
    "measured by": "different measurers: a vendor's own number is not an audited result",
    "unit": "different units: not the same quantity",
    "scope": "one number is for the whole system, the other per accelerator or user",
}


VARIANTS = "variants of one chip: the same silicon under other limits or packaging; compare knowingly"


@dataclass
class Comparison:
    """The outcome of comparing two claims."""

    a: str
    b: str
    verdict: str
    differences: list[tuple[str, str, str, str]] = field(default_factory=list)  # aspect, a, b, why
    gotchas: list[tuple[str, str, str, str]] = field(default_factory=list)  # id, severity, title, statement

    def text(self) -> str:
        lines = [f"{self.a}\n  vs\n{self.b}", "", self.verdict]
        if self.differences:
            lines += ["", "Differences:"]
            lines += [f"  - {aspect}: {av or '(not stated)'} vs {bv or '(not stated)'} — {why}"
                      for aspect, av, bv, why in self.differences]
        lines += ["", "Gotchas that apply:"]
        lines += [f"  - [{sev}] {gid}: {title}. {statement}" for gid, sev, title, statement in self.gotchas] or ["  none"]
        return "\n".join(lines)


def compare_claims(store, a: str, b: str, base: str = DEFAULT_BASE) -> Comparison:
    """Compare two claims by id.

    >>> from benchkg.store import build_graph
    >>> from benchkg.resources import ROOT
    >>> store = build_graph(ROOT / "data", persist=False).store
    >>> c = compare_claims(store, "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server",
    ...                    "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-offline")
    >>> c.verdict.split(":")[0], [d[0] for d in c.differences]
    ('Not comparable', ['verification', 'scenario', 'format'])

    :raises UsageError: if either id is not a claim.
    """
    rows = run_query(store, "comparability", {"a": a, "b": b}, base=base).rows
    differences = []
    for row in rows:
        if row["same"].value == "true":
            continue
        aspect = row["aspect"].value
        differences.append((aspect, short(row.get("a_value")), short(row.get("b_value")), WHY[aspect]))
    aspects = {d[0] for d in differences}
    if "accelerator" in aspects and "base chip" not in aspects:
        differences = [(aspect, av, bv, VARIANTS if aspect == "accelerator" else why)
                       for aspect, av, bv, why in differences]
    differences = [d for d in differences if d[0] != "base chip"]
    blocking = [d[0] for d in differences if d[0] in BLOCKING]
    if blocking:
        verdict = f"Not comparable: they differ in {', '.join(blocking)}."
    elif differences:
        verdict = "Comparable only with these differences disclosed (MLPerf results-messaging guidelines)."
    else:
        verdict = "Comparable: same suite, round, division, scenario, model, scale and unit."
    gotchas = run_sparql(store, f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT DISTINCT ?g ?severity ?title ?statement WHERE {{
          {{ <{record_iri(base, 'benchmarks', a)}> bk:caveat ?g }} UNION {{ <{record_iri(base, 'benchmarks', b)}> bk:caveat ?g }}
          ?g rdfs:label ?title . OPTIONAL {{ ?g bk:severity ?severity }} OPTIONAL {{ ?g bk:statement ?statement }}
          BIND (COALESCE(IF(?severity = bk:severity-critical, 0, IF(?severity = bk:severity-caution, 1, 2)), 3) AS ?rank)
        }} ORDER BY ?rank ?g""").rows
    return Comparison(a, b, verdict, differences,
                      [(short(g["g"]), short(g.get("severity")), g["title"].value,
                        g["statement"].value if "statement" in g else "") for g in gotchas])


def check_claims_exist(store, ids: list[str], base: str = DEFAULT_BASE) -> None:
    """:raises UsageError: naming any id that is not a claim in the store."""
    from .errors import UsageError

    for claim in ids:
        iri = record_iri(base, "benchmarks", claim)
        if not run_sparql(store, f"SELECT ?t WHERE {{ <{iri}> a ?t }}").rows:
            raise UsageError(f"{claim!r} is not a claim in data/benchmarks/; `benchkg query leaderboard` lists claims")
