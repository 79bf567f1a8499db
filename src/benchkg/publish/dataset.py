"""The dataset described for machines: VoID (counts, vocabularies, dumps, SPARQL endpoint) and
DCAT 3 (distributions with media types and sizes, licence, publisher, the endpoint as a
``dcat:DataService``), in one Turtle file with no blank nodes.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from benchkg.kernel.version import __version__
from benchkg.kernel.vocab import BK, DEFAULT_BASE, PREFIXES
from benchkg.graph.store import content_graphs

VOID = "http://rdfs.org/ns/void#"
DCAT = "http://www.w3.org/ns/dcat#"
FOAF = "http://xmlns.com/foaf/0.1/"
DCT = PREFIXES["dcterms"]
XSD = PREFIXES["xsd"]
IANA = "https://www.iana.org/assignments/media-types/"
LICENCE = "https://www.apache.org/licenses/LICENSE-2.0"

#: dump format -> (file name in dumps/, media type, title)
DUMPS = {
    "nt": ("benchkg.nt", "application/n-triples", "N-Triples (all claims, one graph)"),
    "ttl": ("benchkg.ttl", "text/turtle", "Turtle (all claims, one graph)"),
    "trig": ("benchkg.trig", "application/trig", "TriG (one named graph per record file)"),
    "jsonld": ("benchkg.jsonld", "application/ld+json", "JSON-LD 1.1 (named graphs, context inline)"),
}


@dataclass
class Stats:
    """What VoID counts in the dataset."""

    triples: int
    entities: int  # records: one per record file
    subjects: int
    properties: int
    classes: dict[str, int]  # class IRI -> instances
    vocabularies: list[str]


def dataset_stats(store, base: str = DEFAULT_BASE) -> Stats:
    """Counts over the published dataset (named graphs merged, as the triple dumps hold it).

    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> s = dataset_stats(build_graph(ROOT / "data", persist=False).store)
    >>> s.triples > 10_000, s.classes["https://w3id.org/benchkg/ontology#Gotcha"] >= 8
    (True, True)
    """

    graphs = content_graphs(store, base)
    triples = {q.triple for g in graphs for q in store.quads_for_pattern(None, None, None, g)}
    rdf_type = PREFIXES["rdf"] + "type"
    classes: dict[str, set] = {}
    for t in triples:
        if t.predicate.value == rdf_type:
            classes.setdefault(t.object.value, set()).add(t.subject)
    predicates = {t.predicate.value for t in triples}
    vocabularies = sorted({ns for ns in PREFIXES.values() for iri in predicates | set(classes)
                           if iri.startswith(ns)})
    return Stats(len(triples), sum(1 for g in graphs if g.value.startswith(f"{base}id/")),
                 len({t.subject for t in triples}), len(predicates),
                 {c: len(s) for c, s in sorted(classes.items())}, vocabularies)


def describe(stats: Stats, dumps: dict[str, int], base: str = DEFAULT_BASE, endpoint: str | None = None,
             modified: date | None = None) -> bytes:
    """The VoID + DCAT 3 description as Turtle.

    ``dumps`` maps a format of :data:`DUMPS` to its size in bytes; the files are at
    ``<base>dumps/<name>``. ``endpoint`` is a SPARQL endpoint URL serving the same data, if any.

    >>> ttl = describe(Stats(10, 1, 2, 3, {}, []), {"nt": 99}, endpoint="http://127.0.0.1:7878/query")
    >>> b"void:triples 10" in ttl, b"dcat:byteSize" in ttl, b"dcat:endpointURL <http://127.0.0.1:7878/query>" in ttl
    (True, True, True)
    """
    from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, serialize

    ds = NamedNode(f"{base}dataset")
    out: list = []

    def add(s, p, o):
        out.append(Triple(s, NamedNode(p), o))

    def num(value, datatype=XSD + "integer"):
        return Literal(str(value), datatype=NamedNode(datatype))

    def en(text):
        return Literal(text, language="en")

    rdf_type = PREFIXES["rdf"] + "type"
    add(ds, rdf_type, NamedNode(VOID + "Dataset"))
    add(ds, rdf_type, NamedNode(DCAT + "Dataset"))
    add(ds, DCT + "title", en("benchkg: AI-inference benchmark claims"))
    add(ds, DCT + "description", en(
        "Published AI-inference benchmark claims (MLPerf Inference and Endpoints results, vendor claims) "
        "with the accelerators, fabrics, engines, formats, models and sources behind them, the values "
        "derived from them, and the pitfalls (gotchas) that apply when comparing them."))
    add(ds, DCT + "license", NamedNode(LICENCE))
    add(ds, DCT + "rights", en(
        "Records Apache-2.0. Imported MLPerf Inference results derive from MLCommons' results (Apache-2.0); "
        "hardware figures from Epoch AI's data (CC BY 4.0). See NOTICE."))
    publisher = NamedNode(f"{base}dataset#publisher")
    add(ds, DCT + "publisher", publisher)
    add(publisher, rdf_type, NamedNode(FOAF + "Agent"))
    add(publisher, FOAF + "name", Literal("benchkg curators"))
    add(ds, DCT + "modified", num((modified or date.today()).isoformat(), XSD + "date"))
    add(ds, DCAT + "version", Literal(__version__))
    add(ds, DCAT + "landingPage", NamedNode(base))
    add(ds, DCT + "conformsTo", NamedNode(BK.rstrip("#")))
    for keyword in ("AI inference", "benchmark", "MLPerf", "accelerator", "knowledge graph"):
        add(ds, DCAT + "keyword", en(keyword))
    add(ds, VOID + "triples", num(stats.triples))
    add(ds, VOID + "entities", num(stats.entities))
    add(ds, VOID + "distinctSubjects", num(stats.subjects))
    add(ds, VOID + "properties", num(stats.properties))
    add(ds, VOID + "classes", num(len(stats.classes)))
    add(ds, VOID + "uriSpace", Literal(f"{base}id/"))
    add(ds, VOID + "rootResource", NamedNode(f"{base}id/"))
    for vocabulary in stats.vocabularies:
        add(ds, VOID + "vocabulary", NamedNode(vocabulary))
    for i, (cls, n) in enumerate(sorted(stats.classes.items())):
        part = NamedNode(f"{base}dataset#class-{i}")
        add(ds, VOID + "classPartition", part)
        add(part, VOID + "class", NamedNode(cls))
        add(part, VOID + "entities", num(n))
    for fmt, size in dumps.items():
        name, media, title = DUMPS[fmt]
        url = NamedNode(f"{base}dumps/{name}")
        dist = NamedNode(f"{base}dataset#dump-{fmt}")
        add(ds, VOID + "dataDump", url)
        add(ds, DCAT + "distribution", dist)
        add(dist, rdf_type, NamedNode(DCAT + "Distribution"))
        add(dist, DCT + "title", en(title))
        add(dist, DCAT + "downloadURL", url)
        add(dist, DCAT + "accessURL", url)
        add(dist, DCAT + "mediaType", NamedNode(IANA + media))
        add(dist, DCAT + "byteSize", num(size, XSD + "nonNegativeInteger"))
        add(dist, DCT + "license", NamedNode(LICENCE))
    if endpoint:
        service = NamedNode(f"{base}dataset#sparql")
        access = NamedNode(f"{base}dataset#sparql-access")
        add(ds, VOID + "sparqlEndpoint", NamedNode(endpoint))
        add(service, rdf_type, NamedNode(DCAT + "DataService"))
        add(service, DCT + "title", en("SPARQL 1.1 endpoint"))
        add(service, DCAT + "endpointURL", NamedNode(endpoint))
        add(service, DCT + "conformsTo", NamedNode("https://www.w3.org/TR/sparql11-protocol/"))
        add(service, DCAT + "servesDataset", ds)
        add(ds, DCAT + "distribution", access)
        add(access, rdf_type, NamedNode(DCAT + "Distribution"))
        add(access, DCAT + "accessURL", NamedNode(endpoint))
        add(access, DCAT + "accessService", service)
    prefixes = {"void": VOID, "dcat": DCAT, "dcterms": DCT, "foaf": FOAF, "xsd": XSD, "bk": BK}
    return serialize(out, format=RdfFormat.TURTLE, prefixes=prefixes)
