"""Text for a terminal: what a record says is shown, never obeyed.

A title, a quote or a system description is someone else's text. Written raw to a terminal, an
escape sequence in it can recolour, retitle or clear the screen, hide the lines after it, or (in
some terminals) write to the clipboard; a carriage return can overwrite the line before it, and a
bidirectional override can make text read in another order than it runs. Everything benchkg writes
for people goes through :func:`printable`.
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
    return _UNSAFE.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text
    )
