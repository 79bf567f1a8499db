"""A lint for SPARQL patterns that can bind a variable to arbitrary resources.

SPARQL joins a row in which a variable is unbound with *every* row that binds it. So::

    OPTIONAL { ?claim bk:system ?system }
    OPTIONAL { ?system rdfs:label ?label }

gives, for a claim without a system, one row per labelled resource in the graph: the second OPTIONAL
is linked to the rest only through ``?system``, which the first may leave unbound. The fix is to nest
it (``OPTIONAL { ?claim bk:system ?system OPTIONAL { ?system rdfs:label ?label } }``). The lint reads
the query's algebra (rdflib's), works out for every pattern which variables are *certainly* bound by
it and which only *maybe*, and reports:

- an OPTIONAL whose only links to the pattern before it are variables that pattern may leave unbound,
  or which has no link at all;
- a join of two groups whose only shared variables are unbound on one side (the same trap without
  the word OPTIONAL: ``OPTIONAL { ?c bk:system ?s } ?s rdfs:label ?l``).

>>> lint("SELECT * { ?c <p> ?r OPTIONAL { ?c <sys> ?s } OPTIONAL { ?s <label> ?l } }")
['OPTIONAL { ?s <label> ?l }: linked to the rest only through ?s, which an earlier OPTIONAL may leave unbound (then it binds ?s to every match in the graph); nest it inside the OPTIONAL that binds ?s']
>>> lint("SELECT * { ?c <p> ?r OPTIONAL { ?c <sys> ?s OPTIONAL { ?s <label> ?l } } }")
[]
"""

from __future__ import annotations

from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Identifier, Variable

from benchkg.answers.queries import bound_text

#: aggregates that are bound for every group, whatever the rows hold
_ALWAYS_BOUND = {"Aggregate_Count", "Aggregate_GroupConcat"}
#: expressions bound whatever their arguments are
_TOTAL = {"Builtin_BOUND", "Builtin_EXISTS", "Builtin_NOTEXISTS"}


class _Lint:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.aggregates: dict[Variable, bool] = {}

    def certain(self, expr, certain: set) -> bool:
        """Whether an expression is bound whenever the variables in ``certain`` are."""
        if isinstance(expr, Variable):
            return expr in certain or self.aggregates.get(expr, False)
        if isinstance(expr, Identifier) or expr is None or isinstance(expr, (str, int, float)):
            return True
        if isinstance(expr, (list, tuple)):
            return all(self.certain(e, certain) for e in expr)
        if isinstance(expr, CompValue):
            if expr.name in _TOTAL:
                return True
            if expr.name == "Builtin_COALESCE":
                return any(self.certain(a, certain) for a in expr.get("arg") or [])
            return all(self.certain(v, certain) for k, v in expr.items() if not k.startswith("_"))
        return True

    def nested(self, expr) -> None:
        """Lint the graph patterns inside an expression (EXISTS, NOT EXISTS)."""
        if isinstance(expr, CompValue):
            if expr.name in ("Builtin_EXISTS", "Builtin_NOTEXISTS"):
                self.walk(expr.graph)
            for k, v in expr.items():
                if not k.startswith("_"):
                    self.nested(v)
        elif isinstance(expr, (list, tuple)):
            for e in expr:
                self.nested(e)

    def walk(self, node) -> tuple[set, set]:
        """(certainly bound, maybe bound) variables of a pattern, recording problems on the way.

        Long because it is one case per algebra node of rdflib's parser, and the cases are read
        together: how a variable is bound depends on every node above it."""
        if not isinstance(node, CompValue):
            return set(), set()
        name = node.name
        if name == "BGP":
            found = {t for triple in node.triples for t in triple if isinstance(t, Variable)}
            return found, set()
        if name in ("SelectQuery", "ToMultiSet", "Distinct", "Reduced", "Slice", "OrderBy", "Minus"):
            if name == "Minus":
                self.walk(node.p2)
                return self.walk(node.p1)
            return self.walk(node.p)
        if name == "Filter":
            self.nested(node.expr)
            return self.walk(node.p)
        if name == "Project":
            c, m = self.walk(node.p)
            keep = set(node.PV)
            return c & keep, m & keep
        if name == "Extend":
            c, m = self.walk(node.p)
            self.nested(node.expr)
            return (c | {node.var}, m) if self.certain(node.expr, c) else (c, m | {node.var})
        if name == "AggregateJoin":
            c, m = self.walk(node.p)
            by = node.p.get("expr") or []
            for agg in node.A:
                bound = agg.name in _ALWAYS_BOUND or self.certain(agg.vars, c)
                self.aggregates[agg.res] = bound
            keys = {v for v in by if isinstance(v, Variable)}
            return c & keys | {a.res for a in node.A if self.aggregates[a.res]}, (m & keys) | {
                a.res for a in node.A if not self.aggregates[a.res]
            }
        if name == "Group":
            return self.walk(node.p)
        if name == "Graph":
            c, m = self.walk(node.p)
            return c | ({node.term} if isinstance(node.term, Variable) else set()), m
        if name == "values":
            rows = node.res or []
            names = {v for row in rows for v in row}
            always = {v for v in names if all(row.get(v) is not None for row in rows)}
            return always, names - always
        if name == "Union":
            c1, m1 = self.walk(node.p1)
            c2, m2 = self.walk(node.p2)
            return c1 & c2, (c1 | m1 | c2 | m2) - (c1 & c2)
        if name == "Join":
            c1, m1 = self.walk(node.p1)
            c2, m2 = self.walk(node.p2)
            shared = (c1 | m1) & (c2 | m2)
            if shared and not shared & c1 & c2:
                self.problems.append(
                    f"{_show(node.p2)}: joined to the group before it only through "
                    f"{_names(shared)}, which one side may leave unbound (then it matches every value); "
                    "bind it on both sides or nest the pattern inside the OPTIONAL that binds it"
                )
            return c1 | c2, (m1 | m2) - (c1 | c2)
        if name == "LeftJoin":
            c1, m1 = self.walk(node.p1)
            c2, m2 = self.walk(node.p2)
            expr = node.get("expr")
            if expr is not None:
                self.nested(expr)
            shared = (c1 | m1) & (c2 | m2)
            filter_links = _variables(expr) & c1
            if not (shared & c1 or filter_links) and (c2 | m2):
                if shared:
                    self.problems.append(
                        f"OPTIONAL {_show(node.p2)}: linked to the rest only through {_names(shared)}, "
                        "which an earlier OPTIONAL may leave unbound (then it binds "
                        f"{_names(shared)} to every match in the graph); nest it inside the OPTIONAL "
                        f"that binds {_names(shared)}"
                    )
                elif (c1 | m1) and not _anchored(node.p2):
                    self.problems.append(
                        f"OPTIONAL {_show(node.p2)}: shares no variable with the pattern before it, so "
                        "every row is joined with every match in the graph"
                    )
            return c1, (m1 | c2 | m2) - c1
        # anything else (SERVICE, paths…): its variables, maybe bound
        return set(), _variables(node)


def _anchored(node) -> bool:
    """Whether a pattern names a resource or value in a subject or object (``<x> bk:p ?v``): then it
    matches that resource's values, not arbitrary ones."""
    if isinstance(node, CompValue):
        if node.name == "BGP":
            return any(not isinstance(t[0], Variable) or not isinstance(t[2], Variable) for t in node.triples)
        return any(_anchored(v) for k, v in node.items() if not k.startswith("_"))
    if isinstance(node, (list, tuple)):
        return any(_anchored(v) for v in node)
    return False


def _variables(node) -> set:
    if isinstance(node, Variable):
        return {node}
    if isinstance(node, CompValue):
        out = set()
        for k, v in node.items():
            if not k.startswith("_"):
                out |= _variables(v)
        return out
    if isinstance(node, (list, tuple)):
        out = set()
        for v in node:
            out |= _variables(v)
        return out
    return set()


def _names(variables: set) -> str:
    return ", ".join(f"?{v}" for v in sorted(variables))


def _term(t) -> str:
    if isinstance(t, Variable):
        return f"?{t}"
    text = t.n3() if hasattr(t, "n3") else str(t)
    return text if len(text) < 60 else text[:57] + "…"


def _show(node) -> str:
    """A short SPARQL-like rendering of a pattern, for the message."""
    if isinstance(node, CompValue) and node.name == "BGP":
        inner = " . ".join(" ".join(_term(t) for t in triple) for triple in node.triples)
        return "{ " + inner + " }"
    found = sorted(str(v) for v in _variables(node) if not str(v).startswith("_"))
    return "{ … " + " ".join(f"?{v}" for v in found[:6]) + (" …" if len(found) > 6 else "") + " }"


def lint(text: str) -> list[str]:
    """The problems of one SPARQL query text (empty when none).

    >>> lint("SELECT * { ?c <p> ?r OPTIONAL { ?x <label> ?l } }")
    ['OPTIONAL { ?x <label> ?l }: shares no variable with the pattern before it, so every row is joined with every match in the graph']
    >>> lint("SELECT * { OPTIONAL { ?c <sys> ?s } ?s <label> ?l }")[0].split(":")[0]
    '{ ?s <label> ?l }'
    """
    from rdflib.plugins.sparql import prepareQuery

    query = prepareQuery(text)
    checker = _Lint()
    checker.walk(query.algebra)
    return list(dict.fromkeys(checker.problems))


def lint_saved(query) -> list[str]:
    """The problems of a saved query, bound with its defaults and again with every slice parameter set,
    so the patterns the slices add are linted too (each problem once)."""
    variants: list[dict[str, str]] = [{}]
    if query.slices:
        variants.append({name: "any" for name in query.params})
    problems: list[str] = []
    for values in variants:
        text = bound_text(query, values, select=lambda _text: [])
        problems += [p for p in lint(text) if p not in problems]
    return problems


__all__ = ["lint", "lint_saved"]
