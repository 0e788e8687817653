/* Rulesmith: the procedure interpreter (issue 35), one for the procedure pages' walker (walker.js)
 * and the Bot turn companion (botturn.js): where a reader is in a game's procedures (the call stack,
 * the bot's state, the counts a question keeps), which moves lead on from there, and the page
 * addresses that keep the place. Pure functions over data, nothing of the page: the two scripts draw
 * what it says, and tests/js/procedure.test.js tests it with `node --test`.
 *
 * The graph: {procedures: {id: {title, start, nodes: {id: node}}}, state: [{id, values: [[value,
 * name] …]}]}, a node being {type: "step" | "decision" | "end", next, branches: [node id …],
 * call: {procedure, optional}, sets, tally, reads …} (rulesmith/site/botturn.py gives it to the
 * companion; the walker reads the same from its page).
 *
 * A walk: {frames: [{procedure, node, passed: {node id: times}}], vars: {state id: value}}, the
 * outermost procedure first. A move gives a new walk and leaves the one it is given as it was.
 * The moves (the Bot turn page's address keeps them as they are):
 *   "0", "1" …  a decision's branch;
 *   "d"         done: a step goes on to its next; a step that calls a procedure enters it; the end
 *               of a called procedure returns to the step after the call;
 *   "o"         on without an optional call.
 * The end of the outermost procedure leads nowhere here: what follows is the page's (the next
 * procedure of a walker's sequence, "~" in run(); the next part of the bot's turn).
 * A move depends on the walk alone (its state included), so a question the state answers can be
 * answered here from the walk, beside moves().
 *
 * Plain script, no dependencies: a page loads it after place.js (the bundle walking.js,
 * rulesmith/commands/build.py); node loads it as a module.
 */
var rulesmithProcedure = (function () {
  "use strict";

  function Interpreter(graph) {
    this.procedures = graph.procedures;
    this.state = graph.state || [];
    this.variables = {};
    for (var i = 0; i < this.state.length; i++) this.variables[this.state[i].id] = this.state[i];
  }

  function top(walk) {
    return walk.frames[walk.frames.length - 1];
  }

  function copy(walk) {
    return {
      frames: walk.frames.map(function (f) {
        return { procedure: f.procedure, node: f.node, passed: Object.assign({}, f.passed),
                 facts: Object.assign({}, f.facts), event: f.event || null, ended: f.ended || null, endedIn: f.endedIn || null };
      }),
      vars: Object.assign({}, walk.vars)
    };
  }

  /* The walk at the start of a procedure (null for one the graph does not hold); `event`: the
     turn's event this run is for (a part's, or a call's). A frame keeps what the page made or
     learnt in it: facts (a step's roll, table answer or winning card, by step), the end the last
     procedure it called reached (ended). */
  Interpreter.prototype.start = function (procedure, vars, event) {
    var found = Object.prototype.hasOwnProperty.call(this.procedures, procedure) ? this.procedures[procedure] : null;
    return found && { frames: [{ procedure: procedure, node: found.start, passed: {}, facts: {}, event: event || null, ended: null, endedIn: null }],
                      vars: Object.assign({}, vars) };
  };

  /* The innermost procedure's place: {procedure, node, passed}. */
  Interpreter.prototype.here = top;

  /* The node the walk stands on. */
  Interpreter.prototype.node = function (walk) {
    var at = top(walk);
    return this.procedures[at.procedure].nodes[at.node];
  };

  /* Whether the walk is inside a called procedure. */
  Interpreter.prototype.called = function (walk) {
    return walk.frames.length > 1;
  };

  /* The moves that lead on from here, in the order a page offers them. */
  Interpreter.prototype.moves = function (walk) {
    var node = this.node(walk);
    if (node.type === "decision") return node.branches.map(function (to, i) { return String(i); });
    if (node.type === "end") return this.called(walk) ? ["d"] : [];
    return node.call && node.call.optional ? ["d", "o"] : ["d"];
  };

  /* The walk after a move, or null where the move does not lead on from here. A node is passed
     once when it is left (a tally counts it): a step that calls a procedure when the call is
     entered, not again when it returns. */
  Interpreter.prototype.move = function (walk, move) {
    var node = this.node(walk);
    if (this.moves(walk).indexOf(move) < 0) return null;
    var next = copy(walk), at = top(next);
    if (node.type === "end") {
      var ended = next.frames.pop();
      var caller = top(next);
      caller.ended = ended.node;
      caller.endedIn = ended.procedure;
      caller.node = this.procedures[caller.procedure].nodes[caller.node].next;
      return next;
    }
    if (move === "d" && node.call && !Object.prototype.hasOwnProperty.call(this.procedures, node.call.procedure)) return null;
    next.vars = this.change(next.vars, node.sets || []).vars;
    at.passed[at.node] = (at.passed[at.node] || 0) + 1;
    if (node.type === "decision") {
      at.node = node.branches[Number(move)];
    } else if (move === "d" && node.call) {
      next.frames.push(this.start(node.call.procedure, {}, node.call.event).frames[0]);
    } else {
      at.node = node.next;
    }
    return next;
  };

  /* The walk after a loop played at the table (rulesmith/content/turn.py: table_loops), left by its
     exit number `exit` ({nodes, exits: [[decision, branch] …]} of the procedure's `loops`): on at
     that branch's node, the decision passed once; or null where the walk is not in a loop or it
     has no such exit. */
  Interpreter.prototype.leave = function (walk, exit) {
    var node = this.node(walk), at = top(walk), procedure = this.procedures[at.procedure];
    var loop = node.loop !== undefined && procedure.loops ? procedure.loops[node.loop] : null;
    if (!loop || !(exit >= 0 && exit < loop.exits.length)) return null;
    var next = copy(walk), here = top(next), way = loop.exits[exit], decision = procedure.nodes[way[0]];
    here.passed[way[0]] = (here.passed[way[0]] || 0) + 1;
    here.node = decision.branches[way[1]];
    return next;
  };

  /* The move that goes from here to another node of the same procedure (a walker's address names
     the nodes passed), or null where none does. */
  Interpreter.prototype.moveTo = function (walk, target) {
    var node = this.node(walk);
    if (node.type === "decision") {
      var i = node.branches.indexOf(target);
      return i < 0 ? null : String(i);
    }
    if (node.type !== "step" || node.next !== target) return null;
    if (!node.call) return "d";
    return node.call.optional ? "o" : null;
  };

  /* The procedure that follows the outermost one in a sequence, once it has ended; else null. */
  Interpreter.prototype.following = function (walk, sequence) {
    if (this.called(walk) || this.node(walk).type !== "end") return null;
    var at = sequence.indexOf(walk.frames[0].procedure);
    return at >= 0 && at + 1 < sequence.length ? sequence[at + 1] : null;
  };

  /* A walker's walk through a sequence of procedures, replayed from the start of `first`: the moves
     above and "~" (on to the procedure that follows, in `sequence`). Returns the walk the moves
     lead to, how many of them held (the rest is cut) and the trail for the page address: one
     segment per procedure walked, {how: "" (the first) | "~" | "+" (entered) | "," (returned to),
     procedure, nodes: the nodes passed in it, the one it was met at first}. */
  Interpreter.prototype.run = function (first, moves, sequence) {
    var walk = this.start(first, {}), trail = [{ how: "", procedure: first, nodes: [top(walk).node] }], valid = 0;
    for (; valid < moves.length; valid++) {
      var move = moves[valid], next;
      if (move === "~") {
        var following = this.following(walk, sequence);
        next = following && this.start(following, walk.vars);
      } else {
        next = this.move(walk, move);
      }
      if (!next) break;
      var how = move === "~" ? "~" : next.frames.length > walk.frames.length ? "+" : next.frames.length < walk.frames.length ? "," : "";
      if (how) trail.push({ how: how, procedure: top(next).procedure, nodes: [top(next).node] });
      else trail[trail.length - 1].nodes.push(top(next).node);
      walk = next;
    }
    return { walk: walk, valid: valid, trail: trail };
  };

  /* The moves of the longest walk a trail describes (addresses.walk.parse): {first, moves}, or null
     where it describes no walk of this sequence. A segment's first node may be left out. */
  Interpreter.prototype.follow = function (trail, sequence) {
    if (!trail.length || trail[0].how !== "" || sequence.indexOf(trail[0].procedure) < 0) return null;
    var walk = this.start(trail[0].procedure, {}), moves = [];
    if (!walk) return null;
    for (var s = 0; s < trail.length; s++) {
      var segment = trail[s];
      if (s > 0) {
        var move = segment.how === "~" ? "~" : "d", next = null, depth = walk.frames.length;
        if (segment.how === "~") next = this.following(walk, sequence) === segment.procedure ? this.start(segment.procedure, walk.vars) : null;
        else next = this.move(walk, move);
        var goes = next && (segment.how === "~" || (segment.how === "+" ? next.frames.length > depth : next.frames.length < depth));
        if (!goes || top(next).procedure !== segment.procedure) break;
        moves.push(move);
        walk = next;
      }
      var nodes = segment.nodes, i = nodes.length && nodes[0] === top(walk).node ? 1 : 0;
      for (; i < nodes.length; i++) {
        var step = this.moveTo(walk, nodes[i]);
        if (step === null) break;
        moves.push(step);
        walk = this.move(walk, step);
      }
      if (i < nodes.length) break; // the rest of the address does not follow the procedure
    }
    return { first: trail[0].procedure, moves: moves };
  };

  /* The count a question keeps ("Actions performed: 2 of 3"): {label, count, of}, where count is
     how often this run of its procedure has passed the node it counts, and of the number to reach
     (the answer of the node it names, in the walk's state; null where it has none); or null where
     the node keeps no count. */
  Interpreter.prototype.tally = function (walk) {
    var node = this.node(walk), at = top(walk);
    if (!node.tally) return null;
    var target = node.tally.of ? this.read(this.procedures[at.procedure].nodes[node.tally.of], walk.vars, null) : null;
    return { label: node.tally.label, count: at.passed[node.tally.node] || 0, of: target && target.value };
  };

  /* A node's table answer, computed beforehand for every case (rulesmith/site/botturn.py), in a
     state and roll (a string; null before the roll): {value, inputs}, or null where an input is
     not known yet or no case matches. */
  Interpreter.prototype.read = function (node, vars, roll) {
    var read = node.reads, inputs = {}, value = null;
    if (!read) return null;
    read.inputs.forEach(function (name) { inputs[name] = name === "roll" ? roll : vars[name]; });
    if (!read.inputs.every(function (name) { return inputs[name] !== null && inputs[name] !== undefined; })) return null;
    read.answers.forEach(function (answer) {
      if (read.inputs.every(function (name) { return answer[0][name] === inputs[name]; })) value = answer[1];
    });
    return value === null ? null : { value: value, inputs: inputs };
  };

  /* The state after changes: {vars, goesOn, ended}. "next" moves a state on to its next value, and
     past its last back to the first, moving on the one it carries into; goesOn is false where a
     state would pass its last value with nothing to carry into (the game ends there), and ended
     names that state (the page shows its mark: where the game ends may be a reading). */
  Interpreter.prototype.change = function (vars, changes) {
    var next = Object.assign({}, vars), goesOn = true, ended = null, variables = this.variables;
    function apply(change) {
      if (change.to !== "next") {
        next[change.state] = change.to;
        return;
      }
      var values = variables[change.state].values.map(function (pair) { return pair[0]; });
      var at = values.indexOf(next[change.state]);
      if (at + 1 < values.length) {
        next[change.state] = values[at + 1];
      } else if (change.carry) {
        next[change.state] = values[0];
        apply({ state: change.carry, to: "next", carry: null });
      } else {
        goesOn = false;
        ended = change.state;
      }
    }
    changes.forEach(apply);
    return { vars: next, goesOn: goesOn, ended: ended };
  };

  /* Whether every state has one of its values. */
  Interpreter.prototype.isState = function (vars) {
    return !!vars && this.state.every(function (v) {
      return v.values.some(function (pair) { return pair[0] === vars[v.id]; });
    });
  };

  /* ------------------------------------------------------------ the bot's turn, played (issue 43) */

  /* A small seeded generator (mulberry32): the same seed and place give the same roll or draw. */
  function random(seed, a, b) {
    var t = (seed ^ Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 7, 0x85ebca6b)) >>> 0;
    return function () {
      t = (t + 0x6d2b79f5) >>> 0;
      var r = Math.imul(t ^ (t >>> 15), 1 | t);
      r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
      return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
    };
  }

  function has(object, key) {
    return Object.prototype.hasOwnProperty.call(object, key);
  }

  function clone(value) {
    return JSON.parse(JSON.stringify(value));
  }

  /* The bot's turn as the Bot turn page plays it: everything the page holds it answers itself (a
     decision's `given`: the state, its own rolls, table answers and draws, the end a procedure it
     ran reached, a count, the turn's event) and shows as a line with its reason; it stops only
     where the player must act or answer:
       events    which of the turn's events happened, for a run of parts that apply on them:
                 "e" + the events' indices joined by "-" ("e0-2", "e" for none);
       applies   whether a part that may not apply does: "g" (it does), "s" (not now);
       question  a board question: its branch, "0", "1" …;
       call      an optional call: "d" (run it), "o" (go on without it);
       count     how many to draw: "w" + the number;
       loop      a loop played at the table (its steps on one screen): how it ended, "x" + the
                 number of its exit (the procedure's loops[n].exits);
       confirm   the steps listed since the last stop are done: "d" (and "a": the part again);
       end       the turn is over (the page starts the next one).
     At a stop, "r" + n rolls the screen's last roll again (attempt n, where the rules allow it) and
     "f" + a face takes the face rolled at the table instead: the page replaces the roll in its log
     rather than adding to it. A play is the same for the same state, seed and log. */
  function Turn(data) {
    this.data = data;
    this.interpreter = new Interpreter(data);
    this.events = data.events || [];
  }

  Turn.prototype.applies = function (part, vars) {
    for (var id in part.only) {
      if (has(part.only, id) && part.only[id].indexOf(vars[id]) < 0) return false;
    }
    return true;
  };

  Turn.prototype.roll = function (seed, place, attempt, roll) {
    var next = random(seed, place, attempt), total = 0;
    for (var i = 0; i < roll.dice; i++) total += 1 + Math.floor(next() * roll.sides);
    return total;
  };

  Turn.prototype.draw = function (seed, place, deck, count) {
    var cards = this.data.decks[deck].cards.slice(), next = random(seed, place + 1000, 0);
    for (var i = cards.length - 1; i > 0; i--) {
      var j = Math.floor(next() * (i + 1)), t = cards[i];
      cards[i] = cards[j];
      cards[j] = t;
    }
    return cards.slice(0, count);
  };

  /* The card that wins a draw: of numbers, the highest or lowest where the step says so. */
  function winner(cards, wins) {
    if (!wins || cards.length < 2) return cards[0];
    return cards.reduce(function (best, card) {
      return (wins === "highest" ? Number(card) > Number(best) : Number(card) < Number(best)) ? card : best;
    });
  }

  /* What a branch's source says here: {value, why} (why: what the line shows as the reason). */
  Turn.prototype.observe = function (walk, given) {
    var at = top(walk), vars = walk.vars;
    switch (given.source) {
      case "state":
        return { why: { state: Object.keys(given.state).map(function (id) { return [id, vars[id]]; }) } };
      case "roll": case "read": case "drawn": {
        var value = has(at.facts, given.source + ":" + given.step) ? at.facts[given.source + ":" + given.step] : null;
        return { value: value, why: { source: given.source, value: value } };
      }
      case "ended":
        return { value: at.ended, why: { ended: at.ended, procedure: at.endedIn } };
      case "count": {
        var tally = this.interpreter.tally(walk);
        var reached = !!tally && tally.of !== null && tally.count >= Number(tally.of);
        return { value: reached ? "reached" : "below", why: { count: tally } };
      }
      case "event":
        return { value: at.event, why: { event: at.event } };
    }
    return { value: null, why: {} };
  };

  /* The branch the page takes at a given decision: {branch, why}, or null where none takes it. */
  Turn.prototype.choose = function (walk, node) {
    var vars = walk.vars, fallback = null, seen = null;
    for (var i = 0; i < node.given.length; i++) {
      var given = node.given[i];
      if (!given) return null;
      if (given.source === "otherwise") {
        if (fallback === null) fallback = i;
        continue;
      }
      var found = this.observe(walk, given);
      seen = seen || found.why;
      var takes = given.source === "state" ? Object.keys(given.state).every(function (id) { return given.state[id].indexOf(vars[id]) >= 0; })
        : given.source === "count" ? found.value === given.count
        : found.value !== null && given.is.indexOf(String(found.value)) >= 0;
      if (takes) return { branch: i, why: found.why };
    }
    return fallback === null ? null : { branch: fallback, why: seen || {} };
  };

  /* Play from the start of the turn: {stop, lines (the screen now: what was done or answered since
     the last stop), valid (how many answers of the log held), vars, log}. */
  Turn.prototype.play = function (state, seed, log) {
    var ctx = { vars: Object.assign({}, state), part: 0, runs: [], run: null, walk: null, lines: [], rolls: 0, draws: 0,
                attempts: {}, seen: {}, count: null };
    var snapshot = clone(ctx), valid = 0, stop = null;
    for (var i = 0; ; i++) {
      stop = this.advance(ctx, seed);
      if (i >= log.length) break;
      var token = log[i], m = /^([rf])(\d+)$/.exec(token), n = m && parseInt(m[2], 10);
      if (m && stop.roll && (m[1] === "r" ? stop.roll.reroll : n >= stop.roll.min && n <= stop.roll.max)) {
        // the screen's last roll, rolled again (r: another attempt) or as rolled at the table (f: its
        // face): the screen played again with it
        ctx = clone(snapshot);
        ctx.attempts[stop.roll.index] = m[1] === "r" ? n : "f" + n;
        valid = i + 1;
        continue;
      }
      if (!this.answer(ctx, stop, token)) break;
      valid = i + 1;
      snapshot = clone(ctx);
    }
    return { stop: stop, lines: ctx.lines, valid: valid, vars: ctx.walk ? ctx.walk.vars : ctx.vars };
  };

  /* The answer of a stop, applied; false where the token is not one of its answers. */
  Turn.prototype.answer = function (ctx, stop, token) {
    var data = this.data, interpreter = this.interpreter, m;
    ctx.lines = [];
    ctx.seen = {};
    if (stop.kind === "events" && (m = /^e([\d-]*)$/.exec(token))) {
      var ticked = m[1] ? m[1].split("-").map(Number) : [], self = this;
      if (ticked.some(function (n) { return !(n >= 0 && n < self.events.length); })) return false;
      var ids = ticked.map(function (n) { return self.events[n].id; });
      stop.parts.forEach(function (p) {
        var mine = data.parts[p].events.filter(function (id) { return ids.indexOf(id) >= 0; });
        if (!mine.length) ctx.lines.push({ kind: "skip", part: p, why: "event" });
        mine.forEach(function (id) { ctx.runs.push({ part: p, event: id }); });
      });
      ctx.part = stop.parts[stop.parts.length - 1] + 1;
      return true;
    }
    if (stop.kind === "applies" && (token === "g" || token === "s")) {
      if (token === "g") ctx.runs.push({ part: stop.part, event: null });
      else ctx.lines.push({ kind: "skip", part: stop.part, why: "player" });
      ctx.part = stop.part + 1;
      return true;
    }
    if (stop.kind === "question" && /^\d+$/.test(token) && Number(token) < interpreter.node(ctx.walk).branches.length) {
      var at = top(ctx.walk);
      ctx.lines.push({ kind: "asked", procedure: at.procedure, node: at.node, branch: Number(token) });
      ctx.walk = interpreter.move(ctx.walk, token);
      return true;
    }
    if (stop.kind === "loop" && (m = /^x(\d+)$/.exec(token))) {
      var inside = top(ctx.walk), left = interpreter.leave(ctx.walk, parseInt(m[1], 10));
      if (!left) return false;
      ctx.lines.push({ kind: "looped", procedure: inside.procedure, loop: stop.loop, exit: parseInt(m[1], 10) });
      ctx.walk = left;
      return true;
    }
    if (stop.kind === "call" && (token === "d" || token === "o")) {
      ctx.walk = interpreter.move(ctx.walk, token);
      return !!ctx.walk;
    }
    if (stop.kind === "count" && token === "wm") { // more tied than the deck has cards: no draw decides it
      var short = interpreter.node(ctx.walk).draw, all = data.decks[short.deck].cards.length;
      if (short.upTo < all) return false;
      ctx.count = "more";
      return true;
    }
    if (stop.kind === "count" && (m = /^w(\d+)$/.exec(token))) {
      var draw = interpreter.node(ctx.walk).draw, n = parseInt(m[1], 10);
      if (n < draw.count || n > draw.upTo) return false;
      ctx.count = n;
      return true;
    }
    if (stop.kind === "confirm" && (token === "d" || (token === "a" && stop.again))) {
      if (token === "a") ctx.runs.unshift({ part: stop.part, event: stop.event });
      return true;
    }
    return false;
  };

  /* Play on from here to the next stop, adding what the page does and answers to ctx.lines. */
  Turn.prototype.advance = function (ctx, seed) {
    var data = this.data, interpreter = this.interpreter, lines = ctx.lines, stop = null;
    var lastRoll = function () { // the screen's last roll: {index, reroll, min, max}
      for (var k = lines.length - 1; k >= 0; k--) {
        var line = lines[k];
        if (line.roll !== undefined) return { index: line.rollIndex, reroll: line.reroll, min: line.min, max: line.max };
      }
      return null;
    };
    for (var guard = 0; guard < 10000 && !stop; guard++) {
      if (!ctx.walk) {
        if (ctx.runs.length) {
          ctx.run = ctx.runs.shift();
          ctx.walk = interpreter.start(data.parts[ctx.run.part].procedure, ctx.vars, ctx.run.event);
          lines.push({ kind: "part", part: ctx.run.part, event: ctx.run.event });
          continue;
        }
        if (ctx.part >= data.parts.length) { stop = { kind: "end" }; break; }
        var part = data.parts[ctx.part];
        if (!this.applies(part, ctx.vars)) {
          lines.push({ kind: "skip", part: ctx.part, why: "state" });
          ctx.part++;
        } else if (part.events && part.events.length) {
          var group = [];
          for (var g = ctx.part; g < data.parts.length && data.parts[g].events && data.parts[g].events.length; g++) {
            if (this.applies(data.parts[g], ctx.vars)) group.push(g);
          }
          var named = [];
          group.forEach(function (p) { data.parts[p].events.forEach(function (id) { if (named.indexOf(id) < 0) named.push(id); }); });
          stop = { kind: "events", parts: group, events: this.events.map(function (e, n) { return n; }).filter(function (n) { return named.indexOf(this.events[n].id) >= 0; }, this) };
          if (!group.length) { stop = null; ctx.part = g; }
        } else if (part.skip) {
          stop = { kind: "applies", part: ctx.part };
        } else {
          ctx.runs.push({ part: ctx.part, event: null });
          ctx.part++;
        }
        continue;
      }
      var walk = ctx.walk, at = top(walk), node = interpreter.node(walk);
      if (node.loop !== undefined) { stop = { kind: "loop", loop: node.loop }; break; } // played at the table: one screen
      var key = walk.frames.length + ":" + at.procedure + "." + at.node;
      if (ctx.seen[key] && node.type !== "decision") { stop = { kind: "confirm", loop: true }; break; } // one screen per round of a loop
      if (ctx.seen[key] && node.type === "decision" && !node.given) { stop = { kind: "question" }; break; }
      if (ctx.seen[key]) { stop = { kind: "confirm", loop: true }; break; }
      ctx.seen[key] = true;
      if (node.type === "end") {
        lines.push({ kind: "end", procedure: at.procedure, node: at.node, called: walk.frames.length > 1 });
        if (walk.frames.length > 1) { ctx.walk = interpreter.move(walk, "d"); continue; }
        ctx.vars = walk.vars;
        ctx.walk = null;
        var ran = data.parts[ctx.run.part];
        stop = { kind: "confirm", part: ctx.run.part, event: ctx.run.event, again: !!ran.repeat, end: true };
        break;
      }
      if (node.type === "decision") {
        var chosen = node.given ? this.choose(walk, node) : null;
        if (!chosen) { stop = { kind: "question" }; break; }
        lines.push({ kind: "answer", procedure: at.procedure, node: at.node, branch: chosen.branch, why: chosen.why });
        ctx.walk = interpreter.move(walk, String(chosen.branch));
        continue;
      }
      var item = { kind: "step", procedure: at.procedure, node: at.node };
      var deck = node.draw && data.decks[node.draw.deck];
      if (deck && deck.cards.length && node.draw.upTo > node.draw.count && ctx.count === null) {
        delete ctx.seen[key];
        stop = { kind: "count" };
        break;
      }
      if (node.roll) {
        var attempt = ctx.attempts[ctx.rolls] || 0, table = typeof attempt === "string";
        var face = table ? parseInt(attempt.slice(1), 10) : this.roll(seed, ctx.rolls, attempt, node.roll);
        at.facts["roll:" + at.node] = String(face);
        item.roll = face;
        item.atTable = table;
        item.rollIndex = ctx.rolls;
        item.reroll = !!node.roll.reroll;
        item.min = node.roll.dice;
        item.max = node.roll.dice * node.roll.sides;
        item.attempt = table ? 0 : attempt;
        ctx.rolls++;
      }
      if (node.reads) {
        var found = interpreter.read(node, walk.vars, node.roll ? String(item.roll) : null);
        if (found) {
          at.facts["read:" + at.node] = found.value;
          item.read = found;
        }
      }
      if (deck && deck.cards.length && ctx.count === "more") {
        item.beyond = deck.cards.length; // the text gives no way to decide among more: asked at the table
        ctx.draws++;
        ctx.count = null;
      } else if (deck && deck.cards.length) {
        var cards = this.draw(seed, ctx.draws, node.draw.deck, ctx.count || node.draw.count);
        ctx.draws++;
        ctx.count = null;
        item.drawn = cards;
        item.winner = winner(cards, node.draw.wins);
        at.facts["drawn:" + at.node] = item.winner;
      }
      lines.push(item);
      if (node.call && node.call.optional) { stop = { kind: "call" }; break; }
      ctx.walk = interpreter.move(walk, "d");
      if (!ctx.walk) { ctx.walk = walk; stop = { kind: "confirm", loop: true }; break; }
    }
    stop = stop || { kind: "confirm", loop: true };
    if (ctx.walk && stop.kind !== "end") {
      stop.procedure = top(ctx.walk).procedure;
      stop.node = top(ctx.walk).node;
      stop.depth = ctx.walk.frames.length;
    }
    var last = lastRoll();
    if (last) stop.roll = last;
    return stop;
  };

  /* ------------------------------------------------------------ the page addresses */

  /* The place an address gives, decoded ("#walk=a.b" gives "walk=a.b"); "" for an address that is
     not well formed (a "%" without two hex digits after it, "#%"): it gives no place, and never
     stops the page's script (decodeURIComponent throws on it). */
  function decode(hash) {
    try {
      return decodeURIComponent((hash || "").replace(/^#/, ""));
    } catch (error) {
      return "";
    }
  }

  /* A walker's place: the trail of run(), each segment its procedure and nodes joined by ".",
     after the first one marked by how it was reached (Interpreter.run):
       #walk=action.choose.raid+raid.check.done,action.performed~mission.start */
  var walkAddress = {
    format: function (trail) {
      return "#walk=" + trail.map(function (segment, i) {
        return (i ? segment.how : "") + [segment.procedure].concat(segment.nodes).join(".");
      }).join("");
    },
    /* The trail an address writes (not yet followed: Interpreter.follow), or null for another's. */
    parse: function (hash) {
      var place = decode(hash);
      if (place.indexOf("walk=") !== 0) return null;
      return place.slice("walk=".length).split(/(?=[~+,])/).map(function (text) {
        var how = /^[~+,]/.test(text) ? text.charAt(0) : "", parts = text.slice(how.length).split(".");
        return { how: how, procedure: parts[0], nodes: parts.slice(1) };
      });
    }
  };

  /* The Bot turn companion's place: which bot (of several, where the rules allow them; the first
     is not written), the state the turn began in, the seed of its rolls and draws, and the log of
     its answers (Turn.play):
       #bot&bot=2&state=turn:3,difficulty:hard&seed=42&log=e0-2.1.d */
  var turnAddress = {
    format: function (saved, state) {
      return "#bot&" + (saved.bot > 1 ? "bot=" + saved.bot + "&" : "") +
        "state=" + state.map(function (v) { return v.id + ":" + saved.state[v.id]; }).join(",") +
        "&seed=" + saved.seed + "&log=" + saved.log.join(".");
    },
    /* {state, seed, log} as the address writes them (the state not yet checked: isState), or null. */
    parse: function (hash) {
      var parts = decode(hash).split("&");
      if (parts[0] !== "bot") return null;
      var found = { state: {}, seed: 1, log: [], bot: 1 };
      for (var i = 1; i < parts.length; i++) {
        var pair = parts[i].split("="), name = pair[0], value = pair.slice(1).join("=");
        if (name === "state") {
          value.split(",").forEach(function (item) {
            var bits = item.split(":");
            found.state[bits[0]] = bits[1];
          });
        } else if (name === "seed") {
          found.seed = parseInt(value, 10) || 1;
        } else if (name === "log") {
          found.log = value ? value.split(".") : [];
        } else if (name === "bot") {
          found.bot = parseInt(value, 10) || 1;
        }
      }
      return found;
    }
  };

  return { Interpreter: Interpreter, Turn: Turn, random: random, addresses: { decode: decode, walk: walkAddress, turn: turnAddress } };
})();

if (typeof module === "object" && module.exports) module.exports = rulesmithProcedure;
