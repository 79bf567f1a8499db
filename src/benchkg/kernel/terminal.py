"""Text for a terminal: what a record says is shown, never obeyed.

A title, a quote or a system description is someone else's text. Written raw to a terminal, an
escape sequence in it can recolour, retitle or clear the screen, hide the lines after it, or (in
some terminals) write to the clipboard; a carriage return can overwrite the line before it, and a
bidirectional override can make text read in another order than it runs. Everything benchkg writes
for people goes through :func:`printable`. A cell of a table (for a terminal, Markdown, CSV, TSV) goes
through :func:`one_line` too: a line break in it would start a row of the text's choosing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: a progress callback: (done, total), as long work reports it (the CLI draws the bar)
Progress = Callable[[int, int], None]

#: C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embeddings and isolates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    r"""``text`` with every control character shown as an escape (``\x1b``) instead of acted on.

    >>> printable("\x1b[2J RED\rfake\tok\n")
    '\\x1b[2J RED\\x0dfake\tok\n'
    >>> printable("abc\u202edcba")
    'abc\\u202edcba'
    """
    return _UNSAFE.sub(_escape, text)


#: every line break a reader of lines may split at (:meth:`str.splitlines`'s), CR LF as two
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    r"""``text`` with every line break shown as an escape, as :func:`printable` shows a control character,
    so a cell of a table, a CSV or a TSV file stays in its row.

    >>> one_line("Fast\r=1+1\n=2+2\u2028=3+3\x85")
    'Fast\\x0d=1+1\\x0a=2+2\\u2028=3+3\\x85'
    """
    return _LINE_BREAK.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    """A character as its escape: ``\\x1b``, ``\\u2028``."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
