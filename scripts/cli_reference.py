"""Write docs/cli-reference.md from every command's ``--help`` (``tests/test_readme.py`` checks that the
file is what this script writes). Run after changing a command's options or help:

    .venv/bin/python scripts/cli_reference.py
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from benchkg.cli import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli-reference.md"
WIDTH = 100


def help_text(*args: str) -> str:
    """``benchkg ARGS --help`` as a terminal of WIDTH columns shows it."""
    result = CliRunner().invoke(app, [*args, "--help"], prog_name="benchkg", terminal_width=WIDTH)
    assert result.exit_code == 0, result.output
    return result.stdout.rstrip() + "\n"


def reference() -> str:
    """The whole page: benchkg's own help, then each command's, in the order ``--help`` lists them."""
    parts = [
        "# Command reference\n\n"
        "Generated from `--help` by `scripts/cli_reference.py`; `tests/test_readme.py` fails when it is out of\n"
        "date. What the commands are for, with examples: [cli.md](cli.md).\n",
        "## benchkg\n\n```\n" + help_text() + "```\n",
    ]
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        parts.append(f"## benchkg {name}\n\n```\n" + help_text(name) + "```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    DOC.write_text(reference(), encoding="utf-8")
    print(f"wrote {DOC}")
