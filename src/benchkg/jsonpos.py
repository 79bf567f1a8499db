"""Line numbers of the members of a JSON document, by JSON pointer.

``json.loads`` is fast but forgets positions; benchkg only needs a line when it reports a
problem, so this scanner runs on demand, on one file, after the fast parse has succeeded.
"""
from __future__ import annotations

import json
import re

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SCALAR = re.compile(r"[^\s,\]}]+")


def escape_pointer(token: str) -> str:
    """Escape one reference token of a JSON pointer (RFC 6901).

    >>> escape_pointer("a/b~c")
    'a~1b~0c'
    """
    return token.replace("~", "~0").replace("/", "~1")


def pointer_lines(text: str) -> dict[str, int]:
    """Map every JSON pointer in ``text`` to the 1-based line where its member starts.

    For an object member that is the line of its key; for an array element, of its value.
    A repeated key keeps the line of its *second* occurrence, which is what a
    duplicate-key error should point at.

    >>> lines = pointer_lines('{\\n  "a": 1,\\n  "b": [\\n    "x",\\n    {"c": 2}\\n  ]\\n}')
    >>> lines["/a"], lines["/b"], lines["/b/0"], lines["/b/1/c"]
    (2, 3, 4, 5)
    """
    lines: dict[str, int] = {"": 1}
    pos = 0
    line = 1
    n = len(text)

    def skip_ws() -> None:
        nonlocal pos, line
        while pos < n and text[pos] in " \t\r\n":
            if text[pos] == "\n":
                line += 1
            pos += 1

    def value(pointer: str) -> None:
        nonlocal pos, line
        skip_ws()
        if pos >= n:
            return
        ch = text[pos]
        if ch == "{":
            pos += 1
            while True:
                skip_ws()
                if pos >= n or text[pos] == "}":
                    pos += 1
                    return
                if text[pos] == ",":
                    pos += 1
                    continue
                m = _STRING.match(text, pos)
                if not m:
                    return


                key = json.loads(m.group(0))
                child = f"{pointer}/{escape_pointer(key)}"
                lines[child] = line
                line += m.group(0).count("\n")
                pos = m.end()
                skip_ws()
                if pos < n and text[pos] == ":":
                    pos += 1
                value(child)
        elif ch == "[":
            pos += 1
            index = 0
            while True:
                skip_ws()
                if pos >= n or text[pos] == "]":
                    pos += 1
                    return
                if text[pos] == ",":
                    pos += 1
                    continue
                child = f"{pointer}/{index}"
                lines[child] = line
                value(child)
                index += 1
        elif ch == '"':
            m = _STRING.match(text, pos)
            end = m.end() if m else n
            line += text.count("\n", pos, end)
            pos = end
        else:
            m = _SCALAR.match(text, pos)
            pos = m.end() if m else pos + 1

    value("")
    return lines


def line_of(lines: dict[str, int], pointer: str) -> int:
    """The line of ``pointer``, or of its nearest ancestor that has one.

    >>> line_of({"": 1, "/a": 3}, "/a/0/b")
    3
    """
    while pointer and pointer not in lines:
        pointer = pointer.rsplit("/", 1)[0]
    return lines.get(pointer, 1)
