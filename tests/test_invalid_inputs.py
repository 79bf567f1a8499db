"""The bad-input corpus: every case in tests/fixtures/invalid/ gives exactly its expected exit code
and message, never a traceback and never exit 3, and a failed build leaves the store exactly as it was.

A case is ``<name>.expected`` (headers, then the expected output) and its input: ``<name>.json`` (a
record file by default), a file of another kind (``<name>.rq``, ``.ttl``, ``.toml``, ``.csv``), or a
folder ``<name>/`` (an MLPerf round, say), placed where ``# place:`` says, relative to the data folder
(``../`` reaches the case folder around it). See tests/fixtures/invalid/README.md.
"""

from __future__ import annotations

import gc
import os
import re
import shlex
import shutil
from collections import Counter
from pathlib import Path

import pytest

from benchkg.graph.opening import open_store, store_dir_for
from conftest import DATA, FIXTURES, cli

pytestmark = pytest.mark.slow  # the hostile-input corpus: every case a command of its own

INVALID = FIXTURES / "invalid"
CASES = sorted(p.name[: -len(".expected")] for p in INVALID.glob("*.expected"))
#: commands that read --data (the others name their inputs themselves)
TAKES_DATA = {
    "build",
    "validate",
    "query",
    "queries",
    "show",
    "compare",
    "export",
    "site",
    "push",
    "serve",
    "reference",
    "draft",
    "results",
}


def read_expected(name: str) -> tuple[dict, str]:
    header, body = {}, []
    for line in (INVALID / f"{name}.expected").read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and ":" in line and not body:
            key, _, value = line[2:].partition(":")
            header[key.strip()] = value.strip()
        else:
            body.append(line)
    return header, "\n".join(body).strip("\n")


def input_of(name: str) -> Path | None:
    """The case's input: a file named after it (any extension) or a folder."""
    found = [p for p in INVALID.iterdir() if p.name == name or (p.stem == name and p.suffix != ".expected")]
    return found[0] if found else None


def place(name: str, header: dict, data: Path) -> None:
    how = header.get("generate")
    if how == "folder-not-a-kind":
        (data / "benchmark").mkdir()
        (data / "benchmark" / "x.json").write_text("{}")
    elif how == "directory-named-json":
        (data / "benchmarks" / "x.json").mkdir()
    elif how == "symlink-loop":
        (data / "benchmarks" / "loop-a.json").symlink_to("loop-b.json")
        (data / "benchmarks" / "loop-b.json").symlink_to("loop-a.json")
    elif how == "fifo":  # reading it would wait for a writer forever
        os.mkfifo(data / "benchmarks" / "pipe.json")
    elif how == "symlink-to-dev-zero":  # reading it would fill memory
        (data / "benchmarks" / "zeros.json").symlink_to("/dev/zero")
    elif how == "newline-in-file-name":
        (data / "models" / "two\nlines.json").write_text('{"id": "two-lines", "name": "x"}')
    elif how == "fifty-megabyte-file":
        with open(data / "benchmarks" / "huge.json", "wb") as f:
            f.write(b'{"id": "huge", "notes": "' + b"x" * 50_000_000 + b'"}')
    elif how == "nothing":
        return
    elif how == "folder-named-like-a-file":
        (data / ".." / header["place"]).resolve().mkdir(parents=True)
    elif how == "lock-is-a-folder":
        lock = store_dir_for(data).parent / "lock"
        lock.unlink(missing_ok=True)
        lock.mkdir()
    source = input_of(name)
    if source is None or how:
        return
    target = (data / header.get("place", f"benchmarks/{name}.json")).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True)  # "place: .." lays a folder's files into the case
    else:
        target.write_bytes(source.read_bytes())


def command_of(header: dict, data: Path) -> list[str]:
    line = header.get("command", "build").replace("{data}", str(data)).replace("{case}", str(data.parent))
    args = shlex.split(line)
    if header.get("escapes") == "unicode":  # \u2028, \x85… written so the .expected file keeps one line
        args = [a.encode("ascii").decode("unicode_escape") for a in args]
    if args[0] in TAKES_DATA and "--data" not in args:
        args += ["--data", str(data)]
    return args


def output_of(name: str, header: dict, result, data: Path) -> str:
    """What the case compares: stderr by default (build, and every failing command), or the lines of
    stdout (``# stream: stdout``) that name the case's file or match ``# match: REGEX``."""
    stream = header.get("stream", "stdout" if header.get("command", "build").split()[0] == "validate" else "stderr")
    text = (result.stdout if stream == "stdout" else result.stderr) or ""
    text = text.replace(str(data.parent.resolve()), "{case}").replace(str(data.parent), "{case}")
    text = text.replace("{case}/data", "{data}")
    if "match" in header:
        pattern = re.compile(header["match"])
        return "\n".join(line for line in text.splitlines() if pattern.search(line))
    if stream == "stdout":
        return "\n".join(line for line in text.splitlines() if f"/{name}.json" in line or f"{os.sep}{name}." in line)
    return text.strip("\n")


def snapshot(data: Path) -> set[str]:
    gc.collect()  # release any store a finished command still holds
    store = open_store((store_dir_for(data)))
    quads = {str(q) for q in store}
    del store
    gc.collect()
    return quads


def test_corpus_is_large_and_complete():
    assert len(CASES) >= 150
    for name in CASES:
        header, _ = read_expected(name)
        assert input_of(name) is not None or header.get("generate"), f"{name}: no input and nothing to generate"
        assert header.get("exit") in ("0", "1", "2"), f"{name}: exit {header.get('exit')} (3 is never right for input)"
    inputs = {p.stem if p.is_file() else p.name for p in INVALID.iterdir() if p.suffix != ".expected"} - {"README"}
    assert inputs <= set(CASES), f"inputs without an .expected file: {sorted(inputs - set(CASES))}"


def test_the_corpus_covers_each_class_of_the_second_round():
    """Every class of the second probe has cases (their ``# class:`` header)."""
    classes = {read_expected(n)[0].get("class", "record") for n in CASES}
    assert {"record", "wrong-answer", "escape", "exit-3", "message"} <= classes


def test_the_table_in_the_docs_counts_the_corpus_by_class():
    """docs/conventions.md's table of the corpus: cases per ``# class:``, and of them each hostile round's
    (``# round: 4``, issue 45; ``# round: 5``, issue 64)."""
    from conftest import ROOT

    rounds = ("4", "5")
    counts: Counter = Counter()
    for name in CASES:
        header, _ = read_expected(name)
        kind = header.get("class", "record")
        counts[kind, "all"] += 1
        for r in rounds:
            counts[kind, r] += header.get("round") == r
    text = (ROOT / "docs" / "conventions.md").read_text()
    table = {
        m[0]: tuple(int(n) for n in m[1:])
        for m in re.findall(r"^\| ([a-z0-9-]+)[^|]* \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)
    }
    kinds = {kind for kind, _ in counts}
    assert table.pop("all") == (len(CASES), *(sum(counts[k, r] for k in kinds) for r in rounds))
    assert table == {kind: (counts[kind, "all"], *(counts[kind, r] for r in rounds)) for kind in kinds}
    assert all(table["wrong-answer"]) and table["escape"][1], "each round's cases are marked"


@pytest.fixture(scope="module")
def built_seed(tmp_path_factory) -> Path:
    """The seed data built once: each case copies it with its store (a no-op build then)."""
    from benchkg.graph.opening import close_store

    root = tmp_path_factory.mktemp("built-seed")
    shutil.copytree(DATA, root / "data")
    assert cli("build", "--data", root / "data").exit_code == 0
    close_store(store_dir_for(root / "data"))
    return root


@pytest.fixture
def data_copy(built_seed, tmp_path) -> Path:
    shutil.copytree(built_seed, tmp_path / "case")  # data/ and .benchkg/ beside it, mtimes kept
    return tmp_path / "case" / "data"


@pytest.mark.parametrize("name", CASES)
def test_invalid_input(name, data_copy, monkeypatch):
    header, expected = read_expected(name)
    first = cli("build", "--data", data_copy)
    assert first.exit_code == 0
    del first
    before = snapshot(data_copy)
    place(name, header, data_copy)
    monkeypatch.chdir(data_copy.parent)
    env = dict(pair.split("=", 1) for pair in header["env"].split()) if "env" in header else None
    result = cli(*command_of(header, data_copy), env=env)
    assert result.exit_code == int(header["exit"]), result.output
    assert "Traceback" not in result.output + (result.stderr or "")
    assert output_of(name, header, result, data_copy) == expected
    code = result.exit_code
    del result
    if code == 2 and header.get("command", "build").startswith("build"):
        assert snapshot(data_copy) == before, "a failed build changed the store"


def regenerate(only: list[str] | None = None) -> None:
    """Rewrite the .expected bodies from the current output (review the diff before committing)."""
    import tempfile

    from benchkg.graph.opening import close_store

    for name in only or CASES:
        header, _ = read_expected(name)
        data = Path(tempfile.mkdtemp()) / "case" / "data"
        shutil.copytree(DATA, data)
        cli("build", "--data", data)
        close_store(store_dir_for(data))
        place(name, header, data)
        cwd = os.getcwd()
        os.chdir(data.parent)
        env = dict(pair.split("=", 1) for pair in header["env"].split()) if "env" in header else None
        result = cli(*command_of(header, data), env=env)
        os.chdir(cwd)
        body = output_of(name, header, result, data)
        head = "".join(f"# {k}: {v}\n" for k, v in header.items() if k != "exit")
        (INVALID / f"{name}.expected").write_text(f"{head}# exit: {result.exit_code}\n{body}\n")
        del result
        close_store(store_dir_for(data))
        shutil.rmtree(data.parent.parent, ignore_errors=True)


if __name__ == "__main__":  # python tests/test_invalid_inputs.py [NAME...]
    import sys

    regenerate(sys.argv[1:] or None)
