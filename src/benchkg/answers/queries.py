"""Saved SPARQL queries: their ``#+`` headers, typed parameters, and running them anywhere.

A saved query is ``queries/<name>.rq``. Its header says what it answers and which parameters it
takes::

    #+ summary: one line
    #+ description: a paragraph
    #+ param model id:models default=llama2-70b
    #+ param scenario enum:scenario default=server
    #+ chart: label=claim value=per_accelerator
    #+ claims: claim

``claims`` names the columns that hold claims: the comparison caveats of the answer are theirs.
In the query a parameter is written ``$model``. A value is parsed by its type into an RDF term
(an id must match the id pattern, an enum must be one of its values) and that term, serialised
with N-Triples escaping, replaces ``$model``; a parameter left unset becomes the variable
``?model`` and so matches anything. The same binding runs embedded and against any SPARQL 1.1
endpoint, so both give the same answers; no raw user text ever reaches the query.
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Callable

from pyoxigraph import Literal, NamedNode, QuerySolutions

from benchkg.answers.algebra import median_of, pair_up
from benchkg.answers.curves import at_interactivity
from benchkg.answers.slices import SLICE_TYPES, SLICE_VALUES, accelerator_family
from benchkg.answers.slices import apply as apply_slices
from benchkg.graph.remote import run_remote_sparql
from benchkg.kernel import transport
from benchkg.kernel.errors import InputError, QueryError, UsageError
from benchkg.kernel.resources import QUERIES_DIR
from benchkg.kernel.rows import Results, window
from benchkg.kernel.sparqltext import check_depth, names_its_dataset, uses_service
from benchkg.kernel.vocab import (
    DEFAULT_BASE,
    PREFIXES,
    SCHEMES,
    UNIT_NAMES,
    UNITS,
    concept_iri,
    expand,
    record_iri,
    unit_iri,
)
from benchkg.records.reader import bounded_number
from benchkg.records.schema import CLASSES, ID_PATTERN, KINDS

XSD = PREFIXES["xsd"]
PARAM_TYPES = ("id", "enum", "string", "integer", "decimal", "boolean", "iri")
BOOLEANS = {"true": "true", "yes": "true", "1": "true", "false": "false", "no": "false", "0": "false"}


@dataclass(frozen=True)
class Param:
    """One declared parameter of a saved query."""

    name: str
    type: str
    of: str = ""  # the kind of an id, the scheme of an enum
    default: str | None = None
    values: tuple[str, ...] = ()

    def allowed(self) -> tuple[str, ...]:
        if self.values:
            return self.values
        if self.type == "enum" and self.of == "unit":
            return tuple(UNITS) + (AUTO,)
        return SCHEMES.get(self.of, ()) if self.type == "enum" else ()

    def describe(self) -> str:
        kind = f"{self.type}:{self.of}" if self.of else self.type
        out = f"{self.name} ({kind})"
        if self.default is not None:
            out += f" default {self.default}"
        if self.allowed():
            out += f" one of {'|'.join(self.allowed())}"
        return out


@dataclass
class SavedQuery:
    """A query file with its header."""

    name: str
    path: Path
    text: str
    summary: str = ""
    description: str = ""
    params: dict[str, Param] = field(default_factory=dict)
    chart: tuple[str, str] | None = None  # (label column, numeric column)
    claims: tuple[str, ...] = ()  # the columns that hold claims: the answer's comparison caveats are theirs
    booleans: tuple[str, ...] = ()  # columns computed as true/false (Virtuoso answers those 1/0)
    slices: tuple[str, ...] = ()  # the slice parameters it takes (benchkg.answers.slices), in the header's order
    columns: tuple[str, ...] = ()  # the columns a table keeps first, most important first ("#+ columns:")
    rounds: str = ""  # the column holding each row's round: the rounds without a row are named ("#+ rounds:")
    axis: str = ""  # what the chart's value axis says ("#+ axis:"; the value column's name by default)
    lower_is_better: bool = False  # "#+ order: lower" — a ranking whose best is the lowest value
    then: str = ""  # "#+ then: NAME": a step of POST_STEPS the rows go through (at-interactivity)
    then_args: dict[str, str] = field(default_factory=dict)  # its KEY=VALUE words (a pair's sides, sort, top)
    whole: tuple[str, ...] = ()  # "#+ whole: COLUMN…": text a table never shortens (it drops columns first)
    keep: tuple[str, ...] = ()  # "#+ keep: COLUMN…": columns a table never drops for width (what makes a row honest)
    unpaired: tuple[str, str] | None = None  # "#+ unpaired: COLUMN PATTERN": the claims ?c of PATTERN a row could pair

    @property
    def builtin(self) -> bool:
        """Shipped with benchkg (trusted: none calls SERVICE, a test holds them to it)."""
        return self.path.parent.resolve() == QUERIES_DIR.resolve()

    def check_service(self, allow: bool = False) -> None:
        """:raises UsageError: for a query that is not benchkg's own and calls SERVICE, unless allowed."""
        if not allow and not self.builtin and uses_service(self.text):
            raise UsageError(
                f"{self.path}: uses SERVICE, which makes this machine fetch another URL; "
                "run it with --allow-service if you trust it"
            )

    @property
    def lists(self) -> dict[str, str]:
        """The columns built with GROUP_CONCAT, by name, with their separator: their order is the
        engine's, so :func:`tidy` sorts their items."""
        found = {m.group(2): m.group(1) for m in _LIST.finditer(self.text)}
        for m in _BIND.finditer(self.text):  # a column bound from a list column is a list too
            source = next((name for name in re.findall(r"\?(\w+)", m.group(1)) if name in found), None)
            if source and m.group(2) not in found:
                found[m.group(2)] = found[source]
        return found


_HEADER = re.compile(r"^#\+\s*(\w+)\s*:?\s*(.*)$")
_BIND = re.compile(r"BIND\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*?)\s+AS\s+\?(\w+)\s*\)", re.I)
_LIST = re.compile(r'GROUP_CONCAT\s*\((?:[^()]|\([^()]*\))*?;\s*separator\s*=\s*"([^"]*)"\s*\)\s*AS\s*\?(\w+)', re.I)


def parse_query_file(path: Path) -> SavedQuery:
    """Read a ``.rq`` file and its ``#+`` header.

    :raises QueryError: for a header line that cannot be read.
    """
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError.at(
            Path(path),
            raw[: e.start].count(b"\n") + 1,
            "",
            f"not valid UTF-8 (byte 0x{raw[e.start]:02x}); save the query as UTF-8",
        ) from None
    return parse_query_text(text, Path(path))


def parse_query_text(text: str, path: Path) -> SavedQuery:
    """A query's text and ``#+`` header as :func:`parse_query_file` reads them (``path`` names it:
    the algebra's queries are read from the text they were written as).

    :raises QueryError: for a header line that cannot be read.
    """
    check_depth(text, str(path))
    query = SavedQuery(Path(path).stem, Path(path), text)
    for n, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if not m:
            continue
        key, rest = m.group(1), m.group(2).strip()
        if key in ("summary", "description"):
            setattr(query, key, (getattr(query, key) + " " + rest).strip())
        elif key == "param":
            param = _parse_param(rest, f"{path}:{n}")
            query.params[param.name] = param
        elif key == "claims":
            query.claims = tuple(rest.split())
        elif key == "booleans":
            query.booleans = tuple(rest.split())
        elif key == "slice":
            for spec in rest.split():
                name, _, default = spec.partition("=")
                if name not in SLICE_TYPES:
                    close = difflib.get_close_matches(name, list(SLICE_TYPES), n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    raise QueryError(
                        f"{path}:{n}: {name!r} is not a slice parameter{hint}; they are {', '.join(SLICE_TYPES)}"
                    )
                type_, of = SLICE_TYPES[name]
                query.params[name] = Param(name, type_, of, default or None, SLICE_VALUES.get(name, ()))
                query.slices += (name,)
        elif key == "columns":
            query.columns = tuple(rest.split())
        elif key == "rounds":
            query.rounds = rest.strip()
        elif key == "axis":
            query.axis = rest.strip()
        elif key == "whole":
            query.whole = tuple(rest.split())
        elif key == "keep":
            query.keep = tuple(rest.split())
        elif key == "unpaired":
            column, _, pattern = rest.partition(" ")
            if not pattern.strip() or "?c" not in pattern:
                raise QueryError(f"{path}:{n}: an unpaired line is '#+ unpaired: COLUMN PATTERN-ON-?c'")
            query.unpaired = (column, pattern.strip())
        elif key == "then":  # "#+ then: NAME [KEY=VALUE …]" (shell quoting)
            words = shlex.split(rest) or [""]
            if words[0] not in POST_STEPS or not all("=" in w for w in words[1:]):
                raise QueryError(
                    f"{path}:{n}: '#+ then: {rest.strip()}' names no step; steps: {', '.join(POST_STEPS)} (then KEY=VALUE…)"
                )
            query.then, query.then_args = words[0], dict(w.split("=", 1) for w in words[1:])
        elif key == "chart":
            opts = dict(w.split("=", 1) for w in rest.split() if "=" in w)
            if set(opts) != {"label", "value"}:
                raise QueryError(f"{path}:{n}: a chart line is '#+ chart: label=COLUMN value=COLUMN'")
            query.chart = (opts["label"], opts["value"])
    if not query.builtin and not query.claims and re.search(r"(?i)\bSELECT\b[^{]*\?claim\b", text):
        query.claims = ("claim",)  # a query of one's own with a claim column gets its caveats, header or not
    if not query.builtin:  # benchkg's own use COALESCE($x, ?x) knowingly; a test holds them to it
        _check_variables(query)
    return query


def _check_variables(query: SavedQuery) -> None:
    """:raises QueryError: for a parameter ``$x`` that is also the variable ``?x``: in SPARQL the two are
    one variable, so an unset parameter would join the column and quietly empty the answer."""
    code = _TOKEN.sub(lambda m: m.group(0) if m.group("param") else " ", query.text)
    for name in query.params:
        if f"${name}" in code and re.search(rf"\?{name}\b", code):
            raise QueryError(
                f"{query.path}: parameter ${name} is also the variable ?{name} (in SPARQL $x and ?x "
                f"are one variable, so an unset ${name} would filter on ?{name}); rename one of them"
            )


def _parse_param(spec: str, where: str) -> Param:
    words = spec.split()
    if len(words) < 2:
        raise QueryError(f"{where}: a param line is '#+ param NAME TYPE [default=V] [values=a|b]'")
    name, type_ = words[0], words[1]
    base, _, of = type_.partition(":")
    if base not in PARAM_TYPES:
        raise QueryError(f"{where}: parameter type {type_!r} is not one of {', '.join(PARAM_TYPES)}")
    if base == "id" and of not in KINDS:
        raise QueryError(f"{where}: id parameters name a kind, e.g. id:models")
    opts = dict(w.split("=", 1) for w in words[2:] if "=" in w)
    values = tuple(opts["values"].split("|")) if "values" in opts else ()
    return Param(name, base, of, opts.get("default"), values)


def saved_queries(queries_dir: Path | tuple[Path, ...] = QUERIES_DIR) -> dict[str, SavedQuery]:
    """Every saved query by name, of one folder or of several (benchkg's, then a data repository's).

    >>> "leaderboard" in saved_queries()
    True

    :raises InputError: for a query named like one of an earlier folder.
    """
    folders = (queries_dir,) if isinstance(queries_dir, (str, Path)) else queries_dir
    out: dict[str, SavedQuery] = {}
    for folder in folders:
        for path in sorted(Path(folder).glob("*.rq")):
            if path.stem in out:
                raise InputError.at(
                    path,
                    None,
                    "",
                    f"a saved query {path.stem!r} is built into benchkg; "
                    f"rename this file (a name means one question everywhere)",
                )
            out[path.stem] = parse_query_file(path)
    return out


def find_query(name_or_file: str, queries_dir: Path | tuple[Path, ...] = QUERIES_DIR) -> SavedQuery:
    """A saved query by name, or any ``.rq`` file by path.

    :raises UsageError: naming the saved queries when there is no such query.
    """
    path = Path(name_or_file)
    if path.suffix == ".rq" and path.is_file():
        return parse_query_file(path)
    if path.suffix == ".rq" and path.exists():
        raise UsageError(
            f"{name_or_file} is not a query file (a folder or a device); give a .rq file or a saved query's name"
        )
    known = saved_queries(queries_dir)
    if name_or_file in known:
        return known[name_or_file]

    close = difflib.get_close_matches(name_or_file, list(known), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise UsageError(f"no saved query {name_or_file!r}{hint}; saved queries: {', '.join(known)}")


def term_for(param: Param, value: str, base: str = DEFAULT_BASE) -> str:
    """The N-Triples form of a parameter value, after checking it against the parameter's type.

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
    """
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


_TOKEN = re.compile(
    r"""
      (?P<string>'''.*?'''|\"\"\".*?\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<iri><[^<>"{}|^`\\\s]*>)
    | (?P<comment>\#[^\n]*)
    | (?P<param>\$[A-Za-z_][A-Za-z0-9_]*)
""",
    re.S | re.X,
)


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
                return terms[name] if terms[name] is not None else f"?{name}"
        return m.group(0)

    return _TOKEN.sub(swap, text)


#: a parameter value that unsets a default: the parameter then matches anything
ANY = "any"
#: the unit slice's value for "the unit most results of the rest of the slice are in"
AUTO = "auto"


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
    merge = terms.get("merge_variants") is not None and '"true"' in terms["merge_variants"]
    return accelerator_family(select, terms["accelerator"][1:-1], merge)


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
        + apply_slices("# slice ?c", slice_terms, _accelerators(query, terms, select))
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
    text = query.text
    if query.slices:
        text = apply_slices(text, {name: terms[name] for name in query.slices}, _accelerators(query, terms, select))
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
    from dataclasses import replace

    prefixes = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
    text = prefixes + f"SELECT DISTINCT ?c WHERE {{ {query.unpaired[1]}\n# slice ?c\n}}"
    return bound_text(replace(query, text=text), values, base, select)


def parse_params(pairs: list[str]) -> dict[str, str]:
    """``["k=v", …]`` from the command line into a dict.

    >>> parse_params(["model=llama2-70b", "note=a=b"])
    {'model': 'llama2-70b', 'note': 'a=b'}
    >>> parse_params(["model=a", "model=b"])
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: --param model is given twice ('a', then 'b'); give each parameter once
    """
    out = {}
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


#: how many rows past its window an answer is still counted (the rows are not kept): "--limit 1"
#: on a query of a billion rows stops there
COUNT_PAST = 100_000


def run_query(
    store,
    name_or_file: "str | SavedQuery",
    params: dict[str, str] | None = None,
    *,
    base: str = DEFAULT_BASE,
    queries_dir: Path | tuple[Path, ...] = QUERIES_DIR,
    limit: int | None = None,
    offset: int = 0,
) -> Results:
    """Run a saved query (or a ``.rq`` file) with typed parameters on the embedded store.

    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> store = build_graph(ROOT / "data").store
    >>> rows = run_query(store, "leaderboard", {"model": "llama2-70b", "scenario": "server",
    ...                                         "suite": "mlperf-inference-v6.1"}).rows
    >>> rows[0]["value"].value, rows[0]["per_accelerator"].value
    ('910621.36', '12647.5189')

    :raises UsageError: for an unknown query or parameter, or a value its type rejects.
    :raises QueryError: if the engine rejects the query.
    """
    query = name_or_file if isinstance(name_or_file, SavedQuery) else find_query(name_or_file, queries_dir)
    text = bound_text(query, params or {}, base, store_select(store))
    check_ids(store, query, params or {}, base)
    if query.then:  # the step reads every row; the window is cut from what it gives
        results = finish(tidy(run_sparql(store, text, query.name), query), query, params or {})
        return window(results, limit, offset, claims=query.claims) if limit is not None or offset else results
    return tidy(run_sparql(store, text, query.name, limit=limit, offset=offset, claims=query.claims), query)


#: the steps a saved query's rows may go through after the engine ("#+ then: NAME"), by name
POST_STEPS = ("at-interactivity", "one-per-claim", "pair", "median")


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


def check_ids(store, query: SavedQuery, params: dict[str, str], base: str = DEFAULT_BASE) -> None:
    """:raises UsageError: for an id parameter that names no record of its kind (with the closest
    ids), instead of an answer with no rows."""

    for name, value in params.items():
        param = query.params.get(name)
        if param is None or param.type != "id" or value == ANY:
            continue
        iri = record_iri(base, param.of, value)
        if store.query(f"ASK {{ <{iri}> ?p ?o }}", use_default_graph_as_union=True):
            continue
        prefix = record_iri(base, param.of, "")
        known = [
            r["s"].value[len(prefix) :]
            for r in store.query(
                f"SELECT ?s WHERE {{ ?s a <{expand(CLASSES[param.of])}> }}", use_default_graph_as_union=True
            )
            if r["s"].value.startswith(prefix)
        ]
        close = difflib.get_close_matches(value, known, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UsageError(f"parameter {name}: {value!r} is not a record in {param.of}/{hint}")


def parse_error(name: str, text: str, error: Exception) -> str:
    r"""What a parser's complaint means for the person who wrote the query.

    >>> parse_error("q", "SELECT * { ?s ?p \x00 }", SyntaxError("error at 1:18: expected OPTIONAL"))
    'q: the query holds a control character (\\x00) at line 1; save it as plain text'
    >>> parse_error("q", "this is prose", SyntaxError("error at 1:6: expected CONSTRUCT"))
    'q: the query does not parse (error at 1:6: expected CONSTRUCT): check the SPARQL near line 1, column 6; a query starts with PREFIX, SELECT, ASK, CONSTRUCT or DESCRIBE'
    """
    for n, line in enumerate(text.splitlines(), 1):
        bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", line)
        if bad:
            return f"{name}: the query holds a control character (\\x{ord(bad.group()):02x}) at line {n}; save it as plain text"
    where = re.search(r"(\d+):(\d+)", str(error))
    near = f": check the SPARQL near line {where.group(1)}, column {where.group(2)}" if where else ""
    return (
        f"{name}: the query does not parse ({error}){near}; a query starts with PREFIX, SELECT, ASK, CONSTRUCT "
        "or DESCRIBE"
    )


def store_select(store) -> Callable[[str], list[dict]]:
    """``select(text)`` on the embedded store: rows of {variable: value text}."""
    return lambda text: [{k: v.value for k, v in row.items()} for row in run_sparql(store, text).rows]


def run_sparql(
    store, text: str, name: str = "query", *, limit: int | None = None, offset: int = 0, claims: tuple[str, ...] = ()
) -> Results:
    """Run SPARQL SELECT text on a pyoxigraph store, over the union of its graphs.

    With ``limit`` (or ``offset``) the solutions are streamed: only the window's rows are kept, and
    counting stops :data:`COUNT_PAST` rows past it, so the work is bounded whatever the query; the
    ``claims`` columns of every row counted are kept in ``claim_rows``.

    >>> from pyoxigraph import Store
    >>> r = run_sparql(Store(), "SELECT ?n WHERE { VALUES ?n { 1 2 3 4 5 } }", limit=2, offset=1)
    >>> [row["n"].value for row in r.rows], r.total, r.more
    (['2', '3'], 5, False)
    """
    try:
        solutions = store.query(text, use_default_graph_as_union=not names_its_dataset(text))
    except SyntaxError as e:
        raise QueryError(parse_error(name, text, e)) from e
    except OSError as e:
        raise QueryError(f"{name}: the store could not answer: {e}") from e
    if not isinstance(solutions, QuerySolutions):
        raise QueryError(f"{name}: only SELECT queries give tables")
    names = [v.value for v in solutions.variables]
    if limit is None and not offset:
        rows = [{n: s[n] for n in names if s[n] is not None} for s in solutions]
        return Results(names, rows)
    keep = [c for c in claims if c in names]
    rows, claim_rows, counted, more = [], [], 0, False
    stop = offset + (limit if limit is not None else 0) + COUNT_PAST
    for solution in solutions:
        if counted >= stop and limit is not None:
            more = True
            break
        if offset <= counted and (limit is None or len(rows) < limit):
            rows.append({n: solution[n] for n in names if solution[n] is not None})
        if keep:
            claim_rows.append(tuple(solution[c].value if solution[c] is not None else None for c in keep))
        counted += 1
    return Results(names, rows, counted, more, claim_rows if keep else None)


def run_remote_query(
    endpoint: str,
    name_or_file: str,
    params: dict[str, str] | None = None,
    base: str = DEFAULT_BASE,
    queries_dir=None,
    timeouts: transport.Timeouts | None = None,
) -> Results:
    """Run a saved query on a remote endpoint, bound exactly as embedded.

    The store must answer queries over the union of its named graphs (Oxigraph server
    ``--union-default-graph``; Fuseki ``tdb2:unionDefaultGraph true``).
    """
    query = (
        name_or_file
        if isinstance(name_or_file, SavedQuery)
        else find_query(name_or_file, *([queries_dir] if queries_dir else []))
    )

    def select(text):
        return [{k: v.value for k, v in row.items()} for row in run_remote_sparql(endpoint, text, timeouts).rows]

    return finish(
        tidy(run_remote_sparql(endpoint, bound_text(query, params or {}, base, select), timeouts), query),
        query,
        params or {},
    )
