"""Line numbers of the members of a JSON document, by JSON pointer.

``json.loads`` is fast but forgets positions; benchkg only needs a line when it reports a
problem, so this scanner runs on demand, on one file, after the fast parse has succeeded.
"""

from __future__ import annotations

import json
import re
from typing import Any

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SCALAR = re.compile(r"[^\s,\]}]+")


def escape_pointer(token: str) -> str:
    """Escape one reference token of a JSON pointer (RFC 6901).

    >>> escape_pointer("a/b~c")
    'a~1b~0c'
    """
    return token.replace("~", "~0").replace("/", "~1")


_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\],:]|\n|[^\s{}\[\],:"]+')


def pointer_lines(text: str) -> dict[str, int]:
    """Map every JSON pointer in ``text`` to the 1-based line where its member starts.

    For an object member that is the line of its key; for an array element, of its value.
    A repeated key keeps the line of its *second* occurrence, which is what a
    duplicate-key error should point at. ``text`` is JSON that has already parsed.

    >>> lines = pointer_lines('{\\n  "a": 1,\\n  "b": [\\n    "x",\\n    {"c": 2}\\n  ]\\n}')
    >>> lines["/a"], lines["/b"], lines["/b/0"], lines["/b/1/c"]
    (2, 3, 4, 5)
    """
    lines: dict[str, int] = {"": 1}
    line = 1
    # each frame: [pointer, is_object, key or index, expecting a key/value start]
    stack: list[list[Any]] = []
    pending: str | None = None  # pointer of the value about to start
    for m in _TOKENS.finditer(text):
        tok = m.group(0)
        if tok == "\n":
            line += 1
            continue
        top = stack[-1] if stack else None
        if top is not None and top[1] and top[3] and tok[0] == '"':
            child = f"{top[0]}/{escape_pointer(json.loads(tok))}"
            lines[child] = line
            pending, top[3] = child, False
            continue
        if tok == ":":
            continue
        if tok == ",":
            if top is not None:
                if top[1]:
                    top[3] = True
                else:
                    top[2] += 1
            continue
        if tok in "}]":
            stack.pop()
            continue
        if top is not None and not top[1]:  # an array element starts here
            pending = f"{top[0]}/{top[2]}"
            lines[pending] = line
        if tok in "{[":
            stack.append([pending if pending is not None else "", tok == "{", 0, True])
        pending = None
    return lines


def line_of(lines: dict[str, int], pointer: str) -> int:
    """The line of ``pointer``, or of its nearest ancestor that has one.

    >>> line_of({"": 1, "/a": 3}, "/a/0/b")
    3
    """
    while pointer and pointer not in lines:
        pointer = pointer.rsplit("/", 1)[0]
    return lines.get(pointer, 1)
