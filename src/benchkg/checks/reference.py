"""benchkg's reference set: the audited record a data repository's own claims are compared with.

It is every record a claim names (suites, models, formats, gotchas, chips, fabrics, engines,
organisations, sources, with Epoch AI's chip specifications) and the audited results themselves:
the MLPerf Inference claims and their system records. It ships with benchkg (``data/`` in a checkout,
``benchkg/share/reference/`` in a wheel) and is read-only: a data repository names its records
without copying them.

A data repository does not rebuild three thousand reference claims. The set is built once per
benchkg version and content into a cache (``~/.cache/benchkg/reference/<version>-<digest>/``, or
``$BENCHKG_CACHE``, or ``$XDG_CACHE_HOME/benchkg``): a store with every reference graph and its
derived caveats. A data repository's new store starts as a RocksDB checkpoint of it (hard links,
milliseconds), and its validation cache starts knowing the reference records, so the first build
and validation read only the repository's own files and re-check only what they touch.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import RdfFormat, Store

from benchkg.checks.incremental import CACHE_VERSION, state_of, write_cache
from benchkg.graph.manifest import snapshot_path
from benchkg.graph.opening import close_store, store_dir_for
from benchkg.graph.store import MAPPING_VERSION, build_graph
from benchkg.kernel.resources import ONTOLOGY_FILE, REFERENCE_DIR, SHAPES_DIR
from benchkg.kernel.version import __version__
from benchkg.records.layout import reference_names

CONFIG = (
    "[benchkg]\n# benchkg's reference set, built once for every data repository (benchkg reference)\nreference = true\n"
)


def cache_root() -> Path:
    """Where prepared reference sets live: ``$BENCHKG_CACHE``, else ``$XDG_CACHE_HOME/benchkg``, else
    ``~/.cache/benchkg``; under it, ``reference/<version>-<digest>/``."""
    explicit = os.environ.get("BENCHKG_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "benchkg"


def fingerprint(folder: Path = REFERENCE_DIR) -> str:
    """What the prepared set depends on: benchkg's version and mapping, the ontology, benchkg's shapes,
    and every reference file's name and content (an editable checkout's data/ changes).

    >>> len(fingerprint())
    12
    """

    h = hashlib.sha256(f"{__version__} {MAPPING_VERSION}".encode())
    for path in [ONTOLOGY_FILE, *sorted(SHAPES_DIR.glob("*.ttl"))]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    for kind, name in reference_names(folder):
        h.update(f"{kind}/{name}\0".encode() + (Path(folder) / kind / name).read_bytes())
    return h.hexdigest()[:12]


def prepared(progress=None, folder: Path = REFERENCE_DIR) -> Path:
    """The data folder of the prepared reference set (an empty data repository whose store holds the
    whole reference), built now if this version and content has none yet. Two processes that need
    it at once build it once: the second waits on a lock file."""

    key = f"{__version__}-{fingerprint(folder)}"
    root = cache_root() / "reference" / key
    data = root / "data"
    if _ready(root):
        return data
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building it
        if _ready(root):
            return data
        shutil.rmtree(root, ignore_errors=True)  # a build cut off: start over
        data.mkdir(parents=True)
        (root / "benchkg.toml").write_text(CONFIG, encoding="utf-8")
        started = time.monotonic()
        built = build_graph(data, progress=progress)
        quads = len(built.store)
        # the build's last writes (its end mark, the manifest generation) into the store's files: a
        # read-only open and its backup, which seed every new repository, do not read the write-ahead log
        built.store.flush()
        del built
        close_store(store_dir_for(data))
        (root / "ready").write_text(
            json.dumps(
                {"built_s": round(time.monotonic() - started, 2), "quads": quads, "from": str(folder), "flushed": True}
            )
            + "\n",
            encoding="utf-8",
        )
    return data


def _ready(root: Path) -> bool:
    """Whether the prepared set at ``root`` is complete and flushed (one prepared before its last writes
    were flushed seeds stores that look interrupted: it is prepared again)."""
    try:
        return json.loads((root / "ready").read_text(encoding="utf-8")).get("flushed") is True
    except (OSError, ValueError, AttributeError):
        return False


def seed_store(store_dir: Path | None, persist: bool = True) -> Store | None:
    """Start a data repository's new store from the prepared reference set: a checkpoint of it at
    ``store_dir`` (persist), or an in-memory copy (returned; also when there is no ``store_dir``). The manifest snapshot comes along, so
    the first build stats the reference files instead of reading them."""

    source_dir = store_dir_for(prepared())
    source = Store.read_only(str(source_dir))
    if not persist or store_dir is None:
        memory = Store()
        memory.bulk_load(input=source.dump(format=RdfFormat.N_QUADS), format=RdfFormat.N_QUADS)
        return memory
    store_dir.parent.mkdir(parents=True, exist_ok=True)
    source.backup(str(store_dir))
    snapshot = snapshot_path(source_dir)
    if snapshot.is_file():
        shutil.copyfile(snapshot, snapshot_path(store_dir))
    return None


def seed_validation(cache: Path, data_dir: Path, shape_dirs: tuple[Path, ...], base: str) -> None:
    """Start a data repository's validation cache knowing the reference records (as the prepared set's
    manifest lists them), so its first validation re-checks only its own records and what they touch.
    The reference records' own findings are benchkg's business: a data repository's report leaves
    them out, so none are cached."""

    if Path(cache).exists():
        return
    snapshot = snapshot_path(store_dir_for(prepared()))
    try:
        entries = json.loads(snapshot.read_text(encoding="utf-8"))["entries"]
    except (OSError, ValueError, KeyError):
        return  # no snapshot: the first validation is a full one
    digests = {graph: entry.rsplit(" ", 1)[-1] for graph, entry in entries.items()}
    write_cache(
        Path(cache),
        {
            "version": CACHE_VERSION,
            "state": state_of(shape_dirs, base, data_dir),
            "digests": digests,
            "keys": {},
            "results": {},
            "findings": {},
        },
    )


@dataclass
class ReferenceSet:
    """What the reference set holds, by version (``benchkg reference``)."""

    rounds: dict[str, int] = field(default_factory=dict)  # "MLPerf Inference v6.0" -> results
    systems: int = 0
    records: dict[str, int] = field(default_factory=dict)  # kind -> records
    epoch_as_of: str = ""
    epoch_chips: int = 0
    folder: str = ""
    cache: str = ""
    cache_info: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        """One line naming the set by version, e.g. "MLPerf Inference v4.1, v5.1, v6.0; Epoch AI as of 2025-12-16"."""
        families: dict[str, list[str]] = {}
        for title in self.rounds:
            family, _, version = title.rpartition(" ")
            families.setdefault(family, []).append(version)
        parts = [f"{family} {', '.join(versions)}" for family, versions in families.items()]
        if self.epoch_as_of:
            parts.append(f"Epoch AI as of {self.epoch_as_of}")
        return "; ".join(parts)

    def text(self) -> str:
        lines = [f"benchkg's reference set: {self.name}", ""]
        lines += [f"  {title}: {n:,} results" for title, n in self.rounds.items()]
        lines.append(f"  system descriptions: {self.systems:,}")
        if self.epoch_as_of:
            lines.append(
                f"  Epoch AI hardware data as of {self.epoch_as_of}: specifications on {self.epoch_chips} chips"
            )
        others = ", ".join(f"{n:,} {kind}" for kind, n in self.records.items() if kind not in ("benchmarks", "systems"))
        lines += [
            f"  and {others}",
            "",
            f"Read from {self.folder} (read-only: a data repository names these records "
            "without copying them; a record of its own under one of these ids must be identical).",
        ]
        if self.cache_info:
            lines.append(
                f"Prepared once for this version at {self.cache}: {self.cache_info.get('quads', 0):,} quads, "
                f"built in {self.cache_info.get('built_s', 0)} s; a data repository's new store starts from it."
            )
        else:
            lines.append(
                f"Not prepared yet: the first data repository command prepares it at {self.cache} (a few "
                "seconds, once per benchkg version); `benchkg reference --prepare` does it now."
            )
        return "\n".join(lines)


def describe(folder: Path = REFERENCE_DIR) -> ReferenceSet:
    """The reference set as it is in ``folder``, counted from its files.

    >>> ref = describe()
    >>> ref.name.startswith("MLPerf Inference v4.1, v5.1, v6.0"), ref.rounds["MLPerf Inference v6.0"]
    (True, 520)
    """
    out = ReferenceSet(folder=str(folder))
    names = reference_names(folder)
    for kind, _ in names:
        out.records[kind] = out.records.get(kind, 0) + 1
    out.systems = out.records.get("systems", 0)
    suites = {}
    for kind, name in names:
        if kind == "suites":
            suite = json.loads((Path(folder) / kind / name).read_text(encoding="utf-8"))
            suites[suite["id"]] = suite.get("name", suite["id"])
    counts: dict[str, int] = {}
    for kind, name in names:
        if kind == "benchmarks":
            m = re.match(r"mlperf-(\d+\.\d+)-", name)
            if m:
                counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    for version in sorted(counts, key=lambda v: tuple(int(x) for x in v.split("."))):
        out.rounds[suites.get(f"mlperf-inference-v{version}", f"MLPerf Inference v{version}")] = counts[version]
    epoch = Path(folder) / "sources" / "epoch-ml-hardware.json"
    if epoch.is_file():
        record = json.loads(epoch.read_text(encoding="utf-8"))
        out.epoch_as_of = record.get("published") or record.get("retrieved") or ""
        out.epoch_chips = sum(
            1
            for kind, name in names
            if kind == "accelerators"
            and "epoch-ml-hardware" in (Path(folder) / kind / name).read_text(encoding="utf-8")
        )
    root = cache_root() / "reference" / f"{__version__}-{fingerprint(folder)}"
    out.cache = str(root)
    if (root / "ready").is_file():
        out.cache_info = json.loads((root / "ready").read_text(encoding="utf-8"))
    return out
