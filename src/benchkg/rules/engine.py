"""The shapes in ``shapes/`` run as whole-graph SPARQL on the Oxigraph store.

pyshacl evaluates constraints focus node by focus node in Python and re-parses every SPARQL
constraint for every node: minutes for tens of thousands of claims. Each shape here becomes one
or a few SPARQL queries over the whole store instead, so Oxigraph does the joins. Only the SHACL
that benchkg's shapes use is compiled (targets: class, subjects-of, objects-of; paths: a
predicate or an alternative path; constraints: min/maxCount, datatype, min/maxInclusive,
pattern, minLength, in, class, lessThanOrEquals, SPARQL SELECT); anything else is refused
loudly, and the tests hold the results equal to pyshacl's on every fixture.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

from pyoxigraph import BlankNode
from rdflib import RDF, BNode, URIRef
from rdflib.collection import Collection

from benchkg.kernel.errors import QueryError
from benchkg.kernel.limits import within_store
from benchkg.rules.shapes import SEVERITIES, RawResult, own_shapes

SH = "http://www.w3.org/ns/shacl#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#: where a run restricted to some focus nodes puts its ``VALUES ?this {…}`` (a comment otherwise)
FOCUS = "#FOCUS#\n"
SUPPORTED = {
    "minCount",
    "maxCount",
    "datatype",
    "minInclusive",
    "maxInclusive",
    "pattern",
    "minLength",
    "in",
    "class",
    "lessThanOrEquals",
}
IGNORED = {
    "path",
    "message",
    "severity",
    "targetClass",
    "targetSubjectsOf",
    "targetObjectsOf",
    "property",
    "sparql",
    "name",
    "description",
    "order",
    "group",
}


@dataclass(frozen=True)
class Check:
    """One compiled query: each solution is one result of ``shape``."""

    shape: str
    severity: str
    message: str
    query: str
    path: str = ""  # the result path when the query does not bind ?path


def _n3(term) -> str:
    return term.n3()


def _local(iri) -> str:
    return str(iri).rsplit("#", 1)[-1]


@dataclass
class Targets:
    """A shape's focus nodes as SPARQL: one triple pattern per target declaration."""

    patterns: list[str]
    subjects_of: str = ""  # the predicate, when the only target is sh:targetSubjectsOf it

    def block(self) -> str:
        """A group binding ?this: a single pattern inline (cheapest for Oxigraph), several as a
        DISTINCT union."""
        if len(self.patterns) == 1:
            return FOCUS + self.patterns[0]
        return (
            "{ SELECT DISTINCT ?this WHERE { " + FOCUS + " UNION ".join("{ " + p + " }" for p in self.patterns) + " } }"
        )


def _targets(shapes, shape) -> Targets:

    parts, subjects_of = [], []
    for c in shapes.objects(shape, URIRef(SH + "targetClass")):
        # instances by rdf:type alone: the validated data holds no subclass axioms (the ontology
        # graph in the store does, and would make the engines disagree)
        parts.append(f"?this <{RDF_TYPE}> {_n3(c)} .")
    for p in shapes.objects(shape, URIRef(SH + "targetSubjectsOf")):
        parts.append(f"?this {_n3(p)} ?_target .")
        subjects_of.append(_n3(p))
    for p in shapes.objects(shape, URIRef(SH + "targetObjectsOf")):
        parts.append(f"?_target {_n3(p)} ?this .")
    if not parts:
        raise QueryError(
            f"shape {_local(shape)} has no target the fast validator knows (sh:targetClass, "
            "sh:targetSubjectsOf, sh:targetObjectsOf); give it one of those"
        )
    return Targets(parts, subjects_of[0] if len(parts) == 1 and subjects_of else "")


def _path(shapes, node) -> tuple[str, str]:
    """(SPARQL path, result path IRI or '') of a property shape."""

    path = shapes.value(node, URIRef(SH + "path"))
    if isinstance(path, URIRef):
        return _n3(path), str(path)
    alternatives = shapes.value(path, URIRef(SH + "alternativePath")) if isinstance(path, BNode) else None
    if alternatives is None:
        raise QueryError(f"a path of shape {_local(node)} is not a predicate or an alternative path")
    return "(" + "|".join(_n3(p) for p in Collection(shapes, alternatives)) + ")", ""


def _severity(shapes, node, default: str = "violation") -> str:

    value = shapes.value(node, URIRef(SH + "severity"))
    return SEVERITIES.get(str(value), default) if value is not None else default


#: each value constraint as the filter that finds a breaking ``?value`` ({obj}: the constraint's value)
VALUE_FILTERS = {
    "datatype": "FILTER (!isLiteral(?value) || datatype(?value) != {obj})",
    "minInclusive": "FILTER (COALESCE(!(?value >= {obj}), true))",
    "maxInclusive": "FILTER (COALESCE(!(?value <= {obj}), true))",
    "pattern": "FILTER (isBlank(?value) || !REGEX(STR(?value), {obj}))",
    "minLength": "FILTER (isBlank(?value) || STRLEN(STR(?value)) < {obj})",
    "in": "FILTER (?value NOT IN ({obj}))",
    "class": "OPTIONAL {{ ?value <" + RDF_TYPE + "> ?_class . FILTER (?_class = {obj}) }} FILTER (!BOUND(?_class))",
    "lessThanOrEquals": "?this {obj} ?other . FILTER (COALESCE(!(?value <= ?other), true))",
}


def _property_checks(shapes, prop, name: str, target: Targets, severity: str, message: str) -> list[Check]:
    """One SELECT per constraint of a property shape, each finding the focus nodes (and values) that
    break it."""
    sparql_path, result_path = _path(shapes, prop)
    targets = target.block()
    # a value of the path makes its subject a target already when the target is "subjects of the
    # path": the target pattern is then left out (at 100k claims: 2 s -> 0.1 s a check)
    implied = FOCUS if target.subjects_of and target.subjects_of == sparql_path else targets
    checks = []
    for pred, obj in shapes.predicate_objects(prop):
        key = str(pred)[len(SH) :] if str(pred).startswith(SH) else None
        if key is None or key in IGNORED:
            continue
        if key not in SUPPORTED:
            raise QueryError(f"shape {name}: sh:{key} is not supported by the fast validator")
        if key in ("minCount", "maxCount"):
            select = _count_check(key, int(obj), targets, implied, sparql_path)
        elif key in VALUE_FILTERS:
            select = (
                f"SELECT DISTINCT ?this ?value WHERE {{ {implied} ?this {sparql_path} ?value . "
                f"{VALUE_FILTERS[key].format(obj=_constraint_value(shapes, key, obj))} }}"
            )
        else:
            continue
        checks.append(Check(name, severity, message, select, result_path))
    return checks


def _constraint_value(shapes, key: str, obj) -> str:
    """A constraint's value as SPARQL text: a number for a length, a list for ``sh:in``, else the term."""
    if key == "minLength":
        return str(int(obj))
    if key == "in":
        return ", ".join(_n3(v) for v in Collection(shapes, obj))
    return _n3(obj)


def _count_check(key: str, count: int, targets: str, implied: str, path: str) -> str:
    """The SELECT that finds the targets with fewer (``minCount``) or more (``maxCount``) values."""
    if key == "minCount" and count == 1:  # 5x faster than counting, same answer
        return f"SELECT DISTINCT ?this WHERE {{ {targets} FILTER NOT EXISTS {{ ?this {path} ?v }} }}"
    if key == "minCount":
        return (
            f"SELECT ?this WHERE {{ {targets} OPTIONAL {{ ?this {path} ?v }} }} "
            f"GROUP BY ?this HAVING (COUNT(DISTINCT ?v) < {count})"
        )
    return f"SELECT ?this WHERE {{ {implied} ?this {path} ?v }} GROUP BY ?this HAVING (COUNT(DISTINCT ?v) > {count})"


def _mark_focus(select: str) -> str:
    """Put the focus marker at the start of every group after ``WHERE`` that mentions ``?this``, so
    a restricted run binds ``?this`` before the aggregates and joins inside the subqueries (a group
    that only projects ``?this`` is left alone: binding it there would be a cross product).

    >>> _mark_focus("SELECT ?this WHERE { { SELECT ?x WHERE { ?x a ?c } } { SELECT ?this WHERE { ?this a ?c } } }").count(FOCUS)
    2
    """
    out, last = [], 0
    for m in re.finditer(r"(?i)\bWHERE\s*\{", select):
        depth, end = 1, m.end()
        while depth and end < len(select):
            depth += {"{": 1, "}": -1}.get(select[end], 0)
            end += 1
        if "?this" in select[m.end() : end]:
            out += [select[last : m.end()], " ", FOCUS]
            last = m.end()
    return "".join(out) + select[last:]


#: what a node shape may say beside its targets, properties and SPARQL constraints (anything else,
#: sh:closed or sh:node say, would be silently skipped: refused instead)
NODE_KEYS = IGNORED | {"deactivated", "prefixes", "declare"}


def _refuse_unsupported(shapes, shape, name: str) -> None:
    """:raises QueryError: for a node shape constraint the fast validator does not compile."""
    for pred in set(shapes.predicates(shape)):
        key = str(pred)[len(SH) :] if str(pred).startswith(SH) else None
        if key is not None and key not in NODE_KEYS:
            raise QueryError(
                f"shape {name}: sh:{key} is not supported by the fast validator (it compiles "
                f"sh:property with {', '.join(sorted(SUPPORTED))}, and sh:sparql); run "
                "`benchkg validate --engine pyshacl`, or write the rule as a SPARQL constraint"
            )


#: the last shapes graph compiled and its checks (:func:`~benchkg.rules.shapes.load_shapes` shares one graph
#: per set of files: a build and the check after it compile it once)
_compiled: tuple = (None, ())


def compile_shapes(shapes) -> list[Check]:
    """Every named shape of the shapes graph as SPARQL checks (the same graph: the same checks)."""
    global _compiled
    last = _compiled  # (read once: another thread may compile other shapes meanwhile)
    if last[0] is not shapes:
        last = _compiled = (shapes, tuple(_compile(shapes)))
    return list(last[1])


def _compile(shapes) -> list[Check]:
    """Every named shape of ``shapes`` as SPARQL checks."""

    prefixes = {}
    for declaration in shapes.objects(None, URIRef(SH + "declare")):
        prefixes[str(shapes.value(declaration, URIRef(SH + "prefix")))] = str(
            shapes.value(declaration, URIRef(SH + "namespace"))
        )
    header = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in sorted(prefixes.items()))
    checks: list[Check] = []
    named = sorted(
        {
            s
            for kind in ("NodeShape", "PropertyShape")
            for s in shapes.subjects(RDF.type, URIRef(SH + kind))
            if isinstance(s, URIRef)
        }
    )
    for shape in named:
        name = _local(shape)
        targets = _targets(shapes, shape)
        severity = _severity(shapes, shape)
        message = str(shapes.value(shape, URIRef(SH + "message")) or "")
        if (shape, RDF.type, URIRef(SH + "PropertyShape")) in shapes:
            checks += _property_checks(shapes, shape, name, targets, severity, message)
        else:
            _refuse_unsupported(shapes, shape, name)
        for prop in shapes.objects(shape, URIRef(SH + "property")):
            own = str(shapes.value(prop, URIRef(SH + "message")) or message)
            checks += _property_checks(shapes, prop, name, targets, _severity(shapes, prop), own)
        for constraint in shapes.objects(shape, URIRef(SH + "sparql")):
            select = str(shapes.value(constraint, URIRef(SH + "select")))
            inner = _mark_focus(select.replace("$this", "?this"))
            checks.append(
                Check(name, severity, message, f"{header}SELECT * WHERE {{ {targets.block()} {{ {inner} }} }}")
            )
    return checks


def _text(term) -> str:
    return f"_:{term.value}" if isinstance(term, BlankNode) else term.value


def run_fast(
    store, shapes, focus: list[str] | None = None, progress=None, only: set[str] | None = None
) -> list[RawResult]:
    """Run every shape on ``store`` (union of its graphs); results as pyshacl would give them.

    The compiled queries run on as many threads as there are cores (at most 4): Oxigraph
    evaluates them without holding Python's lock, so two cores validate ~1.8× faster.

    :param focus: only these focus node IRIs (for incremental validation); all by default.
    :param progress: optional callable ``(done, total)``, called after each compiled query.
    :param only: only the shapes of these names (finding caveats run just their evidence shapes).
    """
    values = "VALUES ?this { " + " ".join(f"<{iri}>" for iri in focus) + " }\n" if focus is not None else FOCUS
    checks = [c for c in compile_shapes(shapes) if only is None or c.shape in only]
    own = own_shapes(shapes)
    theirs = [c for c in checks if c.shape in own]
    out: list[RawResult] = []
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        ours = [c for c in checks if c.shape not in own]
        for n, results in enumerate(pool.map(lambda c: _run_check(store, c, values), ours), 1):
            out += results
            if progress:
                progress(n, len(checks))
    # a data repository's own shapes, one at a time once no thread runs (each in a worker process,
    # killed at its time limit: benchkg.kernel.limits)
    for n, check in enumerate(theirs, len(checks) - len(theirs) + 1):
        out += _run_check(store, check, values, own[check.shape].seconds, own[check.shape].file)
        if progress:
            progress(n, len(checks))
    return out


#: shape name -> seconds its queries took, while :func:`timed_shapes` records (None otherwise)
_TIMINGS: dict[str, float] | None = None
_TIMINGS_LOCK = threading.Lock()


@contextmanager
def timed_shapes() -> Iterator[dict[str, float]]:
    """Record how long each shape's queries take in the runs inside the ``with`` (``validate
    --timings``): shape name -> seconds, every run added up (a build's finding shapes too).

    >>> with timed_shapes() as seconds:
    ...     pass
    >>> seconds
    {}
    """
    global _TIMINGS
    _TIMINGS = {}
    try:
        yield _TIMINGS
    finally:
        _TIMINGS = None


def _run_check(store, check: Check, values: str, seconds: float | None = None, where: str = "") -> list[RawResult]:
    """The results of one compiled query; with ``seconds``, in a worker killed at that limit (``where``:
    the shape's file, for the error)."""
    start = time.perf_counter()
    try:
        if seconds is None:
            return _results(store, check, values)
        return within_store(seconds, f"shape {check.shape} ({where})", store, _results, check, values)
    finally:
        timings = _TIMINGS
        if timings is not None:
            with _TIMINGS_LOCK:
                timings[check.shape] = timings.get(check.shape, 0.0) + time.perf_counter() - start


def _results(store, check: Check, values: str) -> list[RawResult]:
    try:
        solutions = store.query(check.query.replace(FOCUS, values), use_default_graph_as_union=True)
    except SyntaxError as e:
        raise QueryError(f"shape {check.shape}: compiled query does not parse: {e}") from e
    names = [v.value for v in solutions.variables]
    out = []
    for s in solutions:
        focus = _text(s["this"])
        message = check.message
        for name in names:
            if name not in ("this", "value") and s[name] is not None:
                message = message.replace("{?" + name + "}", _text(s[name]))
        value = s["value"] if "value" in names and s["value"] is not None else None
        value_text: str | None
        if value is None and "value" not in names and check.query.startswith(("PREFIX", "SELECT *")):
            value_text = focus  # a SPARQL constraint without ?value reports the focus node
        else:
            value_text = _text(value) if value is not None else None
        path = _text(s["path"]) if "path" in names and s["path"] is not None else check.path
        out.append(RawResult(focus, path, value_text, check.shape, check.severity, message))
    return out
