"""JSON-LD: benchkg's versioned, protected ``@context`` and a compact JSON-LD writer that uses it.

The context (``ontology/context/v1.jsonld``) is generated from the ontology: every ``bk:``
property is a term named by its local name, typed by its ``rdfs:range`` (``@id`` for object
properties, the XSD datatype for data properties), plus the few terms of other vocabularies the
records use (``label``, ``value``, ``hasUnit``…). It is ``@protected``: a document that imports
it cannot redefine ``value`` to mean something else. Within v1 a term never changes meaning;
terms may be added. A change of meaning is v2, published beside v1.

The writer does not compact through a JSON-LD processor: it groups triples by subject and writes
each value in the shortest form that keeps it exact (a plain string where the term's coercion
gives back the same literal, a value object otherwise), so the output is equal, triple for
triple, to the N-Quads of the same graph (tests check this with jsonld.js and pyoxigraph).
"""

from __future__ import annotations

import json
from functools import lru_cache

from pyoxigraph import NamedNode, RdfFormat, Store

from benchkg.kernel.resources import CONTEXT_FILE, ONTOLOGY_FILE
from benchkg.kernel.vocab import BK, DATA_PREFIXES, PREFIXES, expand

CONTEXT_VERSION = "v1"
XSD = PREFIXES["xsd"]
RDF_TYPE = PREFIXES["rdf"] + "type"

#: terms for the properties of other vocabularies the records use: term -> (IRI, coercion)
EXTRA_TERMS = {
    "label": (PREFIXES["rdfs"] + "label", None),
    "comment": (PREFIXES["rdfs"] + "comment", None),
    "seeAlso": (PREFIXES["rdfs"] + "seeAlso", "@id"),
    "identifier": (PREFIXES["dcterms"] + "identifier", None),
    "title": (PREFIXES["dcterms"] + "title", None),
    "license": (PREFIXES["dcterms"] + "license", "@id"),
    "modified": (PREFIXES["dcterms"] + "modified", XSD + "date"),
    "altLabel": (PREFIXES["skos"] + "altLabel", None),
    "note": (PREFIXES["skos"] + "note", None),
    "hadPrimarySource": (PREFIXES["prov"] + "hadPrimarySource", "@id"),
    "wasDerivedFrom": (PREFIXES["prov"] + "wasDerivedFrom", "@id"),
    "wasAttributedTo": (PREFIXES["prov"] + "wasAttributedTo", "@id"),
    "value": (PREFIXES["qudt"] + "value", XSD + "decimal"),
    "hasUnit": (PREFIXES["qudt"] + "hasUnit", "@id"),
}


def compact_iri(iri: str, prefixes: dict[str, str] | None = None) -> str:
    """``prefix:local`` when a prefix covers the IRI and the local part is plain, else the IRI.

    >>> compact_iri("https://w3id.org/benchkg/ontology#scenario-server")
    'bk:scenario-server'
    >>> compact_iri("https://example.org/x")
    'https://example.org/x'
    """
    for prefix, ns in (prefixes or DATA_PREFIXES).items():
        if iri.startswith(ns) and len(iri) > len(ns):
            local = iri[len(ns) :]
            if not local.startswith("//") and all(c.isalnum() or c in "-_." for c in local):
                return f"{prefix}:{local}"
    return iri


def generate_context() -> dict:
    """The ``@context`` object, generated from the ontology (the committed file must equal it).

    >>> ctx = generate_context()["@context"]
    >>> ctx["@protected"], ctx["acceleratorCount"], ctx["accelerator"], ctx["value"]
    (True, {'@id': 'bk:acceleratorCount', '@type': 'xsd:integer'}, {'@id': 'bk:accelerator', '@type': '@id'}, {'@id': 'qudt:value', '@type': 'xsd:decimal'})
    """
    store = Store()
    store.load(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE)
    owl = PREFIXES["owl"]
    range_of = {}
    for kind in ("ObjectProperty", "DatatypeProperty"):
        for q in store.quads_for_pattern(None, NamedNode(RDF_TYPE), NamedNode(owl + kind), None):
            ranges = [
                str(getattr(r.object, "value", ""))
                for r in store.quads_for_pattern(q.subject, NamedNode(PREFIXES["rdfs"] + "range"), None, None)
            ]
            subject = str(getattr(q.subject, "value", ""))
            if subject.startswith(BK):
                range_of[subject] = (kind, ranges[0] if ranges else None)
    ctx: dict = {"@version": 1.1, "@protected": True}
    ctx.update(DATA_PREFIXES)
    ctx["id"] = "@id"
    ctx["type"] = "@type"
    terms = {iri[len(BK) :]: (iri, _coercion(kind, rng)) for iri, (kind, rng) in range_of.items()}
    for term, (iri, coercion) in sorted({**terms, **EXTRA_TERMS}.items()):
        if term in ctx:
            raise ValueError(f"JSON-LD term {term!r} is also a prefix or keyword alias")
        ctx[term] = _term_definition(iri, coercion)
    return {"@context": ctx}


def _coercion(kind: str, rng: str | None) -> str | None:
    if kind == "ObjectProperty":
        return "@id"
    if rng and rng.startswith(XSD) and rng != XSD + "string":
        return rng
    return None


def _term_definition(iri: str, coercion: str | None) -> dict:
    definition = {"@id": compact_iri(iri)}
    if coercion:
        definition["@type"] = coercion if coercion == "@id" else compact_iri(coercion)
    return definition


def context_text() -> str:
    """The context as the committed file holds it."""
    return json.dumps(generate_context(), indent=2, ensure_ascii=False) + "\n"


@lru_cache(maxsize=1)
def load_context() -> dict:
    """The committed context file's ``@context`` object."""
    return json.loads(CONTEXT_FILE.read_text(encoding="utf-8"))["@context"]


def _terms_by_iri(ctx: dict) -> dict[str, tuple[str, str | None]]:
    """predicate IRI -> (term, expanded coercion) for every term definition of the context."""

    def full(value: str) -> str:  # the context's prefixes are DATA_PREFIXES (a test holds the file to it)
        return expand(value) if value.partition(":")[0] in DATA_PREFIXES else value

    out = {}
    for term, d in ctx.items():
        if isinstance(d, dict):
            coercion = d.get("@type")
            out[full(d["@id"])] = (term, full(coercion) if coercion and coercion != "@id" else coercion)
    return out


def _value(obj, coercion: str | None):
    """One object in the shortest exact JSON-LD form under a term's coercion."""
    kind = type(obj).__name__
    if kind == "NamedNode":
        return compact_iri(obj.value) if coercion == "@id" else {"@id": compact_iri(obj.value)}
    if kind == "BlankNode":
        return "_:" + obj.value if coercion == "@id" else {"@id": "_:" + obj.value}
    if obj.language:
        return {"@value": obj.value, "@language": obj.language}
    datatype = obj.datatype.value
    if coercion is None and datatype == XSD + "string" or coercion == datatype:
        return obj.value
    return {"@value": obj.value, "@type": compact_iri(datatype)}


def nodes(triples) -> list[dict]:
    """Node objects for ``triples`` (pyoxigraph Triples or Quads), one per subject, in first-seen
    order, keys as the context's terms.

    >>> from pyoxigraph import Literal, NamedNode, Triple
    >>> bk = "https://w3id.org/benchkg/ontology#"
    >>> s = NamedNode("https://w3id.org/benchkg/id/benchmarks/x")
    >>> nodes([Triple(s, NamedNode(bk + "acceleratorCount"), Literal("72", datatype=NamedNode(XSD + "integer"))),
    ...        Triple(s, NamedNode(RDF_TYPE), NamedNode(bk + "Benchmark"))])
    [{'@id': 'https://w3id.org/benchkg/id/benchmarks/x', 'acceleratorCount': '72', '@type': 'bk:Benchmark'}]
    """
    by_iri = _terms_by_iri(load_context())
    out: dict[str, dict] = {}
    for t in triples:
        s = t.subject
        sid = s.value if type(s).__name__ == "NamedNode" else "_:" + s.value
        node = out.setdefault(sid, {"@id": sid})
        if t.predicate.value == RDF_TYPE and type(t.object).__name__ == "NamedNode":
            key, value = "@type", compact_iri(t.object.value)
        elif t.predicate.value in by_iri:
            key, coercion = by_iri[t.predicate.value]
            value = _value(t.object, coercion)
        else:
            key, value = compact_iri(t.predicate.value), _value(t.object, None)
        if key in node:
            if not isinstance(node[key], list):
                node[key] = [node[key]]
            node[key].append(value)
        else:
            node[key] = value
    return list(out.values())


def document(quads, context_ref: str | None = None, named_graphs: bool = True) -> dict:
    """A JSON-LD document for ``quads``: named graphs as ``@graph`` objects (or one default graph),
    the context inline, or referenced by ``context_ref`` (a URL, relative or absolute)."""
    context = context_ref if context_ref else load_context()
    if not named_graphs:
        return {"@context": context, "@graph": nodes(quads)}
    graphs: dict[str, list] = {}
    for q in quads:
        graphs.setdefault(q.graph_name.value, []).append(q)
    return {"@context": context, "@graph": [{"@id": g, "@graph": nodes(qs)} for g, qs in graphs.items()]}


def dumps(doc: dict) -> bytes:
    """JSON text of a document, UTF-8, one stable layout."""
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


if __name__ == "__main__":  # regenerate the committed context: python -m benchkg.publish.jsonld
    CONTEXT_FILE.parent.mkdir(parents=True, exist_ok=True)
    CONTEXT_FILE.write_text(context_text(), encoding="utf-8")
    print(f"wrote {CONTEXT_FILE}")
