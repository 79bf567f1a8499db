"""Shared test helpers: the seed data, a copy of it to break, and the CLI run in-process."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchkg.cli import app
from benchkg.resources import ROOT
from benchkg.store import build_graph

DATA = ROOT / "data"
FIXTURES = Path(__file__).parent / "fixtures"
SHARED = ROOT.parent / "shared"


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
