"""The README cannot drift: its first lines, every command, every saved query, and its examples run."""
from __future__ import annotations

import re
import shlex

from benchkg.cli import app
from benchkg.queries import saved_queries
from benchkg.resources import ROOT

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


def test_readme_examples_run(data_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert len(examples()) >= 8
    for line in examples():
        args = shlex.split(line)[1:]
        result = cli(*args, "--data", str(data_copy)) if args[0] != "queries" else cli(*args)
        assert result.exit_code == 0, f"{line}: {result.stderr}"
        assert result.stdout.strip(), line
