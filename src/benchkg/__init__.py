"""benchkg: a knowledge graph of AI-inference benchmark claims."""

__version__ = "0.1.0"
