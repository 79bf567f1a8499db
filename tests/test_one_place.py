"""One rule, one place (issue 63): the chip a result ran on (a rack is its chip, a mixed system its
combination) and its per-accelerator value are worked out in ``graph/facts.py`` (and the mapping's
``bk:derivedValue``) only; every query, shape and module reads ``bk:ranOn``, ``bk:ranOnAsNamed`` and
``bk:perAcceleratorValue``. Reading ``bk:madeOf`` to describe an accelerator record itself (its fabric,
its hardware shapes, its page) is fine, and listed below with its reason."""

from __future__ import annotations

import ast
import re

import pytest

from benchkg.kernel.resources import PACKAGE, ROOT

#: a claim's accelerator followed to its chip: ``bk:accelerator/bk:madeOf`` or ``bk:accelerator ?a`` … ``?a bk:madeOf``
_CHIP_OF_A_RESULT = re.compile(r"bk:accelerator\s*/\s*bk:madeOf|bk:accelerator\s+(\?\w+)[\s\S]{0,600}?\1\s+bk:madeOf")
#: a result divided by its count, in SPARQL or Python
_DIVIDED = re.compile(
    r"/\s*\??(?:accelerator_)?count\b|/\s*\?n_acc|/\s*COALESCE\(\?count|bk:derivedValue|\"derivedValue\""
)
#: where the rule lives, and what reads bk:madeOf of an accelerator record, not of a result
ALLOWED = {
    "src/benchkg/graph/facts.py": "the one place",
    "src/benchkg/graph/mapping.py": "bk:derivedValue, the aggregate ÷ count the facts read",
    "src/benchkg/graph/derived.py": "which claims read a record (a rebuild's reach), not what they ran on",
    "queries/accelerator-fabrics.rq": "an accelerator record's own fabric, through the chip it is made of",
    "shapes/caveats.ttl": "the fabric a claim's rack has, through the chip it is made of (a fabric present)",
    "shapes/fabric.ttl": "the same: a rack's fabric is its chip's",
    "queries/per-accelerator-consistency.rq": "a stated per-accelerator figure against bk:derivedValue itself",
    "shapes/denominators.ttl": "the same check, as a warning at validation",
    "shapes/provenance.ttl": "that a derived value says what it was derived from",
    "src/benchkg/draft/groups.py": "a vendor's text: its aggregate over its stated count, before any record exists",
    "src/benchkg/answers/show.py:_system_fabrics": "a system record's fabric beside its chips' own (no result read)",
}


def _parts(name: str, text: str):
    """(where, text) for each part of a file the guard reads: a Python module by its top-level
    function or class (``file:name``, so one reader of an accelerator record is allowed alone), a
    query or a shape whole."""
    if not name.endswith(".py"):
        yield name, text
        return
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    for node in tree.body:
        where = f"{name}:{node.name}" if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else name
        yield where, "".join(lines[node.lineno - 1 : node.end_lineno])


def _files():
    for folder, pattern in ((ROOT / "queries", "*.rq"), (ROOT / "shapes", "*.ttl"), (PACKAGE, "**/*.py")):
        for path in sorted(folder.glob(pattern)):
            name = str(path.relative_to(ROOT))
            if name in ALLOWED:
                continue
            for where, text in _parts(name, path.read_text(encoding="utf-8")):
                if where not in ALLOWED:
                    yield where, text


@pytest.mark.parametrize("rule,pattern", [("chip", _CHIP_OF_A_RESULT), ("per accelerator", _DIVIDED)])
def test_no_query_shape_or_module_outside_the_one_place_works_out_a_result_s_chip_or_divides_it(rule, pattern):
    found = sorted({where for where, text in _files() if pattern.search(text)})
    assert not found, f"{rule} worked out again in: {found}"


@pytest.mark.parametrize(
    "text",
    [
        "?c bk:accelerator/bk:madeOf ?chip",
        "?c bk:accelerator ?a . OPTIONAL { ?a bk:madeOf ?part }",
        "BIND (?v / ?count AS ?per)",
        "OPTIONAL { ?c bk:derivedValue/qudt:value ?d }",
    ],
)
def test_the_guard_sees_each_way_of_working_the_rule_out_again(text):
    """The patterns catch what the saved queries used to say (a guard that sees nothing passes too)."""
    assert _CHIP_OF_A_RESULT.search(text) or _DIVIDED.search(text)


def test_every_allowance_names_a_part_that_exists():
    """An allowance outlives nothing: each names a file, or a file's top-level function, still there."""
    parts = set()
    for folder, pattern in ((ROOT / "queries", "*.rq"), (ROOT / "shapes", "*.ttl"), (PACKAGE, "**/*.py")):
        for path in folder.glob(pattern):
            name = str(path.relative_to(ROOT))
            parts.add(name)
            parts.update(where for where, _ in _parts(name, path.read_text(encoding="utf-8")))
    assert set(ALLOWED) <= parts, set(ALLOWED) - parts
