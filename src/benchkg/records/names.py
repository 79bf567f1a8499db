"""The names people type and write for records: ids, names and aliases, matched the way people write
them ("NVIDIA GB300", "GB300 NVL72", "Llama 2 70B", "llama2-70b", "ORACLE").

One index serves the command line (a parameter, ``show`` or ``compare`` accepts any name of a record,
case-insensitively, and says which record it took) and ``benchkg draft`` (which finds records named
in a blog post's text).
"""

from __future__ import annotations

import bisect
import difflib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchkg.kernel.errors import UsageError

#: the kinds whose records people name in prose and on the command line
NAMED_KINDS = (
    "accelerators",
    "models",
    "engines",
    "formats",
    "organizations",
    "suites",
    "interconnects",
    "systems",
    "benchmarks",
    "gotchas",
    "sources",
)


def key(name: str) -> str:
    """A name as the index compares it: lower case, letters and digits only.

    >>> key("NVIDIA GB300 NVL72"), key("Llama 2 70B"), key("llama2-70b")
    ('nvidiagb300nvl72', 'llama270b', 'llama270b')
    """
    return _NOT_IN_KEY.sub("", name.lower())


_NOT_IN_KEY = re.compile(r"[^0-9a-z]")


def _pattern(name: str) -> str:
    """A regular expression finding ``name`` in prose: its letter and digit runs, in order, with spaces,
    hyphens or nothing between them, not inside a longer word."""
    runs = re.findall(r"[A-Za-z]+|[0-9]+(?:\.[0-9]+)?", name)
    return r"(?<![A-Za-z0-9])" + r"[\s\-_/.]*".join(re.escape(r) for r in runs) + r"(?![A-Za-z0-9])"


@dataclass
class Names:
    """Every record's names, by kind: ``by_key[kind][key(name)] -> {ids}``."""

    by_key: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    names: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (kind, id) -> its names
    units: dict[str, int] = field(default_factory=dict)  # a rack's or system's id -> the accelerators it holds

    _patterns: dict[str, list[tuple[str, str, re.Pattern[str]]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def add(self, kind: str, record_id: str, *names: str) -> None:
        self._patterns.pop(kind, None)  # (found again on the next find)
        for name in (record_id, *names):
            if isinstance(name, str) and (name_key := key(name)):
                self.by_key.setdefault(kind, {}).setdefault(name_key, set()).add(record_id)
                self.names.setdefault((kind, record_id), [])
                if name not in self.names[(kind, record_id)]:
                    self.names[(kind, record_id)].append(name)

    def ids(self, kind: str) -> list[str]:
        return sorted(rid for k, rid in self.names if k == kind)

    def resolve(self, kind: str, typed: str) -> list[str]:
        """The ids of ``kind`` that ``typed`` names (an id, a name or an alias, any case); several if
        the name is shared.

        >>> n = Names(); n.add("accelerators", "nvidia-gb300", "NVIDIA GB300"); n.add("accelerators", "nvidia-gb300-nvl72", "GB300 NVL72")
        >>> n.resolve("accelerators", "nvidia gb300"), n.resolve("accelerators", "GB300 NVL72"), n.resolve("accelerators", "B300")
        (['nvidia-gb300'], ['nvidia-gb300-nvl72'], [])
        """
        if (kind, typed) in self.names:
            return [typed]
        return sorted(self.by_key.get(kind, {}).get(key(typed), set()))

    def find(self, kind: str, text: str) -> list[tuple[str, int, int]]:
        """(id, start, end) of each record of ``kind`` named in ``text``; where two names overlap, the
        longer wins ("NVIDIA GB200 NVL72" is the rack, not the chip "NVIDIA GB200" inside it).

        >>> n = Names(); n.add("accelerators", "nvidia-gb200", "NVIDIA GB200"); n.add("accelerators", "nvidia-gb200-nvl72", "NVIDIA GB200 NVL72")
        >>> [m[0] for m in n.find("accelerators", "on a NVIDIA GB200 NVL72 system, 68 NVIDIA GB200 GPUs")]
        ['nvidia-gb200-nvl72', 'nvidia-gb200']
        """
        found = []
        squeezed = key(text)  # a match, its separators dropped, is the name's key: a name whose key is not here is not
        for record_id, name_key, pattern in self._kind_patterns(kind):
            if name_key not in squeezed:
                continue
            for m in pattern.finditer(text):
                found.append((record_id, m.start(), m.end()))
        kept = Spans()
        out = []
        for item in sorted(found, key=lambda f: (-(f[2] - f[1]), f[1])):
            if kept.add(item[1], item[2]):
                out.append(item)
        return sorted(out, key=lambda f: f[1])

    def _kind_patterns(self, kind: str) -> list[tuple[str, str, re.Pattern[str]]]:
        """(id, key, compiled pattern) of every name of ``kind`` worth looking for, made once per kind
        (``draft`` looks for names thousands of times a page)."""
        if kind not in self._patterns:
            self._patterns[kind] = [
                (record_id, key(name), re.compile(_pattern(name), re.I))
                for (k, record_id), names in self.names.items()
                if k == kind
                for name in names
                if len(key(name)) >= 2
            ]
        return self._patterns[kind]


class Spans:
    """Spans of text that do not overlap, kept sorted: :meth:`add` and :meth:`overlaps` take log time,
    so keeping the longest names of a long text is not quadratic in how often they repeat.

    >>> s = Spans(); s.add(10, 20), s.add(15, 30), s.add(0, 10), s.overlaps(19, 21), s.overlaps(20, 25)
    (True, False, True, True, False)
    """

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, a: int, b: int) -> bool:
        """Whether [a, b) overlaps a kept span."""
        i = bisect.bisect_left(self.starts, b)  # the spans starting before b; only the last can reach past a
        return i > 0 and self.ends[i - 1] > a

    def add(self, a: int, b: int) -> bool:
        """Keep [a, b) unless it overlaps a kept span; whether it was kept."""
        if self.overlaps(a, b):
            return False
        i = bisect.bisect_left(self.starts, a)
        self.starts.insert(i, a)
        self.ends.insert(i, b)
        return True


def names_of(folders: Iterable[Path], kinds: Iterable[str] = NAMED_KINDS) -> Names:
    """The names of every record of ``kinds`` in the record folders ``folders`` (a data folder and the
    reference set it uses), read from the files: ids, ``name``, ``title`` (sources) and ``aliases``."""
    out = Names()
    for folder in folders:
        for kind in kinds:
            directory = Path(folder) / kind
            if not directory.is_dir():
                continue
            if kind in ("benchmarks", "systems"):  # ids only: thousands of long titles would slow every lookup
                # (the names as listed, not Paths: sorting 100,000 Paths took 3.4 s of 5)
                for name in sorted(os.listdir(directory)):
                    if name.endswith(".json"):
                        out.add(kind, name[: -len(".json")])
                continue
            for path in sorted(directory.glob("*.json")):
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if not isinstance(data, dict):
                    continue
                aliases: list[object] = data["aliases"] if isinstance(data.get("aliases"), list) else []
                out.add(kind, path.stem, *(n for n in [data.get("name"), *aliases] if isinstance(n, str)))
                per_unit = data.get("accelerators_per_unit")
                if kind == "accelerators" and data.get("kind") in ("rack", "system") and isinstance(per_unit, int):
                    out.units[path.stem] = per_unit
    return out


@dataclass(frozen=True)
class Resolved:
    """A name a person typed, and the record it names."""

    kind: str
    id: str
    typed: str

    def note(self) -> str:
        """What was resolved, for the person who typed it ("" when they typed the id).

        >>> Resolved("accelerators", "nvidia-gb300", "NVIDIA GB300").note()
        "'NVIDIA GB300' is accelerators/nvidia-gb300"
        """
        return "" if self.typed == self.id else f"{self.typed!r} is {self.kind}/{self.id}"


def resolve(names: Names, kinds: Sequence[str], typed: str, what: str = "") -> Resolved:
    """The one record of ``kinds`` that ``typed`` names: an id, a name or an alias, in any case.

    >>> n = Names(); n.add("organizations", "oracle", "Oracle"); n.add("accelerators", "nvidia-h100-sxm", "NVIDIA H100-SXM-80GB")
    >>> resolve(n, ["organizations"], "ORACLE").id
    'oracle'
    >>> resolve(n, ["accelerators"], "h100 sxm", "accelerator")
    Traceback (most recent call last):
    benchkg.kernel.errors.UsageError: accelerator 'h100 sxm' names no record of accelerators; did you mean nvidia-h100-sxm?

    :raises UsageError: when it names none (with the closest names) or several (with their ids).
    """

    found = [(kind, rid) for kind in kinds for rid in names.resolve(kind, typed)]
    if len(found) == 1:
        return Resolved(found[0][0], found[0][1], typed)
    label = f"{what} {typed!r}" if what else repr(typed)
    if found:
        listed = ", ".join(f"{k}/{r}" if len(kinds) > 1 else r for k, r in found)
        raise UsageError(f"{label} names several records: {listed}; give the id")
    keys = {k: rids for kind in kinds for k, rids in names.by_key.get(kind, {}).items()}
    # records with a name that holds what was typed as words ("B300" in "NVIDIA B300-SXM-270GB", not in
    # "GB300"), then names spelt alike
    pattern = re.compile(_pattern(typed), re.I) if len(key(typed)) >= 2 else None
    order = {k: i for i, k in enumerate(NAMED_KINDS)}
    holding = [
        rid
        for (kind, rid), ns in sorted(names.names.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][1]))
        if kind in kinds and pattern is not None and any(pattern.search(n) for n in ns)
    ]
    close = difflib.get_close_matches(key(typed), list(keys), n=6, cutoff=0.6)
    ids = list(dict.fromkeys(holding + [rid for k in close for rid in sorted(keys[k])]))[:4]
    hint = f"; did you mean {', '.join(ids)}?" if ids else ""
    where = f" of {', '.join(kinds)}" if len(kinds) <= 2 else ""
    raise UsageError(f"{label} names no record{where}{hint}")
