"""Importers as plugins (issue 46): benchkg finds importers by entry point, its own as any other
package's; every registered importer passes one conformance test, through the CLI as a user runs it;
and an importer in a package of its own (tests/plugins/benchkg-acme-csv, installed here with pip) is
listed, runs and passes it with no change to benchkg. Importers are imported by name, one at a time (issue
63): a plugin that does not load fails alone, named with its package, and the others still run."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from benchkg import api
from benchkg.importers import contract
from benchkg.importers.contract import importer, names, register, registered, unregister
from benchkg.kernel.errors import UsageError
from conftest import DATA, ROOT

pytestmark = pytest.mark.slow  # pip installs the example plugin; each importer runs several times
PLUGIN = ROOT / "tests" / "plugins" / "benchkg-acme-csv"
BENCHKG = Path(sys.executable).parent / "benchkg"
#: every importer the conformance test runs, from the registries: benchkg's (its entry points, found
#: without importing one) and the example plugin's own entry points (installed by a fixture, after collection)
PLUGIN_NAMES = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]["entry-points"]["benchkg.importers"]
NAMES = sorted({*names(), *PLUGIN_NAMES})


@pytest.fixture(scope="module")
def site_packages(tmp_path_factory) -> Path:
    """The example plugin installed by pip into a folder of its own (added to PYTHONPATH below)."""
    source, target = tmp_path_factory.mktemp("src") / "plugin", tmp_path_factory.mktemp("site-packages")
    shutil.copytree(PLUGIN, source)  # (a build writes build/ and *.egg-info beside the sources)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(target), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    sys.path.insert(0, str(target))  # so that this process's registry sees it too
    yield target
    sys.path.remove(str(target))


def run(site: Path, *args: object) -> subprocess.CompletedProcess:
    """``benchkg ARGS`` as a user runs it, with the plugin installed."""
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run([str(BENCHKG), *map(str, args)], capture_output=True, text=True, env=env, timeout=600)


def digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*.json"))
        if ".benchkg" not in p.parts
    }


def fresh(tmp: Path, name: str, seed: bool = False) -> Path:
    """A records folder to import into: empty, or (``seed``) the seed records."""
    out = tmp / name / "data"
    if seed:
        shutil.copytree(DATA, out)
    else:
        out.mkdir(parents=True)
    return out


def test_the_list_names_every_registered_importer_the_plugin_included(site_packages):
    listed = run(site_packages, "import", "--list")
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines() if not line.startswith(" ")]
    assert names == sorted(registered()) == ["acme-csv", "epoch", "inferencex", "mlperf"]
    assert "reads Acme's results table" in listed.stdout
    without = run(Path("/nonexistent"), "import", "--list")  # benchkg alone: its own three
    assert [line.split()[0] for line in without.stdout.splitlines() if not line.startswith(" ")] == names[1:]


def bad_inputs(sample: Path, tmp: Path) -> list[Path]:
    """Inputs no importer reads: an empty one of the sample's shape (a file, or a folder), and bytes that
    are not text under the sample's name."""
    empty = tmp / "bad-empty" / sample.name
    if sample.is_dir():
        empty.mkdir(parents=True)
    else:
        empty.parent.mkdir(parents=True)
        empty.write_bytes(b"")
    garbage = tmp / "bad-bytes" / sample.name
    garbage.parent.mkdir(parents=True)
    garbage.write_bytes(bytes(range(256)) * 4)
    return [empty, garbage]


@pytest.mark.parametrize("name", NAMES)
def test_every_importer_conforms(site_packages, tmp_path, name):
    """Importing twice gives byte-identical files and the same ids in any folder; bad input is exit 2
    naming the file, and writes nothing — alone, or after good input in the same command."""
    importer = contract.importer(name)
    assert importer.sample.exists(), f"{name}: its sample {importer.sample} is missing"
    out = fresh(tmp_path, "a")
    before = digest(out)
    first = run(site_packages, "import", name, importer.sample, "--out", out)
    assert first.returncode == 0, first.stderr
    after = digest(out)
    assert after != before, f"{name} wrote nothing from its own sample"
    again = run(site_packages, "import", name, importer.sample, "--out", out)
    assert again.returncode == 0 and "files written: none" in again.stdout, again.stdout
    assert digest(out) == after, "a second import changed files"
    elsewhere = fresh(tmp_path, "b")
    run(site_packages, "import", name, importer.sample, "--out", elsewhere)
    assert digest(elsewhere) == after, "the same input gave other ids or bytes in another folder"
    for bad in bad_inputs(importer.sample, tmp_path):
        for args in ([bad], [importer.sample, bad]):  # alone, and after good input: nothing written
            clean = fresh(tmp_path, f"c-{len(args)}-{bad.parent.name}", seed=True)
            untouched = digest(clean)
            refused = run(site_packages, "import", name, *args, "--out", clean)
            assert refused.returncode == 2, (args, refused.stdout, refused.stderr)
            assert refused.stderr.startswith(f"Error: {bad}"), refused.stderr
            assert "Traceback" not in refused.stderr
            assert digest(clean) == untouched, f"{name} wrote files from input it refused ({args})"


def test_the_conformance_test_runs_every_registered_importer(site_packages):
    """The names it runs (collected before the plugin is installed) are what the registry finds once it
    is: benchkg's entry points and the plugin's, none written by hand."""
    assert NAMES == names()
    assert {"epoch", "inferencex", "mlperf", "acme-csv"} <= set(NAMES)


def broken_plugins(folder: Path) -> Path:
    """``folder``, to put on PYTHONPATH, holding the package benchkg-broken 0.1: its importer ``broken``
    raises on import (a dependency missing), its ``not-one`` is an object that is no importer."""
    folder.mkdir(parents=True)
    (folder / "benchkg_broken.py").write_text('raise ImportError("benchkg_broken needs acme-sdk, not installed")\n')
    dist = folder / "benchkg_broken-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: benchkg-broken\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[benchkg.importers]\nbroken = benchkg_broken:IMPORTER\nnot-one = os:sep\n")
    return folder


def test_a_broken_plugin_fails_alone_named_with_its_package(tmp_path):
    """``import --list`` lists every importer and says which plugin does not load and why, naming its
    package; ``import inferencex`` runs (the broken module is never imported); ``import broken`` is exit
    2 naming it and its package, not a traceback."""
    site = broken_plugins(tmp_path / "site")
    listed = run(site, "import", "--list")
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines() if not line.startswith(" ")] == [
        "broken", "epoch", "inferencex", "mlperf", "not-one"
    ]  # fmt: skip
    assert (
        "the importer 'broken' (benchkg_broken:IMPORTER, package benchkg-broken 0.1) does not load: "
        "ImportError: benchkg_broken needs acme-sdk, not installed" in listed.stdout
    ), listed.stdout
    assert "the importer 'not-one' (os:sep, package benchkg-broken 0.1) is not an importer" in listed.stdout
    assert "reads your own InferenceX benchmarks export" in listed.stdout
    out = fresh(tmp_path, "x")
    ran = run(site, "import", "inferencex", importer("inferencex").sample, "--out", out)
    assert ran.returncode == 0, ran.stderr
    assert any(name.startswith("benchmarks/inferencex-") for name in digest(out)), ran.stdout
    failed = run(site, "import", "broken", importer("inferencex").sample, "--out", out)
    assert failed.returncode == 2, failed.stdout
    assert failed.stderr.startswith(
        "Error: the importer 'broken' (benchkg_broken:IMPORTER, package benchkg-broken 0.1) does not load"
    ), failed.stderr
    assert "Traceback" not in failed.stderr


@pytest.fixture
def in_code():
    """Names registered by a test, forgotten after it."""
    made: list[str] = []
    yield made
    for name in made:
        unregister(name)


def test_an_importer_registered_in_code_is_loaded_by_name_only_when_asked(in_code):
    """register() takes a factory or ``module:attribute``; nothing is imported until its name is asked
    for, a broken one fails alone naming where it was registered, and it stands before an entry point."""
    in_code += ["epoch", "lazy"]
    calls: list[str] = []

    def stand_in() -> contract.Plain:
        calls.append("made")
        return contract.Plain("epoch", "a stand-in", "nothing", Path("x.csv"), lambda path, target: None)

    register("epoch", stand_in)
    register("lazy", "benchkg_no_such_module:IMPORTER")
    assert "lazy" in names() and calls == []
    assert importer("inferencex").name == "inferencex" and calls == []
    assert importer("epoch").reads == "a stand-in" and calls == ["made"]
    with pytest.raises(UsageError, match=r"'lazy' \(registered in code\) does not load: ModuleNotFoundError"):
        importer("lazy")
    assert "lazy" not in registered() and "inferencex" in registered()
    unregister("epoch")
    assert importer("epoch").reads.startswith("Epoch AI's ml_hardware.csv")


def test_the_api_lists_importers_and_the_old_name_still_works_with_a_warning():
    assert [found.name for found in api.list_importers()] == names()
    with pytest.warns(DeprecationWarning, match="list_importers"):
        old = api.importers()
    assert sorted(old) == names()


def test_the_worked_example_in_the_docs_is_the_plugin_the_tests_run():
    """docs/importers.md shows the example plugin whole: its pyproject.toml and its module."""
    text = (ROOT / "docs" / "importers.md").read_text()
    for path, fence in (("pyproject.toml", "toml"), ("benchkg_acme_csv/__init__.py", "python")):
        assert f"```{fence}\n{(PLUGIN / path).read_text().rstrip()}\n```" in text, path


def _fences(text: str, language: str) -> list[str]:
    """The bodies of the page's fenced blocks of ``language`` ("" for a block that names none), read in
    order (an opening fence, then the next fence closes it)."""
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    return [body for lang, body in blocks if lang == language]


def test_the_docs_walkthrough_runs_as_written_on_a_package_made_from_the_page(tmp_path):
    """docs/importers.md tried as a newcomer would: the package written from the page's own blocks
    (its pyproject.toml, its module, its CSV), then the page's commands run one by one in a folder that
    holds it and a data repository. pip is given the flags a machine without network needs (no index,
    no build isolation, benchkg itself already installed) and a target folder of its own."""
    page = (ROOT / "docs" / "importers.md").read_text()
    toml, module, table = _fences(page, "toml")[0], _fences(page, "python")[0], _fences(page, "csv")[0]
    package = tmp_path / "benchkg-acme-csv"
    (package / "benchkg_acme_csv").mkdir(parents=True)
    (package / "pyproject.toml").write_text(toml)
    (package / "benchkg_acme_csv" / "__init__.py").write_text(module)
    (tmp_path / "acme-results.csv").write_text(table)
    shutil.copytree(DATA, tmp_path / "data")
    commands = [
        line.split() for line in _fences(page, "")[-1].splitlines() if line.split()[:1] in (["pip"], ["benchkg"])
    ]
    assert [c[:2] for c in commands] == [
        ["pip", "install"],
        ["benchkg", "import"],
        ["benchkg", "import"],
        ["benchkg", "validate"],
    ]
    site = tmp_path / "site-packages"
    env = dict(os.environ, PYTHONPATH=str(site))
    done = {}
    for command in commands:
        if command[0] == "pip":
            argv = [sys.executable, "-m", "pip", *command[1:2], "-q", "--no-index", "--no-deps", "--no-build-isolation",
                    "--target", str(site), *command[2:]]  # fmt: skip
        else:
            argv = [str(BENCHKG), *command[1:]]
        done[" ".join(command)] = ran = subprocess.run(
            argv, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600
        )
        assert ran.returncode == 0, (command, ran.stdout, ran.stderr)
    assert "acme-csv" in done["benchkg import --list"].stdout.split()
    written = sorted(p.name for p in (tmp_path / "data" / "benchmarks").glob("acme-*.json"))
    assert len(written) == len(table.splitlines()) - 1, written  # a claim per row of the table
    checked = done["benchkg validate"].stdout
    assert checked.splitlines()[-1].startswith("0 violation(s),"), checked
    assert all(f"data/benchmarks/{name}" in checked for name in written), checked  # (each read: its info note)
