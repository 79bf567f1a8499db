"""``benchkg init DIR``: a new data repository that keeps its own claims and uses benchkg's.

It writes the folder layout (``data/<kind>/``, ``queries/``, ``shapes/``), ``benchkg.toml`` (which
makes the folder a data repository, :mod:`benchkg.records.layout`), a ``.gitignore`` for ``.benchkg/``, an
example claim with its system, a pre-commit config and a GitHub workflow that run
``benchkg validate``, and a README.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from benchkg.kernel.atomic import current_umask
from benchkg.kernel.errors import UsageError, write_refused
from benchkg.kernel.resources import PACKAGE
from benchkg.kernel.version import __version__
from benchkg.records.schema import KINDS

#: benchkg's repository: the pre-commit hook and the GitHub Action (its action.yml) live there
REPO_URL = "https://github.com/benchkg/benchkg"
ACTION = "benchkg/benchkg"
TEMPLATES = PACKAGE / "templates"

#: file written -> template it comes from
FILES = {
    "benchkg.toml": "benchkg.toml",
    ".gitignore": "gitignore",
    ".pre-commit-config.yaml": "pre-commit-config.yaml",
    ".github/workflows/benchkg.yml": "workflow.yml",
    "README.md": "README.md",
}


def init_repo(target: Path) -> list[Path]:
    """Write a new data repository in ``target`` (missing or empty); returns the files written.

    >>> import tempfile
    >>> repo = Path(tempfile.mkdtemp()) / "claims"
    >>> [str(p.relative_to(repo)) for p in init_repo(repo)][:3]
    ['benchkg.toml', '.gitignore', '.pre-commit-config.yaml']
    >>> from benchkg.api import open
    >>> [f.shape for f in open(repo / "data").validate() if f.severity == "violation"]
    []

    :raises UsageError: if ``target`` is a file or a folder with something in it.
    """
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(
            f"{target} is not an empty folder; benchkg init writes a new data repository "
            f"(pick a new folder, or add benchkg.toml to an existing one by hand: see its README)"
        )
    if target.is_dir():  # an empty folder, perhaps the one the user is in ("benchkg init ."): filled in place
        return _fill_in_place(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.init-"))
    except OSError as e:
        raise _cannot(target, e) from None
    try:
        names = _fill(tmp)
        os.chmod(tmp, 0o777 & ~current_umask())  # mkdtemp makes it 0700
        os.rename(tmp, target)  # all of it or none: a full disk leaves no half repository to block the next init
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _cannot(target, e) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [target / name for name in names]


def _fill_in_place(target: Path) -> list[Path]:
    """Fill the empty folder ``target``: written aside inside it, then each top entry moved in; on any
    failure the entries moved so far go again, so the folder is left empty (a folder in use, the
    current one, cannot be replaced whole: Linux says "Device or resource busy")."""
    moved: list[Path] = []
    tmp = None
    try:
        tmp = Path(tempfile.mkdtemp(dir=target, prefix=".benchkg-init-"))
        names = _fill(tmp)
        for entry in sorted(tmp.iterdir()):
            os.rename(entry, target / entry.name)
            moved.append(target / entry.name)
        tmp.rmdir()
    except BaseException as e:
        for path in moved:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(e, OSError):
            raise _cannot(target, e) from None
        raise
    return [target / name for name in names]


def _fill(folder: Path) -> list[Path]:
    """Write the repository's files into ``folder``; their paths relative to it."""
    written = []
    for name, template in FILES.items():
        text = (TEMPLATES / template).read_text(encoding="utf-8")
        for token, value in (("{repo_url}", REPO_URL), ("{action}", ACTION), ("{version}", __version__)):
            text = text.replace(token, value)
        written.append(_write(folder, name, text))
    for template in ("example-claim.json", "example-system.json"):
        text = (TEMPLATES / template).read_text(encoding="utf-8")
        kind = "benchmarks" if template == "example-claim.json" else "systems"
        written.append(_write(folder, f"data/{kind}/{json.loads(text)['id']}.json", text))
    for sub in [*(f"data/{kind}" for kind in KINDS), "queries", "shapes"]:
        if not (folder / sub).exists():
            written.append(_write(folder, f"{sub}/.gitkeep", ""))
    return written


def _cannot(target: Path, error: OSError) -> UsageError:
    blocker = next((p for p in reversed(target.parents) if p.exists() and not p.is_dir()), None)
    refused = write_refused(error)
    why = f"{blocker} is a file, not a folder" if blocker else refused or error.strerror or str(error)
    if refused is None:
        why += "; choose a folder you can write"
    return UsageError(f"cannot write {target}: {why}; nothing was written (benchkg init DIR makes DIR and all in it)")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return Path(name)
