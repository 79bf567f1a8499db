"""Where the project's own files are: the ontology, the shapes and the saved queries.

They live at the top of the repository (DESIGN §2), beside ``src/``; benchkg is installed
editable from a checkout, as ``make demo`` does.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ONTOLOGY_FILE = ROOT / "ontology" / "benchkg.ttl"
SHAPES_DIR = ROOT / "shapes"
QUERIES_DIR = ROOT / "queries"
CONTEXT_FILE = ROOT / "ontology" / "context" / "v1.jsonld"
ASSETS_DIR = Path(__file__).resolve().parent / "assets"
