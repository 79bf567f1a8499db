"""benchkg's version: in the store's manifest, the reference cache's key and every page written."""

__version__ = "0.1.0"
