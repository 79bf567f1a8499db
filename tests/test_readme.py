"""The README cannot drift: its first lines, every command, every saved query, and its examples run."""

from __future__ import annotations

import re
import shlex

import pytest

from benchkg.answers.queries import saved_queries
from benchkg.cli import app
from benchkg.kernel.resources import ROOT
from conftest import cli

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands():
    head = "\n".join(README.splitlines()[:6])
    assert "make demo" in head and "make test" in head


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_every_command_is_documented():
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        assert f"`benchkg {name}" in README, f"benchkg {name} is not in the README"


def test_every_saved_query_is_documented():
    for name in saved_queries():
        assert f"| `{name}` |" in README, f"saved query {name} is not in the README's table"


def examples() -> list[str]:
    block = re.search(r"Examples \(each is run by the tests\):\n\n```\n(.*?)```", README, re.S).group(1)
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
    assert len(block.strip().splitlines()) == 3
    shutil.copytree(FULL_DATA, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(block, scope)
    df = scope["df"]
    assert list(df.columns) == scope["rows"].columns and len(df) == len(scope["rows"]) > 10
    top = df.iloc[0]
    assert top["accelerator_count"] > 0 and top["unit"] == "tokens/s" and top["claim"] == scope["rows"][0]["claim"]
