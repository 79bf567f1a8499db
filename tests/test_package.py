"""benchkg as a package other data repositories use: the wheel installed (not editable) in a fresh
venv and run from another folder, `benchkg init`, the pre-commit hook through `pre-commit try-repo`,
and the GitHub Action's steps run as a workflow runs them.

These tests build and install a real wheel (about a minute, once per session); pip fetches the
dependencies from the package registry or its cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from benchkg.kernel.resources import REFERENCE_KINDS, ROOT
from benchkg.records.scaffold import FILES
from conftest import DATA, cli

pytestmark = pytest.mark.external  # builds a wheel into a virtual environment of its own

EXAMPLE_CLAIM = "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server"


def run(args, cwd, env=None, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def venv(tmp_path_factory) -> Path:
    """A fresh venv (no system site-packages) with benchkg installed from a wheel built from this checkout."""
    root = tmp_path_factory.mktemp("wheel")
    # built from a copy: setuptools builds in the source tree's build/, which two workers would share
    source = root / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", ".benchkg", "site", "__pycache__"),
    )
    built = run([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "--quiet", "-w", root / "dist"], root)
    assert built.returncode == 0, built.stderr
    wheel = next((root / "dist").glob("benchkg-*.whl"))
    made = run([sys.executable, "-m", "venv", root / "venv"], root)
    assert made.returncode == 0, made.stderr
    installed = run([root / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet", wheel], root)
    assert installed.returncode == 0, installed.stderr
    return root / "venv"


def in_venv(venv: Path) -> dict:
    """The environment of a shell in which ``venv`` is activated (and no BENCHKG_* leaks in)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BENCHKG_", "PYTHON", "VIRTUAL_ENV"))}
    return {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}", "VIRTUAL_ENV": str(venv), "COLUMNS": "200"}


def test_the_wheel_carries_every_file_from_its_one_place(venv):
    """Ontology, shapes, queries, context and the reference kinds are in the installed package, byte
    for byte as at the top of the repository; of claims and systems, the audited MLPerf ones only (the
    seed vendor claims and their racks are not the reference set)."""
    site = run([venv / "bin" / "python", "-c", "import benchkg.kernel.resources as r; print(r.SHARE)"], ROOT)
    share = Path(site.stdout.strip())
    assert share.parts[-2:] == ("benchkg", "share") and "site-packages" in share.parts
    for folder, pattern in (("ontology", "**/*.*"), ("shapes", "*.ttl"), ("queries", "*.rq")):
        mine = {p.relative_to(ROOT / folder): p.read_bytes() for p in (ROOT / folder).glob(pattern) if p.is_file()}
        theirs = {p.relative_to(share / folder): p.read_bytes() for p in (share / folder).glob(pattern) if p.is_file()}
        assert mine and theirs == mine, folder
    kinds = sorted(p.name for p in (share / "reference").iterdir() if p.is_dir() and p.name != "__pycache__")
    assert kinds == sorted(REFERENCE_KINDS + ("benchmarks", "systems"))
    for kind in REFERENCE_KINDS:
        assert sorted(p.name for p in (share / "reference" / kind).glob("*.json")) == sorted(
            p.name for p in (ROOT / "data" / kind).glob("*.json")
        ), kind
    for kind in ("benchmarks", "systems"):
        assert sorted(p.name for p in (share / "reference" / kind).glob("*.json")) == sorted(
            p.name for p in (ROOT / "data" / kind).glob("mlperf-*.json")
        ), kind


def test_the_wheel_holds_py_typed_and_every_importers_sample(venv):
    """The installed package is typed (PEP 561: py.typed) and each of benchkg's importers finds its sample
    in it, byte for byte as in the checkout (not in tests/fixtures, which a wheel has not)."""
    code = (
        "import benchkg, pathlib; from benchkg.importers.contract import listing\n"
        "print(pathlib.Path(benchkg.__file__).with_name('py.typed').is_file())\n"
        "for found in listing(): print(found.name, found.importer.sample)"
    )
    shown = run([venv / "bin" / "python", "-c", code], ROOT, env=in_venv(venv))
    assert shown.returncode == 0, shown.stderr
    typed, *lines = shown.stdout.splitlines()
    assert typed == "True", "py.typed is not in the wheel"
    samples = dict(line.split(" ", 1) for line in lines)
    assert sorted(samples) == ["epoch", "inferencex", "mlperf"]
    ours = ROOT / "src" / "benchkg" / "importers" / "samples"
    for name, where in samples.items():
        sample = Path(where)
        assert "site-packages" in sample.parts and sample.exists(), (name, sample)
        mine = ours / sample.relative_to(next(p for p in sample.parents if p.name == "samples"))

        def contents(root: Path) -> dict[Path, bytes]:
            files = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()]
            return {p.relative_to(root): p.read_bytes() for p in files}

        assert contents(sample) == contents(mine) != {}, name


def test_pyproject_lists_the_reference_kinds_resources_names():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert sorted(p.rsplit(".", 1)[1] for p in packages if p.startswith("benchkg.share.reference.")) == sorted(
        REFERENCE_KINDS + ("benchmarks", "systems")
    )


def test_the_installed_wheel_runs_every_command_from_another_folder(venv, tmp_path):
    work = tmp_path / "elsewhere"
    shutil.copytree(DATA, work / "data")
    env = in_venv(venv)

    listed = run(["benchkg", "queries"], work, env)
    assert listed.returncode == 0, listed.stderr
    assert sorted(re.findall(r"^([a-z-]+):", listed.stdout, re.M)) == sorted(
        p.stem for p in (ROOT / "queries").glob("*.rq")
    )

    built = run(["benchkg", "build"], work, env)
    assert built.returncode == 0 and re.search(r"\d+ added", built.stdout), built.stderr

    validated = run(["benchkg", "validate", "--format", "json"], work, env)
    here = cli("validate", "--format", "json", "--data", DATA)
    assert validated.returncode == here.exit_code == 0, validated.stderr
    strip = lambda doc: [{**f, "file": Path(f["file"]).name} for f in json.loads(doc)["findings"]]  # noqa: E731
    assert strip(validated.stdout) == strip(here.stdout)

    args = ["query", "accelerator-fabrics", "--format", "csv"]
    answered = run(["benchkg", *args], work, env)
    assert answered.returncode == 0, answered.stderr
    assert answered.stdout == cli(*args, "--data", DATA).stdout and answered.stdout.count("\n") > 20

    shown = run(["benchkg", "show", EXAMPLE_CLAIM], work, env)
    assert shown.returncode == 0 and shown.stdout.startswith(f"benchmarks/{EXAMPLE_CLAIM}"), shown.stderr

    exported = run(["benchkg", "export", "-o", "graph.nt"], work, env)
    assert exported.returncode == 0, exported.stderr
    cli("export", "-o", tmp_path / "here.nt", "--data", DATA)
    assert sorted((work / "graph.nt").read_text().splitlines()) == sorted(
        (tmp_path / "here.nt").read_text().splitlines()
    )

    site = run(["benchkg", "site", "-o", "site"], work, env)
    assert site.returncode == 0, site.stderr
    assert (work / "site" / "ontology" / "benchkg.ttl").read_bytes() == (ROOT / "ontology" / "benchkg.ttl").read_bytes()
    assert (work / "site" / "id" / "benchmarks" / EXAMPLE_CLAIM / "index.html").is_file()


def test_a_missing_data_folder_is_exit_2_in_one_line_and_leaves_nothing(venv, tmp_path):
    result = run(["benchkg", "validate", "--data", "mydata"], tmp_path, in_venv(venv))
    assert result.returncode == 2
    assert result.stderr == "Error: mydata: data folder not found; pass --data DIR or set BENCHKG_DATA\n"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def data_repo(venv, tmp_path) -> Path:
    """A data repository made by the installed `benchkg init`, in a git repository with its files added."""
    made = run(["benchkg", "init", "claims"], tmp_path, in_venv(venv))
    assert made.returncode == 0, made.stderr
    repo = tmp_path / "claims"
    for args in (["init", "-q"], ["add", "-A"]):
        assert run(["git", *args], repo).returncode == 0
    return repo


def test_init_writes_a_data_repository_that_validates_on_the_reference_set(data_repo, venv):
    assert {
        str(p.relative_to(data_repo)) for p in data_repo.rglob("*") if p.is_file() and ".git/" not in str(p)
    } >= set(FILES) | {f"data/benchmarks/{EXAMPLE_CLAIM}.json", "data/systems/coreweave-gb200-nvl72.json"}
    # the example claim names suites, models, sources and gotchas it does not copy
    assert not (data_repo / "data" / "models" / "llama2-70b.json").exists()
    env = in_venv(venv)
    checked = run(["benchkg", "validate"], data_repo, env)
    assert checked.returncode == 0 and "0 violation(s)" in checked.stdout, checked.stdout + checked.stderr
    answer = run(
        # (accuracy=any: the example claim states no tier, and the reference set's Llama 2 70B results do)
        [
            "benchkg",
            "query",
            "leaderboard",
            "--param",
            "suite=mlperf-inference-v6.1",
            "--param",
            "accuracy=any",
            "--format",
            "json",
        ],
        data_repo,
        env,
    )
    assert EXAMPLE_CLAIM in [row["claim"] for row in json.loads(answer.stdout)]
    assert run(["git", "status", "--porcelain", "--ignored"], data_repo).stdout.count(".benchkg/") == 1  # ignored


def pre_commit(repo: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path.parent / "pre-commit-home"), "NO_COLOR": "1"}
    exe = Path(sys.executable).with_name("pre-commit")
    return run([exe, "try-repo", ROOT, "benchkg-validate", "--all-files"], repo, env, timeout=900)


def test_pre_commit_try_repo_passes_a_good_record_and_fails_a_malformed_one(data_repo, tmp_path):
    good = pre_commit(data_repo, tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    assert re.search(r"benchkg validate\.+Passed", good.stdout)

    bad = data_repo / "data" / "benchmarks" / "bad.json"
    bad.write_text('{\n  "id": "bad",\n  "value": "910,621"\n}\n')
    run(["git", "add", "-A"], data_repo)
    failed = pre_commit(data_repo, tmp_path)
    assert failed.returncode == 1, failed.stdout
    assert re.search(r"benchkg validate\.+Failed", failed.stdout)
    assert (
        "data/benchmarks/bad.json:3: /value: expected a number, got string; write 910621 without quotes"
        in failed.stdout
    )


def action_steps() -> list[dict]:
    return yaml.safe_load((ROOT / "action.yml").read_text())["runs"]["steps"]


def run_action(repo: Path, venv: Path, install: bool = True, **inputs: str) -> subprocess.CompletedProcess:
    """The action's steps as a runner runs them: ``${{ inputs.X }}`` filled in (defaults unless given),
    GITHUB_ACTION_PATH the action's folder, each ``run`` in ``bash -e``; the ``uses`` step that sets up
    Python is played by ``venv``; ``install=False`` skips installing benchkg again. Returns the last
    step's result (stdout of every step joined)."""
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()} | inputs
    fill = lambda text: re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: values[m.group(1)], str(text))  # noqa: E731
    out, result = "", None
    for step in action["runs"]["steps"]:
        if "uses" in step:
            assert step["uses"].startswith("actions/setup-python@")
            continue
        if not install and step.get("name") == "Install benchkg":
            continue
        assert step["shell"] == "bash"
        env = {**in_venv(venv), "GITHUB_ACTION_PATH": str(ROOT), **{k: fill(v) for k, v in step.get("env", {}).items()}}
        result = run(["bash", "-e", "-c", fill(step["run"])], repo, env)
        out += result.stdout
        if result.returncode:
            break
    result.stdout = out
    return result


def test_the_action_annotates_findings_and_unreadable_files(data_repo, venv):
    assert [s.get("name", s.get("uses")) for s in action_steps()] == [
        "actions/setup-python@v5",
        "Install benchkg",
        "Validate",
    ]
    clean = run_action(data_repo, venv)
    assert clean.returncode == 0, clean.stderr
    assert "::error" not in clean.stdout and "::warning file=data/benchmarks/" in clean.stdout
    strict = run_action(data_repo, venv, install=False, strict="true")
    assert strict.returncode == 1  # the example claim has a warning

    claim = data_repo / "data" / "benchmarks" / f"{EXAMPLE_CLAIM}.json"
    claim.write_text(claim.read_text().replace('"scenario": "server"', '"scenario": "serverr"'))
    broken = run_action(data_repo, venv, install=False)
    assert broken.returncode == 1
    line = next(n for n, text in enumerate(claim.read_text().splitlines(), 1) if '"serverr"' in text)
    assert (
        f"::error file=data/benchmarks/{EXAMPLE_CLAIM}.json,line={line},title=vocab-scenario /scenario::"
        in broken.stdout
    )

    claim.write_text('{\n  "id": \n}\n')
    unreadable = run_action(data_repo, venv, install=False)
    assert unreadable.returncode == 2
    assert unreadable.stdout.startswith(
        f"::error file=data/benchmarks/{EXAMPLE_CLAIM}.json,line=3,title=input-error /::malformed JSON"
    )


def test_a_vendor_claim_of_ones_own_meets_the_audited_result_at_its_count(data_repo, venv, tmp_path):
    """Issue 21 as the README tells it: in a repository from the installed `benchkg init`, the vendor
    claim and source the README gives (4 GB300 GPUs, gpt-oss-120b Offline) pair with the best audited
    GB300 result at 4 GPUs of its round, and compare exits 0 against an MLPerf result id."""
    readme = (ROOT / "docs" / "data-repository.md").read_text(encoding="utf-8")
    for path, text in re.findall(r"<!-- own-claim: (\S+) -->\n```json\n(.*?)```", readme, re.S):
        (data_repo / path).write_text(text, encoding="utf-8")
    claim = json.loads((data_repo / "data/benchmarks/acme-gb300x4-gpt-oss-120b-offline.json").read_text())
    env = {**in_venv(venv), "XDG_CACHE_HOME": str(tmp_path / "cache")}  # a first run: the cache is prepared
    checked = run(["benchkg", "validate"], data_repo, env)
    assert checked.returncode == 0 and "0 violation(s)" in checked.stdout, checked.stdout + checked.stderr
    answer = run(["benchkg", "query", "vendor-vs-audited", "--format", "json"], data_repo, env)
    assert answer.returncode == 0, answer.stderr
    row = next(r for r in json.loads(answer.stdout) if r["vendor_claim"] == claim["id"])
    # the best audited per-accelerator value of the chip, model and scenario at 4 GPUs in the claim's round
    # (nearest: the same round first), from the records
    audited = [
        json.loads(p.read_text()) for p in (ROOT / "data" / "benchmarks").glob("mlperf-*-gpt-oss-120b-offline.json")
    ]
    best = max(
        r["value"] / r["accelerator_count"]
        for r in audited
        if r["accelerator_ids"] == ["nvidia-gb300"]
        and r["accelerator_count"] == 4
        and r["division"] == "closed"
        and r["suite_id"] == claim["suite_id"]
    )
    assert row["audited_count"] == row["vendor_count"] == 4 and row["scale"] == "same count"
    assert abs(row["audited_per_accelerator"] - best) < 1e-3
    assert abs(row["ratio"] - round(claim["value"] / 4 / best, 4)) < 1e-4
    audited_id = row["audited_claim"]
    compared = run(["benchkg", "compare", claim["id"], audited_id], data_repo, env)
    assert compared.returncode == 0, compared.stderr
    assert "- measured by: vendor vs mlcommons" in compared.stdout and "Caveats this pair triggers" in compared.stdout
    again = run(["benchkg", "compare", claim["id"], "mlperf-6.0-0079-gpt-oss-120b-offline"], data_repo, env)
    assert again.returncode == 0 and "ratio:" in again.stdout
