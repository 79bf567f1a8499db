"""What a claim ran on: its chips, accelerator and node counts and its submitter, read from its own words,
clause, sentence and paragraph."""

from __future__ import annotations

import re

from benchkg.draft.figures import (
    _EACH_WITH,
    _IN_A_NAME,
    _INSTANCES,
    _NUMBER,
    _RACK,
    Figure,
    _clause,
    _clause_text,
    _uncompared,
    _word_number,
)
from benchkg.draft.linking import weak
from benchkg.records.names import Names, Spans

#: words that make the chips a text names one system: "heterogeneous", "a mix of", "one with … one with"
_MIXED = re.compile(r"\bheterogeneous\b|\bmix(?:ed|ture)?\s+of\b|\bone\s+with\b[^.]*\bone\s+with\b", re.I)


def _on_what(
    record: dict,
    text: str,
    scopes: list[str],
    names: Names,
    found: list[Figure],
    undecided: list[str],
    lead: Figure | None = None,
    said: int | None = None,
    earlier: str = "",
) -> None:
    """The chips, the accelerator and node counts and the submitter: counts only from the claim's own
    clause, sentence or paragraph (or the title of a text with one claim), never another paragraph's; chips
    from its paragraph only up to its sentence's end (``said``: "… 94.8 tokens/s on the CPU. Adding an
    RTX Pro 6000 …" names the next number's chip), and from further away only the text's subject
    (named in ``earlier``, the text before its paragraph)."""
    here = "\n".join(scopes) or text
    chips = _chips_of(record, text, scopes, names, undecided, said, earlier)
    counts = [f for f in found if f.unit == "accelerators" and not _in_a_chip_name(f, names)]
    count = _count_of(lead, scopes, counts, names, chips, record.get("model_id"))
    if count is not None and _contradicted(count, counts):
        undecided.append(
            f"accelerator_count: the text gives {count} and {', '.join(map(str, _contradicted(count, counts)))} "
            "for what reads as one system: enter the count the result used"
        )
    elif count is not None:
        record["accelerator_count"] = count
    per_node = _each_with(record, scopes, undecided)
    others = sorted({int(f.mention.value) for f in counts} - {record.get("accelerator_count")} - per_node)
    if "accelerator_count" not in record:
        undecided.append(
            "accelerator_count: the claim's own sentence and paragraph state no count (an aggregate needs one: "
            "the per-accelerator value divides by it)"
            + (f"; elsewhere the text gives {', '.join(map(str, others))}" if others else "")
        )
    elif others:
        undecided.append(f"accelerator_count: the text also gives {', '.join(map(str, others))} (elsewhere)")
    nodes = _nodes_of(
        lead,
        scopes,
        [f for f in found if f.unit == "nodes"],
        counts,
        record.get("accelerator_count"),
        names,
        record.get("model_id"),
    )
    if nodes is not None:
        record["node_count"] = nodes
    all_nodes = sorted({int(f.mention.value) for f in found if f.unit == "nodes"} - {record.get("node_count")})
    if all_nodes:
        undecided.append(
            f"node_count: the text also gives {', '.join(map(str, all_nodes))} node(s)"
            + (" in another paragraph" if "node_count" not in record else "")
        )
    organisations = [
        o
        for o in _named(names, "organizations", text, here, exclude=("accelerators", "models", "engines"))
        if o not in ("mlcommons", "nvidia", "amd", "intel", "google")
    ]
    if len(organisations) == 1:
        record["submitter_id"] = organisations[0]
    elif organisations:
        undecided.append(f"submitter_id: the text names {', '.join(organisations)}")


def _chips_of(
    record: dict, text: str, scopes: list[str], names: Names, undecided: list[str], said: int | None, earlier: str
) -> list[str]:
    """The chips a claim ran on, nearest first (its paragraph only up to its sentence's end, further away
    only the text's subject), set in ``record`` where one reading stands; every chip named near it."""
    chips, where = [], -1
    near = [s[:said] if n == 3 and said is not None else s for n, s in enumerate(scopes)]
    for where, scope in enumerate([*near, text]):
        chips = _named(names, "accelerators", _uncompared(scope), _uncompared(scope))
        if chips:
            break
    if chips and where == len(scopes) and not _the_subject(chips, text, scopes, names, earlier):
        weak(record, "accelerator_ids", "the text names it only away from this number")
    if len(chips) > 1 and _MIXED.search(scope):  # "a heterogeneous cluster … MI300X … MI325X … MI355X"
        record["accelerator_ids"] = chips
        undecided.append(f"accelerator_ids: {', '.join(chips)}, one system of them all: give accelerator_mix")
    elif chips and (len(chips) == 1 or where <= 1):  # one chip, or the first of its own words or clause
        record["accelerator_ids"] = [chips[0]]
        if len(chips) > 1:
            record.setdefault("_readings", {})["accelerator_ids"] = chips
            undecided.append(f"accelerator_ids: its clause names {', '.join(chips)}; the draft took {chips[0]}")
    elif chips:
        record.setdefault("_readings", {})["accelerator_ids"] = chips
        undecided.append(f"accelerator_ids: the text names {', '.join(chips)} near it: which ran the number?")
    else:
        undecided.append("accelerator_ids: no accelerator record is named in the text")
    return chips


#: words that make a paragraph's numbers another system's than the one the text opens with
_OTHERS = re.compile(
    r"\b(?:other|others'?|partners'|partner\s+systems?|rivals?'?|competitors?'?|previous|prior|earlier|comparison|compared)\b",
    re.I,
)


def _the_subject(chips: list[str], text: str, scopes: list[str], names: Names, earlier: str) -> bool:
    r"""Whether ``chips`` (named only away from a number) are what the text is about: named in its title or
    opening paragraph, and the number's own paragraph does not speak of other systems ("the figures for
    the other models show …", "partners' systems reached …").

    >>> from benchkg.records.names import Names
    >>> n = Names(); n.add("accelerators", "gb300", "GB300")
    >>> text = "Acme on GB300\nIt ran.\nFigures: 1 tokens/s."
    >>> _the_subject(["gb300"], text, ["", "", "", "Figures: 1 tokens/s."], n, "Acme on GB300\nIt ran.\n")
    True
    >>> text = "Acme\nIt ran.\nOn GB300 it did 2.\nOther systems: 1 tokens/s."
    >>> _the_subject(["gb300"], text, ["", "", "", "Other systems: 1 tokens/s."], n, text[:text.find("Other")])
    False
    """
    paragraphs = [line for line in text.split("\n") if line.strip()]
    opening = {c for c, _, _ in names.find("accelerators", "\n".join(paragraphs[:3]))}
    paragraph = scopes[3] if len(scopes) > 3 else ""
    before = {c for c, _, _ in names.find("accelerators", earlier)}
    everywhere = {c for c, _, _ in names.find("accelerators", text)}
    subject = set(chips) <= opening or set(chips) == everywhere
    return subject and set(chips) <= before and not _OTHERS.search(paragraph)


def _in_a_chip_name(f: Figure, names: Names) -> bool:
    """Whether a count's number is part of a chip's name ("RTX Pro 6000 Blackwell Server Edition GPU")."""
    return _named_at(names, f.sentence, f.mention.start)


def _named_at(names: Names, text: str, at: int) -> bool:
    """Whether ``text[at]`` lies inside a chip's name."""
    return any(a <= at < b for _, a, b in names.find("accelerators", text))


def _ranged(f: Figure) -> bool:
    """Whether a count is one end of a range ("11-12 nodes", "between 8 and 16 GPUs")."""
    return f.mention.range_low is not None or bool(re.search(r"\d\s*[-–]\s*$", f.sentence[: f.mention.start]))


def _contradicted(count: int, counts: list[Figure]) -> list[int]:
    """Other counts the text gives within 2.5 % of ``count`` (87 and 88 GPUs of one cluster): the text
    contradicts itself, and the draft leaves the count open."""
    return sorted(
        {
            int(f.mention.value)
            for f in counts
            if f.mention.value != count and abs(f.mention.value - count) <= count / 40
        }
    )


def _own_first(lead: Figure | None, figs: list[Figure], scopes: list[str]) -> list[Figure]:
    """The figures in the claim's own words, else in its nearest scope that has any (clause, sentence,
    paragraph), its own clause's first; none from the words of another claim's number."""
    if lead:
        own = [f for f in figs if f.sentence == lead.sentence and lead.own[0] <= f.mention.start < lead.own[1]]
        if own:
            return own
    for scope in scopes:
        here = [f for f in figs if f.sentence in scope]
        if here:
            mine = [f for f in here if lead and f.sentence == lead.sentence and _clause(f) == _clause(lead)]
            return mine or here
    return []


def _nearest_figure(lead: Figure | None, figs: list[Figure]) -> Figure:
    return min(
        figs,
        key=lambda f: abs(f.mention.start - lead.mention.start) if lead and f.sentence == lead.sentence else 10**6,
    )


#: "eight MI355X GPUs", "a single H100 GPU", "8 B300 units": a count in words, or of units
_WORD_COUNT = re.compile(
    rf"(?<![\w.,\-–]){_NUMBER}(?:\s+|-)(?:(?!(?:generations?|kinds?|types?|families|rounds?|of)\b)[A-Za-z][\w.-]*\s+){{0,3}}"
    r"(?:gpus?|accelerators?|chips?|cards?|graphics processors?)\b",
    re.I,
)


#: "on 72× GB300", "8x B200": a count, then the chip
_TIMES = re.compile(r"\b(\d+)\s?[×xX]\s?(?=[A-Z])")


def _count_of(
    lead: Figure | None,
    scopes: list[str],
    counts: list[Figure],
    names: Names,
    chips: list[str],
    model: str | None = None,
):
    """The accelerator count of a claim, nearest first: a number with GPUs in its own words, clause,
    sentence or paragraph; in each, else a count in words ("eight MI355X GPUs"), a count before a chip
    ("72× GB300") or a whole rack ("a single GB300 NVL72 rack")."""
    counts = [f for f in counts if not _ranged(f)]
    mine = _own_first(lead, counts, scopes[:1])
    if mine:
        return int(_nearest_figure(lead, mine).mention.value)
    for n, scope in enumerate(scopes):
        mine = _own_first(None, counts, [scope])
        if n >= 3 and chips:  # beyond its sentence, a count said of another chip is that chip's ("a four-GPU H100")
            mine = [f for f in mine if not _another_chip(f.sentence[f.mention.end : f.mention.end + 40], chips, names)]
        if n >= 3:  # nor a baseline's ("21% more than the 956,523 tokens/s our 64-GPU configuration posted")
            mine = [f for f in mine if not _BASELINE.search(f.sentence[: f.mention.start])]
        if mine:
            mine = [f for f in mine if lead and f.sentence == lead.sentence and _clause(f) == _clause(lead)] or mine
            mine = _of_model(mine, model, names) or mine  # "… on Llama 2 70B with 87 GPUs, and on GPT-OSS with 94"
            return int(_nearest_figure(lead, mine).mention.value)
        words = next(
            (
                w
                for w in _WORD_COUNT.finditer(scope)
                if not _IN_A_NAME.search(scope[: w.start()])
                and not _named_at(names, scope, w.start())
                and not (n >= 3 and chips and _another_chip(scope[w.start() : w.end() + 40], chips, names))
                and not (n >= 3 and _BASELINE.search(_sentence_at(scope, w.start())[0]))
            ),
            None,
        )
        if words and not words.group().lower().startswith(("a ", "an ")) or words and "single" in words.group().lower():
            return _word_number(words.group("n"))
        times = next(
            (m for m in _TIMES.finditer(scope) if names.find("accelerators", scope[m.end() : m.end() + 40])), None
        )
        if times:
            return int(times.group(1))
        rack = _RACK.search(scope)
        racks = [r for r, _, _ in names.find("accelerators", rack.group()) if r in names.units] if rack else []
        if rack and (racks or chips and chips[0] in names.units):  # "a single GB300 NVL72 rack": its size
            return _word_number(rack.group("n")) * names.units[racks[0] if racks else chips[0]]
    return None


#: words before a count that make it a baseline's, in another sentence than the claim's
_BASELINE = re.compile(r"\bthan\b|\bcompared\b", re.I)


def _sentence_at(text: str, at: int) -> tuple[str, int]:
    """The sentence of ``text`` up to ``at`` (from the last full stop or line before it), and where it starts."""
    start = max(text.rfind(". ", 0, at) + 2, text.rfind("\n", 0, at) + 1, 0)
    return text[start:at], start


def _another_chip(words: str, chips: list[str], names: Names) -> bool:
    """Whether ``words`` (a count and what follows it) name a chip other than the claim's."""
    return any(c not in chips for c, _, _ in names.find("accelerators", words))


def _of_model(figs: list[Figure], model: str | None, names: Names | None) -> list[Figure]:
    """The counts among ``figs`` whose clause names ``model`` and no other ("on Llama 2 70B with 11 nodes and
    87 GPUs, and on GPT-OSS-120B with 12 nodes and 94 GPUs"), when several clauses name models."""
    if not model or names is None:
        return []
    named = [(f, {m for m, _, _ in names.find("models", _clause_text(f))}) for f in figs]
    if sum(1 for _, models in named if models) < 2:
        return []
    return [f for f, models in named if models == {model}]


def _nodes_of(
    lead: Figure | None,
    scopes: list[str],
    nodes: list[Figure],
    counts: list[Figure],
    count,
    names: Names | None = None,
    model: str | None = None,
):
    """The node count of a claim, nearest scope first: a number of nodes, or one in words ("a single
    node", "eighteen virtual machines"); beside the accelerator count where a scope gives several."""
    nodes = [f for f in nodes if not _ranged(f)]  # "11-12 nodes": which, the text does not say
    for n, scope in enumerate(scopes):
        here = _own_first(lead, nodes, [scope]) if n else _own_first(lead, nodes, [])
        here = _of_model(here, model, names) or here
        if here:
            return int(_beside(here, [f for f in counts if f.sentence in scope], count).mention.value)
        if n < 4:  # its words, clause, sentence, paragraph
            words = next(
                (
                    w
                    for w in _INSTANCES.finditer(scope)
                    if (not names or not _named_at(names, scope, w.start()))
                    and not re.search(r"\bfrom\s+$", scope[max(0, w.start() - 8) : w.start()])  # "from one node to …"
                ),
                None,
            )
            if words:
                return _word_number(words.group("n"))
    return None


def _each_with(record: dict, scopes: list[str], undecided: list[str]) -> set[int]:
    """ "four nodes, each with 8 GPUs": 32 accelerators, not the 8 written; the count per node (to leave
    out of the other counts), or none."""
    each = next((m for scope in scopes[:4] for m in [_EACH_WITH.search(scope)] if m), None)
    if not each:
        return set()
    nodes, per = _word_number(each.group("n")), _word_number(each.group("m"))
    record["accelerator_count"] = nodes * per
    undecided.append(
        f"accelerator_count: {nodes * per}, read as {each.group()!r} ({nodes} × {per}): check it is the whole system"
    )
    return {per}


def _beside(candidates: list[Figure], anchors: list[Figure], value) -> Figure:
    """The candidate written nearest a mention of ``value`` among ``anchors`` in the same sentence
    ("on 17 nodes, leveraging 68 GPUs"), else the first."""
    best, distance = candidates[0], None
    for c in candidates:
        for a in anchors:
            if a.sentence == c.sentence and a.mention.value == value:
                d = abs(a.mention.start - c.mention.start)
                if distance is None or d < distance:
                    best, distance = c, d
    return best


def _named(names: Names, kind: str, text: str, here: str, exclude: tuple[str, ...] = ()) -> list[str]:
    """The ids of ``kind`` the text names, those in the headline's sentence first, then by how often."""
    taken = Spans()  # the other kinds' names, merged where they overlap
    for a, b in sorted((a, b) for other in exclude for _, a, b in names.find(other, text)):
        if taken.ends and a < taken.ends[-1]:
            taken.ends[-1] = max(taken.ends[-1], b)
        else:
            taken.add(a, b)
    hits: dict[str, int] = {}
    for record_id, a, b in names.find(kind, text):
        if taken.overlaps(a, b):
            continue
        hits[record_id] = hits.get(record_id, 0) + 1
    near = {record_id for record_id, _, _ in names.find(kind, here)}
    return sorted(hits, key=lambda r: (r not in near, -hits[r], r))
