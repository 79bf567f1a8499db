"""Bad outputs and hostile arguments: exit 2 naming what to fix, and nothing written or replaced —
an export onto a folder or a device, into the data folder, a query file that is not UTF-8, a
parameter no store can hold, an importer handed /dev/zero. Written files honour the umask, and a
temporary left by a killed run is removed by the next."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from conftest import cli


def tree_hash(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def test_an_export_onto_a_folder_is_refused_and_the_folder_kept(data_copy, tmp_path):
    target = tmp_path / "out.nq"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    before = tree_hash(target)
    result = cli("export", "-o", target, "--data", data_copy)
    assert result.exit_code == 2 and f"{target} is a folder; give a file name" in result.stderr
    assert tree_hash(target) == before and not list(target.parent.glob(".out.nq.*"))


def test_an_export_onto_a_device_is_refused_and_the_device_kept(data_copy):
    result = cli("export", "-o", "/dev/null", "--format", "nq", "--data", data_copy)
    assert result.exit_code == 2 and "/dev/null is not a regular file" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("command", [["export", "-o", "{data}/benchmarks/x.nq"], ["site", "-o", "{data}/site"]])
def test_outputs_inside_the_data_folder_are_refused(data_copy, command):
    before = tree_hash(data_copy)
    result = cli(*[a.format(data=data_copy) for a in command], "--data", data_copy)
    assert result.exit_code == 2 and "is inside the data folder" in result.stderr
    assert tree_hash(data_copy) == before


def test_a_query_file_that_is_not_utf8_names_its_line(data_copy, tmp_path):
    rq = tmp_path / "latin1.rq"
    rq.write_bytes(b'# caf\xc3\xa9 is fine\nSELECT * WHERE { ?s ?p "caf\xe9" }\n')
    result = cli("query", rq, "--data", data_copy)
    assert result.exit_code == 2 and f"{rq}:2: not valid UTF-8 (byte 0xe9)" in result.stderr


@pytest.mark.parametrize(
    "value,said",
    [("1e999999999", "is too large"), ("1e-999999999", "more than 18 decimal places"), ("1" * 5000, "has 5000 digits")],
)
def test_a_parameter_no_store_can_hold_is_refused(data_copy, value, said):
    result = cli("query", "round-over-round", "-p", f"accelerator_count={value}", "--data", data_copy)
    assert result.exit_code == 2 and said in result.stderr and "accelerator_count" in result.stderr


def test_an_importer_handed_a_device_refuses_it(tmp_path):
    out = tmp_path / "out"
    result = cli("import", "epoch", "/dev/zero", "--out", out)
    assert result.exit_code == 2 and "/dev/zero: not a regular file" in result.stderr
    assert not out.exists()


def test_written_files_honour_the_umask_and_stale_temporaries_go(data_copy, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    stale = out / ".graph.nq.999999999-x.tmp"  # a run that was killed mid-write (no such pid)
    stale.write_text("half")
    old = os.umask(0o022)
    try:
        result = cli("export", "-o", out / "graph.nq", "--data", data_copy)
    finally:
        os.umask(old)
    assert result.exit_code == 0
    assert stat.S_IMODE((out / "graph.nq").stat().st_mode) == 0o644
    assert not stale.exists() and sorted(p.name for p in out.iterdir()) == ["graph.nq"]
