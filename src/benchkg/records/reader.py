"""Load ``data/<kind>/<id>.json`` into typed records that know the file and line of every field.

Loading is all-or-nothing: every problem in every file is collected, and if there is any the
caller gets one :class:`InputError` listing them all (exit 2) before anything is written.

Long because every field's check carries its file, line and pointer, and the checks of all kinds
share those helpers.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlparse

from benchkg.kernel.errors import InputError, InputProblem
from benchkg.kernel.jsonpos import escape_pointer, line_of, pointer_lines
from benchkg.kernel.matching import as_written_problem, written_interval
from benchkg.records.layout import Layout, layout_for, reference_names, shape_files
from benchkg.records.schema import BENCHMARK_FIELD_PATHS, ID_PATTERN, KINDS, SCHEMA, Field
from benchkg.records.values import value_problems

MAX_FILE_BYTES = 1_000_000
MAX_ABS_NUMBER = Decimal("1e15")
IGNORED_FILES = {"README.md", ".gitkeep", ".DS_Store"}


@dataclass
class Record:
    """One record file: its kind, id, parsed data and where it came from."""

    kind: str
    id: str
    path: Path
    data: dict[str, Any]
    digest: str = ""
    #: the file's state when its bytes were read (:func:`stat_key`): what a build records beside the digest
    stat: str = ""
    _lines: dict[str, int] | None = field(default=None, repr=False, compare=False)

    def line(self, pointer: str) -> int:
        """The line of the member at ``pointer`` (of its nearest ancestor if absent)."""
        if self._lines is None:
            self._lines = pointer_lines(self.path.read_text(encoding="utf-8"))
        return line_of(self._lines, pointer)


class _Reject(Exception):
    def __init__(self, pointer: str, message: str, line: int | None = None):
        self.pointer, self.message, self.line = pointer, message, line


def _no_constant(name: str) -> NoReturn:
    raise _Reject("", f"{name} is not a number JSON allows; write a finite number or omit the field")


#: the numbers the store holds exactly (Oxigraph: xsd:integer is 64-bit, xsd:decimal has 18 places and
#: 20 integer digits); a number outside them would be stored ill-typed and skip every numeric check
MAX_INTEGER_DIGITS = 18
MAX_DECIMAL_PLACES = 18
MAX_DECIMAL_DIGITS = 18  # before the point
#: how deep a record may nest (the deepest benchkg field is 4 levels down)
MAX_DEPTH = 64


def bounded_number(text: str) -> int | Decimal:
    """A JSON number as benchkg keeps it (an int, or an exact Decimal), if the store can hold it.

    >>> bounded_number("72"), bounded_number("910621.36"), bounded_number("1.5e3")
    (72, Decimal('910621.36'), Decimal('1.5E+3'))
    >>> bounded_number("1e-999999999")
    Traceback (most recent call last):
    ValueError: 1e-999999999 has more than 18 decimal places; round it
    """
    if re.fullmatch(r"-?\d+", text):
        if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
            raise ValueError(
                f"{text[:24]}{'…' if len(text) > 24 else ''} has {len(text.lstrip('-'))} digits; "
                f"a whole number has at most {MAX_INTEGER_DIGITS}"
            )
        return int(text)
    if len(text) > 64:
        raise ValueError(
            f"{text[:24]}… is {len(text)} characters long; write the number with at most "
            f"{MAX_DECIMAL_PLACES} decimal places"
        )
    value = Decimal(text)  # the text is short: this cannot hang
    sign, digits, exponent = value.as_tuple()
    if isinstance(exponent, int) and exponent < -MAX_DECIMAL_PLACES:
        raise ValueError(f"{text} has more than {MAX_DECIMAL_PLACES} decimal places; round it")
    if value.adjusted() >= MAX_DECIMAL_DIGITS:
        raise ValueError(f"{text} is too large (at most {MAX_DECIMAL_DIGITS} digits before the point)")
    return value


class _BadNumber(_Reject):
    """A number the store cannot hold; ``text`` is the number as written, to find its place."""

    def __init__(self, text: str, message: str):
        super().__init__("", message, None)
        self.text = text


def _number(text: str) -> int | Decimal:
    try:
        return bounded_number(text)
    except ValueError as e:
        raise _BadNumber(text, str(e)) from None


_CONSTANT = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*-?(?:NaN|Infinity)\b')


def _constant_place(text: str) -> tuple[str, int | None]:
    """The pointer-ish key and line of the first NaN/Infinity value in ``text``."""
    m = _CONSTANT.search(text)
    if not m:
        return "", None
    return "/" + m.group(1), text.count("\n", 0, m.start()) + 1


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise _Reject("", f"duplicate key {key!r}", None)
        out[key] = value
    return out


def parse_json(raw: bytes) -> dict[str, Any]:
    """Parse one record file strictly: UTF-8 without BOM, one object, no NaN/Infinity, no
    duplicate keys; decimals stay exact.

    >>> parse_json(b'{"value": 910621.36}')
    {'value': Decimal('910621.36')}
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raise _Reject("", "file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM", 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise _Reject("", f"not valid UTF-8 (byte 0x{raw[e.start]:02x} at offset {e.start})", line)
    if not text.strip():
        raise _Reject("", "file is empty; a record is one JSON object", 1)
    try:
        data = json.loads(
            text, parse_float=_number, parse_int=_number, parse_constant=_no_constant, object_pairs_hook=_pairs
        )
    except json.JSONDecodeError as e:
        raise _Reject("", f"malformed JSON: {e.msg} (column {e.colno})", e.lineno)
    except RecursionError:
        raise _Reject("", f"nested too deep; a record nests at most {MAX_DEPTH} levels", 1) from None
    except _BadNumber as e:
        e.pointer, e.line = _number_place(text, e.text)
        raise
    except _Reject as e:
        if e.message.startswith("duplicate key"):
            key = e.message.split("'")[1]
            e.pointer, e.line = f"/{key}", _duplicate_line(text, key)
        else:
            e.pointer, e.line = _constant_place(text)
        raise
    if not isinstance(data, dict):
        got = _JSON_TYPE.get(type(data), type(data).__name__)
        raise _Reject("", f"a record is one JSON object, not a JSON {got}", 1)
    if _depth(data) > MAX_DEPTH:
        raise _Reject("", f"nested too deep; a record nests at most {MAX_DEPTH} levels", 1)
    if "\\ud" in text.lower():  # only an escape makes a lone surrogate: UTF-8 cannot hold one
        pointer = _lone_surrogate(data)
        if pointer is not None:
            raise _Reject(
                pointer,
                "holds a lone UTF-16 surrogate (an escape like \\ud800 without its pair); "
                "it is not text: remove it or write the whole character",
                None,
            )
    return data


def _depth(value: object, limit: int = MAX_DEPTH + 1) -> int:
    """How deep ``value`` nests (counted up to ``limit``)."""
    if limit <= 0 or not isinstance(value, (dict, list)):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def _lone_surrogate(value: object, pointer: str = "") -> str | None:
    r"""The JSON pointer of the first string (or key) holding a lone surrogate, if any.

    >>> _lone_surrogate({"a": ["ok", "x\ud800"]})
    '/a/1'
    >>> _lone_surrogate({"a": "\U0001F600"}) is None
    True
    """
    if isinstance(value, str):
        return pointer if any("\ud800" <= c <= "\udfff" for c in value) else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        here = f"{pointer}/{escape_pointer(str(key))}"
        found = _lone_surrogate(key, here) if isinstance(key, str) else None
        found = found or _lone_surrogate(item, here)
        if found is not None:
            return found
    return None


def _number_place(text: str, start: str) -> tuple[str, int | None]:
    """The key (as a pointer, like :func:`_constant_place`) and line of the first number in ``text``
    that starts with ``start``."""
    m = re.search(r'(?:"((?:[^"\\]|\\.)*)"\s*:\s*)?(?<![\w.])' + re.escape(start), text)
    if not m:
        return "", None
    return ("/" + m.group(1) if m.group(1) is not None else ""), text.count("\n", 0, m.start()) + 1


def _duplicate_line(text: str, key: str) -> int | None:
    needle = json.dumps(key)
    hits = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[1] if len(hits) > 1 else (hits[0] if hits else None)


#: ids a record may not have: "any" unsets a query parameter, and a site page is index.html in the
#: record's folder beside the kind's own index files
RESERVED_IDS = frozenset({"any"})
RESERVED_PREFIX = "index."


def reserved_id(record_id: str) -> str:
    """Why ``record_id`` is reserved ("" when it is not).

    >>> reserved_id("any")
    "'any' is reserved (a query parameter set to any matches every record); rename the file and its id"
    >>> reserved_id("index.html")[:30], reserved_id("h100")
    ("'index.html' is reserved (the ", '')
    """
    if record_id in RESERVED_IDS:
        return (
            f"{record_id!r} is reserved (a query parameter set to any matches every record); rename the file and its id"
        )
    if record_id.startswith(RESERVED_PREFIX):
        return (
            f"{record_id!r} is reserved (the site writes index.html, index.ttl and index.jsonld beside each "
            "kind's records); rename the file and its id"
        )
    return ""


def whole_numbers(value: dict[str, Any], fields: dict[str, Field]) -> dict[str, Any]:
    """``value`` with every whole-number field that JSON wrote with a fraction or an exponent (72.0,
    7.2e1) as the int it is (``check_fields`` has let only integral ones through).

    >>> from benchkg.records.schema import SCHEMA
    >>> whole_numbers({"accelerator_count": Decimal("7.2E+1")}, SCHEMA["benchmarks"])
    {'accelerator_count': 72}
    """
    out = {}
    for key, item in value.items():
        spec = fields.get(key)
        out[key] = _whole(item, spec) if spec is not None else item
    return out


def _whole(item: object, spec: Field) -> object:
    if spec.type == "int" and isinstance(item, Decimal):
        return int(item)
    if spec.type == "obj" and isinstance(item, dict):
        return whole_numbers(item, spec.fields)
    if spec.type == "list" and isinstance(item, list) and spec.items is not None:
        return [_whole(i, spec.items) for i in item]
    return item


def _suggest(name: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_fields(
    data: dict[str, Any], fields: dict[str, Field], pointer: str = "", shapes: frozenset[str] | None = None
) -> list[tuple[str, str]]:
    """Type-check ``data`` against ``fields``; return (pointer, message) for each problem.
    ``shapes`` are the shape names a field may name (benchkg's by default).

    >>> from benchkg.records.schema import SCHEMA
    >>> check_fields({"id": "x", "nmae": "X"}, SCHEMA["models"])
    [('/nmae', "unknown field 'nmae' (did you mean 'name'?)")]
    """
    problems: list[tuple[str, str]] = []
    for key, value in data.items():
        where = f"{pointer}/{escape_pointer(key)}"
        spec = fields.get(key)
        if spec is None:
            problems.append((where, f"unknown field {key!r}{_suggest(key, fields)}"))
            continue
        problems.extend(_check_value(value, spec, where, shapes))
    return problems


_JSON_TYPE = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    Decimal: "number",
    type(None): "null",
}


def _check_value(
    value: object, spec: Field | None, where: str, shapes: frozenset[str] | None = None
) -> list[tuple[str, str]]:
    if spec is None:  # (a list's items always have a spec)
        return []
    got = _JSON_TYPE.get(type(value), type(value).__name__)
    if value is None:
        return [(where, "null is not allowed; omit the field, or list it in omitted_by_source")]
    if spec.type == "obj":
        if not isinstance(value, dict):
            return [(where, f"expected an object, got {got}")]
        return check_fields(value, spec.fields, where, shapes)
    if spec.many and isinstance(value, list):
        out = []
        for i, item in enumerate(value):
            out.extend(_check_value(item, Field(spec.type, spec.pred, scheme=spec.scheme), f"{where}/{i}", shapes))
        return out
    if spec.type == "list":
        if not isinstance(value, list):
            return [(where, f"expected an array, got {got}")]
        out = []
        for i, item in enumerate(value):
            out.extend(_check_value(item, spec.items, f"{where}/{i}", shapes))
        return out
    if spec.type in ("int", "num"):
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
            hint = ""
            if isinstance(value, str) and re.fullmatch(r"-?[\d,]+(\.\d+)?", value.strip()):
                hint = f"; write {value.replace(',', '').strip()} without quotes or separators"
            return [(where, f"expected a number, got {got}{hint}")]
        if spec.type == "int" and not (isinstance(value, int) or value == value.to_integral_value()):
            return [(where, f"expected a whole number, got {value}")]
        if abs(Decimal(value)) > MAX_ABS_NUMBER:
            return [(where, f"number {value} is out of range (|x| ≤ 1e15)")]
        return []
    if spec.type == "bool":
        return [] if isinstance(value, bool) else [(where, f"expected true or false, got {got}")]
    if not isinstance(value, str):
        return [(where, f"expected a string, got {got}")]
    if spec.type == "date":
        try:  # fromisoformat also takes week dates (2026-W40-1) and basic forms (20261004): not here
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError
            dt.date.fromisoformat(value)
        except ValueError:
            return [(where, f"{value[:40]!r} is not a calendar date; write YYYY-MM-DD, e.g. 2026-10-04")]
    if spec.type == "url":
        parsed = urlparse(value)
        if parsed.scheme not in ("http", "https") or not parsed.netloc or any(c in value for c in ' <>"{}|\\^`'):
            return [(where, f"{value!r} is not an http(s) URL")]
    if spec.type == "field-name" and value not in BENCHMARK_FIELD_PATHS:
        return [(where, f"{value!r} is not a benchmark field{_suggest(value, BENCHMARK_FIELD_PATHS)}")]
    if spec.type == "shape":
        shapes = shape_names() if shapes is None else shapes
        if value not in shapes:
            return [(where, f"{value!r} is not a shape of shapes/{_suggest(value, shapes)}")]
    if spec.type == "ref" and not value:
        return [(where, "empty id")]
    return []


@functools.lru_cache(maxsize=4)
def shape_names(shape_dirs: tuple[Path, ...] = ()) -> frozenset[str]:
    """The names of the shapes in ``shape_dirs`` (benchkg's ``shapes/`` by default), read from the
    files' text: parsing them takes 0.3 s.

    >>> "samples-times-tokens-agrees" in shape_names()
    True
    """
    pattern = re.compile(r"^bkshape:([A-Za-z0-9_.-]+)\s+a\s+sh:", re.M)
    return frozenset(
        name for path in shape_files(shape_dirs) for name in pattern.findall(path.read_text(encoding="utf-8"))
    )


class _TooBig(Exception):
    """A file benchkg will not read as a record (too large, or not a regular file)."""


#: a file changed less than this long before it was read may change again within the same tick of the
#: file system's clock and keep its size, mtime and ctime (ext4 stamps in jiffies, FAT in 2 s): a build
#: does not trust its stat next time and reads it again
RACY_S = 2.0
#: the prefix of a stat key that never matches: the next build reads and hashes the file again
RACY = "racy"


def stat_key(st: os.stat_result, now_ns: int | None = None) -> str:
    """What a build records of a file's state beside its content digest: a digest of its size, mtime,
    ctime and inode (the store can be served: it does not tell them). ctime is set by the kernel on
    any change (a ``touch -d`` that puts the mtime back moves it), so an unchanged key means an
    unchanged file, except when the file changed within :data:`RACY_S` of being read: then the key is
    marked racy and never matches.

    >>> st = os.stat_result((0o100644, 7, 0, 1, 0, 0, 12, 0, 0, 0, 0, 0, 0, 10**9, 2 * 10**9, 3 * 10**9))
    >>> stat_key(st, now_ns=10 * 10**9)
    'f9e12a0d8f18356390e68154'
    >>> stat_key(st, now_ns=4 * 10**9)
    'racy:f9e12a0d8f18356390e68154'
    """
    key = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
    key = hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
    now_ns = time.time_ns() if now_ns is None else now_ns
    if now_ns - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_S * 1e9:
        return f"{RACY}:{key}"
    return key


def _same_state(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_size, a.st_mtime_ns, a.st_ctime_ns, a.st_ino) == (b.st_size, b.st_mtime_ns, b.st_ctime_ns, b.st_ino)


def read_bytes(path: Path, attempts: int = 5) -> tuple[bytes, str]:
    """A record file's bytes and its :func:`stat_key` *as of those bytes*: the file is stat'ed through
    the descriptor it is read from, before and after reading, and read again if it changed meanwhile
    (an editor saving it during a build), so the key a build records never describes other bytes
    than the ones it mapped. The size limit holds while reading (a file that grows, a device).

    :raises OSError: when the file cannot be read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO must not block the open
    with os.fdopen(fd, "rb") as f:
        for _ in range(attempts):
            before = os.fstat(f.fileno())
            if not stat.S_ISREG(before.st_mode):
                raise _TooBig("not a regular file; a record is a plain .json file")
            if before.st_size > MAX_FILE_BYTES:
                raise _TooBig(
                    f"file is {before.st_size / 1e6:.1f} MB; a record must be under {MAX_FILE_BYTES // 1_000_000} MB"
                )
            f.seek(0)
            raw = f.read(MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:
                raise _TooBig(
                    f"file is over {MAX_FILE_BYTES // 1_000_000} MB; a record must be under "
                    f"{MAX_FILE_BYTES // 1_000_000} MB"
                )
            after = os.fstat(f.fileno())
            if _same_state(before, after):
                return raw, stat_key(before)
    return raw, f"{RACY}:changing"  # it kept changing: these bytes are built, and read again next time


#: how long :func:`read_record` waits, and waits again, before it reports an empty file that changed
#: within :data:`RACY_S`: an editor that saves in place truncates the file, then writes it
SAVING_PAUSES = (0.05, 0.1, 0.2, 0.4)


def read_record(path: Path, kind: str) -> Record:
    """Read and type-check one record file. A file that is empty and changed a moment ago is read
    again after a pause (:data:`SAVING_PAUSES`): it is being saved, not wrong.

    :raises InputError: naming the file, line and field of every problem.
    """

    def fail(problems: list[tuple[str, str, int | None]]) -> NoReturn:
        lines = None
        out = []
        for pointer, message, line in problems:
            if line is None:
                if lines is None:
                    try:
                        lines = pointer_lines(path.read_text(encoding="utf-8"))
                    except (OSError, UnicodeDecodeError):
                        lines = {}
                line = line_of(lines, pointer)
            out.append(InputProblem(path, line, pointer, message))
        raise InputError(out)

    for pause in (*SAVING_PAUSES, None):
        try:
            if path.is_dir():
                fail([("", "is a directory, not a record file", None)])
            raw, state = read_bytes(path)
        except _TooBig as e:
            fail([("", str(e), None)])
        except OSError as e:
            fail([("", f"cannot read: {e.strerror or e}", None)])
        try:
            data = parse_json(raw)
            break
        except _Reject as e:
            if pause is None or raw or not state.startswith(RACY):
                fail([(e.pointer, e.message, e.line or 1)])
            time.sleep(pause or 0)  # empty, and just changed: an editor is saving it (truncated, not yet written)
    shapes = None
    if kind == "gotchas":  # finding_shapes may name the data repository's own shapes too
        shapes = shape_names(layout_for(path.parent.parent).shape_dirs)
    problems: list[tuple[str, str, int | None]] = [
        (p, m, None) for p, m in check_fields(data, SCHEMA[kind], shapes=shapes)
    ]
    record_id = data.get("id")
    if "id" not in data:
        problems.append(("", f"missing 'id'; it must be the file's stem {path.stem!r}", 1))
    elif isinstance(record_id, str) and record_id != path.stem:
        problems.append(("/id", f"id {record_id!r} is not the file's stem {path.stem!r}; rename one of them", None))
    elif isinstance(record_id, str) and reserved_id(record_id):
        problems.append(("/id", reserved_id(record_id), None))
    if not problems:
        data = whole_numbers(data, SCHEMA[kind])
        if kind == "benchmarks":
            problems += [(pointer, p, None) for pointer, p in value_problems(data)]
        if kind == "benchmarks" and "value_as_written" in data:
            problems += [("/value_as_written", p, None) for p in _as_written_problems(data)]
        if kind == "benchmarks" and isinstance(data.get("relative"), dict):
            problems += [(pointer, p, None) for pointer, p in _relative_problems(data["relative"])]
    if problems:
        fail(problems)
    return Record(kind, str(record_id), path, data, hashlib.sha256(raw).hexdigest(), state)


def _as_written_problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with a claim's ``value_as_written``: it must write the number ``value`` holds.

    >>> _as_written_problems({"value": 1190000, "value_as_written": "1.19M"})
    []
    >>> _as_written_problems({"value_as_written": "1.19M"})
    ["value_as_written is the spelling of the value, and the claim has no value: add 'value': 1190000"]
    """
    written = data["value_as_written"]
    if "value" not in data:
        found = written_interval(written)
        hint = (
            f": add 'value': {format(found.low + (found.high - found.low) / 2, 'f')}"
            if found and found.low is not None and found.high is not None
            else ""
        )
        return [f"value_as_written is the spelling of the value, and the claim has no value{hint}"]
    problem = as_written_problem(data["value"], written)
    return [problem] if problem else []


def _relative_problems(relative: dict[str, Any]) -> list[tuple[str, str]]:
    """What is wrong with a claim's ``relative``: one of ``times`` and ``percent``, one baseline in ``over``,
    and an ``as_written`` that writes the ratio.

    >>> _relative_problems({"times": 2.1, "as_written": "2.1x", "over": {"next_best": True}})
    []
    >>> _relative_problems({"times": 2, "percent": 100, "over": {}})[0][1]
    "give the ratio once: 'times' (2.1 for 2.1x) or 'percent' (29 for 29 % higher)"
    """
    out = []
    stated = [k for k in ("times", "percent") if k in relative]
    if len(stated) != 1:
        out.append(("/relative", "give the ratio once: 'times' (2.1 for 2.1x) or 'percent' (29 for 29 % higher)"))
    over = relative.get("over", {})
    bases = [k for k in ("same_system_in", "claim_id", "next_best") if k in over and over[k] is not False]
    if len(bases) != 1:
        out.append(
            (
                "/relative/over",
                "name one baseline: 'same_system_in' (a round), 'claim_id' (a result or claim) or 'next_best': true",
            )
        )
    written = relative.get("as_written")
    if len(stated) == 1 and isinstance(written, str):
        found = written_interval(written)
        if found is None or not found.writes(relative[stated[0]]):
            out.append(("/relative/as_written", f"{written!r} does not write the {stated[0]} {relative[stated[0]]}"))
    return out


def record_names(data_dir: Path) -> list[tuple[str, str]]:
    """Every record file under ``data_dir`` as (kind, file name), sorted; unknown folders and
    files are input errors. Names, not Paths: at 100k files, Paths cost a second.
    """
    if not data_dir.is_dir():
        raise InputError.at(data_dir, None, "", "data folder not found; pass --data DIR or set BENCHKG_DATA")
    problems: list[InputProblem] = []
    files: list[tuple[str, str]] = []
    for entry in sorted(data_dir.iterdir()):
        if entry.name.startswith(".") or entry.name in IGNORED_FILES:
            continue
        if not entry.is_dir() or entry.name not in KINDS:
            problems.append(
                InputProblem(
                    entry,
                    None,
                    "",
                    f"{entry.name!r} is not a record kind folder{_suggest(entry.name, KINDS)}; kinds: {', '.join(KINDS)}",
                )
            )
            continue
        for item in sorted(os.scandir(entry), key=lambda e: e.name):
            name = item.name
            if name.startswith(".") or name in IGNORED_FILES:
                continue
            if not name.endswith(".json"):
                problems.append(InputProblem(entry / name, None, "", "not a .json record file; move it out of data/"))
            elif not ID_PATTERN.match(name[:-5]):
                problems.append(
                    InputProblem(
                        entry / name,
                        None,
                        "",
                        f"{name[:-5]!r} is not a record id (lower-case letters, "
                        f"digits, '.' and '-', starting with a letter or digit: "
                        f"{ID_PATTERN.pattern}); rename the file and its id",
                    )
                )
            else:
                problem = _not_a_regular_file(item)
                if problem:
                    problems.append(InputProblem(entry / name, None, "", problem))
                else:
                    files.append((entry.name, name))
    if problems:
        raise InputError(problems)
    return files


def _not_a_regular_file(item: os.DirEntry[str]) -> str | None:
    """What is wrong with a directory entry as a record file, if anything: only regular files (or
    links to them) are read; a FIFO would wait forever, a link to /dev/zero would fill memory."""
    try:
        if item.is_file():
            return None
        return (
            "is a directory, not a record file"
            if item.is_dir()
            else "not a regular file; a record is a plain .json file"
        )
    except OSError as e:  # a symlink loop
        return f"cannot read: {e.strerror or e}"


def record_files(data_dir: Path) -> list[tuple[str, Path]]:
    """Every record file under ``data_dir`` as (kind, path), sorted (see :func:`record_names`)."""
    return [(kind, data_dir / kind / name) for kind, name in record_names(data_dir)]


def load_records(data_dir: Path) -> list[Record]:
    """Load every record under ``data_dir``; ids must be unique within a kind.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "models").mkdir(); _ = (d / "models" / "m.json").write_text('{"id": "m", "name": "M"}')
    >>> [(r.kind, r.id) for r in load_records(d)]
    [('models', 'm')]

    :raises InputError: listing every problem in every file; nothing is loaded.
    """
    problems: list[InputProblem] = []
    records: list[Record] = []
    seen: dict[tuple[str, str], Path] = {}
    for kind, path in record_files(data_dir):
        try:
            record = read_record(path, kind)
        except InputError as e:
            problems.extend(e.problems)
            continue
        key = (kind, record.id)
        if key in seen:
            problems.append(
                InputProblem(path, record.line("/id"), "/id", f"duplicate id {record.id!r}, also in {seen[key]}")
            )
            continue
        seen[key] = path
        records.append(record)
    if problems:
        raise InputError(problems)
    return records


def record_entries(data_dir: Path, layout: Layout | None = None) -> list[tuple[str, str, str]]:
    """Every record file of ``data_dir`` and of the reference set it uses (``layout``: its layout, when
    read already), as (kind, file name, folder), sorted by kind and name.

    :raises InputError: for a file that is not a record, or a record that differs from the reference
        record of the same id.
    """
    layout = layout or layout_for(data_dir)
    own = [(kind, name, str(data_dir)) for kind, name in record_names(data_dir)]
    if layout.reference is None:
        return own
    folder = str(layout.reference)
    reference = {(kind, name): folder for kind, name in reference_names(layout.reference)}
    problems = []
    for kind, name, _ in own:
        if (kind, name) in reference:
            mine, theirs = Path(data_dir, kind, name), Path(folder, kind, name)
            if mine.read_bytes() != theirs.read_bytes():
                problems.append(
                    InputProblem(
                        mine,
                        1,
                        "/id",
                        f"{kind}/{name[:-5]} is a record of benchkg's reference "
                        f"set ({theirs}) with other content; delete this copy to use "
                        f"the reference record, or give yours a new id",
                    )
                )
            del reference[(kind, name)]
    if problems:
        raise InputError(problems)
    return sorted(own + [(kind, name, folder) for (kind, name), folder in reference.items()])
