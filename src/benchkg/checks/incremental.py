"""Incremental validation: re-check only what the records changed since the last validation can affect.

The findings of the last run of the fast engine are cached in ``.benchkg/validation.json`` beside
the store, grouped by the record their focus node belongs to, with each record's content digest
(from the build manifest). The next run compares digests and re-checks, with every shape
restricted to their focus nodes (``VALUES ?this``), only:

- the records that were added, changed or removed;
- the records that refer to them (a reference may now resolve, or no longer; an accelerator's or a
  system's fabric decides whether a claim's ``interconnect_ids`` are present), and the records that
  refer to an accelerator made of a changed chip;
- the claims of the same model, suite, count and system, before and after the change (the
  Server-beats-Offline convention pairs claims of one system, model and suite);
- every claim that asserts a rank (``asserts``): its population is every audited result of a model,
  a round, a chip or a kind of organisation, so any change may raise or lower a rival.

Everything else keeps its cached findings. A change to a gotcha (gotchas decide which caveats every
claim carries), to the shapes, the ontology or the mapping, or to more than a quarter of the records
makes it a full run. Tests hold the incremental findings equal to a full run's after each kind of edit.
One hint may lag: the "did you mean …?" of a finding on a record that was not re-checked is the one
computed when it was (a new record with a close id does not re-check records that mistype it).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pyoxigraph import NamedNode

from benchkg.checks.findings import Finding, locate, sort_findings
from benchkg.graph.manifest import SNAPSHOT_NAME, Entry, manifest_graph, read_manifest
from benchkg.graph.opening import VALIDATION_CACHE, state_dir_for
from benchkg.graph.store import MAPPING_VERSION
from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.resources import ONTOLOGY_FILE
from benchkg.kernel.vocab import BK, DEFAULT_BASE
from benchkg.records.layout import shape_files
from benchkg.rules.engine import run_fast
from benchkg.rules.shapes import RawResult

CACHE_VERSION = 2
FULL_RUN_SHARE = 0.25


def cache_path_for(data_dir: Path) -> Path:
    """The findings cache beside the persistent store of ``data_dir`` (:attr:`Workspace.findings_cache`)."""

    return state_dir_for(Path(data_dir)) / VALIDATION_CACHE


def state_of(shape_dirs: tuple[Path, ...], base: str, data_dir: Path) -> str:
    """What cached findings depend on besides the records: shapes, ontology, mapping, base IRI and
    the data folder as given (findings name files by it)."""

    h = hashlib.sha256(f"{CACHE_VERSION} {MAPPING_VERSION} {base} {data_dir}".encode())
    for path in [ONTOLOGY_FILE, *shape_files(shape_dirs)]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _digests(store, base: str, snapshot: Path | None = None) -> dict[str, str]:
    """record graph IRI -> content digest, from the build manifest (its snapshot when current)."""

    entries, _ = read_manifest(store, manifest_graph(base), snapshot)
    return {g: Entry.parse(entry).digest for g, entry in entries.items()}


#: what two claims that may pair (Server vs Offline of one system) always share; the shape pairs on
#: more (unit, scope, accuracy), so these keys over-approximate, safely
_KEY_PATTERN = (
    f"?c <{BK}model> ?m . OPTIONAL {{ ?c <{BK}suite> ?s }} "
    f"OPTIONAL {{ ?c <{BK}acceleratorCount> ?n }} OPTIONAL {{ ?c <{BK}system> ?sys }}"
)
_PAIR_QUERY = f"SELECT ?c ?m ?s ?n ?sys WHERE {{ {_KEY_PATTERN} }}"


def _partners_query(model: str, suite: str, count: str, system: str) -> str:
    """The claims with this model, suite, accelerator count and system ("" = absent)."""
    return (
        f"SELECT ?c WHERE {{ VALUES ?m {{ <{model}> }} {_KEY_PATTERN} "
        f'FILTER (COALESCE(STR(?s), "") = {_string(suite)} && COALESCE(STR(?n), "") = {_string(count)} '
        f'&& COALESCE(STR(?sys), "") = {_string(system)}) }}'
    )


def _pair_keys(store, claims: list[str] | None = None) -> dict[str, list[str]]:
    """claim IRI -> [model, suite, accelerator count, system] ("" where absent)."""
    query = _PAIR_QUERY
    if claims is not None:
        query = query.replace("WHERE {", "WHERE { VALUES ?c { " + " ".join(f"<{c}>" for c in claims) + " }", 1)
    return {
        row["c"].value: [row[v].value if row[v] is not None else "" for v in ("m", "s", "n", "sys")]
        for row in store.query(query, use_default_graph_as_union=True)
    }


def _record_of(focus: str, prefix: str) -> str:
    return focus.split("#", 1)[0] if focus.startswith(prefix) else ""


def affected_records(store, changed: set[str], old_keys: dict[str, list[str]], base: str = DEFAULT_BASE) -> set[str]:
    """The record IRIs whose findings a change of ``changed`` can alter (see the module doc)."""
    prefix = base + "id/"
    affected = set(changed)
    hop = set(changed)
    for _ in range(2):  # a claim depends on its accelerator and on the chip that accelerator is made of
        referrers = set()
        for iri in hop:
            for q in store.quads_for_pattern(None, None, NamedNode(iri), None):
                record = _record_of(q.subject.value, prefix)
                if record and record not in affected:
                    referrers.add(record)
        affected |= referrers
        hop = {r for r in referrers if r.startswith(prefix + "accelerators/")}
    keys = {tuple(old_keys[c]) for c in changed if c in old_keys}
    keys |= {tuple(k) for k in _pair_keys(store, [c for c in changed if "/benchmarks/" in c]).values()}
    for model, suite, count, system in keys:
        affected.update(
            row["c"].value
            for row in store.query(_partners_query(model, suite, count, system), use_default_graph_as_union=True)
        )
    if changed:  # a superlative's rivals are the whole audited population it names
        affected.update(
            _record_of(q.subject.value, prefix)
            for q in store.quads_for_pattern(None, NamedNode(f"{BK}asserts"), None, None)
            if isinstance(q.subject, NamedNode)
        )
    return affected


def _string(text: str) -> str:
    """A SPARQL string literal.

    >>> print(_string('a "b"'))
    "a \\"b\\""
    """
    return json.dumps(text, ensure_ascii=False)


def _focus_nodes(store, records: set[str]) -> list[str]:
    """Every subject in the graphs of ``records`` (the records and their nested nodes)."""
    nodes = set()
    for record in records:
        nodes.add(record)
        nodes.update(
            q.subject.value
            for q in store.quads_for_pattern(None, None, None, NamedNode(record))
            if type(q.subject).__name__ == "NamedNode"
        )
    return sorted(nodes)


def run_incremental(
    store,
    shapes,
    shape_dirs: tuple[Path, ...],
    cache: Path,
    data_dir: Path,
    base: str = DEFAULT_BASE,
    progress=None,
    layout=None,
):
    """The fast engine's results and located findings, re-checking only what changed since the
    cached run (findings of the records not re-checked come from the cache, file and line too:
    their files have not changed).

    Returns (raw results, findings, how many records were re-checked, or None for a full run).
    """

    prefix = base + "id/"
    state = state_of(shape_dirs, base, data_dir)
    digests = _digests(store, base, cache.parent / SNAPSHOT_NAME)
    cached = _read(cache)
    if cached and cached.get("state") == state:
        old = cached["digests"]
        changed = {g for g in digests.keys() | old.keys() if digests.get(g) != old.get(g)}
        full = (
            any("/gotchas/" in g for g in changed)
            or len(changed) > FULL_RUN_SHARE * max(len(digests), 1)
            or "" in cached["results"]
        )
    else:
        changed, full = set(), True
    if cached is None:  # (a full run, with no cache to keep anything from)
        cached = {}
    if not full and not changed:
        raw = [RawResult(*r) for rs in cached["results"].values() for r in rs]
        findings = [Finding(*f) for fs in cached["findings"].values() for f in fs]
        return raw, sort_findings(findings), 0
    if full:
        raw = run_fast(store, shapes, progress=progress)
        findings = locate(raw, data_dir, base, layout)
        keys = _pair_keys(store)
        rechecked = None
    else:
        records = affected_records(store, changed, cached["keys"], base)
        fresh = run_fast(store, shapes, focus=_focus_nodes(store, records), progress=progress)
        raw = [RawResult(*r) for record, rs in cached["results"].items() if record not in records for r in rs] + fresh
        keep = {record[len(prefix) :] for record in cached["results"] if record not in records}
        findings = [Finding(*f) for key, fs in cached["findings"].items() if key in keep for f in fs]
        findings = sort_findings(set(findings) | set(locate(fresh, data_dir, base, layout)))
        keys = {k: v for k, v in cached["keys"].items() if k not in changed}
        keys.update(_pair_keys(store, [c for c in changed if c in digests and "/benchmarks/" in c]))
        rechecked = len(records)
    results: dict[str, list] = {}
    for r in raw:
        results.setdefault(_record_of(r.focus, prefix), []).append(list(vars(r).values()))
    located: dict[str, list] = {}
    for f in findings:
        located.setdefault(f.focus, []).append(list(vars(f).values()))
    write_cache(
        cache,
        {
            "version": CACHE_VERSION,
            "state": state,
            "digests": digests,
            "keys": keys,
            "results": results,
            "findings": located,
        },
    )
    return raw, findings, rechecked


def _read(cache: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(Path(cache).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # no cache, or a damaged one: a full run writes a new one
    return data if isinstance(data, dict) and data.get("version") == CACHE_VERSION else None


def write_cache(cache: Path, data: dict) -> None:

    write_atomic(Path(cache), json.dumps(data, separators=(",", ":")).encode("utf-8"))
