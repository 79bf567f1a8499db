"""Dumps of the graph: Turtle, N-Triples, TriG, N-Quads and JSON-LD, format from the file name.

Files are written to a temporary name beside the target and renamed into place, so a failed
export never leaves a half-written file.
"""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from .errors import UsageError
from .store import content_quads
from .vocab import DATA_PREFIXES, DEFAULT_BASE

#: format name -> (file extensions, keeps named graphs)
FORMATS = {
    "ttl": ((".ttl",), False),
    "nt": ((".nt",), False),
    "trig": ((".trig",), True),
    "nq": ((".nq",), True),
    "jsonld": ((".jsonld", ".json"), True),
}


def format_from_path(path: Path, given: str | None = None) -> str:
    """The export format: the one given, else the one the file name ends with.

    >>> format_from_path(Path("graph.jsonld")), format_from_path(Path("x.out"), "nt")
    ('jsonld', 'nt')
    """
    if given:
        if given not in FORMATS:
            raise UsageError(f"unknown format {given!r}; use one of {', '.join(FORMATS)}")
        return given
    for name, (exts, _) in FORMATS.items():
        if path.suffix.lower() in exts:
            return name
    raise UsageError(f"cannot tell the format of {str(path)!r} from its name; "
                     f"end it with .ttl, .nt, .trig, .nq or .jsonld, or pass --format")


def serialize_graph(store, fmt: str, base: str = DEFAULT_BASE) -> bytes:
    """The published dataset in one format (triple formats merge the named graphs; JSON-LD is
    compact, with benchkg's context inline, so it reads without fetching anything), sorted: the
    same graph gives the same bytes from any store."""
    from pyoxigraph import RdfFormat, serialize

    rdf_format = {"ttl": RdfFormat.TURTLE, "nt": RdfFormat.N_TRIPLES, "trig": RdfFormat.TRIG,
                  "nq": RdfFormat.N_QUADS}.get(fmt)
    # one stable order, whatever order the store keeps: the same data gives the same bytes
    quads = sorted(content_quads(store, base), key=lambda q: (q.graph_name.value, str(q)))
    if fmt == "jsonld":
        from . import jsonld

        return jsonld.dumps(jsonld.document(quads))
    if FORMATS[fmt][1]:
        items = quads
    else:
        items = sorted({q.triple for q in quads}, key=str)
    prefixes = DATA_PREFIXES if fmt in ("ttl", "trig") else None
    kwargs = {"prefixes": prefixes} if prefixes else {}
    return serialize(items, format=rdf_format, **kwargs) or b""


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename, readable as the umask allows
    (``mkstemp`` makes it 0600). A temporary left by a killed run is removed by the next write.

    :raises UsageError: when ``path`` cannot be written (a folder, no space, no permission).
    """
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give a file name to write")
    if path.exists() and not path.is_file():  # a device or a pipe is never replaced by a file
        raise UsageError(f"{path} is not a regular file; give a file name to write")
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path.parent, f".{path.name}.")
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    except OSError as e:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        why = "no space left on the device" if e.errno == errno.ENOSPC else (e.strerror or str(e))
        raise UsageError(f"cannot write {path}: {why}; nothing was written") from None
    except BaseException:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        raise


def refuse_inside(out: Path, data_dir: Path) -> None:
    """An output inside the records folder would be read as records (or clobber them): refused.

    >>> refuse_inside(Path("site"), Path("data"))
    >>> refuse_inside(Path("data/site"), Path("data"))
    Traceback (most recent call last):
    benchkg.errors.UsageError: data/site is inside the data folder data; write it somewhere else
    """
    if Path(data_dir).resolve() in (Path(out).resolve(), *Path(out).resolve().parents):
        raise UsageError(f"{out} is inside the data folder {data_dir}; write it somewhere else")


def current_umask() -> int:
    """The process's umask (reading it means setting it; it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def remove_stale_temporaries(folder: Path, prefix: str) -> None:
    """Remove ``<prefix><pid>-…`` entries in ``folder`` whose process is gone (a run killed mid-write).

    >>> import tempfile; d = Path(tempfile.mkdtemp())
    >>> _ = (d / ".x.nq.999999999-a.tmp").write_text("half"); _ = (d / f".x.nq.{os.getpid()}-b.tmp").write_text("mine")
    >>> remove_stale_temporaries(d, ".x.nq."); sorted(p.name for p in d.iterdir()) == [f".x.nq.{os.getpid()}-b.tmp"]
    True
    """
    import shutil

    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        target = Path(folder, name)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target, ignore_errors=True)
        else:
            target.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid < 2**22  # another user's process, or not a pid at all
    return True


def export_graph(store, path: Path, fmt: str | None = None, base: str = DEFAULT_BASE) -> tuple[str, int]:
    """Write the dataset to ``path``; returns (format, bytes written).

    >>> import tempfile
    >>> from benchkg.store import build_graph
    >>> from benchkg.resources import ROOT
    >>> store = build_graph(ROOT / "data", persist=False).store
    >>> fmt, size = export_graph(store, Path(tempfile.mkdtemp()) / "g.nt")
    >>> fmt, size > 10_000
    ('nt', True)
    """
    fmt = format_from_path(Path(path), fmt)
    data = serialize_graph(store, fmt, base)
    write_atomic(Path(path), data)
    return fmt, len(data)
