"""Check the graph against the conventions in ``shapes/`` and report findings against the source.

Two engines run the shapes: whole-graph SPARQL on the store (:mod:`benchkg.fastshacl`, the
default) and pyshacl (the reference). Their results become findings that name the record file,
the line and the JSON pointer of the field that broke a convention.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path

from .errors import InputError
from .mapping import pointer_of
from .records import Record
from .datarepo import layout_for, record_path, shape_files
from .store import content_quads
from .schema import BENCHMARK_FIELD_PATHS
from .vocab import BK, DEFAULT_BASE, UNIT_NAMES, curator_name, expand

#: predicate IRI -> the benchmark field a curator writes (for messages about omitted fields)
FIELD_NAMES = {expand(spec.pred): name for name, spec in reversed(BENCHMARK_FIELD_PATHS.items())
               if not name.startswith(("reported.", "points.")) and spec.pred.startswith("bk:")}

SH = "http://www.w3.org/ns/shacl#"
SEVERITIES = {SH + "Violation": "violation", SH + "Warning": "warning", SH + "Info": "info"}
SEVERITY_ORDER = {"violation": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    """One convention a record breaks, located in its source file."""

    file: str
    line: int
    pointer: str
    severity: str
    shape: str
    message: str
    focus: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} {self.pointer or '/'} [{self.severity}] {self.shape}: {self.message}"


@dataclass
class Report:
    """All findings of one validation, and the raw SHACL report."""

    findings: list[Finding]
    shacl_report: object = None  # the sh:ValidationReport: an rdflib.Graph, or a callable making one
    rechecked: int | None = None  # incremental run: records re-checked (0: nothing changed); None: all
    hidden: int = 0  # findings on benchkg's reference records, left out of a data repository's report

    def count(self, severity: str) -> int:
        return sum(f.severity == severity for f in self.findings)

    def exit_code(self, strict: bool = False) -> int:
        """0 conforms, 1 violations (or warnings with ``strict``)."""
        if self.count("violation") or (strict and self.count("warning")):
            return 1
        return 0


def load_shapes(shape_dirs: Path | tuple[Path, ...] = ()):
    """Parse every ``*.ttl`` of ``shape_dirs`` (a folder or several; benchkg's shapes by default) into
    one rdflib graph."""
    from rdflib import Graph


    graph = Graph()
    for path in shape_files((shape_dirs,) if isinstance(shape_dirs, (str, Path)) else tuple(shape_dirs)):
        try:
            graph.parse(path, format="turtle")
        except Exception as e:  # rdflib raises many parser exception types
            raise InputError([_problem(path, _turtle_error(e))]) from e
    return graph


def _turtle_error(error: Exception) -> str:
    """rdflib's parse error in one line: where, and the gist.

    >>> _turtle_error(Exception('at line 3 of <>:\\nBad syntax (expected "." here) at ^ in:\\n"..."'))
    'not Turtle at line 3 (expected "." here); fix the file, or move it out of shapes/'
    """
    text = str(error)
    line = re.search(r"at line (\d+)", text)
    gist = re.search(r"Bad syntax \((.*?)\) at \^", text, re.S)
    detail = f" ({' '.join(gist.group(1).split())[:200]})" if gist else f" ({' '.join(text.split())[:200]})"
    return f"not Turtle{' at line ' + line.group(1) if line else ''}{detail}; fix the file, or move it out of shapes/"


def _problem(path: Path, message: str):
    from .errors import InputProblem

    return InputProblem(path, None, "", f"cannot parse shapes: {message}")


def data_graph(store, base: str = DEFAULT_BASE):
    """The union of the record graphs and derived graphs as one rdflib graph (what SHACL sees)."""
    from pyoxigraph import RdfFormat, serialize
    from rdflib import Graph

    graph = Graph()
    triples = (q.triple for q in content_quads(store, base))
    graph.parse(data=serialize(triples, format=RdfFormat.N_TRIPLES) or b"", format="nt")
    return graph


@dataclass(frozen=True)
class RawResult:
    """One SHACL result before it is located in a record: terms as plain strings."""

    focus: str
    path: str  # predicate IRI, or "" for a complex path
    value: str | None
    shape: str  # the named shape (a nested property shape reports as its parent)
    severity: str
    message: str


def validate_graph(store, data_dir: Path, *, base: str = DEFAULT_BASE,
                   shapes_dir: Path | None = None, engine: str = "fast", cache: Path | None = None,
                   progress=None) -> Report:
    """Validate the store built from ``data_dir`` and return findings located in the records.

    ``engine="fast"`` runs every shape as whole-graph SPARQL on the store (:mod:`benchkg.fastshacl`);
    ``engine="pyshacl"`` runs pyshacl, the reference the tests hold the fast engine to.
    With ``cache`` (a file, see :mod:`benchkg.incremental`) the fast engine re-checks only what
    changed since the cached run; ``report.rechecked`` says how many records it re-checked.
    The shapes are benchkg's and the data repository's (:mod:`benchkg.datarepo`), or ``shapes_dir``'s.

    >>> from benchkg.store import build_graph
    >>> from benchkg.resources import ROOT
    >>> built = build_graph(ROOT / "data", persist=False)
    >>> report = validate_graph(built.store, ROOT / "data")
    >>> report.exit_code(), report.count("violation")
    (0, 0)
    """
    shape_dirs = (Path(shapes_dir),) if shapes_dir is not None else layout_for(data_dir).shape_dirs
    shapes = load_shapes(shape_dirs)
    rechecked = None
    if engine == "pyshacl":
        raw, report_graph = run_pyshacl(store, shapes, base)
    elif cache is not None:
        from .incremental import run_incremental

        raw, findings, rechecked = run_incremental(store, shapes, shape_dirs, Path(cache), Path(data_dir),
                                                   base, progress)
        return Report(findings, lambda: report_graph_of(raw), rechecked)
    else:
        from .fastshacl import run_fast

        raw, rechecked = run_fast(store, shapes, progress=progress), None
        report_graph = None
    return Report(locate(raw, Path(data_dir), base),
                  report_graph if report_graph is not None else (lambda: report_graph_of(raw)), rechecked)


def run_pyshacl(store, shapes, base: str = DEFAULT_BASE):
    """pyshacl on the dataset as one rdflib graph; returns (raw results, the report graph)."""
    from concurrent.futures import ThreadPoolExecutor

    from pyshacl import validate

    graph = data_graph(store, base)
    # pyshacl keeps some of its frames alive after it returns, and with them every caller frame
    # (and so an open on-disk store, whose lock then blocks the next command in this process).
    # In a worker thread its frames never reach ours.
    with ThreadPoolExecutor(max_workers=1) as pool:
        _conforms, results, _text = pool.submit(validate, graph, shacl_graph=shapes, inference="none",
                                                advanced=True, allow_warnings=True).result()
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
        out.append(RawResult(str(results.value(result, sh.focusNode)),
                             str(path) if isinstance(path, URIRef) else "",
                             str(value) if value is not None else None,
                             re.split(r"[#/]", str(shape))[-1] if isinstance(shape, URIRef) else "shape",
                             SEVERITIES.get(str(results.value(result, sh.resultSeverity)), "violation"),
                             message))
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


def locate(raw: list[RawResult], data_dir: Path, base: str = DEFAULT_BASE) -> list[Finding]:
    """Findings located in the record files: file, line, JSON pointer; sorted by file and line."""
    records: dict[str, object] = {}
    ids: dict[str, list[tuple[str, list[str]]]] = {}  # kind -> (id, aliases): read once per call
    findings: set[Finding] = set()
    prefix = f"{base}id/"
    for r in raw:
        iri, _, fragment = r.focus.partition("#")
        key = iri[len(prefix):] if iri.startswith(prefix) else iri
        kind, _, record_id = key.partition("/")
        file = record_path(data_dir, kind, record_id)
        record = records.get(key)
        if record is None and file.is_file():
            try:  # the build has type-checked every file already: parse only
                data = json.loads(file.read_text(encoding="utf-8"), parse_float=Decimal)
                record = records[key] = Record(kind, record_id, file, data)
            except (OSError, ValueError):
                record = None
        pointer = pointer_of(fragment, r.path, r.value, record) if record else ""
        line = record.line(pointer) if record else 0
        message = r.message
        if r.value is not None:  # pyshacl fills {?value} only for SPARQL constraints
            message = message.replace("{?value}", r.value)
            if r.shape.startswith("ref-"):
                message += suggest_id(data_dir, r.value, base, ids)
        message = message.replace("{$this}", r.focus)
        findings.add(Finding(str(file), line, pointer, r.severity, r.shape, readable(message, base), key))
    return sort_findings(findings)


def sort_findings(findings) -> list[Finding]:
    """Findings in report order: by file, line, pointer, severity (worst first), shape."""
    return sorted(findings, key=lambda f: (f.file, f.line, f.pointer, SEVERITY_ORDER[f.severity], f.shape))


def suggest_id(data_dir: Path, iri: str, base: str = DEFAULT_BASE,
               ids: dict[str, list[tuple[str, list[str]]]] | None = None) -> str:
    """' (did you mean …?)' for a reference to a missing record: the record whose aliases list the
    id as written, or a close id. ``ids`` caches each kind's (id, aliases) between calls.

    >>> from benchkg.resources import ROOT
    >>> suggest_id(ROOT / "data", "https://w3id.org/benchkg/id/accelerators/h100")
    " (did you mean 'nvidia-h100-sxm'?)"
    """
    import difflib

    m = re.match(re.escape(base) + r"id/([a-z]+)/(.+)$", iri)
    folders = [Path(f) / m.group(1) for f in layout_for(data_dir).layers] if m else []
    if not any(f.is_dir() for f in folders):
        return ""
    kind, wanted = m.group(1), m.group(2)
    ids = {} if ids is None else ids
    if kind not in ids:
        ids[kind] = []
        for path in sorted(p for f in folders for p in f.glob("*.json")):
            try:
                aliases = json.loads(path.read_text(encoding="utf-8")).get("aliases", [])
            except (OSError, ValueError, AttributeError):
                aliases = []
            ids[kind].append((path.stem, [str(a).lower() for a in aliases]))
    for record_id, aliases in ids[kind]:
        if wanted.lower() in aliases:
            return f" (did you mean {record_id!r}?)"
    close = difflib.get_close_matches(wanted, [record_id for record_id, _ in ids[kind]], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: every field's predicate IRI, longest first, not followed by a word character or "-"
_FIELD_IRIS = re.compile("(?:" + "|".join(re.escape(iri) for iri in sorted(FIELD_NAMES, key=len, reverse=True))
                         + r")\b(?!-)")


def readable(text: str, base: str = DEFAULT_BASE) -> str:
    """Shorten IRIs in a message to the ids and values a curator writes.

    >>> readable("https://w3id.org/benchkg/id/interconnects/nvlink-4 is not ... bk:scenario-server")
    'nvlink-4 is not ... server'
    >>> readable("https://w3id.org/benchkg/ontology#scenario-serverr")
    'serverr'
    """
    for iri, name in UNIT_NAMES.items():
        text = text.replace(iri, name)
    text = _FIELD_IRIS.sub(lambda m: FIELD_NAMES[m.group(0)], text)
    text = re.sub(re.escape(base) + r"id/[a-z]+/([^\s#>\"']+)", r"\1", text)
    return re.sub(r"(?:" + re.escape(BK) + r"|bk:)([A-Za-z0-9.%-]+)", lambda m: curator_name(BK + m.group(1)), text)


def input_report(error: InputError) -> Report:
    """Records that could not be read, as a report in any format: one violation of the rule
    ``input-error`` per problem, at its file, line and field, so CI annotates them like findings.

    >>> from benchkg.errors import InputProblem
    >>> format_github(input_report(InputError([InputProblem(Path("d/x.json"), 2, "/value", "expected a number")])))
    '::error file=d/x.json,line=2,title=input-error /value::expected a number'
    """
    return Report(sort_findings(Finding(str(p.path), p.line or 1, p.field, "violation", "input-error", p.message, "")
                                for p in error.problems))


# ---------------------------------------------------------------- report formats

def format_text(report: Report) -> str:
    lines = [str(f) for f in report.findings]
    return "\n".join(lines + [summary_line(report)])


def summary_line(report: Report) -> str:
    """One line: how many findings of each severity.

    >>> summary_line(Report([]))
    '0 violation(s), 0 warning(s), 0 info'
    """
    return (f"{report.count('violation')} violation(s), {report.count('warning')} warning(s), "
            f"{report.count('info')} info")


def format_json(report: Report) -> str:
    return json.dumps({"findings": [asdict(f) for f in report.findings],
                       "summary": {s: report.count(s) for s in SEVERITY_ORDER}}, indent=2, ensure_ascii=False)


def format_turtle(report: Report) -> str:
    graph = report.shacl_report() if callable(report.shacl_report) else report.shacl_report
    return graph.serialize(format="turtle")


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
        for f in report.findings)


def format_sarif(report: Report) -> str:
    """SARIF 2.1.0: one run, one rule per shape, one result per finding."""
    from . import __version__

    rules = sorted({f.shape for f in report.findings})
    level = {"violation": "error", "warning": "warning", "info": "note"}
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "benchkg", "version": __version__,
                                "informationUri": "https://w3id.org/benchkg/",
                                "rules": [{"id": r, "name": r, "shortDescription": {"text": r}} for r in rules]}},
            "results": [{
                "ruleId": f.shape,
                "ruleIndex": rules.index(f.shape),
                "level": level[f.severity],
                "message": {"text": f"{f.pointer or '/'}: {f.message}"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": Path(f.file).as_posix()},
                    "region": {"startLine": max(f.line, 1)}}}],
            } for f in report.findings],
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


FORMATS = {"text": format_text, "json": format_json, "turtle": format_turtle,
           "github": format_github, "sarif": format_sarif}
