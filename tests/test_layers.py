"""The house keeps its layers: every import of a benchkg module, at the top of a file or inside a
function, goes down a layer or stays in its own, and no imports go around in a circle.

    kernel < records < importers, rules < graph < checks < answers, draft < publish < api < views < cli < benchkg

(importers and rules stand side by side, as answers and draft do: neither imports the other; draft reads
the reference store to link a text's figures to the audited results they restate). The checker is tested too: an
upward import and a circle planted in a copy of the package are both caught.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

from benchkg.kernel.resources import PACKAGE

#: layer -> rank; a module may import its own layer and those of lower rank, never a higher or equal other
RANKS = {
    "kernel": 0,
    "records": 1,
    "importers": 2,
    "rules": 2,
    "graph": 3,
    "checks": 4,
    "answers": 5,
    "draft": 5,
    "publish": 6,
    "api": 7,
    "views": 8,
    "cli": 9,
    "__init__": 10,
}


def module_name(package: Path, path: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def imports(package: Path) -> list[tuple[str, str, int, bool]]:
    """(importer, imported module, line, inside a function) for every import of a benchkg module."""
    modules = {module_name(package, p) for p in package.rglob("*.py")}
    out = []
    for path in sorted(package.rglob("*.py")):
        name = module_name(package, path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {
            id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(f)
        }
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{name}:{node.lineno}: relative import; benchkg imports by full name"
                base = node.module or ""
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for target in targets:
                if target.split(".")[0] == "benchkg" and target in modules and target != name:
                    out.append((name, target, node.lineno, id(node) in inner))
    return out


def violations(package: Path) -> list[str]:
    """Upward (or sideways) imports between layers, and circles, as messages naming file and line."""
    found = []
    edges: dict[str, set[str]] = {}
    for importer, imported, line, _ in imports(package):
        edges.setdefault(importer, set()).add(imported)
        a, b = layer(importer), layer(imported)
        if a != b and RANKS[b] >= RANKS[a]:
            found.append(f"{importer}:{line} imports {imported}: layer {a} may not use {b}")
    index, low, stack, on, counter = {}, {}, [], set(), [0]

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            ring = []
            while True:
                w = stack.pop()
                on.discard(w)
                ring.append(w)
                if w == v:
                    break
            if len(ring) > 1:
                found.append("circle: " + " -> ".join(sorted(ring)))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_import_goes_down_a_layer_and_none_goes_round():
    assert violations(PACKAGE) == []


def test_every_module_belongs_to_a_layer():
    for path in PACKAGE.rglob("*.py"):
        assert layer(module_name(PACKAGE, path)) in RANKS, path


def test_an_upward_import_and_a_circle_are_caught(tmp_path):
    copy = tmp_path / "benchkg"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "share"))
    errors = copy / "kernel" / "errors.py"
    errors.write_text(errors.read_text() + "\n\ndef planted():\n    from benchkg.answers.queries import run_query\n")
    found = violations(copy)
    assert any(v.startswith("benchkg.kernel.errors:") and "layer kernel may not use answers" in v for v in found), found
    assert any(v.startswith("circle: ") and "benchkg.kernel.errors" in v for v in found), found


def test_no_function_imports_a_benchkg_module_it_could_import_at_the_top():
    """A function-level import is for a heavy optional library (matplotlib, pyshacl, pandas) or a
    fork-server child, not for dodging a circle: with no circles, every benchkg import is at the top,
    but for the documented few that keep ``benchkg --help`` fast (the CLI imports a command's module
    when the command runs; the package imports its API when it is first asked for, or importing the
    CLI would import all of benchkg)."""
    inner = [
        (a, b, line)
        for a, b, line, inside in imports(PACKAGE)
        if inside and layer(a) != "cli" and (a, b) != ("benchkg", "benchkg.api")
    ]
    assert inner == [], inner[:10]


def test_the_cli_imports_only_declared_names_of_the_api_and_the_views():
    """The CLI parses arguments and prints: what it shows comes from the API (data) through the views
    (text), and it imports only names their ``__all__`` declares (and the kernel's errors and terminal)."""
    import importlib

    allowed = {"benchkg.api", "benchkg.views", "benchkg.kernel.errors", "benchkg.kernel.terminal"}
    used = {b for a, b, _, _ in imports(PACKAGE) if a == "benchkg.cli"}
    assert {"benchkg.api", "benchkg.views"} <= used <= allowed, sorted(used - allowed)
    tree = ast.parse((PACKAGE / "cli.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("benchkg.api", "benchkg.views"):
            declared = importlib.import_module(node.module).__all__
            undeclared = [a.name for a in node.names if a.name not in declared]
            assert not undeclared, f"cli.py:{node.lineno} imports {undeclared} from {node.module}, not in its __all__"


def test_every_declared_name_exists_and_every_public_name_is_declared():
    """``__all__`` of the package, the API and the views names what they hold; nothing public is left out."""
    import importlib

    for name in ("benchkg", "benchkg.api", "benchkg.views"):
        module = importlib.import_module(name)
        assert all(hasattr(module, n) for n in module.__all__), name
    api = importlib.import_module("benchkg.api")
    table = (PACKAGE.parents[1] / "docs" / "data-repository.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(\w+)` \| ", table.split("The public names")[1], re.M)
    assert sorted(listed) == sorted(api.__all__), "docs/data-repository.md lists the public names"
    defined = {
        n for n, v in vars(api).items() if not n.startswith("_") and getattr(v, "__module__", "") == "benchkg.api"
    }
    assert defined <= set(api.__all__), sorted(defined - set(api.__all__))


#: a function longer than this many lines (its signature and docstring not counted), or a module
#: longer than MODULE_LINES, says why in its docstring: "Long because …"
FUNCTION_LINES, MODULE_LINES = 60, 500


def too_long(package: Path) -> list[str]:
    """Functions and modules over the bounds whose docstring does not say why they are long."""
    found = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        name = module_name(package, path)
        if len(text.splitlines()) > MODULE_LINES and "Long because" not in (ast.get_docstring(tree) or ""):
            found.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node) or ""
                body = node.body[1:] if doc else node.body
                length = node.end_lineno - body[0].lineno + 1 if body else 0
                if length > FUNCTION_LINES and "Long because" not in doc:
                    found.append(f"{name}.{node.name}: {length} lines")
    return found


def test_every_long_function_and_module_says_why():
    assert too_long(PACKAGE) == []


def test_a_long_function_without_a_reason_is_caught(tmp_path):
    copy = tmp_path / "benchkg"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "share"))
    body = "\n".join(f"    x{n} = {n}" for n in range(FUNCTION_LINES + 1))
    (copy / "kernel" / "planted.py").write_text(f'def planted():\n    """Short."""\n{body}\n')
    assert "benchkg.kernel.planted.planted: 61 lines" in too_long(copy)
