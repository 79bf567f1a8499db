"""The dataset described for machines: VoID (counts, vocabularies, dumps, SPARQL endpoint) and
DCAT 3 (distributions with media types and sizes, licence, publisher, the endpoint as a
``dcat:DataService``), in one Turtle file with no blank nodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, serialize

from benchkg.graph.store import content_graphs
from benchkg.kernel.version import __version__
from benchkg.kernel.vocab import BK, DEFAULT_BASE, PREFIXES

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
    >>> s = dataset_stats(build_graph(ROOT / "data").store)
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
    vocabularies = sorted({ns for ns in PREFIXES.values() for iri in predicates | set(classes) if iri.startswith(ns)})
    return Stats(
        len(triples),
        sum(1 for g in graphs if g.value.startswith(f"{base}id/")),
        len({t.subject for t in triples}),
        len(predicates),
        {c: len(s) for c, s in sorted(classes.items())},
        vocabularies,
    )


def describe(
    stats: Stats,
    dumps: dict[str, int],
    base: str = DEFAULT_BASE,
    endpoint: str | None = None,
    modified: date | None = None,
) -> bytes:
    """The VoID + DCAT 3 description as Turtle.

    ``dumps`` maps a format of :data:`DUMPS` to its size in bytes; the files are at
    ``<base>dumps/<name>``. ``endpoint`` is a SPARQL endpoint URL serving the same data, if any.

    >>> ttl = describe(Stats(10, 1, 2, 3, {}, []), {"nt": 99}, endpoint="http://127.0.0.1:7878/query")
    >>> b"void:triples 10" in ttl, b"dcat:byteSize" in ttl, b"dcat:endpointURL <http://127.0.0.1:7878/query>" in ttl
    (True, True, True)
    """
    ds = NamedNode(f"{base}dataset")
    out = _Triples()
    _about(out, ds, base, modified)
    _statistics(out, ds, stats, base)
    _distributions(out, ds, dumps, base)
    if endpoint:
        _service(out, ds, endpoint, base)
    prefixes = {"void": VOID, "dcat": DCAT, "dcterms": DCT, "foaf": FOAF, "xsd": XSD, "bk": BK}
    return serialize(out.triples, format=RdfFormat.TURTLE, prefixes=prefixes) or b""


RDF_TYPE = PREFIXES["rdf"] + "type"


class _Triples:
    """Triples as they are added, with the literal forms the description uses."""

    def __init__(self):
        self.triples: list = []

    def add(self, s, p: str, o) -> None:
        self.triples.append(Triple(s, NamedNode(p), o))

    @staticmethod
    def num(value, datatype: str = XSD + "integer"):
        return Literal(str(value), datatype=NamedNode(datatype))

    @staticmethod
    def en(text: str):
        return Literal(text, language="en")


def _about(t: _Triples, ds, base: str, modified: date | None) -> None:
    """What the dataset is: title, description, licence, publisher, version, keywords."""
    t.add(ds, RDF_TYPE, NamedNode(VOID + "Dataset"))
    t.add(ds, RDF_TYPE, NamedNode(DCAT + "Dataset"))
    t.add(ds, DCT + "title", t.en("benchkg: AI-inference benchmark claims"))
    t.add(
        ds,
        DCT + "description",
        t.en(
            "Published AI-inference benchmark claims (MLPerf Inference and Endpoints results, vendor claims) "
            "with the accelerators, fabrics, engines, formats, models and sources behind them, the values "
            "derived from them, and the pitfalls (gotchas) that apply when comparing them."
        ),
    )
    t.add(ds, DCT + "license", NamedNode(LICENCE))
    t.add(
        ds,
        DCT + "rights",
        t.en(
            "Records Apache-2.0. Imported MLPerf Inference results derive from MLCommons' results (Apache-2.0); "
            "hardware figures from Epoch AI's data (CC BY 4.0). See NOTICE."
        ),
    )
    publisher = NamedNode(f"{base}dataset#publisher")
    t.add(ds, DCT + "publisher", publisher)
    t.add(publisher, RDF_TYPE, NamedNode(FOAF + "Agent"))
    t.add(publisher, FOAF + "name", Literal("benchkg curators"))
    t.add(ds, DCT + "modified", t.num((modified or date.today()).isoformat(), XSD + "date"))
    t.add(ds, DCAT + "version", Literal(__version__))
    t.add(ds, DCAT + "landingPage", NamedNode(base))
    t.add(ds, DCT + "conformsTo", NamedNode(BK.rstrip("#")))
    for keyword in ("AI inference", "benchmark", "MLPerf", "accelerator", "knowledge graph"):
        t.add(ds, DCAT + "keyword", t.en(keyword))


def _statistics(t: _Triples, ds, stats: Stats, base: str) -> None:
    """VoID counts, URI space, vocabularies and one partition per class."""
    t.add(ds, VOID + "triples", t.num(stats.triples))
    t.add(ds, VOID + "entities", t.num(stats.entities))
    t.add(ds, VOID + "distinctSubjects", t.num(stats.subjects))
    t.add(ds, VOID + "properties", t.num(stats.properties))
    t.add(ds, VOID + "classes", t.num(len(stats.classes)))
    t.add(ds, VOID + "uriSpace", Literal(f"{base}id/"))
    t.add(ds, VOID + "rootResource", NamedNode(f"{base}id/"))
    for vocabulary in stats.vocabularies:
        t.add(ds, VOID + "vocabulary", NamedNode(vocabulary))
    for i, (cls, n) in enumerate(sorted(stats.classes.items())):
        part = NamedNode(f"{base}dataset#class-{i}")
        t.add(ds, VOID + "classPartition", part)
        t.add(part, VOID + "class", NamedNode(cls))
        t.add(part, VOID + "entities", t.num(n))


def _distributions(t: _Triples, ds, dumps: dict[str, int], base: str) -> None:
    """One DCAT distribution (and VoID data dump) per dump file."""
    for fmt, size in dumps.items():
        name, media, title = DUMPS[fmt]
        url = NamedNode(f"{base}dumps/{name}")
        dist = NamedNode(f"{base}dataset#dump-{fmt}")
        t.add(ds, VOID + "dataDump", url)
        t.add(ds, DCAT + "distribution", dist)
        t.add(dist, RDF_TYPE, NamedNode(DCAT + "Distribution"))
        t.add(dist, DCT + "title", t.en(title))
        t.add(dist, DCAT + "downloadURL", url)
        t.add(dist, DCAT + "accessURL", url)
        t.add(dist, DCAT + "mediaType", NamedNode(IANA + media))
        t.add(dist, DCAT + "byteSize", t.num(size, XSD + "nonNegativeInteger"))
        t.add(dist, DCT + "license", NamedNode(LICENCE))


def _service(t: _Triples, ds, endpoint: str, base: str) -> None:
    """The SPARQL endpoint serving the same data: a DCAT data service and its distribution."""
    service = NamedNode(f"{base}dataset#sparql")
    access = NamedNode(f"{base}dataset#sparql-access")
    t.add(ds, VOID + "sparqlEndpoint", NamedNode(endpoint))
    t.add(service, RDF_TYPE, NamedNode(DCAT + "DataService"))
    t.add(service, DCT + "title", t.en("SPARQL 1.1 endpoint"))
    t.add(service, DCAT + "endpointURL", NamedNode(endpoint))
    t.add(service, DCT + "conformsTo", NamedNode("https://www.w3.org/TR/sparql11-protocol/"))
    t.add(service, DCAT + "servesDataset", ds)
    t.add(ds, DCAT + "distribution", access)
    t.add(access, RDF_TYPE, NamedNode(DCAT + "Distribution"))
    t.add(access, DCAT + "accessURL", NamedNode(endpoint))
    t.add(access, DCAT + "accessService", service)
