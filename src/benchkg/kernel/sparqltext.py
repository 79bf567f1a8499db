"""SPARQL text from files benchkg did not write, read before any engine sees it: whether it calls
``SERVICE`` (which makes the machine that runs it fetch another URL) and whether it nests deeper than
a parser survives (pyoxigraph's overflows its stack, killing the process, at a few thousand levels)."""

from __future__ import annotations

import re

from benchkg.kernel.errors import QueryError, UsageError

#: every character at which Python's ``str.splitlines()`` (and so a reader of ``#+`` headers, a log or
#: a terminal) starts a new line: none reaches query text raw from a value a user typed
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_ECHAR = {"\n": "\\n", "\r": "\\r", "\x0c": "\\f", "\\": "\\\\", '"': '\\"'}


def sparql_string(text: str) -> str:
    r"""``text`` as a SPARQL string literal on one line: backslash and quote escaped, every line break
    written as an escape (``\n``, ``\r``, ``\f`` or ``\uXXXX``), so it can never end a comment or a
    header line of the query it goes into.

    >>> print(sparql_string('say "hi"\nthen\u2028#+ unpaired: x'))
    "say \"hi\"\nthen\u2028#+ unpaired: x"
    >>> len(sparql_string("a\u2028b").splitlines())
    1
    """
    return '"' + "".join(_ECHAR.get(c) or (f"\\u{ord(c):04X}" if c in LINE_BREAKS else c) for c in text) + '"'


def one_line_term(term_text: str) -> str:
    r"""The text of an RDF term (``str()`` of a pyoxigraph literal or IRI) with the line breaks that
    pyoxigraph leaves raw (U+0085, U+2028, U+2029) written as ``\uXXXX``, which means the same
    character inside a string or an IRI.

    >>> one_line_term('"a\u2028b"')
    '"a\\u2028b"'
    """
    return "".join(f"\\u{ord(c):04X}" if c in LINE_BREAKS else c for c in term_text)


def refuse_line_breaks(option: str, text: str) -> None:
    """:raises UsageError: when ``text`` (a value typed for ``option``) holds a line break of any kind.

    >>> refuse_line_breaks("--where", "platform~a\u2028#+ then: median")
    Traceback (most recent call last):
    ...
    benchkg.kernel.errors.UsageError: --where 'platform~a\u2028#+ then: median': a value cannot hold a line break (U+2028); write it on one line
    """
    found = next((c for c in text if c in LINE_BREAKS), None)
    if found is not None:
        raise UsageError(
            f"{option} {text!r}: a value cannot hold a line break (U+{ord(found):04X}); write it on one line"
        )


#: how deep braces, parentheses and brackets may nest in a query or a shape's SPARQL; benchkg's own
#: queries and the results algebra's reach 8, pyoxigraph crashes between 1,000 and 5,000
MAX_DEPTH = 100

_TOKEN = re.compile(
    r"""
      (?P<skip>'\'\'.*?'\'\'|\"\"\".*?\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|<[^<>"{}|^`\\\s]*>|\#[^\n]*)
    | (?P<bracket>[{}()\[\]])
""",
    re.S | re.X,
)
_OPEN = "{(["


def nesting(text: str) -> tuple[int, int]:
    r"""The deepest nesting of ``{``, ``(`` and ``[`` in ``text`` (outside strings, IRIs and
    comments) and the line where it is first reached.

    >>> nesting('SELECT * { ?s ?p ?o FILTER((1)) } # {{{{')
    (3, 1)
    >>> nesting('SELECT * {\n ?s <http://x/#(> "{{{" }')
    (1, 1)
    """
    deepest, line, depth, at = 0, 1, 0, 0
    for m in _TOKEN.finditer(text):
        token = m.group("bracket")
        if not token:
            continue
        depth += 1 if token in _OPEN else -1
        if depth > deepest:
            deepest, at = depth, m.start()
    if deepest:
        line = text.count("\n", 0, at) + 1
    return deepest, line


_FROM = re.compile(r"(?<![?$:\w.-])FROM(?![\w:.-])", re.I)


def names_its_dataset(text: str) -> bool:
    """Whether a query says which graphs it reads (``FROM`` or ``FROM NAMED``): then the engine must
    answer from those, not from the union of the store's graphs that benchkg queries by default.

    >>> names_its_dataset('SELECT * FROM <http://x/g> WHERE { ?s ?p ?o }')
    True
    >>> names_its_dataset('SELECT ?from WHERE { ?s <http://x/from> ?from ; ex:from "FROM" } # FROM')
    False
    """
    code = _TOKEN.sub(lambda m: " " if m.group("skip") else m.group(0), text)
    return bool(_FROM.search(code))


_PROLOGUE = re.compile(r"\s*(?:(?:PREFIX\s+[\w.-]*:\s*|BASE\s*)<[^>]*>\s*)*", re.I)
_UPDATE = re.compile(r"(?:INSERT|DELETE|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY|WITH)\b", re.I)


def is_update(text: str) -> bool:
    r"""Whether ``text`` is a SPARQL Update (after its prefixes and comments), which a read-only
    endpoint refuses as such rather than as a query that does not parse.

    >>> is_update('# add one\nPREFIX ex: <http://x/>\nINSERT DATA { ex:a ex:b ex:c }')
    True
    >>> is_update('SELECT * WHERE { ?s ?p ?o }')
    False
    """
    code = _TOKEN.sub(lambda m: " " if m.group(0).startswith("#") else m.group(0), text)  # comments out
    prologue = _PROLOGUE.match(code)
    return bool(_UPDATE.match(code, prologue.end() if prologue else 0))


def check_depth(text: str, where: str) -> None:
    """:raises QueryError: naming ``where`` and the line, for SPARQL nested deeper than :data:`MAX_DEPTH`.

    >>> check_depth("SELECT * WHERE " + "{" * 101 + "}" * 101, "q.rq")
    Traceback (most recent call last):
    ...
    benchkg.kernel.errors.QueryError: q.rq:1: nests 101 levels deep; benchkg reads SPARQL nested at most 100 levels
    """
    deepest, line = nesting(text)
    if deepest > MAX_DEPTH:
        raise QueryError(
            f"{where}:{line}: nests {deepest} levels deep; benchkg reads SPARQL nested at most {MAX_DEPTH} levels"
        )


_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def uses_service(text: str) -> bool:
    r"""Whether a query calls ``SERVICE`` (which makes the machine that runs it fetch another URL),
    read from its parse tree, not its text: comments, line breaks, case and ``\u`` escapes do not
    hide it, and the word in a string or an IRI is not a call. A query without the word at all
    (after SPARQL's ``\u`` escapes, which come before parsing) calls none; one with the word that
    rdflib's parser cannot read counts as calling it: what cannot be checked is not run.

    >>> uses_service('SELECT * { SERVICE <http://169.254.169.254/> { ?s ?p ?o } }')
    True
    >>> uses_service('SELECT * { \\u0053ervice#x\n<http://h/> { ?s ?p ?o } }')
    True
    >>> uses_service('SELECT * { ?s <http://x/SERVICE> "SERVICE" } # SERVICE')
    False
    """
    plain = _ESCAPE.sub(
        lambda m: (
            chr(int(m.group(1) or m.group(2), 16)) if int(m.group(1) or m.group(2), 16) < 0x110000 else m.group(0)
        ),
        text,
    )
    if "service" not in plain.lower():
        return False
    from rdflib.plugins.sparql.parser import parseQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    try:
        tree = parseQuery(text)
    except Exception:  # noqa: BLE001 - pyparsing's and rdflib's own errors: unreadable, so not run
        return True

    def calls(node: object) -> bool:
        if isinstance(node, CompValue):
            return node.name == "ServiceGraphPattern" or any(calls(v) for v in node.values())
        if isinstance(node, (list, tuple)) or hasattr(node, "asList"):
            return any(calls(v) for v in node)  # type: ignore[attr-defined]  # (a ParseResults iterates)
        return False

    return calls(tree)


def parse_error(name: str, text: str, error: Exception) -> str:
    r"""What a parser's complaint means for the person who wrote the query.

    >>> parse_error("q", "SELECT * { ?s ?p \x00 }", SyntaxError("error at 1:18: expected OPTIONAL"))
    'q: the query holds a control character (\\x00) at line 1; save it as plain text'
    >>> parse_error("q", "this is prose", SyntaxError("error at 1:6: expected CONSTRUCT"))
    'q: the query does not parse (error at 1:6: expected CONSTRUCT): check the SPARQL near line 1, column 6; a query starts with PREFIX, SELECT, ASK, CONSTRUCT or DESCRIBE'
    """
    for n, line in enumerate(text.splitlines(), 1):
        bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", line)
        if bad:
            return f"{name}: the query holds a control character (\\x{ord(bad.group()):02x}) at line {n}; save it as plain text"
    where = re.search(r"(\d+):(\d+)", str(error))
    near = f": check the SPARQL near line {where.group(1)}, column {where.group(2)}" if where else ""
    return (
        f"{name}: the query does not parse ({error}){near}; a query starts with PREFIX, SELECT, ASK, CONSTRUCT "
        "or DESCRIBE"
    )
