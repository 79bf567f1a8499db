"""Absence said aloud, and the terms of the field explained where they appear.

An answer that leaves something out says so: the rounds of a family with no row ("No result in MLPerf
Inference v4.1"), and for an empty answer the part of the slice that emptied it. ``benchkg explain
TERM`` (and ``show``, beside a record that uses one) says what MLPerf's words mean: inferred, preview,
closed and open, accuracy tiers, scenarios, derived per-accelerator values.
"""

from __future__ import annotations

import difflib
from typing import Any, Callable

from benchkg.answers.savedquery import ANY
from benchkg.kernel.errors import UsageError
from benchkg.kernel.vocab import concept_iri, curator_name

#: term -> what it means, in a sentence or three (MLPerf's inference rules and results-messaging guidelines)
TERMS = {
    "inferred": "A result the MLPerf submission checker derived rather than measured: MLCommons' results files mark "
    "it so (in v6.0, every Interactive result). Beside measured results it must be marked, and "
    "`--param inferred=false` leaves such results out.",
    "preview": "An MLPerf availability category: a system not yet available, which must become available by the next "
    "round (or within the rules' window, 140 days) and be submitted again as available. `benchkg query "
    "preview-to-available` checks that the record holds it.",
    "available": "An MLPerf availability category: hardware and software anyone can buy or rent at the time of the "
    "round.",
    "rdi": "Research, development or internal: an MLPerf availability category for systems not meant for sale; "
    "never presented as available.",
    "closed": "The MLPerf division that runs the reference model as specified (quantisation allowed, no retraining): "
    "results compare across submitters.",
    "open": "The MLPerf division where the model may be changed (pruned, distilled, re-quantised); open results are "
    "never presented against closed ones as like for like.",
    "accuracy tier": "MLPerf's -99 and -99.9: the share of the reference model's accuracy a run must reach; the two "
    "tiers are separate benchmarks even when one run reports the same number for both.",
    "offline": "The MLPerf scenario with all samples in one query: throughput without latency bounds.",
    "server": "The MLPerf scenario with Poisson arrivals: the highest rate that meets the latency bounds (TTFT/TPOT "
    "for LLMs).",
    "interactive": "A datacenter LLM scenario with tighter TTFT/TPOT bounds than Server (from v5.1 a scenario of the "
    "model's benchmark).",
    "single-stream": "The MLPerf scenario of one query at a time: the 90th-percentile latency, lower is better.",
    "multi-stream": "The MLPerf scenario of 8 samples a query: the 99th-percentile latency, lower is better.",
    "endpoints": "MLPerf Endpoints: a served endpoint under fixed concurrencies, reported as a throughput-latency "
    "curve of points, not one number.",
    "derived": "A value benchkg computed from a claim's own numbers (an aggregate ÷ its accelerator count, an "
    "interpolation on a curve): marked derived, never an official MLPerf metric.",
    "per accelerator": "A value for one accelerator: stated by a source, or derived as aggregate ÷ accelerator count; "
    "latencies are never divided, and a system with several kinds of chips has none.",
    "measured by": "Who measured a number: mlcommons (an audited MLPerf result), vendor (the maker's or submitter's own "
    "figure), third-party or community.",
    "fabric present": "interconnect_ids on a claim name fabric present in its hardware, not traffic over it; only a "
    "parallel layout across devices or nodes is evidence that a run used it.",
}
ALIASES = {
    "inferred results": "inferred",
    "tier": "accuracy tier",
    "99.9": "accuracy tier",
    "99": "accuracy tier",
    "singlestream": "single-stream",
    "multistream": "multi-stream",
    "per-accelerator": "per accelerator",
    "per gpu": "per accelerator",
    "derived value": "derived",
    "measured_by": "measured by",
    "division": "closed",
    "availability": "preview",
}


def explain(term: str) -> tuple[str, str]:
    """(the term, what it means) for a term of the field (any case, a few spellings).

    >>> explain("Inferred")[1].startswith("A result the MLPerf submission checker derived rather")
    True

    :raises UsageError: for a term it does not know, naming the ones it does.
    """

    wanted = " ".join(term.lower().replace("_", " ").split())
    key = ALIASES.get(wanted, wanted)
    if key not in TERMS:
        close = difflib.get_close_matches(key, list(TERMS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UsageError(f"no explanation of {term!r}{hint}; terms: {', '.join(TERMS)}")
    return key, TERMS[key]


def terms_in(record: dict) -> list[str]:
    """The terms a record uses that :data:`TERMS` explains (for ``show``).

    >>> terms_in({"inferred": True, "availability": "preview", "scenario": "interactive"})
    ['inferred', 'preview', 'interactive']
    """
    out = []
    if record.get("inferred") is True:
        out.append("inferred")
    for key in ("availability", "division", "scenario"):
        if isinstance(record.get(key), str) and record[key] in TERMS and record[key] not in out:
            out.append(record[key])
    if record.get("scope") == "aggregate" and record.get("accelerator_count"):
        out.append("derived")
    return out


def absent_rounds(select: Callable[[str], list[dict]], saved, params: dict, results) -> str:
    """ "No result in …" for the rounds of the family (of the rows, or the ``family`` parameter) that the
    record holds audited results of and that have no row here."""

    column = saved.rounds
    present = {row[column].value for row in results.rows if column in row}
    family = params.get("family") or (saved.params["family"].default if "family" in saved.params else None)
    prefix = "PREFIX bk: <https://w3id.org/benchkg/ontology#>\n"
    if family and family != "any":
        families = [concept_iri("suite-family", family)]
    else:
        families = sorted(
            {
                r["f"]
                for r in select(
                    prefix
                    + "SELECT DISTINCT ?f WHERE { VALUES ?s { "
                    + " ".join(f"<{s}>" for s in present)
                    + " } ?s bk:suiteFamily ?f }"
                )
            }
            if present
            else {concept_iri("suite-family", "mlperf-inference")}
        )
    rows = select(
        prefix
        + "SELECT DISTINCT ?s ?name ?version WHERE { VALUES ?f { "
        + " ".join(f"<{f}>" for f in families)
        + " } ?s bk:suiteFamily ?f ; bk:version ?version . OPTIONAL { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?name }"
        " FILTER EXISTS { ?c bk:suite ?s ; bk:measuredBy bk:measured-by-mlcommons } } ORDER BY ?version"
    )
    missing = [r.get("name") or curator_name(r["s"]) for r in rows if r["s"] not in present]
    if not missing:
        return ""
    return (
        f"No result in {', '.join(missing)} (the record holds audited results of {'it' if len(missing) == 1 else 'them'}, "
        "none of this slice)."
    )


def why_empty(saved, params: dict, run: Callable, given: set[str] | None = None) -> str:
    """Which part of the slice emptied an answer. The parameters the user ``given`` are lifted (all
    together once when there are several, and each alone only when that brings results, to name the
    one); when none of them explains it, the defaults in force are lifted together, once. So an
    answer asked with no parameters costs one more query, not one per default. ``given`` defaults
    to every parameter in ``params``.

    >>> class Saved:
    ...     params = {}
    >>> why_empty(Saved(), {}, None)
    'No rows: the record holds nothing this query asks about.'
    """

    in_force = {
        n: params.get(n, p.default)
        for n, p in saved.params.items()
        if params.get(n, p.default) not in (None, ANY) and n not in ("sort",)
    }
    if not in_force:
        return "No rows: the record holds nothing this query asks about."
    asked = ", ".join(f"{n}={v}" for n, v in in_force.items())
    typed = [n for n in in_force if n in (params if given is None else given)]
    defaults = [n for n in in_force if n not in typed]

    def lifted(names: list[str]) -> Any:
        try:
            return run({**params, **{name: ANY for name in names}}, limit=1)
        except Exception:  # noqa: BLE001 - a parameter that cannot be lifted (it names what the query is about)
            return None

    def gives(names, found) -> str:
        return (
            f"(--param {' --param '.join(f'{n}=any' for n in names)} gives {'more than ' if found.more else ''}"
            f"{found.count:,} row{'s' if found.count != 1 else ''})"
        )

    lifting = []
    together = lifted(typed) if len(typed) > 1 else None
    if len(typed) == 1 or (together is not None and together.count):
        for name in typed:
            found = lifted([name])
            if found is not None and found.count:
                lifting.append(f"{name}={in_force[name]} {gives([name], found)}")
        if not lifting and together is not None:
            lifting.append(" and ".join(f"{n}={in_force[n]}" for n in typed) + f" together {gives(typed, together)}")
    if not lifting and defaults:
        found = lifted(defaults)
        if found is not None and found.count:
            named = ", ".join(f"{n}={in_force[n]}" for n in defaults)
            lifting.append(f"the defaults {named} {gives(defaults, found)}")
    if lifting:
        return f"No rows for {asked}. What empties it: " + "; ".join(lifting) + "."
    return f"No rows for {asked}, and none with them lifted: the record holds no result like this."
