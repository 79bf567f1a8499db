"""Linked data: the JSON-LD context, the dumps in independent parsers, the VoID/DCAT description,
and the static site's files (the browser checks are in test_browser.py)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pyoxigraph import NamedNode, RdfFormat, parse

from benchkg.graph.derived import caveats_graph
from benchkg.graph.store import build_graph
from benchkg.kernel.resources import CONTEXT_FILE, ROOT
from benchkg.publish import jsonld
from benchkg.publish.export import serialize_graph
from conftest import DATA, FULL_DATA, cli, tool

JS = ROOT / "tests" / "js"
VOID = "http://rdfs.org/ns/void#"
DCAT = "http://www.w3.org/ns/dcat#"
GB200 = "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server"


# ---------------------------------------------------------------- the context


def test_committed_context_is_the_one_the_ontology_generates():
    assert json.loads(CONTEXT_FILE.read_text()) == jsonld.generate_context(), (
        "ontology changed: run `python -m benchkg.publish.jsonld` and check no v1 term changed meaning"
    )


def test_context_is_protected_versioned_and_covers_every_predicate_the_data_uses(seed_store):
    ctx = jsonld.load_context()
    assert ctx["@protected"] is True and ctx["@version"] == 1.1
    assert CONTEXT_FILE.name == "v1.jsonld"
    terms = jsonld._terms_by_iri(ctx)
    used = {
        q.predicate.value
        for q in seed_store.quads_for_pattern(None, None, None, None)
        if q.predicate.value.startswith(jsonld.BK)
    }
    assert not used - set(terms) and len(terms) > 90


# ---------------------------------------------------------------- dumps in independent parsers


@pytest.fixture(scope="module")
def dumps(tmp_path_factory):
    """The full data/ in every dump format, with pyoxigraph's own quad count."""
    store = build_graph(FULL_DATA, persist=False).store
    out = tmp_path_factory.mktemp("dumps")
    files = {}
    for fmt in ("ttl", "nt", "trig", "nq", "jsonld"):
        files[fmt] = out / f"benchkg.{fmt}"
        files[fmt].write_bytes(serialize_graph(store, fmt))
    quads = set(parse(path=str(files["nq"]), format=RdfFormat.N_QUADS))
    return files, quads


def _rapper_count(path: Path, syntax: str) -> int:
    run = subprocess.run([tool("rapper"), "-i", syntax, "-c", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return int(re.search(r"returned (\d+) (?:triples|statements)", run.stderr + run.stdout).group(1))


def _node_counts(*paths: Path) -> dict:
    if not (JS / "node_modules" / "jsonld").is_dir():
        pytest.fail("tests/js/node_modules is missing; run `make test-tools`")
    run = subprocess.run([tool("node"), str(JS / "count.mjs"), *map(str, paths)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.external  # rapper
def test_dumps_parse_in_rapper_with_the_same_triple_count(dumps):
    files, quads = dumps
    triples = len({q.triple for q in quads})
    assert triples > 90_000
    assert _rapper_count(files["nt"], "ntriples") == triples
    assert _rapper_count(files["ttl"], "turtle") == triples
    # rapper reads TriG (named graphs) and counts statements across graphs
    assert _rapper_count(files["trig"], "trig") == len(quads)
    assert _rapper_count(files["nq"], "nquads") == len(quads)


@pytest.mark.external  # node
def test_dumps_parse_in_n3js_and_jsonldjs_with_the_same_counts(dumps):
    files, quads = dumps
    counts = _node_counts(*files.values())
    triples = len({q.triple for q in quads})
    for fmt in ("ttl", "nt"):
        assert counts[str(files[fmt])] == {"quads": triples, "triples": triples}, fmt
    for fmt in ("trig", "nq", "jsonld"):
        assert counts[str(files[fmt])] == {"quads": len(quads), "triples": triples}, fmt


@pytest.mark.slow
def test_jsonld_export_holds_exactly_the_quads_of_the_nquads_export(dumps):
    files, quads = dumps
    assert set(parse(path=str(files["jsonld"]), format=RdfFormat.JSON_LD)) == quads
    doc = json.loads(files["jsonld"].read_text())
    assert doc["@context"]["@protected"] is True  # inline: reads without fetching anything
    node = next(
        n for g in doc["@graph"] if g["@id"].endswith(GB200) for n in g["@graph"] if n["@id"].endswith("#result")
    )
    assert node["value"] == "910621.36" and node["hasUnit"] == "bk:TOKEN-PER-SEC"


def test_jsonld_keeps_literals_the_context_would_otherwise_retype():
    from pyoxigraph import Literal, Triple

    s, p = NamedNode("https://w3id.org/benchkg/id/models/x"), NamedNode(jsonld.BK + "acceleratorCount")
    odd = [
        Triple(s, p, Literal("3.5", datatype=NamedNode(jsonld.XSD + "decimal"))),  # term says integer
        Triple(s, p, Literal("drei", language="de")),
        Triple(s, NamedNode("https://example.org/p"), NamedNode("https://example.org/o")),
    ]
    text = jsonld.dumps({"@context": jsonld.load_context(), "@graph": jsonld.nodes(odd)})
    assert {q.triple for q in parse(text, format=RdfFormat.JSON_LD)} == set(odd)


# ---------------------------------------------------------------- the dataset description


def _graph(path: Path) -> set:
    return set(parse(path=str(path), format=RdfFormat.TURTLE, base_iri="https://w3id.org/benchkg/"))


def _objects(triples, s, p):
    return [t.object for t in triples if t.subject.value == s and t.predicate.value == p]


def test_void_dcat_counts_dumps_media_types_and_endpoint(seed_site):
    void = _graph(seed_site / "void.ttl")
    ds = "https://w3id.org/benchkg/dataset"
    types = {o.value for o in _objects(void, ds, jsonld.RDF_TYPE)}
    assert types == {VOID + "Dataset", DCAT + "Dataset"}
    nt = seed_site / "dumps" / "benchkg.nt"
    triples = len(set(parse(path=str(nt), format=RdfFormat.N_TRIPLES)))
    assert int(_objects(void, ds, VOID + "triples")[0].value) == triples
    records = sum(1 for p in DATA.glob("*/*.json"))
    assert int(_objects(void, ds, VOID + "entities")[0].value) == records
    dists = _objects(void, ds, DCAT + "distribution")
    media = {}
    for d in dists:
        for url in _objects(void, d.value, DCAT + "downloadURL"):
            name = url.value.rsplit("/", 1)[1]
            media[name] = _objects(void, d.value, DCAT + "mediaType")[0].value.rsplit("/", 2)[-2:]
            size = int(_objects(void, d.value, DCAT + "byteSize")[0].value)
            assert size == (seed_site / "dumps" / name).stat().st_size, name
    assert media == {
        "benchkg.nt": ["application", "n-triples"],
        "benchkg.ttl": ["text", "turtle"],
        "benchkg.trig": ["application", "trig"],
        "benchkg.jsonld": ["application", "ld+json"],
    }
    assert [o.value for o in _objects(void, ds, VOID + "sparqlEndpoint")] == ["http://127.0.0.1:7878/query"]
    assert _objects(void, ds, "http://purl.org/dc/terms/license")
    assert _objects(void, ds, "http://purl.org/dc/terms/publisher")
    vocabularies = {o.value for o in _objects(void, ds, VOID + "vocabulary")}
    assert {
        "https://w3id.org/benchkg/ontology#",
        "http://qudt.org/schema/qudt/",
        "http://www.w3.org/ns/prov#",
    } <= vocabularies


@pytest.mark.slow
def test_void_names_no_endpoint_when_none_is_given(tmp_path):
    result = cli("site", "-o", tmp_path / "s", "--data", DATA)
    assert result.exit_code == 0, result.output
    void = _graph(tmp_path / "s" / "void.ttl")
    assert not [t for t in void if t.predicate.value in (VOID + "sparqlEndpoint", DCAT + "endpointURL")]


# ---------------------------------------------------------------- the site's files


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.resources, self.alternates, self.ids = [], [], [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag in ("img", "script") and "src" in a:
            self.resources.append(a["src"])
        if tag == "link":
            (self.alternates if a.get("rel") == "alternate" else self.resources).append(a["href"])


def _parse_html(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def test_every_record_has_a_page_with_turtle_and_jsonld_alternates(seed_site, seed_store):
    records = sorted(DATA.glob("*/*.json"))
    assert len(records) > 50
    for record in records:
        folder = seed_site / "id" / record.parent.name / record.stem
        html = _parse_html(folder / "index.html")
        assert html.alternates == ["index.ttl", "index.jsonld"], record
        assert (folder / "index.ttl").is_file() and (folder / "index.jsonld").is_file()


def test_entity_turtle_is_the_record_graph_and_its_caveats(seed_site, seed_store):
    iri = f"https://w3id.org/benchkg/id/benchmarks/{GB200}"
    expected = {q.triple for q in seed_store.quads_for_pattern(None, None, None, NamedNode(iri))}
    caveats = {
        q.triple
        for q in seed_store.quads_for_pattern(NamedNode(iri), None, None, caveats_graph("https://w3id.org/benchkg/"))
    }
    assert caveats, "the claim has gotchas"
    got = {
        q.triple
        for q in parse(path=str(seed_site / "id" / "benchmarks" / GB200 / "index.ttl"), format=RdfFormat.TURTLE)
    }
    assert got == expected | caveats


@pytest.mark.external  # node
def test_entity_jsonld_files_parse_in_jsonldjs_like_their_turtle(seed_site):
    folders = sorted((seed_site / "id").glob("*/*/"))
    files = [f / n for f in folders for n in ("index.ttl", "index.jsonld")]
    counts = _node_counts(*files)
    for folder in folders:
        ttl, js = counts[str(folder / "index.ttl")], counts[str(folder / "index.jsonld")]
        assert js == ttl and ttl["triples"] > 0, folder


def test_pages_load_nothing_from_another_host(seed_site):
    pages = list(seed_site.rglob("*.html"))
    assert len(pages) > 70
    for path in pages:
        for ref in _parse_html(path).resources:
            assert not re.match(r"^[a-z]+:|^//", ref), f"{path}: loads {ref}"
    script = (seed_site / "search.js").read_text()
    assert not re.search(r"https?:|fetch\(|XMLHttpRequest|import\(", script)
    css = (seed_site / "style.css").read_text()
    assert "url(" not in css and "@import" not in css


@pytest.mark.slow
def test_site_replaces_its_own_folder_and_refuses_any_other(tmp_path):
    out = tmp_path / "site"
    assert cli("site", "-o", out, "--data", DATA).exit_code == 0
    (out / "stale.html").write_text("old")
    assert cli("site", "-o", out, "--data", DATA).exit_code == 0
    assert not (out / "stale.html").exists(), "a rerun replaces the whole site"
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    result = cli("site", "-o", other, "--data", DATA)
    assert result.exit_code == 2 and "not a benchkg site" in result.output
    assert [p.name for p in other.iterdir()] == ["notes.txt"]
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name or ".old-" in p.name]


@pytest.mark.slow
def test_a_failed_run_leaves_the_previous_site_untouched(tmp_path, monkeypatch):
    import benchkg.publish.site

    out = tmp_path / "site"
    assert cli("site", "-o", out, "--data", DATA).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def broken(*args):
        raise OSError("disk full")

    monkeypatch.setattr(benchkg.publish.site, "ontology_page", broken)
    result = cli("site", "-o", out, "--data", DATA)
    assert result.exit_code != 0
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.slow
def test_the_same_input_gives_the_same_site_and_export_byte_for_byte(seed_site, tmp_path):
    """Another copy of the same data, another store, another run: every file of the site (charts,
    "referred to by" lists of records with equal labels…) and the export are the same bytes."""
    copy = tmp_path / "again" / "data"
    shutil.copytree(DATA, copy)
    out = tmp_path / "site"
    assert cli("site", "-o", out, "--data", copy, "--endpoint", "http://127.0.0.1:7878/query").exit_code == 0
    first = {p.relative_to(seed_site): p.read_bytes() for p in seed_site.rglob("*") if p.is_file()}
    second = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert first.keys() == second.keys() and len(first) > 1000
    assert [str(p) for p in first if first[p] != second[p]] == []
    exports = []
    for n, data in enumerate((DATA, copy)):
        target = tmp_path / f"export-{n}.trig"
        assert cli("export", "-o", target, "--data", data).exit_code == 0
        exports.append(target.read_bytes())
    assert exports[0] == exports[1]
