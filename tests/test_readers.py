"""Readers at once: commands that open the same store take turns instead of failing (RocksDB lets
one process open it), a command that waits says so once, one that gives up says who holds the store
and never advises deleting it; `benchkg serve` holds nothing (tests/test_serve.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys

import pytest

from benchkg.graph.opening import store_dir_for
from conftest import DATA

BENCHKG = [sys.executable, "-m", "benchkg.cli"]
ASK = ["query", "accelerator-fabrics", "--format", "csv"]


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    assert subprocess.run([*BENCHKG, "build", "--data", str(folder)], capture_output=True).returncode == 0
    return folder


def test_three_queries_at_once_all_answer_the_same(data):
    procs = [
        subprocess.Popen([*BENCHKG, *ASK, "--data", str(data)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err.decode()[-300:] for _, err in outs]
    assert len({out for out, _ in outs}) == 1 and outs[0][0].count(b"\n") > 20


def test_a_command_that_gives_up_says_who_holds_the_store(data):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time; from pathlib import Path; from benchkg.graph.opening import open_store, store_dir_for; "
                f"s = open_store(store_dir_for(Path({str(data)!r}))); print('open', flush=True); time.sleep(30)"
            ),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"open"
        env = {**os.environ, "BENCHKG_LOCK_WAIT": "1"}
        late = subprocess.run(
            [*BENCHKG, *ASK, "--data", str(data)], capture_output=True, text=True, env=env, timeout=60
        )
        assert late.returncode == 2, late.stderr
        assert f"pid {holder.pid}" in late.stderr and "the store is fine" in late.stderr
        assert "delete" not in late.stderr and "(waited 1 s)" in late.stderr
    finally:
        holder.kill()
        holder.wait()
    after = subprocess.run([*BENCHKG, *ASK, "--data", str(data)], capture_output=True, text=True, timeout=300)
    assert after.returncode == 0 and "waiting" not in after.stderr  # the lock went with the process


@contextlib.contextmanager
def held_without_the_lock(data, seconds):
    """A program that opens the store with pyoxigraph itself (never taking benchkg's lock) and holds
    it for ``seconds``: the state RocksDB is in while a finishing process still closes the store."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import time; from pyoxigraph import Store; "
                f"s = Store({str(store_dir_for(data))!r}); print('open', flush=True); time.sleep({seconds})"
            ),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"open"
        yield
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.slow
def test_a_store_still_closing_is_waited_for_not_failed(data):
    """The race CI met: a process lets go of the lock while RocksDB still holds the folder (here a
    program that never takes the lock, holding it four seconds); the next command waits its turn."""
    with held_without_the_lock(data, 4):
        waited = subprocess.run([*BENCHKG, *ASK, "--data", str(data)], capture_output=True, text=True, timeout=300)
    assert waited.returncode == 0, waited.stderr
    assert "waiting for another program" in waited.stderr and waited.stdout.count("\n") > 20


def test_a_foreign_holder_that_stays_is_named_after_the_wait(data):
    env = {**os.environ, "BENCHKG_LOCK_WAIT": "1"}
    with held_without_the_lock(data, 30):
        late = subprocess.run(
            [*BENCHKG, *ASK, "--data", str(data)], capture_output=True, text=True, env=env, timeout=60
        )
    assert late.returncode == 2 and "another program has it open" in late.stderr, late.stderr
    assert "delete" not in late.stderr and late.stdout == ""
