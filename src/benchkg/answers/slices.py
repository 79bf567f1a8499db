"""The slice vocabulary: one set of parameter names, meanings and defaults for every saved query that
ranks, pairs or counts claims ("best available single-node 8-GPU system", "this submitter across
rounds", "closed datacenter results per round").

A saved query takes slice parameters with a header line, each with its default or none::

    #+ slice: model=llama2-70b scenario=server division=closed accuracy=99 system_type=datacenter unit=tokens/s suite availability

and says where they apply with a marker line naming the claim variable, first in its group (Oxigraph
orders a group's patterns from the text: a slice of one model read first is the rest's starting point,
0.61 s -> 0.06 s for per-watt-of-tdp at 10,000 claims)::

    # slice ?claim
    ?claim bk:result ?result .

benchkg replaces the marker with the patterns of the slice parameters that are set (as typed RDF
terms, never pasted text) and with nothing for those that are not: an unset slice costs nothing. The
marker is a comment, so the file stays SPARQL that parses anywhere. What each name means:

====================  ==========================================================================
``suite``             the claim's suite (a round: ``mlperf-inference-v6.0``)
``family``            the family of its suite (``mlperf-inference``, ``mlperf-endpoints``, ``inferencex``)
``model``             its model
``scenario``          its scenario
``accuracy``          its accuracy tier, 99 or 99.9 (as the build derived it: a claim that states none is
                      left out when claims of its model state one, and passes for a model none does)
``division``          its division (a claim that states none passes)
``system_type``       datacenter or edge (a claim that states none passes)
``availability``      available, preview or rdi (a claim must state it)
``inferred``          true: only results the MLPerf checker inferred; false: only measured ones
``submitter``         who submitted it (any name or alias: "Oracle" and "ORACLE" are one organisation)
``accelerator``       the chip it ran on: a rack meets the chip it is made of, a chip the racks made of it
``merge_variants``    with ``accelerator``: its variants too (H200 CTS with H200 SXM)
``accelerator_count`` exactly this many accelerators in all
``min_accelerators``  at least this many
``max_accelerators``  at most this many
``node_count``        exactly this many nodes
``unit``              the unit of its headline value (tokens/s, samples/s, queries/s, ms, s…)
``sort``              (per query) what a ranking orders by
====================  ==========================================================================
"""

from __future__ import annotations

import re
from typing import Callable

#: slice name -> its parameter type, as a ``#+ param`` line would give it
SLICE_TYPES = {
    "suite": ("id", "suites"),
    "family": ("enum", "suite-family"),
    "model": ("id", "models"),
    "scenario": ("enum", "scenario"),
    "accuracy": ("enum", ""),
    "division": ("enum", "division"),
    "system_type": ("enum", "system-type"),
    "availability": ("enum", "availability"),
    "inferred": ("boolean", ""),
    "submitter": ("id", "organizations"),
    "accelerator": ("id", "accelerators"),
    "merge_variants": ("boolean", ""),
    "accelerator_count": ("integer", ""),
    "min_accelerators": ("integer", ""),
    "max_accelerators": ("integer", ""),
    "node_count": ("integer", ""),
    "unit": ("enum", "unit"),
}
#: the values an enum slice allows beyond its scheme
SLICE_VALUES = {"accuracy": ("99", "99.9")}
#: what each slice parameter means, one line (``benchkg queries``, the README)
MEANINGS = {
    "suite": "the round (suite id), e.g. mlperf-inference-v6.0",
    "family": "the suite family, e.g. mlperf-inference, inferencex",
    "model": "the model",
    "scenario": "the scenario",
    "accuracy": "the accuracy tier (a claim that states none only passes for an untiered model)",
    "division": "the division (a claim that states none passes)",
    "system_type": "datacenter or edge (a claim that states none passes)",
    "availability": "available, preview or rdi",
    "inferred": "true: only results the checker inferred; false: only measured ones",
    "submitter": "who submitted it (any name or alias, any case)",
    "accelerator": "the chip (a rack meets its chip)",
    "merge_variants": "with accelerator: its variants too",
    "accelerator_count": "exactly this many accelerators",
    "min_accelerators": "at least this many accelerators",
    "max_accelerators": "at most this many accelerators",
    "node_count": "exactly this many nodes",
    "unit": "the unit of the headline value",
}
MARKER = re.compile(r"^[ \t]*#[ \t]*slice[ \t]+\?(\w+)[ \t]*$", re.M)
PREFIXES = {"bk": "https://w3id.org/benchkg/ontology#", "qudt": "http://qudt.org/schema/qudt/"}
_BK, _QUDT = (f"<{PREFIXES[p]}" for p in ("bk", "qudt"))


def _p(local: str) -> str:
    return f"{_BK}{local}>"


def expand(
    var: str, terms: dict[str, str | None], accelerators: list[str] | None = None, named: frozenset[str] = frozenset()
) -> str:
    """The SPARQL patterns of the set slice parameters for claim variable ``?var``. ``terms`` maps a
    slice name to its bound RDF term (N-Triples) or None (unset); ``accelerators`` are the IRIs the
    ``accelerator`` slice matches (see :func:`accelerator_family`); ``named`` the slices the user gave a
    value (not a default): a tier named selects the results that state it, as ``--where tier=`` does,
    where the default tier applies only to the models that have tiers (issue 62).

    >>> expand("c", {"accuracy": '"99"'}, named=frozenset({"accuracy"}))
    '?c <https://w3id.org/benchkg/ontology#tier> "99" .'


    >>> expand("c", {"model": "<m>", "division": "<d>", "scenario": None})
    '?c <https://w3id.org/benchkg/ontology#model> <m> . FILTER NOT EXISTS { ?c <https://w3id.org/benchkg/ontology#division> ?_division_c FILTER (?_division_c != <d>) }'
    """
    v, out = f"?{var}", []
    t = {name: term for name, term in terms.items() if term is not None}
    simple = {
        "suite": "suite",
        "model": "model",
        "scenario": "scenario",
        "availability": "availability",
        "submitter": "submitter",
    }
    for name, pred in simple.items():
        if name in t:
            out.append(f"{v} {_p(pred)} {t[name]} .")
    if "family" in t:
        out.append(f"{v} {_p('suite')}/{_p('suiteFamily')} {t['family']} .")
    if "unit" in t:
        out.append(f"{v} {_p('result')}/{_QUDT}hasUnit> {t['unit']} .")
    if "accelerator_count" in t:
        out.append(f"{v} {_p('acceleratorCount')} {t['accelerator_count']} .")
    if "node_count" in t:
        out.append(f"{v} {_p('nodeCount')} {t['node_count']} .")
    if "min_accelerators" in t or "max_accelerators" in t:
        n = f"?_count_{var}"
        tests = [f"{n} >= {t['min_accelerators']}"] if "min_accelerators" in t else []
        tests += [f"{n} <= {t['max_accelerators']}"] if "max_accelerators" in t else []
        out.append(f"{v} {_p('acceleratorCount')} {n} . FILTER ({' && '.join(tests)})")
    if accelerators is not None:
        acc = f"?_acc_{var}"
        out.append(
            f"VALUES {acc} {{ {' '.join(f'<{a}>' for a in accelerators) or '<urn:benchkg:none>'} }} "
            f"{v} {_p('accelerator')} {acc} ."
        )
    # a claim that states no division or system type passes: a vendor claim rarely does. The tier is the
    # derived one (benchkg.graph.facts): "not stated" where claims of the model state one, so such a
    # claim is left out (and counted under "Left out") instead of passing every tier
    for name, pred in (("accuracy", "tier"), ("division", "division")):
        if name == "accuracy" and name in t and name in named:
            out.append(f"{v} {_p(pred)} {t[name]} .")
        elif name in t:
            w = f"?_{name}_{var}"
            out.append(f"FILTER NOT EXISTS {{ {v} {_p(pred)} {w} FILTER ({w} != {t[name]}) }}")
    if "system_type" in t:
        w = f"?_system_type_{var}"
        out.append(
            f"FILTER (NOT EXISTS {{ {v} {_p('systemType')} {w} }} || EXISTS {{ {v} {_p('systemType')} {t['system_type']} }})"
        )
    if "inferred" in t:
        if "true" in t["inferred"]:
            out.append(f"{v} {_p('inferred')} true .")
        else:
            out.append(f"FILTER NOT EXISTS {{ {v} {_p('inferred')} true }}")
    return " ".join(out)


def accelerator_family(select: Callable[[str], list[dict]], accelerator: str, merge_variants: bool) -> list[str]:
    """The accelerator IRIs a claim may name to run on ``accelerator``: its chip (a rack's made-of
    chip), the racks and systems made of that chip, and, with ``merge_variants``, the variants of the
    chip's base part and what is made of them. ``select`` runs SPARQL and gives rows of value texts."""
    prefix = "PREFIX bk: <https://w3id.org/benchkg/ontology#>\n"
    rows = select(prefix + f"SELECT ?part WHERE {{ OPTIONAL {{ <{accelerator}> bk:madeOf ?part }} }}")
    chip = next((r["part"] for r in rows if r.get("part")), accelerator)
    members = {chip}
    if merge_variants:
        base = next(
            (
                r["base"]
                for r in select(prefix + f"SELECT ?base WHERE {{ <{chip}> bk:variantOf ?base }}")
                if r.get("base")
            ),
            chip,
        )
        members = {base} | {r["v"] for r in select(prefix + f"SELECT ?v WHERE {{ ?v bk:variantOf <{base}> }}")}
    made = set()
    for member in sorted(members):
        made |= {r["u"] for r in select(prefix + f"SELECT ?u WHERE {{ ?u bk:madeOf <{member}> }}")}
    return sorted(members | made)


def apply(
    text: str, terms: dict[str, str | None], accelerators: list[str] | None = None, named: frozenset[str] = frozenset()
) -> str:
    """``text`` with every ``# slice ?var`` marker replaced by :func:`expand` for that variable (``named``:
    the slices given a value, not a default).

    >>> apply("SELECT * { ?c ?p ?o .\\n  # slice ?c\\n}", {"model": "<m>"})
    'SELECT * { ?c ?p ?o .\\n  ?c <https://w3id.org/benchkg/ontology#model> <m> .\\n}'
    """
    return MARKER.sub(
        lambda m: (
            m.group(0)[: len(m.group(0)) - len(m.group(0).lstrip())] + expand(m.group(1), terms, accelerators, named)
        ),
        text,
    )
