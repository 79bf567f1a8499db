"""Shared by the tests (tests/) and the doctests (src/benchkg/).

Under pytest-xdist two workers share the seed data's store (``.benchkg/`` beside ``data/``); each
test lets go of the stores nothing holds any more, so the other worker waits for one test at most,
never for the whole session."""

import os

import pytest


@pytest.fixture(autouse=True)
def _let_go_of_stores():
    yield
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from benchkg.graph import opening

        if opening.OPEN_STORES:  # most tests leave none open: no garbage collection for them
            opening.let_go()
