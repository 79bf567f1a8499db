"""Records -> RDF: derived values, one graph per file, and an ontology that declares every term used."""

from __future__ import annotations

from decimal import Context, Decimal

from pyoxigraph import NamedNode, RdfFormat, Store

from benchkg.graph.mapping import record_quads
from benchkg.kernel.resources import ONTOLOGY_FILE
from benchkg.kernel.vocab import BK, PREFIXES, SCHEMES, UNITS, concept_iri, scheme_iri
from benchkg.records.reader import load_records
from benchkg.records.schema import SCHEMA
from conftest import DATA

RDF_TYPE = PREFIXES["rdf"] + "type"
RECORDS = load_records(DATA)


def ontology() -> Store:
    store = Store()
    store.load(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE)
    return store


def emitted_terms() -> tuple[set[str], set[str]]:
    predicates, classes = set(), set()
    for record in RECORDS:
        for q in record_quads(record):
            predicates.add(q.predicate.value)
            if q.predicate.value == RDF_TYPE:
                classes.add(q.object.value)
    return predicates, classes


def test_every_bk_term_the_mapping_emits_is_declared_with_label_and_comment():
    onto = ontology()
    label, comment = NamedNode(PREFIXES["rdfs"] + "label"), NamedNode(PREFIXES["rdfs"] + "comment")
    predicates, classes = emitted_terms()
    assert len(predicates) > 40 and len(classes) > 10
    for term in predicates | classes:
        if term.startswith(BK):
            node = NamedNode(term)
            assert list(onto.quads_for_pattern(node, label, None)), f"{term} has no rdfs:label"
            assert list(onto.quads_for_pattern(node, comment, None)), f"{term} has no rdfs:comment"
        else:
            assert any(term.startswith(ns) for ns in PREFIXES.values()), f"{term} is from no known vocabulary"


def test_schema_predicates_are_all_declared():
    onto = ontology()
    declared = {q.subject.value for q in onto.quads_for_pattern(None, NamedNode(RDF_TYPE), None)}

    def walk(fields):
        for spec in fields.values():
            inner = spec.items if spec.type == "list" else spec
            for curie in (spec.pred, inner.pred):
                if curie.startswith("bk:"):
                    assert BK + curie[3:] in declared, curie
            if inner.type == "obj":
                walk(inner.fields)

    for fields in SCHEMA.values():
        walk(fields)


def test_controlled_values_are_skos_concepts_in_their_scheme():
    onto = ontology()
    in_scheme = NamedNode(PREFIXES["skos"] + "inScheme")
    for scheme, values in SCHEMES.items():
        members = {q.subject.value for q in onto.quads_for_pattern(None, in_scheme, NamedNode(scheme_iri(scheme)))}
        assert members == {concept_iri(scheme, v) for v in values}, scheme
    for unit in UNITS.values():
        if unit.startswith(BK):
            assert list(
                onto.quads_for_pattern(
                    NamedNode(unit), NamedNode(RDF_TYPE), NamedNode("http://qudt.org/schema/qudt/ContextualUnit")
                )
            )


def test_one_named_graph_per_record_file():
    for record in RECORDS:
        graphs = {q.graph_name.value for q in record_quads(record)}
        assert graphs == {f"https://w3id.org/benchkg/id/{record.kind}/{record.id}"}


def test_per_accelerator_value_is_derived_and_marked():
    claim = next(r for r in RECORDS if r.id == "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server")
    quads = record_quads(claim)
    derived = f"https://w3id.org/benchkg/id/benchmarks/{claim.id}#derived/per-accelerator"
    by_pred = {q.predicate.value: q.object for q in quads if q.subject.value == derived}
    # to 10 significant digits, never to a fixed number of places (issue 62)
    expected = Context(prec=10).divide(Decimal(claim.data["value"]), Decimal(claim.data["accelerator_count"]))
    assert Decimal(by_pred["http://qudt.org/schema/qudt/value"].value) == expected
    assert by_pred[PREFIXES["prov"] + "wasDerivedFrom"].value.endswith("#result")
    assert by_pred["http://qudt.org/schema/qudt/hasUnit"].value == BK + "TOKEN-PER-SEC"
    assert "http://qudt.org/schema/qudt/unit" not in {q.predicate.value for q in quads}


def test_no_derived_value_without_a_count_or_for_a_per_accelerator_value():
    for record in RECORDS:
        if record.kind != "benchmarks":
            continue
        has = any(q.subject.value.endswith("#derived/per-accelerator") for q in record_quads(record))
        should = record.data.get("scope") == "aggregate" and bool(record.data.get("accelerator_count"))
        assert has == should, record.id


def test_same_records_give_the_same_triples():
    first = [str(q) for r in RECORDS for q in record_quads(r)]
    second = [str(q) for r in load_records(DATA) for q in record_quads(r)]
    assert first == second
    assert not any("_:" in q for q in first), "no blank nodes: every node has an IRI"


def test_the_vocabulary_shapes_list_the_schemes_values_in_order():
    """Issue 41: shapes/vocabulary.ttl spells each scheme's values out (a SHACL file must run as it is);
    held here to kernel.vocab's SCHEMES (which the ontology's schemes are held to above) and UNITS: its
    ``sh:in`` list and its message's "use one of" list, for the scheme of the field the shape checks."""
    from pyoxigraph import RdfFormat, parse

    from benchkg.kernel.resources import SHAPES_DIR
    from benchkg.kernel.vocab import expand

    schemes: dict[str, set[str]] = {}

    def walk(fields):
        for f in fields.values():
            inner = f.items if f.type == "list" and f.items is not None else f
            if inner.type == "vocab":
                schemes.setdefault(expand(inner.pred or f.pred), set()).add(inner.scheme)
            if inner.type == "obj":
                walk(inner.fields)

    for fields in SCHEMA.values():
        walk(fields)
    quads = list(parse(path=str(SHAPES_DIR / "vocabulary.ttl"), format=RdfFormat.TURTLE))
    about = {(q.subject, q.predicate.value): q.object for q in quads}
    first, rest = PREFIXES["rdf"] + "first", PREFIXES["rdf"] + "rest"
    checked = 0
    for (shape, pred), head in list(about.items()):
        if pred != PREFIXES["sh"] + "in":
            continue
        listed = []
        while (head, first) in about:
            listed.append(about[head, first].value)
            head = about[head, rest]
        path = about[shape, PREFIXES["sh"] + "path"].value
        message = about[shape, PREFIXES["sh"] + "message"].value
        if path == PREFIXES["qudt"] + "hasUnit":
            values = list(UNITS)
            assert listed == [UNITS[u] for u in values], shape
        else:
            (scheme,) = schemes[path]
            values = list(SCHEMES[scheme])
            assert listed == [concept_iri(scheme, v) for v in values], shape
        assert message.endswith("use one of: " + ", ".join(values)), shape
        checked += 1
    assert checked >= 20
