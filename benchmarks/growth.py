"""How time and memory grow with hostile input (issue 46, "Bounded work on every input").

Never part of the test suite's pass/fail: for each hostile input it writes a game at growing
sizes into a temporary folder, runs a fresh `rulesmith check` (or `build --no-pdf` where the input
is read by the build) and prints, per size, the input's bytes, the seconds (wall clock, this
machine's load included), the child's peak memory and its exit code, so the slope is seen. Each
case doubles its size from 1x (about the largest shipped game's count of the thing grown) to
100x; a run over the timeout is stopped and shown as "> N s".

  catalog      a German catalog of N entries naming no text (1x: 1,000 entries)
  paragraphs   one translation of N paragraphs, each with raw HTML (1x: 160)
  references   N cards each naming a symbol that does not exist, among N symbols (1x: 500)
  table-reads  a bot turn of 4N procedures of one step, each reading a 100 x 10 table of
               200-character cells by two states (refused at the first read: the page's cap;
               the issue's page, 4 procedures of 39 such steps, is 39x)
  yaml-depth   a project mkdocs.yml whose site_name is N lists deep (1x: 50), built
  aliases      a project mkdocs.yml of N levels of ten aliases each (1x: 1 level; 8 were 10^8 paths), built

Usage: .venv/bin/python benchmarks/growth.py [--only NAME,...] [--timeout SECONDS] [--steps N]
"""

from __future__ import annotations

import argparse
import os
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
  - {id: solo, name: Solo mode}
kinds:
  - id: card
    name: Card
    plural: Cards
    fields:
      - {id: cost, name: Cost, type: integer, min: 0, max: 9}
sections:
  - {id: setup, title: Setup, module: base, body: "Shuffle the cards."}
"""
PO_HEADER = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'


def catalog(n: int) -> dict[str, str]:
    entries = "".join(f'\nmsgctxt "card:unknown{i}.name"\nmsgid "X{i}"\nmsgstr "Y{i}"\n' for i in range(n))
    return {"demo/translations/de.po": PO_HEADER + entries}


def paragraphs(n: int) -> dict[str, str]:
    text = "\\n\\n".join(f"Absatz {i} <b>x</b>" for i in range(n))
    return {"demo/translations/de.po": PO_HEADER + f'\nmsgctxt "rule:setup.body"\nmsgid "Shuffle the cards."\n'
            f'msgstr "{text}"\n'}


def table_reads(steps: int, procedures: int = 4, rows: int = 100, columns: int = 10, cell: int = 200) -> dict[str, str]:
    """A bot whose every step reads a rows x columns table by two states: every answer is in the page."""
    text = ("word " * (cell // 5 + 1))[:cell].strip()
    heads = "".join(f"      - {{id: c{j}, title: C{j}, type: string}}\n" for j in range(columns))
    body = "".join(f"      - [r{i}" + "".join(f', "{text} {i}.{j}"' for j in range(columns)) + "]\n" for i in range(rows))
    table = ("tables:\n  - id: big\n    title: Big\n    columns:\n      - {id: key, title: Key, type: string}\n"
             f"{heads}    rows:\n{body}")
    procs = []
    for p in range(procedures):
        nodes = "".join(f"      - {{id: s{i}, type: step, text: Step {i}, next: {f's{i + 1}' if i + 1 < steps else 'done'}, "
                        f"reads: {{table: big, row: 'state:row', column: 'state:col', says: '{{value}}'}}}}\n"
                        for i in range(steps))
        procs.append(f"  - id: p{p}\n    title: P{p}\n    start: s0\n    nodes:\n{nodes}"
                     "      - {id: done, type: end, text: Done}\n")
    values = lambda prefix, count: ", ".join(f"{{id: {prefix}{i}, name: {prefix.upper()}{i}}}" for i in range(count))  # noqa: E731
    reading = "status: reading, note: Made up for the benchmark"  # said as a reading, as the check asks
    bot = ("bot:\n  name: the bot\n  state:\n"
           f"    - {{id: row, name: Row, type: enum, values: [{values('r', rows)}], initial: r0, {reading}}}\n"
           f"    - {{id: col, name: Column, type: enum, values: [{values('c', columns)}], initial: c0, {reading}}}\n"
           f"  turn:\n    title: The bot's turn\n    {reading.replace(', ', chr(10) + '    ')}\n    parts:\n"
           + "".join(f"      - {{procedure: p{p}, {reading}}}\n" for p in range(procedures)))
    # the solo rules, in a module of their own that the solo aid holds
    solo = "sections:\n  - {id: solo, title: Solo, module: solo, body: The bot plays.}\n"
    aids = "aids:\n  - aid: solo-aid\n    holds: solo\n    setup:\n      - {show: 'rule:solo'}\n"
    return {"demo/tables.yaml": table, "demo/procedures.yaml": "procedures:\n" + "".join(procs), "demo/bot.yaml": bot,
            "demo/solo.yaml": solo, "demo/aids.yaml": aids}


def references(n: int) -> dict[str, str]:
    """N cards, each naming a symbol that does not exist among N that do."""
    game = GAME.replace("      - {id: cost, name: Cost, type: integer, min: 0, max: 9}\n",
                        "      - {id: cost, name: Cost, type: integer, min: 0, max: 9}\n"
                        "      - {id: symbol, name: Symbol, type: ref, to: symbol}\n"
                        "  - {id: symbol, name: Symbol, plural: Symbols}\n")
    entities = "".join(f"  - {{id: sym{i}, name: Sym {i}, kind: symbol, module: base}}\n"
                       f"  - {{id: card{i}, name: Card {i}, kind: card, module: base, fields: {{cost: 1, symbol: syn{i}}}}}\n"
                       for i in range(n))
    return {"demo/game.yaml": game, "demo/cards.yaml": "entities:\n" + entities}


def yaml_depth(n: int) -> dict[str, str]:
    return {"../mkdocs.yml": "site_name: " + "[" * n + "]" * n + "\n"}


def aliases(n: int) -> dict[str, str]:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]" for k in range(1, n + 1)]
    return {"../mkdocs.yml": "\n".join(lines) + f"\ntheme: {{features: *a{n}}}\n"}


# name: (make the files for a size, the size at 1x, the command)
CASES = {"catalog": (catalog, 1_000, "check"), "paragraphs": (paragraphs, 160, "check"),
         "references": (references, 500, "check"),
         "table-reads": (lambda n: table_reads(1, procedures=4 * n), 1, "check"),
         "yaml-depth": (yaml_depth, 50, "build --no-pdf"), "aliases": (aliases, 1, "build --no-pdf")}


def write(folder: Path, files: dict[str, str]) -> int:
    """The game of one case in `folder`/content: its files' bytes."""
    content = folder / "content"
    (content / "demo").mkdir(parents=True)
    (content / "demo" / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "rules.txt").write_text("", encoding="utf-8")
    size = 0
    for name, text in files.items():
        path = (content / name).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        size += len(text.encode("utf-8"))
    return size


def measure(name: str, factor: int, timeout: float) -> str:
    make, unit, command = CASES[name]
    with tempfile.TemporaryDirectory(prefix=f"rulesmith-growth-{name}-") as folder:
        size = write(Path(folder), make(unit * factor))
        # A fresh interpreter per run: the peak memory read is this run's alone.
        script = ("import resource, subprocess, sys\n"
                  "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
                  "sys.stderr.write(done.stderr)\n"
                  "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
                  "sys.exit(done.returncode)\n")
        args = [RULESMITH, "check", "--no-cache"] if command == "check" else [RULESMITH, *command.split()]
        started = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-c", script, *args], cwd=folder, capture_output=True, text=True,
                                  timeout=timeout, env={**os.environ, "PYTHONHASHSEED": "0"})
        except subprocess.TimeoutExpired:
            return f"{name:12} {factor:4}x {size / 1e6:8.2f} MB   > {timeout:.0f} s (stopped)"
        seconds = time.perf_counter() - started
        peak = done.stdout.strip() or "?"
        problems = [line for line in done.stderr.splitlines() if ": " in line]
        first = ("TRACEBACK " if "Traceback" in done.stderr else "") + (problems[0][:90] if problems else "")
        return (f"{name:12} {factor:4}x {size / 1e6:8.2f} MB {seconds:8.2f} s {peak:>6} MB  exit {done.returncode}"
                f"  {first}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a run is stopped")
    parser.add_argument("--factors", default="1,2,4,8,16,32,64,100", help="the sizes, as multiples of 1x")
    args = parser.parse_args()
    print(f"{'case':12} {'size':>5} {'input':>11} {'time':>10} {'memory':>9}  exit  first line")
    for name in (args.only.split(",") if args.only else CASES):
        for factor in (int(f) for f in args.factors.split(",")):
            print(measure(name, factor, args.timeout), flush=True)


if __name__ == "__main__":
    main()
