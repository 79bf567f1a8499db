"""The disclosure line the MLPerf results-messaging guidelines ask for, beside every result an answer
shows (``benchkg query … --cite``; always in Markdown, on the site and under ``compare``).

A cited MLPerf result names its version, division, category (datacenter or edge), availability,
benchmark and scenario, its result ID and where it was retrieved; a preview system must be submitted
as available later; an inferred result was derived by the submission checker; a number MLCommons did
not review is labelled "Result not verified by MLCommons Association"; and what benchkg derives (per
accelerator, ratios, fractions, interpolations) is footnoted as no primary MLPerf metric.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pyoxigraph import Literal

from benchkg.answers.results import markdown_text
from benchkg.kernel.rows import Results

#: the columns that hold values benchkg derived, never published as an MLPerf metric
DERIVED_COLUMNS = {
    "per_accelerator",
    "best_per_accelerator",
    "vendor_per_accelerator",
    "audited_per_accelerator",
    "capped_per_accelerator",
    "uncapped_per_accelerator",
    "open_best",
    "closed_best",
    "ratio",
    "tokens_per_s_per_tbs",
    "per_watt_of_tdp",
    "fraction",
    "bound",
    "tokens_per_gpu",
    "output_tokens_per_gpu",
    "difference_percent",
    "system_tps_per_accelerator",
}
DERIVED_NOTE = (
    "Derived by benchkg, not primary MLPerf metrics: per-accelerator values (a result ÷ its accelerator "
    "count), ratios, fractions and interpolated values."
)
TRADEMARK = (
    "MLPerf is a registered and unregistered trademark of MLCommons Association in the United States and "
    "other countries; see mlcommons.org."
)


@dataclass
class Disclosure:
    """The footnotes of an answer: one per claim it shows (numbered in order of first appearance), the
    marks of each row ("[1]", "[1][2]" for a pair), and the notes under them."""

    notes: list[str] = field(default_factory=list)  # footnote texts, [0] is [1]
    marks: list[str] = field(default_factory=list)  # per row
    tail: list[str] = field(default_factory=list)  # derived-values and trademark lines

    def lines(self, markdown: bool = False) -> list[str]:
        """The footnotes as lines: ``[1] …`` (``[^1]: …`` in Markdown), then the notes under them."""
        if markdown:  # the texts come from records: shown as written, never as markup
            head = [f"[^{n}]: {markdown_text(text)}" for n, text in enumerate(self.notes, 1)]
            return head + ([""] if head else []) + [markdown_text(line) for line in self.tail]
        head = [f"[{n}] {text}" for n, text in enumerate(self.notes, 1)]
        return ["Disclosures (MLPerf results-messaging guidelines):", ""] + head + ([""] if head else []) + self.tail


_QUERY = """PREFIX bk: <https://w3id.org/benchkg/ontology#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?c (SAMPLE(?suite_name) AS ?suite) (SAMPLE(?family_id) AS ?family) (SAMPLE(?division_id) AS ?division)
       (GROUP_CONCAT(DISTINCT ?type_id; separator=", ") AS ?category) (SAMPLE(?availability_id) AS ?availability)
       (SAMPLE(?model_name) AS ?model) (SAMPLE(?tier_text) AS ?tier) (SAMPLE(?scenario_id) AS ?scenario)
       (SAMPLE(?result_id) AS ?result) (SAMPLE(?measured_id) AS ?measured) (SAMPLE(?submitter_name) AS ?submitter)
       (MIN(?source_text) AS ?source) (SAMPLE(?inferred_flag) AS ?inferred) (SAMPLE(?value_text) AS ?value)
       (SAMPLE(?count_text) AS ?count)
WHERE {
  VALUES ?c { %s }
  OPTIONAL { ?c bk:suite ?s . OPTIONAL { ?s rdfs:label ?sl } BIND (COALESCE(?sl, STRAFTER(STR(?s), "/suites/")) AS ?suite_name)
             OPTIONAL { ?s bk:suiteFamily ?f . BIND (STRAFTER(STR(?f), "#suite-family-") AS ?family_id) } }
  OPTIONAL { ?c bk:division ?d . BIND (STRAFTER(STR(?d), "#division-") AS ?division_id) }
  OPTIONAL { ?c bk:systemType ?t . BIND (STRAFTER(STR(?t), "#system-type-") AS ?type_id) }
  OPTIONAL { ?c bk:availability ?a . BIND (STRAFTER(STR(?a), "#availability-") AS ?availability_id) }
  OPTIONAL { ?c bk:model ?m . OPTIONAL { ?m rdfs:label ?ml } BIND (COALESCE(?ml, STRAFTER(STR(?m), "/models/")) AS ?model_name) }
  OPTIONAL { ?c bk:accuracyTarget ?tier_text }
  OPTIONAL { ?c bk:scenario ?sc . BIND (STRAFTER(STR(?sc), "#scenario-") AS ?scenario_id) }
  OPTIONAL { ?c bk:mlperfResultId ?result_id }
  OPTIONAL { ?c bk:measuredBy ?mb . BIND (STRAFTER(STR(?mb), "#measured-by-") AS ?measured_id) }
  OPTIONAL { ?c bk:submitter ?o . OPTIONAL { ?o rdfs:label ?ol } BIND (COALESCE(?ol, STRAFTER(STR(?o), "/organizations/")) AS ?submitter_name) }
  OPTIONAL { ?c bk:citation/bk:source ?src . OPTIONAL { ?src rdfs:label ?srcl } OPTIONAL { ?src rdfs:seeAlso ?u }
             BIND (CONCAT(COALESCE(?srcl, STRAFTER(STR(?src), "/sources/")), IF(BOUND(?u), CONCAT(" (", STR(?u), ")"), "")) AS ?source_text) }
  OPTIONAL { ?c bk:inferred ?inferred_flag }
  OPTIONAL { ?c bk:acceleratorCount ?count_text }
}
GROUP BY ?c"""


def describe(row: dict) -> str:
    """The disclosure of one claim from its fields (values as text).

    >>> describe({"family": "mlperf-inference", "measured": "mlcommons", "suite": "MLPerf Inference v6.0",
    ...           "division": "closed", "category": "datacenter", "availability": "available",
    ...           "model": "Llama 2 70B", "tier": "99", "scenario": "offline", "result": "6.0-0010",
    ...           "submitter": "Cisco", "source": "MLPerf Inference v6.0 results (https://github.com/mlcommons/inference_results_v6.0)"})
    'MLPerf Inference v6.0, Closed division, Datacenter, Available: Llama 2 70B (99 % accuracy), Offline; result 6.0-0010, submitted by Cisco; retrieved from MLPerf Inference v6.0 results (https://github.com/mlcommons/inference_results_v6.0).'

    An audited result whose round published no result IDs (v6.1) is still audited, never "not verified":

    >>> describe({"measured": "mlcommons", "suite": "MLPerf Inference v6.1", "model": "gpt-oss-120b",
    ...           "scenario": "offline", "division": "closed", "category": "datacenter", "availability": "available"})
    'MLPerf Inference v6.1, Closed division, Datacenter, Available: gpt-oss-120b, Offline; no result ID published.'
    """
    scenario = (
        (row.get("scenario") or "").replace("-", " ").title().replace(" ", "")
        if row.get("scenario") in ("single-stream", "multi-stream")
        else (row.get("scenario") or "").title()
    )
    model = row.get("model") or "?"
    if row.get("tier"):
        model += f" ({row['tier']} % accuracy)"
    source = f"; retrieved from {row['source']}" if row.get("source") else ""
    if row.get("measured") == "mlcommons":
        parts = [
            row.get("suite") or "MLPerf",
            f"{(row.get('division') or '?').title()} division",
            ", ".join(t.title() for t in (row.get("category") or "?").split(", ")),
            (row.get("availability") or "?").title(),
        ]
        on = f", {row['count']} accelerator{'s' if str(row['count']) != '1' else ''}" if row.get("count") else ""
        text = (
            f"{', '.join(parts)}: {model}, {scenario}{on}; "
            + (f"result {row['result']}" if row.get("result") else "no result ID published")
            + (f", submitted by {row['submitter']}" if row.get("submitter") else "")
            + f"{source}."
        )
        if row.get("availability") == "preview":
            text += (
                " Preview: the system must be submitted again as available in a later round, within the "
                "window the MLPerf Inference rules give."
            )
        if row.get("inferred") in ("true", "1"):
            text += " Inferred by the MLPerf submission checker from another run, not measured."
        return text
    who = {
        "vendor": "vendor-measured",
        "third-party": "measured by a third party",
        "community": "community-measured",
    }.get(row.get("measured") or "", "measured by ?")
    by = f" ({row['submitter']})" if row.get("submitter") else ""
    on = f" on {row['count']} accelerators" if row.get("count") else ""
    return (
        f"{(row.get('suite') or 'no suite')}: {model}, {scenario}{on}, {who}{by}. Result not verified by "
        f"MLCommons Association{source}."
    )


def disclose(select: Callable[[str], list[dict]], results, claim_columns: tuple[str, ...]) -> Disclosure:
    """The footnotes of an answer's claims (its ``claim_columns``, in row order) and each row's marks."""
    order: list[str] = []
    for row in results.rows:
        for column in claim_columns:
            if column in row and row[column].value not in order:
                order.append(row[column].value)
    out = Disclosure()
    if not order:
        return out
    found = {r["c"]: r for r in select(_QUERY % " ".join(f"<{c}>" for c in order))}
    number = {c: n for n, c in enumerate(order, 1)}
    out.notes = [describe(found.get(c, {})) for c in order]
    out.marks = ["".join(f"[{number[row[col].value]}]" for col in claim_columns if col in row) for row in results.rows]
    if DERIVED_COLUMNS & set(results.vars):
        out.tail.append(DERIVED_NOTE)
    if any(r.get("family", "").startswith("mlperf") for r in found.values()):
        out.tail.append(TRADEMARK)
    return out


def with_marks(results, disclosure: Disclosure, markdown: bool = False):
    """The results with a ``cite`` column of each row's marks (``[^1]`` in Markdown)."""

    rows = []
    for row, mark in zip(results.rows, disclosure.marks):
        cell = mark.replace("[", "[^") if markdown else mark
        rows.append({**row, "cite": Literal(cell)} if cell else dict(row))
    return Results(list(results.vars) + ["cite"], rows, results.total, results.more, results.claim_rows, results.extra)
