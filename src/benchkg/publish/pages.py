"""HTML for the static site: one page layout and the pieces pages are made of.

Everything here returns strings of escaped HTML; links are relative (``root`` is the way back to
the site's top from the page), so the site works from any host, any folder, or ``file://``.
No page loads anything from another host; only the index page runs a script (search).
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from html import escape

from benchkg.kernel.version import __version__

#: the site-wide navigation: (label, path from the top)
NAV = (
    ("Claims", "id/benchmarks/index.html"),
    ("Accelerators", "id/accelerators/index.html"),
    ("Comparisons", "queries/index.html"),
    ("Gotchas", "id/gotchas/index.html"),
    ("Ontology", "ontology/index.html"),
    ("Data", "index.html#data"),
)


def esc(text) -> str:
    """HTML-escape anything (quotes too, so it is safe in attributes).

    >>> esc('<a href="x">')
    '&lt;a href=&quot;x&quot;&gt;'
    """
    return escape(str(text), quote=True)


def link(href: str | None, text: str, **attrs) -> str:
    """An ``<a>`` (or the escaped text alone when there is nowhere to go).

    >>> link("../x/index.html", "GB200 & co", rel="alternate")
    '<a href="../x/index.html" rel="alternate">GB200 &amp; co</a>'
    """
    if not href:
        return esc(text)
    extra = "".join(f' {k.rstrip("_")}="{esc(v)}"' for k, v in attrs.items())
    return f'<a href="{esc(href)}"{extra}>{esc(text)}</a>'


def page(
    title: str,
    body: str,
    root: str,
    crumbs: Sequence[tuple[str, str | None]] = (),
    head: str = "",
    scripts: Sequence[str] = (),
) -> str:
    """A whole HTML page: header navigation, breadcrumb, ``<main>`` and footer."""
    nav = "".join(f"<li>{link(root + path, label)}</li>" for label, path in NAV)
    trail = ""
    if crumbs:
        items = "".join(
            f"<li>{link(href, text)}</li>" if href else f'<li aria-current="page">{esc(text)}</li>'
            for text, href in crumbs
        )
        trail = f'<nav class="breadcrumb" aria-label="Breadcrumb"><ol>{items}</ol></nav>'
    script_tags = "".join(f'<script src="{esc(root + s)}" defer></script>' for s in scripts)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · benchkg</title>
<link rel="stylesheet" href="{esc(root)}style.css">
<link rel="icon" type="image/svg+xml" href="{esc(root)}favicon.svg">
{head}{script_tags}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><nav aria-label="Site"><a class="home" href="{esc(root)}index.html">benchkg</a><ul>{nav}</ul></nav></header>
{trail}
<main id="main">
{body}
</main>
<footer><p>benchkg {esc(__version__)} · records Apache-2.0; imported results © MLCommons (Apache-2.0), hardware
figures from Epoch AI (CC BY 4.0) · {link(root + "void.ttl", "dataset description (VoID, DCAT)")} ·
{link(root + "index.html#data", "dumps")}</p></footer>
</body>
</html>
"""


def table(
    headers: list[str],
    rows: list[list[str]],
    caption: str = "",
    numeric: AbstractSet[int] = frozenset(),
    cls_: str = "",
) -> str:
    """A table of already-rendered cells; columns in ``numeric`` are right-aligned and never wrap, a
    heading may break after an underscore (so seventeen columns fit a 1280 px window).

    >>> table(["a", "n"], [["x", "1"]], numeric={1})
    '<div class="scroll"><table><thead><tr><th scope="col">a</th><th scope="col" class="num">n</th></tr></thead><tbody><tr><td>x</td><td class="num">1</td></tr></tbody></table></div>'
    """

    def cls(i):
        return ' class="num"' if i in numeric else ""

    head = "".join(f'<th scope="col"{cls(i)}>{esc(h).replace("_", "_<wbr>")}</th>' for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f"<td{cls(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>" for row in rows)
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    attr = f' class="{esc(cls_)}"' if cls_ else ""
    return f'<div class="scroll"><table{attr}>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def gotcha_list(gotchas: list[dict], root: str, note: str = "") -> str:
    """The gotchas that apply, as a section; each with severity, title (a link) and statement.

    Each gotcha is a dict with ``href`` (from the top), ``title``, ``severity``, ``statement`` and
    optionally ``note`` (e.g. "applies to 3 rows").
    """
    if not gotchas:
        return ""
    items = "".join(
        f'<li class="gotcha sev-{esc(g["severity"])}"><span class="sev">{esc(g["severity"])}</span> '
        f"<strong>{link(root + g['href'], g['title'])}</strong>"
        + (f' <span class="note">({esc(g["note"])})</span>' if g.get("note") else "")
        + f"<p>{esc(g['statement'])}</p></li>"
        for g in gotchas
    )
    intro = f'<p class="note">{esc(note)}</p>' if note else ""
    return (
        f'<section class="gotchas" aria-labelledby="gotchas-h"><h2 id="gotchas-h">Gotchas that apply '
        f"({len(gotchas)})</h2>{intro}<ul>{items}</ul></section>"
    )


def findings_list(findings: list) -> str:
    """What ``benchkg validate`` says about this record."""
    if not findings:
        return ""
    items = "".join(
        f'<li class="gotcha sev-{esc(f.severity)}"><span class="sev">{esc(f.severity)}</span> '
        f"<code>{esc(f.shape)}</code> at <code>{esc(f.pointer or '/')}</code>"
        f"<p>{esc(f.message)}</p></li>"
        for f in findings
    )
    return (
        f'<section aria-labelledby="findings-h"><h2 id="findings-h">Convention findings ({len(findings)})</h2>'
        f'<p class="note">What <code>benchkg validate</code> reports on this record.</p>'
        f'<ul class="gotchas">{items}</ul></section>'
    )


def search_form() -> str:
    """The search box: hidden until search.js shows it, so it never appears where it cannot work."""
    return (
        '<form class="search" id="search" role="search" hidden>'
        '<label for="q">Search claims, accelerators, models, gotchas…</label><br>'
        '<input id="q" name="q" type="search" autocomplete="off" placeholder="e.g. GB200 llama2-70b server">'
        '<p id="search-status" class="note" role="status" aria-live="polite"></p>'
        '<ul id="search-results"></ul></form>'
        '<noscript><p class="note">Search needs JavaScript; every record is also listed in the '
        "indexes below.</p></noscript>"
    )
