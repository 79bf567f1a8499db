"""vendor-vs-audited says what it left out and why, however it is asked (issue 29, part 4): a claim with no
partner under the asked scale is named under the table, ratios read to three decimals, the columns that
make a pairing honest are never dropped for width, and a chart's legend describes the bars it drew."""

from __future__ import annotations

import csv
import io
import re
import shutil

import pytest

from conftest import FULL_DATA, cli

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    target = tmp_path_factory.mktemp("honesty") / "data"
    shutil.copytree(FULL_DATA, target, ignore=shutil.ignore_patterns(".benchkg"))
    return target


def vendor_claims(full) -> set[str]:
    import json

    return {
        p.stem for p in (full / "benchmarks").glob("*.json") if json.loads(p.read_text()).get("measured_by") == "vendor"
    }


def test_a_claim_without_a_same_count_partner_is_named_under_the_table(full):
    result = cli("query", "vendor-vs-audited", "--param", "count=same", "--data", full, env={"COLUMNS": "200"})
    assert result.exit_code == 0
    rows = cli("query", "vendor-vs-audited", "--param", "count=same", "--format", "csv", "--data", full).stdout
    paired = {row["vendor_claim"] for row in csv.DictReader(io.StringIO(rows))}
    note = next(line for line in result.output.splitlines() if line.startswith("No partner under count=same"))
    named = set(note.split(": ", 1)[1].split(" (")[0].split(", "))
    m = re.search(r"for (\d+) of (\d+) claims", note)
    assert named and int(m.group(1)) == len(named)
    # every vendor claim is either a row or named: none disappears without a word
    shown = {c for c in vendor_claims(full) if any(c in p for p in paired)}
    assert named.isdisjoint(shown)
    assert int(m.group(2)) == len(named) + len(shown)
    # and with nearest, a claim named above that has an audited result at another scale comes back as a row
    nearest = cli("query", "vendor-vs-audited", "--format", "csv", "--data", full).stdout
    assert len(nearest.splitlines()) >= len(rows.splitlines())


def test_ratios_read_to_three_decimals_and_the_scale_columns_stay_at_80_columns(full):
    table = cli("query", "vendor-vs-audited", "--data", full, env={"COLUMNS": "80"}).stdout
    header = "\n".join(table.splitlines()[1:4])
    for column in ("ratio", "scale", "vendor_", "audited_"):
        assert column in header
    body = [line for line in table.splitlines() if re.search(r"tokens/s", line)]
    assert body and all(re.search(r"\b\d+\.\d{3}\b", line) for line in body)
    assert all(len(line) <= 80 for line in table.splitlines()[:4])


def test_the_chart_legend_names_only_the_bars_it_drew(full, tmp_path):
    """vendor-vs-audited draws one plain bar per vendor claim (a ratio): no legend for vendor bars; a
    leaderboard that holds a vendor claim draws it orange and crossed, and says so."""
    pairs = tmp_path / "pairs.svg"
    assert cli("query", "vendor-vs-audited", "--chart", pairs, "--data", full).exit_code == 0
    assert "orange" not in pairs.read_text() and "#ee9955" not in pairs.read_text()
    board = tmp_path / "board.svg"
    args = (
        "--param",
        "suite=any",
        "--param",
        "model=llama2-70b",
        "--param",
        "scenario=server",
        "--param",
        "accuracy=any",  # (the vendor claim states no tier)
        "--param",
        "accelerator=nvidia-gb200",  # (so that it is among the rows a chart draws)
    )
    assert cli("query", "leaderboard", *args, "--limit", "0", "--chart", board, "--data", full).exit_code == 0
    svg = board.read_text()
    assert "#ee9955" in svg and "orange" in svg
