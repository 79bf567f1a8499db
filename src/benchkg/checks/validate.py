"""Check the graph against the conventions in ``shapes/`` and report findings against the source.

Two engines run the shapes: whole-graph SPARQL on the store (:mod:`benchkg.rules.engine`, the
default) and pyshacl (the reference). Their results become findings that name the record file,
the line and the JSON pointer of the field that broke a convention.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pyoxigraph import RdfFormat, serialize

from benchkg.checks.findings import (  # noqa: F401
    FIELD_NAMES,
    SEVERITY_ORDER,
    Finding,
    Report,
    locate,
    readable,
    sort_findings,
    suggest_id,
)
from benchkg.checks.incremental import run_incremental
from benchkg.graph.store import content_quads
from benchkg.kernel.errors import InputError
from benchkg.kernel.version import __version__
from benchkg.kernel.vocab import DEFAULT_BASE
from benchkg.records.layout import Layout, layout_for
from benchkg.rules.engine import run_fast
from benchkg.rules.shapes import SEVERITIES, SH, RawResult, load_shapes  # noqa: F401 - re-exported for callers


def data_graph(store, base: str = DEFAULT_BASE):
    """The union of the record graphs and derived graphs as one rdflib graph (what SHACL sees)."""
    from rdflib import Graph

    graph = Graph()
    triples = (q.triple for q in content_quads(store, base))
    graph.parse(data=serialize(triples, format=RdfFormat.N_TRIPLES) or b"", format="nt")
    return graph


def validate_graph(
    store,
    data_dir: Path,
    *,
    base: str = DEFAULT_BASE,
    shapes_dir: Path | None = None,
    engine: str = "fast",
    cache: Path | None = None,
    progress=None,
    layout: Layout | None = None,
) -> Report:
    """Validate the store built from ``data_dir`` and return findings located in the records.

    ``engine="fast"`` runs every shape as whole-graph SPARQL on the store (:mod:`benchkg.rules.engine`);
    ``engine="pyshacl"`` runs pyshacl, the reference the tests hold the fast engine to.
    With ``cache`` (a file, see :mod:`benchkg.checks.incremental`) the fast engine re-checks only what
    changed since the cached run; ``report.rechecked`` says how many records it re-checked.
    The shapes are benchkg's and the data repository's (:mod:`benchkg.records.layout`; ``layout``: the
    data folder's, when the caller has read it), or ``shapes_dir``'s.

    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> built = build_graph(ROOT / "data")
    >>> report = validate_graph(built.store, ROOT / "data")
    >>> report.exit_code(), report.count("violation")
    (0, 0)
    """
    layout = layout or layout_for(data_dir)
    shape_dirs = (Path(shapes_dir),) if shapes_dir is not None else layout.shape_dirs
    shapes = load_shapes(shape_dirs)
    rechecked = None
    if engine == "pyshacl":
        raw, report_graph = run_pyshacl(store, shapes, base)
    elif cache is not None:
        raw, findings, rechecked = run_incremental(
            store, shapes, shape_dirs, Path(cache), Path(data_dir), base, progress, layout
        )
        return Report(findings, lambda: report_graph_of(raw), rechecked)
    else:
        raw, rechecked = run_fast(store, shapes, progress=progress), None
        report_graph = None
    return Report(
        locate(raw, Path(data_dir), base, layout),
        report_graph if report_graph is not None else (lambda: report_graph_of(raw)),
        rechecked,
    )


def run_pyshacl(store, shapes, base: str = DEFAULT_BASE):
    """pyshacl on the dataset as one rdflib graph; returns (raw results, the report graph)."""
    from pyshacl import validate
    from rdflib import Graph

    graph = data_graph(store, base)
    shapes = Graph() + shapes  # (a copy: the parsed shapes are shared, see load_shapes)
    # pyshacl keeps some of its frames alive after it returns, and with them every caller frame
    # (and so an open on-disk store, whose lock then blocks the next command in this process).
    # In a worker thread its frames never reach ours.
    with ThreadPoolExecutor(max_workers=1) as pool:
        _conforms, results, _text = pool.submit(
            validate, graph, shacl_graph=shapes, inference="none", advanced=True, allow_warnings=True
        ).result()
    return raw_from_report(results, shapes), results


def raw_from_report(results, shapes) -> list[RawResult]:
    """The results of a SHACL validation report (rdflib graph)."""
    from rdflib import BNode, Namespace, URIRef
    from rdflib.namespace import RDF

    sh = Namespace(SH)
    out = []
    for result in results.subjects(RDF.type, sh.ValidationResult):
        path = results.value(result, sh.resultPath)
        value = results.value(result, sh.value)
        shape = results.value(result, sh.sourceShape)
        message = str(results.value(result, sh.resultMessage) or "")
        if isinstance(shape, BNode):
            shape = shapes.value(None, sh.property, shape) or shape
            if not message or message.startswith(("Less than", "More than", "Value ")):
                message = str(shapes.value(shape, sh.message) or message)
        out.append(
            RawResult(
                str(results.value(result, sh.focusNode)),
                str(path) if isinstance(path, URIRef) else "",
                str(value) if value is not None else None,
                re.split(r"[#/]", str(shape))[-1] if isinstance(shape, URIRef) else "shape",
                SEVERITIES.get(str(results.value(result, sh.resultSeverity)), "violation"),
                message,
            )
        )
    return out


def report_graph_of(raw: list[RawResult]):
    """An sh:ValidationReport (rdflib graph) for results found by the fast engine."""
    from rdflib import BNode, Graph, Literal, Namespace, URIRef
    from rdflib.namespace import RDF

    sh = Namespace(SH)
    graph = Graph()
    graph.bind("sh", sh)
    report = BNode()
    graph.add((report, RDF.type, sh.ValidationReport))
    graph.add((report, sh.conforms, Literal(not any(r.severity == "violation" for r in raw))))
    level = {v: k for k, v in SEVERITIES.items()}
    for r in raw:
        node = BNode()
        graph.add((report, sh.result, node))
        graph.add((node, RDF.type, sh.ValidationResult))
        graph.add((node, sh.focusNode, URIRef(r.focus)))
        graph.add((node, sh.resultSeverity, URIRef(level[r.severity])))
        graph.add((node, sh.sourceShape, URIRef("https://w3id.org/benchkg/shapes#" + r.shape)))
        graph.add((node, sh.resultMessage, Literal(r.message)))
        if r.path:
            graph.add((node, sh.resultPath, URIRef(r.path)))
        if r.value is not None:
            graph.add((node, sh.value, URIRef(r.value) if re.match(r"^https?://", r.value) else Literal(r.value)))
    return graph


def input_report(error: InputError) -> Report:
    """Records that could not be read, as a report in any format: one violation of the rule
    ``input-error`` per problem, at its file, line and field, so CI annotates them like findings.

    >>> from benchkg.kernel.errors import InputProblem
    >>> format_github(input_report(InputError([InputProblem(Path("d/x.json"), 2, "/value", "expected a number")])))
    '::error file=d/x.json,line=2,title=input-error /value::expected a number'
    """
    return Report(
        sort_findings(
            Finding(str(p.path), p.line or 1, p.field, "violation", "input-error", p.message, "")
            for p in error.problems
        )
    )


# ---------------------------------------------------------------- report formats


def format_text(report: Report) -> str:
    lines = [str(f) for f in report.findings]
    return "\n".join(lines + [summary_line(report)])


def summary_line(report: Report) -> str:
    """One line: how many findings of each severity.

    >>> summary_line(Report([]))
    '0 violation(s), 0 warning(s), 0 info'
    """
    return (
        f"{report.count('violation')} violation(s), {report.count('warning')} warning(s), {report.count('info')} info"
    )


def format_json(report: Report) -> str:
    return json.dumps(
        {"findings": [asdict(f) for f in report.findings], "summary": {s: report.count(s) for s in SEVERITY_ORDER}},
        indent=2,
        ensure_ascii=False,
    )


def format_turtle(report: Report) -> str:
    graph: Any = report.shacl_report() if callable(report.shacl_report) else report.shacl_report
    return str(graph.serialize(format="turtle"))


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def format_github(report: Report) -> str:
    """GitHub workflow commands, one per finding (annotations alone do not fail a job).

    >>> f = Finding("d/x.json", 3, "/a", "warning", "s", "50% off, really: yes", "benchmarks/x")
    >>> format_github(Report([f]))
    '::warning file=d/x.json,line=3,title=s /a::50%25 off, really: yes'
    """
    level = {"violation": "error", "warning": "warning", "info": "notice"}
    return "\n".join(
        f"::{level[f.severity]} file={_gh_escape(f.file, True)},line={f.line},"
        f"title={_gh_escape(f.shape + ' ' + (f.pointer or '/'), True)}::{_gh_escape(f.message)}"
        for f in report.findings
    )


def format_sarif(report: Report) -> str:
    """SARIF 2.1.0: one run, one rule per shape, one result per finding."""

    rules = sorted({f.shape for f in report.findings})
    level = {"violation": "error", "warning": "warning", "info": "note"}
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "benchkg",
                        "version": __version__,
                        "informationUri": "https://w3id.org/benchkg/",
                        "rules": [{"id": r, "name": r, "shortDescription": {"text": r}} for r in rules],
                    }
                },
                "results": [
                    {
                        "ruleId": f.shape,
                        "ruleIndex": rules.index(f.shape),
                        "level": level[f.severity],
                        "message": {"text": f"{f.pointer or '/'}: {f.message}"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": Path(f.file).as_posix()},
                                    "region": {"startLine": max(f.line, 1)},
                                }
                            }
                        ],
                    }
                    for f in report.findings
                ],
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


FORMATS = {
    "text": format_text,
    "json": format_json,
    "turtle": format_turtle,
    "github": format_github,
    "sarif": format_sarif,
}
