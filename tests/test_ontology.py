"""The ontology carries what a published vocabulary does: a version IRI tied to the package version,
creator and dates, every term defined by it, every concept scheme's top concepts, schema.org
alignments; and nothing it says about a term contradicts what benchkg's records use."""

from __future__ import annotations

from collections import defaultdict

import pytest
from pyoxigraph import NamedNode, RdfFormat, parse

import benchkg
from benchkg.kernel.resources import ONTOLOGY_FILE
from benchkg.kernel.vocab import BK, PREFIXES

ONTOLOGY = "https://w3id.org/benchkg/ontology"
RDF, RDFS, OWL, SKOS, DCTERMS = (PREFIXES[p] for p in ("rdf", "rdfs", "owl", "skos", "dcterms"))
SCHEMA = "https://schema.org/"


@pytest.fixture(scope="module")
def props():
    """subject -> predicate -> objects (IRIs and literal values as strings)."""
    out = defaultdict(lambda: defaultdict(set))
    for t in parse(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE):
        out[t.subject.value][t.predicate.value].add(t.object.value)
    return out


def test_the_header_names_version_creator_and_dates(props):
    head = props[ONTOLOGY]
    assert head[RDF + "type"] == {OWL + "Ontology"}
    assert head[OWL + "versionInfo"] == {benchkg.__version__}
    assert head[OWL + "versionIRI"] == {f"{ONTOLOGY}/{benchkg.__version__}"}
    assert head[DCTERMS + "creator"] and len(head[DCTERMS + "created"]) == len(head[DCTERMS + "modified"]) == 1
    assert min(head[DCTERMS + "created"]) <= min(head[DCTERMS + "modified"])


def test_every_term_is_defined_by_the_ontology(props):
    terms = [s for s in props if s.startswith(BK)]
    assert len(terms) > 200
    undefined = [t for t in terms if props[t][RDFS + "isDefinedBy"] != {ONTOLOGY}]
    assert undefined == []


def test_every_scheme_lists_its_concepts_as_top_concepts(props):
    schemes = [s for s, p in props.items() if SKOS + "ConceptScheme" in p[RDF + "type"]]
    assert len(schemes) >= 16
    for scheme in schemes:
        members = {s for s, p in props.items() if scheme in p[SKOS + "inScheme"]}
        assert members and props[scheme][SKOS + "hasTopConcept"] == members, scheme


@pytest.mark.parametrize(
    "term,predicate,target",
    [
        ("Benchmark", RDFS + "subClassOf", "Claim"),
        ("Source", RDFS + "subClassOf", "CreativeWork"),
        ("Accelerator", RDFS + "subClassOf", "Product"),
        ("Engine", RDFS + "subClassOf", "SoftwareApplication"),
        ("released", OWL + "equivalentProperty", "releaseDate"),
        ("vendor", OWL + "equivalentProperty", "manufacturer"),
        ("publisher", RDFS + "subPropertyOf", "publisher"),
    ],
)
def test_schema_org_alignments(props, term, predicate, target):
    assert SCHEMA + target in props[BK + term][predicate]


def test_the_ontology_in_the_store_is_the_file(tmp_path):
    """What the site and the dumps publish is the file as it is (isDefinedBy included)."""
    from benchkg.graph.store import ONTOLOGY_GRAPH, build_graph
    from conftest import DATA

    store = build_graph(DATA, persist=False).store
    stored = {
        (q.subject.value, q.predicate.value, q.object.value)
        for q in store.quads_for_pattern(None, None, None, NamedNode(ONTOLOGY_GRAPH))
        if type(q.subject).__name__ == "NamedNode"
    }
    assert (BK + "Benchmark", RDFS + "isDefinedBy", ONTOLOGY) in stored
    assert (ONTOLOGY, OWL + "versionIRI", f"{ONTOLOGY}/{benchkg.__version__}") in stored
