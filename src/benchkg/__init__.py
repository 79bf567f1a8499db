"""benchkg: a knowledge graph of AI-inference benchmark claims.

>>> import benchkg
>>> kg = benchkg.open("data")                    # a records folder, built into the embedded store
>>> kg.query("leaderboard", model="llama2-70b", scenario="server").columns[:3]
['claim', 'system_name', 'accelerators']

See :mod:`benchkg.api` for what a :class:`KnowledgeGraph` answers.
"""

__version__ = "0.1.0"

from .api import KnowledgeGraph, Rows, open  # noqa: E402,F401 - the Python API

__all__ = ["KnowledgeGraph", "Rows", "open", "__version__"]
