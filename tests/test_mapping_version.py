"""The store's mapping version is computed from the code that makes the mapped and derived graph (issue 63):
a change to that code rebuilds every store; a change elsewhere does not; nothing is bumped by hand."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from benchkg.graph.fingerprint import PACKAGE, code_fingerprint, imported
from benchkg.kernel.resources import ROOT
from conftest import FULL_DATA


def _copy(tmp_path: Path) -> Path:
    """The package copied into ``tmp_path/src``, the checkout's ontology, shapes and queries beside it."""
    copy = tmp_path / "src" / "benchkg"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("ontology", "shapes", "queries"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    return copy


def test_a_change_to_a_derivation_changes_the_version_and_a_change_elsewhere_does_not(tmp_path):
    copy = _copy(tmp_path)
    before = code_fingerprint("benchkg.graph.store", copy)
    site = copy / "publish" / "site.py"
    site.write_text(site.read_text() + "\n# the site is not the graph\n")
    assert code_fingerprint.__wrapped__("benchkg.graph.store", copy) == before
    facts = copy / "graph" / "facts.py"  # a derivation the build imports
    facts.write_text(facts.read_text().replace("NOT_STATED = ", "NOT_STATED = 'none' or ", 1))
    assert code_fingerprint.__wrapped__("benchkg.graph.store", copy) != before


def test_every_module_the_build_imports_is_in_the_fingerprint():
    """Python's own record of what importing the store loads, against the fingerprint's reading of the
    import lines (a module the build uses but the fingerprint missed would let a change go unseen)."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, benchkg.graph.store; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    ours = {m for m in loaded if m.startswith("benchkg.") and m.count(".") >= 2}
    assert ours and ours <= imported("benchkg.graph.store"), sorted(ours - imported("benchkg.graph.store"))


def _build(package: Path, data: Path) -> tuple[int, int]:
    """`benchkg build --data DATA` run by the benchkg in ``package``'s folder: (records added, unchanged)."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, benchkg; from benchkg.cli import main; "
         "assert benchkg.__file__.startswith(sys.argv[2]), benchkg.__file__; "
         "sys.argv = ['benchkg', 'build', '--data', sys.argv[1]]; main()", str(data), str(package)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(package.parent)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = re.search(r"(\d+) added, \d+ changed, \d+ removed, (\d+) unchanged", done.stdout + done.stderr)
    assert found, done.stdout + done.stderr
    return int(found.group(1)), int(found.group(2))


def test_a_store_built_by_other_code_is_rebuilt_whole(tmp_path):
    """The user's path: `benchkg build` twice (nothing added the second time), then under a changed
    derivation (a copy of the package whose facts.py differs): every record mapped again."""
    copy = _copy(tmp_path)
    data = tmp_path / "data"
    shutil.copytree(FULL_DATA / "models", data / "models")
    shutil.copytree(FULL_DATA / "accelerators", data / "accelerators")
    added, _ = _build(copy, data)
    assert added > 10 and _build(copy, data) == (0, added)
    facts = copy / "graph" / "facts.py"
    facts.write_text(facts.read_text() + "\n# a change to a derivation\n")
    assert _build(copy, data) == (added, 0)
