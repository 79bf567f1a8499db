"""An answer to a saved query: its rows and everything said under them, assembled one way for the
command line, the Python API and the site.

Under the rows go the comparison caveats the rows trigger (once), the rounds of the family with no
row, for an empty answer the part of the slice that emptied it, and what the like-with-like defaults
left out; above them, a title naming the slice and the defaults in force.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from benchkg.answers.algebra import unpaired_note
from benchkg.answers.caveats import Caveat, answer_caveats, answer_claims, left_out, like_defaults
from benchkg.answers.disclosure import Disclosure, disclose
from benchkg.answers.explain import absent_rounds, why_empty
from benchkg.answers.queries import in_slice_text, run_query, settle, unpaired_text
from benchkg.answers.savedquery import ANY, SavedQuery
from benchkg.kernel.rows import Results, window
from benchkg.kernel.vocab import DEFAULT_BASE


@dataclass
class Answer:
    """A query's answer with what the command prints under it: the RDF results, the comparison
    caveats the rows trigger and what the like-with-like defaults left out."""

    saved: SavedQuery
    results: Results
    caveats: list[Caveat]
    left_out: str
    resolved: list = field(default_factory=list)  # "'NVIDIA GB300' is accelerators/nvidia-gb300", for each name typed
    params: dict = field(default_factory=dict)  # the parameters as given (after names were resolved)
    absent: str = ""  # the rounds of the family with no row ("No result in …"), for a query with "#+ rounds:"
    empty: str = ""  # for an empty answer, which part of the slice emptied it
    settled: dict = field(default_factory=dict)  # what an "auto" default stood for ({"unit": "ms"})
    disclosure: Disclosure | None = None  # when asked for (--cite)
    unpaired: str = ""  # the claims a pairing query found no partner for ("#+ unpaired:")
    heading: str = ""  # the title line, when the question is not a saved query's (the results algebra)

    def notes(self) -> list[str]:
        """What is said under the answer, in order: absent rounds, the claims left without a partner, why
        it is empty, what was left out."""
        return [n for n in (self.absent, self.unpaired, self.empty, self.left_out) if n]

    @property
    def title(self) -> str:
        """One line naming the question, the slice asked for and the defaults in force.

        >>> from benchkg.answers.queries import find_query
        >>> Answer(find_query("leaderboard"), None, [], "", [], {"scenario": "offline"}).title
        'leaderboard: scenario=offline · defaults: model=llama2-70b, division=closed, accuracy=99 (tiered models), system_type=datacenter, unit=auto, sort=per_accelerator'
        """

        if self.heading:
            return self.heading
        given = [f"{k}={v}" for k, v in self.params.items() if v != ANY]
        lifted = [f"{k}=any" for k, v in self.params.items() if v == ANY]
        defaults = [
            f"{n}={self.settled[n]} (auto)" if n in self.settled else f"{n}={p.default}" + _DEFAULT_SAYS.get(n, "")
            for n, p in self.saved.params.items()
            if p.default is not None and n not in self.params
        ]
        parts = [" ".join(given + lifted) or "(as saved)"]
        if defaults:
            parts.append("defaults: " + ", ".join(defaults))
        return f"{self.saved.name}: " + " · ".join(parts)


#: what a default of a slice says in the title beside its value: the default tier holds only for the models
#: that have tiers (a tier named holds for every result: benchkg.answers.slices.expand)
_DEFAULT_SAYS = {"accuracy": " (tiered models)"}


def assemble(
    saved,
    params: dict[str, str],
    backend,
    *,
    limit: int | None = None,
    offset: int = 0,
    resolved: Sequence[str] = (),
    base: str = DEFAULT_BASE,
    cite: bool = False,
) -> Answer:
    """Run ``saved`` with ``params`` where ``backend`` runs queries (:mod:`benchkg.graph.backend`) and
    assemble the :class:`Answer`, the small queries of its caveats and notes included.
    With ``limit``/``offset`` only that window of rows is kept; the caveats are the whole answer's.
    An ``auto`` default is settled once here (:func:`benchkg.answers.queries.settle`) and runs as if given; with
    ``cite``, each shown row's claims get the MLPerf disclosure footnotes (:mod:`benchkg.answers.disclosure`)."""
    select = backend.select

    def run(p, **window_):
        return run_query(backend, saved, p, base=base, **window_)

    settled = settle(saved, params, base, select)
    whole: dict[tuple, object] = {}  # the answers run whole, by their parameters: a note asking again reuses one

    def settled_run(p, **window_):
        key = tuple(sorted({**settled, **p}.items()))
        if key in whole:  # (a whole answer also tells a window's count: its rows are all there)
            return whole[key]
        results = run({**settled, **p}, **window_)
        if not window_:
            whole[key] = results
        return results

    windowed = limit is not None or offset
    lifted = like_defaults(saved, params) if saved.separable else []
    if lifted:  # one run with the like-with-like defaults lifted: the answer is the rows they keep
        results = kept_rows(
            saved, settled_run({**params, **{n: ANY for n in lifted}}), {**params, **settled}, select, base
        )
        whole[tuple(sorted({**settled, **params}.items()))] = results
        results = window(results, limit, offset, claims=saved.claims) if windowed else results
    else:
        results = settled_run(params, limit=limit, offset=offset) if windowed else settled_run(params)
    caveats = answer_caveats(select, results, saved.claims)
    kept = answer_claims(results, saved.claims)
    answer = Answer(
        saved,
        results,
        caveats,
        left_out(saved, params, settled_run, select, kept, settled),
        list(resolved),
        dict(params),
        settled=settled,
    )
    if saved.rounds and results.count == len(results.rows):
        answer.absent = absent_rounds(select, saved, params, results)
    if saved.unpaired and results.count == len(results.rows):
        answer.unpaired = without_partner(saved, {**params, **settled}, results, select, base)
    if saved.then == "pair" and "unpaired" in results.extra:  # a pair the results algebra wrote
        sides = (saved.then_args.get("a", "a"), saved.then_args.get("b", "b"))
        answer.unpaired = unpaired_note(sides, results.extra["unpaired"], hint="")
    if not results.count and not (saved.missing and answer.unpaired):  # (else the missing fact is the reason)
        answer.empty = why_empty(saved, {**params, **settled}, settled_run, given=set(params))
    if cite:
        answer.disclosure = disclose(select, results, saved.claims)
    return answer


def kept_rows(
    saved, everything: Results, values: dict[str, str], select: Callable, base: str = DEFAULT_BASE
) -> Results:
    """The rows of a ``#+ separable:`` query's answer ``everything`` (run with its like-with-like defaults
    lifted) whose claim its slice keeps with ``values``, in their order: its answer with the defaults in
    force, found by one small query over those claims instead of a second run of the query."""
    column = saved.separable
    claims = sorted({row[column].value for row in everything.rows if column in row})
    keep = {str(r["c"]) for r in select(in_slice_text(saved, claims, values, base, select))} if claims else set()
    rows = [row for row in everything.rows if column in row and row[column].value in keep]
    return Results(everything.vars, rows, extra=everything.extra)


def without_partner(saved, params: dict[str, str], results, select: Callable, base: str = DEFAULT_BASE) -> str:
    """The note naming the claims of the slice that the pairing query found no partner for, and why
    (the scale asked for, or no audited result of their chip, model and scenario at all)."""
    column, _ = saved.unpaired
    paired = {str(row[column].value) for row in results.rows if column in row}
    candidates = sorted(r["c"] for r in select(unpaired_text(saved, params, base, select)) if r.get("c"))
    missing = [c.rsplit("/", 1)[-1] for c in candidates if c not in paired]
    if not missing:
        return ""
    if saved.missing:  # a row that needs a fact the record lacks: named with the fact, never blamed on the slice
        return (
            f"Left out for want of {saved.missing}: {len(missing)} of {len(candidates)} "
            f"claim{'s' if len(candidates) != 1 else ''}: " + ", ".join(missing)
        )
    asked = f"count={params['count']}" if "count" in params else "this slice"
    hint = (
        " (count=nearest pairs a claim at the nearest other scale; count=any at every scale; "
        "benchkg show CLAIM says how each stands)"
        if "count=same" in asked
        else " (benchkg show CLAIM says how each stands)"
    )
    return (
        f"No partner under {asked} for {len(missing)} of {len(candidates)} claim{'s' if len(candidates) != 1 else ''}: "
        + ", ".join(missing)
        + hint
    )
