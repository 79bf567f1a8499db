"""Reading a saved page: its readable text (HTML, Markdown, plain text; tables as sentences), its title,
its sentences and paragraphs."""

from __future__ import annotations

import functools
import html
import html.parser
import re
from pathlib import Path

from benchkg.draft.tables import table_sentences
from benchkg.importers.common import slug
from benchkg.kernel.errors import UsageError
from benchkg.kernel.text import normalise
from benchkg.records.reader import reserved_id


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


@functools.lru_cache(maxsize=1024)
def _short(sentence: str, limit: int = 160) -> str:
    """A sentence on one line, cut to ``limit`` characters (read once per sentence: a line of a thousand
    figures is one sentence, quoted for each)."""
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"


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
        decoded = normalise(raw.decode("utf-8"))  # one spelling of dashes and spaces before any rule reads it
        return plain_text(decoded, path.suffix.lower()), page_title(decoded, path.suffix.lower())
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text; save the page as UTF-8") from None
    except OSError as e:
        raise UsageError(f"{path}: cannot read: {e.strerror or e}") from None


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


def _paragraph(text: str, sentence: str) -> str:
    """The paragraph (a line of the readable text) that holds ``sentence``."""
    return next((line for line in text.splitlines() if sentence in line), sentence)


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
