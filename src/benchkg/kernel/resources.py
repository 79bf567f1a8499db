"""Where benchkg's own files are: the ontology, the shapes, the saved queries and the reference records.

They live at the top of the repository (docs/architecture.md), beside ``src/``: that is the one place they are
edited. A wheel carries them inside the package, in ``benchkg/share/`` (see ``pyproject.toml``), so an
installed benchkg finds them there and an editable checkout finds them at the top.

>>> (SHARE / "shapes").is_dir() and ONTOLOGY_FILE.is_file() and QUERIES_DIR.is_dir()
True
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # src/benchkg (this file is in src/benchkg/kernel)
#: the checkout this module runs from (meaningful in an editable install only)
ROOT = PACKAGE.parents[1]
_INSTALLED = PACKAGE / "share"
#: the folder holding ontology/, shapes/, queries/ and the reference records
SHARE = _INSTALLED if (_INSTALLED / "ontology").is_dir() else ROOT
ONTOLOGY_FILE = SHARE / "ontology" / "benchkg.ttl"
CONTEXT_FILE = SHARE / "ontology" / "context" / "v1.jsonld"
SHAPES_DIR = SHARE / "shapes"
QUERIES_DIR = SHARE / "queries"
#: benchkg's reference records (suites, models, gotchas, accelerators…): ``data/`` in a checkout,
#: of which a wheel carries only :data:`REFERENCE_KINDS`
REFERENCE_DIR = SHARE / ("reference" if SHARE == _INSTALLED else "data")
#: the kinds of the reference set: everything a claim names, not claims and systems themselves
REFERENCE_KINDS = (
    "accelerators",
    "engines",
    "formats",
    "gotchas",
    "interconnects",
    "models",
    "organizations",
    "sources",
    "suites",
)
ASSETS_DIR = PACKAGE / "assets"
