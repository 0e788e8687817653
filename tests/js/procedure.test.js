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
  assert.deepEqual(walk.frames, [{ procedure: "turn", node: "count", passed: {} }]);
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
                   { vars: { turn: "2" }, goesOn: false });
  assert.deepEqual(interpreter.change({ level: "easy" }, [{ state: "level", to: "hard", carry: null }]),
                   { vars: { level: "hard" }, goesOn: true });
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
  const saved = { state: { level: "hard", phase: "2", turn: "1" }, seed: 42, log: ["g", "d", "0", "r4n1"] };
  const address = addresses.turn.format(saved, GRAPH.state);
  assert.equal(address, "#bot&state=level:hard,phase:2,turn:1&seed=42&log=g.d.0.r4n1");
  assert.deepEqual(addresses.turn.parse(address), saved);
  assert.deepEqual(addresses.turn.parse("#bot&state=level:easy,phase:1,turn:1&log="),
                   { state: { level: "easy", phase: "1", turn: "1" }, seed: 1, log: [] });
  assert.ok(interpreter.isState(saved.state));
  assert.ok(!interpreter.isState({ level: "hard", phase: "4", turn: "1" }));
  assert.ok(!interpreter.isState({ level: "hard", phase: "2" }));
  for (const hash of ["", "#walk=turn.count", "#%", "#bots&state="]) assert.equal(addresses.turn.parse(hash), null, hash);
});
