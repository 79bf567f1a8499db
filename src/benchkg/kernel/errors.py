"""The exceptions benchkg raises; the CLI turns each into a message and an exit code.

Exit codes (DESIGN §5): 0 fine, 1 the data breaks a convention, 2 the input could not be read
or the command was misused. Every error here maps to 2; convention breaks are findings, not
exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class BenchkgError(Exception):
    """Base of every error benchkg reports to a user (exit 2)."""

    exit_code = 2


@dataclass(frozen=True)
class InputProblem:
    """One thing wrong with one input file: where, which field, what to do."""

    path: Path
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        path = str(self.path)
        if not path.isprintable():  # a newline in a file name must not split the message
            path = path.encode("unicode_escape").decode("ascii")
        where = f"{path}:{self.line}" if self.line else path
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class InputError(BenchkgError):
    """Records that could not be read; nothing was written."""

    def __init__(self, problems: list[InputProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def at(cls, path, line: int | None, pointer: str, message: str) -> InputError:
        """The error of one problem: in ``path`` at ``line`` (or None), field ``pointer`` (a JSON pointer).

        >>> str(InputError.at("data/models/m.json", 3, "/name", "expected a string"))
        'data/models/m.json:3: /name: expected a string'
        """
        return cls([InputProblem(path, line, pointer, message)])


class UsageError(BenchkgError):
    """The command was called with arguments it cannot use."""


class QueryError(BenchkgError):
    """A saved or ad-hoc query could not be parsed, bound or run."""


class StoreError(BenchkgError):
    """The embedded or remote store could not be opened, read or written."""
