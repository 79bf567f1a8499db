"""Findings: one convention a record breaks, located at its file, line and JSON pointer with a message
a curator reads (ids named as the curator writes them), and the report that gathers them."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from benchkg.graph.mapping import pointer_of
from benchkg.kernel.errors import single_line
from benchkg.kernel.vocab import BK, DEFAULT_BASE, UNIT_NAMES, curator_name, expand
from benchkg.records.layout import layout_for, record_path
from benchkg.records.reader import Record
from benchkg.records.schema import BENCHMARK_FIELD_PATHS
from benchkg.rules.shapes import RawResult

#: predicate IRI -> the benchmark field a curator writes (for messages about omitted fields)
FIELD_NAMES = {
    expand(spec.pred): name
    for name, spec in reversed(BENCHMARK_FIELD_PATHS.items())
    if not name.startswith(("reported.", "points.")) and spec.pred.startswith("bk:")
}

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
        where = single_line(f"{self.file}:{self.line} {self.pointer or '/'}")
        return f"{where} [{self.severity}] {self.shape}: {single_line(self.message)}"


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


def locate(raw: list[RawResult], data_dir: Path, base: str = DEFAULT_BASE, layout=None) -> list[Finding]:
    """Findings located in the record files (of ``layout``, the data folder's, read here unless given):
    file, line, JSON pointer; sorted by file and line."""
    layout = layout or layout_for(data_dir)
    records: dict[str, Record | None] = {}
    ids: dict[str, list[tuple[str, list[str]]]] = {}  # kind -> (id, aliases): read once per call
    findings: set[Finding] = set()
    prefix = f"{base}id/"
    for r in raw:
        iri, _, fragment = r.focus.partition("#")
        key = iri[len(prefix) :] if iri.startswith(prefix) else iri
        kind, _, record_id = key.partition("/")
        file = record_path(data_dir, kind, record_id, layout)
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
    """Findings in report order: by file, line, pointer, severity (worst first), shape, message (two values of one
    shape on one field, in the same order every run)."""
    return sorted(findings, key=lambda f: (f.file, f.line, f.pointer, SEVERITY_ORDER[f.severity], f.shape, f.message))


def suggest_id(
    data_dir: Path, iri: str, base: str = DEFAULT_BASE, ids: dict[str, list[tuple[str, list[str]]]] | None = None
) -> str:
    """' (did you mean …?)' for a reference to a missing record: the record whose aliases list the
    id as written, or a close id. ``ids`` caches each kind's (id, aliases) between calls.

    >>> from benchkg.kernel.resources import ROOT
    >>> suggest_id(ROOT / "data", "https://w3id.org/benchkg/id/accelerators/h100")
    " (did you mean 'nvidia-h100-sxm'?)"
    """
    m = re.match(re.escape(base) + r"id/([a-z]+)/(.+)$", iri)
    folders = [Path(f) / m.group(1) for f in layout_for(data_dir).layers] if m else []
    if not any(f.is_dir() for f in folders):
        return ""
    assert m is not None  # (folders were found through it)
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
_FIELD_IRIS = re.compile(
    "(?:" + "|".join(re.escape(iri) for iri in sorted(FIELD_NAMES, key=len, reverse=True)) + r")\b(?!-)"
)


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
