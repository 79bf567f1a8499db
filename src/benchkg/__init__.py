"""benchkg: a knowledge graph of AI-inference benchmark claims.

>>> import benchkg
>>> kg = benchkg.open("data")                    # a records folder, built into the embedded store
>>> kg.query("leaderboard", model="llama2-70b", scenario="server").columns[:3]
['claim', 'system_name', 'submitted_by']

See :mod:`benchkg.api` for what a :class:`KnowledgeGraph` answers.
"""

from typing import TYPE_CHECKING

from benchkg.kernel.version import __version__

if TYPE_CHECKING:  # (for type checkers; at run time the API is imported when it is first asked for)
    from benchkg.api import KnowledgeGraph, Rows, open

__all__ = ["KnowledgeGraph", "Rows", "open", "__version__"]


def __getattr__(name: str):
    """The Python API, imported when it is first asked for: a command that needs little of it (``benchkg
    --help``, ``benchkg validate``) does not pay for all of it (``--help`` 0.38 -> 0.08 s)."""
    if name in ("KnowledgeGraph", "Rows", "open"):
        from benchkg import api

        return getattr(api, name)
    raise AttributeError(f"module 'benchkg' has no attribute {name!r}")
