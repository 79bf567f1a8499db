"""The exceptions benchkg raises; the CLI turns each into a message and an exit code.

Exit codes (docs/cli.md, "Exit codes"): 0 fine, 1 the data breaks a convention, 2 the input could not be read
or the command was misused. Every error here maps to 2; convention breaks are findings, not
exceptions.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass


class BenchkgError(Exception):
    """Base of every error benchkg reports to a user (exit 2)."""

    exit_code = 2


@dataclass(frozen=True)
class InputProblem:
    """One thing wrong with one input file: where, which field, what to do."""

    path: str | os.PathLike[str] | None
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        path = single_line(str(self.path))
        where = f"{path}:{self.line}" if self.line else path
        field = f" {single_line(self.field)}:" if self.field else ""
        return f"{where}:{field} {single_line(self.message)}"


def single_line(text: str) -> str:
    r"""``text`` with its line breaks and other unprintable characters escaped: a newline in a file
    name, a key or a value must not start a line of its own (in a CI log, a line starting with ``::``
    is a workflow command).

    >>> single_line("notes\n::error::forged\u2028x")
    'notes\\n::error::forged\\u2028x'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


class InputError(BenchkgError):
    """Records that could not be read; nothing was written."""

    def __init__(self, problems: list[InputProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def at(cls, path: str | os.PathLike[str] | None, line: int | None, pointer: str, message: str) -> InputError:
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


class TimeLimitError(BenchkgError):
    """A data repository's own shape or saved query did not end within its time limit
    (:mod:`benchkg.kernel.limits`)."""


#: what the system says when a write cannot be done for want of room or right, and what to do then
_CANNOT_WRITE = {
    errno.ENOSPC: "the disk is full: free some space and run it again",
    errno.EDQUOT: "the disk quota is used up: free some space and run it again",
    errno.EFBIG: "the file would pass the size limit (ulimit -f): raise the limit and run it again",
    errno.EROFS: "the file system is read-only: write somewhere else",
    errno.EBADF: "the output is closed: give the command somewhere to write",
}


#: how RocksDB (which gives no errno) words the same
_WORDS = (
    ("No space left", errno.ENOSPC),
    ("Disk quota", errno.EDQUOT),
    ("File too large", errno.EFBIG),
    ("Read-only file system", errno.EROFS),
)


def cannot_write(error: BaseException) -> str | None:
    """The message for an error that says a write could not be done (full disk, file-size limit,
    read-only file system, closed output), or None for any other error: those are benchkg's bugs.

    >>> cannot_write(OSError(errno.ENOSPC, "No space left on device", "site/index.html"))
    'cannot write site/index.html: the disk is full: free some space and run it again'
    >>> cannot_write(OSError("IO error: While appending to file: 000157.sst: File too large"))
    'cannot write: the file would pass the size limit (ulimit -f): raise the limit and run it again'
    >>> cannot_write(ValueError("x")) is None
    True
    """
    why = write_refused(error)
    if why is None:
        return None
    filename = getattr(error, "filename", None)
    where = f" {filename}" if filename else ""
    return f"cannot write{where}: {why}"


def write_refused(error: BaseException) -> str | None:
    """Why the system refused a write, and what to do (:func:`cannot_write` without the file), or None."""
    if not isinstance(error, OSError):
        return None
    code = error.errno or next((c for words, c in _WORDS if words in str(error)), None)  # RocksDB's have none
    return _CANNOT_WRITE.get(code) if code is not None else None
