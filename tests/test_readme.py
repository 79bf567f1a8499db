"""The README and docs/ cannot drift: the README's first lines, its answers (run, and compared line by
line with what benchkg prints), every command and saved query documented, the examples of docs/cli.md
run, and docs/cli-reference.md what ``--help`` says."""

from __future__ import annotations

import re
import shlex

import pytest

from benchkg.answers.savedquery import saved_queries
from benchkg.cli import app
from benchkg.kernel.resources import ROOT
from conftest import cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
EVERYTHING = "\n".join([README, CONTRIBUTING, *DOCS.values()])


def test_readme_opens_with_the_two_commands():
    head = "\n".join(README.splitlines()[:6])
    assert "make demo" in head and "make test" in head


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_front_door_is_short_and_every_document_it_links_exists():
    lines = README.splitlines()
    assert len(lines) <= 150, len(lines)
    first = "\n".join(lines[:40])
    assert "make demo" in first and ".venv/bin/benchkg" in first and "$ benchkg query" in first
    for target in re.findall(r"\]\(((?:docs/)?[\w.-]+\.md)(?:#[\w-]+)?\)", README):
        assert (ROOT / target).is_file(), target


def test_links_between_the_documents_lead_somewhere():
    """Every relative link of docs/ and CONTRIBUTING.md names a file that exists, and an anchor its headings give."""

    def anchors(text: str) -> set[str]:
        return {
            re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.*)$", text, re.M)
        }

    for name, text, folder in [
        *((n, t, ROOT / "docs") for n, t in DOCS.items()),
        ("CONTRIBUTING.md", CONTRIBUTING, ROOT),
    ]:
        for target, anchor in re.findall(r"\]\(([\w./-]*\.md)?(?:#([\w-]+))?\)", text):
            path = (folder / target).resolve() if target else folder / name
            assert path.is_file(), f"{name}: {target}"
            if anchor:
                assert anchor in anchors(path.read_text(encoding="utf-8")), f"{name}: {target}#{anchor}"


def test_every_command_is_documented():
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        assert f"`benchkg {name}" in DOCS["cli.md"], f"benchkg {name} is not in docs/cli.md"
        assert f"## benchkg {name}\n" in DOCS["cli-reference.md"], f"benchkg {name} is not in docs/cli-reference.md"


def test_the_command_reference_is_what_help_says():
    import importlib.util

    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.reference() == DOCS["cli-reference.md"], "run .venv/bin/python scripts/cli_reference.py"


def test_every_saved_query_is_documented():
    for name in saved_queries():
        assert f"| `{name}` |" in DOCS["queries.md"], f"saved query {name} is not in docs/queries.md's table"


@pytest.mark.slow
def test_the_readme_shows_what_benchkg_prints(tmp_path, monkeypatch):
    """Each ``$ benchkg …`` of the README, run on the full data/ at 100 columns: the lines the README
    shows are the first lines benchkg prints, word for word."""
    import shutil

    from conftest import FULL_DATA

    shutil.copytree(FULL_DATA, tmp_path / "data")
    blocks = re.findall(r"```console\n\$ (benchkg [^\n]*)\n(.*?)```", README, re.S)
    assert len(blocks) >= 3
    for command, shown in blocks:
        result = cli(*shlex.split(command)[1:], "--data", str(tmp_path / "data"), env={"COLUMNS": "100"})
        assert result.exit_code == 0, f"{command}: {result.stderr}"
        printed = result.stdout.splitlines()
        assert printed[: len(shown.splitlines())] == shown.splitlines(), f"{command}:\n{result.stdout}"


def examples() -> list[str]:
    block = re.search(r"Examples \(each is run by the tests\):\n\n```\n(.*?)```", DOCS["cli.md"], re.S).group(1)
    return [line for line in block.splitlines() if line.startswith("benchkg ")]


@pytest.mark.slow
def test_readme_examples_run(data_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert len(examples()) >= 8
    for line in examples():
        args = shlex.split(line)[1:]
        result = cli(*args, "--data", str(data_copy)) if args[0] not in ("queries", "explain") else cli(*args)
        assert result.exit_code == 0, f"{line}: {result.stderr}"
        assert result.stdout.strip(), line


@pytest.mark.slow
def test_the_python_example_gives_a_dataframe(monkeypatch, tmp_path):
    import shutil

    from conftest import FULL_DATA

    block = re.search(r"### From Python\n.*?```python\n(.*?)```", README, re.S).group(1)
    assert len(block.strip().splitlines()) <= 5
    shutil.copytree(FULL_DATA, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(block, scope)
    df = scope["df"]
    assert list(df.columns) == scope["rows"].columns and len(df) == len(scope["rows"]) > 10
    top = df.iloc[0]
    assert top["accelerator_count"] > 0 and top["unit"] == "tokens/s" and top["claim"] == scope["rows"][0]["claim"]
