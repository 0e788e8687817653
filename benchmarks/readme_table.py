"""Write the README's benchmark table from a `scripts/bench` run (bench.json), never by hand.

    python benchmarks/readme_table.py [bench.json] [README.md]

Replaces what stands between the README's `<!-- bench:start -->` and `<!-- bench:end -->`
lines with: when and where the run was made (date, machine, load), what was built, and one row
per target of bench.json (its figure, the goal, PASS/MISS and the detail the bench gave).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def fmt(value, unit: str) -> str:
    if value is None:
        return "not measured"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "x":
        return f"{value:.2f}×"
    if unit == "%":
        return f"{value * 100:.0f} %"
    if unit == "MiB":
        return f"{value:.0f} MiB"
    if unit == "n":
        return f"{value} unexpected"
    return str(value)


def goal(value, unit: str) -> str:
    if unit == "n":
        return "none unexpected"
    if unit == "MiB":
        return f"< {value / 1024:.0f} GiB" if value >= 1024 else f"< {value} MiB"
    return f"≤ {fmt(value, unit)}"


def cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(r: dict) -> str:
    """The README section for one bench.json."""
    clean = r.get("clean", {})
    out = clean.get("outputs", {})
    load = " → ".join(f"{a[0]:.1f}" for a in (r.get("load_before"), r.get("load_after")) if a)
    built = (f"{r.get('check', {}).get('games', '?')} games, "
             f"{out.get('pages', '?')} pages, {out.get('pdfs', '?')} PDFs ({out.get('printed_pages', '?')} printed pages), "
             f"{out.get('flowcharts', '?')} flowcharts") if clean else "no clean build measured"
    lines = [START,
             f"Latest run: `{r.get('command', 'scripts/bench')}` on {r['when'].replace('T', ' ')}, on {r['machine']}"
             + (f", load average {load} (1 min, start → end; the machine is shared)" if load else "")
             + f"; {built}. " + ("Figures are from one run each. " if r.get("reps") == 1 else
                                 f"Figures are medians of {r.get('reps', '?')} runs. ")
             + "Written from its bench.json by `benchmarks/readme_table.py`.",
             "",
             "| target | now | goal | | detail |",
             "|---|---|---|---|---|"]
    for t in r["targets"]:
        lines.append(f"| {cell(t['target'])} | {fmt(t['value'], t['unit'])} | {goal(t['goal'], t['unit'])} | "
                     f"{t['status']} | {cell(t.get('detail', ''))} |")
    for note in r.get("notes", []):
        lines.append(f"\nNote: {note}")
    lines.append(END)
    return "\n".join(lines)


def rewrite(readme: str, r: dict) -> str:
    if START not in readme or END not in readme:
        raise SystemExit(f"the README has no {START} … {END} section to write the table into")
    before, rest = readme.split(START, 1)
    _, after = rest.split(END, 1)
    return before + table(r) + after


def main(argv: list[str]) -> int:
    bench = Path(argv[0]) if argv else ROOT / "bench.json"
    readme = Path(argv[1]) if len(argv) > 1 else ROOT / "README.md"
    results = json.loads(bench.read_text(encoding="utf-8"))
    readme.write_text(rewrite(readme.read_text(encoding="utf-8"), results), encoding="utf-8")
    print(f"wrote the benchmark table of {bench} ({results['when']}) into {readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
