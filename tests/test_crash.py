"""Builds are transactions: a build cut off anywhere (SIGKILL or Ctrl-C at a seeded random moment) or
failing on a record it cannot map leaves the store as it was or as the next build makes it, never
holding a number the files do not say. Each round edits hundreds of values, interrupts a build, puts
the files back, builds again, and compares the export with a clean build's, byte for byte.

``BENCHKG_CRASH_ROUNDS`` sets the rounds (4 here; ``scripts/crash-builds`` runs 40)."""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import benchkg.graph.store as store_module
from benchkg.graph.opening import open_store, store_dir_for
from benchkg.graph.store import build_graph
from benchkg.kernel.errors import InputError
from benchkg.publish.export import serialize_graph
from benchkg.records.reader import RACY_S, SAVING_PAUSES, read_record
from conftest import DATA, FULL_DATA

pytestmark = pytest.mark.slow  # builds killed at many points

ROUNDS = int(os.environ.get("BENCHKG_CRASH_ROUNDS", "4"))
SEED = int(os.environ.get("BENCHKG_CRASH_SEED", "20261203"))
BENCHKG = [sys.executable, "-m", "benchkg.cli"]
VALUE = re.compile(rb'("value": )(\d+(?:\.\d+)?)')


@pytest.fixture
def data(tmp_path) -> Path:
    """The seed data and 400 imported MLPerf claims: hundreds of values to edit."""
    target = tmp_path / "repo" / "data"
    shutil.copytree(DATA, target)
    for path in sorted((FULL_DATA / "benchmarks").glob("mlperf-*.json"))[:400]:
        shutil.copyfile(path, target / "benchmarks" / path.name)
    return target


def files_of(data: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in data.rglob("*.json")}


def edit_values(data: Path) -> int:
    """Every claim's value times seven (written anew, so size, mtime and hash change); how many."""
    edited = 0
    for path in (data / "benchmarks").glob("*.json"):
        text = path.read_bytes()
        new = VALUE.sub(lambda m: m.group(1) + str(int(float(m.group(2)) * 7) + 1).encode(), text, count=1)
        if new != text:
            path.write_bytes(new)
            edited += 1
    return edited


def put_back(files: dict[Path, bytes]) -> None:
    for path, content in files.items():
        path.write_bytes(content)


def export(data: Path, in_process: bool = False) -> bytes:
    """The store's content as N-Quads, in benchkg's stable order (what `benchkg export` writes), read
    as it is: the store this process builds, or read-only between the builds of other processes."""
    from pyoxigraph import Store

    store = open_store(store_dir_for(data)) if in_process else Store.read_only(str(store_dir_for(data)))
    out = serialize_graph(store, "nq")
    del store  # closed before the next build opens it
    return out


def build(data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*BENCHKG, "build", "--data", str(data)], capture_output=True, text=True, timeout=600)


def clean_export(data: Path, tmp: Path) -> bytes:
    """What a build from nothing gives for the files as they are now."""
    copy = tmp / f"clean-{time.monotonic_ns()}" / "data"
    shutil.copytree(data, copy)
    return serialize_graph(build_graph(copy, persist=False).store, "nq")


def test_a_build_cut_off_anywhere_is_repaired_by_the_next(data, tmp_path):
    assert build(data).returncode == 0
    files = files_of(data)
    expected = clean_export(data, tmp_path)
    assert export(data) == expected
    # how long a build of the edits takes, so the kills fall across it
    assert edit_values(data) >= 400
    started = time.monotonic()
    assert build(data).returncode == 0
    span = time.monotonic() - started
    edited = export(data)
    assert edited != expected
    rng = random.Random(SEED)
    cut = round_ = 0
    while cut < ROUNDS and round_ < 3 * ROUNDS:  # a round whose build finished first is run again
        put_back(files)
        assert build(data).returncode == 0 and export(data) == expected
        edit_values(data)
        proc = subprocess.Popen(
            [*BENCHKG, "build", "--data", str(data)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.2, max(span, 0.3)))
        proc.send_signal(signal.SIGKILL if round_ % 2 == 0 else signal.SIGINT)
        finished = proc.wait() == 0
        cut += not finished
        if finished:  # the machine builds faster than when the span was measured (less load now)
            span *= 0.6
        put_back(files)  # the edits undone: the next build must give back exactly the old numbers
        done = build(data)
        assert done.returncode == 0, done.stderr
        assert export(data) == expected, f"round {round_}: the store holds what the files do not say"
        round_ += 1
    assert cut >= ROUNDS // 2, "the builds finished before they were cut off: nothing was tested"


def test_a_record_that_cannot_be_mapped_leaves_it_as_it_was_and_is_retried(data, tmp_path, monkeypatch):
    assert build(data).returncode == 0
    files = files_of(data)
    expected = clean_export(data, tmp_path)
    edit_values(data)
    victim = sorted((data / "benchmarks").glob("mlperf-*.json"))[200]
    real = store_module.record_quads

    def failing(record, base):
        if record.path == victim:
            raise ValueError("injected mapping failure")
        return real(record, base)

    monkeypatch.setattr(store_module, "record_quads", failing)
    with pytest.raises(InputError) as failed:
        build_graph(data)
    assert [p.path for p in failed.value.problems] == [victim] and "injected" in str(failed.value)
    monkeypatch.setattr(store_module, "record_quads", real)
    after_failure = export(data, in_process=True)
    # the other edits are in; the victim still has its old value (nothing half-written, nothing lost)
    victim_iri = f"<https://w3id.org/benchkg/id/benchmarks/{victim.stem}>".encode()
    old_value = VALUE.search(files[victim]).group(2)
    assert any(
        line.endswith(victim_iri + b" .") and b'"' + old_value + b'"' in line for line in after_failure.splitlines()
    )
    edited_expected = clean_export(data, tmp_path)
    assert build_graph(data).touched  # the victim is retried once it maps: the build does not say "unchanged"
    assert export(data, in_process=True) == edited_expected
    put_back(files)
    build_graph(data)
    assert export(data, in_process=True) == expected


EDIT_ROUNDS = int(os.environ.get("BENCHKG_EDIT_ROUNDS", "6"))
DIGIT = re.compile(rb'("value": )(\d)')


def edit_in_place(path: Path, rng: random.Random) -> None:
    """Change one digit of the claim's value, keeping the size, and put the mtime back: only the
    content (and the ctime, which no program can set) says the file changed."""
    before = path.stat()
    text = path.read_bytes()
    m = DIGIT.search(text)
    digit = int(m.group(2))
    new = text[: m.start(2)] + str((digit + rng.randint(1, 8)) % 10 or 1).encode() + text[m.end(2) :]
    path.write_bytes(new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_file_being_saved_is_read_once_written_and_an_old_empty_file_is_an_error(data):
    """An editor that saves in place truncates the file, then writes it: a build that opens it in
    between read an empty file and failed (CI saw it in the test below). An empty file that changed
    a moment ago is read again after a pause; one that has been empty for a while is reported at once."""
    path = sorted((data / "benchmarks").glob("mlperf-*.json"))[3]
    text = path.read_bytes()
    path.write_bytes(b"")
    writer = threading.Timer(0.2, path.write_bytes, args=(text,))
    writer.start()
    try:
        record = read_record(path, "benchmarks")
    finally:
        writer.join()
    assert record.id == path.stem and record.digest == hashlib.sha256(text).hexdigest()
    path.write_bytes(b"")
    old = time.time_ns() - 60 * 10**9
    os.utime(path, ns=(old, old))
    time.sleep(RACY_S)  # the ctime moved with the utime: let it age
    started = time.monotonic()
    with pytest.raises(InputError, match="file is empty"):
        read_record(path, "benchmarks")
    assert time.monotonic() - started < SAVING_PAUSES[0], "an old empty file was waited for"


def test_a_file_that_keeps_its_size_and_mtime_is_seen_to_change(data, tmp_path):
    assert build(data).returncode == 0
    victim = sorted((data / "benchmarks").glob("mlperf-*.json"))[10]
    edit_in_place(victim, random.Random(1))
    assert build(data).returncode == 0
    assert export(data) == clean_export(data, tmp_path)


def test_files_edited_while_a_build_reads_them_are_built_by_the_next(data, tmp_path):
    """Seeded rounds: a build of 400 edited claims runs while, at a random moment, 60 random claims
    change again (some keeping their size and mtime). The next build must leave the store equal to
    a clean build of the files as they are then: before, a file edited after the build read it kept
    its old value for good (the build recorded the new file's state beside the old content)."""
    rng = random.Random(SEED)
    assert build(data).returncode == 0
    claims = sorted((data / "benchmarks").glob("*.json"))
    edit_values(data)
    started = time.monotonic()
    assert build(data).returncode == 0
    span = time.monotonic() - started
    during = round_ = 0
    while during < EDIT_ROUNDS and round_ < 3 * EDIT_ROUNDS:  # a round whose build finished first is run again
        edit_values(data)  # a build with work to do
        proc = subprocess.Popen(
            [*BENCHKG, "build", "--data", str(data)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        time.sleep(rng.uniform(0.0, span))
        for path in rng.sample(claims, 60):
            if rng.random() < 0.5:
                edit_in_place(path, rng)
            else:
                path.write_bytes(
                    VALUE.sub(lambda m: m.group(1) + str(rng.randint(1, 10**6)).encode(), path.read_bytes(), count=1)
                )
        running = proc.poll() is None
        during += running
        if not running:  # the machine builds faster than when the span was measured (less load now)
            span *= 0.6
        assert proc.wait(timeout=600) == 0, proc.stderr.read()
        assert build(data).returncode == 0
        assert export(data) == clean_export(data, tmp_path), f"round {round_}: an edit made during the build was lost"
        round_ += 1
    assert during >= EDIT_ROUNDS // 2, "the builds finished before the edits: nothing was tested"
