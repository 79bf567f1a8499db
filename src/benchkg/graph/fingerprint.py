"""The store's mapping version, computed: a fingerprint of the code that makes the mapped and derived graph.

A store built by other code is rebuilt whole (``graph/store.py`` keeps the version in its state). It was a
number bumped by hand, and forgetting it kept old facts in stores (issue 63); now it is the hash of the
sources of every benchkg module the build imports, found by reading their ``import`` lines, so no change
to the mapping, a derivation or a rule they use can be forgotten. (The ontology is hashed into the state
beside it; the shapes behind the caveats, by :func:`benchkg.graph.derived.shapes_digest`.)
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
_FROM = re.compile(r"^\s*from\s+(benchkg(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^\s*import\s+(benchkg(?:\.\w+)*)", re.M)


def module_file(module: str, package: Path = PACKAGE) -> Path | None:
    """The source file of a benchkg module, or None for a name that is no module (a function, a class).

    >>> module_file("benchkg.graph.mapping").name, module_file("benchkg.graph").name, module_file("benchkg.graph.nothing")
    ('mapping.py', '__init__.py', None)
    """
    parts = module.split(".")[1:]
    for candidate in (package.joinpath(*parts).with_suffix(".py"), package.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


def imported(module: str, package: Path = PACKAGE) -> set[str]:
    """``module`` and every benchkg module it imports, at any depth (a function's own imports included).

    >>> mods = imported("benchkg.graph.mapping")
    >>> "benchkg.graph.mapping" in mods and "benchkg.records.schema" in mods and "benchkg.publish.site" not in mods
    True
    """
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        path = module_file(name, package)
        if name in seen or path is None:
            continue
        seen.add(name)
        text = path.read_text(encoding="utf-8")
        for base, names in _FROM.findall(text):
            todo.append(base)
            todo += [f"{base}.{n.split(' as ')[0].strip()}" for n in names.strip("()").split(",") if n.strip()]
        todo += _IMPORT.findall(text)
    return seen


@lru_cache(maxsize=None)
def code_fingerprint(module: str = "benchkg.graph.store", package: Path = PACKAGE) -> str:
    """Twelve hex digits of the hash of the sources of ``module`` and every benchkg module it imports.

    >>> fp = code_fingerprint("benchkg.graph.mapping")
    >>> len(fp), fp == code_fingerprint("benchkg.graph.mapping"), fp != code_fingerprint("benchkg.graph.store")
    (12, True, True)
    """
    digest = hashlib.sha256()
    for name in sorted(imported(module, package)):
        path = module_file(name, package)
        assert path is not None  # (imported() keeps modules with a file only)
        digest.update(f"{name}\n".encode() + path.read_bytes())
    return digest.hexdigest()[:12]
