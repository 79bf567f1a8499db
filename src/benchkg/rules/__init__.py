"""Rules: the SHACL shapes as benchkg loads them, their results before they are located in a file, and
the fast engine that runs the shapes on the embedded store."""
