"""``benchkg site``: the graph as a static linked-data site people can browse.

Layout (every path relative to the site's top, which stands for the base IRI)::

    index.html                      counts, search, the comparisons, the dumps
    id/<kind>/index.html            every record of a kind, as a table (and index.ttl|.jsonld: an LDP container)
    id/<kind>/<id>/index.html       one record: headline, gotchas, statements, who refers to it
    id/<kind>/<id>/index.ttl|.jsonld   the same record as Turtle and JSON-LD (<link rel="alternate">)
    queries/<name>/index.html       a saved comparison: table, SVG chart, gotchas of its rows
    ontology/index.html             classes, properties, units and concept schemes, one anchor each
    ontology/benchkg.ttl|.jsonld    the ontology itself
    context/v1.jsonld               the JSON-LD context the .jsonld files use
    dumps/benchkg.{nt,ttl,trig,jsonld}   the whole dataset
    void.ttl                        VoID + DCAT 3 description of the dataset
    .htaccess                       Apache rules: the IRIs above answer Turtle, JSON-LD or HTML by Accept
    w3id.htaccess                   the same rules for the w3id.org repository (``benchkg/.htaccess``)

The site is written to a temporary folder beside ``DIR`` and swapped in at the end, so a failed
run leaves the previous site as it was. A folder that is not a benchkg site is never replaced.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from benchkg.publish import conneg, jsonld
from benchkg.records.layout import layout_for
from benchkg.kernel.errors import UsageError
from benchkg.kernel.atomic import current_umask, remove_stale_temporaries
from benchkg.publish.export import refuse_inside
from benchkg.publish.pages import esc, findings_list, gotcha_list, link, page, search_form, table
from benchkg.answers.queries import saved_queries
from benchkg.kernel.resources import ASSETS_DIR, CONTEXT_FILE, ONTOLOGY_FILE
from benchkg.answers.results import format_number
from benchkg.records.schema import CLASSES, KINDS
from benchkg.kernel.vocab import BK, DATA_PREFIXES, DEFAULT_BASE, PREFIXES, UNIT_NAMES, curator_name, expand
from benchkg.answers.answering import assemble
from benchkg.answers.disclosure import with_marks
from benchkg.answers.queries import run_query, store_select
from benchkg.answers.results import to_chart, to_csv
from benchkg.answers.results import short
from benchkg.publish.dataset import DUMPS
from benchkg.publish.dataset import dataset_stats, describe
from benchkg.publish.export import serialize_graph
from benchkg.graph.store import ONTOLOGY_GRAPH, caveats_graph, content_graphs

MARKER = ".benchkg-site"
#: where the site is published by default: the w3id.org rules send the namespace there
PUBLISHED_AT = "https://benchkg.github.io/benchkg/"
LDP = "http://www.w3.org/ns/ldp#"
RDF, RDFS, SKOS, OWL, XSD = (PREFIXES[p] for p in ("rdf", "rdfs", "skos", "owl", "xsd"))
QUDT = PREFIXES["qudt"]
TYPE, LABEL = RDF + "type", RDFS + "label"
NUMERIC = {XSD + t for t in ("decimal", "integer", "double", "float", "nonNegativeInteger")}


def _is_number(term) -> bool:
    return type(term).__name__ == "Literal" and term.datatype is not None and term.datatype.value in NUMERIC


def _numeric_columns(columns: list[list]) -> set[int]:
    """The columns (lists of terms, None for an empty cell) whose every filled cell is a number."""
    return {i for i, cells in enumerate(columns)
            if any(c is not None for c in cells) and all(_is_number(c) for c in cells if c is not None)}

#: kind -> columns of its index table: (header, path of predicates from the record)
COLUMNS = {
    "benchmarks": [("Model", (BK + "model",)), ("Accelerator", (BK + "accelerator",)),
                   ("Count", (BK + "acceleratorCount",)), ("Scenario", (BK + "scenario",)),
                   ("Value", (BK + "result", QUDT + "value")), ("Unit", (BK + "result", QUDT + "hasUnit")),
                   ("Suite", (BK + "suite",)), ("System", (BK + "system",))],
    "systems": [("Submitter", (BK + "submitter",)), ("Suite", (BK + "suite",)), ("Accelerator", (BK + "accelerator",)),
                ("Count", (BK + "acceleratorCount",)), ("Nodes", (BK + "nodeCount",)),
                ("Fabric its submitter states", (BK + "interconnect",))],
    "accelerators": [("Vendor", (BK + "vendor",)), ("Kind", (BK + "acceleratorKind",)),
                     ("Made of", (BK + "madeOf",)), ("Variant of", (BK + "variantOf",)),
                     ("Memory (GB)", (BK + "memoryGB",)), ("Memory bandwidth (TB/s)", (BK + "memoryBandwidthTBs",)),
                     ("Fabric in its specification", (BK + "interconnect",))],
    "interconnects": [("Kind", (BK + "interconnectKind",)), ("Vendor", (BK + "vendor",))],
    "gotchas": [("Severity", (BK + "severity",)), ("Statement", (BK + "statement",))],
    "suites": [("Family", (BK + "suiteFamily",)), ("Version", (BK + "version",)), ("Publisher", (BK + "publisher",))],
    "sources": [("Kind", (BK + "sourceKind",)), ("Publisher", (BK + "publisher",))],
    "models": [("Parameters (billions)", (BK + "parametersBillions",))],
}
SINGULAR = {"benchmarks": "claim", "systems": "system", "accelerators": "accelerator", "interconnects": "interconnect",
            "engines": "engine", "formats": "numeric format", "models": "model", "organizations": "organization",
            "suites": "suite", "sources": "source", "gotchas": "gotcha"}


@dataclass
class SiteReport:
    """What ``build_site`` wrote."""

    out: Path
    entities: int = 0
    pages: int = 0
    files: int = 0
    bytes: int = 0
    charts: int = 0


class _Graph:
    """The dataset as the pages need it: statements per record, labels, gotchas, inverse links."""

    def __init__(self, store, base: str):
        from pyoxigraph import NamedNode


        self.base, self.prefix = base, base + "id/"
        self.records: dict[str, list] = {}  # record IRI -> its triples (caveats included)
        caveats = caveats_graph(base).value
        self.caveats: dict[str, list[str]] = defaultdict(list)
        self.inverse: dict[str, set[str]] = defaultdict(set)
        caveat_triples = defaultdict(list)
        for graph in content_graphs(store, base):
            triples = [q.triple for q in store.quads_for_pattern(None, None, None, graph)]
            if graph.value == caveats:
                for t in triples:
                    self.caveats[t.subject.value].append(t.object.value)
                    caveat_triples[t.subject.value].append(t)
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
        self.labels = {s: p[LABEL][0].value for s, p in self.props.items() if p.get(LABEL)}
        for s, p in self.term_props.items():
            names = p.get(LABEL) or p.get(SKOS + "prefLabel")
            if names:
                self.labels[s] = names[0].value

    def kind_id(self, iri: str) -> tuple[str, str]:
        kind, _, rid = iri[len(self.prefix):].split("#")[0].partition("/")
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
        return {"href": f"id/{kind}/{rid}/index.html", "title": self.labels.get(iri, rid),
                "severity": curator_name(severity.value) if severity is not None else "info",
                "statement": statement.value if statement is not None else "", "note": note}


def entity_path(iri: str, base: str = DEFAULT_BASE) -> str | None:
    """Where a record's page is, from the site's top (with the fragment), or None for other IRIs.

    >>> entity_path("https://w3id.org/benchkg/id/models/llama2-70b#result")
    'id/models/llama2-70b/index.html#result'
    >>> entity_path("https://w3id.org/benchkg/ontology#Benchmark")
    'ontology/index.html#Benchmark'
    """
    if iri.startswith(base + "id/"):
        record, _, fragment = iri[len(base):].partition("#")
        return f"{record}/index.html" + (f"#{fragment}" if fragment else "")
    if iri.startswith(BK):
        return f"ontology/index.html#{iri[len(BK):]}"
    return None


class _Renderer:
    """Terms as HTML, seen from one page."""

    def __init__(self, graph: _Graph, root: str, here: str = ""):
        self.g, self.root, self.here = graph, root, here

    def term(self, term) -> str:
        kind = type(term).__name__
        if term is None:
            return ""
        if kind == "Literal":
            datatype = term.datatype.value if term.datatype else ""
            if _is_number(term):
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
            return link(self.root + entity_path(iri, self.g.base), text)
        if iri in UNIT_NAMES:
            href = self.root + entity_path(iri) if iri.startswith(BK) else iri
            return link(href, UNIT_NAMES[iri], title=iri)
        if iri.startswith(BK):
            return link(self.root + entity_path(iri), self.g.labels.get(iri, iri[len(BK):]), title="bk:" + iri[len(BK):])
        return link(iri, jsonld.compact_iri(iri))

    def predicate(self, iri: str) -> str:
        text = self.g.labels.get(iri) or jsonld.compact_iri(iri)
        href = self.root + entity_path(iri) if iri.startswith(BK) else iri
        return link(href, text, title=jsonld.compact_iri(iri))

    def values(self, terms: list) -> str:
        return ", ".join(self.term(t) for t in terms)


def _statements(g: _Graph, r: _Renderer, iri: str) -> str:
    """The record's statements: the record first, then each of its nested nodes, one table each."""
    subjects = [iri] + sorted({t.subject.value for t in g.records[iri]
                               if t.subject.value != iri and t.subject.value.startswith(iri + "#")})
    parts = []
    for subject in subjects:
        props = g.props[subject]
        order = sorted(props, key=lambda p: (p != TYPE, p != LABEL, g.labels.get(p, jsonld.compact_iri(p))))
        rows = [[r.predicate(p), r.values(props[p])] for p in order]
        if subject == iri:
            parts.append(table(["Property", "Value"], rows, cls_="props"))
        else:
            fragment = subject.partition("#")[2]
            parts.append(f'<section id="{esc(fragment)}"><h3>#{esc(fragment)}</h3>{table(["Property", "Value"], rows, cls_="props")}</section>')
    return '<section aria-labelledby="st-h"><h2 id="st-h">Statements</h2>' + "".join(parts) + "</section>"


def _headline(g: _Graph, r: _Renderer, iri: str) -> str:
    """A claim's number up front: value and unit as stated, the derived per-accelerator value, and
    what it was measured on."""
    rows = []
    result = g.first(iri, BK + "result")
    if result is not None:
        value, unit = g.first(result.value, QUDT + "value"), g.first(result.value, QUDT + "hasUnit")
        scope, metric = g.first(result.value, BK + "scope"), g.first(result.value, BK + "metric")
        rows.append(("Result", f'<span class="value">{r.term(value)}</span> {r.term(unit)} '
                               f'<span class="note">({r.term(metric)}, {r.term(scope)}, as the source states it)</span>'))
    for derived in g.all(iri, BK + "derivedValue"):
        value, unit = g.first(derived.value, QUDT + "value"), g.first(derived.value, QUDT + "hasUnit")
        count = g.first(iri, BK + "acceleratorCount")
        rows.append(("Per accelerator", f'<span class="derived">{r.term(value)} {r.term(unit)}</span> '
                     f'<span class="note">derived by benchkg (value ÷ {esc(count.value if count else "?")} '
                     f'accelerators), not stated by the source and not an official metric</span>'))
    accelerators = g.all(iri, BK + "accelerator")
    if accelerators:
        count = g.first(iri, BK + "acceleratorCount")
        rows.append(("System", f'{r.values(accelerators)}' + (f' × {r.term(count)}' if count else "")))
    for label, predicate in (("Model", "model"), ("Scenario", "scenario"), ("Suite", "suite"),
                             ("Measured by", "measuredBy"), ("Submitter", "submitter")):
        values = g.all(iri, BK + predicate)
        if values:
            rows.append((label, r.values(values)))
    if not rows:
        return ""
    items = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="headline" aria-label="Headline">{items}</dl>'


def _gotchas_for(g: _Graph, kind: str, iri: str) -> tuple[list[dict], str]:
    """The gotchas that apply on a record's page, and a line saying why."""
    if kind == "benchmarks":
        return [g.gotcha(x) for x in sorted(g.caveats.get(iri, []))], ("benchkg links a gotcha to a claim when the claim "
                "lists it, matches its applies_to (suite, scenario, metric, field, measured by), or is flagged by one "
                "of its finding shapes. Comparison caveats apply to comparisons, not to one claim.")
    found = []
    cls = expand(CLASSES[kind])
    for gotcha in sorted(i for i in g.records if i.startswith(g.prefix + "gotchas/")):
        for applicability in g.all(gotcha, BK + "appliesTo"):
            suites = [s.value for s in g.all(applicability.value, BK + "appliesToSuite")]
            fields = [f.value for f in g.all(applicability.value, BK + "appliesToField")]
            ranges = {o.value for f in fields for o in g.term_props.get(f, {}).get(RDFS + "range", [])}
            if iri in suites:
                found.append(g.gotcha(gotcha, "applies to this suite's claims"))
            elif cls in ranges:
                found.append(g.gotcha(gotcha, f"applies to claims that name a {SINGULAR[kind]}"))
    return found, ""


def _referred_by(g: _Graph, r: _Renderer, iri: str) -> str:
    from pyoxigraph import NamedNode

    sources = g.inverse.get(iri)
    if not sources:
        return ""
    by_kind = defaultdict(list)
    for s in sources:
        by_kind[g.kind_id(s)[0]].append(s)
    parts = []
    for kind in KINDS:
        if kind in by_kind:
            items = sorted(by_kind[kind], key=lambda s: (g.labels.get(s, s), s))  # equal labels: by IRI
            lis = "".join(f"<li>{r.term(NamedNode(s))}</li>" for s in items)
            summary = f"{len(items)} {kind}"
            open_ = " open" if len(items) <= 25 else ""
            parts.append(f"<details{open_}><summary>{esc(summary)}</summary><ul>{lis}</ul></details>")
    return f'<section aria-labelledby="ref-h"><h2 id="ref-h">Referred to by</h2>{"".join(parts)}</section>'


def _entity_page(g: _Graph, iri: str, findings: list) -> str:
    kind, rid = g.kind_id(iri)
    root = "../../../"
    r = _Renderer(g, root, iri)
    label = g.labels.get(iri, rid)
    gotchas, note = _gotchas_for(g, kind, iri)
    head = ('<link rel="alternate" type="text/turtle" href="index.ttl">\n'
            '<link rel="alternate" type="application/ld+json" href="index.jsonld">\n')
    body = [f'<article about="{esc(iri)}">', f"<h1>{esc(label)}</h1>",
            f'<p class="meta">{esc(SINGULAR[kind])} · <code>{esc(iri)}</code></p>',
            f'<p class="meta">record file <code>data/{esc(kind)}/{esc(rid)}.json</code></p>',
            '<p class="alternates">This record as <a href="index.ttl" type="text/turtle">Turtle</a> · '
            '<a href="index.jsonld" type="application/ld+json">JSON-LD</a></p>']
    if kind == "gotchas":
        statement = g.first(iri, BK + "statement")
        severity = g.gotcha(iri)["severity"]
        body.append(f'<div class="gotcha sev-{esc(severity)}"><span class="sev">{esc(severity)}</span>'
                    f'<p>{esc(statement.value if statement else "")}</p></div>')
    body.append(_headline(g, r, iri) if kind == "benchmarks" else "")
    body.append(gotcha_list(gotchas, root, note))
    body.append(findings_list(findings))
    body.append(_statements(g, r, iri))
    body.append(_referred_by(g, r, iri))
    body.append("</article>")
    crumbs = [("benchkg", root + "index.html"), (kind, "../index.html"), (rid, None)]
    return page(label, "\n".join(b for b in body if b), root, crumbs, head)


def _kind_index(g: _Graph, kind: str, iris: list[str]) -> str:
    root = "../../"
    r = _Renderer(g, root)
    columns = COLUMNS.get(kind, [])
    rows, terms = [], [[] for _ in columns]
    for iri in sorted(iris, key=lambda i: g.labels.get(i, i).lower()):
        row = [link(f"{g.kind_id(iri)[1]}/index.html", g.labels.get(iri, g.kind_id(iri)[1]))]
        for i, (_, path) in enumerate(columns):
            values = g.all(iri, *path)
            terms[i] += values or [None]
            row.append(r.values(values))
        if kind == "benchmarks":
            row.append(str(len(g.caveats.get(iri, []))))
        rows.append(row)
    headers = ["Name"] + [h for h, _ in columns] + (["Gotchas"] if kind == "benchmarks" else [])
    numeric = {i + 1 for i in _numeric_columns(terms)}
    if kind == "benchmarks":
        numeric.add(len(headers) - 1)
    body = (f"<h1>{esc(kind.capitalize())}</h1><p>{len(iris):,} records. Each links to its page, "
            f"with its statements, the gotchas that apply and its Turtle and JSON-LD.</p>"
            + table(headers, rows, f"All {kind}", numeric))
    return page(kind.capitalize(), body, root, [("benchkg", root + "index.html"), (kind, None)])


def _query_page(g: _Graph, store, saved, out_dir: Path) -> tuple[str, bool]:
    """A saved comparison run with its default parameters: table, chart, gotchas of its rows."""

    root = "../../"
    r = _Renderer(g, root)
    saved.check_service()  # a data repository's own query that calls SERVICE is not run for the site
    answer = assemble(saved, {}, lambda p, **w: run_query(store, saved, p, base=g.base, **w), store_select(store),
                      base=g.base, cite=True)
    results = answer.results
    (out_dir / "results.csv").write_text(to_csv(results), encoding="utf-8")
    params = "".join(f"<dt><code>{esc(p.name)}</code></dt><dd>{esc(p.default or 'any')} "
                     f'<span class="note">({esc(p.type + (":" + p.of if p.of else ""))})</span></dd>'
                     for p in saved.params.values())
    command = " ".join(["benchkg query", saved.name] + [f"--param {p.name}={p.default}" for p in saved.params.values() if p.default])
    parts = [f"<h1>{esc(saved.summary or saved.name)}</h1>",
             f'<p class="slice">{esc(answer.title)}</p>',
             f'<p class="meta">saved comparison <code>{esc(saved.name)}</code> · {len(results.rows):,} '
             f'row{"" if len(results.rows) == 1 else "s"} · '
             f'{link("results.csv", "CSV")}</p>',
             f"<p>{esc(saved.description)}</p>" if saved.description else "",
             f'<h2>Parameters</h2><dl class="headline">{params}</dl>' if params else "",
             f"<p>Run it yourself: <code>{esc(command)}</code></p>"]
    charted = False
    if saved.chart and results.rows:
        label, value = saved.chart
        to_chart(results, out_dir / "chart.svg", label, value, title=saved.summary, axis=saved.axis)
        shown = min(len(results.rows), 25)
        parts.append(f'<figure><img src="chart.svg" alt="Bar chart of {esc(value.replace("_", " "))} by '
                     f'{esc(label.replace("_", " "))} for the first {shown} rows; the table below has every number.">'
                     f"<figcaption>{esc(value.replace('_', ' '))} by {esc(label.replace('_', ' '))}"
                     f"{' (first 25 rows)' if len(results.rows) > 25 else ''}; hatched bars are derived values, orange crossed ones measured by the vendor, "
                     f"⚠ marks rows with gotchas.</figcaption></figure>")
        charted = True
    elif not saved.chart:
        parts.append('<p class="note">No chart: this comparison does not give one number per row to draw.</p>')
    rows_per_gotcha: dict[str, int] = defaultdict(int)
    for row in results.rows:
        claims = {t.value for t in row.values() if type(t).__name__ == "NamedNode"
                  and t.value.startswith(g.prefix + "benchmarks/")}
        for gotcha in {x for c in claims for x in g.caveats.get(c, [])}:
            rows_per_gotcha[gotcha] += 1
    caveats = answer.caveats
    for note in answer.notes():  # what the terminal says under the answer: absent rounds, left out
        parts.append(f'<p class="note left-out">{esc(note)}</p>')
    if caveats:
        parts.append('<section class="gotchas" aria-labelledby="caveats-h"><h2 id="caveats-h">Comparison caveats '
                     f'({len(caveats)})</h2><p class="note">Once for the whole table: its claims differ in these ways.</p>'
                     "<ol>" + "".join(
                         f'<li class="gotcha sev-{esc(c.severity)}" id="caveat-{esc(c.gotcha)}"><span class="sev">'
                         f'{esc(c.severity)}</span> <strong>{link(root + "id/gotchas/" + c.gotcha + "/index.html", c.title)}'
                         f'</strong> <span class="note">({esc(c.text().split(" — ", 1)[1])})</span>'
                         f"<p>{esc(c.statement)}</p></li>" for c in caveats) + "</ol></section>")
    gotchas = [g.gotcha(x, f"{n} of {len(results.rows)} rows") for x, n in sorted(rows_per_gotcha.items())]
    parts.append(gotcha_list(gotchas, root, "Caveats of single claims in this table (claim and finding caveats)."))
    disclosure = answer.disclosure
    shown = with_marks(results, disclosure) if disclosure.notes else results
    parts.append("<h2>Rows</h2>" + (_rows_tables(r, saved, shown) if results.rows
                                   else "<p>No rows for the default parameters.</p>"))
    if disclosure.notes:
        parts.append('<section class="disclosures" aria-labelledby="disclosures-h"><h2 id="disclosures-h">Disclosures</h2>'
                     '<p class="note">Each result as the MLPerf results-messaging guidelines ask it to be cited.</p><ol>'
                     + "".join(f"<li>{esc(text)}</li>" for text in disclosure.notes) + "</ol>"
                     + "".join(f'<p class="note">{esc(line)}</p>' for line in disclosure.tail) + "</section>")
    parts.append(f"<details><summary>SPARQL</summary><pre><code>{esc(saved.text)}</code></pre></details>")
    body = "\n".join(p for p in parts if p)
    crumbs = [("benchkg", root + "index.html"), ("comparisons", "../index.html"), (saved.name, None)]
    return page(saved.summary or saved.name, body, root, crumbs, scripts=["sort.js"]), charted


#: the width a comparison table may take on the page (main is 72rem = 1152 px, less its padding)
TABLE_PX = 1100


def _column_px(name: str, cells: list[str], numeric: bool) -> int:
    """About how wide a column sets at the least: a number never wraps, a name breaks anywhere (so it
    takes at most 16 characters), a heading breaks between words."""
    head = max(len(word) for word in name.split("_")) * 8.5
    widest = max([len(c) for c in cells] + [0])
    return int(max(head, widest * 8 if numeric else min(widest, 16) * 7.5)) + 16


def _rows_tables(r, saved, results) -> str:
    """The rows as a table that fits a 1280 px window: the query's most important columns ("#+
    columns:") while they fit, the rest named, and every column in a table one click away."""

    numeric = _numeric_columns([[row.get(v) for row in results.rows] for v in results.vars])
    texts = {v: [short(row.get(v)) for row in results.rows] for v in results.vars}
    importance = ("cite",) + saved.columns  # the footnote marks stay beside the numbers they cite
    order = [v for v in importance if v in results.vars] + [v for v in results.vars if v not in importance]
    shown, used = set(), 0
    for v in order:
        px = _column_px(v, texts[v], results.vars.index(v) in numeric)
        if used + px <= TABLE_PX or not shown:
            shown.add(v)
            used += px
    columns = [v for v in results.vars if v in shown]

    def rows_table(names: list[str], caption: str) -> str:
        cells = [[r.term(row.get(v)) for v in names] for row in results.rows]
        kept = {i for i, v in enumerate(names) if results.vars.index(v) in numeric}
        return table([v.replace("_", " ") for v in names], cells, caption, kept, cls_="sortable")
    out = rows_table(columns, saved.summary)
    hidden = [v for v in results.vars if v not in shown]
    if hidden:
        out += (f'<p class="note">Columns not shown here: {esc(", ".join(hidden))} (every column is in '
                f'{link("results.csv", "results.csv")} and below).</p>'
                f"<details><summary>All {len(results.vars)} columns</summary>"
                f"{rows_table(list(results.vars), saved.summary + ' (all columns)')}</details>")
    return out


def _queries_index(saved: dict) -> str:
    root = "../"
    items = "".join(f"<li>{link(f'{name}/index.html', q.summary or name)} <code>{esc(name)}</code></li>"
                    for name, q in sorted(saved.items()))
    body = f"<h1>Comparisons</h1><p>The saved queries, each run with its default parameters.</p><ul>{items}</ul>"
    return page("Comparisons", body, root, [("benchkg", root + "index.html"), ("comparisons", None)])


def _ontology_page(g: _Graph) -> str:
    root = "../"
    r = _Renderer(g, root)
    terms = g.term_props
    types = {s: {o.value for o in p.get(TYPE, [])} for s, p in terms.items() if s.startswith(BK)}

    def describe(iri: str, extra: str = "") -> str:
        comment = terms[iri].get(RDFS + "comment")
        return (f'<dt id="{esc(iri[len(BK):])}"><code>bk:{esc(iri[len(BK):])}</code> — {esc(g.labels.get(iri, ""))}</dt>'
                f'<dd>{esc(comment[0].value) if comment else ""}{extra}</dd>')

    def section(title: str, iris: list[str], extra=lambda i: "") -> str:
        return f"<h2>{esc(title)}</h2><dl>{''.join(describe(i, extra(i)) for i in sorted(iris))}</dl>"

    def props(i: str) -> str:
        bits = []
        for label, p in (("domain", RDFS + "domain"), ("range", RDFS + "range"), ("sub-property of", RDFS + "subPropertyOf")):
            if terms[i].get(p):
                bits.append(f"{label} {r.values(terms[i][p])}")
        return f'<br><span class="note">{"; ".join(bits)}</span>' if bits else ""

    classes = [s for s, t in types.items() if OWL + "Class" in t]
    properties = [s for s, t in types.items() if t & {OWL + "ObjectProperty", OWL + "DatatypeProperty"}]
    units = [s for s, t in types.items() if QUDT + "ContextualUnit" in t]
    schemes = [s for s, t in types.items() if SKOS + "ConceptScheme" in t]
    scheme_parts = []
    for scheme in sorted(schemes):
        concepts = sorted(s for s, p in terms.items() if any(o.value == scheme for o in p.get(SKOS + "inScheme", [])))
        scheme_parts.append(f'<h3 id="{esc(scheme[len(BK):])}">{esc(g.labels.get(scheme, scheme[len(BK):]))}</h3>'
                            f"<dl>{''.join(describe(c) for c in concepts)}</dl>")
    body = (f"<h1>The benchkg ontology</h1><p class=\"meta\"><code>{esc(BK)}</code> · "
            f'{link("benchkg.ttl", "Turtle", type="text/turtle")} · '
            f'{link(root + "context/v1.jsonld", "JSON-LD context v1", type="application/ld+json")}</p>'
            "<p>Claims are <code>bk:Benchmark</code> (a <code>prov:Entity</code>); quantities are QUDT "
            "<code>qudt:QuantityValue</code>s with <code>qudt:value</code> and <code>qudt:hasUnit</code>; "
            "controlled values are SKOS concepts. Each term below has an anchor: "
            "<code>ontology/index.html#Benchmark</code>.</p>"
            + section("Classes", classes, props) + section("Properties", properties, props)
            + section("Units", units) + "<h2>Concept schemes</h2>" + "".join(scheme_parts))
    head = '<link rel="alternate" type="text/turtle" href="benchkg.ttl">\n'
    return page("Ontology", body, root, [("benchkg", root + "index.html"), ("ontology", None)], head)


def _home(g: _Graph, counts: dict[str, int], saved: dict, dumps: dict[str, int], stats) -> str:

    kinds = "".join(f'<li>{link(f"id/{k}/index.html", k.capitalize())}<span class="count">{n:,} records</span></li>'
                    for k, n in counts.items() if n)
    comparisons = "".join(f"<li>{link(f'queries/{n}/index.html', q.summary or n)}</li>" for n, q in sorted(saved.items()))
    dump_rows = [[link(f"dumps/{DUMPS[f][0]}", DUMPS[f][0], type=DUMPS[f][1]), esc(DUMPS[f][2]), f"<code>{DUMPS[f][1]}</code>",
                  f"{size:,}"] for f, size in dumps.items()]
    dump_rows.append([link("void.ttl", "void.ttl", type="text/turtle"), "VoID + DCAT 3 description of the dataset",
                      "<code>text/turtle</code>", ""])
    dump_rows.append([link("context/v1.jsonld", "context/v1.jsonld", type="application/ld+json"),
                      "The JSON-LD @context (v1, protected) the .jsonld files use", "<code>application/ld+json</code>", ""])
    body = (f"<h1>benchkg: AI-inference benchmark claims</h1>"
            f"<p>{counts.get('benchmarks', 0):,} claims with the accelerators, fabrics, engines, formats, models and "
            f"sources behind them, and the pitfalls that apply when comparing them: {stats.triples:,} triples. "
            f"Each claim's page gives its value and unit as stated, any per-accelerator value benchkg derived "
            f"(marked as such), and its gotchas.</p>"
            + search_form()
            + f'<h2>Browse</h2><ul class="kinds">{kinds}</ul>'
            + f"<h2>Comparisons</h2><ul>{comparisons}</ul>"
            + '<h2 id="data">Data</h2><p>The whole dataset, for other tools. Every page also links its '
              'record as Turtle and JSON-LD.</p>'
            + table(["File", "What", "Media type", "Bytes"], dump_rows, numeric={3}))
    return page("Home", body, "", scripts=["search-index.js", "search.js"])


def build_site(store, data_dir: Path, out: Path, *, base: str = DEFAULT_BASE, endpoint: str | None = None,
               findings=(), progress=None, published_at: str = PUBLISHED_AT) -> SiteReport:
    """Write the static site for ``store`` (built from ``data_dir``) to ``out``.

    ``findings`` (from validation) are shown on the records they concern. ``progress(done, total)``
    is called as entity pages are written. ``published_at`` is the URL the w3id.org rules send to.
    The folder and its files are readable as the umask allows (a web server is another user).

    :raises UsageError: when ``out`` exists and is not a benchkg site (it is never replaced then).
    """
    out = Path(out)
    refuse_inside(out, data_dir)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).exists())):
        raise UsageError(f"{out} exists and is not a benchkg site; choose an empty or new folder "
                         f"(benchkg only replaces folders it wrote, marked by {MARKER})")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(out.parent, f".{out.name}.tmp-")  # left by a killed run
        remove_stale_temporaries(out.parent, f".{out.name}.old-")
        tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.tmp-{os.getpid()}-"))
    except OSError as e:
        blocker = next((p for p in [*reversed(out.parents)] if p.exists() and not p.is_dir()), None)
        why = f"{blocker} is a file, not a folder" if blocker else (e.strerror or str(e))
        raise UsageError(f"cannot write the site in {out}: {why}; choose a folder you can write") from None
    try:
        os.chmod(tmp, 0o777 & ~current_umask())  # mkdtemp makes it 0700
        saved = saved_queries(layout_for(data_dir).query_dirs)
        report = _write(store, tmp, base, endpoint, findings, progress, saved)
        (tmp / ".htaccess").write_text(conneg.site_rules(), encoding="utf-8")
        (tmp / "w3id.htaccess").write_text(conneg.w3id_rules(published_at), encoding="utf-8")
        (tmp / MARKER).write_text("written by benchkg site; replaced by the next run\n", encoding="utf-8")
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}-")
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    report.out = out
    report.files, report.bytes = 0, 0
    for path in out.rglob("*"):
        if path.is_file():
            report.files += 1
            report.bytes += path.stat().st_size
    return report


def _kind_container(g: _Graph, kind: str, iris: list[str]) -> list:
    """A kind index as RDF: an LDP container ``<base>id/<kind>/`` that contains every record, labelled."""
    from pyoxigraph import Literal, NamedNode, Triple

    container = NamedNode(f"{g.prefix}{kind}/")
    out = [Triple(container, NamedNode(TYPE), NamedNode(LDP + "BasicContainer")),
           Triple(container, NamedNode(LABEL), Literal(kind.capitalize()))]
    for iri in iris:
        out.append(Triple(container, NamedNode(LDP + "contains"), NamedNode(iri)))
    out += [Triple(NamedNode(iri), NamedNode(LABEL), Literal(g.labels[iri])) for iri in iris if iri in g.labels]
    return out


def _write(store, out: Path, base: str, endpoint: str | None, findings, progress, saved: dict) -> SiteReport:
    from pyoxigraph import RdfFormat, parse, serialize


    g = _Graph(store, base)
    report = SiteReport(out)
    by_record = defaultdict(list)
    for f in findings:
        by_record[f.focus].append(f)
    by_kind: dict[str, list[str]] = {k: [] for k in KINDS}
    for iri in g.records:
        by_kind.setdefault(g.kind_id(iri)[0], []).append(iri)
    total = len(g.records)
    for n, iri in enumerate(sorted(g.records), start=1):
        kind, rid = g.kind_id(iri)
        folder = out / "id" / kind / rid
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(_entity_page(g, iri, by_record.get(f"{kind}/{rid}", [])), encoding="utf-8")
        (folder / "index.ttl").write_bytes(serialize(g.records[iri], format=RdfFormat.TURTLE, prefixes=DATA_PREFIXES) or b"")
        doc = jsonld.document(g.records[iri], context_ref="../../../context/v1.jsonld", named_graphs=False)
        (folder / "index.jsonld").write_bytes(jsonld.dumps(doc))
        report.pages += 1
        if progress:
            progress(n, total)
    report.entities = total
    for kind, iris in by_kind.items():
        if iris:
            (out / "id" / kind).mkdir(parents=True, exist_ok=True)
            (out / "id" / kind / "index.html").write_text(_kind_index(g, kind, iris), encoding="utf-8")
            triples = _kind_container(g, kind, sorted(iris))
            prefixes = {**DATA_PREFIXES, "ldp": LDP}
            (out / "id" / kind / "index.ttl").write_bytes(serialize(triples, format=RdfFormat.TURTLE, prefixes=prefixes))
            doc = jsonld.document(triples, context_ref="../../context/v1.jsonld", named_graphs=False)
            (out / "id" / kind / "index.jsonld").write_bytes(jsonld.dumps(doc))
            report.pages += 1
    for name, query in saved.items():
        folder = out / "queries" / name
        folder.mkdir(parents=True, exist_ok=True)
        html, charted = _query_page(g, store, query, folder)
        (folder / "index.html").write_text(html, encoding="utf-8")
        report.pages += 1
        report.charts += charted
    (out / "queries" / "index.html").write_text(_queries_index(saved), encoding="utf-8")
    (out / "ontology").mkdir(exist_ok=True)
    (out / "ontology" / "index.html").write_text(_ontology_page(g), encoding="utf-8")
    shutil.copyfile(ONTOLOGY_FILE, out / "ontology" / "benchkg.ttl")
    terms = list(parse(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE))
    (out / "ontology" / "benchkg.jsonld").write_bytes(
        jsonld.dumps(jsonld.document(terms, context_ref="../context/v1.jsonld", named_graphs=False)))
    (out / "context").mkdir(exist_ok=True)
    shutil.copyfile(CONTEXT_FILE, out / "context" / "v1.jsonld")
    (out / "dumps").mkdir(exist_ok=True)
    sizes = {}
    for fmt, (name, _, _) in DUMPS.items():
        data = serialize_graph(store, fmt, base)
        (out / "dumps" / name).write_bytes(data)
        sizes[fmt] = len(data)
    stats = dataset_stats(store, base)
    (out / "void.ttl").write_bytes(describe(stats, sizes, base, endpoint))
    (out / ".well-known").mkdir(exist_ok=True)
    shutil.copyfile(out / "void.ttl", out / ".well-known" / "void")
    for asset in ("style.css", "search.js", "sort.js", "favicon.svg"):
        shutil.copyfile(ASSETS_DIR / asset, out / asset)
    entries = [[f"id/{g.kind_id(i)[0]}/{g.kind_id(i)[1]}/index.html", g.labels.get(i, g.kind_id(i)[1]),
                SINGULAR.get(g.kind_id(i)[0], ""),
                " ".join([g.labels.get(i, ""), g.kind_id(i)[1], g.kind_id(i)[0]]).lower()] for i in sorted(g.records)]
    entries += [[f"queries/{n}/index.html", q.summary or n, "comparison", f"{q.summary} {n} comparison".lower()]
                for n, q in saved.items()]
    (out / "search-index.js").write_text(
        "self.BENCHKG_SEARCH = " + json.dumps(entries, ensure_ascii=False, separators=(",", ":")) + ";\n",
        encoding="utf-8")
    counts = {k: len(v) for k, v in by_kind.items()}
    (out / "index.html").write_text(_home(g, counts, saved, sizes, stats), encoding="utf-8")
    report.pages += 3
    return report
