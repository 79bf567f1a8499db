"""Score `benchkg draft` against the claims a careful curator enters from a text, field by field.

A drafted field is *exact* (equal to the curator's), *open* (left out where the curator enters a value:
draft says why on stderr) or *wrong* (filled in and different, or filled in where the text states
nothing). A drafted claim no curator enters is *spurious*; a claim the curator enters that draft does
not give is *missed* (its fields count as open). Chips compare at the chip a rack is made of (queries
compare there too); ``suite_id: "vendor-claim"`` is any suite of that family.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from benchkg.kernel.matching import stated_interval

FIELDS = (
    "value",
    "unit",
    "scope",
    "accelerator_ids",
    "accelerator_count",
    "node_count",
    "scenario",
    "model_id",
    "suite_id",
    "division",
    "reported",
    "asserts",
    "measured_by",
    "restates",
)
#: fields scored where the curator's entry has them (the texts written for issue 61 and after)
WHERE_GIVEN = ("value_as_written", "relative")
#: the fields draft must never fill in wrongly (issue 43): it leaves them open instead
NEVER_WRONG = ("scenario", "accelerator_count", "model_id", "measured_by", "suite_id")


@dataclass
class Score:
    """Counts per field and per structure, and the lines that say what differed."""

    fields: dict = field(default_factory=lambda: defaultdict(Counter))
    structures: dict = field(default_factory=lambda: defaultdict(Counter))
    claims: Counter = field(default_factory=Counter)
    lines: list = field(default_factory=list)

    def add(self, name: str, structures: list[str], field_: str, status: str, got=None, want=None) -> None:
        self.fields[field_][status] += 1
        for s in structures:
            self.structures[s][status] += 1
        if status != "exact":
            self.lines.append(f"{name} {field_}: {status}: drafted {got!r}, stated {want!r}")

    def accuracy(self, counter: Counter) -> str:
        total = sum(counter.values())
        return f"{counter['exact']}/{total} exact, {counter['open']} open, {counter['wrong']} wrong"

    def table(self) -> str:
        out = ["| field | exact | open | wrong |", "|---|---|---|---|"]
        for f in FIELDS + WHERE_GIVEN:
            c = self.fields[f]
            out.append(f"| {f} | {c['exact']} | {c['open']} | {c['wrong']} |")
        out += ["", "| structure | exact | open | wrong |", "|---|---|---|---|"]
        for s in sorted(self.structures):
            c = self.structures[s]
            out.append(f"| {s} | {c['exact']} | {c['open']} | {c['wrong']} |")
        total = sum((self.fields[f] for f in FIELDS), Counter())
        out += ["", f"fields: {self.accuracy(total)}; claims: {dict(self.claims)}"]
        return "\n".join(out)


def _norm(field_: str, value, base_of, family_of):
    if field_ == "accelerator_ids":
        return sorted({base_of(c) for c in value}) if value else None
    if field_ == "reported":
        return sorted(Decimal(str(r["value"] if isinstance(r, dict) else r)) for r in value or [])
    if field_ == "value" and value is not None:
        return Decimal(str(value))
    if field_ == "suite_id" and value and family_of(value) == "vendor-claim":
        return "vendor-claim"
    if field_ == "relative" and value:  # the ratio and its baseline; its spelling is the text's
        return {
            k: (str(Decimal(str(v))) if k in ("times", "percent") else v) for k, v in value.items() if k != "as_written"
        }
    return value


def score_text(score: Score, name: str, entry: dict, drafted: list[dict], base_of, family_of) -> None:
    """Add one text's drafted claims to ``score``: matched to the curator's by value."""
    structures = entry["structures"] + [f"class: {c}" for c in entry.get("classes", [])]
    drafted = [d for d in drafted if d.get("value") is not None]
    left = list(drafted)
    for want in entry["claims"]:
        value = Decimal(str(want["value"]))
        got = next((d for d in left if Decimal(str(d["value"])) == value), None)
        if got is None:
            score.claims["missed"] += 1
            score.lines.append(f"{name}: claim {want['value']} missed")
            for f in FIELDS:
                score.add(name, structures, f, "open", None, want.get(f))
            continue
        left.remove(got)
        score.claims["matched"] += 1
        for f in FIELDS + tuple(f for f in WHERE_GIVEN if f in want):
            mine = _norm(f, got.get(f), base_of, family_of)
            theirs = _norm(f, want.get(f), base_of, family_of)
            if f == "value_as_written":  # the same precision stated is the same spelling
                mine, theirs = (str(stated_interval(value, x)) for x in (got.get(f), want.get(f)))
                mine = None if mine == str(stated_interval(value)) != theirs else mine
            if f == "reported" and not mine and not theirs:
                status = "exact"
            elif mine == theirs:
                status = "exact"
            elif mine is None or mine == []:
                status = "open"
            else:
                status = "wrong"
            score.add(name, structures, f, status, got.get(f), want.get(f))
    for extra in left:
        score.claims["spurious"] += 1
        score.lines.append(f"{name}: spurious claim {extra['value']} {extra.get('unit')}")


def load(folder: Path) -> dict:
    """The curator's claims of every text in ``folder`` (its expected.json)."""
    return json.loads((folder / "expected.json").read_text())


@dataclass
class Linking:
    """How the drafted claims' ``restates`` stand against the curator's: of the claims whose audited result
    is in the reference set, linked right, linked wrong, or not linked (with draft's reason); and links
    drafted where the curator names none."""

    right: list = field(default_factory=list)
    wrong: list = field(default_factory=list)
    unlinked: list = field(default_factory=list)
    spurious: list = field(default_factory=list)

    def add(self, name: str, entry: dict, drafted: list[dict], said: str) -> None:
        left = [d for d in drafted if d.get("value") is not None]
        for want in entry["claims"]:
            got = next((d for d in left if Decimal(str(d["value"])) == Decimal(str(want["value"]))), None)
            if got is not None:
                left.remove(got)
            mine, theirs = (got or {}).get("restates"), want.get("restates")
            where = f"{name} {want['value']}"
            if theirs and mine == theirs:
                self.right.append(where)
            elif theirs and mine:
                self.wrong.append(f"{where}: linked {mine}, restates {theirs}")
            elif theirs:
                self.unlinked.append(f"{where}: {_why(said, got)}")
            elif mine:
                self.spurious.append(f"{where}: linked {mine}, the curator names none")

    def table(self) -> str:
        linkable = len(self.right) + len(self.wrong) + len(self.unlinked)
        share = f"{100 * len(self.right) / linkable:.0f} %" if linkable else "-"
        out = [
            "| MLPerf claims whose audited result is in data/ | linked right | linked wrong | not linked | linked where the curator names none |",
            "|---|---|---|---|---|",
            f"| {linkable} | {len(self.right)} ({share}) | {len(self.wrong)} | {len(self.unlinked)} | {len(self.spurious)} |",
        ]
        out += [f"- wrong: {w}" for w in self.wrong] + [f"- not linked: {u}" for u in self.unlinked]
        out += [f"- linked where none: {s}" for s in self.spurious]
        return "\n".join(out)


def _why(said: str, got: dict | None) -> str:
    """draft's reason for not linking a claim: its restates or conflict lines on stderr."""
    if got is None:
        return "the claim is not drafted"
    blocks = said.split("\nclaim ")
    block = next((b for b in blocks if f"({got.get('id')})" in b.split("\n", 1)[0]), said)
    reasons = [x.strip(" -") for x in block.splitlines() if x.strip(" -").startswith(("restates:", "conflict:"))]
    return "; ".join(reasons) or "no audited result agrees with what the text says"
