"""What a process leaves behind: threads of one process share a store without waiting on themselves,
`KnowledgeGraph.close()` (or `with`) lets the CLI in, and killing `benchkg build` or `benchkg serve`
with SIGKILL leaves no worker process running."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

import pytest

import benchkg
from benchkg.publish.serve import _answer
from conftest import DATA, FULL_DATA
from servers import free_port, wait_for

BENCHKG = [sys.executable, "-m", "benchkg.cli"]


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    return folder


def test_threads_of_one_process_share_one_store(data, monkeypatch):
    """Two threads once each took the store's lock in turn and the second waited for the first to
    close a store it never closed (600 s): a deadlock within one process."""
    monkeypatch.setenv("BENCHKG_LOCK_WAIT", "5")
    graphs = [benchkg.open(data), benchkg.open(data)]
    answers, errors = [], []

    def ask(kg):
        try:
            answers.append([(r["claim"], r["value"]) for r in kg.query("leaderboard", scenario="offline")])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=ask, args=(kg,)) for kg in graphs for _ in range(2)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert len(answers) == 4 and all(a == answers[0] for a in answers) and answers[0]
    assert time.monotonic() - started < 60
    for kg in graphs:
        kg.close()


def test_a_closed_graph_lets_the_command_line_in(data):
    with benchkg.open(data) as kg:
        assert kg.query("submitters-per-round")
    env = {**os.environ, "BENCHKG_LOCK_WAIT": "3"}
    started = time.monotonic()
    done = subprocess.run([*BENCHKG, "build", "--data", str(data)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "waiting" not in done.stderr and time.monotonic() - started < 30
    assert kg.query("submitters-per-round")  # opens again on use


def test_an_open_graph_is_named_by_the_command_that_waits_for_it(data):
    kg = benchkg.open(data)
    kg.query("submitters-per-round")
    env = {**os.environ, "BENCHKG_LOCK_WAIT": "1"}
    done = subprocess.run([*BENCHKG, "build", "--data", str(data)], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and f"pid {os.getpid()}" in done.stderr
    kg.close()


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def alive(pids: set[int]) -> set[int]:
    left = set()
    for pid in pids:
        try:
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            left.add(pid)
    return left


def wait_for_workers(pid: int, at_least: int, seconds: float = 60) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = descendants(pid)
        if len(found) >= at_least:
            return found
        time.sleep(0.05)
    pytest.fail(f"no {at_least} worker processes under {pid} within {seconds} s")


def test_a_killed_build_leaves_no_worker(tmp_path):
    """A cold build of the full data/ maps records in worker processes."""
    data = tmp_path / "data"
    shutil.copytree(FULL_DATA, data)
    build = subprocess.Popen(
        [*BENCHKG, "build", "--data", str(data)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    workers = wait_for_workers(build.pid, 2)
    build.send_signal(signal.SIGKILL)
    build.wait()
    deadline = time.monotonic() + 10
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(workers), f"workers still running after the build was killed: {alive(workers)}"


def test_a_killed_server_leaves_no_query_running(data):
    assert subprocess.run([*BENCHKG, "build", "--data", str(data)], capture_output=True).returncode == 0
    port = free_port()
    serve = subprocess.Popen(
        [*BENCHKG, "serve", "--port", str(port), "--timeout", "600", "--data", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/", "benchkg serve")
        cartesian = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
        url = f"http://127.0.0.1:{port}/query?" + urllib.parse.urlencode({"query": cartesian})
        threading.Thread(
            target=lambda: _ignore(lambda: urllib.request.urlopen(url, timeout=60).read()), daemon=True
        ).start()
        workers = wait_for_workers(serve.pid, 2)  # the fork server and the query's worker
        time.sleep(0.5)
        workers = descendants(serve.pid) | workers
    finally:
        serve.send_signal(signal.SIGKILL)
        serve.wait()
    deadline = time.monotonic() + 10
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(workers), f"still running after serve was killed: {alive(workers)}"


@pytest.mark.parametrize("parent_alive", [True, False], ids=["its-fork-server-runs", "its-fork-server-is-gone"])
def test_a_query_worker_whose_fork_server_is_gone_ends_at_once(tmp_path, parent_alive):
    """Regression: a query worker forked just before ``serve`` (and with it the fork server) was
    killed, and not yet sworn to die with its parent, was adopted by init and ran its cartesian
    query for good (seen under load: 20 minutes of CPU). Told its fork server's pid, a worker whose
    parent is another process ends before it reads the query."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    parent = os.getpid() if parent_alive else gone.pid
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }"
    args = (send, str(tmp_path / "no-store"), query, "", "", 10**6, time.time() + 0.5, False, parent)
    worker = context.Process(target=_answer, args=args)
    worker.start()
    send.close()
    worker.join(30)
    if parent_alive:  # it runs: no store built yet, so it answers 503 when its time is up
        assert worker.exitcode == 0 and receive.recv()[0] == 503
    else:
        assert worker.exitcode == -signal.SIGKILL
        with pytest.raises(EOFError):  # killed before it answered anything
            receive.recv()


def _ignore(call):
    try:
        call()
    except Exception:  # noqa: BLE001 - the server is killed under it
        pass
