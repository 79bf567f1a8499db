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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyoxigraph import RdfFormat, parse, serialize

from benchkg.answers.queries import run_query
from benchkg.answers.results import format_number, ratio_cell, short
from benchkg.answers.savedquery import saved_queries
from benchkg.answers.verdicts import record_verdicts
from benchkg.graph.backend import backend_of
from benchkg.kernel.atomic import current_umask, remove_stale_temporaries
from benchkg.kernel.errors import UsageError
from benchkg.kernel.resources import ASSETS_DIR, CONTEXT_FILE, ONTOLOGY_FILE
from benchkg.kernel.vocab import BK, DATA_PREFIXES, DEFAULT_BASE
from benchkg.publish import conneg, jsonld
from benchkg.publish.dataset import DUMPS, dataset_stats, describe
from benchkg.publish.entities import LDP, entity_page, kind_container, kind_index, ontology_page
from benchkg.publish.export import refuse_inside, write_graph
from benchkg.publish.pages import esc, link, page, search_form, table
from benchkg.publish.querypages import queries_index, query_page
from benchkg.publish.sitegraph import SINGULAR, Renderer, SiteGraph
from benchkg.records.layout import layout_for
from benchkg.records.schema import KINDS

MARKER = ".benchkg-site"
#: where the site is published by default: the w3id.org rules send the namespace there
PUBLISHED_AT = "https://benchkg.github.io/benchkg/"


@dataclass
class SiteReport:
    """What ``build_site`` wrote."""

    out: Path
    entities: int = 0
    pages: int = 0
    files: int = 0
    bytes: int = 0
    charts: int = 0


def _home(g: SiteGraph, counts: dict[str, int], saved: dict, dumps: dict[str, int], stats, own: str = "") -> str:
    """The home page: a data repository's own claims and their verdicts first (``own``), then the
    graph they are compared with: its records by kind, the comparisons, the dumps."""

    kinds = "".join(
        f'<li>{link(f"id/{k}/index.html", k.capitalize())}<span class="count">{n:,} records</span></li>'
        for k, n in counts.items()
        if n
    )
    comparisons = "".join(
        f"<li>{link(f'queries/{n}/index.html', q.summary or n)}</li>" for n, q in sorted(saved.items())
    )
    dump_rows = [
        [
            link(f"dumps/{DUMPS[f][0]}", DUMPS[f][0], type=DUMPS[f][1]),
            esc(DUMPS[f][2]),
            f"<code>{DUMPS[f][1]}</code>",
            f"{size:,}",
        ]
        for f, size in dumps.items()
    ]
    dump_rows.append(
        [
            link("void.ttl", "void.ttl", type="text/turtle"),
            "VoID + DCAT 3 description of the dataset",
            "<code>text/turtle</code>",
            "",
        ]
    )
    dump_rows.append(
        [
            link("context/v1.jsonld", "context/v1.jsonld", type="application/ld+json"),
            "The JSON-LD @context (v1, protected) the .jsonld files use",
            "<code>application/ld+json</code>",
            "",
        ]
    )
    heading = "<h2>The graph they are compared with</h2>" if own else "<h1>benchkg: AI-inference benchmark claims</h1>"
    body = (
        own
        + heading
        + f"<p>{counts.get('benchmarks', 0):,} claims with the accelerators, fabrics, engines, formats, models and "
        f"sources behind them, and the pitfalls that apply when comparing them: {stats.triples:,} triples. "
        f"Each claim's page gives its value and unit as stated, any per-accelerator value benchkg derived "
        f"(marked as such), and its gotchas.</p>"
        + search_form()
        + f'<h2>Browse</h2><ul class="kinds">{kinds}</ul>'
        + f"<h2>Comparisons</h2><ul>{comparisons}</ul>"
        + '<h2 id="data">Data</h2><p>The whole dataset, for other tools. Every page also links its '
        "record as Turtle and JSON-LD.</p>" + table(["File", "What", "Media type", "Bytes"], dump_rows, numeric={3})
    )
    return page("Home", body, "", scripts=["search-index.js", "search.js"])


#: what a verdict of ``vendor-vs-audited`` says on the home page
VERDICTS = {
    "matches": "matches the audited result",
    "matches as written": "matches the audited result as written",
    "differs (above)": "differs: above the audited result",
    "differs (below)": "differs: below the audited result",
}


def _own_claims(g: SiteGraph, store, saved: dict, own: list[str]) -> str:
    """A data repository's own claims, each with its verdict against the audited record: the best
    audited result of its chip, model and scenario at the nearest scale (the saved comparison
    ``vendor-vs-audited`` with its defaults), the ratio of the two per accelerator, and the audited
    result; a claim with none says so."""
    query = saved.get("vendor-vs-audited")
    rows: dict[str, Any] = {}
    if query is not None:
        for row in run_query(store, query, {}, base=g.base).rows:
            rows.setdefault(row["vendor_claim"].value, row)
    r = Renderer(g, "")
    cells: list[Any] = []
    counted: dict[str, int] = {}
    for claim in sorted(own):
        iri = f"{g.prefix}benchmarks/{claim}"
        found: Any = rows.get(iri)
        verdict = (
            VERDICTS.get(found["verdict"].value, found["verdict"].value)
            if found
            else "no audited result to set it against"
        )
        counted[verdict] = counted.get(verdict, 0) + 1
        cells.append(
            [
                link(f"id/benchmarks/{claim}/index.html", g.labels.get(iri, claim)),
                r.values(g.all(iri, BK + "model")),
                r.values(g.all(iri, BK + "scenario")),
                esc(format_number(found["vendor_per_accelerator"].value)) if found else "",
                esc(format_number(found["audited_per_accelerator"].value)) if found else "",
                esc(short(found["unit"])) if found and "unit" in found else "",
                esc(ratio_cell(found["ratio"])) if found and "ratio" in found else "",
                esc(verdict),
                r.term(found["audited_claim"]) if found and "audited_claim" in found else "",
            ]
        )
    said = "; ".join(f"{n} {v}" for v, n in sorted(counted.items(), key=lambda kv: -kv[1]))
    return (
        f"<h1>{len(own):,} claim{'s' if len(own) != 1 else ''} of this repository, against the audited record</h1>"
        f"<p>{esc(said)}. Each is set beside the best audited result of its chip, model and scenario at the "
        f"nearest scale, per accelerator ({link('queries/vendor-vs-audited/index.html', 'vendor-vs-audited')}; "
        f"per accelerator is derived: value ÷ accelerator count).</p>"
        + table(
            [
                "Claim",
                "Model",
                "Scenario",
                "Claim per accelerator",
                "Audited per accelerator",
                "Unit",
                "Ratio",
                "Verdict",
                "Audited result",
            ],
            cells,
            "This repository's claims",
            numeric={3, 4, 6},
        )
    )


def build_site(
    store,
    data_dir: Path,
    out: Path,
    *,
    base: str = DEFAULT_BASE,
    endpoint: str | None = None,
    findings=(),
    progress=None,
    published_at: str = PUBLISHED_AT,
    own_claims: Sequence[str] = (),
) -> SiteReport:
    """Write the static site for ``store`` (built from ``data_dir``) to ``out``.

    ``own_claims`` are the ids of a data repository's own claims: its home page opens on them and
    their verdicts against the audited record, before the reference set they are compared with.

    ``findings`` (from validation) are shown on the records they concern. ``progress(done, total)``
    is called as entity pages are written. ``published_at`` is the URL the w3id.org rules send to.
    The folder and its files are readable as the umask allows (a web server is another user).

    :raises UsageError: when ``out`` exists and is not a benchkg site (it is never replaced then).
    """
    out = Path(out)
    refuse_inside(out, data_dir)
    if out.is_symlink():  # replacing it would replace the link, not the site it points to
        raise UsageError(
            f"{out} is a symbolic link (to {os.readlink(out)}); give the folder itself: -o {out.resolve()}"
        )
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).exists())):
        raise UsageError(
            f"{out} exists and is not a benchkg site; choose an empty or new folder "
            f"(benchkg only replaces folders it wrote, marked by {MARKER})"
        )
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
        report = _write(store, tmp, base, endpoint, findings, progress, saved, own_claims)
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


def _write(
    store, out: Path, base: str, endpoint: str | None, findings, progress, saved: dict, own_claims=()
) -> SiteReport:
    """Every page and file of the site into ``out``: records, kind indexes, comparisons, ontology, data."""
    g = SiteGraph(store, base)
    backend = backend_of(store)
    for iri in sorted(g.records):
        if iri.startswith(g.prefix + "benchmarks/") and (
            g.first(iri, BK + "relative") is not None
            or str(g.first(iri, BK + "measuredBy")) == f"<{BK}measured-by-vendor>"
        ):
            g.verdicts[iri] = record_verdicts(backend, iri, g.claim_fields(iri))
    report = SiteReport(out)
    by_kind: dict[str, list[str]] = {k: [] for k in KINDS}
    for iri in g.records:
        by_kind.setdefault(g.kind_id(iri)[0], []).append(iri)
    _write_records(g, out, findings, progress, report)
    _write_kind_indexes(g, out, by_kind, report)
    _write_comparisons(g, store, out, saved, report)
    _write_ontology(g, out)
    sizes, stats = _write_data(store, out, base, endpoint)
    _write_search_index(g, out, saved)
    counts = {k: len(v) for k, v in by_kind.items()}
    own = _own_claims(g, store, saved, own_claims) if own_claims else ""
    (out / "index.html").write_text(_home(g, counts, saved, sizes, stats, own), encoding="utf-8")
    report.pages += 3
    return report


def _write_records(g: SiteGraph, out: Path, findings, progress, report: SiteReport) -> None:
    """Each record's page, Turtle and JSON-LD, with the findings that concern it."""
    by_record = defaultdict(list)
    for f in findings:
        by_record[f.focus].append(f)
    total = len(g.records)
    for n, iri in enumerate(sorted(g.records), start=1):
        kind, rid = g.kind_id(iri)
        folder = out / "id" / kind / rid
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "index.html").write_text(entity_page(g, iri, by_record.get(f"{kind}/{rid}", [])), encoding="utf-8")
        (folder / "index.ttl").write_bytes(
            serialize(g.records[iri], format=RdfFormat.TURTLE, prefixes=DATA_PREFIXES) or b""
        )
        doc = jsonld.document(g.records[iri], context_ref="../../../context/v1.jsonld", named_graphs=False)
        (folder / "index.jsonld").write_bytes(jsonld.dumps(doc))
        report.pages += 1
        if progress:
            progress(n, total)
    report.entities = total


def _write_kind_indexes(g: SiteGraph, out: Path, by_kind: dict[str, list[str]], report: SiteReport) -> None:
    """Each kind's index page, and the same as an LDP container in Turtle and JSON-LD."""
    for kind, iris in by_kind.items():
        if iris:
            (out / "id" / kind).mkdir(parents=True, exist_ok=True)
            (out / "id" / kind / "index.html").write_text(kind_index(g, kind, iris), encoding="utf-8")
            triples = kind_container(g, kind, sorted(iris))
            prefixes = {**DATA_PREFIXES, "ldp": LDP}
            (out / "id" / kind / "index.ttl").write_bytes(
                serialize(triples, format=RdfFormat.TURTLE, prefixes=prefixes) or b""
            )
            doc = jsonld.document(triples, context_ref="../../context/v1.jsonld", named_graphs=False)
            (out / "id" / kind / "index.jsonld").write_bytes(jsonld.dumps(doc))
            report.pages += 1


def _write_comparisons(g: SiteGraph, store, out: Path, saved: dict, report: SiteReport) -> None:
    """Each saved comparison's page (with its CSV and chart) and their index."""
    for name, query in saved.items():
        folder = out / "queries" / name
        folder.mkdir(parents=True, exist_ok=True)
        html, charted = query_page(g, store, query, folder)
        (folder / "index.html").write_text(html, encoding="utf-8")
        report.pages += 1
        report.charts += charted
    (out / "queries" / "index.html").write_text(queries_index(saved), encoding="utf-8")


def _write_ontology(g: SiteGraph, out: Path) -> None:
    """The ontology's page, the ontology as Turtle and JSON-LD, and the JSON-LD context."""
    (out / "ontology").mkdir(exist_ok=True)
    (out / "ontology" / "index.html").write_text(ontology_page(g), encoding="utf-8")
    shutil.copyfile(ONTOLOGY_FILE, out / "ontology" / "benchkg.ttl")
    terms = list(parse(path=str(ONTOLOGY_FILE), format=RdfFormat.TURTLE))
    (out / "ontology" / "benchkg.jsonld").write_bytes(
        jsonld.dumps(jsonld.document(terms, context_ref="../context/v1.jsonld", named_graphs=False))
    )
    (out / "context").mkdir(exist_ok=True)
    shutil.copyfile(CONTEXT_FILE, out / "context" / "v1.jsonld")


def _write_data(store, out: Path, base: str, endpoint: str | None) -> tuple[dict[str, int], object]:
    """The dumps, the VoID/DCAT description (also at .well-known/void) and the assets; the dumps'
    sizes and the dataset's statistics."""
    (out / "dumps").mkdir(exist_ok=True)
    sizes = {}
    for fmt, (name, _, _) in DUMPS.items():
        with open(out / "dumps" / name, "wb") as dump:  # (streamed: a dump is never held whole)
            write_graph(store, fmt, dump, base)
        sizes[fmt] = (out / "dumps" / name).stat().st_size
    stats = dataset_stats(store, base)
    (out / "void.ttl").write_bytes(describe(stats, sizes, base, endpoint))
    (out / ".well-known").mkdir(exist_ok=True)
    shutil.copyfile(out / "void.ttl", out / ".well-known" / "void")
    for asset in ("style.css", "search.js", "sort.js", "favicon.svg"):
        shutil.copyfile(ASSETS_DIR / asset, out / asset)
    return sizes, stats


def _write_search_index(g: SiteGraph, out: Path, saved: dict) -> None:
    """What the home page's search looks in: every record and comparison, by label, id and kind."""
    entries = [
        [
            f"id/{g.kind_id(i)[0]}/{g.kind_id(i)[1]}/index.html",
            g.labels.get(i, g.kind_id(i)[1]),
            SINGULAR.get(g.kind_id(i)[0], ""),
            " ".join([g.labels.get(i, ""), g.kind_id(i)[1], g.kind_id(i)[0]]).lower(),
        ]
        for i in sorted(g.records)
    ]
    entries += [
        [f"queries/{n}/index.html", q.summary or n, "comparison", f"{q.summary} {n} comparison".lower()]
        for n, q in saved.items()
    ]
    (out / "search-index.js").write_text(
        "self.BENCHKG_SEARCH = " + json.dumps(entries, ensure_ascii=False, separators=(",", ":")) + ";\n",
        encoding="utf-8",
    )
