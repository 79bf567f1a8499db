"""Running a saved query (:mod:`benchkg.answers.savedquery`) anywhere: its parameters bound, its
``auto`` defaults settled, its rows through its ``#+ then:`` step.

A value is parsed by its parameter's type into an RDF term (an id must match the id pattern, an enum
must be one of its values) and that term, serialised with N-Triples escaping, replaces ``$model``; a
parameter left unset becomes the variable ``?model`` and so matches anything. The same binding runs
embedded and against any SPARQL 1.1 endpoint (:mod:`benchkg.graph.backend`), so both give the same
answers; no raw user text ever reaches the query.
"""

from __future__ import annotations

import difflib
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable

from pyoxigraph import Literal, NamedNode

from benchkg.answers.algebra import best_of, median_of, pair_up
from benchkg.answers.curves import at_interactivity
from benchkg.answers.savedquery import (
    ANY,
    AUTO,
    PARAM_TOKEN,
    Param,
    SavedQuery,
    find_query,
)
from benchkg.answers.slices import accelerator_family
from benchkg.answers.slices import apply as apply_slices
from benchkg.graph.backend import backend_of
from benchkg.kernel.errors import UsageError
from benchkg.kernel.resources import QUERIES_DIR
from benchkg.kernel.rows import Results, window
from benchkg.kernel.sparqltext import one_line_term
from benchkg.kernel.vocab import (
    DEFAULT_BASE,
    PREFIXES,
    UNIT_NAMES,
    concept_iri,
    expand,
    record_iri,
    unit_iri,
)
from benchkg.records.layout import time_limit_of
from benchkg.records.reader import bounded_number
from benchkg.records.schema import CLASSES, ID_PATTERN

XSD = PREFIXES["xsd"]
BOOLEANS = {"true": "true", "yes": "true", "1": "true", "false": "false", "no": "false", "0": "false"}


def term_for(param: Param, value: str, base: str = DEFAULT_BASE) -> str:
    """The N-Triples form of a parameter value, after checking it against the parameter's type, on one
    line whatever the value holds (:func:`benchkg.kernel.sparqltext.one_line_term`).

    >>> term_for(Param("model", "id", "models"), "llama2-70b")
    '<https://w3id.org/benchkg/id/models/llama2-70b>'
    >>> term_for(Param("q", "string"), 'x" } DROP ALL #')
    '"x\\\\" } DROP ALL #"'
    >>> term_for(Param("merge_variants", "boolean"), "yes")
    '"true"^^<http://www.w3.org/2001/XMLSchema#boolean>'
    >>> term_for(Param("scenario", "enum", "scenario"), "serverr")
    Traceback (most recent call last):
    ...
    benchkg.kernel.errors.UsageError: parameter scenario: 'serverr' is not allowed; use one of offline, server, interactive, single-stream, multi-stream, endpoints
    >>> term_for(Param("q", "string"), "a\u2028#+ then: median")
    '"a\\\\u2028#+ then: median"'
    """
    return one_line_term(_term_text(param, value, base))


def _term_text(param: Param, value: str, base: str) -> str:
    t = param.type
    try:
        if t == "id":
            if not ID_PATTERN.match(value):
                raise UsageError(f"parameter {param.name}: {value!r} is not an id (pattern {ID_PATTERN.pattern})")
            return str(NamedNode(record_iri(base, param.of, value)))
        if t == "enum":
            if value not in param.allowed():
                raise UsageError(
                    f"parameter {param.name}: {value!r} is not allowed; use one of {', '.join(param.allowed())}"
                )
            if param.of == "unit":
                if value == AUTO:
                    raise UsageError(f"parameter {param.name}: 'auto' is settled from the store first (settle())")
                return str(NamedNode(unit_iri(value)))
            return str(NamedNode(concept_iri(param.of, value))) if param.of else str(Literal(value))
        if t in ("integer", "decimal"):  # bounded as record numbers are: 1e999999999 never reaches the store
            if not re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", value.strip()):
                example = "8" if t == "integer" else "0.5"
                raise UsageError(
                    f"parameter {param.name}: {value[:40]!r} is not a number; write digits, e.g. {param.name}={example}"
                )
            number = bounded_number(value.strip())
            if t == "integer":
                if not isinstance(number, int):
                    raise UsageError(
                        f"parameter {param.name}: {value!r} is not a whole number; write e.g. {param.name}=8"
                    )
                return str(Literal(str(number), datatype=NamedNode(XSD + "integer")))
            return str(Literal(format(Decimal(number), "f"), datatype=NamedNode(XSD + "decimal")))
        if t == "boolean":
            if value.lower() not in BOOLEANS:
                raise UsageError(f"parameter {param.name}: {value!r} is not a boolean; use true or false")
            return str(Literal(BOOLEANS[value.lower()], datatype=NamedNode(XSD + "boolean")))
        if t == "iri":
            return str(NamedNode(value))
        return str(Literal(value))
    except (ValueError, InvalidOperation) as e:
        raise UsageError(f"parameter {param.name}: {value!r} is not a valid {t}: {e}") from e


def bind(text: str, terms: dict[str, str | None]) -> str:
    """Replace ``$name`` tokens (outside strings, IRIs and comments) by the given terms;
    a name bound to ``None`` becomes the variable ``?name``.

    >>> bind('SELECT * { ?c <p> $m . FILTER(?x = "$m") } # $m', {"m": "<x>"})
    'SELECT * { ?c <p> <x> . FILTER(?x = "$m") } # $m'
    >>> bind('?c <p> $m', {"m": None})
    '?c <p> ?m'
    """

    def swap(m: re.Match) -> str:
        if m.group("param"):
            name = m.group("param")[1:]
            if name in terms:
                term = terms[name]
                return term if term is not None else f"?{name}"
        return m.group(0)

    return PARAM_TOKEN.sub(swap, text)


def _terms(query: SavedQuery, values: dict[str, str], base: str) -> dict[str, str | None]:
    unknown = set(values) - set(query.params)
    if unknown:
        known = ", ".join(query.params) or "none"
        close = difflib.get_close_matches(sorted(unknown)[0], list(query.params), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        first = sorted(unknown)[0]
        if f"${first}" in query.text:
            hint = f" (it uses ${first} but declares no such parameter: add a line '#+ param {first} string' to its header)"
        raise UsageError(
            f"query {query.name} has no parameter {', '.join(sorted(unknown))}{hint}; its parameters: {known}"
        )
    terms: dict[str, str | None] = {}
    for name, param in query.params.items():
        value = values.get(name, param.default)
        terms[name] = term_for(param, value, base) if value not in (None, ANY, AUTO) else None
    return terms


def _accelerators(
    query: SavedQuery, terms: dict[str, str | None], select: Callable[[str], list[dict]] | None
) -> list[str] | None:
    if "accelerator" not in query.slices or terms.get("accelerator") is None:
        return None
    if select is None:
        raise UsageError(f"query {query.name}: the accelerator parameter needs the store to find its chip")
    merge = '"true"' in (terms.get("merge_variants") or "")
    return accelerator_family(select, (terms.get("accelerator") or "")[1:-1], merge)


def named(values: dict[str, str]) -> frozenset[str]:
    """The slices ``values`` gives a value of its own (not ``any``): a tier the user names is asked of the
    results strictly (:func:`benchkg.answers.slices.expand`).

    >>> sorted(named({"accuracy": "99", "division": "any"}))
    ['accuracy']
    """
    return frozenset(n for n, v in values.items() if v != ANY and v is not None)


def settle(
    query: SavedQuery,
    values: dict[str, str],
    base: str = DEFAULT_BASE,
    select: Callable[[str], list[dict]] | None = None,
) -> dict[str, str]:
    """The values ``auto`` stands for in this answer: for the ``unit`` slice, the unit most claims of
    the rest of the slice state their headline value in (a resnet50 single-stream leaderboard ranks
    milliseconds, a Llama 2 one tokens/s), ties to the first by name; nothing when no claim matches.
    ``select`` runs the small query that counts them.
    """
    if "unit" not in query.slices or values.get("unit", query.params["unit"].default) != AUTO:
        return {}
    if select is None:
        raise UsageError(f"query {query.name}: unit=auto needs the store to find the unit")
    terms = _terms(query, {**values, "unit": ANY}, base)
    slice_terms = {name: terms[name] for name in query.slices if name != "unit"}
    rows = select(
        "SELECT ?u (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c <https://w3id.org/benchkg/ontology#result>/"
        "<http://qudt.org/schema/qudt/hasUnit> ?u . "
        + apply_slices("# slice ?c", slice_terms, _accelerators(query, terms, select), named(values))
        + " } GROUP BY ?u"
    )
    counted = sorted((-int(r["n"]), UNIT_NAMES[r["u"]]) for r in rows if r.get("u") in UNIT_NAMES)
    return {"unit": counted[0][1]} if counted else {}


def bound_text(
    query: SavedQuery,
    values: dict[str, str],
    base: str = DEFAULT_BASE,
    select: Callable[[str], list[dict]] | None = None,
) -> str:
    """The query text with its parameters bound (defaults where no value is given; ``any`` unsets one,
    ``auto`` is :func:`settle`-d) and its slice markers expanded (:mod:`benchkg.answers.slices`; ``select``
    runs the small queries that find what an ``accelerator`` or ``auto`` slice matches).

    :raises UsageError: for an unknown parameter or a value its type rejects.
    """
    terms = _terms(query, values, base)  # every value checked before the store is asked anything
    for name, value in settle(query, values, base, select).items():
        terms[name] = term_for(query.params[name], value, base)
    text = query.text_for(values)
    if query.slices:
        text = apply_slices(
            text, {name: terms[name] for name in query.slices}, _accelerators(query, terms, select), named(values)
        )
    return bind(text, terms)


def unpaired_text(
    query: SavedQuery,
    values: dict[str, str],
    base: str = DEFAULT_BASE,
    select: Callable[[str], list[dict]] | None = None,
) -> str:
    """The SELECT of the claims ``?c`` an answer of a pairing query could have paired (its ``#+ unpaired:``
    pattern, narrowed by the same slice and parameters): those missing from its rows found no partner.

    >>> q = find_query("vendor-vs-audited")
    >>> "measured-by-vendor" in unpaired_text(q, {"model": "llama2-70b", "scenario": "server", "accuracy": "any"})
    True
    """
    assert query.unpaired is not None, "a pairing query"
    return _sliced(query, "DISTINCT ?c", query.unpaired[1], values, base, select)


def in_slice_text(
    query: SavedQuery,
    claims: list[str],
    values: dict[str, str],
    base: str = DEFAULT_BASE,
    select: Callable[[str], list[dict]] | None = None,
) -> str:
    """The SELECT of those of ``claims`` (IRIs) that the query's slice keeps with ``values``: the rows of a
    ``#+ separable:`` query run with its defaults lifted that the defaults keep.

    >>> text = in_slice_text(find_query("leaderboard"), ["https://x/c"], {"unit": "tokens/s"})
    >>> "VALUES ?c { <https://x/c> }" in text and "division-closed" in text
    True
    """
    return _sliced(query, "?c", "VALUES ?c { " + " ".join(f"<{c}>" for c in claims) + " }", values, base, select)


def _sliced(query: SavedQuery, projection: str, pattern: str, values: dict, base: str, select) -> str:
    """A SELECT of ``projection`` over ``pattern`` on ``?c`` with the query's slice and parameters."""
    from dataclasses import replace

    prefixes = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
    text = prefixes + f"SELECT {projection} WHERE {{ {pattern}\n# slice ?c\n}}"
    return bound_text(replace(query, text=text), values, base, select)


def parse_params(pairs: list[str]) -> dict[str, str]:
    """``["k=v", …]`` from the command line into a dict.

    >>> parse_params(["model=llama2-70b", "note=a=b"])
    {'model': 'llama2-70b', 'note': 'a=b'}
    >>> parse_params(["model=a", "model=b"])
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: --param model is given twice ('a', then 'b'); give each parameter once
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param takes KEY=VALUE, got {pair!r}; e.g. --param model=llama2-70b")
        if key.strip() in out:
            raise UsageError(
                f"--param {key.strip()} is given twice ({out[key.strip()]!r}, then {value!r}); give each parameter once"
            )
        out[key.strip()] = value
    return out


def run_query(
    source,
    name_or_file: "str | SavedQuery",
    params: dict[str, str] | None = None,
    *,
    base: str = DEFAULT_BASE,
    queries_dir: Path | tuple[Path, ...] = QUERIES_DIR,
    limit: int | None = None,
    offset: int = 0,
) -> Results:
    """Run a saved query (or a ``.rq`` file) with typed parameters where ``source`` runs queries (a
    :class:`~benchkg.graph.backend.Backend`, or a pyoxigraph store): bound the same way everywhere,
    so the embedded store and an endpoint give the same answer.

    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> store = build_graph(ROOT / "data").store
    >>> rows = run_query(store, "leaderboard", {"model": "llama2-70b", "scenario": "server",
    ...                                         "suite": "mlperf-inference-v6.1", "accuracy": "99.9"}).rows
    >>> rows[0]["value"].value, rows[0]["per_accelerator"].value
    ('127984', '15998')

    :raises UsageError: for an unknown query or parameter, or a value its type rejects (an id that
        names no record, embedded; an endpoint is asked for names no local record has as typed).
    :raises QueryError: if the engine rejects the query.
    """
    backend = backend_of(source)
    query = name_or_file if isinstance(name_or_file, SavedQuery) else find_query(name_or_file, queries_dir)
    text = bound_text(query, params or {}, base, backend.select)
    windowed = limit is not None or offset
    run = backend.results
    if not backend.remote:
        check_ids(backend, query, params or {}, base)
        if not query.builtin and query.path.is_file():  # a repository's own file (not the algebra's): limited
            where = f"query {query.name} ({query.path.parent.name}/{query.path.name})"
            run = backend.limited(time_limit_of(query.path.parent), where).results
        if not query.then:  # the store streams the window; a step reads every row, so it is cut after
            return tidy(run(text, query.name, limit=limit, offset=offset, claims=query.claims), query)
    results = finish(tidy(run(text, query.name), query), query, params or {})
    return window(results, limit, offset, claims=query.claims) if windowed else results


def one_per_claim(results: Results, column: str) -> Results:
    """The first row of each claim in ``column``, in the query's order: a pairing query whose best
    partner ties (two audited results of one value, round, submitter and count) gives one row, not two.

    >>> from pyoxigraph import Literal
    >>> rows = [{"c": Literal("v"), "p": Literal("a2")}, {"c": Literal("v"), "p": Literal("a3")}, {"p": Literal("x")}]
    >>> [r["p"].value for r in one_per_claim(Results(["c", "p"], rows), "c").rows]
    ['a2', 'x']
    """
    seen, rows = set(), []
    for row in results.rows:
        if column in row and row[column] in seen:
            continue
        seen.add(row.get(column))
        rows.append(row)
    return Results(results.vars, rows, extra=results.extra)


def finish(results: Results, query: SavedQuery, values: dict[str, str]) -> Results:
    """The rows through the query's ``#+ then:`` step (with its parameters as given, else their
    defaults); unchanged for a query without one."""
    if not query.then:
        return results
    if query.then == "one-per-claim":
        return one_per_claim(results, query.claims[0])
    if query.then == "pair":
        return pair_up(results, query.then_args)
    if query.then == "median":
        return median_of(results, query.then_args)
    if query.then == "best":
        return best_of(results, query.then_args)
    given = {name: values.get(name, param.default) for name, param in query.params.items()}
    return at_interactivity(results, {k: v for k, v in given.items() if v not in (None, ANY)})


def tidy(results: Results, query: SavedQuery) -> Results:
    """The same answer from any SPARQL 1.1 engine: the items of a list cell (GROUP_CONCAT, whose
    order SPARQL leaves to the engine) sorted, an empty list absent, and the ``#+ booleans:`` columns as xsd:boolean
    true/false (Virtuoso answers a computed boolean as the integer 1 or 0, a stored one as "1"/"0").

    >>> from pyoxigraph import Literal, NamedNode
    >>> q = SavedQuery("q", Path("q.rq"), 'SELECT (GROUP_CONCAT(?g; separator=" ") AS ?gs) ?b', booleans=("b",))
    >>> r = tidy(Results(["gs", "b"], [{"gs": Literal("z a m"), "b": Literal("1", datatype=NamedNode(XSD + "integer"))}]), q)
    >>> r.rows[0]["gs"].value, r.rows[0]["b"].value, r.rows[0]["b"].datatype.value.endswith("#boolean")
    ('a m z', 'true', True)
    """
    lists, booleans = query.lists, set(query.booleans)
    if not lists and not booleans:
        return results
    boolean = NamedNode(XSD + "boolean")
    for row in results.rows:
        for name, separator in lists.items():
            cell = row.get(name)
            if isinstance(cell, Literal) and not cell.value:
                del row[name]  # no items: SPARQL says "", Oxigraph leaves it unbound
            elif isinstance(cell, Literal) and separator in cell.value:
                items = separator.join(sorted(cell.value.split(separator)))
                row[name] = Literal(items, language=cell.language) if cell.language else Literal(items)
        for name in booleans & row.keys():
            cell = row[name]
            if isinstance(cell, Literal) and cell.value in ("1", "0", "true", "false"):
                row[name] = Literal("true" if cell.value in ("1", "true") else "false", datatype=boolean)
    return results


def check_ids(backend, query: SavedQuery, params: dict[str, str], base: str = DEFAULT_BASE) -> None:
    """:raises UsageError: for an id parameter that names no record of its kind (with the closest
    ids), instead of an answer with no rows."""

    for name, value in params.items():
        param = query.params.get(name)
        if param is None or param.type != "id" or value == ANY:
            continue
        iri = record_iri(base, param.of, value)
        if backend.ask(f"ASK {{ <{iri}> ?p ?o }}"):
            continue
        prefix = record_iri(base, param.of, "")
        known = [
            r["s"][len(prefix) :]
            for r in backend.select(f"SELECT ?s WHERE {{ ?s a <{expand(CLASSES[param.of])}> }}")
            if r["s"].startswith(prefix)
        ]
        close = difflib.get_close_matches(value, known, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UsageError(f"parameter {name}: {value!r} is not a record in {param.of}/{hint}")
