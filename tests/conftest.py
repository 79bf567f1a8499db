"""Shared test helpers: the seed data, a copy of it to break, and the CLI run in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchkg.cli import app
from benchkg.graph.store import build_graph
from benchkg.kernel.resources import ROOT

FULL_DATA = ROOT / "data"
FIXTURES = Path(__file__).parent / "fixtures"
SHARED = ROOT.parent / "shared"


def _seed_copy() -> Path:
    """data/ without the imported MLPerf results (benchmarks/mlperf-*.json): the hand-curated seed
    claims and every other record. Most tests run on it, so they stay fast and their expected
    answers do not move when an import adds results; tests of the full data/ say so."""
    import atexit
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="benchkg-seed-"))
    atexit.register(shutil.rmtree, root, True)
    shutil.copytree(
        FULL_DATA,
        root / "data",
        ignore=lambda folder, names: [
            n for n in names if Path(folder).name == "benchmarks" and n.startswith("mlperf-") and n.endswith(".json")
        ],
    )
    return root / "data"


DATA = _seed_copy()


def cli(*args: str, env: dict | None = None):
    """Run ``benchkg ARGS`` in-process; returns the click Result (exit_code, stdout, stderr)."""
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


@pytest.fixture(scope="session")
def seed_store():
    """The seed records of data/ in an in-memory store."""
    return build_graph(DATA, persist=False).store


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A copy of data/ to change; its persistent store goes to tmp_path/.benchkg."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


@pytest.fixture(scope="session")
def full_kg():
    """The full data/ built once per session, in memory (the doctests open data/'s own store in this
    process): the answers the results algebra's oracle tests check."""
    from benchkg.api import open as open_kg

    graph = open_kg(FULL_DATA, persist=False)
    graph.build()
    return graph


@pytest.fixture(scope="session")
def mlperf_record():
    """MLCommons' summaries read a second way (``tests/mlperf_oracle.py``), once per session; skipped
    on a checkout without ../shared."""
    import mlperf_oracle as oracle

    raw = SHARED / "realdata"
    if not (raw / "mlperf_inference_v6.1" / "summary.json").exists():
        pytest.skip(f"the MLPerf summaries are not here ({raw}): a checkout without ../shared")
    return oracle.load(raw, FULL_DATA)


@pytest.fixture(scope="module")
def full_copy(tmp_path_factory):
    """data/ copied without its store: the CLI keeps its store beside the folder, and data/'s own is the
    doctests'."""
    copy = tmp_path_factory.mktemp("full") / "data"
    shutil.copytree(FULL_DATA, copy, ignore=shutil.ignore_patterns(".benchkg"))
    return copy


@pytest.fixture(scope="session")
def seed_site(tmp_path_factory) -> Path:
    """``benchkg site`` of the seed data, written once per test session (with an endpoint named)."""
    out = tmp_path_factory.mktemp("site") / "site"
    result = cli("site", "-o", out, "--data", DATA, "--endpoint", "http://127.0.0.1:7878/query")
    assert result.exit_code == 0, result.output
    return out


def tool(name: str) -> str:
    """The path of an external program the tests need; `make test` installs them (scripts/test-tools)."""
    path = shutil.which(name)
    if not path:
        pytest.fail(f"{name} is not installed; run `make test-tools` (Debian chromium, raptor2-utils; npm n3, jsonld)")
    return path


#: tables a test writes for ``make test``'s output (the draft corpus's scores and links): printed at its end
SUMMARIES = Path(__file__).parent / "artifacts" / "summaries"


def summary(name: str, text: str) -> None:
    """Keep ``text`` to print at the end of the test run, under ``name`` (from any xdist worker)."""
    SUMMARIES.mkdir(parents=True, exist_ok=True)
    (SUMMARIES / f"{name}.md").write_text(text + "\n", encoding="utf-8")


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the controller: last run's tables are not this run's
        shutil.rmtree(SUMMARIES, ignore_errors=True)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    for path in sorted(SUMMARIES.glob("*.md")) if SUMMARIES.is_dir() else ():
        terminalreporter.write_sep("-", path.stem)
        terminalreporter.write_line(path.read_text(encoding="utf-8").rstrip())


def audited(name: str) -> dict:
    """An audited result's record, read from its own file in data/ (never from the graph)."""
    import json

    return json.loads((FULL_DATA / "benchmarks" / f"{name}.json").read_text())


def verdict_line(data: Path, claim: str) -> str:
    """The verdict ``benchkg show CLAIM`` prints, as a curator reads it (one line, its label removed)."""
    shown = cli("show", claim, "--data", data)
    assert shown.exit_code == 0, shown.output
    lines = [line.strip() for line in shown.stdout.splitlines() if line.strip().startswith("verdict:")]
    assert len(lines) == 1, shown.stdout
    return lines[0].removeprefix("verdict: ")
