"""Dumps of the graph: Turtle, N-Triples, TriG, N-Quads and JSON-LD, format from the file name.

Files are written to a temporary name beside the target and renamed into place, so a failed
export never leaves a half-written file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyoxigraph import RdfFormat, serialize

from benchkg.graph.store import content_quads
from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.errors import UsageError
from benchkg.kernel.vocab import DATA_PREFIXES, DEFAULT_BASE
from benchkg.publish import jsonld

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
    raise UsageError(
        f"cannot tell the format of {str(path)!r} from its name; "
        f"end it with .ttl, .nt, .trig, .nq or .jsonld, or pass --format"
    )


def serialize_graph(store, fmt: str, base: str = DEFAULT_BASE) -> bytes:
    """The published dataset in one format (triple formats merge the named graphs; JSON-LD is
    compact, with benchkg's context inline, so it reads without fetching anything), sorted: the
    same graph gives the same bytes from any store."""
    rdf_format = {
        "ttl": RdfFormat.TURTLE,
        "nt": RdfFormat.N_TRIPLES,
        "trig": RdfFormat.TRIG,
        "nq": RdfFormat.N_QUADS,
    }.get(fmt)
    # one stable order, whatever order the store keeps: the same data gives the same bytes
    quads = sorted(content_quads(store, base), key=lambda q: (str(getattr(q.graph_name, "value", "")), str(q)))
    if fmt == "jsonld":
        return jsonld.dumps(jsonld.document(quads))
    items: list[Any] = quads if FORMATS[fmt][1] else sorted({q.triple for q in quads}, key=str)
    prefixes = DATA_PREFIXES if fmt in ("ttl", "trig") else None
    return serialize(items, format=rdf_format, prefixes=prefixes) or b""


def refuse_inside(out: Path, data_dir: Path) -> None:
    """An output inside the records folder would be read as records (or clobber them): refused.

    >>> refuse_inside(Path("site"), Path("data"))
    >>> refuse_inside(Path("data/site"), Path("data"))
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: data/site is inside the data folder data; write it somewhere else
    """
    if Path(data_dir).resolve() in (Path(out).resolve(), *Path(out).resolve().parents):
        raise UsageError(f"{out} is inside the data folder {data_dir}; write it somewhere else")


def export_graph(store, path: Path, fmt: str | None = None, base: str = DEFAULT_BASE) -> tuple[str, int]:
    """Write the dataset to ``path``; returns (format, bytes written).

    >>> import tempfile
    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> store = build_graph(ROOT / "data").store
    >>> fmt, size = export_graph(store, Path(tempfile.mkdtemp()) / "g.nt")
    >>> fmt, size > 10_000
    ('nt', True)
    """
    fmt = format_from_path(Path(path), fmt)
    data = serialize_graph(store, fmt, base)
    write_atomic(Path(path), data)
    return fmt, len(data)
