"""What the importers share: reviewed name tables, ids, and writing records byte for byte the same."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from benchkg.kernel.atomic import write_atomic
from benchkg.kernel.errors import InputError, InputProblem
from benchkg.records.layout import in_reference as reference_has
from benchkg.records.layout import layout_for
from benchkg.records.schema import ID_PATTERN

TABLES = Path(__file__).resolve().parent
#: where benchkg's own importers keep their samples (``Importer.sample``): inside the package, so the wheel
#: holds them (the conformance test imports each; samples/README.md says where they come from)
SAMPLES = TABLES / "samples"


def slug(text: str, empty: str = "unnamed") -> str:
    """An id from free text (``empty`` when nothing of it is left).

    >>> slug("Quanta_Cloud_Technology"), slug("NVIDIA  Corp."), slug("v4.1-0001"), slug("::", "draft")
    ('quanta-cloud-technology', 'nvidia-corp', 'v4.1-0001', 'draft')
    """
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or empty


def record_text(record: dict) -> str:
    r"""A record as benchkg writes it: 2-space JSON, keys in the order given, UTF-8, newline at end; a
    Decimal written with its digits exactly (a float would round 22607.9278396056616).

    >>> from decimal import Decimal
    >>> record_text({"v": Decimal("22607.9278396056616"), "n": 8})
    '{\n  "v": 22607.9278396056616,\n  "n": 8\n}\n'
    """
    exact: list[str] = []

    def mark(value):
        if isinstance(value, Decimal):
            exact.append(format(value, "f"))
            return f"@@benchkg-decimal-{len(exact) - 1}@@"
        if isinstance(value, dict):
            return {k: mark(v) for k, v in value.items()}
        if isinstance(value, list):
            return [mark(v) for v in value]
        return value

    text = json.dumps(mark(record), indent=2, ensure_ascii=False) + "\n"
    return re.sub(r'"@@benchkg-decimal-(\d+)@@"', lambda m: exact[int(m.group(1))], text)


def record_path(out_dir: Path, kind: str, record_id) -> Path:
    """Where a record goes: ``<out_dir>/<kind>/<id>.json``, for an id of the id pattern only, so an
    id made from input text (``../..`` in a version field) never writes outside ``out_dir``.

    >>> record_path(Path("out"), "models", "llama2-70b").as_posix()
    'out/models/llama2-70b.json'
    >>> record_path(Path("out"), "suites", "mlperf-inference-v../../x")
    Traceback (most recent call last):
    benchkg.kernel.errors.InputError: out/suites: /id: 'mlperf-inference-v../../x' is not a record id (^[a-z0-9][a-z0-9.-]*$); the input holds a value benchkg cannot name a file after, so nothing was written for it
    """
    if not isinstance(record_id, str) or not ID_PATTERN.match(record_id):
        raise InputError.at(
            Path(out_dir) / kind,
            None,
            "/id",
            f"{record_id!r} is not a record id ({ID_PATTERN.pattern}); the input holds a "
            "value benchkg cannot name a file after, so nothing was written for it",
        )
    return Path(out_dir) / kind / f"{record_id}.json"


@functools.lru_cache(maxsize=8)
def _layout(out_dir: str):

    return layout_for(Path(out_dir))


def in_reference(out_dir: Path, kind: str, record_id: str) -> bool:
    """Whether benchkg's reference set, which the data repository at ``out_dir`` uses, has this record:
    an import into a data repository leaves it there (read-only) instead of writing a copy that clashes."""

    return reference_has(_layout(str(Path(out_dir).absolute())), kind, record_id)


def write_record(out_dir: Path, kind: str, record: dict) -> bool | None:
    """Write ``data/<kind>/<id>.json`` unless it already holds exactly this; True if written, None if
    benchkg's reference set (used by the data repository at ``out_dir``) has it already."""
    if in_reference(out_dir, kind, record["id"]):
        return None
    path = record_path(out_dir, kind, record["id"])
    text = record_text(record)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    write_atomic(path, text.encode("utf-8"))
    return True


def read_record_json(out_dir: Path, kind: str, record_id: str) -> dict | None:
    path = record_path(out_dir, kind, record_id)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def accelerator_table() -> dict[str, dict]:
    """The reviewed accelerator table (id -> name, vendor, kind, memory, aliases)."""
    table = json.loads((TABLES / "accelerators.json").read_text(encoding="utf-8"))
    table.pop("_comment", None)
    return table


def alias_index(table: dict[str, dict]) -> dict[str, str]:
    """Lower-cased alias -> accelerator id."""
    return {alias.lower(): acc_id for acc_id, spec in table.items() for alias in spec["aliases"]}


def check_rows(
    path: Path, rows, required: tuple[str, ...], check_row, *, rows_are: str, row_is: str, hint: str
) -> None:
    """Check a file's rows: a list (``rows_are`` names them), each an object (``row_is``) with every
    ``required`` key filled, and then ``check_row(n, row)`` (the problems of one whole row). It stops
    after the row that brings the problems to 20.

    >>> check_rows(Path("x.json"), [{"a": 1}, 2], ("a", "b"), lambda n, row: [], rows_are="rows", row_is="a row",
    ...            hint="is this an export?")
    Traceback (most recent call last):
    benchkg.kernel.errors.InputError: x.json: /0: missing b; is this an export?
    x.json: /1: a row is a JSON object

    :raises InputError: naming the row and key of every problem.
    """
    if not isinstance(rows, list):
        raise InputError.at(path, 1, "", f"not a list of {rows_are}; {hint}")
    problems = []
    for n, row in enumerate(rows):
        if not isinstance(row, dict):
            problems.append(InputProblem(path, None, f"/{n}", f"{row_is} is a JSON object"))
            continue
        missing = [k for k in required if row.get(k) in (None, "")]
        if missing:
            problems.append(InputProblem(path, None, f"/{n}", f"missing {', '.join(missing)}; {hint}"))
            continue
        problems += check_row(n, row)
        if len(problems) >= 20:
            break
    if problems:
        raise InputError(problems)


@dataclass
class ImportReport:
    """What an import did and what it could not resolve."""

    written: dict[str, int] = field(default_factory=dict)  # kind -> files written
    unchanged: int = 0
    imported: dict[str, int] = field(default_factory=dict)  # e.g. round -> benchmarks
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> rows
    unresolved: dict[str, int] = field(default_factory=dict)  # text -> times seen
    referenced: dict[str, int] = field(default_factory=dict)  # kind -> records the reference set has already

    def skip(self, reason: str) -> None:
        """Count one input row left out, and why."""
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def unknown(self, text: str) -> None:
        """Count one piece of text the reviewed tables do not know (reported, left out)."""
        self.unresolved[text] = self.unresolved.get(text, 0) + 1

    def wrote(self, kind: str, changed: bool | None) -> None:
        if changed is None:
            self.referenced[kind] = self.referenced.get(kind, 0) + 1
        elif changed:
            self.written[kind] = self.written.get(kind, 0) + 1
        else:
            self.unchanged += 1

    def text(self) -> str:
        lines = [
            f"imported: {', '.join(f'{k} {v:,}' for k, v in self.imported.items()) or 'nothing'}",
            f"files written: {', '.join(f'{k} {v:,}' for k, v in sorted(self.written.items())) or 'none'}; "
            f"unchanged: {self.unchanged:,}",
        ]
        if self.referenced:
            lines.append(
                "already in benchkg's reference set, used from there (not copied): "
                + ", ".join(f"{k} {v:,}" for k, v in sorted(self.referenced.items()))
            )
        for reason, n in sorted(self.skipped.items()):
            lines.append(f"skipped {n:,} rows: {reason}")
        if self.unresolved:
            lines.append(f"unresolved ({len(self.unresolved)} distinct texts, left out):")
            lines += [f"  {n:>4}× {text!r}" for text, n in sorted(self.unresolved.items(), key=lambda x: (-x[1], x[0]))]
        return "\n".join(lines)
