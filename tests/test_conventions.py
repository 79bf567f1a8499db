"""Every shape has a passing and a failing fixture named after the defect, and each failing fixture
gives exactly the findings stored beside it (tests/fixtures/conventions/<shape>/<valid|invalid>-<name>/).

All fixtures are laid over one copy of data/ and validated together once, as a curator's data would be.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rdflib import URIRef
from rdflib.namespace import RDF

from benchkg.checks.validate import SH, load_shapes, validate_graph
from benchkg.graph.store import build_graph
from conftest import DATA, FIXTURES

pytestmark = pytest.mark.slow  # a build and a validation per fixture

CONVENTIONS = FIXTURES / "conventions"
CASES = sorted(p for p in CONVENTIONS.glob("*/*") if p.is_dir())


def shape_names() -> set[str]:
    shapes = load_shapes()
    return {
        str(s).rsplit("#", 1)[1]
        for kind in ("NodeShape", "PropertyShape")
        for s in shapes.subjects(RDF.type, URIRef(SH + kind))
        if isinstance(s, URIRef)
    }


def record_files(case: Path) -> list[Path]:
    return sorted(p.relative_to(case) for p in case.glob("*/*.json"))


def case_id(case: Path) -> str:
    return f"{case.parent.name}/{case.name}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """(data dir, findings) for the seed data with every fixture laid over it."""
    data = tmp_path_factory.mktemp("conventions") / "data"
    shutil.copytree(DATA, data)
    overlay(data)
    store = build_graph(data, persist=False).store
    return data, validate_graph(store, data).findings, store


def overlay(data: Path) -> None:
    """Lay every fixture's records over ``data``: a record the data already has is kept (fixtures
    may carry a model or accelerator the data gains later); two fixtures must agree on a shared file."""
    placed: dict[Path, bytes] = {}
    for case in CASES:
        for rel in record_files(case):
            target, content = data / rel, (case / rel).read_bytes()
            if target in placed:
                assert placed[target] == content, f"{case_id(case)}: {rel} clashes with another fixture"
                continue
            if target.exists():
                continue
            target.parent.mkdir(exist_ok=True)
            target.write_bytes(content)
            placed[target] = content


def findings_of(case: Path, data: Path, findings) -> list[str]:
    mine = {str(data / rel) for rel in record_files(case)}
    return [str(f).replace(f"{data}/", "") for f in findings if f.file in mine]


def test_every_shape_has_a_passing_and_a_failing_fixture():
    by_shape: dict[str, set[str]] = {}
    for case in CASES:
        by_shape.setdefault(case.parent.name, set()).add(case.name.split("-", 1)[0])
    for name in shape_names():
        assert by_shape.get(name, set()) >= {"valid", "invalid"}, f"shape {name} needs valid-* and invalid-* fixtures"
    assert set(by_shape) <= shape_names(), "fixtures for a shape that does not exist"


def test_fast_engine_finds_exactly_what_pyshacl_finds(corpus):
    data, findings, store = corpus
    reference = validate_graph(store, data, engine="pyshacl").findings
    assert len(findings) > 60
    assert findings == reference


#: the real cases in the seed data (see the README's validate table): the GB200 record's samples ×
#: tokens, and MLPerf v6.0 system descriptions whose name or mix states another count
REAL_CASES = {"samples-times-tokens-agrees", "name-states-another-count", "mix-states-another-count"}


def test_seed_data_is_untouched_by_fixtures(corpus):
    data, findings, _ = corpus
    seed = {str(data / p.relative_to(DATA)) for p in DATA.glob("*/*.json")}
    assert not [f for f in findings if f.file in seed and f.severity != "info" and f.shape not in REAL_CASES]
    counts = {f.focus for f in findings if f.file in seed and f.shape in REAL_CASES - {"samples-times-tokens-agrees"}}
    assert counts == {
        "systems/mlperf-6.0-closed-amd-87xmi355x-22xepyc-9575f",
        "systems/mlperf-6.0-closed-amd-94xmi355x-24xepyc-9575f",
        "systems/mlperf-6.0-closed-nebius-gb300-nvl72-gb300-288gb-aarch64x1-trt",
        "systems/mlperf-6.0-closed-nvidia-gb300-nvl72-gb300-288gb-aarch64x288-trt",
        "systems/mlperf-6.1-closed-nvidia-gb300-nvl72-gb300-288gb-aarch64x288-trt",
    }


@pytest.mark.parametrize("kind", ["invalid", "valid"])
def test_a_run_restricted_to_some_records_finds_exactly_their_part_of_a_full_run(corpus, kind):
    """What incremental validation relies on: every shape restricted (VALUES ?this) to the records
    of the failing fixtures (every shape fires there), or of the passing ones, finds exactly the
    full run's results for those records."""
    from benchkg.checks.incremental import _focus_nodes, _record_of
    from benchkg.checks.validate import load_shapes
    from benchkg.rules.engine import run_fast

    data, _, store = corpus
    prefix = "https://w3id.org/benchkg/id/"
    records = {
        prefix + str(rel.with_suffix(""))
        for case in CASES
        if case.name.startswith(kind + "-")
        for rel in record_files(case)
    }
    shapes = load_shapes()
    full = [str(r) for r in run_fast(store, shapes) if _record_of(r.focus, prefix) in records]
    restricted = run_fast(store, shapes, focus=_focus_nodes(store, records))
    assert sorted(map(str, restricted)) == sorted(full)
    if kind == "invalid":
        assert {r.shape for r in restricted} == shape_names(), "every shape fires on the failing fixtures"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fixture(case, corpus):
    data, findings, _ = corpus
    got = findings_of(case, data, findings)
    shape = case.parent.name
    if case.name.startswith("valid-"):
        assert [g for g in got if "[info]" not in g] == [], "a passing fixture has no violation or warning"
        assert not [g for g in got if f" {shape}: " in g]
    else:
        expected = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
        assert got == expected
        assert any(f" {shape}: " in g for g in got), f"the failing fixture does not trip {shape}"


def regenerate() -> None:
    """Rewrite every invalid fixture's expected.txt from the current findings (review the diff)."""
    import tempfile

    data = Path(tempfile.mkdtemp()) / "data"
    shutil.copytree(DATA, data)
    overlay(data)
    findings = validate_graph(build_graph(data, persist=False).store, data).findings
    for case in CASES:
        if case.name.startswith("invalid-"):
            (case / "expected.txt").write_text("\n".join(findings_of(case, data, findings)) + "\n")


if __name__ == "__main__":  # python tests/test_conventions.py
    regenerate()
