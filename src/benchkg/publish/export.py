"""Dumps of the graph: Turtle, N-Triples, TriG, N-Quads and JSON-LD, format from the file name.

Files are written to a temporary name beside the target and renamed into place, so a failed
export never leaves a half-written file. The dataset is sorted (the same graph gives the same bytes
from any store) in runs of :data:`RUN` quads, each written to a temporary file and merged as the
export is written: memory does not grow with the graph, except for JSON-LD, which is one document.
"""

from __future__ import annotations

import heapq
import io
import itertools
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from pyoxigraph import RdfFormat, parse, serialize

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


#: how many quads an export sorts in memory at a time; a larger graph is sorted in runs on disk
RUN = 250_000

_RDF_FORMATS = {"ttl": RdfFormat.TURTLE, "nt": RdfFormat.N_TRIPLES, "trig": RdfFormat.TRIG, "nq": RdfFormat.N_QUADS}


def _key(item: Any) -> tuple[str, str]:
    """The order of an export: by graph, then as written."""
    return str(getattr(getattr(item, "graph_name", None), "value", "")), str(item)


def sorted_items(store, fmt: str, base: str = DEFAULT_BASE, run: int | None = None) -> Iterator[Any]:
    """The published dataset's quads (for a triple format its distinct triples, the named graphs merged)
    in one stable order, at most ``run`` of them in memory: a larger graph is sorted in runs written to
    temporary files and merged.

    >>> from benchkg.graph.store import build_graph
    >>> from benchkg.kernel.resources import ROOT
    >>> store = build_graph(ROOT / "data").store
    >>> list(sorted_items(store, "nq", run=50_000)) == list(sorted_items(store, "nq"))
    True
    >>> triples = list(sorted_items(store, "nt", run=50_000))
    >>> len(triples) == len(set(triples)) and triples == list(sorted_items(store, "nt"))
    True

    A triple that two graphs hold is written once, in memory and merged from runs alike:

    >>> from pyoxigraph import NamedNode, Quad, Store
    >>> small, x = Store(), NamedNode("https://x/s")
    >>> for g in ("https://x/g1", "https://x/g2", "https://x/g3"):
    ...     small.add(Quad(x, x, NamedNode(g), NamedNode("https://x/g1")))
    ...     small.add(Quad(x, x, x, NamedNode(g)))
    >>> [len(list(sorted_items(small, fmt, run=run))) for fmt in ("nq", "nt") for run in (2, 100)]
    [6, 6, 4, 4]
    >>> first_run_repeats = Store()
    >>> for g in ("https://x/g1", "https://x/g2"):
    ...     first_run_repeats.add(Quad(x, x, x, NamedNode(g)))
    >>> first_run_repeats.add(Quad(x, x, NamedNode("https://x/o"), NamedNode("https://x/g3")))
    >>> len(list(sorted_items(first_run_repeats, "nt", run=2)))
    2
    """
    run = run or RUN
    quads = FORMATS[fmt][1]
    items: Iterator[Any] = content_quads(store, base) if quads else (q.triple for q in content_quads(store, base))
    dump = RdfFormat.N_QUADS if quads else RdfFormat.N_TRIPLES
    with tempfile.TemporaryDirectory(prefix="benchkg-export-") as tmp:
        runs = []
        for number in itertools.count():
            chunk: list[Any] = list(itertools.islice(items, run))
            if not chunk:
                break
            whole = len(chunk) < run  # (counted before a triple format drops the triples two graphs hold)
            chunk = sorted(chunk if quads else set(chunk), key=_key)
            if number == 0 and whole:  # (the whole graph in one run: nothing to merge)
                yield from chunk
                return
            runs.append(Path(tmp) / f"run-{number}")
            serialize(chunk, output=str(runs[-1]), format=dump)
        read = [(q if quads else q.triple for q in parse(path=str(path), format=dump)) for path in runs]
        previous = None
        for item in heapq.merge(*read, key=_key):
            if item != previous:  # (a triple in several graphs, once)
                yield item
            previous = item


def write_graph(store, fmt: str, out: BinaryIO, base: str = DEFAULT_BASE) -> None:
    """Write the published dataset in one format to ``out`` (triple formats merge the named graphs;
    JSON-LD is compact, with benchkg's context inline, so it reads without fetching anything), sorted."""
    items = sorted_items(store, fmt, base)
    if fmt == "jsonld":
        out.write(jsonld.dumps(jsonld.document(list(items))))
        return
    prefixes = DATA_PREFIXES if fmt in ("ttl", "trig") else None
    serialize(items, output=out, format=_RDF_FORMATS[fmt], prefixes=prefixes)


def serialize_graph(store, fmt: str, base: str = DEFAULT_BASE) -> bytes:
    """The published dataset in one format, as bytes (:func:`write_graph`)."""
    out = io.BytesIO()
    write_graph(store, fmt, out, base)
    return out.getvalue()


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
    write_atomic(Path(path), lambda out: write_graph(store, fmt, out, base))
    return fmt, Path(path).stat().st_size
