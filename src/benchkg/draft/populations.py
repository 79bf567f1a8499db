"""The population a superlative's words rank a number in, as ``asserts.among`` says it.

"The highest per-GPU throughput of any MLPerf v6.1 Datacenter Closed submission", "the best result of
any AMD-based submission", "the fastest 8-GPU system", "the top score among OEMs": each qualifier
narrows the population (docs/records.md, superlatives). :func:`among_of` reads the ones real texts use
— closed, datacenter, a chip vendor ("AMD-based", "on NVIDIA GPUs"), one chip or several ("on H100 or
H200"), a system size ("8-GPU", "single-node"), a kind of organisation ("among cloud providers",
"OEMs") — and says which words of an "among …" or "of any …" phrase it could not read, so a person
narrows the population the draft left wide instead of the first validate comparing the number with
every result of the round.
"""

from __future__ import annotations

import re

from benchkg.kernel.numbers import NUMBER_WORDS
from benchkg.records.names import Names

_CLOSED = re.compile(r"\bclosed\b", re.I)
_DATACENTER = re.compile(r"\bdata ?cent(?:er|re)\b", re.I)
#: the kinds of organisation texts rank among, and the organization-kind each is
_KINDS = (
    (r"\bcloud(?:s| providers?| service providers?| vendors?)?\b|\bai clouds?\b|\bhyperscalers?\b", "cloud-provider"),
    (r"\boems?\b|\bserver (?:makers?|vendors?)\b|\bsystem (?:builders?|makers?|vendors?)\b", "system-builder"),
    (r"\bchip ?(?:makers?|vendors?)\b|\bsilicon vendors?\b", "chip-maker"),
)
#: "AMD-based", "on AMD GPUs", "any NVIDIA system": a vendor's name right before these words
_VENDOR_AFTER = r"(?:[- ]based\b|\s+(?:gpus?|accelerators?|chips?|hardware|silicon|systems?|platforms?|instinct)\b)"
_SIZE = re.compile(r"\b(\d+|one|two|four|eight|sixteen)[- ](?:gpu|accelerator|chip)\b", re.I)
_NODES = re.compile(r"\b(\d+|one|two|four|eight|single|a single)[- ](?:node|server)\b", re.I)
_PHRASE = re.compile(r"\b(?:among|of any|of all|across all|in any)\s+([^,.;:!?]+)", re.I)
#: the words of a population phrase that narrow nothing, or that the fields above read
_FILLER = re.compile(
    r"\b(?:the|a|an|any|all|other|of|on|in|for|with|its|their|that|this|model|submissions?|results?|systems?|"
    r"entr(?:y|ies)|platforms?|configurations?|servers?|gpus?|accelerators?|chips?|silicon|mlperf(?:®|™)?|inference|"
    r"round|benchmarks?|tests?|scores?|based|per|participants?|submitters?|vendors?|so far|ever|to date|date)\b",
    re.I,
)


def among_of(words: str, record: dict, names: Names) -> tuple[dict, str]:
    """(``among``, the words of its population phrase the draft could not read, or "").

    >>> from benchkg.records.names import Names
    >>> n = Names(); n.add("organizations", "amd", "AMD"); n.add("accelerators", "nvidia-h100-sxm", "H100")
    >>> n.add("accelerators", "nvidia-h200-sxm-141gb", "H200")
    >>> among_of("the best per-GPU result of any AMD-based submission", {"suite_id": "s", "model_id": "m"}, n)
    ({'suite_id': 's', 'model_id': 'm', 'accelerator_vendor_id': 'amd'}, '')
    >>> among_of("the fastest 8-GPU single-node result of any system on H100 or H200", {}, n)[0]
    {'accelerator_ids': ['nvidia-h100-sxm', 'nvidia-h200-sxm-141gb'], 'accelerator_count': 8, 'node_count': 1}
    >>> among_of("the highest score among European neoclouds", {}, n)
    ({}, 'European neoclouds')
    """
    among: dict = {"suite_id": record.get("suite_id")}
    if _CLOSED.search(words):
        among["division"] = "closed"
    if _DATACENTER.search(words):
        among["system_type"] = "datacenter"
    among.update({"model_id": record.get("model_id"), "scenario": record.get("scenario")})
    vendors = [
        v for v, _, end in names.find("organizations", words) if re.match(_VENDOR_AFTER, words[end : end + 16], re.I)
    ]
    if len(set(vendors)) == 1:
        among["accelerator_vendor_id"] = vendors[0]
    phrase = _PHRASE.search(words)  # a chip narrows only within "of any …"/"among …": else it ran the number
    chips = list(dict.fromkeys(c for c, _, _ in names.find("accelerators", phrase.group(1) if phrase else "")))
    if len(chips) == 1:
        among["accelerator_id"] = chips[0]
    elif chips:
        among["accelerator_ids"] = chips
    size, nodes = _SIZE.search(words), _NODES.search(words)
    if size:
        among["accelerator_count"] = _count(size.group(1))
    if nodes:
        among["node_count"] = _count(nodes.group(1))
    kind = next((k for pattern, k in _KINDS if re.search(pattern, words, re.I)), None)
    if kind:
        among["organization_kind"] = kind
    return {k: v for k, v in among.items() if v}, _unread(words, names)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def _unread(words: str, names: Names) -> str:
    """The words of an "among …" / "of any …" phrase no field reads ("European neoclouds")."""
    phrase = _PHRASE.search(words)
    if not phrase:
        return ""
    rest = phrase.group(1)
    for kind in ("organizations", "accelerators", "models", "suites"):
        for _, a, b in sorted(names.find(kind, rest), key=lambda hit: -hit[1]):
            rest = rest[:a] + " " + rest[b:]
    for pattern in [p for p, _ in _KINDS] + [
        _CLOSED.pattern,
        _DATACENTER.pattern,
        _SIZE.pattern,
        _NODES.pattern,
        r"\bv?\d+(?:\.\d+)?\b",
        r"\b(?:offline|server|interactive|open)\b",
        _FILLER.pattern,
    ]:
        rest = re.sub(pattern, " ", rest, flags=re.I)
    return " ".join(w for w in re.split(r"[\s/-]+", rest) if w.strip("'’\"()"))
