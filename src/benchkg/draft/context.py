"""What was measured: a claim's round, division, scenario, model, superlative and who measured it, read
nearest first from the words around its number."""

from __future__ import annotations

import re

from benchkg.draft.figures import _SCENARIOS, Figure, _clause_span, _clause_text, _uncompared
from benchkg.draft.groups import Group
from benchkg.draft.hardware import _named
from benchkg.draft.linking import weak
from benchkg.draft.page import _heading, _paragraph, _short, sentences
from benchkg.draft.populations import among_of
from benchkg.records.names import Names

_SUITE = re.compile(
    r"MLPerf(?:®|™)?\s*(?:(?P<pre>Inference|Endpoints)\s*)?v?(?P<version>\d+\.\d+)(?:\s*(?P<post>Inference|Endpoints))?",
    re.I,
)


#: fields a claim's source usually states; one the text does not state goes in omitted_by_source
STATED_OR_OMITTED = (
    "division",
    "system_type",
    "scenario",
    "accuracy_target",
    "format_id",
    "engine_id",
    "node_count",
    "parallelism",
    "fabric_exercised",
    "load.concurrency",
    "mlperf_result_id",
)


#: what says a number is no audited MLPerf result
_UNAUDITED = re.compile(
    r"\bnot\s+(?:an?\s+)?(?:official\s+|verified\s+)?MLPerf(?:®|™)?\s+(?:\w+\s+)?(?:result|submission|score)s?\b|"
    r"\b(?:runs?|results?|numbers?|figures?|measurements?|tests?)\b[^.;]{0,60}?\b(?:(?:did\s+not|didn't|never)\s+"
    r"submit|(?:was|were|has|have)\s+not\s+(?:been\s+)?submitted)\b|\bunsubmitted\b|"
    r"\b(?:\w+'s|its|their|our)\s+own\s+(?:measurements?|tests?|testing|benchmarks?)\b|"
    r"\bnot\s+(?:been\s+)?(?:verified|validated|audited|reviewed)\s+by\s+MLCommons\b|\bunverified\b|"
    r"\bMLCommons[- ]unverified\b|\binternal(?:ly)?\s+(?:test(?:ing|s|ed)?|measure(?:ments?|d)|benchmark(?:s|ing)?)\b|"
    r"\bpost-deadline\b",
    re.I,
)


def _whose(record: dict, text: str, lead: Figure | None, names: Names, undecided: list[str]) -> bool:
    """Who measured the claim and in which series it is: the vendor's own (unverified, internal, or a
    text that names no MLPerf at all) in ``<submitter>-claims`` without a division, else an MLPerf
    result for a person to say; whether it is the vendor's own."""
    paragraph = _paragraph(text, lead.sentence) if lead else ""
    unaudited = bool(_measured_by(record, text, lead.sentence if lead else "", names, undecided, paragraph))
    if unaudited:
        record.pop("division", None)  # a vendor's own claim is in no MLPerf division
        workload = record.get("suite_id")
        if workload and "asserts" in record:  # the rank is among the results of the workload's round
            record["asserts"]["among"]["suite_id"] = workload
        record["_vendor"] = True
    elif lead and not re.search(r"\bMLPerf\b", text, re.I):  # no MLPerf named at all: its own benchmark
        record.pop("division", None)
        record["_vendor"] = True
        undecided.append(
            "suite_id: the text names no MLPerf round or submission, so the number is its author's own "
            "benchmark, in a claim series of family vendor-claim (measured_by: vendor, or third-party for a reviewer)"
        )
    elif lead and "suite_id" not in record and not any(u.startswith("suite_id") for u in undecided):
        undecided.append("suite_id: the text names MLPerf, but no round this number was submitted to: add it")
    return unaudited


def _scopes(
    group: Group | None, text: str, title: str, single: bool, spans: list[tuple[str, int, int]]
) -> tuple[list[str], list[str]]:
    """Where a claim's context is read, nearest first: its own words, its clause, its sentence, its
    paragraph, the heading above that paragraph, the sentences restating its number, and (the only
    claim of a text) the title. Returned twice: with other claims' words blanked from the sentence on
    (chips and counts: a trailing "… on a single H100 GPU" is every number's of the clause), and blanked
    everywhere (scenario, model, round: "… 1,016,375 tokens/s in the Server scenario" is that number's)."""
    lead = group.lead if group else None
    if not lead or not group:
        return [title], [title]
    _, start, end = _clause_span(lead)
    sentence = _masked(lead.sentence, spans)
    paragraph = _paragraph(text, lead.sentence)
    theirs = [(o, 0, len(o)) for o, _, _ in spans if o != lead.sentence]  # other claims' sentences, whole
    rest = [_masked(paragraph, spans + theirs), _heading(text, paragraph)]
    rest += [_masked(r.sentence, spans) for r in group.restated]
    rest += [title] if single else []
    own = lead.own if lead.own[1] else (start, end)
    plain = [lead.own_text, _clause_text(lead), sentence, rest[0], "", *rest[2:]]  # a heading states no count
    if _PREVIOUS.search(lead.sentence):  # "The previous record was 865,000": the paragraph's system is another's
        plain = plain[:3] + [""] * (len(plain) - 3)
    return plain, [sentence[own[0] : own[1]], sentence[start:end], sentence, *rest]


#: a number that is an earlier one of the vendor's own: "the previous record was 865,000"
_PREVIOUS = re.compile(
    r"\b(?:previous|prior|earlier|former|last(?:\s+year's|\s+round's)?)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:record|result|best|submission|generation)\b",
    re.I,
)


def _theirs(other: Figure, lead: Figure | None) -> tuple[str, int, int]:
    """The words another claim's number holds, which this claim never reads: from its number to the end
    of its own words ("1,016,375 tokens/s in the Server scenario"; the words before a clause's first
    number, "On Llama 2 70B, eleven nodes …", are every claim's that reads them)."""
    return other.sentence, other.mention.start, other.own[1] or len(other.sentence)


def _masked(text: str, spans: list[tuple[str, int, int]]) -> str:
    """``text`` with the words of other claims' numbers blanked (the same length: offsets hold).

    >>> _masked("A 1 Offline and 2 Server. B", [("A 1 Offline and 2 Server. B", 16, 24)])
    'A 1 Offline and         . B'
    """
    by_sentence: dict[str, list[tuple[int, int]]] = {}
    for sentence, a, b in spans:
        by_sentence.setdefault(sentence, []).append((a, b))
    for sentence, cuts in by_sentence.items():
        if sentence in text:
            words = list(sentence)
            for a, b in cuts:
                words[a:b] = " " * (b - a)
            text = text.replace(sentence, "".join(words))
    return text


#: a round named as the workload a vendor ran itself: "the Llama 2 70B model from MLPerf Inference v5.1"
_WORKLOAD = re.compile(
    r"\bmodel\b[^.;]{0,40}?\bfrom\s+(?:the\s+)?MLPerf(?:®|™)?\s*(?:Inference\s*)?v?\d+\.\d+(?:\s+(?:suite|benchmarks?))?",
    re.I,
)


def _inside(m: re.Match, pattern: re.Pattern, text: str) -> bool:
    """Whether the match ``m`` lies within a match of ``pattern`` in ``text``."""
    return any(w.start() <= m.start() and m.end() <= w.end() for w in pattern.finditer(text))


def _unaudited(record: dict, text: str, sentence: str, paragraph: str, names: Names) -> re.Match | None:
    """The words that make this claim the vendor's own, if any: in its own paragraph, or said of the whole
    text (in its title or opening, or in a footnote: "* Internal measurement …"); not when they speak of
    another model ("Post-deadline (MLCommons unverified), Wan 2.2 …"), nor when the claim's own sentence
    names an MLPerf round and does not say them (a result cited beside the vendor's own)."""
    opening = [line for line in text.split("\n") if line.strip()][:3]
    for m in _UNAUDITED.finditer(text):
        where = next((line for line in text.split("\n") if m.group() in line), "")
        general = where in opening or re.match(
            r"\s*(?:[*†‡¹²³]|\[\d+\]|notes?\b|disclaimer\b|these\s+are\b|all\s+(?:the\s+|these\s+)?(?:figures|results|"
            r"numbers|measurements)\b)",
            where,
            re.I,
        )
        if not general and where != paragraph:
            continue
        said = next((s for _, s in sentences(text) if m.group() in s), "")
        models = {model for model, _, _ in names.find("models", said)}
        if models and record.get("model_id") and record["model_id"] not in models:
            continue
        if _SUITE.search(sentence) and not _UNAUDITED.search(sentence):
            continue
        return m
    return None


def _measured_by(
    record: dict, text: str, sentence: str, names: Names, undecided: list[str], paragraph: str = ""
) -> bool:
    """Whether the claim is the vendor's own: the text says its number is no audited MLPerf result ("not
    verified by MLCommons", "internal testing", "unverified"), unless the claim's own sentence names an
    MLPerf round and says nothing of the kind (a result the text cites beside its own). Such a claim is
    in the vendor's own claim series (:func:`vendor_suite`), measured by the vendor; the round it names
    is the workload it ran. Else who measured it is for a person to say."""
    unaudited = _unaudited(record, text, sentence, paragraph, names)
    workload = _WORKLOAD.search(text)
    if not unaudited and workload and all(_inside(m, _WORKLOAD, text) for m in _SUITE.finditer(text)):
        unaudited = workload  # "the Llama 2 70B model from the MLPerf Inference v5.1 suite": the workload, no result
    if unaudited:
        record["measured_by"] = "vendor"
        undecided.append(
            f"measured_by: vendor, as the text says {unaudited.group()!r}: its number is no audited MLPerf "
            "result, so the claim is in the vendor's own claim series"
            + (f" (it ran the workload of {record['suite_id']})" if record.get("suite_id") else "")
        )
    else:
        undecided.append(
            "measured_by: vendor (the submitter's own release or post), third-party, or mlcommons (an "
            "audited MLPerf result: then give mlperf_result_id)"
        )
    return bool(unaudited)


def vendor_suite(record: dict, source_id: str, names: Names) -> dict:
    """The suite record of a vendor's own claim series: ``<submitter>-claims`` (family vendor-claim), or
    the page's when the text names no submitter; the claim's ``suite_id`` is set to it.

    >>> vendor_suite({"submitter_id": "microsoft"}, "page", Names())
    {'id': 'microsoft-claims', 'name': "microsoft's own claims", 'family': 'vendor-claim', 'publisher_id': 'microsoft'}
    """
    who = record.get("submitter_id")
    known = names.names.get(("organizations", who), []) if who else []
    name = known[1] if len(known) > 1 else (who or source_id)  # its name, after its id
    suite = {"id": f"{who or source_id}-claims", "name": f"{name}'s own claims", "family": "vendor-claim"}
    if who:
        suite["publisher_id"] = who
    record["suite_id"] = suite["id"]
    return suite


#: words that rank a number: highest, fastest, best, leading, top, #1, record (a new or world record,
#: not "on record"), first place; "first" alone is left out (a first cluster is not a first place)
SUPERLATIVE = re.compile(
    r"\b(?:highest|fastest|best|leading|leads|top|unmatched|unrivall?ed|number one|no\. ?1|first place|"
    r"ranked first|(?:a|an|new|world)\s+(?:[\w-]+\s+){0,2}record|set\s+the\s+record)\b|#\s?1\b",
    re.I,
)


_PER_ACCELERATOR = re.compile(r"\bper[- ](?:gpu|accelerator|chip)\b", re.I)


_CLOUD = re.compile(
    r"\b(?:among|of all|any)\s+(?:[\w-]+\s+){0,2}cloud(?:s| providers?| service providers?)?\b|\bai cloud\b", re.I
)


def _superlative(record: dict, scopes: list[str], undecided: list[str], names: Names | None = None) -> None:
    """Propose ``asserts`` when the claim's sentence (or, failing it, its paragraph or the title of a
    one-claim text) ranks the number: rank 1, per accelerator when the words say per GPU, among the
    round, model and scenario the draft found, plus closed, datacenter and cloud providers when the
    words say so. "On any silicon" narrows nothing (no chip is named). Said on stderr to be checked.

    >>> r = {"suite_id": "s", "model_id": "m", "scenario": "offline", "scope": "aggregate"}
    >>> notes = []
    >>> _superlative(r, ["16,635 tokens/s per GPU, the highest per-GPU throughput of any Closed submission"], notes)
    >>> r["asserts"]
    {'rank': 1, 'scope': 'per-accelerator', 'among': {'suite_id': 's', 'division': 'closed', 'model_id': 'm', 'scenario': 'offline'}}
    >>> _superlative(r := {"scope": "aggregate"}, ["our first multi-rack cluster ran 1,000 tokens/s"], notes)
    >>> "asserts" in r
    False
    """
    for scope_text in scopes:
        m = SUPERLATIVE.search(scope_text)
        if m:
            break
    else:
        return
    end = re.compile(r"[.!?](?:\s|$)").search(scope_text, m.end())
    words = scope_text[m.start() : end.start() if end else len(scope_text)]  # the superlative's own sentence
    among, unread = among_of(words, record, names or Names())
    if _CLOUD.search(scope_text):
        among["organization_kind"] = "cloud-provider"
    per_gpu = _PER_ACCELERATOR.search(words) or record.get("scope") == "per-accelerator"
    record["asserts"] = {"rank": 1, "scope": "per-accelerator" if per_gpu else "aggregate", "among": among}
    undecided.append(
        f"asserts: proposed from {_short(words, 90)!r}: check that among names the population the text means "
        "(benchkg query superlatives then checks it against the audited record)"
    )
    if unread:
        undecided.append(
            f"asserts: the text ranks it among {unread!r}, which no field of among says: narrow among by hand "
            "(its fields: docs/records.md) or the first validate compares it with every result of its round"
        )


def _stated(record: dict, dotted: str, text: str) -> bool:
    """Whether the draft has the field, or the text talks about it without the draft deciding it."""
    head, _, tail = dotted.partition(".")
    if head in record and (not tail or tail in record[head]):
        return True
    words = {
        "parallelism": r"\b(?:tensor|pipeline|expert)[- ]parallel|\bTP\s*=?\s*\d|\bEP\s*=?\s*\d",
        "accuracy_target": r"\b99(?:\.9)?\s*%|\baccuracy\b",
        "format_id": r"\b(?:FP|INT|BF)\s?\d+\b|\bprecision\b",
        "engine_id": r"\bTensorRT|\bvLLM\b|\bSGLang\b|\bengine\b",
        "mlperf_result_id": r"\b\d\.\d-\d{4}\b",
        "fabric_exercised": r"\bexercis",
        "node_count": r"\bnodes?\b",
        "division": r"\b(?:closed|open)\b",
        "system_type": r"\b(?:datacenter|data center|edge)\b",
        "scenario": r"\b(?:offline|server|interactive)\b",
        "load.concurrency": r"\bconcurren",
    }
    return bool(re.search(words.get(dotted, r"$^"), text, re.I))


def _nearest(scopes: list[str], text: str, find) -> list:
    """What ``find`` finds in the nearest scope that has any (clause, sentence, paragraph, title), else in
    the whole text."""
    for scope in [*scopes, text]:
        hits = find(scope)
        if hits:
            return hits
    return []


#: a round named in a comparison: after a ratio ("3.1x", "21% more", "1.18 times") or a comparing word, in
#: the same sentence, before the round
#: a span of time after "than" or "over" ("less than half a year", "over the past 18 months"): no comparison
_TIME_AFTER = (
    r"(?!\s+(?:the\s+)?(?:past\s+|last\s+|next\s+)?(?:half\s+)?(?:a|an|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|twelve|eighteen|\d+)?\s*(?:years?|months?|weeks?|days?|decades?|rounds?)\b)"
)
_COMPARING = (
    r"(?:(?<![\w.])\d+(?:\.\d+)?\s?(?:[x×](?!\w)|times\b|%)|\bthan\b" + _TIME_AFTER + r"|\bover\b" + _TIME_AFTER + r"|"
    r"\bcompared\s+(?:with|to)\b|\bversus\b|"
    r"\bvs\b|\bup\s+from\b|\bprevious\s+round\b|\blast\s+round\b)[^.;!?\n]{0,120}?"
)
_BASELINE_ROUND = re.compile(
    _COMPARING + r"(?P<round>MLPerf(?:®|™)?\s*(?:Inference\s*)?v?\d+\.\d+|(?<![\w.])v\d+\.\d+\b)", re.I
)


def baseline_rounds_blanked(text: str, rounds: re.Pattern[str] | None = None) -> str:
    """``text`` with the rounds of its comparisons blanked (offsets hold): the round a ratio is over is its
    baseline's, not the number's.

    >>> baseline_rounds_blanked("3.1x the MI325X in MLPerf Inference v5.1; v6.0 results").split(";")[0].rstrip()
    '3.1x the MI325X in'
    """
    pattern = _BASELINE_ROUND if rounds is None else re.compile(_COMPARING + r"(?P<round>" + rounds.pattern + ")", re.I)
    return pattern.sub(
        lambda m: m.group()[: m.start("round") - m.start()] + " " * (m.end("round") - m.start("round")), text
    )


#: a number's own words that put it in the round before: "in the previous round", "last round"
_PREVIOUS_ROUND = re.compile(
    r"\b(?:in|from|during)\s+(?:the\s+)?(?:previous|last|prior|preceding)\s+(?:MLPerf\s+)?round\b", re.I
)


def _round_before(suite_id: str, names: Names) -> str | None:
    """The suite of the same family just before ``suite_id`` among the suite records (by version).

    >>> n = Names(); [n.add("suites", s) for s in ("mlperf-inference-v5.1", "mlperf-inference-v6.0")] and None
    >>> _round_before("mlperf-inference-v6.0", n), _round_before("mlperf-inference-v5.1", n)
    ('mlperf-inference-v5.1', None)
    """
    m = re.fullmatch(r"(?P<family>.+-v)(?P<version>\d+\.\d+)", suite_id)
    if not m:
        return None
    version = tuple(map(int, m.group("version").split(".")))
    earlier = []
    for other in names.ids("suites"):
        o = re.fullmatch(re.escape(m.group("family")) + r"(\d+)\.(\d+)", other)
        if o and (int(o.group(1)), int(o.group(2))) < version:
            earlier.append(((int(o.group(1)), int(o.group(2))), other))
    return max(earlier)[1] if earlier else None


def _suite(
    record: dict, text: str, here: str, sentence: str, names: Names, undecided: list[str], own: str = ""
) -> None:
    """The suite the text names, those near the claim's number first, and a version the number's own
    sentence gives first of all ("our v5.1 result of 800,000 tokens/s"), MLPerf named or not; never the round
    of a comparison ("3.1x what we submitted in MLPerf Inference v5.1": the baseline's round)."""
    text, here = baseline_rounds_blanked(text), baseline_rounds_blanked(here)  # (its own sentence: by the caller)
    suites: dict[str, int] = {}
    for m in _SUITE.finditer(text):
        family = (m.group("pre") or m.group("post") or "Inference").lower()
        suite_id = f"mlperf-{family}-v{m.group('version')}"
        if names.resolve("suites", suite_id):
            suites[suite_id] = suites.get(suite_id, 0) + (10 if m.group() in here else 1)
        else:
            undecided.append(f"suite_id: the text names {m.group()!r}, which is no suite record; add one")
    for m in re.finditer(r"(?<![\w.])v(\d+\.\d+)\b", sentence):
        suite_id = f"mlperf-inference-v{m.group(1)}"
        if names.resolve("suites", suite_id):
            suites[suite_id] = suites.get(suite_id, 0) + 100
    if suites:
        best = sorted(suites, key=lambda s: -suites[s])
        if len(best) > 1 and suites[best[0]] < 10:  # several rounds, none near the claim: which is its own?
            record.setdefault("_readings", {})["suite_id"] = best
            undecided.append(f"suite_id: the text names {', '.join(best)}, none of them near this number")
            return
        record["suite_id"] = best[0]
        if len(best) > 1:
            undecided.append(f"suite_id: the text also names {', '.join(best[1:])}")
        if _PREVIOUS_ROUND.search(baseline_rounds_blanked(own, _PREVIOUS_ROUND)):  # "2,907 in the previous round"
            earlier = _round_before(best[0], names)
            if earlier:
                record["suite_id"] = earlier
                undecided.append(f"suite_id: {earlier}, the round before {best[0]} ('the previous round')")
            else:
                record.pop("suite_id")
                undecided.append(f"suite_id: the round before {best[0]} ('the previous round'), which has no record")


def _what_was_measured(
    record: dict,
    text: str,
    scopes: list[str],
    names: Names,
    undecided: list[str],
    whole: str = "",
    single: bool = False,
    before: str = "",
    at: int = 0,
) -> None:
    """The suite, division, system type, scenario, model, format and engine of a claim: nearest first
    (its own words, clause, sentence, paragraph; ``text`` without other claims' words); the round, the
    division and the system type may come from anywhere in the ``whole`` text."""
    here = "\n".join(scopes) or text
    whole = whole or text
    sentence = scopes[2] if len(scopes) > 2 else ""  # what it is compared with after its number is not its own
    after = baseline_rounds_blanked(_uncompared(sentence[at:]))  # "our v5.1 result of 800,000" is the number's
    _suite(record, whole, here, sentence[:at] + after, names, undecided, scopes[0] if scopes else "")
    near = _nearest(scopes[:4], "", _divisions)  # its own row or sentence first ("…; Open; Server: 16,167 tok/s")
    if near:
        record["division"] = near[0]
    for word, value in (("closed", "closed"), ("open", "open")):
        if re.search(rf"\b{word}\b(?:\s+division)?", whole, re.I) and re.search(
            r"\bdivision\b|\bclosed\b", whole, re.I
        ):
            if word == "open" and not re.search(r"\bopen\s+division\b", whole, re.I):
                continue
            if "division" not in record:
                record["division"] = value
                if re.search(r"\bopen\s+division\b", whole, re.I) and re.search(r"\bclosed\b", whole, re.I):  # both
                    weak(record, "division", "the text names the closed and the open division, neither near it")
    if record.get("suite_id", "").startswith("mlperf-inference") and "division" not in record:
        undecided.append(
            "division: the text does not say closed or open (an MLPerf Inference claim names it; "
            "a vendor's post of an MLPerf number is usually closed)"
        )
    if re.search(r"\bdata\s?center\b", whole, re.I):
        record["system_type"] = "datacenter"
    elif re.search(r"\bedge\b", whole, re.I):
        record["system_type"] = "edge"
    _scenario(record, scopes, whole, single, undecided)
    # the model of its own words, else of the number just before it in its sentence ("… in GPT-OSS-120B
    # in offline, 1,096,770 tokens per second in server"; "… for the same model"), else nearest
    models = _nearest(scopes[:1] + [before] + scopes[1:], "", lambda where: _named(names, "models", where, where))
    if not models and len(everywhere := _named(names, "models", text, text)) == 1:  # the text's only model
        models = everywhere
    if models:
        record["model_id"] = models[0]
        if len(models) > 1:
            record.setdefault("_readings", {})["model_id"] = models
            undecided.append(f"model_id: the text names {', '.join(models)}; the draft took {models[0]}")
    else:
        undecided.append("model_id: no model record is named in the text (add the model, or write its id)")
    for kind, field_ in (("formats", "format_id"), ("engines", "engine_id")):
        found = _named(names, kind, text, here)
        if len(found) == 1:
            record[field_] = found[0]
        elif found:
            undecided.append(f"{field_}: the text names {', '.join(found)}")


def _scenario(record: dict, scopes: list[str], whole: str, single: bool, undecided: list[str]) -> None:
    """The scenario the number's own words name, else its clause's or sentence's, a heading's ("… Offline
    Scenario") or (the only claim) the title's or the text's one "X scenario"; never its paragraph's
    other sentences (their scenarios are theirs) nor the rest of the text ("an interactive version of
    Llama 2 70B" describes the round; "Acme's X8 server": a product is no scenario)."""
    heading = scopes[4] if len(scopes) > 4 and re.search(r"\b(?:scenario|mode)\b", scopes[4], re.I) else ""
    near = scopes[:3] + [heading] + scopes[5:]
    scenarios = _nearest(near, "", lambda where: [v for v, pattern in _SCENARIOS if re.search(pattern, where, re.I)])
    named = {m.group(1).lower() for m in re.finditer(r"\b(offline|server|interactive)\s+scenario\b", whole, re.I)}
    if not scenarios and single and len(named) == 1:  # a one-claim text: "ran X in the Offline scenario"
        scenarios = list(named)
    family = record.get("suite_id", "")
    if "endpoints" in family:
        scenarios = ["endpoints"]
    if len(scenarios) == 1:
        record["scenario"] = scenarios[0]
    elif scenarios:
        record["scenario"] = scenarios[0]
        record.setdefault("_readings", {})["scenario"] = scenarios
        undecided.append(
            f"scenario: the text names {', '.join(scenarios)}; the draft took {scenarios[0]} (near the headline)"
        )
    if "scenario" not in record and "endpoints" not in family and len(scopes) > 1:  # (a text with no number: none)
        undecided.append(
            "scenario: its own words and sentence name none (offline, server, interactive, single-stream); "
            "one named elsewhere in the text is another number's"
        )


def _divisions(where: str) -> list[str]:
    """The MLPerf division ``where`` names: "Closed", "Open division", or a table's "Open" cell."""
    if re.search(r"\bclosed\b", where, re.I):
        return ["closed"]
    if re.search(r"\bopen\s+division\b|(?:^|;\s*)Open\s*(?:[;:]|$)", where, re.I):
        return ["open"]
    return []
