"""One entity, readable: its fields, what benchkg derived, what refers to it, its gotchas and findings."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from benchkg.answers.explain import TERMS, terms_in
from benchkg.answers.queries import run_query
from benchkg.answers.results import short
from benchkg.answers.verdicts import record_verdicts
from benchkg.graph.backend import backend_of
from benchkg.kernel.errors import UsageError
from benchkg.kernel.vocab import DEFAULT_BASE, record_iri
from benchkg.records.layout import record_path
from benchkg.records.reader import read_record
from benchkg.records.schema import ID_PATTERN, KINDS


def find_record_path(data_dir: Path, ident: str, layout=None) -> tuple[str, Path]:
    """Find a record by ``id`` or ``kind/id``.

    :raises UsageError: when no record has that id, or several kinds do (name the kind then).
    """

    kind, sep, rid = ident.partition("/")
    if not ID_PATTERN.match(rid if sep else ident):
        raise UsageError(
            f"{ident!r} is not a record id (lower-case letters, digits, '.' and '-'), or kind/id; "
            f"e.g. 'benchkg show llama2-70b' or 'benchkg show models/llama2-70b'"
        )
    if sep:
        candidates = [(kind, record_path(data_dir, kind, rid, layout))] if kind in KINDS else []
    else:
        candidates = [(k, record_path(data_dir, k, ident, layout)) for k in KINDS]
    found = [(k, p) for k, p in candidates if p.is_file()]
    if not found:
        raise UsageError(
            f"no record {ident!r} in {data_dir}; ids are file stems, e.g. "
            f"'benchkg show llama2-70b' or 'benchkg show models/llama2-70b'"
        )
    if len(found) > 1:
        raise UsageError(
            f"{ident!r} is an id in several kinds ({', '.join(k for k, _ in found)}); "
            f"say which, e.g. {found[0][0]}/{ident}"
        )
    return found[0]


#: how many referring records ``show`` lists by id before it counts them by kind instead
REFERRERS_LISTED = 12


@dataclass
class RecordPage:
    """One record as ``benchkg show`` reads it: ``kind``, ``id``, ``iri``, ``path``, its ``fields`` as
    benchkg reads them, the ``referrers`` (``kind/id``), the ``gotchas`` that apply (ids), its
    ``findings`` (None: not checked, as against an endpoint); ``str()`` is the page ``show`` prints."""

    kind: str
    id: str
    iri: str
    path: Path
    fields: dict
    referrers: list[str]
    gotchas: list[str]
    findings: list | None
    text: str = field(repr=False, default="")
    #: a vendor claim's verdict against the audited record (:meth:`ClaimVerdict.as_dict`), else None
    verdict: dict | None = None

    def __str__(self) -> str:
        return self.text


def describe(
    backend,
    data_dir: Path,
    ident: str,
    findings=(),
    base: str = DEFAULT_BASE,
    all_referrers: bool = False,
    layout=None,
) -> RecordPage:
    """One record (:class:`RecordPage`) and its readable page: fields as written, derived values,
    references to it (by kind with counts when there are many, every id with ``all_referrers``), gotchas
    that apply, findings (``findings`` None: not checked, as against an endpoint), and what MLPerf's
    terms in it mean."""
    backend = backend_of(backend)
    kind, path = find_record_path(Path(data_dir), ident, layout)
    record_id = path.stem
    iri = record_iri(base, kind, record_id)
    data = read_record(path, kind).data  # as benchkg reads it: 72.0 is the count 72
    lines = [f"{kind}/{record_id}", f"  IRI   {iri}", f"  file  {path}", ""]
    lines += _fields(data)
    lines += _derived(backend, iri)
    verdict = None
    if kind == "benchmarks":
        judged, relative = record_verdicts(backend, iri, data)
        if judged is not None:
            verdict = judged.as_dict()
            lines.append(f"  verdict: {one_line(judged.line)}")
        if relative is not None:
            verdict = {**(verdict or {}), "relative": relative.as_dict()}
            lines.append(f"  relative: {one_line(relative.line)}")
    if kind == "systems":
        lines += _system_fabrics(backend, iri)
    if kind == "benchmarks":
        lines += _compute_bound(backend, record_id, base)
    referrers = _referrer_ids(backend, iri, base)
    lines += _referrers(referrers, all_referrers)
    gotchas = _gotcha_rows(backend, iri) if kind == "benchmarks" else []
    if kind == "benchmarks":
        rows = [f"  [{short(r.get('severity'))}] {short(r['g'])}: {r['title'].value}" for r in gotchas]
        lines += ["", "gotchas that apply:"] + (rows or ["  none"])
    mine = None if findings is None else [f for f in findings if f.focus == f"{kind}/{record_id}"]
    if mine is None:
        lines += [
            "",
            "findings:",
            "  not checked here (the answers came from an endpoint): benchkg validate checks them",
        ]
    else:
        lines += ["", "findings:"] + ([f"  {f}" for f in mine] or ["  none"])
    terms = terms_in(data)
    if terms:
        lines += ["", "what its terms mean (benchkg explain TERM):"]
        lines += [f"  {t}: {TERMS[t]}" for t in terms]
    ids = [short(r["g"]) for r in gotchas]
    return RecordPage(kind, record_id, iri, path, data, referrers, ids, mine, "\n".join(lines), verdict)


def one_line(text) -> str:
    r"""Text as one terminal line: a line break shows as ↵ and any other control character (a terminal's
    escape sequences) as its escape, so a record's text cannot forge a line of the page or colour it.

    >>> one_line("CoreWeave\nmeasured_by: mlcommons"), one_line("red \x1b[31m")
    ('CoreWeave ↵ measured_by: mlcommons', 'red \\x1b[31m')
    """
    text = " ↵ ".join(str(text).split("\n"))
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", text)


def _fields(data: dict) -> list[str]:
    """The record's fields as written (a system's description verbatim, one line per part)."""
    lines = []
    for key, value in data.items():
        if key == "id":
            continue
        if key == "description" and isinstance(value, dict):
            lines.append("  description (the submitter's words, verbatim):")
            lines += [f"    {one_line(name)}: {one_line(text)}" for name, text in value.items()]
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=_number)
        lines.append(f"  {one_line(key)}: {one_line(text)}")
    return lines


def _derived(backend, iri: str) -> list[str]:
    """The values benchkg derived for a claim (per accelerator, or per socket for a CPU-only result), as the
    build derived them (graph/facts.py: none for a mixed system), marked as not stated by the source."""
    derived = backend.results(
        f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
        PREFIX qudt: <http://qudt.org/schema/qudt/>
        SELECT ?value ?unit ?scope WHERE {{ <{iri}> bk:result ?r . ?r bk:scope bk:scope-aggregate .
          OPTIONAL {{ ?r qudt:hasUnit ?unit }}
          {{ <{iri}> bk:perAcceleratorValue ?value BIND ("per-accelerator" AS ?scope) }}
          UNION {{ <{iri}> bk:perSocketValue ?value BIND ("per socket" AS ?scope) }} }}""",
    )
    # the audited result it restates and its superlative's verdict, both derived at build time (one query)
    audited = backend.results(
        f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
        SELECT ?a ?verdict ?better ?population ?best ?best_value WHERE {{
          {{ <{iri}> bk:auditedBy ?a }}
          UNION {{ <{iri}> bk:superlative ?s . ?s bk:verdict ?verdict
                   OPTIONAL {{ ?s bk:better ?better ; bk:population ?population }}
                   OPTIONAL {{ ?s bk:best ?best ; bk:bestValue ?best_value }} }}
        }} ORDER BY ?a ?best""",
    )
    lines = [
        f"  derived: {short(row['value'])} {short(row.get('unit'))} {row['scope'].value} "
        f"(= value ÷ accelerator_count; not stated by the source)"
        for row in derived.rows
    ]
    for row in audited.rows:
        if row.get("a") is not None:
            lines.append(
                f"  audited by: {short(row['a'])} (the audited result this vendor claim restates: its value as published "
                "lies in the numbers the claim's value states)"
            )
        elif row.get("verdict") is not None and not any(line.startswith("  superlative:") for line in lines):
            lines.append("  superlative: " + _verdict_text(row))
    return lines


def _verdict_text(row) -> str:
    """A superlative's verdict as ``show`` says it (the same verdict the saved query and shapes read)."""
    verdict = short(row["verdict"])
    if row.get("population") is None:
        return f"{verdict} (no audited result of the population it names)"
    said = f"{verdict} ({short(row['better'])} of {short(row['population'])} audited results better"
    if row.get("best") is not None:
        said += (
            f"; {'runner-up' if verdict == 'holds' else 'best'} {short(row['best'])} with {short(row['best_value'])}"
        )
    return said + ")"


def _referrer_ids(backend, iri: str, base: str) -> list[str]:
    """The records that refer to it, as ``kind/id``."""
    refs = backend.results(
        f"""SELECT DISTINCT ?s WHERE {{ ?s ?p <{iri}> .
        FILTER(STRSTARTS(STR(?s), "{base}id/") && !CONTAINS(STR(?s), "#")) }} ORDER BY ?s""",
    )
    return [_kind_id(r["s"].value, base) for r in refs.rows]


def _referrers(referrers: list[str], all_referrers: bool) -> list[str]:
    """The records that refer to it: every one when few (or ``all_referrers``), else counts by kind."""
    if not referrers:
        return []
    if all_referrers or len(referrers) <= REFERRERS_LISTED:
        return ["", "referred to by:"] + [f"  {r}" for r in referrers]
    by_kind: dict[str, list[str]] = {}
    for r in referrers:
        by_kind.setdefault(r.split("/", 1)[0], []).append(r.split("/", 1)[-1])
    return ["", f"referred to by {len(referrers):,} records (--all lists them):"] + [
        f"  {k}: {len(ids):,}" + (f" ({', '.join(ids[:3])}{', …' if len(ids) > 3 else ''})")
        for k, ids in sorted(by_kind.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]


def _gotcha_rows(backend, iri: str) -> list:
    """The gotchas that apply to a claim, with their title and severity."""
    return backend.results(
        f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?g ?title ?severity WHERE {{ <{iri}> bk:caveat ?g . ?g rdfs:label ?title .
          OPTIONAL {{ ?g bk:severity ?severity }} }} ORDER BY ?g""",
    ).rows


def _system_fabrics(backend, iri: str) -> list[str]:
    """The fabric a system's submitter states, beside what its chips' specifications say."""

    rows = backend.results(
        f"""PREFIX bk: <https://w3id.org/benchkg/ontology#>
        SELECT ?ic ?spec WHERE {{ <{iri}> bk:interconnect ?ic .
          BIND (EXISTS {{ <{iri}> bk:accelerator ?a . ?a bk:interconnect ?ic }}
                || EXISTS {{ <{iri}> bk:accelerator/bk:madeOf ?chip . ?chip bk:interconnect ?ic }} AS ?spec)
        }} ORDER BY ?ic""",
    ).rows
    if not rows:
        return []
    out = ["", "fabric present, as the submitter states it:"]
    for row in rows:
        note = "also in the chip's specification" if row["spec"].value == "true" else "stated by the submitter only"
        out.append(f"  {short(row['ic'])} ({note})")
    return out


def _compute_bound(backend, record_id: str, base: str) -> list[str]:
    """The claim's per-accelerator value as a fraction of its compute bound (the saved query
    compute-bound), or nothing where the record lacks what the bound needs."""

    rows = run_query(backend, "compute-bound", {"record": record_id}, base=base).rows
    if not rows:
        return []
    r = rows[0]
    return [
        f"  compute bound: {short(r['per_accelerator'])} tokens/s per accelerator is {float(r['fraction'].value):.1%} "
        f"of {short(r['bound'])} ({short(r['peak_tflops'])} TFLOP/s dense at {r['format'].value} ÷ (2 × "
        f"{short(r['active_parameters_b'])} B active parameters); above 100 % is impossible"
    ]


def _number(value):
    """JSON for a Decimal benchkg read exactly (910621.36 stays 910621.36)."""
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    raise TypeError(type(value).__name__)


def _kind_id(iri: str, base: str) -> str:
    return iri[len(base) + 3 :] if iri.startswith(base + "id/") else iri
