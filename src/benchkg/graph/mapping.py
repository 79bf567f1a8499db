"""Records -> RDF quads under the benchkg ontology, one named graph per record file.

Every node gets an IRI (the record's IRI, or the record's IRI plus ``#<json-pointer>`` for a
nested object), so the same records always give the same triples, and a finding about a node can
be traced back to the JSON member that made it.
"""

from __future__ import annotations

import json
from collections import defaultdict
from decimal import ROUND_HALF_EVEN, Context, Decimal
from typing import Any

from pyoxigraph import Literal, NamedNode, Quad

from benchkg.kernel.matching import record_interval
from benchkg.kernel.numbers import stated_counts, stating
from benchkg.kernel.vocab import (
    BK,
    COMPARISON_DIMENSIONS,
    DEFAULT_BASE,
    PREFIXES,
    THROUGH_OTHER_RECORDS,
    concept_iri,
    curator_name,
    expand,
    record_iri,
    shape_iri,
    unit_iri,
)
from benchkg.records.reader import Record
from benchkg.records.schema import BENCHMARK_FIELD_PATHS, CLASSES, SCHEMA, Field

XSD = PREFIXES["xsd"]
RDF_TYPE = NamedNode(PREFIXES["rdf"] + "type")
_DT = {name: NamedNode(XSD + name) for name in ("integer", "decimal", "boolean", "date")}
#: the top-level benchmark fields that describe its headline number; they hang on a
#: ``qudt:QuantityValue`` node ``<claim>#result`` instead of on the claim.
RESULT_FIELDS = ("metric", "value", "value_as_written", "unit", "scope")
RESULT_FRAGMENT = "result"
DERIVED_FRAGMENT = "derived/per-accelerator"
#: a derived value's precision: 10 significant digits (four more than MLPerf publishes; with 17, Oxigraph's
#: decimal division overflows and a ratio of two such values comes out unbound) and no more than 15 decimal
#: places, which Virtuoso 7.2 keeps of an xsd:decimal (it cuts the rest off: a pushed store would differ)
_SIGNIFICANT = Context(prec=10, rounding=ROUND_HALF_EVEN)
_PLACES = Decimal("1E-15")


def decimal_text(value: int | Decimal) -> str:
    """The xsd:decimal lexical form of a number (never exponent notation).

    >>> decimal_text(Decimal("1E+3")), decimal_text(Decimal("910621.36")), decimal_text(72)
    ('1000', '910621.36', '72')
    """
    return format(Decimal(value), "f")


def per_accelerator(value: Decimal, count: int) -> Decimal:
    """An aggregate divided by its accelerator count, to 10 significant digits and at most 15 decimal
    places (what the SPARQL servers compute with and keep), never to four places: 0.0783824 ÷ 8 kept to
    four places was 0.0098, two figures, and two results that differ tied as "best" (issue 62). A table
    rounds it; the graph does not.

    >>> per_accelerator(Decimal("910621.36"), 72), per_accelerator(Decimal("0.0783824"), 8)
    (Decimal('12647.51889'), Decimal('0.0097978'))
    >>> per_accelerator(Decimal("0.000002"), 3)
    Decimal('6.66666667E-7')
    """
    exact = _SIGNIFICANT.divide(Decimal(value), Decimal(count))
    if exact.as_tuple().exponent < -15:  # type: ignore[operator]
        exact = exact.quantize(_PLACES, rounding=ROUND_HALF_EVEN)
    return exact.normalize(_SIGNIFICANT)


def _term(value: Any, spec: Field, base: str) -> NamedNode | Literal:
    t = spec.type
    if t == "str":
        return Literal(value)
    if t == "int":
        return Literal(str(int(value)), datatype=_DT["integer"])
    if t == "num":
        return Literal(decimal_text(value), datatype=_DT["decimal"])
    if t == "bool":
        return Literal("true" if value else "false", datatype=_DT["boolean"])
    if t == "date":
        return Literal(value, datatype=_DT["date"])
    if t == "url":
        return NamedNode(value)
    if t == "ref":
        return NamedNode(record_iri(base, spec.ref or "", value))
    if t == "vocab":
        return NamedNode(concept_iri(spec.scheme or "", value))
    if t == "unit":
        return NamedNode(unit_iri(value))
    if t == "shape":
        return NamedNode(shape_iri(value))
    if t == "field-name":
        return NamedNode(expand(BENCHMARK_FIELD_PATHS[value].pred))
    raise ValueError(f"no term for field type {t}")


class _Emitter:
    def __init__(self, record: Record, base: str):
        self.iri = record_iri(base, record.kind, record.id)
        self.graph = NamedNode(self.iri)
        self.base = base
        self.quads: list[Quad] = []
        self._preds: dict[str, NamedNode] = {}

    def pred(self, curie: str) -> NamedNode:
        node = self._preds.get(curie)
        if node is None:
            node = self._preds[curie] = NamedNode(expand(curie))
        return node

    def add(self, s: NamedNode, p: NamedNode, o: NamedNode | Literal) -> None:
        self.quads.append(Quad(s, p, o, self.graph))

    def node(self, pointer: str, cls: str) -> NamedNode:
        node = NamedNode(f"{self.iri}#{pointer.lstrip('/')}")
        self.add(node, RDF_TYPE, self.pred(cls))
        return node

    def fields(self, subject: NamedNode, data: dict[str, Any], fields: dict[str, Field], pointer: str) -> None:
        for key, value in data.items():
            self.value(subject, value, fields[key], f"{pointer}/{key}")

    def value(self, subject: NamedNode, value: Any, spec: Field, pointer: str) -> None:
        if spec.type == "list" and spec.items is not None:
            for i, item in enumerate(value):
                self.value(subject, item, spec.items, f"{pointer}/{i}")
        elif spec.many and isinstance(value, list):
            for item in value:
                self.add(subject, self.pred(spec.pred), _term(item, spec, self.base))
        elif spec.type == "obj":
            node = self.node(pointer, spec.cls or "")
            self.add(subject, self.pred(spec.pred), node)
            self.fields(node, value, spec.fields, pointer)
        else:
            self.add(subject, self.pred(spec.pred), _term(value, spec, self.base))


def record_quads(record: Record, base: str = DEFAULT_BASE) -> list[Quad]:
    """The quads of one record, in its own named graph (the record's IRI).

    A benchmark with an aggregate throughput and an accelerator count also gets a per-accelerator
    value, typed ``bk:DerivedValue`` and marked ``prov:wasDerivedFrom`` its headline result.

    >>> from pathlib import Path
    >>> r = Record("benchmarks", "x", Path("x.json"), {"id": "x", "value": Decimal("100"),
    ...            "scope": "aggregate", "accelerator_count": 8})
    >>> qs = record_quads(r)
    >>> [q.object.value for q in qs if q.subject.value.endswith("#derived/per-accelerator")
    ...  and q.predicate.value.endswith("qudt/value")]
    ['12.5']
    """
    e = _Emitter(record, base)
    subject = e.graph
    data = record.data
    e.add(subject, RDF_TYPE, e.pred(CLASSES[record.kind]))
    fields = SCHEMA[record.kind]
    if record.kind != "benchmarks":
        e.fields(subject, data, fields, "")
        if record.kind == "systems":
            _name_counts(e, subject, data.get("name", ""))
        return e.quads
    rest = {k: v for k, v in data.items() if k not in RESULT_FIELDS}
    e.fields(subject, rest, fields, "")
    headline = {k: data[k] for k in RESULT_FIELDS if k in data}
    if headline:
        result = e.node(RESULT_FRAGMENT, "qudt:QuantityValue")
        e.add(subject, e.pred("bk:result"), result)
        for key, value in headline.items():
            e.value(result, value, fields[key], f"/{key}")
        if "value" in data and data.get("measured_by") != "mlcommons":  # (an audited value is a point, as published)
            e.add(result, e.pred("bk:statedInterval"), Literal(str(record_interval(data))))
        count = data.get("accelerator_count")
        if (
            data.get("scope") == "aggregate"
            and data.get("metric", "throughput") == "throughput"
            and "value" in data
            and isinstance(count, int)
            and count > 0
        ):
            derived = e.node(DERIVED_FRAGMENT, "qudt:QuantityValue")
            e.add(derived, RDF_TYPE, e.pred("bk:DerivedValue"))
            e.add(subject, e.pred("bk:derivedValue"), derived)
            e.add(derived, e.pred("prov:wasDerivedFrom"), result)
            e.add(derived, e.pred("bk:scope"), NamedNode(concept_iri("scope", "per-accelerator")))
            e.add(
                derived,
                e.pred("qudt:value"),
                Literal(decimal_text(per_accelerator(data["value"], count)), datatype=_DT["decimal"]),
            )
            for key in ("metric", "unit"):
                if key in data:
                    e.value(derived, data[key], fields[key], f"/{key}")
    for n, citation in enumerate(data.get("sources", [])):
        if "source_id" in citation:
            e.add(
                subject, e.pred("prov:hadPrimarySource"), NamedNode(record_iri(base, "sources", citation["source_id"]))
            )
        if "quote" in citation and "value" in data:
            node = NamedNode(f"{e.iri}#sources/{n}")
            found = stating(citation["quote"], data["value"])
            e.add(node, e.pred("bk:quoteStatesValue"), _boolean(found is not None))
            if found is not None:
                e.add(node, e.pred("bk:quoteStatesValuePerAccelerator"), _boolean(found.per_accelerator))
    _name_counts(e, subject, data.get("system_name", ""))
    e.add(subject, e.pred("bk:comparisonValues"), Literal(comparison_values(e.quads, subject)))
    return e.quads


#: each comparison dimension a claim's record holds, as the predicates of its path
_OWN_PATHS = {
    d: [expand(step) for step in path.split("/")]
    for d, path in COMPARISON_DIMENSIONS.items()
    if d not in THROUGH_OTHER_RECORDS
}


def comparison_values(quads: list[Quad], claim: NamedNode) -> str:
    """The text of a claim's ``bk:comparisonValues``, from the quads of its record: its values (as curators
    write them, sorted) in each comparison dimension it states, in one JSON object; a claim's caveats then
    read one value per claim, not one per dimension (:func:`read_comparison_values` reads it back).

    >>> from pathlib import Path
    >>> r = Record("benchmarks", "x", Path("x.json"), {"id": "x", "scenario": "server", "value": Decimal("5"),
    ...            "unit": "tokens/s", "system_type": ["edge", "datacenter"], "suite_id": "mlperf-inference-v6.0"})
    >>> comparison_values(record_quads(r), NamedNode(record_iri(DEFAULT_BASE, "benchmarks", "x")))
    '{"round":["mlperf-inference-v6.0"],"scenario":["server"],"system-type":["datacenter","edge"],"unit":["tokens/s"]}'
    """
    objects: dict[tuple[Any, str], list[Any]] = defaultdict(list)
    for q in quads:
        objects[(q.subject, q.predicate.value)].append(q.object)
    values = {}
    for dimension, path in _OWN_PATHS.items():
        nodes = [claim]
        for step in path:
            nodes = [o for node in nodes for o in objects.get((node, step), [])]
        if nodes:
            values[dimension] = sorted({curator_name(node.value) for node in nodes})
    return json.dumps(values, separators=(",", ":"), sort_keys=True)


def read_comparison_values(text: str) -> dict[str, set[str]] | None:
    """A claim's values by dimension, from its ``bk:comparisonValues`` text; None when the text is not
    what :func:`comparison_values` writes (a store another tool wrote: not JSON, or not an object of
    lists of text), so a reader takes the values as absent and reads the claim's triples instead.

    >>> values = read_comparison_values('{"format":["fp4","fp8"],"scenario":["server"]}')
    >>> sorted(values["format"]), values["scenario"]
    (['fp4', 'fp8'], {'server'})
    >>> [read_comparison_values(t) for t in ("format=fp4", "[1]", '{"format": [["fp4"]]}', '{"format": "fp4"}')]
    [None, None, None, None]
    """
    try:
        found = json.loads(text)
    except ValueError:  # (json.JSONDecodeError, and a number too large to read)
        return None
    if not isinstance(found, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in found.values()
    ):
        return None
    return {d: set(v) for d, v in found.items()}


def _boolean(value: bool) -> Literal:
    return Literal("true" if value else "false", datatype=_DT["boolean"])


def _name_counts(e: "_Emitter", subject: NamedNode, name: str) -> None:
    """``bk:nameStatesCount`` for each accelerator count a name writes (4x, 8xH100, (x87))."""
    for count in sorted(set(stated_counts(name))):
        e.add(subject, e.pred("bk:nameStatesCount"), Literal(str(count), datatype=_DT["integer"]))


def pointer_of(fragment: str, predicate: str, value: str | None, record: Record) -> str:
    """The JSON pointer a (node, predicate, value) of ``record`` came from.

    ``fragment`` is the part of the node IRI after ``#`` ('' for the record itself).

    >>> from pathlib import Path
    >>> r = Record("benchmarks", "x", Path("x.json"), {"id": "x", "interconnect_ids": ["a", "b"]})
    >>> pointer_of("", BK + "interconnect", "https://w3id.org/benchkg/id/interconnects/b", r)
    '/interconnect_ids/1'
    >>> pointer_of("result", "http://qudt.org/schema/qudt/value", None, r)
    '/value'
    """
    fields = SCHEMA[record.kind]
    if predicate == BK + "result":
        return "/value"
    if fragment in (RESULT_FRAGMENT, DERIVED_FRAGMENT):
        for key in RESULT_FIELDS:
            if expand(fields[key].pred) == predicate:
                return f"/{key}"
        return "/value"
    pointer = f"/{fragment}" if fragment else ""
    data = record.data
    for token in pointer.split("/")[1:]:
        if isinstance(data, list):
            data = data[int(token)] if token.isdigit() and int(token) < len(data) else {}
            continue
        spec = fields.get(token)
        if spec is None or not isinstance(data, dict):
            return pointer
        data = data.get(token, {})
        fields = spec.fields if spec.type == "obj" else (spec.items.fields if spec.items else {})
    for key, spec in fields.items():
        if expand(spec.pred) != predicate:
            continue
        child = f"{pointer}/{key}"
        items = data.get(key) if isinstance(data, dict) else None
        if isinstance(items, list) and value is not None:
            for i, item in enumerate(items):
                if isinstance(item, str) and _same(value, item):
                    return f"{child}/{i}"
                if (
                    spec.items is not None
                    and spec.items.type == "field-name"
                    and item in BENCHMARK_FIELD_PATHS
                    and expand(BENCHMARK_FIELD_PATHS[item].pred) == value
                ):
                    return f"{child}/{i}"
        return child
    return pointer


def _same(term_value: str, item: str) -> bool:
    """Whether an RDF term's value is what a JSON list item maps to (an id, a concept, a literal)."""
    return term_value == item or term_value.endswith(("/" + item, "-" + item, "#" + item))
