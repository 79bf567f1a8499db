"""The shapes as benchkg loads them (every ``*.ttl`` of benchkg's ``shapes/`` and a data repository's
own) and one SHACL result before it is located in a record file, whichever engine gave it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from benchkg.kernel.errors import InputError, InputProblem
from benchkg.records.layout import shape_files

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


def load_shapes(shape_dirs: Path | tuple[Path, ...] = ()):
    """Parse every ``*.ttl`` of ``shape_dirs`` (a folder or several; benchkg's shapes by default) into
    one rdflib graph."""
    from rdflib import Graph

    graph = Graph()
    for path in shape_files((shape_dirs,) if isinstance(shape_dirs, (str, Path)) else tuple(shape_dirs)):
        try:
            graph.parse(path, format="turtle")
        except Exception as e:  # rdflib raises many parser exception types
            raise InputError([_problem(path, _turtle_error(e))]) from e
    return graph


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
