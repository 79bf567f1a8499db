"""The bad-input corpus: every file in tests/fixtures/invalid/ gives exactly its expected exit code
and message, never a traceback, and a failed build leaves the store exactly as it was."""
from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from benchkg.store import open_store, store_dir_for

from conftest import DATA, FIXTURES, cli

INVALID = FIXTURES / "invalid"
CASES = sorted(p.name[: -len(".expected")] for p in INVALID.glob("*.expected"))


def read_expected(name: str) -> tuple[dict, str]:
    header, body = {}, []
    for line in (INVALID / f"{name}.expected").read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and ":" in line and not body:
            key, _, value = line[2:].partition(":")
            header[key.strip()] = value.strip()
        else:
            body.append(line)
    return header, "\n".join(body).strip("\n")


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
    else:
        target = data / header.get("place", f"benchmarks/{name}.json")
        target.write_bytes((INVALID / f"{name}.json").read_bytes())


def snapshot(data: Path) -> set[str]:
    gc.collect()  # release any store a finished command still holds
    store = open_store((store_dir_for(data)))
    quads = {str(q) for q in store}
    del store
    gc.collect()
    return quads


def test_corpus_is_large_and_complete():
    inputs = {p.stem for p in INVALID.glob("*.json")}
    generated = {n for n in CASES if read_expected(n)[0].get("generate")}
    assert len(CASES) >= 100
    assert inputs | generated == set(CASES), "every fixture needs its .expected file and vice versa"


@pytest.fixture(scope="module")
def built_seed(tmp_path_factory) -> Path:
    """The seed data built once: each case copies it with its store (a no-op build then)."""
    import shutil

    from benchkg.store import close_store

    root = tmp_path_factory.mktemp("built-seed")
    shutil.copytree(DATA, root / "data")
    assert cli("build", "--data", root / "data").exit_code == 0
    close_store(store_dir_for(root / "data"))
    return root


@pytest.fixture
def data_copy(built_seed, tmp_path) -> Path:
    import shutil

    shutil.copytree(built_seed, tmp_path / "case")  # data/ and .benchkg/ beside it, mtimes kept
    return tmp_path / "case" / "data"


@pytest.mark.parametrize("name", CASES)
def test_invalid_input(name, data_copy):
    header, expected = read_expected(name)
    command = header.get("command", "build")
    first = cli("build", "--data", data_copy)
    assert first.exit_code == 0
    del first
    before = snapshot(data_copy)
    place(name, header, data_copy)
    result = cli(command, "--data", data_copy)
    assert result.exit_code == int(header["exit"]), result.output
    assert "Traceback" not in result.output + (result.stderr or "")
    if command == "build":
        got = result.stderr.replace(str(data_copy), "{data}").strip("\n")
    else:
        got = "\n".join(line.replace(str(data_copy), "{data}") for line in result.stdout.splitlines()
                        if f"/{name}.json" in line or f"{os.sep}{name}." in line)
    assert got == expected
    code = result.exit_code
    del result
    if code == 2:
        assert snapshot(data_copy) == before, "a failed build changed the store"


def regenerate() -> None:
    """Rewrite every .expected body from the current output (review the diff before committing)."""
    import shutil
    import tempfile

    from conftest import DATA

    for name in CASES:
        header, _ = read_expected(name)
        data = Path(tempfile.mkdtemp()) / "data"
        shutil.copytree(DATA, data)
        place(name, header, data)
        command = header.get("command", "build")
        result = cli(command, "--data", data)
        if command == "build":
            body = result.stderr.replace(str(data), "{data}").strip("\n")
        else:
            body = "\n".join(line.replace(str(data), "{data}") for line in result.stdout.splitlines()
                             if f"/{name}.json" in line)
        head = "".join(f"# {k}: {v}\n" for k, v in header.items() if k != "exit")
        (INVALID / f"{name}.expected").write_text(f"{head}# exit: {result.exit_code}\n{body}\n")
        shutil.rmtree(data.parent)


if __name__ == "__main__":  # python tests/test_invalid_inputs.py
    regenerate()
