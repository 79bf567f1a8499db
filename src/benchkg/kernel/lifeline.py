"""Worker processes go when their parent goes.

``benchkg build`` maps records in worker processes and ``benchkg serve`` answers each query in one;
if the parent is killed (``kill -9``, a CI job cancelled) nothing else would stop them, and a query
worker on a cartesian product would run for hours. On Linux a worker asks the kernel for SIGKILL
when its parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere it has no such promise. A spawned
worker is not told where its parent's ``__main__`` is (:func:`main_not_rerun`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> bool:
    """Ask for SIGKILL when this process's parent exits; True if the kernel promised it. Pass the
    pid the parent had when it started this worker (``initargs=(os.getpid(),)``): a parent that
    died before the promise was made (the worker was still starting) ends this process at once.
    Call it first thing in a worker, never in a process a user started (it would die with the
    user's shell).

    >>> PR_SET_PDEATHSIG  # the prctl option (linux/prctl.h)
    1
    """
    if not sys.platform.startswith("linux"):
        return False
    parent = os.getppid() if parent is None else parent
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # the parent died before the promise was made
        os.kill(os.getpid(), signal.SIGKILL)
    return True


@contextmanager
def main_not_rerun() -> Iterator[None]:
    """While spawned workers start: a spawned worker runs the parent's ``__main__`` again (as
    ``__mp_main__``) unless it cannot find it. The workers need nothing of it, and a user's script
    without an ``if __name__ == "__main__"`` guard would build again in each worker, each waiting for
    the lock the first holds, for ever. So they are not told where it is.

    >>> main = sys.modules["__main__"]
    >>> before = main.__dict__.get("__file__"), main.__dict__.get("__spec__")
    >>> with main_not_rerun():
    ...     "__file__" in main.__dict__, main.__spec__
    (False, None)
    >>> (main.__dict__.get("__file__"), main.__dict__.get("__spec__")) == before
    True
    """
    main = sys.modules.get("__main__")
    saved = {name: main.__dict__[name] for name in ("__file__", "__spec__") if main and name in main.__dict__}
    try:
        if main is not None:
            main.__dict__.pop("__file__", None)
            main.__spec__ = None
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)  # type: ignore[arg-type]
