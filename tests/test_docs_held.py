"""The docs that describe the code's layout are held to it (issue 63): every module of each floor is named
in docs/architecture.md's table and in CONTRIBUTING.md's layout, and every module they name exists."""

from __future__ import annotations

import re

import pytest

from benchkg.kernel.resources import PACKAGE, ROOT

FLOORS = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())


def _modules(floor: str) -> set[str]:
    return {p.stem for p in (PACKAGE / floor).glob("*.py") if p.stem != "__init__"}


def _architecture_rows() -> dict[str, str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)/` \| (.*) \|$", text, re.M)}


def _layout_blocks() -> dict[str, str]:
    """CONTRIBUTING's layout: each floor's paragraph (its line and the indented lines under it)."""
    blocks: dict[str, str] = {}
    floor = None
    for line in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").splitlines():
        head = re.match(r"  (\w+)/\s{2,}(.*)", line)
        if head:
            floor = head.group(1)
            blocks[floor] = head.group(2)
        elif floor and line.startswith(" " * 23):
            blocks[floor] += " " + line.strip()
        else:
            floor = None
    return blocks


def test_the_floors_are_the_package_s():
    assert set(_architecture_rows()) == set(FLOORS) and set(FLOORS) <= set(_layout_blocks())


@pytest.mark.parametrize("floor", FLOORS)
def test_every_module_of_a_floor_is_in_the_architecture_table_and_the_layout(floor):
    row, block = _architecture_rows()[floor], _layout_blocks()[floor]
    assert not {m for m in _modules(floor) if f"`{m}`" not in row}, "docs/architecture.md"
    assert not {m for m in _modules(floor) if not re.search(rf"\b{m}\b", block)}, "CONTRIBUTING.md"


@pytest.mark.parametrize("floor", FLOORS)
def test_every_module_the_architecture_table_names_exists(floor):
    """A backticked name in a floor's row is one of its modules (or a command line or file format, which
    has a space, a dot or a dash)."""
    named = set(re.findall(r"`([a-z_]+)`", _architecture_rows()[floor]))
    assert not named - _modules(floor)


def test_every_name_the_importer_contract_defines_is_on_the_importers_page():
    """docs/importers.md names each class and function a plugin author uses (those the contract defines)."""
    import inspect

    from benchkg.importers import contract

    page = (ROOT / "docs" / "importers.md").read_text(encoding="utf-8")
    defined = {n for n in contract.__all__ if inspect.getmodule(getattr(contract, n)) is contract and not n.isupper()}
    assert defined and not {n for n in defined if f"`{n}" not in page}
