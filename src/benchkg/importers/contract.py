"""What an importer is, where benchkg finds one, and how its records reach a records folder.

An importer is an object with a ``name`` (what ``benchkg import NAME`` calls it), ``reads`` and
``refuses`` (one line each, for ``benchkg import --list``), ``sample`` (a small input of its own, which
the conformance test imports) and ``read(path, target)``. ``read`` turns one input into records by
``target.write(kind, record)``; it may look at what the folder already holds (``target.existing``: an
accelerator an earlier import made, which Epoch's specifications extend), count what it leaves out
(``target.report``) and say how far it is (``target.progress``). It writes nothing itself: when every
input has been read, :func:`run_import` writes the records, each file atomically and only where its
text changes, so input that is refused halfway writes nothing.

Importers are found by entry point, in the group ``benchkg.importers``: benchkg's own are registered in
its ``pyproject.toml`` exactly as another package registers its own (docs/importers.md)::

    [project.entry-points."benchkg.importers"]
    mlperf = "benchkg.importers.mlperf:IMPORTER"
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from benchkg.importers.common import ImportReport, read_record_json, record_path, write_record
from benchkg.kernel.errors import InputError, UsageError
from benchkg.kernel.terminal import Progress

__all__ = ["GROUP", "Importer", "InputError", "Plain", "Progress", "Target", "importer", "registered", "run_import"]

GROUP = "benchkg.importers"


@runtime_checkable
class Importer(Protocol):
    """The contract of an importer (see the module's doc)."""

    name: str
    reads: str
    refuses: str
    sample: Path

    def read(self, path: Path, target: Target) -> None:
        """Read ``path`` and write its records with ``target.write``.

        :raises InputError: naming file, line or row and field, for input that is not what it reads.
        """


@dataclass
class Target:
    """The records folder an import writes into, as an importer sees it: what it holds (and what this
    import has written so far), the report, and a progress callback."""

    out: Path
    report: ImportReport = field(default_factory=ImportReport)
    progress: Progress | None = None
    pending: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def write(self, kind: str, record: dict[str, Any]) -> None:
        """Keep ``record`` to be written as ``<out>/<kind>/<id>.json`` (a later one of the same id wins).

        :raises InputError: for an id benchkg cannot name a file after (``../..`` from the input).
        """
        record_path(self.out, kind, record.get("id"))
        self.pending[kind, record["id"]] = record

    def existing(self, kind: str, record_id: str) -> dict[str, Any] | None:
        """The record ``kind/record_id`` as this import has it so far, else as the folder has it."""
        if (kind, record_id) in self.pending:
            return self.pending[kind, record_id]
        return read_record_json(self.out, kind, record_id)

    def tick(self, n: int, total: int) -> None:
        """Say that ``n`` of ``total`` rows are read."""
        if self.progress:
            self.progress(n, total)


@dataclass(frozen=True)
class Plain:
    """An importer made of a read function and its description (benchkg's own are these)."""

    name: str
    reads: str
    refuses: str
    sample: Path
    read: Callable[[Path, Target], None]


def registered() -> dict[str, Importer]:
    """Every importer, by name: the entry points of group ``benchkg.importers`` (benchkg's own and any
    other package's), sorted by name.

    >>> sorted(registered())[:3]
    ['epoch', 'inferencex', 'mlperf']

    :raises UsageError: for an entry point that does not load or is not an importer, naming it.
    """
    points = {p.name: p.value for p in metadata.entry_points(group=GROUP)}
    found = {}
    for name, value in sorted(points.items()):
        try:
            module, _, attribute = value.partition(":")
            obj = getattr(__import__(module, fromlist=[attribute]), attribute)
        except Exception as e:  # a plugin's import error is its own, reported by name
            raise UsageError(f"the importer {name!r} ({value}) does not load: {type(e).__name__}: {e}") from e
        if not isinstance(obj, Importer) or obj.name != name:
            raise UsageError(
                f"the importer {name!r} ({value}) is not an importer: it needs name {name!r}, reads, refuses, "
                "sample and read(path, target) (docs/importers.md)"
            )
        found[name] = obj
    return found


def importer(name: str) -> Importer:
    """The importer called ``name``.

    :raises UsageError: naming the importers there are.
    """
    found = registered()
    if name not in found:
        known = ", ".join(found) or "none: is benchkg installed (pip install -e .)? its own are entry points too"
        raise UsageError(f"no importer {name!r}; importers: {known} (benchkg import --list)")
    return found[name]


def run_import(
    chosen: Importer,
    paths: Iterable[Path],
    out: Path,
    progress: Progress | None = None,
    report: ImportReport | None = None,
) -> ImportReport:
    """Read every path with ``chosen``, then write the records into ``out`` (unchanged files untouched);
    nothing is written when any path is refused. The report is ``report`` (several imports may add to
    one), or a new one.

    :raises InputError: from the importer, before anything is written.
    """
    target = Target(Path(out), report or ImportReport(), progress)
    for path in paths:
        chosen.read(Path(path), target)
    for (kind, _), record in target.pending.items():
        target.report.wrote(kind, write_record(target.out, kind, record))
    return target.report
