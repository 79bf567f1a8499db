"""The results algebra's sweep (issue 62): every column of ``benchkg results --schema`` with every operator
(``=``, ``!=``, ``~``, ``<``, ``>=``, ``any:``, ``in:``) either answers the claims a Python filter over the
whole table ``kg.results()`` gives, or exits 2 saying why the operator does not apply to that column; on
the embedded store and on an Oxigraph server filled by ``benchkg push``.

The expected answers are this file's own reading of docs/queries.md ("Any comparison without SPARQL"):

- ``=`` compares as text, case folded (values resolve "any case"); a number as a number; a column a result
  has several values of (system_type, submitter_kind, source) matches when any of them does; the chip
  columns (chip, base_chip, chip_vendor) ask the whole (a mixed system is its combination ``a+b``; its
  vendor is its chips' only when they share one).
- ``!=`` is what ``=`` leaves: a result that states no value passes (``division!=open`` lets through a
  claim that states no division).
- ``~TEXT`` keeps the values that contain TEXT (case folded) as the column shows them, never the IRI behind
  them (``COL~http`` is asked of every column); a result without a value fails.
- ``<`` and ``>=`` are for numbers (and ``round``, a version of MLPerf Inference's, and ``tier``, "a number with < and >"); on
  any other column they exit 2. A result without a value fails.
- ``any:V`` is for the chip columns (any of a system's chips); elsewhere it exits 2.
- ``in:A,B`` keeps the results whose value is A or B.
- A vendor's restatement of an audited result is left out unless the condition names ``measured_by`` or
  ``claim``.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
import time
import unicodedata
from collections import Counter
from decimal import Decimal, InvalidOperation

import pytest

from conftest import FULL_DATA, cli
from servers import Server

pytestmark = pytest.mark.slow  # the whole data/ folder, built

OPERATORS = ("=", "!=", "~", "<", ">=", "any:", "in:")
SEVERAL = {"system_type", "submitter_kind", "source"}  # --schema's "(several)"
CHIP_SETS = {"chip", "base_chip", "chip_vendor"}  # "the columns of a system's chips are sets"
ORDERED = {"round", "tier"}  # text columns --schema and the docs give < and > to
RESTATED = {"measured_by", "claim"}  # a condition on these keeps the vendor restatements
#: a value for a column no result states (the sweep still asks every operator of it)
INVENTED = {"num": "1024", "bool": "true"}  # by type; "fp8" for any other


def fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def lexical(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def number(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


# ---------------------------------------------------------------- the whole table, and each column's type


@pytest.fixture(scope="module")
def schema() -> dict[str, str]:
    done = cli("results", "--schema", "--data", FULL_DATA)
    assert done.exit_code == 0, done.output
    types = {}
    for line in done.stdout.splitlines():
        name, rest = line.split(None, 1)
        types[name] = rest.split("e.g.")[0].strip()
    assert len(types) >= 45 and "claim" in types
    return types


@pytest.fixture(scope="module")
def tables(full_kg):
    """The whole table (restatements left out) and the table of every claim (restatements in)."""
    rows = [dict(r) for r in full_kg.results(limit=0)]
    every = [dict(r) for r in full_kg.results(where=["measured_by=in:mlcommons,vendor"], limit=0)]
    assert len(every) == len(list((FULL_DATA / "benchmarks").glob("*.json"))) > len(rows)
    return rows, every


@pytest.fixture(scope="module")
def several() -> dict[str, dict[str, set[str]]]:
    """The values a result has several of, read from the records (the table shows the lowest)."""
    load = lambda kind: {p.stem: json.loads(p.read_text()) for p in (FULL_DATA / kind).glob("*.json")}  # noqa: E731
    orgs, chips, claims, systems = load("organizations"), load("accelerators"), load("benchmarks"), load("systems")
    as_set = lambda v: set(v) if isinstance(v, list) else ({v} if v else set())  # noqa: E731
    kinds = {o: as_set(d.get("kind")) for o, d in orgs.items()}
    out: dict[str, dict[str, set[str]]] = {"system_type": {}, "submitter_kind": {}, "chip_vendor_any": {}}
    for cid, c in claims.items():
        types = as_set(c.get("system_type")) | as_set(systems.get(c.get("system_id"), {}).get("system_type"))
        out["system_type"][cid] = types
        out["submitter_kind"][cid] = kinds.get(c.get("submitter_id"), set())
    out["vendor_of"] = {chip: {d.get("vendor_id")} for chip, d in chips.items()}
    return out


def values_of(row: dict, column: str, several: dict) -> set[str]:
    """The folded values a condition on COLUMN looks at (several for a several-valued column)."""
    own = lexical(row[column])
    values = {fold(own)} if own is not None else set()
    if column in ("system_type", "submitter_kind"):
        values |= {fold(v) for v in several[column].get(row["claim"], set())}
    return values


def chips_of(row: dict, column: str, several: dict) -> set[str]:
    """``any:``: a system's chips one by one (a mixed system's ``a+b`` split), or their vendors."""
    if column == "chip_vendor":
        return {fold(v) for chip in row["chip"].split("+") for v in several["vendor_of"].get(chip, set()) if v}
    return {fold(c) for c in (row[column] or "").split("+") if c}


# ---------------------------------------------------------------- the cases: a value from the data for each


def cases(schema: dict[str, str], rows: list[dict]) -> list[tuple[str, str, str]]:
    """(column, operator, condition, value) for every column × operator, and ``COL~http`` for each column."""
    out = []
    for column, kind in schema.items():
        present = [lexical(r[column]) for r in rows if r.get(column) is not None and lexical(r[column]) != ""]
        common = [v for v, _ in Counter(present).most_common() if "," not in v]
        first = common[0] if common else INVENTED.get(kind, "fp8")
        second = common[1] if len(common) > 1 else first
        numbers = sorted(n for n in (number(r.get(column)) for r in rows) if n is not None)
        if kind == "num":
            middle = str(statistics.median_low(numbers)) if numbers else first
        elif column == "round":
            middle = sorted(set(present), key=version)[len(set(present)) // 2]
        elif column == "tier":
            middle = "99.5"
        else:
            middle = first
        piece = first[1:-1] if len(first) > 3 else first
        # any: asks one of a system's chips: the most common chip (or vendor) of a mixed system, so that
        # the answer differs from = (a mixed system's own value is its combination)
        parts = Counter(part for r in rows if column in CHIP_SETS and "+" in r["chip"] for part in _parts(r, column))
        one_of = parts.most_common(1)[0][0] if parts else first
        for op in OPERATORS:
            value = {
                "=": first,
                "!=": first,
                "~": piece,
                "<": middle,
                ">=": middle,
                "any:": one_of,
                "in:": f"{first},{second}",
            }[op]
            condition = f"{column}={op}{value}" if op in ("any:", "in:") else f"{column}{op}{value}"
            out.append((column, op, condition, value))
        # ~ looks at the value as the column shows it, never at the IRI behind it
        out.append((column, "~", f"{column}~http", "http"))
    return out


def _parts(row: dict, column: str) -> list[str]:
    if column == "chip_vendor":
        return [c.split("-")[0] for c in row["chip"].split("+")]  # only to choose a value; checked below
    return (row[column] or "").split("+")


def applies(column: str, kind: str, op: str) -> bool:
    if op in ("<", ">="):
        return kind == "num" or column in ORDERED
    if op == "any:":
        return column in CHIP_SETS
    return True


def expected_claims(column: str, kind: str, op: str, value: str, tables, several) -> set[str]:
    rows = tables[1] if column in RESTATED else tables[0]
    keep = set()
    for row in rows:
        have = values_of(row, column, several)
        if op == "=":
            ok = _equal(have, value, kind)
        elif op == "!=":
            ok = not _equal(have, value, kind)
        elif op == "~":
            ok = any(fold(value) in v for v in have)
        elif op in ("<", ">="):  # (a bare round is MLPerf Inference's: rounds compare within one suite family)
            ok = _ordered(row[column], value, column, op) and (
                column != "round" or lexical(row.get("family")) == "mlperf-inference"
            )
        elif op == "any:":
            ok = fold(value) in chips_of(row, column, several)
        else:  # in:
            ok = any(_equal(have, v, kind) for v in value.split(","))
        if ok:
            keep.add(row["claim"])
    return keep


def _equal(have: set[str], value: str, kind: str) -> bool:
    if kind == "num":
        return any(number(v) == number(value) for v in have)
    return fold(value) in have


def _ordered(cell, value: str, column: str, op: str) -> bool:
    if cell is None:
        return False
    if column == "round":
        a, b = version(cell), version(value)
    else:
        a, b = number(cell), number(value)
        if a is None:
            return False
    return a < b if op == "<" else a >= b


# ---------------------------------------------------------------- the sweep


def answer(condition: str, data, endpoint: str | None = None):
    """(exit code, the claims answered or the error's text)."""
    args = ["results", "--where", condition, "--columns", "claim", "--format", "csv", "--limit", "0"]
    args += ["--data", str(data)] + (["--endpoint", endpoint] if endpoint else [])
    done = cli(*args)
    if done.exit_code != 0:
        return done.exit_code, (done.stderr or done.output).strip()
    return 0, {r["claim"] for r in csv.DictReader(io.StringIO(done.stdout))}


def sweep(schema, tables, several, data, endpoint=None) -> tuple[list[str], int]:
    failures, n, took = [], 0, {}
    for column, op, condition, value in cases(schema, tables[0]):
        n += 1
        kind = schema[column]
        started = time.monotonic()
        code, got = answer(condition, data, endpoint)
        took[condition] = time.monotonic() - started
        if not applies(column, kind, op):
            if code != 2:
                shown = f"{len(got)} rows" if code == 0 else got[:200]
                failures.append(f"{condition}: exit {code} ({shown}), expected exit 2 saying why")
            elif column not in got or op.rstrip(":") not in got and "number" not in got:
                failures.append(f"{condition}: exit 2 without naming the column and the operator: {got[:200]}")
            continue
        if code != 0:
            failures.append(f"{condition}: exit {code}: {got[:300]}")
            continue
        want = expected_claims(column, kind, op, value, tables, several)
        if got != want:
            extra, missing = sorted(got - want), sorted(want - got)
            failures.append(
                f"{condition}: {len(got)} rows, expected {len(want)}; "
                f"answered but not expected {len(extra)} {extra[:3]}; expected but missing {len(missing)} {missing[:3]}"
            )
    slowest = sorted(took, key=took.get, reverse=True)[:5]
    print("\nslowest: " + ", ".join(f"{c} {took[c]:.1f} s" for c in slowest))
    return failures, n


def test_every_column_with_every_operator_embedded(full_copy, schema, tables, several):
    started = time.monotonic()
    failures, n = sweep(schema, tables, several, full_copy)
    print(f"\nsweep embedded: {n} cases, {len(failures)} failing, {time.monotonic() - started:.0f} s")
    assert n == len(schema) * (len(OPERATORS) + 1)
    assert not failures, "\n".join(failures)


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory, full_copy):
    server = Server(tmp_path_factory.mktemp("sweep") / "oxigraph").start()
    try:
        pushed = cli("push", "--endpoint", server.query, "--data", full_copy)
        assert pushed.exit_code == 0, pushed.output
        yield server
    finally:
        server.kill()


def test_every_column_with_every_operator_on_the_oxigraph_server(oxigraph, full_copy, schema, tables, several):
    started = time.monotonic()
    failures, n = sweep(schema, tables, several, full_copy, oxigraph.query)
    print(f"\nsweep on oxigraph: {n} cases, {len(failures)} failing, {time.monotonic() - started:.0f} s")
    assert not failures, "\n".join(failures)
