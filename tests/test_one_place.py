"""One rule, one place (issue 63): the chip a result ran on (a rack is its chip, a mixed system its
combination) and its per-accelerator value are worked out in ``graph/facts.py`` (and the mapping's
``bk:derivedValue``) only; every query, shape and module reads ``bk:ranOn``, ``bk:ranOnAsNamed`` and
``bk:perAcceleratorValue``. Reading ``bk:madeOf`` to describe an accelerator record itself (its fabric,
its hardware shapes, its page) is fine, and listed below with its reason."""

from __future__ import annotations

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
}


def _files():
    for folder, pattern in ((ROOT / "queries", "*.rq"), (ROOT / "shapes", "*.ttl"), (PACKAGE, "**/*.py")):
        for path in sorted(folder.glob(pattern)):
            name = str(path.relative_to(ROOT))
            if name not in ALLOWED:
                yield name, path.read_text(encoding="utf-8")


@pytest.mark.parametrize("rule,pattern", [("chip", _CHIP_OF_A_RESULT), ("per accelerator", _DIVIDED)])
def test_no_query_shape_or_module_outside_the_one_place_works_out_a_result_s_chip_or_divides_it(rule, pattern):
    found = [name for name, text in _files() if pattern.search(text)]
    assert not found, f"{rule} worked out again in: {found}"
