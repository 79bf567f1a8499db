"""The graph: records mapped to RDF, the embedded store built incrementally and crash-safely, and a
remote SPARQL 1.1 store (push, and raw queries)."""
