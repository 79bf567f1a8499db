"""Importers: third-party data -> records in data/ (never triples: there is one way into the graph)."""
