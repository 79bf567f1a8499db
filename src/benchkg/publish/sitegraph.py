"""The site's view of the graph: each record's statements, labels, caveats and inverse links, and
its terms as HTML seen from one page (:class:`Renderer`)."""

from __future__ import annotations

from collections import defaultdict

from pyoxigraph import NamedNode

from benchkg.answers.results import format_number
from benchkg.graph.derived import caveats_graph
from benchkg.graph.store import ONTOLOGY_GRAPH, content_graphs
from benchkg.kernel.vocab import BK, DEFAULT_BASE, PREFIXES, UNIT_NAMES, curator_name
from benchkg.publish import jsonld
from benchkg.publish.pages import esc, link

QUDT = PREFIXES["qudt"]
RDF, RDFS, SKOS, OWL, XSD = (PREFIXES[p] for p in ("rdf", "rdfs", "skos", "owl", "xsd"))
TYPE, LABEL = RDF + "type", RDFS + "label"
NUMERIC = {XSD + t for t in ("decimal", "integer", "double", "float", "nonNegativeInteger")}


def is_number(term) -> bool:
    """Whether a term is a literal of a numeric XSD type."""
    return type(term).__name__ == "Literal" and term.datatype is not None and term.datatype.value in NUMERIC


def numeric_columns(columns: list[list]) -> set[int]:
    """The columns (lists of terms, None for an empty cell) whose every filled cell is a number."""
    return {
        i
        for i, cells in enumerate(columns)
        if any(c is not None for c in cells) and all(is_number(c) for c in cells if c is not None)
    }


SINGULAR = {
    "benchmarks": "claim",
    "systems": "system",
    "accelerators": "accelerator",
    "interconnects": "interconnect",
    "engines": "engine",
    "formats": "numeric format",
    "models": "model",
    "organizations": "organization",
    "suites": "suite",
    "sources": "source",
    "gotchas": "gotcha",
}


class SiteGraph:
    """The dataset as the pages need it: statements per record, labels, gotchas, inverse links."""

    def __init__(self, store, base: str):
        self.base, self.prefix = base, base + "id/"
        self.records: dict[str, list] = {}  # record IRI -> its triples (caveats included)
        caveats = caveats_graph(base).value
        self.caveats: dict[str, list[str]] = defaultdict(list)
        self.inverse: dict[str, set[str]] = defaultdict(set)
        caveat_triples = defaultdict(list)
        for graph in content_graphs(store, base):
            triples = [q.triple for q in store.quads_for_pattern(None, None, None, graph)]
            if graph.value == caveats:
                for t in triples:  # caveats, audited links and comparison facts, each on its record's page
                    if t.predicate.value == BK + "caveat":
                        self.caveats[t.subject.value].append(t.object.value)
                    record = t.subject.value.split("#")[0]
                    if record.startswith(self.prefix):  # (a chip combination is no record)
                        caveat_triples[record].append(t)
            elif graph.value.startswith(self.prefix):
                self.records[graph.value] = triples
            for t in triples:
                if type(t.object).__name__ == "NamedNode" and t.object.value.startswith(self.prefix):
                    target, source = t.object.value.split("#")[0], t.subject.value.split("#")[0]
                    if target != source:
                        self.inverse[target].add(source)
        for claim, triples in caveat_triples.items():
            self.records[claim] = self.records.get(claim, []) + triples
        self.props: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        for triples in self.records.values():
            for t in triples:
                self.props[t.subject.value][t.predicate.value].append(t.object)
        self.term_props: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
        for q in store.quads_for_pattern(None, None, None, NamedNode(ONTOLOGY_GRAPH)):
            self.term_props[q.subject.value][q.predicate.value].append(q.object)
        #: a claim's verdicts against the audited record (filled by the site: benchkg.answers.verdicts)
        self.verdicts: dict[str, tuple] = {}
        self.labels = {s: p[LABEL][0].value for s, p in self.props.items() if p.get(LABEL)}
        for s, p in self.term_props.items():
            names = p.get(LABEL) or p.get(SKOS + "prefLabel")
            if names:
                self.labels[s] = names[0].value

    def claim_fields(self, iri: str) -> dict:
        """What a claim's verdicts read of its record (benchkg.answers.verdicts.record_verdicts), from the
        graph: value, value_as_written, the quotes, measured_by, relative."""
        result = self.first(iri, BK + "result")
        fields: dict = {"sources": [{"quote": q.value} for q in self.all(iri, BK + "citation", BK + "quote")]}
        measured = self.first(iri, BK + "measuredBy")
        fields["measured_by"] = measured.value.rsplit("measured-by-", 1)[-1] if measured is not None else None
        if result is not None:
            for key, predicate in (("value", QUDT + "value"), ("value_as_written", BK + "valueAsWritten")):
                term = self.first(result.value, predicate)
                if term is not None:
                    fields[key] = term.value
        node = self.first(iri, BK + "relative")
        if node is not None:
            relative: dict = {}
            for key, predicate in (("times", "times"), ("percent", "percent"), ("as_written", "ratioAsWritten")):
                term = self.first(node.value, BK + predicate)
                if term is not None:
                    relative[key] = term.value
            over = self.first(node.value, BK + "over")
            if over is not None:
                for key, predicate in (("same_system_in", "sameSystemIn"), ("claim_id", "overClaim")):
                    term = self.first(over.value, BK + predicate)
                    if term is not None:
                        relative["over"] = {key: term.value.rsplit("/", 1)[-1]}
                next_best = self.first(over.value, BK + "overNextBest")
                if next_best is not None and next_best.value == "true":
                    relative["over"] = {"next_best": True}
            fields["relative"] = relative
        return fields

    def kind_id(self, iri: str) -> tuple[str, str]:
        kind, _, rid = iri[len(self.prefix) :].split("#")[0].partition("/")
        return kind, rid

    def first(self, subject: str, *path: str):
        """The first object at the end of a path of predicates, or None."""
        values = self.all(subject, *path)
        return values[0] if values else None

    def all(self, subject: str, *path: str) -> list:
        """Every object at the end of a path of predicates (the terms; IRIs in between)."""
        nodes: list = [subject]
        for i, predicate in enumerate(path):
            if i:
                nodes = [o.value for o in nodes]
            nodes = [o for n in nodes for o in self.props.get(n, {}).get(predicate, [])]
        return nodes

    def gotcha(self, iri: str, note: str = "") -> dict:
        """What a page shows of a gotcha: link, title, severity, statement, why it is there."""
        kind, rid = self.kind_id(iri)
        statement, severity = self.first(iri, BK + "statement"), self.first(iri, BK + "severity")
        return {
            "href": f"id/{kind}/{rid}/index.html",
            "title": self.labels.get(iri, rid),
            "severity": curator_name(severity.value) if severity is not None else "info",
            "statement": statement.value if statement is not None else "",
            "note": note,
        }


def entity_path(iri: str, base: str = DEFAULT_BASE) -> str | None:
    """Where a record's page is, from the site's top (with the fragment), or None for other IRIs.

    >>> entity_path("https://w3id.org/benchkg/id/models/llama2-70b#result")
    'id/models/llama2-70b/index.html#result'
    >>> entity_path("https://w3id.org/benchkg/ontology#Benchmark")
    'ontology/index.html#Benchmark'
    """
    if iri.startswith(base + "id/"):
        record, _, fragment = iri[len(base) :].partition("#")
        return f"{record}/index.html" + (f"#{fragment}" if fragment else "")
    if iri.startswith(BK):
        return f"ontology/index.html#{iri[len(BK) :]}"
    return None


class Renderer:
    """Terms as HTML, seen from one page."""

    def __init__(self, graph: SiteGraph, root: str, here: str = ""):
        self.g, self.root, self.here = graph, root, here

    def term(self, term) -> str:
        kind = type(term).__name__
        if term is None:
            return ""
        if kind == "Literal":
            datatype = term.datatype.value if term.datatype else ""
            if is_number(term):
                return f'<data value="{esc(term.value)}">{esc(format_number(term.value))}</data>'
            if datatype == XSD + "date":
                return f'<time datetime="{esc(term.value)}">{esc(term.value)}</time>'
            return esc(term.value)
        if kind == "BlankNode":
            return esc("_:" + term.value)
        iri = term.value
        if iri.startswith(self.g.prefix):
            record, _, fragment = iri.partition("#")
            if record == self.here and fragment:
                return link(f"#{fragment}", fragment)
            text = self.g.labels.get(record, self.g.kind_id(iri)[1]) + (f" › {fragment}" if fragment else "")
            return link(self.root + (entity_path(iri, self.g.base) or ""), text)
        if iri in UNIT_NAMES:
            href = self.root + (entity_path(iri) or "") if iri.startswith(BK) else iri
            return link(href, UNIT_NAMES[iri], title=iri)
        if iri.startswith(BK):
            return link(
                self.root + (entity_path(iri) or ""),
                self.g.labels.get(iri, iri[len(BK) :]),
                title="bk:" + iri[len(BK) :],
            )
        return link(iri, jsonld.compact_iri(iri))

    def predicate(self, iri: str) -> str:
        text = self.g.labels.get(iri) or jsonld.compact_iri(iri)
        href = self.root + (entity_path(iri) or "") if iri.startswith(BK) else iri
        return link(href, text, title=jsonld.compact_iri(iri))

    def values(self, terms: list) -> str:
        return ", ".join(self.term(t) for t in terms)
