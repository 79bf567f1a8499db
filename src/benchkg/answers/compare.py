"""Whether two claims can be compared, every difference, and the gotchas that apply, in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from benchkg.answers.caveats import pair_caveats
from benchkg.answers.disclosure import _QUERY, TRADEMARK, describe
from benchkg.answers.queries import run_query
from benchkg.answers.results import format_number, short, wrap
from benchkg.answers.verdicts import claim_verdict
from benchkg.graph.backend import backend_of
from benchkg.kernel.errors import UsageError
from benchkg.kernel.vocab import DEFAULT_BASE, record_iri

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
    values: dict[str, dict[str, str]] = field(default_factory=dict)  # "a"/"b" -> value, unit, per_accelerator, derived
    caveats: list = field(
        default_factory=list
    )  # the comparison caveats the pair triggers (benchkg.answers.caveats.Caveat)
    claim_caveats: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # claim -> (id, severity, title)
    disclosures: dict[str, str] = field(default_factory=dict)  # "a"/"b" -> its disclosure (benchkg.answers.disclosure)
    audited: dict[str, str] = field(default_factory=dict)  # "a"/"b" (a vendor claim) -> its verdict, as show says it

    def slide_note(self) -> str:
        """One paragraph to paste under a slide that shows the two numbers: each with its disclosure and
        value, the per-accelerator ratio marked as derived, what differs, and the MLPerf trademark line
        where an MLPerf result is shown."""

        parts = []
        for key in "ab":
            v = self.values.get(key, {})
            number = f"{format_number(v.get('value', ''))} {v.get('unit', '')}".strip()
            parts.append(f"({key}) {number}: {self.disclosures.get(key, '').rstrip('.')}.")
        ratio = self.ratio()
        if ratio:
            parts.append(
                f"a ÷ b = {ratio.split(' (')[0]} "
                + (
                    "per accelerator, derived by dividing each result by its accelerator count: not a primary "
                    "MLPerf metric."
                    if "per accelerator" in ratio
                    else "as stated."
                )
            )
        if self.differences:
            parts.append("They differ in " + ", ".join(d[0] for d in self.differences) + ".")
        if any(text.startswith("MLPerf") for text in self.disclosures.values()):
            parts.append(TRADEMARK)
        return " ".join(parts)

    def ratio(self) -> str:
        """a ÷ b per accelerator (or as stated when neither has a per-accelerator value), or ""."""
        key = "per_accelerator" if all(self.values.get(k, {}).get("per_accelerator") for k in "ab") else "value"
        a, b = (self.values.get(k, {}).get(key) for k in "ab")
        if not a or not b or Decimal(b) == 0:
            return ""
        what = "per accelerator" if key == "per_accelerator" else "as stated"
        return f"{(Decimal(a) / Decimal(b)).quantize(Decimal('0.001'))} ({what}; a ÷ b)"

    def text(self) -> str:
        lines = [f"{self.a}\n  vs\n{self.b}", "", self.verdict]
        if self.values:
            lines += ["", "Values:"]
            for key, claim in (("a", self.a), ("b", self.b)):
                v = self.values.get(key, {})
                per = (
                    f"; per accelerator {format_number(v['per_accelerator'])}"
                    + (
                        " (derived: value ÷ accelerator count, not an official metric)"
                        if v.get("derived") == "true"
                        else ""
                    )
                    if v.get("per_accelerator")
                    else ""
                )
                lines.append(f"  {key}: {format_number(v.get('value', '')) or '(no value)'} {v.get('unit', '')}{per}")
            ratio = self.ratio()
            if ratio:
                lines.append(f"  ratio: {ratio}")
        if self.audited:
            lines += ["", "Against the audited record (benchkg show says the same):"]
            lines += [f"  {key}: {line}" for key, line in sorted(self.audited.items())]
        if self.differences:
            lines += ["", "Differences:"]
            lines += [
                f"  - {aspect}: {av or '(not stated)'} vs {bv or '(not stated)'} — {why}"
                for aspect, av, bv, why in self.differences
            ]
        lines += ["", "Caveats this pair triggers:"]
        lines += [f"  - {c.text()}. {c.statement}" for c in self.caveats] or ["  none"]
        for key, claim in (("a", self.a), ("b", self.b)):
            mine = self.claim_caveats.get(claim, [])
            lines += ["", f"Caveats of {key} alone:"]
            lines += [f"  - [{sev}] {gid}: {title}" for gid, sev, title in mine] or ["  none"]
        if self.disclosures:
            lines += ["", "For a slide (MLPerf results-messaging guidelines):", wrap(self.slide_note(), indent="")]
        return "\n".join(lines)


def compare_claims(backend, a: str, b: str, base: str = DEFAULT_BASE) -> Comparison:
    """Compare two claims by id: their values and ratio, every difference, the comparison caveats
    the pair triggers and the caveats of each claim alone.

    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> store = build_graph(ROOT / "data").store
    >>> c = compare_claims(store, "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server",
    ...                    "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-offline")
    >>> c.verdict.split(":")[0], [d[0] for d in c.differences], [k.gotcha for k in c.caveats]
    ('Not comparable', ['verification', 'scenario', 'format'], ['scenarios-load-systems-differently'])
    >>> c.ratio()
    '1.019 (per accelerator; a ÷ b)'

    :raises UsageError: if either id is not a claim.
    """

    backend = backend_of(backend)
    rows = run_query(backend, "comparability", {"a": a, "b": b}, base=base).rows
    differences = []
    for row in rows:
        if row["same"].value == "true":
            continue
        aspect = row["aspect"].value
        differences.append((aspect, short(row.get("a_value")), short(row.get("b_value")), WHY[aspect]))
    aspects = {d[0] for d in differences}
    if "accelerator" in aspects and "base chip" not in aspects:
        differences = [
            (aspect, av, bv, VARIANTS if aspect == "accelerator" else why) for aspect, av, bv, why in differences
        ]
    differences = [d for d in differences if d[0] != "base chip"]
    blocking = [d[0] for d in differences if d[0] in BLOCKING]
    if blocking:
        verdict = f"Not comparable: they differ in {', '.join(blocking)}."
    elif differences:
        verdict = "Comparable only with these differences disclosed (MLPerf results-messaging guidelines)."
    else:
        verdict = "Comparable: same suite, round, division, scenario, model, scale and unit."
    ia, ib = record_iri(base, "benchmarks", a), record_iri(base, "benchmarks", b)
    values = {}
    for key, iri in (("a", ia), ("b", ib)):
        found = backend.results(
            f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
            PREFIX qudt: <http://qudt.org/schema/qudt/>
            SELECT ?value ?unit ?per_accelerator ?derived WHERE {{ <{iri}> bk:result ?r .
              ?r qudt:value ?value ; bk:scope ?scope . OPTIONAL {{ ?r qudt:hasUnit ?unit }}
              OPTIONAL {{ <{iri}> bk:perAcceleratorValue ?per_accelerator }}
              BIND (BOUND(?per_accelerator) && ?scope != bk:scope-per-accelerator AS ?derived) }}""",
        ).rows
        if found:
            values[key] = {k: short(v) if k == "unit" else v.value for k, v in found[0].items()}
    mine = backend.results(
        f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT DISTINCT ?claim ?g ?severity ?title WHERE {{ VALUES ?claim {{ <{ia}> <{ib}> }}
          ?claim bk:caveat ?g . ?g rdfs:label ?title . OPTIONAL {{ ?g bk:severity ?severity }}
          BIND (COALESCE(IF(?severity = bk:severity-critical, 0, IF(?severity = bk:severity-caution, 1, 2)), 3) AS ?rank)
        }} ORDER BY ?rank ?g""",
    ).rows
    claim_caveats: dict[str, list] = {}
    for row in mine:
        name = a if row["claim"].value == ia else b
        claim_caveats.setdefault(name, []).append((short(row["g"]), short(row.get("severity")), row["title"].value))
    caveats = pair_caveats(backend.select, [(ia, ib)])
    for c in caveats:
        c.pairs = None  # one pair: "in 1 of 1 pairs" says nothing
    gotchas = [(c.gotcha, c.severity, c.title, c.statement) for c in caveats]

    found = {r["c"]: r for r in backend.select(_QUERY % f"<{ia}> <{ib}>")}
    disclosures = {key: describe(found.get(iri, {})) for key, iri in (("a", ia), ("b", ib))}
    audited = {}
    for key, iri in (("a", ia), ("b", ib)):
        judged = claim_verdict(backend, iri)
        if judged is not None:
            audited[key] = judged.line
    return Comparison(a, b, verdict, differences, gotchas, values, caveats, claim_caveats, disclosures, audited)


def check_claims_exist(backend, ids: list[str], base: str = DEFAULT_BASE) -> None:
    """:raises UsageError: naming any id that is not a claim in the store."""
    backend = backend_of(backend)

    for claim in ids:
        iri = record_iri(base, "benchmarks", claim)
        if not backend.results(f"SELECT ?t WHERE {{ <{iri}> a ?t }}").rows:
            raise UsageError(f"{claim!r} is not a claim in data/benchmarks/; `benchkg query leaderboard` lists claims")
