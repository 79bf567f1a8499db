"""Comparison caveats (docs/conventions.md, convention 4): the gotchas that apply to a *set* of claims compared together.

A gotcha with ``compares: {dimension, between}`` applies to the claims of one answer — a pair in
``compare``, the rows of a ranking, a chart — when they differ in that dimension (and, if it names
values, when at least two of the named values are among them). It is reported once per answer with
how the claims split ("format: fp4 1 claim, fp8 3 claims"), never on a row: a caveat on every row
warns about nothing. Two stated values must differ: a claim that states none (a vendor claim without
an accuracy tier) is counted in the split but triggers nothing by itself. Claim caveats and finding caveats, which do apply to single claims, are the
``bk:caveat`` links the build derives.

Everything here is SPARQL over the graph, so it answers the same embedded and over ``--endpoint``.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Callable, Iterable

from benchkg.answers.results import wrap
from benchkg.answers.savedquery import ANY
from benchkg.graph.mapping import read_comparison_values
from benchkg.kernel.vocab import COMPARISON_DIMENSIONS, THROUGH_OTHER_RECORDS, curator_name

#: dimension -> the property path from a claim to its value in that dimension
DIMENSIONS = COMPARISON_DIMENSIONS
NOT_STATED = "(not stated)"
#: the values of a claim that states none in a dimension (one for every such claim)
NONE_STATED = frozenset({NOT_STATED})
#: the dimensions where stating nothing is a value of its own: a run that states no clock state ran at
#: the default clocks (MLPerf writes a cap into the accelerator's name), so it differs from a capped run
_ABSENCE_IS_A_VALUE = ("clock-state",)
_PREFIXES = (
    "PREFIX bk: <https://w3id.org/benchkg/ontology#>\nPREFIX qudt: <http://qudt.org/schema/qudt/>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
)
_SEVERITY_ORDER = {"critical": 0, "caution": 1, "info": 2}


@dataclass
class Caveat:
    """A comparison caveat an answer triggers, with how its claims split in the dimension."""

    gotcha: str
    severity: str
    title: str
    statement: str
    dimension: str
    split: list[tuple[str, int]] = field(default_factory=list)  # (value, claims), most first
    pairs: tuple[int, int] | None = None  # (pairs it touches, pairs in the answer), for pair answers

    def text(self) -> str:
        """One line: ``[critical] id: title — dimension: a 3 claims, b 1 claim``."""
        parts = ", ".join(f"{value} {n} claim{'s' if n != 1 else ''}" for value, n in self.split)
        where = f" (in {self.pairs[0]} of {self.pairs[1]} pairs)" if self.pairs else ""
        return f"[{self.severity}] {self.gotcha}: {self.title} — {self.dimension}: {parts}{where}"


def comparison_gotchas(select: Callable[[str], list[dict]]) -> list[dict]:
    """Every comparison gotcha: id, severity, title, statement, dimension and named values."""
    rows = select(
        _PREFIXES
        + """SELECT ?g ?severity ?title ?statement ?dimension ?between ?metric WHERE {
        ?g a bk:Gotcha ; bk:compares ?rule ; rdfs:label ?title .
        ?rule bk:dimension ?dimension .
        OPTIONAL { ?g bk:severity ?severity } OPTIONAL { ?g bk:statement ?statement }
        OPTIONAL { ?rule bk:betweenValue ?between } OPTIONAL { ?rule bk:comparesMetric ?metric } } ORDER BY ?g ?between"""
    )
    out: dict[str, dict] = {}
    for row in rows:
        g = out.setdefault(
            row["g"],
            {
                "gotcha": curator_name(row["g"]),
                "severity": curator_name(row.get("severity", "")),
                "title": row["title"],
                "statement": row.get("statement", ""),
                "dimension": curator_name(row["dimension"]),
                "between": [],
                "metrics": [],
            },
        )
        if row.get("between") and row["between"] not in g["between"]:
            g["between"].append(row["between"])
        if row.get("metric") and curator_name(row["metric"]) not in g["metrics"]:
            g["metrics"].append(curator_name(row["metric"]))
    return list(out.values())


def _of_metrics(select, claims: list[str], metrics: list[str], cache: dict) -> AbstractSet[str]:
    """The claims (of ``claims``) whose headline metric is one of ``metrics`` (all when none is named)."""
    if not metrics:
        return set(claims)
    values = _cached(cache, select, claims, "metric")
    return {c for c, vs in values.items() if vs & set(metrics)}


def _cached(cache: dict, select: Callable, claims, dimension: str) -> dict[str, AbstractSet[str]]:
    """:func:`claim_values` of ``dimension``, asked once per answer (several gotchas share a dimension)."""
    if dimension not in cache:
        cache[dimension] = claim_values(select, claims, dimension)
    return cache[dimension]


def all_claim_values(
    select: Callable[[str], list[dict]], claims: Iterable[str], dimensions: Iterable[str]
) -> dict[str, dict[str, AbstractSet[str]]]:
    """dimension -> :func:`claim_values` of it, read in one query, one row a claim: the values its record
    holds as the mapping wrote them (``bk:comparisonValues``, :func:`benchkg.graph.mapping.comparison_values`),
    and beside them the records' own values the others are (each suite's family: a row a suite). A claim
    without them (a store another tool wrote, or an older benchkg pushed), or with a text benchkg does not
    write, has its dimensions read in one more query, a ``UNION`` branch each. A claim that states none of
    a dimension has the one :data:`NONE_STATED` (a set for each claim and dimension was most of the memory of
    an answer over every claim: 13 dimensions of 66,567 claims at 100,000). The sets are read, never changed."""
    claims, dimensions = sorted(set(claims)), sorted(set(dimensions) & set(DIMENSIONS))
    out: dict[str, dict[str, set[str]]] = {d: {} for d in dimensions}
    if claims and dimensions:
        through = {d: THROUGH_OTHER_RECORDS[d] for d in dimensions if d in THROUGH_OTHER_RECORDS}
        others = "".join(f' UNION {{ ?claim {p} ?values BIND ("{d}" AS ?d) }}' for d, (_, p) in through.items())
        rows = select(
            _PREFIXES
            + f"SELECT ?claim ?values ?d WHERE {{ {{ VALUES ?claim {{ {' '.join(f'<{c}>' for c in claims)} }} "
            f"?claim bk:comparisonValues ?values }}{others} }}"
        )
        of_records = {
            (row["d"], curator_name(row["claim"])): curator_name(row["values"]) for row in rows if row.get("d")
        }
        read = ((row["claim"], read_comparison_values(row["values"])) for row in rows if not row.get("d"))
        mapped = {claim: own for claim, own in read if own is not None}  # (a foreign store's text: absent)
        for claim, own in mapped.items():
            for d, (named_by, _) in through.items():
                own[d] = {of_records[(d, n)] for n in own.get(named_by, ()) if (d, n) in of_records}
            for d in dimensions:
                if own.get(d):
                    out[d][claim] = own[d]
        if unread := sorted(set(claims) - set(mapped)):
            branches = " UNION ".join(f'{{ ?claim {DIMENSIONS[d]} ?v BIND ("{d}" AS ?d) }}' for d in dimensions)
            for row in select(
                _PREFIXES + f"SELECT ?claim ?d ?v WHERE {{ VALUES ?claim {{ {' '.join(f'<{c}>' for c in unread)} }} "
                f"{branches} }}"
            ):
                out[row["d"]].setdefault(row["claim"], set()).add(curator_name(row["v"]))
    return {d: {c: values.get(c) or NONE_STATED for c in claims} for d, values in out.items()}


def _prefetched(select: Callable, claims: list[str], gotchas: list[dict]) -> dict[str, dict[str, AbstractSet[str]]]:
    """The values of every dimension the ``gotchas`` read (and metric, when one names metrics)."""
    wanted = {g["dimension"] for g in gotchas} | ({"metric"} if any(g["metrics"] for g in gotchas) else set())
    return all_claim_values(select, claims, wanted)


def claim_values(
    select: Callable[[str], list[dict]], claims: Iterable[str], dimension: str
) -> dict[str, AbstractSet[str]]:
    """claim IRI -> its values (short names) in ``dimension``; a claim that states none has NOT_STATED
    (:func:`all_claim_values` of the one dimension: the same reading, the mapped values first)."""
    return all_claim_values(select, claims, [dimension])[dimension]


def stated_values(values: AbstractSet[str], dimension: str) -> AbstractSet[str]:
    """The values of ``values`` that can differ from another: a claim that states no value differs from
    none, except in a dimension where stating none is a value (:data:`_ABSENCE_IS_A_VALUE`: an uncapped
    run beside a capped one). One rule for an answer's rows and for a pair's two claims (``compare``).

    >>> sorted(stated_values({"fp4", NOT_STATED}, "format")), sorted(stated_values({"power cap 1000 W", NOT_STATED}, "clock-state"))
    (['fp4'], ['(not stated)', 'power cap 1000 W'])
    """
    return values if dimension in _ABSENCE_IS_A_VALUE else values - {NOT_STATED}


def comparison_caveats(select: Callable[[str], list[dict]], claims: Iterable[str]) -> list[Caveat]:
    """The comparison caveats a set of claims triggers, most severe first.

    ``select`` runs SPARQL SELECT text and gives rows as {variable: value text}, so the same code
    serves the embedded store and a remote endpoint.
    """
    claims = sorted(set(claims))
    found: list[Caveat] = []
    gotchas = comparison_gotchas(select)
    cache = _prefetched(select, claims, gotchas) if len(claims) >= 2 else {}
    for g in gotchas:
        dimension = g["dimension"]
        if dimension not in DIMENSIONS or len(claims) < 2:
            continue
        values = _cached(cache, select, claims, dimension)
        counted = _of_metrics(select, claims, g["metrics"], cache)
        values = {c: v for c, v in values.items() if c in counted}
        counts: dict[str, int] = {}
        for claim_values_ in values.values():
            for v in claim_values_:
                counts[v] = counts.get(v, 0) + 1
        named = set(g["between"])
        if named:
            present = named & set(counts)
            if len(present) < 2:
                continue
            split = {v: n for v, n in counts.items() if v in named}
        elif len(stated_values(set(counts), dimension)) < 2:
            continue
        else:
            split = counts
        found.append(
            Caveat(
                g["gotcha"],
                g["severity"],
                g["title"],
                g["statement"],
                dimension,
                sorted(split.items(), key=lambda kv: (-kv[1], kv[0])),
            )
        )
    return sorted(found, key=lambda c: (_SEVERITY_ORDER.get(c.severity, 3), c.gotcha))


def pair_caveats(select: Callable[[str], list[dict]], pairs: Iterable[tuple[str, str]]) -> list[Caveat]:
    """The comparison caveats of an answer whose rows are pairs (Server beside Offline, vendor beside
    audited): a caveat applies where the two claims *of a row* differ as its rule says; it is
    reported once, with how many pairs it touches and how their claims split."""
    pairs = sorted({(p[0], p[1]) for p in pairs if len(set(p)) == 2})
    claims = sorted({c for p in pairs for c in p})
    found: list[Caveat] = []
    gotchas = comparison_gotchas(select)
    cache = _prefetched(select, claims, gotchas) if pairs else {}
    for g in gotchas:
        dimension = g["dimension"]
        if dimension not in DIMENSIONS or not pairs:
            continue
        values = _cached(cache, select, claims, dimension)
        counted = _of_metrics(select, claims, g["metrics"], cache)
        named = set(g["between"])
        touched = 0
        counts: dict[str, int] = {}
        for a, b in pairs:
            if a not in counted or b not in counted:
                continue
            both = values[a] | values[b]
            if values[a] == values[b] or len(stated_values(both, dimension)) < 2 or (named and len(named & both) < 2):
                continue
            touched += 1
            for v in both & named if named else both:
                counts[v] = counts.get(v, 0) + 1
        if touched:
            caveat = Caveat(
                g["gotcha"],
                g["severity"],
                g["title"],
                g["statement"],
                dimension,
                sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])),
            )
            caveat.pairs = (touched, len(pairs))
            found.append(caveat)
    return sorted(found, key=lambda c: (_SEVERITY_ORDER.get(c.severity, 3), c.gotcha))


def answer_caveats(select: Callable[[str], list[dict]], results, columns: tuple[str, ...]) -> list[Caveat]:
    """The comparison caveats of a query's answer: across its rows, or within each row's pair when
    its ``#+ claims:`` header names two columns."""
    if len(columns) == 2:
        if results.claim_rows is not None:
            return pair_caveats(select, [r for r in results.claim_rows if None not in r])
        return pair_caveats(
            select,
            [
                (row[columns[0]].value, row[columns[1]].value)
                for row in results.rows
                if columns[0] in row and columns[1] in row
            ],
        )
    return comparison_caveats(select, answer_claims(results, columns))


def answer_claims(results, columns: Iterable[str]) -> list[str]:
    """The claim IRIs in the named columns of a query's answer (its ``#+ claims:`` header): of every
    row counted, when the answer was windowed."""
    if getattr(results, "claim_rows", None) is not None:
        return sorted({value for row in results.claim_rows for value in row if value is not None})
    return sorted({row[c].value for row in results.rows for c in columns if c in row})


def format_caveats(caveats: list[Caveat], rows: int) -> str:
    """The caveats an answer triggers, once, as lines under the table."""
    if not caveats:
        return ""

    head = f"Comparison caveats these {rows} row{'s' if rows != 1 else ''} trigger (once for the whole answer):"
    return "\n".join([wrap(head)] + [wrap(f"  {c.text()}", indent="      ") for c in caveats])


#: parameters whose defaults keep a ranking like with like, and the dimension each one fixes
LIKE_WITH_LIKE = {"unit": "unit", "accuracy": "accuracy-tier", "division": "division", "system_type": "system-type"}


def like_defaults(saved, params: dict[str, str]) -> list[str]:
    """The like-with-like parameters (:data:`LIKE_WITH_LIKE`) of ``saved`` left at a default by ``params``.

    >>> from benchkg.answers.queries import find_query
    >>> like_defaults(find_query("leaderboard"), {"division": "open"})
    ['unit', 'accuracy', 'system_type']
    """
    return [
        name
        for name in LIKE_WITH_LIKE
        if name in saved.params and name not in params and saved.params[name].default is not None
    ]


def left_out(
    saved,
    params: dict[str, str],
    run: Callable[[dict[str, str]], object],
    select: Callable[[str], list[dict]],
    kept: list[str],
    settled: dict[str, str] | None = None,
) -> str:
    """What the like-with-like defaults left out of an answer, counted by the value that kept each
    result out, with the parameter that brings it back; "" when nothing was left out.

    ``run(params)`` answers the same query with other parameters; ``kept`` is the answer's claims;
    ``settled`` what an ``auto`` default stood for (:func:`benchkg.answers.queries.settle`).
    """
    defaults = like_defaults(saved, params)
    if not defaults or not saved.claims:
        return ""

    everything = answer_claims(run({**params, **{name: ANY for name in defaults}}), saved.claims)
    out = sorted(set(everything) - set(kept))
    if not out:
        return ""
    parts = []
    every = all_claim_values(select, out, [LIKE_WITH_LIKE[name] for name in defaults])  # (one query)
    for name in defaults:
        default = (settled or {}).get(name, saved.params[name].default)
        values = every[LIKE_WITH_LIKE[name]]
        counts: dict[str, int] = {}
        for vs in values.values():
            for v in vs - {default, NOT_STATED}:  # a result that states no value is not left out by it
                counts[v] = counts.get(v, 0) + 1
        if name == "accuracy":  # a claim of a tiered model that states none (graph.facts' "not stated")
            unstated = select(
                f"SELECT ?c WHERE {{ VALUES ?c {{ {' '.join(f'<{c}>' for c in out)} }} "
                f'?c <https://w3id.org/benchkg/ontology#tier> "not stated" }}'
            )
            if unstated:
                counts["not stated"] = len(unstated)
        if counts:
            listed = ", ".join(f"{v} {n}" for v, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
            parts.append(f"{LIKE_WITH_LIKE[name]} {listed} (--param {name}=VALUE, or {name}=any)")

    return wrap(
        f"Left out, to compare like with like: {len(out)} result{'s' if len(out) != 1 else ''} — " + "; ".join(parts),
        indent="  ",
    )
