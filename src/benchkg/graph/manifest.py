"""The build manifest: a graph inside the store that keeps, per record graph, a typed
:class:`Entry` (the file's size and mtime, and its content hash), the build state and whether a
build is writing; and its snapshot beside the store (``manifest.json``), read instead of the quads
when it is current."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Quad, Store

from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.vocab import BK, DEFAULT_BASE
from benchkg.records.reader import stat_key

#: the manifest's snapshot, beside the store (see :func:`read_manifest`)
SNAPSHOT_NAME = "manifest.json"


def snapshot_path(store_dir: Path) -> Path:
    """Where the snapshot of the manifest of the store at ``store_dir`` is kept.

    >>> snapshot_path(Path("/repo/.benchkg/data/store"))
    PosixPath('/repo/.benchkg/data/manifest.json')
    """
    return Path(store_dir).parent / SNAPSHOT_NAME


@dataclass(frozen=True)
class Entry:
    """One record file as the store holds it: ``stat`` (its size and mtime, :func:`stat_now`) and
    ``digest`` (its content hash), written as one literal ``"stat digest"``.

    >>> e = Entry.parse("120:1733300000000000000 ab12"); e.stat, e.digest, e.text()
    ('120:1733300000000000000', 'ab12', '120:1733300000000000000 ab12')
    """

    stat: str
    digest: str

    @classmethod
    def parse(cls, text: str) -> "Entry":
        stat, _, digest = text.rpartition(" ")
        return cls(stat, digest)

    def text(self) -> str:
        return f"{self.stat} {self.digest}"


STATE = NamedNode(BK + "buildState")


STAT = NamedNode(BK + "fileStat")


GENERATION = NamedNode(BK + "manifestGeneration")


CAVEATS_DONE = NamedNode(BK + "caveatsDerived")


BUILDING = NamedNode(BK + "buildInProgress")


def manifest_graph(base: str) -> NamedNode:
    """The graph that records what the store holds (never exported)."""
    return NamedNode(f"{base}graph/manifest")


def _text(term: object) -> str:
    """A term's text (the manifest holds IRIs and literals, never a quoted triple)."""
    return str(getattr(term, "value", ""))


def stat_now(path: str | os.PathLike[str], now_ns: int | None = None) -> str:
    """The :func:`~benchkg.records.reader.stat_key` of the file at ``path`` now (``now_ns``: the clock,
    read once by a caller that stats many files)."""
    return stat_key(os.stat(path), now_ns)


def is_complete(store: Store, base: str = DEFAULT_BASE) -> bool:
    """Whether ``store`` holds a complete build: its build state is recorded and no build is writing
    it (or was cut off writing it). A reader answers only from a complete store.

    >>> is_complete(Store())
    False
    """
    manifest = manifest_graph(base)

    def has(p: NamedNode) -> bool:
        return next(iter(store.quads_for_pattern(manifest, p, None, manifest)), None) is not None

    return has(STATE) and not has(BUILDING)


def stat_or_empty(path: str | os.PathLike[str], now_ns: int | None = None) -> str:
    try:
        return stat_now(path, now_ns)
    except OSError:
        return ""


def read_manifest(store: Store, manifest: NamedNode, snapshot: Path | None) -> tuple[dict[str, str], bool]:
    """graph IRI -> "size:mtime sha256" of every record file the store holds, and whether it came
    from the snapshot file. The manifest quads are the truth; the snapshot (``.benchkg/manifest.json``)
    is a copy written after each build, used when its generation is the store's (reading 100k
    quads takes ~1.5 s, the snapshot ~0.2 s). A snapshot older than the store only makes a build
    re-read files, which is harmless: every step of a build can be repeated."""
    generation = [_text(q.object) for q in store.quads_for_pattern(manifest, GENERATION, None, manifest)]
    if snapshot is not None and generation:
        try:
            data = json.loads(snapshot.read_text(encoding="utf-8"))
            if data.get("generation") == generation[0] and isinstance(data.get("entries"), dict):
                return data["entries"], True
        except (OSError, ValueError):
            pass
    return {_text(q.subject): _text(q.object) for q in store.quads_for_pattern(None, STAT, None, manifest)}, False


def write_manifest(store: Store, manifest: NamedNode, snapshot: Path | None, entries: dict[str, str]) -> None:
    """A new generation in the store, then the snapshot of the manifest that goes with it."""
    if snapshot is None:
        return

    generation = uuid.uuid4().hex
    for q in list(store.quads_for_pattern(manifest, GENERATION, None, manifest)):
        store.remove(q)
    store.add(Quad(manifest, GENERATION, Literal(generation), manifest))
    write_atomic(
        snapshot, json.dumps({"generation": generation, "entries": entries}, separators=(",", ":")).encode("utf-8")
    )
