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
        return { procedure: f.procedure, node: f.node, passed: Object.assign({}, f.passed) };
      }),
      vars: Object.assign({}, walk.vars)
    };
  }

  /* The walk at the start of a procedure (null for one the graph does not hold). */
  Interpreter.prototype.start = function (procedure, vars) {
    var found = Object.prototype.hasOwnProperty.call(this.procedures, procedure) ? this.procedures[procedure] : null;
    return found && { frames: [{ procedure: procedure, node: found.start, passed: {} }], vars: Object.assign({}, vars) };
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
      next.frames.pop();
      var caller = top(next);
      caller.node = this.procedures[caller.procedure].nodes[caller.node].next;
      return next;
    }
    if (move === "d" && node.call && !Object.prototype.hasOwnProperty.call(this.procedures, node.call.procedure)) return null;
    next.vars = this.change(next.vars, node.sets || []).vars;
    at.passed[at.node] = (at.passed[at.node] || 0) + 1;
    if (node.type === "decision") {
      at.node = node.branches[Number(move)];
    } else if (move === "d" && node.call) {
      next.frames.push(this.start(node.call.procedure, {}).frames[0]);
    } else {
      at.node = node.next;
    }
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

  /* The state after changes: {vars, goesOn}. "next" moves a state on to its next value, and past
     its last back to the first, moving on the one it carries into; goesOn is false where a state
     would pass its last value with nothing to carry into (the game ends there). */
  Interpreter.prototype.change = function (vars, changes) {
    var next = Object.assign({}, vars), goesOn = true, variables = this.variables;
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
      }
    }
    changes.forEach(apply);
    return { vars: next, goesOn: goesOn };
  };

  /* Whether every state has one of its values. */
  Interpreter.prototype.isState = function (vars) {
    return !!vars && this.state.every(function (v) {
      return v.values.some(function (pair) { return pair[0] === vars[v.id]; });
    });
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

  /* The Bot turn companion's place: the state the turn began in, the seed of its rolls and draws,
     and the log of its answers (the moves above, and the companion's own):
       #bot&state=turn:3,difficulty:hard&seed=42&log=g.d.0.r4n1.d */
  var turnAddress = {
    format: function (saved, state) {
      return "#bot&state=" + state.map(function (v) { return v.id + ":" + saved.state[v.id]; }).join(",") +
        "&seed=" + saved.seed + "&log=" + saved.log.join(".");
    },
    /* {state, seed, log} as the address writes them (the state not yet checked: isState), or null. */
    parse: function (hash) {
      var parts = decode(hash).split("&");
      if (parts[0] !== "bot") return null;
      var found = { state: {}, seed: 1, log: [] };
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
        }
      }
      return found;
    }
  };

  return { Interpreter: Interpreter, addresses: { decode: decode, walk: walkAddress, turn: turnAddress } };
})();

if (typeof module === "object" && module.exports) module.exports = rulesmithProcedure;
