"""``benchkg draft SOURCE``: draft claims from a saved blog post, press release or record page.

It reads the text (``.html``, ``.md`` or ``.txt``) sentence by sentence and writes down what the text
says, never more: every number with a throughput, latency or count unit (each with its sentence as
the quote), and one claim per throughput number with its own context (:func:`groups`): a number
restated elsewhere (a rounded "104K" in the headline) is the same claim with the precise figure, and
another number of the same clause is reported beside it. A claim's count, node count, scenario, model
and chips are read nearest first — its clause, its sentence, its paragraph (and, for the only claim of
a text, the title) — and a count is never taken from another paragraph; the suite, division and format
come from the whole text; ``omitted_by_source`` lists what it does not state. What it cannot decide
(who measured the number, which of two chips ran it) is left out of the record and said in a comment:
a draft validates only once a person has filled the gaps. Prices, years, percentages and model sizes
are numbers too, and are left alone.

Long because reading prose is a chain of small readers (numbers, units, chips, models, scenarios,
counts, organisations) whose order decides what a sentence says; they are kept together so that
order is read in one place.
"""

from __future__ import annotations

import bisect
import functools
import html
import html.parser
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from benchkg.importers.common import record_text, slug  # noqa: F401 - record_text: drafts are written as imports are
from benchkg.importers.populations import among_of
from benchkg.importers.tables import table_sentences
from benchkg.kernel.errors import UsageError
from benchkg.kernel.numbers import NUMBER_WORDS, Mention, mentions
from benchkg.records.names import Names, Spans
from benchkg.records.reader import reserved_id

#: a unit right after a number (words between allowed), and what it makes the number
UNITS = [
    (
        re.compile(
            r"^\s*(?:output\s+|input\s+|total\s+|generated\s+)?(?:tokens?|tok)\s*(?:/|per)\s*(?:s|sec|second)\b"
            r"|^\s*(?:output\s+|total\s+)?tokens?/s\b|^\s*tps\b",
            re.I,
        ),
        ("throughput", "tokens/s"),
    ),
    (
        re.compile(r"^\s*(?:queries|requests)\s*(?:/|per)\s*(?:s|sec|second)\b|^\s*qps\b", re.I),
        ("throughput", "queries/s"),
    ),
    (
        re.compile(r"^\s*(?:samples?|images?|inferences?|frames?)\s*(?:/|per)\s*(?:s|sec|second)\b", re.I),
        ("throughput", "samples/s"),
    ),
    (re.compile(r"^\s*(?:ms|milliseconds?)\b", re.I), ("latency", "ms")),
    (
        re.compile(
            r"^\s*(?:(?!(?:nodes?|servers?|and|or)\b)[A-Za-z][\w.-]*\s+){0,3}(?:\d+\s+)?(?:gpus|accelerators|chips|units|cards)\b|"
            r"^-gpu\b|"
            r"^\s*in\s+(?:all|total)\b",
            re.I,
        ),
        ("count", "accelerators"),
    ),
    (re.compile(r"^\s*(?:compute\s+)?(?:nodes|trays|servers)\b|^-node\b", re.I), ("count", "nodes")),
    (re.compile(r"^\s*(?:concurrent\s+(?:requests|users|streams)|concurrency)\b", re.I), ("count", "concurrency")),
]
#: what makes a number something else: a price, a percentage, a year, a size of a model or of memory
NOT_A_FIGURE = re.compile(
    r"^\s*(?:%|percent|per\s*cent|x\b|×|times\b|[kmgt]b\b|gb/s|tb/s|gbps|tbps|b\b|bn\b|"
    r"billion[- ]parameter|parameters?\b|w\b|watts?\b|kw\b|nanoseconds?|ns\b|\$|usd|dollars?)",
    re.I,
)
_SCENARIOS = [
    ("interactive", r"\binteractive\b"),
    ("single-stream", r"\bsingle-?stream\b"),
    ("multi-stream", r"\bmulti-?stream\b"),
    (
        "server",
        r"\bserver\b(?!\s+(?:throughput|harness))|\bserving\b(?!\s+(?:software|stacks?|engines?|frameworks?|systems?|"
        r"platforms?|runtimes?|layers?|infrastructure|capabilit))",
    ),
    ("offline", r"\boffline\b"),
    ("endpoints", r"\bendpoints\b"),
]
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


#: "each GPU … delivered 16,500": the number is what one accelerator did
_EACH_ACCELERATOR = re.compile(
    r"\b(?:each|every)\s+(?:[\w-]+\s+)?(?:gpu|accelerator|chip)\b[^.;]{0,80}?\b(?:delivered|achieved|reached|"
    r"served|processed|generated|produced|ran at|hit|posted|scored|sustained|averaged)\s+(?:[\w-]+\s+){0,3}$",
    re.I,
)
#: what says a number was not reached: "did not reach 3M", "fell short of", "short of"
_NOT_REACHED = re.compile(
    r"\b(?:did\s+not|didn't|does\s+not|doesn't|failed\s+to|could\s+not|couldn't)\s+(?:reach|hit|exceed|break|"
    r"top|pass|achieve|surpass)\s+(?:the\s+)?$|\b(?:fell|falls|fall)\s+(?:just\s+)?short\s+of\s+$|\bshy\s+of\s+$",
    re.I,
)


#: what says a number is a mark passed, not a result: "over 1 million", "more than", "passed", "topped"
_BOUND = re.compile(
    r"\b(?:over|more\s+than|above|beyond|in\s+excess\s+of|exceed(?:ed|ing|s)?|surpass(?:ed|ing|es)?|pass(?:ed|ing|es)?|"
    r"tops|top(?:ped|ping)|cross(?:ed|ing|es)|breaks?|breaking|broke|at\s+least|at\s+most|no\s+(?:more|less|fewer)\s+than|"
    r"(?:threshold|barrier|mark|milestone|minimum|maximum|target)\s+of)\s+(?:the\s+|just\s+)?$",
    re.I,
)
#: the word before a number that makes the number part of a product's name ("Cloud AI 100 accelerators")
_IN_A_NAME = re.compile(r"(?<![\w-])(?:[A-Z]{2,}|[A-Z][a-z]+[A-Z]\w*)\s+$")
#: a number in a condition or an example: "If an R7515 outputs 23,290 samples per second, …"
_SUPPOSED = re.compile(r"(?:^|[.;:]\s+)(?:if|suppose|assuming|imagine|say)\b[^.;:]*$", re.I)
#: a sentence that states the benchmark's latency bounds, not a result ("sets 6 seconds for time to first
#: token", "a 450 ms time to first token and a 40 ms time per output token")
_REQUIRED = re.compile(
    r"\b(?:sets?|requires?|demands?|constraints?|thresholds?|targets?|bounds?|limits?|requirements?)\b[^.]{0,120}"
    r"\b(?:time to first token|time per output token|ttft|tpot)\b|"
    r"\b\d+\s*ms\s+(?:time to first token|time per output token|ttft|tpot)\b",
    re.I,
)
#: a row of a table that gives a statistic of the parts ("Highest single-node throughput"), not a result
_PART_STATISTIC = re.compile(
    r"\b(?:highest|lowest|maximum|minimum|max|min|mean|average|median)\s+(?:single|per)[- ](?:node|gpu|vm)\b", re.I
)

#: what says a number is no audited MLPerf result
_UNAUDITED = re.compile(
    r"\bnot\s+an?\s+(?:official\s+|verified\s+)?MLPerf(?:®|™)?\s+(?:\w+\s+)?(?:result|submission|score)s?\b|"
    r"\bnot\s+(?:been\s+)?(?:verified|validated|audited|reviewed)\s+by\s+MLCommons\b|\bunverified\b|"
    r"\bMLCommons[- ]unverified\b|\binternal(?:ly)?\s+(?:test(?:ing|s|ed)?|measure(?:ments?|d)|benchmark(?:s|ing)?)\b|"
    r"\bpost-deadline\b",
    re.I,
)


@functools.lru_cache(maxsize=256)
def _per_user(sentence: str) -> bool:
    return bool(re.search(r"per[\s-]+user|/\s?user\b", sentence, re.I))


@dataclass
class Figure:
    """A number the text states with a unit, in its sentence."""

    mention: Mention
    kind: str  # throughput, latency, count
    unit: str  # tokens/s, queries/s, samples/s, ms; accelerators, nodes, concurrency
    sentence: str
    own: tuple[int, int] = (0, 0)  # its own words: from the break after the figure before it to the next

    @property
    def own_text(self) -> str:
        """The words that are this figure's alone ("5,103 tokens/sec (Server) on a single H100 GPU" of
        "5,777 tokens/sec (Offline) and 5,103 tokens/sec (Server) on a single H100 GPU")."""
        return self.sentence[self.own[0] : self.own[1]] if self.own[1] else _clause_text(self)

    @property
    def scope(self) -> str:
        if self.kind != "throughput":
            return ""
        if self.mention.per_accelerator or _EACH_ACCELERATOR.search(self.sentence[: self.mention.start]):
            return "per-accelerator"
        return "per-user" if _per_user(self.sentence) else "aggregate"

    def describe(self) -> str:
        value = f"{self.mention.value:,}"
        what = {"accelerators": "accelerators", "nodes": "nodes", "concurrency": "concurrent requests"}.get(
            self.unit, self.unit
        )
        scope = f" {self.scope}" if self.scope and self.scope != "aggregate" else ""
        return f"{value} {what}{scope}"


@dataclass
class Draft:
    """A draft claim, its source record, and what a person must decide."""

    record: dict
    source: dict
    figures: list[Figure] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)
    suite: dict | None = None  # the vendor's own claim series, for a claim the text says is unaudited

    def comment(self) -> str:
        lines = [
            f"benchkg draft: {len(self.figures)} number{'' if len(self.figures) == 1 else 's'} with a unit in the text; "
            "this claim's number"
            + (
                f" ({self.record['value']:,} {self.record['unit']}, {self.record['scope']})"
                if "value" in self.record
                else " (none found)"
            )
            + "."
        ]
        for f in self.figures:
            lines.append(f'  - {f.describe()}: "{_short(f.sentence)}"')
        if self.undecided:
            lines.append("Not decided (fill these in, then run `benchkg validate`):")
            lines += [f"  - {item}" for item in self.undecided]
        return "\n".join(lines)


class _Text(html.parser.HTMLParser):
    """The visible text of an HTML page, a block element a line."""

    BLOCKS = {
        "p",
        "div",
        "li",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "br",
        "tr",
        "section",
        "article",
        "header",
        "footer",
        "blockquote",
        "dd",
        "dt",
        "td",
        "th",
        "title",
    }

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.pre = 0
        self.heading: dict[str, list[str]] = {}  # "title", "h1": their text
        self.open: str | None = None
        self.row: list[str] | None = None  # a table row's cells, written out as "| a | b |"
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        if tag in ("script", "style", "noscript", "template"):
            self.skip += 1
        elif tag == "pre":
            self.pre += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")
        if tag in ("title", "h1") and tag not in self.heading:
            self.open, self.heading[tag] = tag, []

    def handle_endtag(self, tag):
        if tag in ("script", "style", "noscript", "template"):
            self.skip = max(0, self.skip - 1)
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()).replace("|", "/"))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.parts.append("\n| " + " | ".join(self.row) + " |\n")
            self.row = None
        if tag in self.BLOCKS:
            self.parts.append("\n")
        if tag == self.open:
            self.open = None

    def handle_data(self, data):
        if self.skip:
            return
        if not self.pre:  # a line break inside a paragraph is a space, not the end of a sentence
            data = re.sub(r"\s+", " ", data)
        (self.cell if self.cell is not None else self.parts).append(data)
        if self.open:
            self.heading[self.open].append(data)

    @property
    def title(self) -> str:
        for tag in ("h1", "title"):
            text = " ".join("".join(self.heading.get(tag, [])).split())
            if text:
                return text
        return ""


def page_title(raw: str, suffix: str) -> str:
    """A saved page's own title: an HTML page's h1 (else its title), a Markdown page's first heading;
    "" for plain text (its first sentence is its title).

    >>> page_title("<title>T</title><h1>Acme\\nships X8</h1><p>x</p>", ".html"), page_title("x\\n# Big news\\n", ".md")
    ('Acme ships X8', 'Big news')
    """
    if suffix in (".html", ".htm"):
        parser = _Text()
        parser.feed(raw)
        return parser.title
    if suffix in (".md", ".markdown"):
        m = re.search(r"^\s{0,3}#{1,6}\s*(.+)$", raw, re.M)
        return m.group(1).strip() if m else ""
    return ""


def plain_text(raw: str, suffix: str) -> str:
    """The readable text of a saved page: HTML without its markup (a paragraph a line), Markdown
    without its syntax.

    >>> plain_text("<p>It ran at <b>1,234</b>\\ntokens/s.</p><script>x=1</script>", ".html").strip()
    'It ran at 1,234 tokens/s.'
    >>> plain_text("# Title\\n**910,621** [tokens/s](http://x)", ".md")
    'Title\\n910,621 tokens/s'
    """
    if suffix in (".html", ".htm"):
        parser = _Text()
        parser.feed(raw)
        text = "".join(parser.parts)
    elif suffix in (".md", ".markdown"):
        # bounded spans: an unclosed "[" or "**" is given up on within a line's worth, not at the text's end
        text = re.sub(
            r"!?\[([^\]\n]{0,500})\]\([^)\s]{0,2000}\)", r"\1", _unwrapped(raw)
        )  # links and images: their text
        text = re.sub(r"^\s{0,3}#{1,6}\s*", "", text, flags=re.M)
        text = re.sub(r"(\*\*|__|\*|_|`)(?=\S)(.{1,500}?)(?<=\S)\1", r"\2", text)
    else:
        text = raw
    text = table_sentences(html.unescape(text).replace("\r", ""))
    return re.sub(r"[ \t\u00a0]+\n", "\n", re.sub(r"\n{3,}", "\n\n", text))


def _unwrapped(markdown: str) -> str:
    r"""Markdown's paragraphs on one line each: a line that goes on a paragraph (no blank line, heading,
    list item, quote or table row between) joins it, as a renderer joins it.

    >>> _unwrapped("# T\nIt reached 1,042,110 tokens/s and\n1,016,375 tokens/s.\n\n- a\n- b\n| x |")
    '# T\nIt reached 1,042,110 tokens/s and 1,016,375 tokens/s.\n\n- a\n- b\n| x |'
    """
    block = re.compile(r"^\s*(?:#|[-*+>]\s|\d+[.)]\s|\||$)")
    out: list[str] = []
    for line in markdown.split("\n"):
        if out and out[-1].strip() and not block.match(out[-1]) and not block.match(line):
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(line)
    return "\n".join(out)


def sentences(text: str) -> list[tuple[int, str]]:
    r"""(offset, sentence) of every sentence: split after . ! ? before a capital, a quote or a bullet,
    and at line ends; never inside a number (910621.36, v6.1, 0.7).

    >>> [s for _, s in sentences("It ran at 910621.36 tokens/s. Then MLPerf v6.1 came.\nNext line")]
    ['It ran at 910621.36 tokens/s.', 'Then MLPerf v6.1 came.', 'Next line']
    """
    out = []
    for line in re.finditer(r"[^\n]+", text):
        start = 0
        for m in re.finditer(r"(?<=[.!?])\s+(?=[A-Z\"“'(•¹²³])", line.group()):
            chunk = line.group()[start : m.start()]
            if chunk.strip():
                out.append((line.start() + start, chunk.strip()))
            start = m.end()
        chunk = line.group()[start:]
        if chunk.strip():
            out.append((line.start() + start + len(chunk) - len(chunk.lstrip()), chunk.strip()))
    return out


def figures(text: str, left: list[str] | None = None) -> list[Figure]:
    """Every number in ``text`` with a throughput, latency or count unit after it, in order; a throughput
    that is no claim's number (:func:`_not_a_result`) is said in ``left``, as draft says it on stderr."""
    out = []
    for offset, sentence in sentences(text):
        for m in mentions(sentence):
            # what follows a number is read near it (a slice to the sentence's end was quadratic)
            after = sentence[m.end : m.end + 200]
            before = sentence[max(0, m.start - 12) : m.start]
            why = _not_a_result(sentence, m)
            if why and left is not None and any(p.search(after[:80]) for p, what in UNITS if what[0] == "throughput"):
                left.append(f"{_as_written(m)}: {why} (no claim drafted): {_short(sentence, 100)!r}")
            if (
                why
                or NOT_A_FIGURE.match(after)
                or re.search(r"[$€£]\s*$|\bUSD\s*$|\bv$|\bversion\s*$", before, re.I)
                or m.multiplier in ("b", "bn", "billion")
                or _NOT_REACHED.search(sentence[max(0, m.start - 40) : m.start])  # a mark not reached
            ):
                continue
            unit = next((what for pattern, what in UNITS if pattern.search(after[:80])), None)
            if unit is None or unit[0] == "count" and _IN_A_NAME.search(sentence[: m.start]):
                continue
            out.append(Figure(m, unit[0], unit[1], sentence))
    _own_words(out)
    return out


def _not_a_result(sentence: str, m: Mention) -> str:
    """Why a number is no claim's number, or "": a range over several results ("100,000 to 110,000"), a
    mark passed ("over 1 million"), a statistic of a run's parts ("Highest single-node throughput:
    62,803.9"), a condition ("If an R7515 outputs 23,290 …"), the benchmark's latency bounds."""
    return (
        "a range, not one result" if m.range_low is not None and not _counted(sentence, m)
        else "a mark passed, not a result" if _BOUND.search(_before_digits(sentence, m))
        else "a statistic of the run's parts" if _PART_STATISTIC.search(sentence[: m.start])
        else "a condition or an example, not a result" if _SUPPOSED.search(sentence[: m.start])
        else "a latency bound of the benchmark, not a result" if _REQUIRED.search(sentence)
        else ""
    )  # fmt: skip


def _as_written(m: Mention) -> str:
    """A number as a note writes it: "1,200,000 to 1,400,000" for a range."""
    return f"{m.range_low:,} to {m.value:,}" if m.range_low is not None else f"{m.value:,}"


#: where one figure's words end and the next one's begin: a comma, "and", a semicolon, "while"
_BETWEEN = re.compile(r",\s+(?:and\s+)?|\s+and\s+|;\s+|\s+while\s+|\s+whereas\s+", re.I)


def _before_digits(sentence: str, m: Mention) -> str:
    """The words before a number's digits, its own leading words included ("reached over" of "reached
    over 1 million")."""
    lead = re.match(r"[^\d]*", sentence[m.start : m.end])
    return sentence[max(0, m.start - 40) : m.start] + (lead.group() if lead else "")


def _counted(sentence: str, m: Mention) -> bool:
    """Whether a range is a count ("11-12 nodes" is read, and left open, by the count readers)."""
    return bool(
        re.match(r"\s*(?:[\w.-]+\s+){0,3}(?:gpus|accelerators|chips|nodes)\b", sentence[m.end : m.end + 60], re.I)
    )


def _own_words(found: list[Figure]) -> None:
    """Each throughput figure's own words: its clause cut at the last break before the next throughput
    figure of the clause, and after the last break before it (the words before the clause's first
    figure, "On Llama 2 70B, eleven nodes … reached", are its own and its clause's)."""
    by_clause: dict[tuple[str, int], list[Figure]] = {}
    for f in found:
        if f.kind == "throughput":
            by_clause.setdefault(_clause(f), []).append(f)
    for clause, fs in by_clause.items():
        _, start, end = _clause_span(fs[0])
        cuts = [start]
        for a, b in zip(fs, fs[1:]):
            gap = [m.end() for m in _BETWEEN.finditer(a.sentence, a.mention.end, b.mention.start)]
            cuts.append(gap[-1] if gap else b.mention.start)
        cuts.append(end)
        for n, f in enumerate(fs):
            f.own = (cuts[n], cuts[n + 1])


@functools.lru_cache(maxsize=1024)
def _short(sentence: str, limit: int = 160) -> str:
    """A sentence on one line, cut to ``limit`` characters (read once per sentence: a line of a thousand
    figures is one sentence, quoted for each)."""
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"


def _number(value: Decimal):
    return int(value) if value == value.to_integral_value() else float(value)


def page_id(text: str) -> str:
    """An id from a file name, never one benchkg reserves (a page saved as ``index.html.md`` drafted
    records under the id ``index.html``, and every command then refused the data folder).

    >>> page_id("Blog: CoreWeave GB200 (v6.1)"), page_id("index.html"), page_id("Any")
    ('blog-coreweave-gb200-v6.1', 'index-html', 'any-page')
    """
    out = slug(text, "draft")
    if reserved_id(out):
        out = out.replace(".", "-")
    return f"{out}-page" if reserved_id(out) else out


def read_page(path: Path) -> tuple[str, str]:
    """(the readable text, the page's own title) of a saved page.

    :raises UsageError: for a file that is not a readable .html, .md or .txt page.
    """
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm", ".md", ".markdown", ".txt"):
        raise UsageError(
            f"{path}: benchkg draft reads a saved .html, .md or .txt page, not {path.suffix or 'a file without an extension'}"
        )
    try:
        raw = path.read_bytes()
        if len(raw) > 5_000_000:
            raise UsageError(f"{path}: {len(raw) / 1e6:.0f} MB is not a blog post; save the page as HTML or text")
        return plain_text(raw.decode("utf-8"), path.suffix.lower()), page_title(
            raw.decode("utf-8"), path.suffix.lower()
        )
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text; save the page as UTF-8") from None
    except OSError as e:
        raise UsageError(f"{path}: cannot read: {e.strerror or e}") from None


@dataclass
class Group:
    """The figures of one claim: its headline (the most precise statement of the number), the same number
    restated elsewhere (a rounded "104K" in the title), and the other numbers of its clause (reported)."""

    lead: Figure
    restated: list[Figure] = field(default_factory=list)
    reported: list[Figure] = field(default_factory=list)


def _restates(a: Figure, b: Figure) -> bool:
    """Whether two throughput figures state one number: the same unit and scope, and each within the
    other's precision (a rounded "104K" is 104,120 written shorter)."""
    if (a.unit, a.scope) != (b.unit, b.scope):
        return False
    return a.mention.states(b.mention.value) or b.mention.states(a.mention.value)


def _precision(f: Figure) -> Decimal:
    return f.mention.high - f.mention.low


def groups(found: list[Figure], names: Names | None = None) -> list[Group]:
    """The claims a text states: one per throughput number with its own context. A number restated
    (rounded, or in the title) joins its claim, the more precise statement leading; another number of the
    same clause (an "up to … per GPU" beside the aggregate) is reported with it; a number in another
    clause or sentence that states its own count, scenario or model is a claim of its own.

    Near-linear in the figures: a restatement is looked for among the figures of the same unit and
    scope whose values lie within the widest precision stated, the clause and sentence of a claim by index."""
    out: list[Group] = []
    seen: dict[tuple[str, str], _Values] = {}
    leads: dict[object, list[int]] = {}  # a lead's clause, and its sentence -> the claims it leads, in order

    def lead(i: int, f: Figure, old: Figure | None = None) -> None:
        for place in (_clause(old), old.sentence) if old else ():
            leads[place].remove(i)
        for place in (_clause(f), f.sentence):
            bisect.insort(leads.setdefault(place, []), i)

    for f in (f for f in found if f.kind == "throughput"):
        values = seen.setdefault((f.unit, f.scope), _Values())
        same = min((i for i, x in values.near(f) if _restates(x, f)), default=None)
        if same is not None:
            group = out[same]
            if _precision(f) < _precision(group.lead):
                group.restated.append(group.lead)
                lead(same, f, group.lead)
                group.lead = f
            else:
                group.restated.append(f)
            values.add(f, same)
            continue
        places = [] if _own_context(f, names) else [_clause(f), f.sentence]
        beside = min((leads[p][0] for p in places if leads.get(p)), default=None)
        if beside is not None:
            out[beside].reported.append(f)
            continue
        out.append(Group(f))
        values.add(f, len(out) - 1)
        lead(len(out) - 1, f)
    return out


#: the words before a figure given for comparison: "against just 2,907", "up from 170", "than 24,525"
_EARLIER = re.compile(
    r"\b(?:against|versus|vs\.?|compared\s+(?:with|to)|(?:up|down)\s+from|than)\s+(?:just\s+|only\s+|the\s+)?$", re.I
)


def _earlier(f: Figure, names: Names | None) -> bool:
    """Whether a figure is an earlier one given for comparison ("against just 2,907 tokens per second in
    the previous version") whose own words state no round, chip or count: no claim, and not reported
    beside the claim it is compared with."""
    if not _EARLIER.search(f.sentence[max(0, f.mention.start - 30) : f.mention.start]):
        return False
    words = f.sentence[f.mention.start : f.own[1] or len(f.sentence)]
    return not (
        re.search(r"(?<![\w.])v\d+\.\d+\b", words)
        or (names and names.find("accelerators", words))
        or re.search(r"\d\s+(?:[\w-]+\s+){0,3}(?:gpus|accelerators|chips)\b", words, re.I)
    )


class _Values:
    """The figures of the claims so far (of one unit and scope), sorted by value, with their claim's index:
    :meth:`near` gives those a figure could restate or be restated by, without reading them all. A figure
    stated again alike (value and precision) is kept once, with the first claim it belongs to."""

    def __init__(self):
        self.values: list[Decimal] = []
        self.keys: list[tuple[Decimal, Decimal, Decimal]] = []
        self.first: dict[tuple[Decimal, Decimal, Decimal], tuple[int, Figure]] = {}
        self.reach = Decimal(0)  # the widest distance from a figure's value to the ends of its precision

    def add(self, f: Figure, group: int) -> None:
        m = f.mention
        key = (m.value, m.low, m.high)
        if key in self.first:
            self.first[key] = min(self.first[key], (group, f), key=lambda item: item[0])
            return
        i = bisect.bisect_right(self.values, m.value)
        self.values.insert(i, m.value)
        self.keys.insert(i, key)
        self.first[key] = (group, f)
        self.reach = max(self.reach, m.high - m.value, m.value - m.low)

    def near(self, f: Figure) -> list[tuple[int, Figure]]:
        m = f.mention
        reach = max(self.reach, m.high - m.value, m.value - m.low)
        lo = bisect.bisect_left(self.values, m.value - reach)
        hi = bisect.bisect_right(self.values, m.value + reach)
        return [self.first[k] for k in self.keys[lo:hi]]


_CLAUSE_BREAK = re.compile(r",\s+(?:and|while|whereas|but)\s+|;\s+|\s+(?:while|whereas)\s+", re.I)


def _clause(f: Figure) -> tuple[str, int]:
    """The clause of a figure's sentence that holds it: (sentence, the clause's start)."""
    starts, ends = _breaks(f.sentence)
    i = bisect.bisect_right(starts, f.mention.start)  # the breaks that start before the figure, or at it
    return f.sentence, ends[i - 1] if i else 0


def _clause_span(f: Figure) -> tuple[str, int, int]:
    """(sentence, start, end) of the clause of a figure's sentence that holds it."""
    sentence, start = _clause(f)
    starts, _ends = _breaks(sentence)
    after = bisect.bisect_right(starts, f.mention.start)  # the first break past the figure ends its clause
    return sentence, start, starts[after] if after < len(starts) else len(sentence)


def _clause_text(f: Figure) -> str:
    sentence, start, end = _clause_span(f)
    return sentence[start:end]


@functools.lru_cache(maxsize=256)
def _breaks(sentence: str) -> tuple[list[int], list[int]]:
    """Where the clause breaks of a sentence start and end, found once per sentence (a page of figures
    on one line is one sentence, read for each of them)."""
    found = list(_CLAUSE_BREAK.finditer(sentence))
    return [m.start() for m in found], [m.end() for m in found]


def _own_context(f: Figure, names: Names | None = None) -> bool:
    """Whether a figure's own words state a count, a scenario, an instance count, or (with ``names``) a
    model or a chip of their own: then it is a claim of its own, not a number reported beside another."""
    if f.own[1] and _states_context(f.sentence, *f.own):
        return True
    if names and f.own[1]:
        words = f.sentence[f.own[0] : f.own[1]]
        if names.find("models", words) or names.find("accelerators", words):
            return True
    return _states_context(*_clause_span(f)) and not f.own[1]


@functools.lru_cache(maxsize=1024)
def _states_context(sentence: str, start: int, end: int) -> bool:
    """:func:`_own_context` of the clause ``sentence[start:end]``, read once however many figures it holds."""
    clause = sentence[start:end]
    return bool(
        re.search(r"\d[\d,]*\s+(?:[\w-]+\s+){0,3}(?:gpus|accelerators|chips|nodes)\b", clause, re.I)
        or any(re.search(pattern, clause, re.I) for _, pattern in _SCENARIOS)
        or _INSTANCES.search(clause)
    )


#: number words a release writes counts in
_NUMBER = (
    r"(?P<n>a\s+single|an?|one|single|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|eighteen|\d+)"
)
#: "a single instance", "eight instances", "two nodes": a count of nodes (servers) in words
#: (the word between is a word, not "70B": "Llama 2 70B Server" is a model and a scenario)
_INSTANCES = re.compile(
    rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[A-Za-z][\w.-]*\s+){{0,3}}(?:instances?|nodes?|servers?|compute trays?|virtual machines|VMs)\b",
    re.I,
)
#: "four nodes, each with 8 GPUs": the accelerators are the product
_EACH_WITH = re.compile(
    rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[A-Za-z-]+\s+)?(?:instances|nodes|servers|systems),?\s+each\s+(?:with|of|holding|housing|"
    rf"carrying|containing|having|running)\s+{_NUMBER.replace('?P<n>', '?P<m>')}\s+(?:[\w-]+\s+){{0,2}}"
    r"(?:gpus|accelerators|chips)\b",
    re.I,
)
#: "a single GB300 NVL72 rack", "one rack": a whole rack or system of the chip named
_RACK = re.compile(rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[\w.-]+\s+){{0,3}}(?:rack|system|domain)\b", re.I)


def _word_number(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else NUMBER_WORDS[text]


def draft(path: Path, names: Names) -> list[Draft]:
    """The draft claims of one saved source, one per number it states with its own context (see the
    module's doc); a source that states none gives one draft that says so.

    :raises UsageError: for a file that is not a readable .html, .md or .txt page.
    """
    try:
        return _draft(Path(path), names)
    finally:
        _forget()


def _forget() -> None:
    """Empty the per-sentence caches: within one text a sentence is one object, found by identity; a
    later text's equal sentence would be compared whole, at every lookup (megabytes, each time)."""
    for cached in (_per_user, _short, _breaks, _states_context):
        cached.cache_clear()


def _draft(path: Path, names: Names) -> list[Draft]:
    text, heading = read_page(path)
    source_id = page_id(path.stem)
    left: list[str] = []
    found = figures(text, left)
    claimed = []
    for f in found:
        if f.kind == "throughput" and _earlier(f, names):  # given for comparison: no claim, nor reported
            why = "an earlier figure given for comparison"
            left.append(f"{_as_written(f.mention)}: {why} (no claim drafted): {_short(f.sentence, 100)!r}")
        else:
            claimed.append(f)
    title = heading or _headline(text) or path.stem
    claims: list[Group | None] = list(groups(claimed, names)) or [None]
    source = {"id": source_id, "name": _short(title, 200), "notes": f"Drafted by benchkg draft from {path.name}."}
    leads = [g.lead for g in claims if g]
    out = []
    for group in claims:
        others = [f for f in leads if not group or f is not group.lead]
        record, undecided = _claim("", group, text, title, names, claimed, len(claims) == 1, others)
        record["sources"] = _quotes(group, found, source_id, title, single=len(claims) == 1)
        suite = vendor_suite(record, source_id, names) if record.pop("_vendor", False) else None
        out.append(Draft(record, source, found, undecided, suite))
    _referred_back(out, [g.lead if g else None for g in claims])
    out = _restated_per_accelerator(out) or out[:1]
    for n, d in enumerate(out, 1):
        d.record["id"] = source_id if len(out) == 1 else f"{source_id}-{n}"
        d.record = _ordered(d.record)
    out[0].undecided += [f"left out {why}" for why in left]
    return out


#: words that point back at a system named before: "the same 512-GPU fleet", "that cluster", "the rack"
_SAME = re.compile(
    r"\b(?:the\s+same|that|this)\s+(?:[\w-]+\s+){0,2}?(?:fleet|rack|cluster|system|nodes?|hardware|machine|"
    r"configuration|platform|setup|domain)\b",
    re.I,
)


def _referred_back(drafts: list[Draft], leads: list[Figure | None]) -> None:
    """A claim whose own words point back at a system ("the same 512-GPU fleet delivered …") takes the
    chips, accelerator count and node count it does not state from the nearest claim before it whose
    sentence names the same thing (a fleet, a rack), else the nearest claim before it, and says so."""
    for n, (draft, lead) in enumerate(zip(drafts, leads)):
        same = _SAME.search(_clause_text(lead) if lead else "")  # "the same fleet delivered X … and Y …": both
        if not same:
            continue
        noun = re.compile(rf"\b{re.escape(same.group().split()[-1])}\b", re.I)
        before = [(d, f) for d, f in zip(drafts[:n], leads[:n]) if f]
        named = [d for d, f in before if noun.search(f.sentence)] or [d for d, _ in before]
        for field_ in ("accelerator_ids", "accelerator_count", "node_count"):
            earlier = next((d.record[field_] for d in reversed(named) if field_ in d.record), None)
            if field_ not in draft.record and earlier is not None:
                draft.record[field_] = earlier
                draft.undecided = [u for u in draft.undecided if not u.startswith(f"{field_}:")]
                draft.undecided.append(f"{field_}: {earlier}, as {same.group()!r} refers to the claim before it")


def _restated_per_accelerator(drafts: list[Draft]) -> list[Draft]:
    """The drafts without a per-accelerator figure that is another claim's aggregate divided by its count
    ("that is about 15,200 tokens/s per GPU" of 1,100,948.3 on 72 GPUs), the count the claim's own or
    one the text states: benchkg derives it; the claim says so on stderr."""
    stated = {int(f.mention.value) for d in drafts[:1] for f in d.figures if f.unit == "accelerators"}
    aggregates = []
    for d in drafts:
        if d.record.get("scope") != "aggregate":
            continue
        for count in [d.record["accelerator_count"]] if d.record.get("accelerator_count") else sorted(stated):
            aggregates.append((d, count))
    kept = []
    for d in drafts:
        r = d.record
        same = next(
            (
                a
                for a, count in aggregates
                if r.get("scope") == "per-accelerator"
                and r.get("unit") == a.record["unit"]
                and abs(a.record["value"] / count - r["value"]) <= 0.015 * r["value"]
            ),
            None,
        )
        if same:
            same.undecided.append(
                f"value: the text also gives {r['value']:,} {r['unit']} per accelerator, this claim's value per "
                "accelerator (benchkg derives it): no claim of its own"
            )
        else:
            kept.append(d)
    return kept


def _headline(text: str) -> str:
    r"""A plain text's title: its first line when that reads as a headline (three words or more, no full
    stop at its end), else its first sentence of 40 characters or more (a headline, not a byline).

    >>> _headline("Vultr brings H200 capacity to MLPerf\n\nIts cluster has 128 GPUs across 16 nodes.")
    'Vultr brings H200 capacity to MLPerf'
    >>> _headline("By Ann\nCoreWeave brought up its first multi-rack cluster on September 16.")
    'CoreWeave brought up its first multi-rack cluster on September 16.'
    """
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if len(first.split()) >= 3 and not first.endswith((".", "!", "?", ":")) and len(first) <= 200:
        return first
    return next((s for _, s in sentences(text) if len(s) >= 40), "")


def _quotes(group: Group | None, found: list[Figure], source_id: str, title: str, single: bool) -> list[dict]:
    """The claim's sentences as quotes: the headline's first, then where the number is restated, then
    (for the only claim of a text) every other sentence with a figure."""
    mine = [group.lead, *group.restated, *group.reported] if group else []
    ours = {id(m) for m in mine}
    rest = [f for f in found if id(f) not in ours] if single else []
    quotes: list[dict] = []
    said: set[str] = set()
    for f in mine + rest:
        quote = _short(f.sentence, 400)
        if quote not in said:
            said.add(quote)
            quotes.append({"source_id": source_id, "quote": quote})
    return quotes or [{"source_id": source_id, "quote": _short(title, 400)}]


def _paragraph(text: str, sentence: str) -> str:
    """The paragraph (a line of the readable text) that holds ``sentence``."""
    return next((line for line in text.splitlines() if sentence in line), sentence)


def _claim(
    claim_id: str,
    group: Group | None,
    text: str,
    title: str,
    names: Names,
    found: list[Figure],
    single: bool,
    others: list[Figure] = (),  # type: ignore[assignment]
) -> tuple[dict, list[str]]:
    """One claim's record and what is left undecided: its number and what the text says of it, read
    nearest first — its clause, its sentence, its paragraph, then (for the only claim) the title."""
    record: dict = {"id": claim_id, "title": _short(title, 200)}
    undecided: list[str] = []
    lead = group.lead if group else None
    spans = [_theirs(o, lead) for o in others]
    scopes, words = _scopes(group, text, title, single, spans)
    whole, text = text, _masked(text, spans)
    found = [f for f in found if not any(f.sentence == o and a <= f.mention.start < b for o, a, b in spans)]
    before = next(
        (o.own_text for o in reversed(others) if lead and o.sentence == lead.sentence and o.own[1] <= lead.own[0]), ""
    )
    _what_was_measured(record, text, words, names, undecided, whole, single, before, lead.mention.end if lead else 0)
    _on_what(record, text, scopes, names, found, undecided, lead)
    _the_number(record, group, found, names, single, undecided)
    rivals = {o for o, _, _ in names.find("organizations", title)} - {record.get("submitter_id"), "mlcommons"}
    _superlative(
        record, [s for s in scopes if s != title or not rivals], undecided, names
    )  # "Nvidia leads …" ranks Nvidia
    concurrency = [f for f in found if f.unit == "concurrency" and any(f.sentence in s for s in scopes[:4] or [text])]
    if concurrency:
        record["load"] = {"concurrency": int(concurrency[0].mention.value)}
    unaudited = _whose(record, whole, lead, names, undecided)
    # a field the claim must state (an MLPerf Inference claim's division) is a gap to fill, not an omission
    required = {"division"} if record.get("suite_id", "").startswith("mlperf-inference") else set()
    never = {"mlperf_result_id"} if unaudited else set()
    record["omitted_by_source"] = [
        f for f in STATED_OR_OMITTED if not _stated(record, f, text) and f not in required | never
    ]
    return record, undecided


def _the_number(
    record: dict, group: Group | None, found: list[Figure], names: Names, single: bool, undecided: list[str]
) -> None:
    """The claim's number, what else its clause reports beside it (for the only claim of a text, every
    other throughput the text states), and where the text writes it again."""
    if not group:
        undecided.append(
            "the headline number: the text gives no number with a throughput unit (tokens/s, queries/s, samples/s)"
        )
        return
    lead = group.lead
    record.update(
        {"metric": "throughput", "value": _number(lead.mention.value), "unit": lead.unit, "scope": lead.scope}
    )
    others = [f for f in group.reported if f.mention.value != lead.mention.value]
    if single:  # the only claim of a text: every other throughput it states is reported with it
        taken = {id(f) for f in (lead, *group.restated, *others)}
        others += [f for f in found if f.kind == "throughput" and id(f) not in taken]
    if others:
        record["reported"] = [
            {"metric": "throughput", "value": _number(f.mention.value), "unit": f.unit, "scope": f.scope}
            for f in others
        ]
    if group.restated:
        again = [f"{f.mention.value:,}" if not f.mention.multiplier else _short(f.sentence, 60) for f in group.restated]
        undecided.append(
            f"value: the text also writes it {', '.join(again)}; the draft took the precise {lead.mention.value:,}"
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


def _heading(text: str, paragraph: str) -> str:
    """The heading the paragraph is under: the nearest line before it that reads as one (short, no full
    stop at its end), or "" ("Data Center Offline Scenario — Llama 2 70B" above a table of results)."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if paragraph and line == paragraph), 0)
    for line in reversed(lines[:at]):
        line = line.strip()
        if line and len(line) <= 100 and not line.endswith((".", "!", "?", ":", ";")):
            return line
    return ""


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
        general = where in opening or re.match(r"\s*(?:[*†‡¹²³]|\[\d+\]|notes?\b|disclaimer\b)", where, re.I)
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
    r"ranked first|(?:a|an|new|world)\s+(?:[\w-]+\s+){0,2}record)\b|#\s?1\b",
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


def _suite(record: dict, text: str, here: str, sentence: str, names: Names, undecided: list[str]) -> None:
    """The suite the text names, those near the claim's number first, and a version the number's own
    sentence gives first of all ("our v5.1 result of 800,000 tokens/s"), MLPerf named or not."""
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
            undecided.append(f"suite_id: the text names {', '.join(best)}, none of them near this number")
            return
        record["suite_id"] = best[0]
        if len(best) > 1:
            undecided.append(f"suite_id: the text also names {', '.join(best[1:])}")


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
    _suite(record, whole, here, sentence[:at] + _uncompared(sentence[at:]), names, undecided)
    near = _nearest(scopes[:4], "", _divisions)  # its own row or sentence first ("…; Open; Server: 16,167 tok/s")
    if near:
        record["division"] = near[0]
    for word, value in (("closed", "closed"), ("open", "open")):
        if re.search(rf"\b{word}\b(?:\s+division)?", whole, re.I) and re.search(
            r"\bdivision\b|\bclosed\b", whole, re.I
        ):
            if word == "open" and not re.search(r"\bopen\s+division\b", whole, re.I):
                continue
            record.setdefault("division", value)
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
            undecided.append(f"model_id: the text names {', '.join(models)}; the draft took {models[0]}")
    else:
        undecided.append("model_id: no model record is named in the text (add the model, or write its id)")
    for kind, field_ in (("formats", "format_id"), ("engines", "engine_id")):
        found = _named(names, kind, text, here)
        if len(found) == 1:
            record[field_] = found[0]
        elif found:
            undecided.append(f"{field_}: the text names {', '.join(found)}")


#: a chip a number is compared with, not run on: "3.1x the MI325X result", "than the H100", "over B200"
_COMPARED = re.compile(
    r"(?:\b(?:than|versus|vs\.?|compared\s+(?:with|to)|relative\s+to)|(?<![\w.])\d+(?:\.\d+)?\s?[x×](?:\s+(?:that\s+of|the))?)"
    r"\s+(?:(?:the|an?|its|previous|prior|earlier)\s+)*(?:[\w.-]+\s+){0,5}?[\w.-]*\d[\w.-]*",
    re.I,
)


def _uncompared(where: str) -> str:
    """``where`` without the chips it compares with (blanked, so offsets hold).

    >>> _uncompared("on 8 MI355X GPUs, 3.1x the MI325X result").rstrip()
    'on 8 MI355X GPUs,                 result'
    """
    return _COMPARED.sub(lambda m: " " * len(m.group()), where)


#: words that make the chips a text names one system: "heterogeneous", "a mix of", "one with … one with"
_MIXED = re.compile(r"\bheterogeneous\b|\bmix(?:ed|ture)?\s+of\b|\bone\s+with\b[^.]*\bone\s+with\b", re.I)


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


def _on_what(
    record: dict,
    text: str,
    scopes: list[str],
    names: Names,
    found: list[Figure],
    undecided: list[str],
    lead: Figure | None = None,
) -> None:
    """The chips, the accelerator and node counts and the submitter: counts only from the claim's own
    clause, sentence or paragraph (or the title of a text with one claim), never another paragraph's."""
    here = "\n".join(scopes) or text
    chips, where = [], -1
    for where, scope in enumerate([*scopes, text]):
        chips = _named(names, "accelerators", _uncompared(scope), _uncompared(scope))
        if chips:
            break
    if len(chips) > 1 and _MIXED.search(scope):  # "a heterogeneous cluster … MI300X … MI325X … MI355X"
        record["accelerator_ids"] = chips
        undecided.append(f"accelerator_ids: {', '.join(chips)}, one system of them all: give accelerator_mix")
    elif chips and (len(chips) == 1 or where <= 1):  # one chip, or the first of its own words or clause
        record["accelerator_ids"] = [chips[0]]
        if len(chips) > 1:
            undecided.append(f"accelerator_ids: its clause names {', '.join(chips)}; the draft took {chips[0]}")
    elif chips:
        undecided.append(f"accelerator_ids: the text names {', '.join(chips)} near it: which ran the number?")
    else:
        undecided.append("accelerator_ids: no accelerator record is named in the text")
    counts = [f for f in found if f.unit == "accelerators"]
    count = _count_of(lead, scopes, counts, names, chips)
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
    nodes = _nodes_of(lead, scopes, [f for f in found if f.unit == "nodes"], counts, record.get("accelerator_count"))
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
    rf"(?<![\w.,\-–]){_NUMBER}\s+(?:[A-Za-z][\w.-]*\s+){{0,3}}(?:gpus?|accelerators?|chips?|cards?|graphics processors?)\b",
    re.I,
)
#: "on 72× GB300", "8x B200": a count, then the chip
_TIMES = re.compile(r"\b(\d+)\s?[×xX]\s?(?=[A-Z])")


def _count_of(lead: Figure | None, scopes: list[str], counts: list[Figure], names: Names, chips: list[str]):
    """The accelerator count of a claim, nearest first: a number with GPUs in its own words, clause,
    sentence or paragraph; in each, else a count in words ("eight MI355X GPUs"), a count before a chip
    ("72× GB300") or a whole rack ("a single GB300 NVL72 rack")."""
    counts = [f for f in counts if not _ranged(f)]
    mine = _own_first(lead, counts, scopes[:1])
    if mine:
        return int(_nearest_figure(lead, mine).mention.value)
    for scope in scopes:
        mine = _own_first(None, counts, [scope])
        if mine:
            mine = [f for f in mine if lead and f.sentence == lead.sentence and _clause(f) == _clause(lead)] or mine
            return int(_nearest_figure(lead, mine).mention.value)
        words = next((w for w in _WORD_COUNT.finditer(scope) if not _IN_A_NAME.search(scope[: w.start()])), None)
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


def _nodes_of(lead: Figure | None, scopes: list[str], nodes: list[Figure], counts: list[Figure], count):
    """The node count of a claim, nearest scope first: a number of nodes, or one in words ("a single
    node", "eighteen virtual machines"); beside the accelerator count where a scope gives several."""
    nodes = [f for f in nodes if not _ranged(f)]  # "11-12 nodes": which, the text does not say
    for n, scope in enumerate(scopes):
        here = _own_first(lead, nodes, [scope]) if n else _own_first(lead, nodes, [])
        if here:
            return int(_beside(here, [f for f in counts if f.sentence in scope], count).mention.value)
        if n < 4:  # its words, clause, sentence, paragraph
            words = _INSTANCES.search(scope)
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


ORDER = (
    "id",
    "title",
    "suite_id",
    "division",
    "system_type",
    "scenario",
    "model_id",
    "format_id",
    "engine_id",
    "accelerator_ids",
    "accelerator_count",
    "node_count",
    "metric",
    "value",
    "unit",
    "scope",
    "reported",
    "load",
    "submitter_id",
    "measured_by",
    "sources",
    "omitted_by_source",
    "asserts",
)


def _ordered(record: dict) -> dict:
    return {k: record[k] for k in ORDER if k in record}
