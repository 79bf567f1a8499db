"""A data repository: a records folder, and what the folder above it adds to benchkg's own files.

A records folder (``--data``, default ``./data``) is read as it is. When the folder above it holds
``benchkg.toml`` (``benchkg init`` writes one), it is a *data repository* that keeps its own claims
and uses benchkg's:

- with ``reference = true``, its records may name benchkg's reference records (suites, models,
  formats, gotchas, the MLPerf accelerators…, see :data:`~benchkg.kernel.resources.REFERENCE_KINDS`)
  without copying them, and may add records of those kinds of their own;
- its ``queries/`` add saved queries to benchkg's, and its ``shapes/`` add conventions to benchkg's.

A record id the repository shares with the reference set must hold the same bytes (an old copy is
harmless); a different record under a reference id is an input error, and so is a saved query named
like a built-in one: a leaderboard means one thing wherever it is run.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchkg.kernel import limits
from benchkg.kernel.errors import InputError, InputProblem
from benchkg.kernel.resources import QUERIES_DIR, REFERENCE_DIR, REFERENCE_KINDS, SHAPES_DIR

CONFIG_NAME = "benchkg.toml"
#: each setting, and what its value must be
_KEYS = {"reference": "true or false", "time_limit": "a number of seconds, more than 0"}


@dataclass(frozen=True)
class Layout:
    """Where one data folder's records, saved queries and shapes come from."""

    data: Path
    reference: Path | None  # benchkg's reference records, used beside the data; None: the data alone
    query_dirs: tuple[Path, ...]
    shape_dirs: tuple[Path, ...]

    @property
    def layers(self) -> tuple[Path, ...]:
        """The record folders, the data repository's own first."""
        return (self.data,) + ((self.reference,) if self.reference else ())


def read_config(path: Path) -> dict[str, Any]:
    """The ``[benchkg]`` table of a ``benchkg.toml``.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "benchkg.toml"
    >>> _ = p.write_text("[benchkg]\\nreference = true\\n")
    >>> read_config(p)
    {'reference': True}
    >>> _ = p.write_text("[benchkg]\\nrefrence = true\\n")
    >>> read_config(p)
    Traceback (most recent call last):
    benchkg.kernel.errors.InputError: ...benchkg.toml:2: /benchkg/refrence: unknown setting 'refrence'; settings: reference, time_limit
    """
    try:
        text = path.read_text(encoding="utf-8")
        table = tomllib.loads(text)
    except OSError as e:
        raise InputError.at(path, None, "", f"cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InputError.at(path, None, "", "not valid UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError.at(path, getattr(e, "lineno", None), "", f"not valid TOML: {e}") from None
    config = table.get("benchkg", {})
    problems = [
        InputProblem(path, 1, f"/{key}", "unknown table; benchkg.toml has one table, [benchkg]")
        for key in table
        if key != "benchkg"
    ]
    if not isinstance(config, dict):
        problems.append(InputProblem(path, 1, "/benchkg", "must be a table: [benchkg]"))
        config = {}
    for key, value in config.items():
        line = next((n for n, row in enumerate(text.splitlines(), 1) if row.strip().startswith(key)), None)
        if key not in _KEYS:
            problems.append(
                InputProblem(path, line, f"/benchkg/{key}", f"unknown setting {key!r}; settings: {', '.join(_KEYS)}")
            )
        elif not _fits(key, value):
            problems.append(InputProblem(path, line, f"/benchkg/{key}", f"expected {_KEYS[key]}"))
    if problems:
        raise InputError(problems)
    return config


def layout_for(data_dir: Path) -> Layout:
    """The layout of ``data_dir``: the data alone, or a data repository (see the module's doc).

    >>> layout_for(Path("data")).layers
    (PosixPath('data'),)
    """
    data_dir = Path(data_dir)
    root = data_dir.absolute().parent
    config_file = root / CONFIG_NAME
    if not config_file.is_file():
        return Layout(data_dir, None, (QUERIES_DIR,), (SHAPES_DIR,))
    config = read_config(config_file)
    same = os.path.realpath(data_dir) == os.path.realpath(REFERENCE_DIR)
    reference = REFERENCE_DIR if config.get("reference", True) and not same else None
    return Layout(data_dir, reference, _extend(QUERIES_DIR, root / "queries"), _extend(SHAPES_DIR, root / "shapes"))


def _fits(key: str, value: Any) -> bool:
    """Whether ``value`` is what setting ``key`` takes."""
    if key == "reference":
        return isinstance(value, bool)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def time_limit_of(folder: Path) -> float:
    """The time limit on the own shapes or queries in ``folder`` (a data repository's ``shapes/`` or
    ``queries/``): its repository's ``time_limit``, or the environment's (:func:`benchkg.kernel.limits.seconds`)."""
    config_file = Path(folder).absolute().parent / CONFIG_NAME
    return limits.seconds(read_config(config_file).get("time_limit") if config_file.is_file() else None)


def _extend(builtin: Path, own: Path) -> tuple[Path, ...]:
    """benchkg's folder, then the data repository's own when there is one (and it is not benchkg's)."""
    if own.is_dir() and os.path.realpath(own) != os.path.realpath(builtin):
        return builtin, own
    return (builtin,)


#: the audited results in the reference set, beside every record of REFERENCE_KINDS: files of these
#: kinds whose name starts so (the MLPerf importer's ids); a checkout's seed vendor claims are not
AUDITED = {"benchmarks": "mlperf-", "systems": "mlperf-"}


def reference_names(folder: Path = REFERENCE_DIR) -> list[tuple[str, str]]:
    """(kind, file name) of every record of the reference set in ``folder``, sorted.

    >>> names = reference_names()
    >>> ("models", "llama2-70b.json") in names, any(k == "benchmarks" for k, _ in names)
    (True, True)
    >>> [n for k, n in names if k == "benchmarks" and n.startswith("bench-")]  # a checkout's seed vendor claims are not in it
    []
    """
    out = []
    for kind in (*REFERENCE_KINDS, *AUDITED):
        prefix = AUDITED.get(kind, "")
        if (Path(folder) / kind).is_dir():
            out += [
                (kind, name)
                for name in os.listdir(Path(folder) / kind)
                if name.endswith(".json") and name.startswith(prefix) and not name.startswith(".")
            ]
    return sorted(out)


def in_reference(layout: Layout, kind: str, record_id: str) -> bool:
    """Whether ``kind/record_id`` is a record of the reference set ``layout`` uses."""
    if layout.reference is None or not (kind in REFERENCE_KINDS or record_id.startswith(AUDITED.get(kind, "\0"))):
        return False
    return (layout.reference / kind / f"{record_id}.json").is_file()


def record_path(data_dir: Path, kind: str, record_id: str, layout: Layout | None = None) -> Path:
    """The file of record ``kind/record_id``: the data folder's own, else the reference set's (when
    the data folder uses it: ``layout``, when read already), else where it would be in the data folder.

    >>> record_path(Path("data"), "models", "llama2-70b")
    PosixPath('data/models/llama2-70b.json')
    """
    layout = layout or layout_for(data_dir)
    for folder in layout.layers:
        path = Path(folder, kind, f"{record_id}.json")
        if path.is_file() and (folder == layout.data or in_reference(layout, kind, record_id)):
            return path
    return Path(data_dir, kind, f"{record_id}.json")


def shape_files(shape_dirs: tuple[Path, ...] = ()) -> list[Path]:
    """The shape files of ``shape_dirs`` (benchkg's shapes by default), folder by folder, sorted."""
    return [path for folder in (shape_dirs or (SHAPES_DIR,)) for path in sorted(Path(folder).glob("*.ttl"))]
