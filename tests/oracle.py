"""A second route to the answers of the saved queries: plain Python over the JSON records, no RDF.

The tests compare what SPARQL returns with what this computes, so a wrong query or a wrong
mapping fails even where both agree with themselves.
"""

from __future__ import annotations

import json
from decimal import Context, Decimal
from pathlib import Path


def load(data: Path) -> dict[str, dict[str, dict]]:
    out: dict[str, dict[str, dict]] = {}
    for kind_dir in sorted(p for p in data.iterdir() if p.is_dir()):
        out[kind_dir.name] = {
            p.stem: json.loads(p.read_text(), parse_float=Decimal) for p in sorted(kind_dir.glob("*.json"))
        }
    return out


def _has_field(claim: dict, path: str) -> bool:
    head, _, rest = path.partition(".")
    if head not in claim:
        return False
    if not rest:
        return True
    value = claim[head]
    items = value if isinstance(value, list) else [value]
    return any(isinstance(i, dict) and rest in i for i in items)


def caveats(records, claim_id: str) -> set[str]:
    """Gotchas that apply to a claim alone: linked; claim caveats whose every applies_to facet
    matches; finding caveats whose finding shape flags the claim (computed here again, in Python)."""
    claim = records["benchmarks"][claim_id]
    out = set(claim.get("gotcha_ids", []))
    flagged = findings(records)
    for gid, g in records["gotchas"].items():
        if any(claim_id in flagged.get(shape, set()) for shape in g.get("finding_shapes", [])):
            out.add(gid)
        facets = g.get("applies_to", {})
        if not any(facets.get(k) for k in ("suites", "scenarios", "metrics", "fields", "measured_by")):
            continue
        ok = True
        if facets.get("suites") and claim.get("suite_id") not in facets["suites"]:
            ok = False
        if facets.get("scenarios") and claim.get("scenario") not in facets["scenarios"]:
            ok = False
        if facets.get("metrics") and claim.get("metric") not in facets["metrics"]:
            ok = False
        if facets.get("measured_by") and claim.get("measured_by") not in facets["measured_by"]:
            ok = False
        if facets.get("fields") and not any(_has_field(claim, f) for f in facets["fields"]):
            ok = False
        if ok:
            out.add(gid)
    return out


def findings(records) -> dict[str, set[str]]:
    """The claims each finding shape that a gotcha cites flags, by a second route."""
    claims = records["benchmarks"]
    out: dict[str, set[str]] = {
        "samples-times-tokens-agrees": set(),
        "fabric-stated-only-by-the-system": set(),
        "server-beats-offline": {s for s, _, _, inverted in server_offline_pairs(records) if inverted},
    }
    for cid, c in claims.items():
        samples = [r for r in c.get("reported", []) if r.get("unit") == "samples/s"]
        if c.get("unit") == "tokens/s" and c.get("tokens_per_sample") and samples:
            product = Decimal(samples[0]["value"]) * Decimal(c["tokens_per_sample"])
            if abs(product - Decimal(c["value"])) > Decimal("0.01") * Decimal(c["value"]):
                out["samples-times-tokens-agrees"].add(cid)
        system = records.get("systems", {}).get(c.get("system_id"), {})
        accelerators = records["accelerators"]
        own = set()
        for a in c.get("accelerator_ids", []):
            acc = accelerators.get(a, {})
            own |= set(acc.get("interconnect_ids", []))
            own |= set(accelerators.get(acc.get("made_of_id"), {}).get("interconnect_ids", []))
        for ic in c.get("interconnect_ids", []):
            scale_up = records["interconnects"].get(ic, {}).get("kind") == "scale-up"
            if (
                scale_up
                and ic in system.get("interconnect_ids", [])
                and not any(o == ic or o.startswith(ic + "-") for o in own)
            ):
                out["fabric-stated-only-by-the-system"].add(cid)
    return out


def per_accelerator(claim: dict) -> Decimal | None:
    if claim.get("scope") == "per-accelerator":
        return Decimal(claim["value"])
    if claim.get("scope") == "aggregate" and claim.get("accelerator_count"):
        return Context(prec=10).divide(Decimal(claim["value"]), Decimal(claim["accelerator_count"]))  # (issue 62)
    return None


def leaderboard(records, model: str, scenario: str) -> list[tuple]:
    """The default leaderboard: tokens/s, tier 99 (or none stated), closed (or none stated),
    datacenter (or none stated); best per accelerator first."""
    rows = []
    for cid, c in records["benchmarks"].items():
        types = c.get("system_type")
        types = [types] if isinstance(types, str) else (types or [])
        if (
            c.get("model_id") == model
            and c.get("scenario") == scenario
            and "value" in c
            and c.get("unit") == "tokens/s"
            and c.get("accuracy_target", "99") == "99"
            and c.get("division", "closed") == "closed"
            and (not types or "datacenter" in types)
        ):
            rows.append(
                (cid, Decimal(c["value"]), per_accelerator(c), c.get("accelerator_count"), caveats(records, cid))
            )
    return sorted(rows, key=lambda r: (-(r[2] or 0), -r[1], r[0]))


def server_offline_pairs(records) -> list[tuple]:
    """Server and Offline claims of one system record, count, model, suite, tier, division, unit and scope."""
    claims = records["benchmarks"]
    out = []
    for sid, s in claims.items():
        for oid, o in claims.items():
            if s.get("scenario") != "server" or o.get("scenario") != "offline" or "system_id" not in s:
                continue
            key = (
                "system_id",
                "model_id",
                "suite_id",
                "accelerator_count",
                "unit",
                "scope",
                "accuracy_target",
                "division",
            )
            if all(s.get(k) == o.get(k) for k in key):
                ratio = (Decimal(s["value"]) / Decimal(o["value"])).quantize(Decimal("0.0001"))
                out.append((sid, oid, ratio, Decimal(s["value"]) > Decimal(o["value"])))
    return sorted(out)


def fabric_claims(records) -> list[tuple]:
    out = []
    for cid, c in records["benchmarks"].items():
        if not c.get("interconnect_ids"):
            continue
        layout = c.get("parallelism")
        span = None
        if layout is not None:
            span = layout.get("tensor", 1) * layout.get("pipeline", 1) * layout.get("expert", 1)
        evidence = bool(span and span > 1) or (layout is not None and c.get("node_count", 1) > 1)
        out.append((cid, set(c["interconnect_ids"]), span, c.get("fabric_exercised"), evidence))
    return sorted(out, key=lambda r: r[0])
