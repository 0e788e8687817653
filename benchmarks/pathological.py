"""How long `rulesmith check` takes on content made to be slow (issue 34, "Bounded work").

Never part of the test suite's pass/fail: it prints one line per case, the seconds of a fresh
`rulesmith check` process (wall clock, this machine's load included) and its exit code. Each
case is a game written into a temporary folder:

  range-keys      a table keyed by ranges, 80,000 rows ("1", "2", …: no two overlap)
  call-chain      6,000 procedures, each calling the next; the last one ends
  call-ring       2,000 procedures, each calling the next, the last the first: no end
  source-map      30,000 source-map entries of one line each, over a 30,000-line text
  state-range     a bot state integer with max: 300000 (refused: a page shows at most 100 values)
  big-procedure   a procedure of 150 decisions (refused: more than a chart can show)
  arithmetic      worked examples `4000000**4000000` in a comprehension and `10**4400` (refused)

Usage: .venv/bin/python benchmarks/pathological.py [--only NAME,…] [--timeout SECONDS]
A case over the timeout is stopped and shown as "> N s".
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RULESMITH = str(Path(sys.executable).with_name("rulesmith"))
GAME = """\
game:
  id: demo
  name: Demo
  data_version: "1.0.0"
  sources:
    - {id: core, file: rules.txt, title: Rulebook}
modules:
  - {id: base, name: Base game}
kinds:
  - id: card
    name: Card
    plural: Cards
    fields:
      - {id: cost, name: Cost, type: integer, min: 0, max: 9}
"""


def range_keys(n: int = 80_000) -> dict[str, str]:
    rows = "".join(f'      - ["{i}", {i % 7}]\n' for i in range(1, n + 1))
    return {"tables.yaml": "tables:\n  - id: big\n    title: Big\n    columns:\n"
            "      - {id: key, title: Key, type: range}\n      - {id: value, title: Value, type: integer}\n"
            f"    rows:\n{rows}"}


def _procedure(i: int, calls: str | None) -> str:
    step = f", call: {{procedure: {calls}}}" if calls else ""
    return (f"  - id: p{i}\n    title: P{i}\n    start: a\n    nodes:\n"
            f"      - {{id: a, type: step, text: Act, next: b{step}}}\n      - {{id: b, type: end, text: Done}}\n")


def call_chain(n: int = 6_000) -> dict[str, str]:
    return {"procedures.yaml": "procedures:\n" + "".join(_procedure(i, f"p{i + 1}" if i + 1 < n else None)
                                                         for i in range(n))}


def call_ring(n: int = 2_000) -> dict[str, str]:
    return {"procedures.yaml": "procedures:\n" + "".join(_procedure(i, f"p{(i + 1) % n}") for i in range(n))}


def source_map(n: int = 30_000) -> dict[str, str]:
    entries = "".join(f'  - {{source: core, lines: "{i}", not_content: "a line"}}\n' for i in range(1, n + 1))
    return {"source-map.yaml": f"source_map:\n{entries}", "../../rules.txt": "a line\n" * n}


def state_range() -> dict[str, str]:
    return {"bot.yaml": "bot:\n  name: the bot\n  state:\n"
            "    - {id: turn, name: Turn, type: integer, min: 1, max: 300000, initial: 1}\n"
            "  turn:\n    title: The bot's turn\n    parts:\n      - {procedure: p0}\n",
            "procedures.yaml": "procedures:\n" + _procedure(0, None)}


def big_procedure(decisions: int = 150) -> dict[str, str]:
    nodes = []
    for i in range(decisions):
        nodes.append(f"      - id: d{i}\n        type: decision\n        text: Is it {i}?\n        branches:\n"
                     f"          - {{when: 'Yes', to: e{i}}}\n          - {{when: 'No', to: "
                     f"{f'd{i + 1}' if i + 1 < decisions else 'last'}}}\n"
                     f"      - {{id: e{i}, type: end, text: It is {i}.}}\n")
    nodes.append("      - {id: last, type: end, text: None.}\n")
    return {"procedures.yaml": "procedures:\n  - id: big\n    title: Big\n    start: d0\n    nodes:\n" + "".join(nodes)}


def arithmetic() -> dict[str, str]:
    return {"examples.yaml": "examples:\n"
            "  - {id: a, title: A, text: A, result: 1, expression: "
            "\"1 + 0 * len([4000000**4000000 for x in [1]*10000])\"}\n"
            "  - {id: b, title: B, text: B, result: 1, expression: \"1 + 10**4400\"}\n"}


CASES = {"range-keys": range_keys, "call-chain": call_chain, "call-ring": call_ring, "source-map": source_map,
         "state-range": state_range, "big-procedure": big_procedure, "arithmetic": arithmetic}


def measure(name: str, timeout: float) -> str:
    with tempfile.TemporaryDirectory(prefix=f"rulesmith-{name}-") as folder:
        game = Path(folder) / "content" / "demo"
        game.mkdir(parents=True)
        (game / "game.yaml").write_text(GAME)
        for rel, text in CASES[name]().items():
            (game / rel).resolve().write_text(text)
        if not (Path(folder) / "rules.txt").exists():
            (Path(folder) / "rules.txt").write_text("")
        started = time.perf_counter()
        try:
            run = subprocess.run([RULESMITH, "check", "--no-cache"], cwd=folder, capture_output=True, text=True,
                                 timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"{name:14} > {timeout:.0f} s (stopped)"
        seconds = time.perf_counter() - started
        traceback = "; TRACEBACK" if "Traceback" in run.stderr else ""
        problems = [line for line in run.stderr.splitlines() if line.startswith("demo/") or ": " in line][:1]
        first = f"  {problems[0][:110]}" if problems and run.returncode else ""
        return f"{name:14} {seconds:7.2f} s  exit {run.returncode}{traceback}{first}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a case is stopped")
    args = parser.parse_args()
    for name in (args.only.split(",") if args.only else CASES):
        print(measure(name, args.timeout), flush=True)


if __name__ == "__main__":
    main()
