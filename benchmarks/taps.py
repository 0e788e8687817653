"""Taps per bot turn: each shipped game's whole turn, played on the Bot turn page's own logic
(templates/site/assets/procedure.js, Turn) with a fixed script of board answers (taps.yaml).

Never part of the test suite's pass/fail: it prints, per game, the taps the turn took (each answer
one tap; ticking an event one more; a loop played at the table one tap for how it ended;
starting the next turn not counted), the questions asked, how
many of those are board questions (only the player can answer them: every one should be), the
answers the page gave itself, and the board questions on that path. Targets (issue 43, a third of
the stepper's taps): Deep State 18, D.E.I. 20, Statecraft 24.

Usage: .venv/bin/python benchmarks/taps.py [--game ID] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(__file__).with_name("taps.yaml")
TARGETS = {"deep-state": 18, "dei": 20, "statecraft": 24}

# The player of the benchmark: at each stop, the answer the script gives, as a log token.
DRIVER = r"""
const { Turn } = require(process.argv[2]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const data = input.data, script = input.script, turn = new Turn(data);
const state = {}; data.state.forEach(v => { state[v.id] = v.initial; });
Object.assign(state, script.state || {});
const used = {}, events = (script.events || []).slice(), log = [], report = { taps: 0, questions: [], given: 0, stops: [] };
function next(key, list) {
  const at = used[key] || 0; used[key] = at + 1;
  return list[Math.min(at, list.length - 1)];
}
for (let guard = 0; guard < 500; guard++) {
  const play = turn.play(state, script.seed || 1, log);
  if (play.valid < log.length) throw new Error("the log went astray at " + log[play.valid]);
  report.given += play.lines.filter(l => l.kind === "answer").length;
  const stop = play.stop;
  report.stops.push(stop.kind);
  if (stop.kind === "end") break;
  let token;
  if (stop.kind === "events") {
    const ids = events.length ? events.shift() : [];
    const ticked = ids.map(id => data.events.findIndex(e => e.id === id));
    if (ticked.some(n => n < 0)) throw new Error("unknown event in the script: " + ids);
    token = "e" + ticked.join("-");
    report.taps += ticked.length;
  } else if (stop.kind === "applies") {
    const part = data.parts[stop.part].procedure;
    token = (script.applies || {})[part] === false ? "s" : "g";
  } else if (stop.kind === "question") {
    const key = stop.procedure + "." + stop.node, node = data.procedures[stop.procedure].nodes[stop.node];
    const answers = (script.answers || {})[key];
    if (!answers) throw new Error("the script has no answer for " + key);
    const label = next(key, answers), branch = node.labels.indexOf(label);
    if (branch < 0) throw new Error(key + ": no branch " + label + " (" + node.labels + ")");
    report.questions.push({ at: key, board: node.asks === "board", answer: label });
    token = String(branch);
  } else if (stop.kind === "loop") {
    const key = stop.procedure + "." + stop.node, proc = data.procedures[stop.procedure], loop = proc.loops[stop.loop];
    const ends = (script.loops || {})[key];
    if (!ends) throw new Error("the script has no end for the loop at " + key);
    const [exitNode, label] = next(key, ends);
    const exit = loop.exits.findIndex(e => e[0] === exitNode && proc.nodes[e[0]].labels[e[1]] === label);
    if (exit < 0) throw new Error(key + ": the loop has no way out at " + exitNode + " " + label);
    report.questions.push({ at: key + " (loop)", board: true, answer: exitNode + ": " + label });
    token = "x" + exit;
  } else if (stop.kind === "call") {
    token = (script.calls || {})[stop.procedure + "." + stop.node] ? "d" : "o";
  } else if (stop.kind === "count") {
    token = "w" + (script.count || 2);
  } else {
    token = "d";
  }
  report.taps += 1;
  log.push(token);
}
console.log(JSON.stringify(report));
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="one game only")
    parser.add_argument("--verbose", action="store_true", help="print each stop")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("taps: node is not installed (scripts/setup installs it)", file=sys.stderr)
        return 1
    sys.path.insert(0, str(ROOT))
    from rulesmith.content.game import load_games
    from rulesmith.problems import Problems
    from rulesmith.site.botturn import companion_data

    scripts = yaml.safe_load(SCRIPT.read_text(encoding="utf-8"))
    games = {g.id: g for g in load_games(ROOT / "content", Problems()) if g.bot is not None}
    failed = False
    print(f"{'game':<12} {'taps':>5} {'target':>7} {'asked':>6} {'board':>6} {'answered by the page':>21}")
    for game_id in sorted(games):
        if args.game and game_id != args.game:
            continue
        feed = json.dumps({"data": companion_data(games[game_id]), "script": scripts[game_id]})
        with tempfile.TemporaryDirectory() as folder:
            driver = Path(folder) / "driver.js"
            driver.write_text(DRIVER, encoding="utf-8")
            run = subprocess.run([node, str(driver), str(ROOT / "templates" / "site" / "assets" / "procedure.js")],
                                 input=feed, capture_output=True, text=True, timeout=120, check=False)
        if run.returncode != 0:
            print(f"{game_id:<12} failed: " + "\n".join(line for line in run.stderr.splitlines() if "Error" in line)[:500])
            failed = True
            continue
        report = json.loads(run.stdout)
        questions = report["questions"]
        board = [q for q in questions if q["board"]]
        print(f"{game_id:<12} {report['taps']:>5} {TARGETS.get(game_id, '-'):>7} {len(questions):>6} {len(board):>6} "
              f"{report['given']:>21}")
        print("  board questions on this path: " + ", ".join(f"{q['at']} ({q['answer']})" for q in board))
        if args.verbose:
            print("  stops: " + " ".join(report["stops"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
