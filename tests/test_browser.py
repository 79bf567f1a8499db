"""The static site in a real browser: Debian's Chromium, headless, driven by Playwright, the site
served on 127.0.0.1. Screenshots (and a printed PDF) go to tests/artifacts/site/."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest

from conftest import tool

pytestmark = pytest.mark.external  # Chromium

ARTIFACTS = Path(__file__).parent / "artifacts" / "site"
GB200 = "id/benchmarks/bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server/index.html"
# Chromium as the probe runs it here: no sandbox as root, no calls home on a closed network.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(seed_site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(seed_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    executable = tool("chromium")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """A page that records every request and console error; the test fails on any request to
    another host."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.requests, pg.errors = [], []
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    foreign = [u for u in pg.requests if not u.startswith(server) and not u.startswith("data:")]
    context.close()
    assert not foreign, f"requests to other hosts: {foreign[:5]}"


def test_every_internal_link_resolves_and_every_page_loads_cleanly(page, server, seed_site):
    """Crawl from the home page: every page reached loads with 200, without console errors, and
    every link to this site points at a file that exists (and an anchor on it that exists)."""
    todo, seen, checked_links = [server + "index.html"], set(), 0
    ids_of: dict[str, set] = {}
    anchors: list[tuple[str, str, str]] = []
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = page.goto(url)
        assert response.status == 200, url
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
        ids_of[url] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
        for href in hrefs:
            target, fragment = urldefrag(href)
            if not target.startswith(server):
                continue
            checked_links += 1
            path = seed_site / unquote(urlparse(target).path).lstrip("/")
            assert path.is_file(), f"{url} links to missing {href}"
            if fragment:
                anchors.append((url, target, unquote(fragment)))
            if target.endswith(".html") and target not in seen:
                todo.append(target)
        assert not page.errors, f"{url}: {page.errors}"
    html_files = {str(p.relative_to(seed_site)) for p in seed_site.rglob("*.html")}
    reached = {unquote(urlparse(u).path).lstrip("/") for u in seen}
    assert reached == html_files, f"pages no link reaches: {sorted(html_files - reached)[:5]}"
    for url, target, fragment in anchors:
        assert fragment in ids_of.get(target, set()), f"{url} links to #{fragment} missing on {target}"
    assert len(seen) > 70 and checked_links > 1000


def test_claim_page_shows_value_unit_derived_value_and_gotchas(page, server):
    page.goto(server + GB200)
    headline = page.locator("dl.headline")
    text = headline.inner_text()
    assert "910,621.36" in text and "tokens/s" in text
    assert "12,647.52" in text and "derived" in text and "× 72" in text
    gotchas = page.locator("section.gotchas li")
    titles = gotchas.locator("strong").all_inner_texts()
    assert "Offline is not always faster than Server" in titles
    # a comparison caveat is never a single claim's: it shows where claims are compared
    assert "Endpoints results are not comparable with Inference Server results" not in titles
    assert page.locator("section.gotchas li.sev-caution").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "claim.png"), full_page=True)
    alternates = page.eval_on_selector_all(
        'link[rel="alternate"]', "els => els.map(l => [l.type, l.getAttribute('href')])"
    )
    assert alternates == [["text/turtle", "index.ttl"], ["application/ld+json", "index.jsonld"]]


def test_gotchas_show_on_other_pages_where_they_apply(page, server):
    page.goto(server + "id/interconnects/nvlink-5/index.html")
    assert "Interconnect ids mean fabric present, not fabric exercised" in page.locator("section.gotchas").inner_text()
    page.goto(server + "queries/leaderboard/index.html")
    sections = "\n".join(page.locator("section.gotchas").all_inner_texts())
    assert "Offline is not always faster than Server" in sections and "rows" in sections


def test_comparison_tables_sort_by_a_column(page, server):
    page.goto(server + "queries/tokens-per-bandwidth/index.html")
    header = page.locator("table.sortable thead th.num button.sort").first
    column = page.locator("table.sortable thead th").all_inner_texts().index(header.inner_text())
    header.click()
    values = [
        float(t.replace(",", "") or "nan")
        for t in page.locator(f"table.sortable tbody tr td:nth-child({column + 1})").all_inner_texts()
    ]
    assert len(values) > 1 and values == sorted(values)
    header.click()
    again = [
        float(t.replace(",", "") or "nan")
        for t in page.locator(f"table.sortable tbody tr td:nth-child({column + 1})").all_inner_texts()
    ]
    assert again == sorted(values, reverse=True)


def test_comparison_page_renders_its_chart_and_table(page, server, seed_site):
    page.goto(server + "queries/leaderboard/index.html")
    img = page.locator("figure img")
    assert img.evaluate("i => i.complete && i.naturalWidth") > 300
    box = img.bounding_box()
    assert box["width"] > 300 and box["height"] > 150
    csv_rows = (seed_site / "queries" / "leaderboard" / "results.csv").read_text().strip().splitlines()[1:]
    assert page.locator("table").first.locator("tbody tr").count() == len(csv_rows) >= 1
    assert "910,621.36" in page.locator("table").first.inner_text()
    page.screenshot(path=str(ARTIFACTS / "comparison.png"), full_page=True)


def test_search_on_the_home_page_finds_a_claim_and_goes_to_it(page, server):
    page.goto(server + "index.html")
    page.fill("#q", "gb200 llama2 server v6.1")
    results = page.locator("#search-results a")
    results.first.wait_for()
    assert any("GB200 NVL72" in t and "v6.1 Server" in t for t in results.all_inner_texts())
    assert "match" in page.locator("#search-status").inner_text()
    page.screenshot(path=str(ARTIFACTS / "search.png"))
    page.fill("#q", "zzzz-no-such-thing")
    assert page.locator("#search-status").inner_text() == "No match."
    page.fill("#q", "gb200 llama2 server v6.1")
    page.locator("#search-results a", has_text="v6.1 Server").first.click()
    page.wait_for_load_state()
    assert page.url.endswith(GB200)


def test_pages_work_without_javascript(browser, server):
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(server + GB200)
    assert "910,621.36" in pg.locator("dl.headline").inner_text()
    pg.goto(server + "index.html")
    assert not pg.locator("#search").is_visible(), "search is hidden where it cannot work"
    assert "Search needs JavaScript" in pg.locator("main").inner_text()
    assert pg.locator(".kinds a").count() == 11
    pg.screenshot(path=str(ARTIFACTS / "home-no-js.png"), full_page=True)
    context.close()


def test_pages_print_without_navigation(page, server):
    page.goto(server + GB200)
    page.emulate_media(media="print")
    assert not page.locator("header.site").is_visible() and not page.locator("nav.breadcrumb").is_visible()
    assert page.locator("dl.headline").is_visible()
    page.pdf(path=str(ARTIFACTS / "claim-print.pdf"))
    assert (ARTIFACTS / "claim-print.pdf").stat().st_size > 10_000


def test_ontology_page_documents_every_term_used_on_claim_pages(page, server, seed_site):
    page.goto(server + "ontology/index.html")
    ids = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
    assert {"Benchmark", "acceleratorCount", "TOKEN-PER-SEC", "scenario-server"} <= ids
    page.screenshot(path=str(ARTIFACTS / "ontology.png"))


_OVERFLOW = """() => {
  const width = window.innerWidth, out = [];
  for (const el of document.querySelectorAll('main table, main svg, main img, main figure, main h1, main .slice, main pre')) {
    if (el.closest('details:not([open])')) continue;  // one click away, scrolling in its own box
    const box = el.getBoundingClientRect();
    if (box.right > width + 1 || box.width > width) out.push(`${el.tagName.toLowerCase()} ends at ${Math.round(box.right)} px`);
  }
  for (const el of document.querySelectorAll('main h1, main .slice, main figcaption')) {
    if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName.toLowerCase()} clipped: ${el.textContent.slice(0, 60)}`);
  }
  return {page: document.documentElement.scrollWidth, width, out};
}"""


def test_every_comparison_page_fits_a_1280_px_window(browser, server, seed_site):
    """Measured in Chromium at 1280 × 800: no table, chart or title wider than the window or clipped,
    and the page carries the terminal's title line (slice and defaults) and its notes."""
    import benchkg
    from conftest import DATA

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    names = sorted(p.parent.name for p in (seed_site / "queries").glob("*/index.html"))
    assert len(names) >= 19
    problems, noted = {}, 0
    with benchkg.open(DATA) as kg:
        for name in names:
            pg.goto(server + f"queries/{name}/index.html")
            measured = pg.evaluate(_OVERFLOW)
            if measured["page"] > measured["width"] or measured["out"]:
                problems[name] = measured
            answer = kg.answer(name)
            assert pg.locator("p.slice").inner_text() == answer.title
            text = " ".join(pg.locator("main").inner_text().split())
            for note in answer.notes():
                assert " ".join(note.split()) in text, (name, note)
                noted += 1
    assert noted, "some page carries a note (left out, no result)"
    pg.goto(server + "queries/leaderboard/index.html")
    pg.screenshot(path=str(ARTIFACTS / "comparison-1280.png"), full_page=True)
    context.close()
    assert not problems, problems


#: the cells whose text a line break cuts inside a word ("toke / ns/s"): two letters or digits side by
#: side on two lines; a break after "-", "/", "_" or a space is where a name may wrap
_BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('main td, main th')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let before = null;
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (let i = 0; i < node.textContent.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const box = range.getClientRects()[0], ch = node.textContent[i];
        if (!box) { before = null; continue; }
        if (before && /[A-Za-z0-9]/.test(ch) && /[A-Za-z0-9]/.test(before.ch) && box.top > before.top + 2) {
          broken.push(cell.textContent.trim().slice(0, 60)); break;
        }
        before = {ch, top: box.top};
      }
    }
  }
  return broken;
}"""


def test_no_table_cell_breaks_inside_a_word_at_1280_px(browser, server, seed_site):
    """Issue 34: in Chromium at 1280 px, no cell of any comparison, kind index or the home page wraps in
    the middle of a word ("toke/ns/s"); a long name wraps at its hyphens and slashes, a wide table
    scrolls in its own box."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pages = ["index.html", "queries/index.html"]
    pages += sorted(f"queries/{p.parent.name}/index.html" for p in (seed_site / "queries").glob("*/index.html"))
    pages += sorted(f"id/{p.parent.name}/index.html" for p in (seed_site / "id").glob("*/index.html"))
    pages.append(GB200)
    problems = {}
    for path in pages:
        pg.goto(server + path)
        broken = pg.evaluate(_BROKEN_WORDS)
        if broken:
            problems[path] = broken[:3]
    context.close()
    assert len(pages) > 30 and not problems, problems


#: text a hostile record could hold; each would set window.__pwned if a page ran it
INJECTED = {
    "title": "<script>window.__pwned = 'title'</script> CoreWeave GB200 NVL72",
    "system_name": '"><img src=x onerror="window.__pwned = \'system\'"> CoreWeave',
    "notes": "[see the run](javascript:window.__pwned='notes') <svg onload=\"window.__pwned='svg'\"></svg>",
}
MODEL_NAME = "Llama 2 70B <iframe srcdoc=\"<script>parent.__pwned='model'</script>\"></iframe>"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The seed data with one claim's text and one model's name holding markup, its site, and the
    markdown of a query over them rendered to HTML as a permissive renderer would (raw HTML on)."""
    import json
    import shutil

    from markdown_it import MarkdownIt

    from conftest import DATA, cli

    root = tmp_path_factory.mktemp("hostile")
    data = root / "data"
    shutil.copytree(DATA, data)
    claim = data / "benchmarks" / "bench-mlperf-v6-1-coreweave-gb200-nvl72-llama2-70b-server.json"
    claim.write_text(json.dumps({**json.loads(claim.read_text()), **INJECTED}, indent=2))
    model = data / "models" / "llama2-70b.json"
    model.write_text(json.dumps({**json.loads(model.read_text()), "name": MODEL_NAME}, indent=2))
    site = root / "site"
    assert cli("site", "-o", site, "--data", data).exit_code == 0
    for name, params in (("leaderboard", ["model=llama2-70b", "scenario=server"]), ("accelerator-fabrics", [])):
        args = [a for p in params for a in ("--param", p)]
        md = cli("query", name, *args, "--format", "markdown", "--limit", "0", "--data", data)
        assert md.exit_code == 0, md.stderr
        html = MarkdownIt("commonmark", {"html": True}).enable("table").render(md.stdout)
        (site / f"rendered-{name}.html").write_text(f"<!doctype html><meta charset=utf-8><body>{html}</body>")
    return site


def test_injected_records_run_no_script_on_any_page(browser, hostile):
    """Records holding <script>, event handlers, an iframe and a javascript: link: on the site's pages
    that show them, and in the query markdown rendered with raw HTML allowed, the markup shows as
    text, no script runs and no link runs code."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(hostile)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    context = browser.new_context()
    try:
        pg = context.new_page()
        dialogs = []
        pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        pages = [
            "index.html",
            GB200,
            "id/models/llama2-70b/index.html",
            "id/benchmarks/index.html",
            "id/models/index.html",
            "queries/leaderboard/index.html",
            "rendered-leaderboard.html",
            "rendered-accelerator-fabrics.html",
        ]
        shown = ""
        for path in pages:
            assert (hostile / path).is_file(), path
            pg.goto(base + path)
            pg.wait_for_load_state("load")
            assert pg.evaluate("window.__pwned") is None, (
                f"{path}: injected markup ran ({pg.evaluate('window.__pwned')})"
            )
            assert (
                pg.evaluate(
                    "[...document.querySelectorAll('a[href]')].filter(a => /^\\s*javascript:/i.test(a.getAttribute('href'))).length"
                )
                == 0
            ), path
            assert pg.evaluate(
                "document.querySelectorAll('script:not([src]), iframe, svg[onload], img[onerror]').length"
            ) == pg.evaluate(
                "document.querySelectorAll('script:not([src])').length - [...document.querySelectorAll('script:not([src])')].filter(s => s.textContent.includes('__pwned')).length"
            ), f"{path}: an injected element is in the page"
            shown += pg.inner_text("body")
        assert not dialogs
        # the test saw the injected text (as text): it is not vacuous
        assert "<script>window.__pwned = 'title'</script>" in shown and "<iframe srcdoc=" in shown
        assert "onerror=" in shown
    finally:
        context.close()
        httpd.shutdown()
        httpd.server_close()
