"""Files written whole or not at all: a temporary file beside the target, renamed into place; a
temporary left by a killed run is removed by the next write."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from benchkg.kernel.errors import UsageError, write_refused


def write_atomic(path: Path, data: bytes | Callable[[BinaryIO], object]) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename, readable as the umask allows
    (``mkstemp`` makes it 0600). A temporary left by a killed run is removed by the next write.
    ``data`` may be a function that writes to the open file (an output too large to hold in memory).

    :raises UsageError: when ``path`` cannot be written (a folder, no space, no permission).
    """
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give a file name to write")
    if path.exists() and not path.is_file():  # a device or a pipe is never replaced by a file
        raise UsageError(f"{path} is not a regular file; give a file name to write")
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path.parent, f".{path.name}.")
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data) if isinstance(data, bytes) else data(f)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    except OSError as e:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        why = write_refused(e) or e.strerror or str(e)
        raise UsageError(f"cannot write {path}: {why}; nothing was written") from None
    except BaseException:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        raise


def current_umask() -> int:
    """The process's umask (reading it means setting it; it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def remove_stale_temporaries(folder: Path, prefix: str) -> None:
    """Remove ``<prefix><pid>-…`` entries in ``folder`` whose process is gone (a run killed mid-write).

    >>> import tempfile; d = Path(tempfile.mkdtemp())
    >>> _ = (d / ".x.nq.999999999-a.tmp").write_text("half"); _ = (d / f".x.nq.{os.getpid()}-b.tmp").write_text("mine")
    >>> remove_stale_temporaries(d, ".x.nq."); sorted(p.name for p in d.iterdir()) == [f".x.nq.{os.getpid()}-b.tmp"]
    True
    """
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix) :].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        target = Path(folder, name)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target, ignore_errors=True)
        else:
            target.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid < 2**22  # another user's process, or not a pid at all
    return True
