"""The saved-query format: a ``.rq`` file, its ``#+`` header and typed parameters, read once into a
:class:`SavedQuery` (running it is :mod:`benchkg.answers.queries`).

A saved query is ``queries/<name>.rq``. Its header says what it answers and which parameters it
takes::

    #+ summary: one line
    #+ description: a paragraph
    #+ param model id:models default=llama2-70b
    #+ param scenario enum:scenario default=server
    #+ chart: label=claim value=per_accelerator
    #+ claims: claim

``claims`` names the columns that hold claims: the comparison caveats of the answer are theirs.
In the query a parameter is written ``$model``.

``#+ separable: COLUMN`` says that each row stands on the claim in COLUMN alone: the slice is on that
claim, and no row depends on a claim the like-with-like defaults leave out (a listing; a pair keyed by
division, tier and unit). The answer and what its defaults left out are then read from one run of the
query with those defaults lifted (:mod:`benchkg.answers.answering`). A query that ranks or groups
across claims (the best per chip, per round) is not separable.

``#+ derived: NAME=VALUE[|VALUE]…`` says that for those parameters (given or by default; ``any`` is one
left unset) the query reads what the build derived instead of working it out: its body then runs with the
lines written ``#| …`` in place of the block between ``# live {`` and ``# live }`` (vendor-vs-audited reads
each vendor claim's default partner, ``bk:auditedPartner``, instead of pairing it with every candidate:
48 s -> a second at 100,000 claims; issue 65). As written, the body is the live query.
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from benchkg.answers.slices import SLICE_TYPES, SLICE_VALUES
from benchkg.kernel.errors import InputError, QueryError, UsageError
from benchkg.kernel.resources import QUERIES_DIR
from benchkg.kernel.sparqltext import check_depth, uses_service
from benchkg.kernel.vocab import (
    PREFIXES,
    SCHEMES,
    UNITS,
)
from benchkg.records.schema import KINDS

XSD = PREFIXES["xsd"]


PARAM_TYPES = ("id", "enum", "string", "integer", "decimal", "boolean", "iri")


@dataclass(frozen=True)
class Param:
    """One declared parameter of a saved query."""

    name: str
    type: str
    of: str = ""  # the kind of an id, the scheme of an enum
    default: str | None = None
    values: tuple[str, ...] = ()

    def allowed(self) -> tuple[str, ...]:
        if self.values:
            return self.values
        if self.type == "enum" and self.of == "unit":
            return tuple(UNITS) + (AUTO,)
        return SCHEMES.get(self.of, ()) if self.type == "enum" else ()

    def describe(self) -> str:
        kind = f"{self.type}:{self.of}" if self.of else self.type
        out = f"{self.name} ({kind})"
        if self.default is not None:
            out += f" default {self.default}"
        if self.allowed():
            out += f" one of {'|'.join(self.allowed())}"
        return out


@dataclass
class SavedQuery:
    """A query file with its header."""

    name: str
    path: Path
    text: str
    summary: str = ""
    description: str = ""
    params: dict[str, Param] = field(default_factory=dict)
    chart: tuple[str, str] | None = None  # (label column, numeric column)
    claims: tuple[str, ...] = ()  # the columns that hold claims: the answer's comparison caveats are theirs
    booleans: tuple[str, ...] = ()  # columns computed as true/false (Virtuoso answers those 1/0)
    slices: tuple[str, ...] = ()  # the slice parameters it takes (benchkg.answers.slices), in the header's order
    columns: tuple[str, ...] = ()  # the columns a table keeps first, most important first ("#+ columns:")
    rounds: str = ""  # the column holding each row's round: the rounds without a row are named ("#+ rounds:")
    axis: str = ""  # what the chart's value axis says ("#+ axis:"; the value column's name by default)
    then: str = ""  # "#+ then: NAME": a step of POST_STEPS the rows go through (at-interactivity)
    then_args: dict[str, str] = field(default_factory=dict)  # its KEY=VALUE words (a pair's sides, sort, top)
    whole: tuple[str, ...] = ()  # "#+ whole: COLUMN…": text a table never shortens (it drops columns first)
    keep: tuple[str, ...] = ()  # "#+ keep: COLUMN…": columns a table never drops for width (what makes a row honest)
    unpaired: tuple[str, str] | None = None  # "#+ unpaired: COLUMN PATTERN": the claims ?c of PATTERN a row could pair
    missing: str = ""  # "#+ missing: FACT": the unpaired claims lack FACT (the note names it, not a partner)
    separable: str = ""  # "#+ separable: COLUMN": each row stands on its claim in COLUMN alone (see below)
    derived: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "#+ derived:" (see above)

    def text_for(self, values: dict[str, str]) -> str:
        r"""The body to run with ``values`` (the parameters given): the derived one when every parameter of
        ``#+ derived:`` is one of its values there (given, or its default; ``any`` when neither), else the
        live one (see the module's docstring).

        >>> q = SavedQuery("q", Path("q.rq"), "A\n  #| B\n  # live {\n  C\n  # live }\n", derived={"n": ("x",)})
        >>> q.text_for({"n": "x"}), q.text_for({})
        ('A\n  B\n', 'A\n  # live {\n  C\n  # live }\n')
        """
        if not self.derived:
            return self.text
        asked = {
            name: values.get(name) or (self.params[name].default if name in self.params else None) or ANY
            for name in self.derived
        }
        if all(asked[name] in allowed for name, allowed in self.derived.items()):
            live = re.sub(r"(?ms)^[ \t]*# live \{$.*?^[ \t]*# live \}$\n?", "", self.text)
            return re.sub(r"(?m)^([ \t]*)#\| ?", r"\1", live)
        return re.sub(r"(?m)^[ \t]*#\|.*\n?", "", self.text)

    @property
    def builtin(self) -> bool:
        """Shipped with benchkg (trusted: none calls SERVICE, a test holds them to it)."""
        return self.path.parent.resolve() == QUERIES_DIR.resolve()

    def check_service(self, allow: bool = False) -> None:
        """:raises UsageError: for a query that is not benchkg's own and calls SERVICE, unless allowed:
        in its body or in a pattern of its header that benchkg runs (``#+ unpaired:``)."""
        if allow or self.builtin:
            return
        texts = [self.text]
        if self.unpaired:  # (its header is a comment to the body's check; the pattern runs all the same)
            prefixes = "".join(re.findall(r"(?im)^[ \t]*PREFIX[^\n]*\n", self.text))
            texts.append(f"{prefixes}SELECT ?c WHERE {{ {self.unpaired[1]} }}")
        if any(uses_service(text) for text in texts):
            raise UsageError(
                f"{self.path}: uses SERVICE, which makes this machine fetch another URL; "
                "run it with --allow-service if you trust it"
            )

    @property
    def lists(self) -> dict[str, str]:
        """The columns built with GROUP_CONCAT, by name, with their separator: their order is the
        engine's, so :func:`tidy` sorts their items."""
        found = {m.group(2): m.group(1) for m in _LIST.finditer(self.text)}
        for m in _BIND.finditer(self.text):  # a column bound from a list column is a list too
            source = next((name for name in re.findall(r"\?(\w+)", m.group(1)) if name in found), None)
            if source and m.group(2) not in found:
                found[m.group(2)] = found[source]
        return found


_HEADER = re.compile(r"^#\+\s*(\w+)\s*:?\s*(.*)$")


_BIND = re.compile(r"BIND\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*?)\s+AS\s+\?(\w+)\s*\)", re.I)


_LIST = re.compile(r'GROUP_CONCAT\s*\((?:[^()]|\([^()]*\))*?;\s*separator\s*=\s*"([^"]*)"\s*\)\s*AS\s*\?(\w+)', re.I)


def parse_query_file(path: Path) -> SavedQuery:
    """Read a ``.rq`` file and its ``#+`` header.

    :raises QueryError: for a header line that cannot be read.
    """
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError.at(
            Path(path),
            raw[: e.start].count(b"\n") + 1,
            "",
            f"not valid UTF-8 (byte 0x{raw[e.start]:02x}); save the query as UTF-8",
        ) from None
    return parse_query_text(text, Path(path))


def parse_query_text(text: str, path: Path) -> SavedQuery:
    """A query's text and ``#+`` header as :func:`parse_query_file` reads them (``path`` names it:
    the algebra's queries are read from the text they were written as).

    Long because it is one branch per header key, each a line or two, in one place: split, the keys of
    one header would be read in several.

    :raises QueryError: for a header line that cannot be read.
    """
    check_depth(text, str(path))
    query = SavedQuery(Path(path).stem, Path(path), text)
    for n, line in enumerate(text.split("\n"), 1):  # (a U+2028 inside a line never starts a header line)
        m = _HEADER.match(line.rstrip("\r"))
        if not m:
            continue
        key, rest = m.group(1), m.group(2).strip()
        if key in ("summary", "description"):
            setattr(query, key, (getattr(query, key) + " " + rest).strip())
        elif key == "param":
            param = _parse_param(rest, f"{path}:{n}")
            query.params[param.name] = param
        elif key == "claims":
            query.claims = tuple(rest.split())
        elif key == "booleans":
            query.booleans = tuple(rest.split())
        elif key == "slice":
            _parse_slice(query, rest, f"{path}:{n}")
        elif key == "columns":
            query.columns = tuple(rest.split())
        elif key == "rounds":
            query.rounds = rest.strip()
        elif key == "axis":
            query.axis = rest.strip()
        elif key == "whole":
            query.whole = tuple(rest.split())
        elif key == "keep":
            query.keep = tuple(rest.split())
        elif key == "unpaired":
            column, _, pattern = rest.partition(" ")
            if not pattern.strip() or "?c" not in pattern:
                raise QueryError(f"{path}:{n}: an unpaired line is '#+ unpaired: COLUMN PATTERN-ON-?c'")
            check_depth(pattern, f"{path}:{n}")  # (a comment to the body's check; it runs all the same)
            query.unpaired = (column, pattern.strip())
        elif key == "missing":
            query.missing = rest.strip()
        elif key == "separable":
            query.separable = rest.strip()
        elif key == "derived":
            specs = [w.partition("=") for w in rest.split()]
            if not specs or any(not value for _, _, value in specs):
                raise QueryError(f"{path}:{n}: a derived line is '#+ derived: NAME=VALUE[|VALUE]…'")
            query.derived = {name: tuple(value.split("|")) for name, _, value in specs}
        elif key == "then":  # "#+ then: NAME [KEY=VALUE …]" (shell quoting)
            words = shlex.split(rest) or [""]
            if words[0] not in POST_STEPS or not all("=" in w for w in words[1:]):
                raise QueryError(
                    f"{path}:{n}: '#+ then: {rest.strip()}' names no step; steps: {', '.join(POST_STEPS)} (then KEY=VALUE…)"
                )
            query.then, query.then_args = words[0], dict(w.split("=", 1) for w in words[1:])
        elif key == "chart":
            opts = dict(w.split("=", 1) for w in rest.split() if "=" in w)
            if set(opts) != {"label", "value"}:
                raise QueryError(f"{path}:{n}: a chart line is '#+ chart: label=COLUMN value=COLUMN'")
            query.chart = (opts["label"], opts["value"])
    if query.separable and (query.separable not in query.claims or query.then not in ("", "one-per-claim")):
        raise QueryError(
            f"{path}: '#+ separable: {query.separable}' names a column of '#+ claims:', in a query whose rows "
            "go through no step that ranks or merges them (one-per-claim at most)"
        )
    if not query.builtin and not query.claims and re.search(r"(?i)\bSELECT\b[^{]*\?claim\b", text):
        query.claims = ("claim",)  # a query of one's own with a claim column gets its caveats, header or not
    if not query.builtin:  # benchkg's own use COALESCE($x, ?x) knowingly; a test holds them to it
        _check_variables(query)
    return query


def _parse_slice(query: SavedQuery, rest: str, where: str) -> None:
    """The parameters of a ``#+ slice:`` line, each with its default or none, added to ``query``."""
    for spec in rest.split():
        name, _, default = spec.partition("=")
        if name not in SLICE_TYPES:
            close = difflib.get_close_matches(name, list(SLICE_TYPES), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise QueryError(f"{where}: {name!r} is not a slice parameter{hint}; they are {', '.join(SLICE_TYPES)}")
        type_, of = SLICE_TYPES[name]
        query.params[name] = Param(name, type_, of, default or None, SLICE_VALUES.get(name, ()))
        query.slices += (name,)


def _check_variables(query: SavedQuery) -> None:
    """:raises QueryError: for a parameter ``$x`` that is also the variable ``?x``: in SPARQL the two are
    one variable, so an unset parameter would join the column and quietly empty the answer."""
    code = PARAM_TOKEN.sub(lambda m: m.group(0) if m.group("param") else " ", query.text)
    for name in query.params:
        if f"${name}" in code and re.search(rf"\?{name}\b", code):
            raise QueryError(
                f"{query.path}: parameter ${name} is also the variable ?{name} (in SPARQL $x and ?x "
                f"are one variable, so an unset ${name} would filter on ?{name}); rename one of them"
            )


def _parse_param(spec: str, where: str) -> Param:
    words = spec.split()
    if len(words) < 2:
        raise QueryError(f"{where}: a param line is '#+ param NAME TYPE [default=V] [values=a|b]'")
    name, type_ = words[0], words[1]
    base, _, of = type_.partition(":")
    if base not in PARAM_TYPES:
        raise QueryError(f"{where}: parameter type {type_!r} is not one of {', '.join(PARAM_TYPES)}")
    if base == "id" and of not in KINDS:
        raise QueryError(f"{where}: id parameters name a kind, e.g. id:models")
    opts = dict(w.split("=", 1) for w in words[2:] if "=" in w)
    values = tuple(opts["values"].split("|")) if "values" in opts else ()
    return Param(name, base, of, opts.get("default"), values)


def saved_queries(queries_dir: Path | tuple[Path, ...] = QUERIES_DIR) -> dict[str, SavedQuery]:
    """Every saved query by name, of one folder or of several (benchkg's, then a data repository's).

    >>> "leaderboard" in saved_queries()
    True

    :raises InputError: for a query named like one of an earlier folder.
    """
    folders = (queries_dir,) if isinstance(queries_dir, (str, Path)) else queries_dir
    out: dict[str, SavedQuery] = {}
    for folder in folders:
        for path in sorted(Path(folder).glob("*.rq")):
            if path.stem in out:
                raise InputError.at(
                    path,
                    None,
                    "",
                    f"a saved query {path.stem!r} is built into benchkg; "
                    f"rename this file (a name means one question everywhere)",
                )
            out[path.stem] = parse_query_file(path)
    return out


def find_query(name_or_file: str, queries_dir: Path | tuple[Path, ...] = QUERIES_DIR) -> SavedQuery:
    """A saved query by name, or any ``.rq`` file by path: only that file is read and parsed.

    :raises UsageError: naming the saved queries when there is no such query.
    """
    path = Path(name_or_file)
    if path.suffix == ".rq" and path.is_file():
        return parse_query_file(path)
    if path.suffix == ".rq" and path.exists():
        raise UsageError(
            f"{name_or_file} is not a query file (a folder or a device); give a .rq file or a saved query's name"
        )
    folders = (queries_dir,) if isinstance(queries_dir, (str, Path)) else tuple(queries_dir)
    found = [Path(f) / f"{name_or_file}.rq" for f in folders if (Path(f) / f"{name_or_file}.rq").is_file()]
    if found and "/" not in name_or_file and name_or_file not in (".", ".."):
        if len(found) > 1:  # as saved_queries says it: a name means one question everywhere
            saved_queries(folders)
        return parse_query_file(found[0])  # only the query asked for is read
    known = sorted({p.stem for f in folders for p in Path(f).glob("*.rq")}, key=_folder_order(folders))
    close = difflib.get_close_matches(name_or_file, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise UsageError(f"no saved query {name_or_file!r}{hint}; saved queries: {', '.join(known)}")


def _folder_order(folders: tuple) -> "Callable[[str], tuple]":
    """A sort key giving names in the order :func:`saved_queries` lists them: folder by folder, by name."""
    where: dict[str, Any] = {}
    for n, folder in enumerate(folders):
        for path in Path(folder).glob("*.rq"):
            where.setdefault(path.stem, n)
    return lambda name: (where[name], name)


PARAM_TOKEN = re.compile(
    r"""
      (?P<string>'''.*?'''|\"\"\".*?\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<iri><[^<>"{}|^`\\\s]*>)
    | (?P<comment>\#[^\n]*)
    | (?P<param>\$[A-Za-z_][A-Za-z0-9_]*)
""",
    re.S | re.X,
)


#: a parameter value that unsets a default: the parameter then matches anything
ANY = "any"


#: the unit slice's value for "the unit most results of the rest of the slice are in"
AUTO = "auto"


#: the steps a saved query's rows may go through after the engine ("#+ then: NAME"), by name
POST_STEPS = ("at-interactivity", "one-per-claim", "pair", "median", "best")
