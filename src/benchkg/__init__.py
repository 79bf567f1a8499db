"""benchkg: a knowledge graph of AI-inference benchmark claims.

>>> import benchkg
>>> kg = benchkg.open("data")                    # a records folder, built into the embedded store
>>> kg.query("leaderboard", model="llama2-70b", scenario="server").columns[:3]
['claim', 'system_name', 'submitted_by']

See :mod:`benchkg.api` for what a :class:`KnowledgeGraph` answers.
"""

from benchkg.api import KnowledgeGraph, Rows, open  # noqa: F401 - the Python API
from benchkg.kernel.version import __version__  # noqa: F401

__all__ = ["KnowledgeGraph", "Rows", "open", "__version__"]
