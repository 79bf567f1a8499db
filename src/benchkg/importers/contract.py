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

or in code, by :func:`register` (tests). Each is imported only when it is asked for by name (as
rdflib's plugin registry loads a parser): a plugin that does not import fails alone, named with its
package, and ``benchkg import inferencex`` never imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, cast, runtime_checkable

from benchkg.importers.common import ImportReport, read_record_json, record_path, write_record
from benchkg.kernel.errors import InputError, UsageError
from benchkg.kernel.terminal import Progress

__all__ = [
    "GROUP",
    "Importer",
    "InputError",
    "Listed",
    "Plain",
    "Progress",
    "Target",
    "importer",
    "listing",
    "names",
    "register",
    "registered",
    "run_import",
    "unregister",
]

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


#: importers registered in code (:func:`register`), by name: an importer, a function that makes one, or
#: ``"module:attribute"``; each stands before an entry point of its name
_IN_CODE: dict[str, Importer | Callable[[], Importer] | str] = {}

#: what loads an importer: an entry point, or what :func:`register` was given
_Source = metadata.EntryPoint | Importer | Callable[[], Importer] | str


@dataclass(frozen=True)
class Listed:
    """One importer as ``benchkg import --list`` shows it: loaded, or the reason it does not load."""

    name: str
    package: str  # where it comes from: "package benchkg 0.1.0", a plugin's, or "registered in code"
    importer: Importer | None
    problem: str = ""  # why it does not load (naming it and its package), when it does not


def register(name: str, source: Importer | Callable[[], Importer] | str) -> None:
    """Make ``name`` an importer without an entry point (for tests, or a program that embeds benchkg):
    ``source`` is an importer, a function that makes one, or ``"module:attribute"``, loaded when ``name``
    is first asked for. It stands before an installed entry point of the same name.

    >>> register("tiny", lambda: Plain("tiny", "nothing", "everything", Path("."), lambda path, target: None))
    >>> importer("tiny").reads, "tiny" in names()
    ('nothing', True)
    >>> unregister("tiny")
    """
    _IN_CODE[name] = source


def unregister(name: str) -> None:
    """Forget the importer :func:`register` made ``name`` (an entry point of that name is found again)."""
    _IN_CODE.pop(name, None)


def _sources() -> dict[str, tuple[str, _Source]]:
    """Every importer's name, sorted, with its package and what loads it; nothing is imported."""
    found: dict[str, tuple[str, _Source]] = {}
    for point in metadata.entry_points(group=GROUP):
        dist = point.dist
        found[point.name] = (f"package {dist.name} {dist.version}" if dist else "an unknown package", point)
    for name, source in _IN_CODE.items():
        found[name] = ("registered in code", source)
    return dict(sorted(found.items()))


def _load(name: str, package: str, source: _Source) -> Importer:
    """The importer ``source`` names, imported now (only it).

    :raises UsageError: naming it, its package and what to do, for one that does not load or is not an
        importer.
    """
    # (an entry point by what it does: a distribution finder other than the standard library's, such as an
    # editable install's, gives entry points of a class of its own)
    point = source if not isinstance(source, (str, Importer)) and hasattr(source, "load") else None
    where = f"{getattr(point, 'value', name)}, {package}" if point is not None else package
    try:
        if point is not None:
            obj: object = point.load()
        elif isinstance(source, str):
            module, _, attribute = source.partition(":")
            obj = getattr(importlib.import_module(module), attribute)
        else:
            made = cast("Importer | Callable[[], Importer]", source)
            obj = made if isinstance(made, Importer) else made()
    except Exception as e:  # a plugin's error is its own: reported by name, the other importers still work
        raise UsageError(
            f"the importer {name!r} ({where}) does not load: {type(e).__name__}: {e} "
            f"(fix or uninstall that package; the other importers work)"
        ) from e
    if not isinstance(obj, Importer) or obj.name != name:
        raise UsageError(
            f"the importer {name!r} ({where}) is not an importer: it needs name {name!r}, reads, refuses, "
            "sample and read(path, target) (docs/importers.md)"
        )
    return obj


def names() -> list[str]:
    """The name of every importer, sorted: the entry points of group ``benchkg.importers`` (benchkg's own
    and any other package's) and those :func:`register` made. No importer is imported.

    >>> names()[:3]
    ['epoch', 'inferencex', 'mlperf']
    """
    return list(_sources())


def importer(name: str) -> Importer:
    """The importer called ``name``, imported alone: another that does not load does not matter.

    >>> importer("epoch").sample.name
    'ml_hardware.csv'

    :raises UsageError: naming the importers there are; for one that does not load or is not an
        importer, naming it and its package.
    """
    sources = _sources()
    if name not in sources:
        known = ", ".join(sources) or "none: is benchkg installed (pip install -e .)? its own are entry points too"
        raise UsageError(f"no importer {name!r}; importers: {known} (benchkg import --list)")
    return _load(name, *sources[name])


def listing() -> list[Listed]:
    """Every importer, sorted by name, each imported alone: one that does not load is listed with why.

    >>> [(found.name, found.package.split()[1], found.problem) for found in listing()][:1]
    [('epoch', 'benchkg', '')]
    """
    found = []
    for name, (package, source) in _sources().items():
        try:
            found.append(Listed(name, package, _load(name, package, source)))
        except UsageError as e:
            found.append(Listed(name, package, None, str(e)))
    return found


def registered() -> dict[str, Importer]:
    """Every importer that loads, by name, sorted (:func:`listing` says why one does not).

    >>> sorted(registered())[:3]
    ['epoch', 'inferencex', 'mlperf']
    """
    return {found.name: found.importer for found in listing() if found.importer is not None}


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
