// The procedure interpreter (templates/site/assets/procedure.js), which the walker and the Bot turn
// companion share, tested on its own with `node --test` (tests/test_procedure_js.py runs it in the
// unit tier). The pages are tested in Chromium (tests/test_walker.py, tests/test_bot_turn.py).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const { Interpreter, addresses } = require(path.join(__dirname, "..", "..", "templates", "site", "assets", "procedure.js"));

// A bot turn: find how many beacons to place, place one at a time (a call), until there are enough.
const GRAPH = {
  state: [
    { id: "level", values: [["easy", "Easy"], ["hard", "Hard"]] },
    { id: "phase", values: [["1", "1"], ["2", "2"], ["3", "3"]] },
    { id: "turn", values: [["1", "1"], ["2", "2"]] },
  ],
  procedures: {
    turn: {
      title: "The bot's turn",
      start: "count",
      nodes: {
        count: {
          type: "step", next: "place",
          reads: { table: "beacons", inputs: ["level"], answers: [[{ level: "easy" }, "2"], [{ level: "hard" }, "3"]] },
        },
        place: { type: "step", next: "enough", call: { procedure: "beacon", optional: false } },
        enough: {
          type: "decision", branches: ["end", "place"],
          tally: { node: "place", label: "Beacons placed this turn", of: "count" },
        },
        end: { type: "end" },
      },
    },
    beacon: {
      title: "Place a beacon",
      start: "put",
      nodes: {
        put: { type: "step", next: "over" },
        over: { type: "end" },
      },
    },
    phase: {
      title: "The phase",
      start: "roll",
      nodes: {
        roll: {
          type: "step", next: "scout",
          reads: { table: "gains", inputs: ["roll", "level"], answers: [[{ roll: "6", level: "easy" }, "3"]] },
        },
        scout: { type: "step", next: "which", call: { procedure: "beacon", optional: true } },
        which: {
          type: "decision", branches: ["done", "done"],
          sets: [{ state: "phase", to: "next", carry: "turn" }],
        },
        done: { type: "end" },
      },
    },
  },
};
const SEQUENCE = ["turn", "phase"];
const START = { level: "easy", phase: "1", turn: "1" };

function play(interpreter, walk, moves) {
  for (const move of moves) {
    const next = interpreter.move(walk, move);
    assert.ok(next, `the move ${move} at ${interpreter.here(walk).node} leads nowhere`);
    walk = next;
  }
  return walk;
}

test("a walk starts at its procedure's start, with a copy of the state", () => {
  const interpreter = new Interpreter(GRAPH);
  const state = { ...START };
  const walk = interpreter.start("turn", state);
  assert.deepEqual(walk.frames, [{ procedure: "turn", node: "count", passed: {}, facts: {}, event: null, ended: null, endedIn: null }]);
  walk.vars.level = "hard";
  assert.equal(state.level, "easy");
  assert.equal(interpreter.start("nowhere", START), null);
});

test("the moves offered: done, a branch each, on without an optional call, back from a called end", () => {
  const interpreter = new Interpreter(GRAPH);
  const turn = interpreter.start("turn", START);
  assert.deepEqual(interpreter.moves(turn), ["d"]);
  assert.deepEqual(interpreter.moves(play(interpreter, turn, ["d", "d"])), ["d"]); // the called procedure's first step
  assert.deepEqual(interpreter.moves(play(interpreter, turn, ["d", "d", "d"])), ["d"]); // its end: back to the caller
  assert.deepEqual(interpreter.moves(play(interpreter, turn, ["d", "d", "d", "d"])), ["0", "1"]);
  assert.deepEqual(interpreter.moves(play(interpreter, turn, ["d", "d", "d", "d", "0"])), []); // the outermost end
  const phase = interpreter.start("phase", START);
  assert.deepEqual(interpreter.moves(play(interpreter, phase, ["d"])), ["d", "o"]);
});

test("a move that does not lead on from here is refused", () => {
  const interpreter = new Interpreter(GRAPH);
  const turn = interpreter.start("turn", START);
  for (const move of ["0", "o", "~", "x", "", "01"]) assert.equal(interpreter.move(turn, move), null, move);
  const enough = play(interpreter, turn, ["d", "d", "d", "d"]);
  for (const move of ["2", "-1", "d", "00", "1.0"]) assert.equal(interpreter.move(enough, move), null, move);
  const end = interpreter.move(enough, "0");
  assert.equal(interpreter.move(end, "d"), null); // the outermost end: what follows is the page's
});

test("a call is entered and returned from, after the calling step", () => {
  const interpreter = new Interpreter(GRAPH);
  const inside = play(interpreter, interpreter.start("turn", START), ["d", "d"]);
  assert.deepEqual(inside.frames.map(f => [f.procedure, f.node]), [["turn", "place"], ["beacon", "put"]]);
  assert.ok(interpreter.called(inside));
  const back = play(interpreter, inside, ["d", "d"]);
  assert.deepEqual(back.frames.map(f => [f.procedure, f.node]), [["turn", "enough"]]);
  assert.ok(!interpreter.called(back));
});

test("a tally counts each call once, not again when the call returns (issue 35)", () => {
  const interpreter = new Interpreter(GRAPH);
  let walk = play(interpreter, interpreter.start("turn", START), ["d", "d", "d", "d"]); // count, place (enter), put, back
  assert.deepEqual(interpreter.tally(walk), { label: "Beacons placed this turn", count: 1, of: "2" });
  walk = play(interpreter, walk, ["1", "d", "d", "d"]); // not enough: place another
  assert.deepEqual(interpreter.tally(walk), { label: "Beacons placed this turn", count: 2, of: "2" });
  const hard = play(interpreter, interpreter.start("turn", { ...START, level: "hard" }), ["d", "d", "d", "d"]);
  assert.deepEqual(interpreter.tally(hard), { label: "Beacons placed this turn", count: 1, of: "3" });
  assert.equal(interpreter.tally(interpreter.start("turn", START)), null); // a node without a count
});

test("a tally counts in its own run of the procedure", () => {
  const interpreter = new Interpreter(GRAPH);
  const walk = play(interpreter, interpreter.start("turn", START), ["d", "d", "d", "d"]);
  const again = interpreter.start("turn", walk.vars); // the part played again: a new run
  assert.equal(play(interpreter, again, ["d"]).frames[0].passed.place, undefined);
  assert.equal(walk.frames[0].passed.place, 1);
});

test("a move leaves the walk it is given as it was", () => {
  const interpreter = new Interpreter(GRAPH);
  const walk = play(interpreter, interpreter.start("turn", START), ["d", "d", "d", "d"]);
  const before = JSON.stringify(walk);
  play(interpreter, walk, ["1", "d", "d", "d"]);
  assert.equal(JSON.stringify(walk), before);
});

test("a node's state changes apply when it is left; next carries into another state", () => {
  const interpreter = new Interpreter(GRAPH);
  const which = play(interpreter, interpreter.start("phase", START), ["d", "o"]);
  assert.deepEqual(interpreter.move(which, "1").vars, { level: "easy", phase: "2", turn: "1" });
  const last = interpreter.start("phase", { level: "easy", phase: "3", turn: "1" });
  assert.deepEqual(play(interpreter, last, ["d", "o", "0"]).vars, { level: "easy", phase: "1", turn: "2" });
  assert.deepEqual(interpreter.change({ turn: "2" }, [{ state: "turn", to: "next", carry: null }]),
                   { vars: { turn: "2" }, goesOn: false, ended: "turn" });
  assert.deepEqual(interpreter.change({ level: "easy" }, [{ state: "level", to: "hard", carry: null }]),
                   { vars: { level: "hard" }, goesOn: true, ended: null });
});

test("a table answer needs every input: the roll once it is rolled", () => {
  const interpreter = new Interpreter(GRAPH);
  const roll = GRAPH.procedures.phase.nodes.roll;
  assert.equal(interpreter.read(roll, START, null), null);
  assert.deepEqual(interpreter.read(roll, START, "6"), { value: "3", inputs: { roll: "6", level: "easy" } });
  assert.equal(interpreter.read(roll, START, "5"), null); // no case matches
  assert.equal(interpreter.read(GRAPH.procedures.phase.nodes.done, START, "6"), null); // reads no table
});

test("the move to a node: a branch, done, on without an optional call; never through a call", () => {
  const interpreter = new Interpreter(GRAPH);
  const turn = interpreter.start("turn", START);
  assert.equal(interpreter.moveTo(turn, "place"), "d");
  assert.equal(interpreter.moveTo(turn, "enough"), null);
  assert.equal(interpreter.moveTo(interpreter.move(turn, "d"), "enough"), null); // a call must be entered
  const enough = play(interpreter, turn, ["d", "d", "d", "d"]);
  assert.equal(interpreter.moveTo(enough, "place"), "1");
  assert.equal(interpreter.moveTo(enough, "end"), "0");
  const scout = play(interpreter, interpreter.start("phase", START), ["d"]);
  assert.equal(interpreter.moveTo(scout, "which"), "o");
  assert.equal(interpreter.moveTo(play(interpreter, scout, ["o"]), "done"), "0"); // two branches to one node: the first
});

test("a walker's run: the trail of its address, with the next procedure of its sequence", () => {
  const interpreter = new Interpreter(GRAPH);
  const run = interpreter.run("turn", ["d", "d", "d", "d", "0", "~", "d"], SEQUENCE);
  assert.equal(run.valid, 7);
  assert.equal(addresses.walk.format(run.trail), "#walk=turn.count.place+beacon.put.over,turn.enough.end~phase.roll.scout");
  const cut = interpreter.run("turn", ["d", "~", "d"], SEQUENCE); // "~" before the end: cut there
  assert.equal(cut.valid, 1);
  assert.equal(addresses.walk.format(cut.trail), "#walk=turn.count.place");
  const last = interpreter.run("phase", ["d", "o", "0", "~"], SEQUENCE); // nothing follows the last
  assert.equal(last.valid, 3);
});

test("a walker's address gives back the moves that made it", () => {
  const interpreter = new Interpreter(GRAPH);
  for (const moves of [[], ["d"], ["d", "d"], ["d", "d", "d", "d", "1", "d"], ["d", "d", "d", "d", "0", "~", "d", "o", "0"],
                       ["d", "d", "d", "d", "0", "~", "d", "d", "d", "d"]]) {
    const address = addresses.walk.format(interpreter.run("turn", moves, SEQUENCE).trail);
    assert.deepEqual(interpreter.follow(addresses.walk.parse(address), SEQUENCE), { first: "turn", moves: moves }, address);
  }
  // two branches to one node: the address names the node, which the first of them reaches
  const both = addresses.walk.format(interpreter.run("phase", ["d", "o", "1"], SEQUENCE).trail);
  assert.equal(both, "#walk=phase.roll.scout.which.done");
  assert.deepEqual(interpreter.follow(addresses.walk.parse(both), SEQUENCE), { first: "phase", moves: ["d", "o", "0"] });
});

test("an address that goes astray gives the longest walk it describes", () => {
  const interpreter = new Interpreter(GRAPH);
  const follow = hash => {
    const trail = addresses.walk.parse(hash);
    return trail && interpreter.follow(trail, SEQUENCE);
  };
  assert.deepEqual(follow("#walk=turn.place"), { first: "turn", moves: ["d"] }); // the start left out
  assert.deepEqual(follow("#walk=turn.count.enough.end"), { first: "turn", moves: [] });
  assert.deepEqual(follow("#walk=turn.count.place+phase.roll"), { first: "turn", moves: ["d"] }); // not the call
  assert.deepEqual(follow("#walk=turn.count.place,turn.enough"), { first: "turn", moves: ["d"] }); // no call to return from
  assert.deepEqual(follow("#walk=turn.count~phase"), { first: "turn", moves: [] }); // not at the end
  assert.deepEqual(follow("#walk=turn.count.place+beacon.put.over,turn.enough.end~turn"),
                   { first: "turn", moves: ["d", "d", "d", "d", "0"] }); // not the next of the sequence
  assert.deepEqual(follow("#walk=phase.roll.nowhere.scout"), { first: "phase", moves: [] });
  assert.deepEqual(follow("#walk=turn.count.pl%61ce"), { first: "turn", moves: ["d"] }); // escaped
  for (const hash of ["", "#", "#walk=", "#walk=beacon.put", "#walk=nowhere", "#walk=+beacon.put", "#bot&log=d",
                      "#%", "#walk=%E0%A4%A", "#%zz", "#a-heading"]) {
    assert.equal(follow(hash), null, hash); // none of the walker's: a called procedure is never the first
  }
});

test("the Bot turn's address: its state, seed and log", () => {
  const interpreter = new Interpreter(GRAPH);
  const saved = { state: { level: "hard", phase: "2", turn: "1" }, seed: 42, log: ["e0-1", "d", "0", "r4"], bot: 1 };
  const address = addresses.turn.format(saved, GRAPH.state);
  assert.equal(address, "#bot&state=level:hard,phase:2,turn:1&seed=42&log=e0-1.d.0.r4");
  assert.deepEqual(addresses.turn.parse(address), saved);
  const second = { ...saved, bot: 2 }; // a second bot of the same game: its own place
  assert.equal(addresses.turn.format(second, GRAPH.state), "#bot&bot=2&state=level:hard,phase:2,turn:1&seed=42&log=e0-1.d.0.r4");
  assert.deepEqual(addresses.turn.parse(addresses.turn.format(second, GRAPH.state)), second);
  assert.deepEqual(addresses.turn.parse("#bot&state=level:easy,phase:1,turn:1&log="),
                   { state: { level: "easy", phase: "1", turn: "1" }, seed: 1, log: [], bot: 1 });
  assert.ok(interpreter.isState(saved.state));
  assert.ok(!interpreter.isState({ level: "hard", phase: "4", turn: "1" }));
  assert.ok(!interpreter.isState({ level: "hard", phase: "2" }));
  for (const hash of ["", "#walk=turn.count", "#%", "#bots&state="]) assert.equal(addresses.turn.parse(hash), null, hash);
});

// ------------------------------------------------------------ the bot's turn, played (Turn)

const { Turn } = require(path.join(__dirname, "..", "..", "templates", "site", "assets", "procedure.js"));

// A turn of three parts: one always (a table read by the state, a decision the state answers, a
// board question, a call whose end answers the next question, a count), one that may not apply
// (a die rolled until it is not a 6), one on the turn's events (a tie broken by drawn tokens).
const TURN = {
  state: [{ id: "level", values: [["easy", "Easy"], ["hard", "Hard"]], initial: "easy" }],
  decks: { tokens: { name: "Tokens", cards: ["1", "2", "3", "4", "5"] } },
  events: [{ id: "bell", name: "The bell rang" }, { id: "horn", name: "The horn blew" }],
  parts: [
    { procedure: "act", only: {}, events: [], skip: false, repeat: null },
    { procedure: "dice", only: {}, events: [], skip: true, repeat: null },
    { procedure: "tie", only: {}, events: ["bell", "horn"], skip: false, repeat: "Again" },
  ],
  procedures: {
    act: { title: "Act", start: "count", nodes: {
      count: { type: "step", next: "hard", reads: { table: "t", inputs: ["level"], answers: [[{ level: "easy" }, "2"], [{ level: "hard" }, "3"]] } },
      hard: { type: "decision", branches: ["extra", "look"], labels: ["Yes", "No"],
              given: [{ source: "state", state: { level: ["hard"] } }, { source: "state", state: { level: ["easy"] } }] },
      extra: { type: "step", next: "look" },
      look: { type: "decision", asks: "board", branches: ["try", "place"], labels: ["Yes", "No"] },
      try: { type: "step", next: "worked", call: { procedure: "attempt", optional: false } },
      worked: { type: "decision", branches: ["place", "look"], labels: ["Yes", "No"],
                given: [{ source: "ended", is: ["won"] }, { source: "ended", is: ["lost"] }] },
      place: { type: "step", next: "enough" },
      enough: { type: "decision", branches: ["done", "look"], labels: ["Yes", "No"], tally: { node: "place", label: "Placed", of: "count" },
                given: [{ source: "count", count: "reached" }, { source: "count", count: "below" }] },
      done: { type: "end" } } },
    attempt: { title: "Attempt", start: "can", nodes: {
      can: { type: "decision", asks: "board", branches: ["won", "lost"], labels: ["Yes", "No"] },
      won: { type: "end" }, lost: { type: "end" } } },
    dice: { title: "Dice", start: "roll", nodes: {
      roll: { type: "step", next: "six", roll: { dice: 1, sides: 6, reroll: true } },
      six: { type: "decision", branches: ["roll", "done"], labels: ["Yes", "No"],
             given: [{ source: "roll", step: "roll", is: ["6"] }, { source: "otherwise" }] },
      done: { type: "end" } } },
    tie: { title: "Tie", start: "which", nodes: {
      which: { type: "decision", branches: ["draw", "done"], labels: ["The bell", "The horn"],
               given: [{ source: "event", is: ["bell"] }, { source: "event", is: ["horn"] }] },
      draw: { type: "step", next: "done", draw: { deck: "tokens", count: 2, upTo: 4, wins: "highest" } },
      done: { type: "end" } } },
  },
};

function kinds(lines) {
  return lines.map((l) => l.kind + (l.node ? ":" + l.node : ""));
}

test("the page answers what it holds, with its reason, and stops at the first board question", () => {
  const turn = new Turn(TURN);
  const play = turn.play({ level: "hard" }, 3, []);
  assert.equal(play.stop.kind, "question");
  assert.equal(play.stop.node, "look");
  assert.deepEqual(kinds(play.lines), ["part", "step:count", "answer:hard", "step:extra"]);
  assert.equal(play.lines[1].read.value, "3");
  assert.deepEqual(play.lines[2], { kind: "answer", procedure: "act", node: "hard", branch: 0, why: { state: [["level", "hard"]] } });
  assert.deepEqual(kinds(turn.play({ level: "easy" }, 3, []).lines), ["part", "step:count", "answer:hard"]);
});

test("the end a called procedure reached and a count reaching its number answer the questions after them", () => {
  const turn = new Turn(TURN);
  let play = turn.play({ level: "easy" }, 3, ["0", "0"]); // a board question, Yes; in the call, Yes: won
  assert.equal(play.stop.node, "look"); // placed 1 of 2: below, back to the question
  const answers = play.lines.filter((l) => l.kind === "answer");
  assert.deepEqual(answers.map((l) => [l.node, l.branch]), [["worked", 0], ["enough", 1]]);
  assert.deepEqual(answers[0].why, { ended: "won", procedure: "attempt" });
  assert.deepEqual(answers[1].why.count, { label: "Placed", count: 1, of: "2" });
  play = turn.play({ level: "easy" }, 3, ["0", "0", "0", "1"]); // second time: lost, so ask again
  assert.equal(play.stop.node, "look");
  assert.deepEqual(play.lines.filter((l) => l.kind === "answer").map((l) => [l.node, l.branch]), [["worked", 1]]);
  play = turn.play({ level: "easy" }, 3, ["0", "0", "1"]); // No: place, 2 of 2, the part's end
  assert.equal(play.stop.kind, "confirm");
  assert.equal(play.stop.end, true);
  assert.deepEqual(kinds(play.lines), ["asked:look", "step:place", "answer:enough", "end:done"]);
});

test("a part that may not apply is asked once; a loop of the page's own rolls is one screen a round", () => {
  const turn = new Turn(TURN);
  const before = ["0", "0", "1", "d"];
  let play = turn.play({ level: "easy" }, 3, before);
  assert.equal(play.stop.kind, "applies");
  assert.equal(turn.play({ level: "easy" }, 3, before.concat(["s"])).lines[0].why, "player");
  for (let seed = 1; seed < 60; seed++) {
    play = turn.play({ level: "easy" }, seed, before.concat(["g"]));
    const rolls = play.lines.filter((l) => l.roll !== undefined);
    assert.equal(rolls.length, 1, "one roll a screen");
    const six = play.lines.find((l) => l.node === "six");
    assert.equal(six.branch, rolls[0].roll === 6 ? 0 : 1);
    assert.equal(play.stop.kind, "confirm");
    assert.equal(play.stop.loop === true, rolls[0].roll === 6);
    assert.deepEqual(play.stop.roll, { index: rolls[0].rollIndex, reroll: true, min: 1, max: 6 });
  }
});

test("rolling again plays the screen again with another roll, and replaces the roll in the log", () => {
  const turn = new Turn(TURN);
  const log = ["0", "0", "1", "d", "g"];
  const faces = new Set();
  for (let n = 0; n < 12; n++) {
    const play = turn.play({ level: "easy" }, 5, n ? log.concat(["r" + n]) : log);
    assert.equal(play.valid, log.length + (n ? 1 : 0));
    faces.add(play.lines.find((l) => l.roll !== undefined).roll);
  }
  assert.ok(faces.size > 2, "rolling again rolls another die");
  assert.equal(turn.play({ level: "easy" }, 5, ["r1"]).valid, 0, "no roll on the screen: nothing to roll again");
  const table = turn.play({ level: "easy" }, 5, log.concat(["r3", "f6"])); // rolled at the table: a 6, so again
  assert.deepEqual([table.valid, table.lines[1].roll, table.lines[1].atTable, table.lines[2].branch], [7, 6, true, 0]);
  assert.equal(turn.play({ level: "easy" }, 5, log.concat(["f7"])).valid, log.length, "a face the die does not have");
});

test("the turn's events are asked once; each part runs once for each of its events that happened", () => {
  const turn = new Turn(TURN);
  const before = ["0", "0", "1", "d", "s"];
  let play = turn.play({ level: "easy" }, 3, before);
  assert.deepEqual([play.stop.kind, play.stop.events], ["events", [0, 1]]);
  play = turn.play({ level: "easy" }, 3, before.concat(["e1"])); // the horn only
  assert.deepEqual(kinds(play.lines), ["part", "answer:which", "end:done"]);
  assert.deepEqual(play.lines[1].why, { event: "horn" });
  assert.equal(play.stop.again, true);
  play = turn.play({ level: "easy" }, 3, before.concat(["e"]));
  assert.equal(play.stop.kind, "end");
  assert.deepEqual(play.lines, [{ kind: "skip", part: 2, why: "event" }]);
  play = turn.play({ level: "easy" }, 3, before.concat(["e0-1"])); // both: the bell's run first
  assert.equal(play.stop.kind, "count");
  play = turn.play({ level: "easy" }, 3, before.concat(["e0-1", "w3"]));
  const drawn = play.lines.find((l) => l.drawn);
  assert.equal(drawn.drawn.length, 3);
  assert.equal(drawn.winner, String(Math.max(...drawn.drawn.map(Number))));
  assert.equal(turn.play({ level: "easy" }, 3, before.concat(["e0-1", "w9"])).valid, before.length + 1, "at most up_to");
  play = turn.play({ level: "easy" }, 3, before.concat(["e0-1", "w3", "d"]));
  assert.deepEqual(play.lines[1].why, { event: "horn" }, "then the horn's run");
});

test("more tied than the deck holds: no draw, a line saying so, and the turn goes on (issue 43)", () => {
  const before = ["0", "0", "1", "d", "s", "e0"];
  assert.equal(new Turn(TURN).play({ level: "easy" }, 3, before.concat(["wm"])).valid, before.length,
               "not offered while every tied one can be drawn for");
  const all = JSON.parse(JSON.stringify(TURN));
  all.procedures.tie.nodes.draw.draw.upTo = 5; // every token of the deck
  const play = new Turn(all).play({ level: "easy" }, 3, before.concat(["wm"]));
  assert.equal(play.valid, before.length + 1);
  const line = play.lines.find((l) => l.node === "draw");
  assert.deepEqual([line.beyond, line.drawn], [5, undefined]);
  assert.equal(play.stop.kind, "confirm");
});

test("an answer a stop does not offer cuts the log there", () => {
  const turn = new Turn(TURN);
  assert.equal(turn.play({ level: "easy" }, 3, ["7"]).valid, 0);
  assert.equal(turn.play({ level: "easy" }, 3, ["0", "d"]).valid, 1);
  assert.equal(turn.play({ level: "easy" }, 3, ["0", "0", "1", "x"]).valid, 3);
});

// A loop played at the table (rulesmith/content/turn.py: table_loops): a cycle of steps and board
// questions, one screen, asked once how it ended.
const LOOP = {
  state: [{ id: "level", values: [["easy", "Easy"], ["hard", "Hard"]], initial: "easy" }],
  decks: {},
  events: [],
  parts: [{ procedure: "pay", only: {}, events: [], skip: false, repeat: null }],
  procedures: {
    pay: { title: "Pay", start: "place", loops: [{ nodes: ["more", "has", "discard", "power"], exits: [["more", 1], ["has", 1]] }],
      nodes: {
        place: { type: "step", next: "more" },
        more: { type: "decision", asks: "board", branches: ["has", "done"], labels: ["Yes", "No"], loop: 0 },
        has: { type: "decision", asks: "board", branches: ["discard", "broke"], labels: ["Yes", "No"], loop: 0 },
        discard: { type: "step", next: "power", loop: 0 },
        power: { type: "step", next: "more", loop: 0 },
        done: { type: "end" },
        broke: { type: "end" } } },
  },
};

test("a loop played at the table is one screen: its steps are not walked, the player says once how it ended", () => {
  const turn = new Turn(LOOP);
  let play = turn.play({ level: "easy" }, 3, []);
  assert.deepEqual([play.stop.kind, play.stop.procedure, play.stop.node, play.stop.loop], ["loop", "pay", "more", 0]);
  assert.deepEqual(kinds(play.lines), ["part", "step:place"], "the steps before it, then the loop as one stop");
  play = turn.play({ level: "easy" }, 3, ["x1"]); // out at the second way: "has" answered No
  assert.equal(play.valid, 1);
  assert.deepEqual([play.stop.kind, play.stop.end], ["confirm", true]);
  assert.deepEqual(play.lines[0], { kind: "looped", procedure: "pay", loop: 0, exit: 1 });
  assert.deepEqual(kinds(play.lines), ["looped", "end:broke"]);
  assert.deepEqual(kinds(turn.play({ level: "easy" }, 3, ["x0"]).lines), ["looped", "end:done"]);
  for (const token of ["x2", "0", "d", "x"]) assert.equal(turn.play({ level: "easy" }, 3, [token]).valid, 0, token);
});

test("leaving a loop: only from inside one, by one of its ways out, the decision passed once", () => {
  const interpreter = new Interpreter(LOOP);
  const walk = interpreter.start("pay", { level: "easy" });
  assert.equal(interpreter.leave(walk, 0), null, "not in the loop yet");
  const inside = interpreter.move(walk, "d");
  const out = interpreter.leave(inside, 0);
  assert.deepEqual([interpreter.here(out).node, interpreter.here(out).passed.more], ["done", 1]);
  assert.equal(interpreter.here(inside).node, "more", "the walk it is given stays as it was");
  assert.equal(interpreter.leave(inside, 5), null);
});
