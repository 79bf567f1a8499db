"""A saved comparison's page: the answer with its default parameters (table that fits the page,
chart, caveats, disclosures), and the index of comparisons."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from benchkg.answers.answering import assemble
from benchkg.answers.charts import to_chart
from benchkg.answers.disclosure import with_marks
from benchkg.answers.results import short, to_csv
from benchkg.graph.backend import backend_of
from benchkg.publish.pages import esc, gotcha_list, link, page, table
from benchkg.publish.sitegraph import Renderer, SiteGraph, numeric_columns


def query_page(g: SiteGraph, store, saved, out_dir: Path) -> tuple[str, bool]:
    """A saved comparison run with its default parameters: table, chart, gotchas of its rows; the
    page and whether it has a chart (written to ``out_dir`` with ``results.csv``)."""
    root = "../../"
    r = Renderer(g, root)
    saved.check_service()  # a data repository's own query that calls SERVICE is not run for the site
    answer = assemble(saved, {}, backend_of(store), base=g.base, cite=True)
    results = answer.results
    (out_dir / "results.csv").write_text(to_csv(results), encoding="utf-8")
    parts = _introduction(saved, answer)
    charted = bool(saved.chart and results.rows)
    parts.append(
        _chart(saved, results, out_dir)
        if charted
        else ""
        if saved.chart
        else '<p class="note">No chart: this comparison does not give one number per row to draw.</p>'
    )
    parts += [f'<p class="note left-out">{esc(note)}</p>' for note in answer.notes()]  # as the terminal says
    parts.append(_comparison_caveats(answer.caveats, root))
    parts.append(_claim_gotchas(g, results, root))
    disclosure = answer.disclosure
    assert disclosure is not None  # (asked for: cite=True)
    shown = with_marks(results, disclosure) if disclosure.notes else results
    parts.append(
        "<h2>Rows</h2>"
        + (rows_tables(r, saved, shown) if results.rows else "<p>No rows for the default parameters.</p>")
    )
    if disclosure.notes:
        parts.append(
            '<section class="disclosures" aria-labelledby="disclosures-h"><h2 id="disclosures-h">Disclosures</h2>'
            '<p class="note">Each result as the MLPerf results-messaging guidelines ask it to be cited.</p><ol>'
            + "".join(f"<li>{esc(text)}</li>" for text in disclosure.notes)
            + "</ol>"
            + "".join(f'<p class="note">{esc(line)}</p>' for line in disclosure.tail)
            + "</section>"
        )
    parts.append(f"<details><summary>SPARQL</summary><pre><code>{esc(saved.text)}</code></pre></details>")
    body = "\n".join(p for p in parts if p)
    crumbs = [("benchkg", root + "index.html"), ("comparisons", "../index.html"), (saved.name, None)]
    return page(saved.summary or saved.name, body, root, crumbs, scripts=["sort.js"]), charted


def _introduction(saved, answer) -> list[str]:
    """Title, slice, row count, description, parameters and the command that gives the same answer."""
    rows = len(answer.results.rows)
    params = "".join(
        f"<dt><code>{esc(p.name)}</code></dt><dd>{esc(p.default or 'any')} "
        f'<span class="note">({esc(p.type + (":" + p.of if p.of else ""))})</span></dd>'
        for p in saved.params.values()
    )
    command = " ".join(
        ["benchkg query", saved.name] + [f"--param {p.name}={p.default}" for p in saved.params.values() if p.default]
    )
    return [
        f"<h1>{esc(saved.summary or saved.name)}</h1>",
        f'<p class="slice">{esc(answer.title)}</p>',
        f'<p class="meta">saved comparison <code>{esc(saved.name)}</code> · {rows:,} '
        f"row{'' if rows == 1 else 's'} · "
        f"{link('results.csv', 'CSV')}</p>",
        f"<p>{esc(saved.description)}</p>" if saved.description else "",
        f'<h2>Parameters</h2><dl class="headline">{params}</dl>' if params else "",
        f"<p>Run it yourself: <code>{esc(command)}</code></p>",
    ]


def _chart(saved, results, out_dir: Path) -> str:
    """The chart (``chart.svg`` in ``out_dir``) as a figure with its caption."""
    label, value = saved.chart
    legend = to_chart(results, out_dir / "chart.svg", label, value, title=saved.summary, axis=saved.axis)
    shown = min(len(results.rows), 25)
    return (
        f'<figure><img src="chart.svg" alt="Bar chart of {esc(value.replace("_", " "))} by '
        f'{esc(label.replace("_", " "))} for the first {shown} rows; the table below has every number.">'
        f"<figcaption>{esc(value.replace('_', ' '))} by {esc(label.replace('_', ' '))}"
        f"{' (first 25 rows)' if len(results.rows) > 25 else ''}"
        + "".join(f"; {esc(line)}" for line in legend)
        + ".</figcaption></figure>"
    )


def _comparison_caveats(caveats, root: str) -> str:
    """The comparison caveats, once for the whole table."""
    if not caveats:
        return ""
    return (
        '<section class="gotchas" aria-labelledby="caveats-h"><h2 id="caveats-h">Comparison caveats '
        f'({len(caveats)})</h2><p class="note">Once for the whole table: its claims differ in these ways.</p>'
        "<ol>"
        + "".join(
            f'<li class="gotcha sev-{esc(c.severity)}" id="caveat-{esc(c.gotcha)}"><span class="sev">'
            f"{esc(c.severity)}</span> <strong>{link(root + 'id/gotchas/' + c.gotcha + '/index.html', c.title)}"
            f'</strong> <span class="note">({esc(c.text().split(" — ", 1)[1])})</span>'
            f"<p>{esc(c.statement)}</p></li>"
            for c in caveats
        )
        + "</ol></section>"
    )


def _claim_gotchas(g: SiteGraph, results, root: str) -> str:
    """The caveats of the single claims in the table, each with how many rows it touches."""
    rows_per_gotcha: dict[str, int] = defaultdict(int)
    for row in results.rows:
        claims = {
            t.value
            for t in row.values()
            if type(t).__name__ == "NamedNode" and t.value.startswith(g.prefix + "benchmarks/")
        }
        for gotcha in {x for c in claims for x in g.caveats.get(c, [])}:
            rows_per_gotcha[gotcha] += 1
    gotchas = [g.gotcha(x, f"{n} of {len(results.rows)} rows") for x, n in sorted(rows_per_gotcha.items())]
    return gotcha_list(gotchas, root, "Caveats of single claims in this table (claim and finding caveats).")


#: the width a comparison table may take on the page (main is 72rem = 1152 px, less its padding)
TABLE_PX = 1100


def column_px(name: str, cells: list[str], numeric: bool) -> int:
    """About how wide a column sets at the least: a number never wraps, a name breaks anywhere (so it
    takes at most 16 characters), a heading breaks between words."""
    head = max(len(word) for word in name.split("_")) * 8.5
    widest = max([len(c) for c in cells] + [0])
    return int(max(head, widest * 8 if numeric else min(widest, 16) * 7.5)) + 16


def rows_tables(r, saved, results) -> str:
    """The rows as a table that fits a 1280 px window: the query's most important columns ("#+
    columns:") while they fit, the rest named, and every column in a table one click away."""

    numeric = numeric_columns([[row.get(v) for row in results.rows] for v in results.vars])
    texts = {v: [short(row.get(v)) for row in results.rows] for v in results.vars}
    importance = ("cite",) + saved.columns  # the footnote marks stay beside the numbers they cite
    order = [v for v in importance if v in results.vars] + [v for v in results.vars if v not in importance]
    shown: set[str] = set()
    used = 0
    for v in order:
        px = column_px(v, texts[v], results.vars.index(v) in numeric)
        if used + px <= TABLE_PX or not shown:
            shown.add(v)
            used += px
    columns = [v for v in results.vars if v in shown]

    def rows_table(names: list[str], caption: str) -> str:
        cells = [[r.term(row.get(v)) for v in names] for row in results.rows]
        kept = {i for i, v in enumerate(names) if results.vars.index(v) in numeric}
        return table([v.replace("_", " ") for v in names], cells, caption, kept, cls_="sortable")

    out = rows_table(columns, saved.summary)
    hidden = [v for v in results.vars if v not in shown]
    if hidden:
        out += (
            f'<p class="note">Columns not shown here: {esc(", ".join(hidden))} (every column is in '
            f"{link('results.csv', 'results.csv')} and below).</p>"
            f"<details><summary>All {len(results.vars)} columns</summary>"
            f"{rows_table(list(results.vars), saved.summary + ' (all columns)')}</details>"
        )
    return out


def queries_index(saved: dict) -> str:
    root = "../"
    items = "".join(
        f"<li>{link(f'{name}/index.html', q.summary or name)} <code>{esc(name)}</code></li>"
        for name, q in sorted(saved.items())
    )
    body = f"<h1>Comparisons</h1><p>The saved queries, each run with its default parameters.</p><ul>{items}</ul>"
    return page("Comparisons", body, root, [("benchkg", root + "index.html"), ("comparisons", None)])
