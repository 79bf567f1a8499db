"""The shapes as benchkg loads them (every ``*.ttl`` of benchkg's ``shapes/`` and a data repository's
own) and one SHACL result before it is located in a record file, whichever engine gave it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from benchkg.kernel.errors import InputError, InputProblem
from benchkg.kernel.resources import SHAPES_DIR
from benchkg.kernel.sparqltext import MAX_DEPTH, nesting, uses_service
from benchkg.records.layout import shape_files, time_limit_of

SH = "http://www.w3.org/ns/shacl#"
SEVERITIES = {SH + "Violation": "violation", SH + "Warning": "warning", SH + "Info": "info"}


@dataclass(frozen=True)
class RawResult:
    """One SHACL result before it is located in a record: terms as plain strings."""

    focus: str
    path: str  # predicate IRI, or "" for a complex path
    value: str | None
    shape: str  # the named shape (a nested property shape reports as its parent)
    severity: str
    message: str


#: the shapes parsed in this process, by their files' names, times and sizes (a build and the check after
#: it read the same shapes: parsed once, 0.08 s of a curator's one-second validate)
_PARSED: dict[tuple, object] = {}


def load_shapes(shape_dirs: Path | tuple[Path, ...] = ()):
    """Parse every ``*.ttl`` of ``shape_dirs`` (a folder or several; benchkg's shapes by default) into
    one rdflib graph, shared by the callers of this process until a file changes (do not change it).

    >>> load_shapes() is load_shapes()
    True
    """
    files = shape_files((shape_dirs,) if isinstance(shape_dirs, (str, Path)) else tuple(shape_dirs))
    key = tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files)
    graph = _PARSED.get(key)
    if graph is None:
        graph = _parse(files)
        _PARSED.clear()  # (one set of shapes at a time: a test may switch between many)
        _PARSED[key] = graph
    return graph


def _parse(files: list[Path]):
    """The shape files in one rdflib graph.

    :raises InputError: for a file that does not parse, or a shape's SPARQL :func:`_check_sparql` refuses.
    """
    from rdflib import RDF, Graph, URIRef

    graph = Graph()
    own: dict[str, Own] = {}
    for path in files:
        one = Graph()
        try:
            one.parse(path, format="turtle")
        except Exception as e:  # rdflib raises many parser exception types
            raise InputError([_problem(path, _turtle_error(e))]) from e
        _check_sparql(one, path)
        graph += one
        if path.parent.resolve() != SHAPES_DIR.resolve():  # a data repository's own: run within its time limit
            for kind in ("NodeShape", "PropertyShape"):
                for shape in one.subjects(RDF.type, URIRef(SH + kind)):
                    if isinstance(shape, URIRef):
                        own[str(shape).rsplit("#", 1)[-1]] = Own(path)
    graph.own_shapes = own  # type: ignore[attr-defined]  # (read by benchkg.rules.engine.run_fast)
    return graph


@dataclass(frozen=True)
class Own:
    """A data repository's own shape: the file it is in, and so its time limit."""

    path: Path

    @property
    def file(self) -> str:
        """The file as a curator knows it: ``shapes/mine.ttl``."""
        return f"{self.path.parent.name}/{self.path.name}"

    @property
    def seconds(self) -> float:
        """Its repository's time limit, read when it runs (the environment's may have changed since)."""
        return time_limit_of(self.path.parent)


def own_shapes(shapes) -> dict[str, Own]:
    """The data repository's own shapes among ``shapes`` (a graph :func:`load_shapes` gave), by name."""
    return getattr(shapes, "own_shapes", {})


def _check_sparql(graph, path: Path) -> None:
    """:raises InputError: for a shape's SPARQL (``sh:select``, ``sh:ask``, ``sh:construct``) that calls ``SERVICE``
    (every build runs the shapes a gotcha cites, so a plain ``query`` would fetch the URL) or nests
    deeper than a parser survives: such a shape is never run, not even by ``validate``."""
    from rdflib import URIRef

    for key in ("select", "ask", "construct"):  # construct: SHACL-AF rules, which pyshacl runs
        for text in graph.objects(None, URIRef(SH + key)):
            text = str(text)
            deepest, _line = nesting(text)
            if deepest > MAX_DEPTH:
                raise InputError.at(
                    path,
                    _line_of(path, text),
                    "",
                    f"a shape's sh:{key} nests {deepest} levels deep; benchkg reads SPARQL nested at most "
                    f"{MAX_DEPTH} levels: write it flatter",
                )
            if uses_service(text):
                raise InputError.at(
                    path,
                    _line_of(path, text),
                    "",
                    f"a shape's sh:{key} uses SERVICE, which would make this machine fetch another URL "
                    "whenever the shapes run; benchkg does not run it: remove the SERVICE call",
                )


def _line_of(path: Path, text: str) -> int | None:
    """The line of ``path`` where the SPARQL ``text`` starts (its first line as written), if found."""
    try:
        whole = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    at = whole.find(first) if first else -1
    return whole.count("\n", 0, at) + 1 if at >= 0 else None


def _turtle_error(error: Exception) -> str:
    """rdflib's parse error in one line: where, and the gist.

    >>> _turtle_error(Exception('at line 3 of <>:\\nBad syntax (expected "." here) at ^ in:\\n"..."'))
    'not Turtle at line 3 (expected "." here); fix the file, or move it out of shapes/'
    """
    text = str(error)
    line = re.search(r"at line (\d+)", text)
    gist = re.search(r"Bad syntax \((.*?)\) at \^", text, re.S)
    detail = f" ({' '.join(gist.group(1).split())[:200]})" if gist else f" ({' '.join(text.split())[:200]})"
    return f"not Turtle{' at line ' + line.group(1) if line else ''}{detail}; fix the file, or move it out of shapes/"


def _problem(path: Path, message: str):
    return InputProblem(path, None, "", f"cannot parse shapes: {message}")
