"""The kernel: what every layer uses and that uses nothing of benchkg — errors and exit codes, the
vocabulary and IRIs, where benchkg's own files are, atomic writes, rows of RDF terms, HTTP with bounds,
numbers as people write them, the version."""
