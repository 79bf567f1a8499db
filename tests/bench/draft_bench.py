"""How long `benchkg draft` takes on hostile pages (issue 33): names repeated thousands of times, one
line of thousands of figures, Markdown with unclosed emphasis and links, one sentence repeated. Each
shape at 250 KB, 500 KB and 1 MB; linear time means the 1 MB column is about four times the 250 KB
one. `make bench-draft`. Prints a table of seconds (the median of three runs); ``--smoke`` drafts 10, 20
and 40 KB pages once each (that it runs).

Then a release of thirteen claims (two corpus texts, issue 61) drafted with linking, as a curator drafts it:
in a new data repository (``benchkg init``, the reference set prepared), in-process (``kg.draft``) and as a
command (``benchkg draft``, Python's start included); issue 61's target is 2 s."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZES = (250_000, 500_000, 1_000_000)
SMOKE_SIZES = (10_000, 20_000, 40_000)


def page(shape: str, size: int) -> str:
    """About ``size`` characters of one hostile shape."""
    unit = {
        "repeated names": "CoreWeave GB200 NVL72 H100 H200 B200 MI300X Llama 2 70B DeepSeek-R1 ",
        "one line of figures": "",
        "unclosed markdown": "**[a](http://x) _b_ `c` [d ",
        "one sentence again": "The H100 reached 12,345 tokens/s on Llama 2 70B in the Server scenario. ",
    }[shape]
    if shape == "one line of figures":
        text, i = [], 0
        while sum(map(len, text)) < size:
            text.append(f"{i:,}.5 tokens/s ")
            i += 1
        return "".join(text)
    return unit * (size // len(unit))


def main() -> None:
    from benchkg.draft import draft
    from benchkg.records.names import names_of

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="10, 20 and 40 KB pages, one run each")
    args = parser.parse_args()
    sizes, repeat = (SMOKE_SIZES, 1) if args.smoke else (SIZES, 3)
    names = names_of([ROOT / "data"])
    folder = Path(tempfile.mkdtemp(prefix="benchkg-draft-bench-"))
    shapes = ("repeated names", "one line of figures", "unclosed markdown", "one sentence again")
    print(f"{'page':<22}" + "".join(f"{size // 1000:>9} KB" for size in sizes) + "   largest / smallest")
    for shape in shapes:
        seconds = []
        for size in sizes:
            path = folder / f"{shape.replace(' ', '-')}-{size}.md"
            path.write_text(page(shape, size), encoding="utf-8")
            runs = []
            for _ in range(repeat):
                started = time.perf_counter()
                draft(path, names)
                runs.append(time.perf_counter() - started)
            seconds.append(statistics.median(runs))
        print(f"{shape:<22}" + "".join(f"{s:>11.2f}s" for s in seconds) + f"   {seconds[-1] / seconds[0]:>17.1f}x")
        sys.stdout.flush()


def release(repeat: int) -> None:
    """Seconds to draft a thirteen-claim release with linking, in a new data repository."""
    import subprocess

    import benchkg

    corpus = ROOT / "tests" / "fixtures" / "draft" / "announcements"
    folder = Path(tempfile.mkdtemp(prefix="benchkg-draft-release-"))
    text = folder / "release.md"
    text.write_text(
        "\n\n".join(
            (corpus / n).read_text(encoding="utf-8")
            for n in ("d21-coreweave-v61-rubin-blog.md", "d06-digitalterminal-amd-v60-heterogeneous.txt")
        ),
        encoding="utf-8",
    )
    benchkg_bin = Path(sys.executable).with_name("benchkg")
    subprocess.run([benchkg_bin, "init", folder / "repo"], check=True, capture_output=True)
    subprocess.run([benchkg_bin, "reference", "--prepare"], check=True, capture_output=True)
    data = folder / "repo" / "data"
    kg = benchkg.open(data)
    first = time.perf_counter()
    claims = kg.draft(text)
    first = time.perf_counter() - first
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        kg.draft(text)
        runs.append(time.perf_counter() - started)
    commands = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([benchkg_bin, "draft", text, "--data", data], check=True, capture_output=True)
        commands.append(time.perf_counter() - started)
    linked = sum(1 for c in claims if c.record.get("restates"))
    print(
        f"\nrelease of {len(claims)} claims ({linked} linked): kg.draft first {first:.2f}s, then "
        f"{statistics.median(runs):.2f}s; benchkg draft (a process) {statistics.median(commands):.2f}s (target 2 s)"
    )


if __name__ == "__main__":
    main()
    release(1 if "--smoke" in sys.argv else 3)
