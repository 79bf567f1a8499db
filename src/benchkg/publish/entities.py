"""One page per record, by kind (headline, gotchas, statements, who refers to it), the index
of each kind (a table, and as RDF an LDP container), and the ontology page."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pyoxigraph import Literal, NamedNode, Triple

from benchkg.kernel.vocab import BK, expand
from benchkg.publish import jsonld
from benchkg.publish.pages import esc, findings_list, gotcha_list, link, page, table
from benchkg.publish.sitegraph import LABEL, OWL, QUDT, RDFS, SINGULAR, SKOS, TYPE, Renderer, SiteGraph, numeric_columns
from benchkg.records.schema import CLASSES, KINDS

LDP = "http://www.w3.org/ns/ldp#"

#: kind -> columns of its index table: (header, path of predicates from the record)
COLUMNS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "benchmarks": [
        ("Model", (BK + "model",)),
        ("Accelerator", (BK + "accelerator",)),
        ("Count", (BK + "acceleratorCount",)),
        ("Scenario", (BK + "scenario",)),
        ("Value", (BK + "result", QUDT + "value")),
        ("Unit", (BK + "result", QUDT + "hasUnit")),
        ("Suite", (BK + "suite",)),
        ("System", (BK + "system",)),
    ],
    "systems": [
        ("Submitter", (BK + "submitter",)),
        ("Suite", (BK + "suite",)),
        ("Accelerator", (BK + "accelerator",)),
        ("Count", (BK + "acceleratorCount",)),
        ("Nodes", (BK + "nodeCount",)),
        ("Fabric its submitter states", (BK + "interconnect",)),
    ],
    "accelerators": [
        ("Vendor", (BK + "vendor",)),
        ("Kind", (BK + "acceleratorKind",)),
        ("Made of", (BK + "madeOf",)),
        ("Variant of", (BK + "variantOf",)),
        ("Memory (GB)", (BK + "memoryGB",)),
        ("Memory bandwidth (TB/s)", (BK + "memoryBandwidthTBs",)),
        ("Fabric in its specification", (BK + "interconnect",)),
    ],
    "interconnects": [("Kind", (BK + "interconnectKind",)), ("Vendor", (BK + "vendor",))],
    "gotchas": [("Severity", (BK + "severity",)), ("Statement", (BK + "statement",))],
    "suites": [("Family", (BK + "suiteFamily",)), ("Version", (BK + "version",)), ("Publisher", (BK + "publisher",))],
    "sources": [("Kind", (BK + "sourceKind",)), ("Publisher", (BK + "publisher",))],
    "models": [("Parameters (billions)", (BK + "parametersBillions",))],
}


def _statements(g: SiteGraph, r: Renderer, iri: str) -> str:
    """The record's statements: the record first, then each of its nested nodes, one table each."""
    subjects = [iri] + sorted(
        {t.subject.value for t in g.records[iri] if t.subject.value != iri and t.subject.value.startswith(iri + "#")}
    )
    parts = []
    for subject in subjects:
        props = g.props[subject]
        order = sorted(props, key=lambda p: (p != TYPE, p != LABEL, g.labels.get(p, jsonld.compact_iri(p))))
        rows = [[r.predicate(p), r.values(props[p])] for p in order]
        if subject == iri:
            parts.append(table(["Property", "Value"], rows, cls_="props"))
        else:
            fragment = subject.partition("#")[2]
            parts.append(
                f'<section id="{esc(fragment)}"><h3>#{esc(fragment)}</h3>{table(["Property", "Value"], rows, cls_="props")}</section>'
            )
    return '<section aria-labelledby="st-h"><h2 id="st-h">Statements</h2>' + "".join(parts) + "</section>"


def _headline(g: SiteGraph, r: Renderer, iri: str) -> str:
    """A claim's number up front: value and unit as stated, the derived per-accelerator value, and
    what it was measured on."""
    rows = []
    result = g.first(iri, BK + "result")
    unit = scope = None
    if result is not None:
        value, unit = g.first(result.value, QUDT + "value"), g.first(result.value, QUDT + "hasUnit")
        scope, metric = g.first(result.value, BK + "scope"), g.first(result.value, BK + "metric")
        rows.append(
            (
                "Result",
                f'<span class="value">{r.term(value)}</span> {r.term(unit)} '
                f'<span class="note">({r.term(metric)}, {r.term(scope)}, as the source states it)</span>',
            )
        )
    for label, predicate, per in (
        ("Per accelerator", "perAcceleratorValue", "accelerators"),
        ("Per socket", "perSocketValue", "sockets"),
    ):
        derived = g.first(iri, BK + predicate)  # a comparison fact (graph/facts.py): none for a mixed system
        if derived is None or scope is None or scope.value != BK + "scope-aggregate":
            continue  # (a per-accelerator value as stated is the result above)
        count = g.first(iri, BK + "acceleratorCount")
        rows.append(
            (
                label,
                f'<span class="derived">{r.term(derived)} {r.term(unit)}</span> '
                f'<span class="note">derived by benchkg (value ÷ {esc(count.value if count else "?")} '
                f"{per}), not stated by the source and not an official metric</span>",
            )
        )
    accelerators = g.all(iri, BK + "accelerator")
    if accelerators:
        count = g.first(iri, BK + "acceleratorCount")
        rows.append(("System", f"{r.values(accelerators)}" + (f" × {r.term(count)}" if count else "")))
    for label, predicate in (
        ("Model", "model"),
        ("Scenario", "scenario"),
        ("Suite", "suite"),
        ("Measured by", "measuredBy"),
        ("Audited by", "auditedBy"),
        ("Submitter", "submitter"),
    ):
        values = g.all(iri, BK + predicate)
        if values:
            rows.append((label, r.values(values)))
    judged, relative = g.verdicts.get(iri, (None, None))
    if judged is not None:  # (the line benchkg show prints, and the verdict as data)
        rows.append(("Verdict", f'<span data-verdict="{esc(judged.kind)}">{esc(judged.line)}</span>'))
    if relative is not None:
        rows.append(("Relative", f'<span data-verdict="{esc(relative.verdict)}">{esc(relative.line)}</span>'))
    if not rows:
        return ""
    items = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="headline" aria-label="Headline">{items}</dl>'


def _gotchas_for(g: SiteGraph, kind: str, iri: str) -> tuple[list[dict], str]:
    """The gotchas that apply on a record's page, and a line saying why."""
    if kind == "benchmarks":
        return [g.gotcha(x) for x in sorted(g.caveats.get(iri, []))], (
            "benchkg links a gotcha to a claim when the claim "
            "lists it, matches its applies_to (suite, scenario, metric, field, measured by), or is flagged by one "
            "of its finding shapes. Comparison caveats apply to comparisons, not to one claim."
        )
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


def _referred_by(g: SiteGraph, r: Renderer, iri: str) -> str:
    """Who refers to a record, by kind (a long list folded)."""
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


def entity_page(g: SiteGraph, iri: str, findings: list) -> str:
    kind, rid = g.kind_id(iri)
    root = "../../../"
    r = Renderer(g, root, iri)
    label = g.labels.get(iri, rid)
    gotchas, note = _gotchas_for(g, kind, iri)
    head = (
        '<link rel="alternate" type="text/turtle" href="index.ttl">\n'
        '<link rel="alternate" type="application/ld+json" href="index.jsonld">\n'
    )
    body = [
        f'<article about="{esc(iri)}">',
        f"<h1>{esc(label)}</h1>",
        f'<p class="meta">{esc(SINGULAR[kind])} · <code>{esc(iri)}</code></p>',
        f'<p class="meta">record file <code>data/{esc(kind)}/{esc(rid)}.json</code></p>',
        '<p class="alternates">This record as <a href="index.ttl" type="text/turtle">Turtle</a> · '
        '<a href="index.jsonld" type="application/ld+json">JSON-LD</a></p>',
    ]
    if kind == "gotchas":
        statement = g.first(iri, BK + "statement")
        severity = g.gotcha(iri)["severity"]
        body.append(
            f'<div class="gotcha sev-{esc(severity)}"><span class="sev">{esc(severity)}</span>'
            f"<p>{esc(statement.value if statement else '')}</p></div>"
        )
    body.append(_headline(g, r, iri) if kind == "benchmarks" else "")
    body.append(gotcha_list(gotchas, root, note))
    body.append(findings_list(findings))
    body.append(_statements(g, r, iri))
    body.append(_referred_by(g, r, iri))
    body.append("</article>")
    crumbs = [("benchkg", root + "index.html"), (kind, "../index.html"), (rid, None)]
    return page(label, "\n".join(b for b in body if b), root, crumbs, head)


def kind_index(g: SiteGraph, kind: str, iris: list[str]) -> str:
    root = "../../"
    r = Renderer(g, root)
    columns = COLUMNS.get(kind, [])
    rows: list[list[str]] = []
    terms: list[list[Any]] = [[] for _ in columns]
    for iri in sorted(iris, key=lambda i: (g.labels.get(i) or i).lower()):
        row = [link(f"{g.kind_id(iri)[1]}/index.html", g.labels.get(iri, g.kind_id(iri)[1]))]
        for i, (_, path) in enumerate(columns):
            values = g.all(iri, *path)
            terms[i] += values or [None]
            row.append(r.values(values))
        if kind == "benchmarks":
            row.append(str(len(g.caveats.get(iri, []))))
        rows.append(row)
    headers = ["Name"] + [h for h, _ in columns] + (["Gotchas"] if kind == "benchmarks" else [])
    numeric = {i + 1 for i in numeric_columns(terms)}
    if kind == "benchmarks":
        numeric.add(len(headers) - 1)
    body = (
        f"<h1>{esc(kind.capitalize())}</h1><p>{len(iris):,} records. Each links to its page, "
        f"with its statements, the gotchas that apply and its Turtle and JSON-LD.</p>"
        + table(headers, rows, f"All {kind}", numeric)
    )
    return page(kind.capitalize(), body, root, [("benchkg", root + "index.html"), (kind, None)])


def kind_container(g: SiteGraph, kind: str, iris: list[str]) -> list:
    """A kind index as RDF: an LDP container ``<base>id/<kind>/`` that contains every record, labelled."""
    container = NamedNode(f"{g.prefix}{kind}/")
    out = [
        Triple(container, NamedNode(TYPE), NamedNode(LDP + "BasicContainer")),
        Triple(container, NamedNode(LABEL), Literal(kind.capitalize())),
    ]
    for iri in iris:
        out.append(Triple(container, NamedNode(LDP + "contains"), NamedNode(iri)))
    out += [Triple(NamedNode(iri), NamedNode(LABEL), Literal(g.labels[iri])) for iri in iris if iri in g.labels]
    return out


def ontology_page(g: SiteGraph) -> str:
    root = "../"
    r = Renderer(g, root)
    terms = g.term_props
    types = {s: {o.value for o in p.get(TYPE, [])} for s, p in terms.items() if s.startswith(BK)}

    def describe(iri: str, extra: str = "") -> str:
        comment = terms[iri].get(RDFS + "comment")
        return (
            f'<dt id="{esc(iri[len(BK) :])}"><code>bk:{esc(iri[len(BK) :])}</code> — {esc(g.labels.get(iri, ""))}</dt>'
            f"<dd>{esc(comment[0].value) if comment else ''}{extra}</dd>"
        )

    def section(title: str, iris: list[str], extra=lambda i: "") -> str:
        return f"<h2>{esc(title)}</h2><dl>{''.join(describe(i, extra(i)) for i in sorted(iris))}</dl>"

    def props(i: str) -> str:
        bits = []
        for label, p in (
            ("domain", RDFS + "domain"),
            ("range", RDFS + "range"),
            ("sub-property of", RDFS + "subPropertyOf"),
        ):
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
        scheme_parts.append(
            f'<h3 id="{esc(scheme[len(BK) :])}">{esc(g.labels.get(scheme, scheme[len(BK) :]))}</h3>'
            f"<dl>{''.join(describe(c) for c in concepts)}</dl>"
        )
    body = (
        f'<h1>The benchkg ontology</h1><p class="meta"><code>{esc(BK)}</code> · '
        f"{link('benchkg.ttl', 'Turtle', type='text/turtle')} · "
        f"{link(root + 'context/v1.jsonld', 'JSON-LD context v1', type='application/ld+json')}</p>"
        "<p>Claims are <code>bk:Benchmark</code> (a <code>prov:Entity</code>); quantities are QUDT "
        "<code>qudt:QuantityValue</code>s with <code>qudt:value</code> and <code>qudt:hasUnit</code>; "
        "controlled values are SKOS concepts. Each term below has an anchor: "
        "<code>ontology/index.html#Benchmark</code>.</p>"
        + section("Classes", classes, props)
        + section("Properties", properties, props)
        + section("Units", units)
        + "<h2>Concept schemes</h2>"
        + "".join(scheme_parts)
    )
    head = '<link rel="alternate" type="text/turtle" href="benchkg.ttl">\n'
    return page("Ontology", body, root, [("benchkg", root + "index.html"), ("ontology", None)], head)
