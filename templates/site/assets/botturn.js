/* Rulesmith: the bot's turn, played from the data (issue 25).
 *
 * The page holds every text, rendered and hidden (templates/site/bot-companion.md.j2), and the
 * turn as JSON (rulesmith/site/botturn.py): its parts, the procedures with their links, calls,
 * rolls, draws and state changes, and every table answer computed for every state. This script
 * keeps the place as the answers given since the turn began, replayed from the start (the
 * procedures' moves by the procedure interpreter, procedure.js, as on the procedure pages' walker;
 * the turn's parts, rolls and draws here):
 *   #bot&state=turn:3,difficulty:hard&seed=42&log=g.d.0.r4n1.d
 * Each answer is a history entry (Back undoes it: place.js, as on the procedure pages' walker);
 * the address and local storage keep the state, so a reload or a locked phone comes back to the
 * same step. Plain script, no dependencies.
 */
(function () {
  "use strict";

  var addresses = rulesmithProcedure.addresses;

  /* A small seeded generator (mulberry32): the same seed and place give the same roll. */
  function random(seed, a, b) {
    var t = (seed ^ Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 7, 0x85ebca6b)) >>> 0;
    return function () {
      t = (t + 0x6d2b79f5) >>> 0;
      var r = Math.imul(t ^ (t >>> 15), 1 | t);
      r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
      return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
    };
  }

  function Bot(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector(".rs-bot__data").getAttribute("data-bot"));
    this.stage = root.querySelector(".rs-bot__stage");
    this.where = root.querySelector(".rs-bot__where");
    this.stateLine = root.querySelector(".rs-bot__state");
    this.live = root.querySelector(".rs-bot__live");
    this.form = root.querySelector(".rs-bot__setup");
    this.storage = "rulesmith-bot:" + location.pathname;
    this.interpreter = new rulesmithProcedure.Interpreter(this.data);
    this.vars = this.interpreter.variables;
  }

  /* ------------------------------------------------------------ the address and storage */

  Bot.prototype.encode = function (saved) {
    return addresses.turn.format(saved, this.data.state);
  };

  Bot.prototype.decode = function (hash) {
    var found = addresses.turn.parse(hash);
    return found && this.interpreter.isState(found.state) ? found : null;
  };

  Bot.prototype.store = function (saved) {
    try { localStorage.setItem(this.storage, JSON.stringify(saved)); } catch (error) { /* private mode */ }
  };

  Bot.prototype.stored = function () {
    try {
      var saved = JSON.parse(localStorage.getItem(this.storage) || "null");
      return saved && this.interpreter.isState(saved.state) ? saved : null;
    } catch (error) { return null; }
  };

  Bot.prototype.notes = function () {
    try { return JSON.parse(localStorage.getItem(this.storage + ":cards") || "{}"); } catch (error) { return {}; }
  };

  Bot.prototype.note = function (deck, text) {
    var notes = this.notes();
    notes[deck] = text;
    try { localStorage.setItem(this.storage + ":cards", JSON.stringify(notes)); } catch (error) { /* ignore */ }
  };

  /* Every answer is a new history entry: the phone's Back button undoes it. */
  Bot.prototype.push = function (saved) {
    this.saved = saved;
    this.store(saved);
    this.place.go(this.encode(saved));
    this.render(true);
  };

  /* The place of an entry of the history (Back, Forward): a turn, or the set-up the page opened at. */
  Bot.prototype.show = function (address) {
    var found = this.decode(address);
    if (found) {
      if (this.saved && this.encode(found) === this.encode(this.saved) && this.form.hidden) return;
      this.saved = found;
      this.store(found);
      this.render(true);
    } else if (address === "") {
      this.setup(this.saved && this.saved.state);
    }
  };

  /* ------------------------------------------------------------ the state */

  Bot.prototype.valueName = function (id, value) {
    var v = this.vars[id];
    for (var i = 0; v && i < v.values.length; i++) if (v.values[i][0] === value) return v.values[i][1];
    return value;
  };

  Bot.prototype.applies = function (part, state) {
    for (var id in part.only) {
      if (Object.prototype.hasOwnProperty.call(part.only, id) && part.only[id].indexOf(state[id]) < 0) return false;
    }
    return true;
  };

  /* ------------------------------------------------------------ replaying the answers */

  /* Whether a step has what it waits for: its roll, its draw (from a deck the page holds). */
  Bot.prototype.ready = function (node, pending) {
    return !(node.roll && !(pending && pending.roll)) &&
      !(node.draw && this.data.decks[node.draw.deck].cards.length && !(pending && pending.drawn));
  };

  /* Where the answers lead: {part, walk (the procedure interpreter's, null at a part's opening),
     state, intro, done, pending (a step's roll or draw), valid (the answers that held), skipped}. */
  Bot.prototype.replay = function (saved) {
    var self = this, data = this.data, interpreter = this.interpreter;
    var here = { part: 0, walk: null, state: Object.assign({}, saved.state), intro: true, done: false,
                 pending: null, valid: 0, skipped: [] };

    function settle() { // pass by the parts whose state says they do not apply
      while (here.part < data.parts.length && here.intro && !self.applies(data.parts[here.part], here.state)) {
        here.skipped.push(here.part);
        here.part++;
      }
      if (here.part >= data.parts.length) here.done = true;
    }

    function walkOn(walk) {
      here.walk = walk;
      here.state = walk.vars;
      here.pending = null;
    }

    settle();
    for (var i = 0; i < saved.log.length; i++) {
      var token = saved.log[i];
      if (here.done) break;
      if (here.intro) {
        var part = data.parts[here.part];
        if (token === "g") {
          here.intro = false;
          walkOn(interpreter.start(part.procedure, here.state));
        } else if (token === "s" && part.skip) {
          here.skipped.push(here.part);
          here.part++;
          settle();
        } else break;
        here.valid = i + 1;
        continue;
      }
      var n = interpreter.node(here.walk), m;
      if (n.type === "end" && !interpreter.called(here.walk)) { // the part's end: the next part, or again
        if (token === "d") {
          here.walk = null;
          here.intro = true;
          here.part++;
          settle();
        } else if (token === "a" && data.parts[here.part].repeat) {
          walkOn(interpreter.start(here.walk.frames[0].procedure, here.state));
        } else break;
      } else if (n.type === "step" && (m = /^r(\d+)(?:n(\d+))?$/.exec(token)) && n.roll) {
        var face = parseInt(m[1], 10);
        if (face < n.roll.dice || face > n.roll.dice * n.roll.sides) break;
        here.pending = { roll: face, attempt: m[2] ? parseInt(m[2], 10) : 0, rolled: !!m[2] };
      } else if (n.type === "step" && (m = /^w(\d+)n(\d+)$/.exec(token)) && n.draw && data.decks[n.draw.deck].cards.length) {
        var count = parseInt(m[1], 10);
        if (count < n.draw.count || count > n.draw.upTo) break;
        here.pending = { drawn: self.draw(saved.seed, i, parseInt(m[2], 10), n.draw.deck, count), attempt: parseInt(m[2], 10) };
      } else if (n.type === "step" && token === "x" && n.draw && data.decks[n.draw.deck].cards.length) {
        here.pending = { drawn: [], table: true }; // drawn at the table: nothing to show
      } else { // a move of the procedures: a branch, done (a call entered or returned from), on without a call
        if (n.type === "step" && !self.ready(n, here.pending)) break;
        var next = interpreter.move(here.walk, token);
        if (!next) break;
        walkOn(next);
      }
      here.valid = i + 1;
    }
    return here;
  };

  Bot.prototype.draw = function (seed, place, attempt, deck, count) {
    var cards = this.data.decks[deck].cards.slice(), next = random(seed, place, attempt);
    for (var i = cards.length - 1; i > 0; i--) {
      var j = Math.floor(next() * (i + 1)), t = cards[i];
      cards[i] = cards[j];
      cards[j] = t;
    }
    return cards.slice(0, count);
  };

  Bot.prototype.roll = function (seed, place, attempt, roll) {
    var next = random(seed, place, attempt), total = 0;
    for (var i = 0; i < roll.dice; i++) total += 1 + Math.floor(next() * roll.sides);
    return total;
  };

  /* ------------------------------------------------------------ showing the place */

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function button(label, token, extra) {
    var b = el("button", { type: "button", "class": "md-button" + (extra ? " " + extra : "") }, label);
    if (token !== null) b.setAttribute("data-token", token);
    return b;
  }

  Bot.prototype.library = function (selector) {
    var found = this.root.querySelector(".rs-bot__library " + selector);
    return found ? found.cloneNode(true) : null;
  };

  Bot.prototype.stateText = function (state) {
    var self = this;
    return this.data.state.map(function (v) { return v.name + " " + self.valueName(v.id, state[v.id]); }).join(" · ");
  };

  Bot.prototype.render = function (moved) {
    var saved = this.saved, here = this.replay(saved), data = this.data, self = this;
    if (here.valid < saved.log.length) { // an address that went astray: cut to where it holds
      saved = this.saved = { state: saved.state, seed: saved.seed, log: saved.log.slice(0, here.valid) };
      this.place.replace(this.encode(saved));
      this.store(saved);
    }
    this.here = here;
    this.form.hidden = true;
    this.stage.hidden = false;
    this.root.querySelector(".rs-bot__top").hidden = false;
    this.root.querySelector(".rs-bot__controls").hidden = false;
    this.stateLine.textContent = this.stateText(here.state);
    var placed = this.stage.querySelectorAll("[data-chart]"); // the charts outlive the view: back to the root
    for (var p = 0; p < placed.length; p++) this.root.appendChild(placed[p]);
    this.stage.textContent = "";
    this.root.querySelector('[data-act="back"]').disabled = saved.log.length === 0;
    this.root.querySelector('[data-act="restart"]').disabled = saved.log.length === 0;
    var charts = this.root.querySelectorAll("[data-chart]");
    for (var c = 0; c < charts.length; c++) charts[c].hidden = true;
    var view = el("div", { "class": "rs-bot__view" }), spoken;
    if (here.done) {
      spoken = this.renderEnd(view, here);
      this.where.textContent = "End of the turn";
    } else if (here.intro) {
      spoken = this.renderIntro(view, here);
    } else {
      spoken = this.renderNode(view, here, saved);
    }
    view.setAttribute("data-view", here.done ? "end" : here.intro ? "part" : "step");
    this.stage.appendChild(view);
    if (!here.done && !here.intro) {
      var at = this.interpreter.here(here.walk);
      this.chart(at.procedure, at.node);
    }
    this.stage.appendChild(this.outline(here));
    if (!moved) return;
    this.live.textContent = spoken;
    var focus = view.querySelector("button[data-token], button[data-act]");
    if (focus) focus.focus({ preventScroll: true });
    var top = this.root.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) this.root.scrollIntoView({ block: "start" });
  };

  Bot.prototype.title = function (procedure) { return this.data.procedures[procedure].title; };

  Bot.prototype.renderIntro = function (view, here) {
    var part = this.data.parts[here.part];
    this.where.textContent = "Part " + (here.part + 1) + " of " + this.data.parts.length + (part.phase ? " · " + part.phase : "");
    view.appendChild(el("p", { "class": "rs-bot__heading" }, this.title(part.procedure)));
    var when = this.library('[data-part="' + here.part + '"]');
    if (when) { when.className = "rs-bot__when"; view.appendChild(when); }
    var choices = el("div", { "class": "rs-walker__choices rs-bot__choices" });
    choices.appendChild(button("Start", "g", "rs-bot__primary"));
    if (part.skip) choices.appendChild(button("Does not apply now", "s"));
    view.appendChild(choices);
    return this.title(part.procedure) + ". " + (when ? when.textContent.trim() : "");
  };

  Bot.prototype.renderEnd = function (view, here) {
    var after = this.interpreter.change(here.state, this.data.after), next = after.vars, goesOn = after.goesOn;
    view.appendChild(el("p", { "class": "rs-bot__heading" }, "The " + this.data.name + "'s turn is over."));
    var choices = el("div", { "class": "rs-walker__choices rs-bot__choices" });
    if (goesOn) {
      view.appendChild(el("p", {}, "Next: " + this.stateText(next) + "."));
      var b = button("Start the next turn", null, "rs-bot__primary");
      b.setAttribute("data-act", "next-turn");
      choices.appendChild(b);
    } else {
      view.appendChild(el("p", {}, "That was the last one: the game ends."));
      var s = button("Set up a new game", null);
      s.setAttribute("data-act", "setup");
      choices.appendChild(s);
    }
    view.appendChild(choices);
    return "The turn is over.";
  };

  Bot.prototype.renderNode = function (view, here, saved) {
    var data = this.data, self = this, frames = here.walk.frames, frame = this.interpreter.here(here.walk);
    var n = this.interpreter.node(here.walk);
    this.where.textContent = frames.map(function (f) { return self.title(f.procedure); }).join(" › ") +
      ", step " + n.number;
    var head = el("p", { "class": "rs-walker__number" });
    head.appendChild(el("span", { "class": "rs-walker__badge" }, String(n.number)));
    if (n.type === "end") head.appendChild(el("span", { "class": "rs-walker__end-label" }, "End"));
    view.appendChild(head);
    var library = this.library('[data-procedure="' + frame.procedure + '"] [data-node="' + frame.node + '"]');
    var labels = n.labels || [];
    var text = library.querySelector(".rs-walker__text");
    view.appendChild(text);
    var spoken = "Step " + n.number + (n.type === "end" ? ", end" : "") + ": " + text.textContent.replace(/\s+/g, " ").trim();
    if (n.shows) {
      var shows = el("p", { "class": "rs-bot__shows" });
      shows.textContent = n.shows.map(function (id) { return self.vars[id].name + ": " + self.valueName(id, here.state[id]); }).join(" · ");
      view.appendChild(shows);
    }
    if (n.card) this.renderCard(view, n.card);
    if (n.draw && !data.decks[n.draw.deck].cards.length) this.renderCard(view, n.draw.deck, true);
    var choices = el("div", { "class": "rs-walker__choices rs-bot__choices" });
    var place = saved.log.length;
    if (n.roll) {
      var rolled = here.pending && here.pending.roll;
      if (rolled) {
        view.appendChild(el("p", { "class": "rs-bot__result", "data-roll": String(rolled) },
          (here.pending.rolled ? "Rolled: " : "At the table: ") + rolled));
      }
      var rollRow = el("div", { "class": "rs-bot__roll" });
      if (!rolled || n.roll.reroll) {
        var attempt = rolled ? here.pending.attempt + 1 : 1, at = rolled ? place - 1 : place;
        var face = this.roll(saved.seed, at, attempt, n.roll);
        var r = button(rolled ? "Roll again" : "Roll the die" + (n.roll.dice > 1 ? "s" : ""), "r" + face + "n" + attempt);
        if (rolled) r.setAttribute("data-replace", "");
        rollRow.appendChild(r);
      }
      if (!rolled) {
        rollRow.appendChild(el("span", { "class": "rs-bot__or" }, "or what you rolled:"));
        for (var f = n.roll.dice; f <= n.roll.dice * n.roll.sides; f++) rollRow.appendChild(button(String(f), "r" + f, "rs-bot__face"));
      }
      view.appendChild(rollRow);
    }
    if (n.draw && data.decks[n.draw.deck].cards.length) {
      var deck = data.decks[n.draw.deck];
      if (here.pending && here.pending.drawn && here.pending.table) {
        view.appendChild(el("p", { "class": "rs-bot__result", "data-drawn": "" }, deck.name + " drawn at the table."));
      } else if (here.pending && here.pending.drawn) {
        view.appendChild(el("p", { "class": "rs-bot__result", "data-drawn": here.pending.drawn.join(" ") },
          deck.name + " drawn: " + here.pending.drawn.join(", ")));
      } else {
        var drawRow = el("div", { "class": "rs-bot__roll" });
        drawRow.appendChild(el("span", { "class": "rs-bot__or" }, "Draw " + deck.name + (n.draw.upTo > n.draw.count ? ", one for each:" : ":")));
        for (var k = n.draw.count; k <= n.draw.upTo; k++) drawRow.appendChild(button(n.draw.upTo > n.draw.count ? "Draw " + k : "Draw", "w" + k + "n1", "rs-bot__face"));
        drawRow.appendChild(button("Drawn at the table", "x"));
        view.appendChild(drawRow);
        this.renderCard(view, n.draw.deck, true);
      }
    }
    if (n.reads) this.renderRead(view, n, here);
    var tally = this.interpreter.tally(here.walk);
    if (tally) {
      view.appendChild(el("p", { "class": "rs-bot__tally", "data-count": String(tally.count) },
        tally.label + ": " + tally.count + (tally.of !== null ? " of " + tally.of : "") + "."));
    }
    var tables = library.querySelectorAll("details");
    for (var t = 0; t < tables.length; t++) view.appendChild(tables[t]);
    var ready = this.ready(n, here.pending);
    if (n.type === "decision") {
      n.branches.forEach(function (to, i) { choices.appendChild(button(labels[i], String(i))); });
      spoken += " Choices: " + labels.join(", ") + ".";
    } else if (n.type === "end") {
      if (frames.length > 1) {
        choices.appendChild(button("Back to " + this.title(frames[frames.length - 2].procedure), "d", "rs-bot__primary"));
      } else {
        var part = data.parts[here.part];
        if (part.repeat) choices.appendChild(button(part.repeat + ": again", "a"));
        choices.appendChild(button(here.part + 1 < data.parts.length ? "Done: on to the next part" : "Done: end of the turn", "d", "rs-bot__primary"));
      }
    } else if (ready) {
      if (n.call) {
        choices.appendChild(button("Run: " + this.title(n.call.procedure), "d", "rs-bot__primary"));
        if (n.call.optional) choices.appendChild(button("Go on without it", "o"));
      } else {
        choices.appendChild(button("Done", "d"));
      }
    }
    view.appendChild(choices);
    return spoken;
  };

  Bot.prototype.renderCard = function (view, deckId, drawn) {
    var deck = this.data.decks[deckId], box = el("div", { "class": "rs-bot__card", "data-card": deckId });
    var note = this.library('[data-deck="' + deckId + '"]');
    if (deck.cards.length) return;
    box.appendChild(el("p", { "class": "rs-bot__card-title" },
      (drawn ? "Draw from your own " : "Look at ") + deck.name + ": the source does not reproduce it."));
    if (note) box.appendChild(note);
    if (!drawn) {
      var label = el("label", {}, "What it shows (kept for this game): ");
      var input = el("input", { type: "text", "class": "rs-bot__note", "data-deck": deckId });
      input.value = this.notes()[deckId] || "";
      label.appendChild(input);
      box.appendChild(label);
    }
    view.appendChild(box);
  };

  Bot.prototype.renderRead = function (view, n, here) {
    var read = n.reads, self = this;
    var found = this.interpreter.read(n, here.state, here.pending && here.pending.roll ? String(here.pending.roll) : null);
    if (!found) return;
    var value = found.value, inputs = found.inputs;
    var why = read.inputs.filter(function (name) { return name !== "roll"; }).map(function (name) {
      return self.vars[name].name + " " + self.valueName(name, inputs[name]);
    });
    if (inputs.roll) why.push("roll " + inputs.roll);
    var answer = el("p", { "class": "rs-bot__answer", "data-answer": value });
    answer.appendChild(el("strong", {}, read.says.indexOf("{value}") >= 0 ? read.says.replace("{value}", value) : read.says + ": " + value));
    answer.appendChild(document.createTextNode(" (" + why.join(", ") + ")."));
    view.appendChild(answer);
    var table = this.library('details[data-table="' + read.table + '"]');
    if (table && !this.mentions(table)) view.appendChild(table);
  };

  /* Whether the step's own text already offers this table (one tap away once is enough). */
  Bot.prototype.mentions = function (table) {
    var frame = this.interpreter.here(this.here.walk);
    var node = this.root.querySelector('.rs-bot__library [data-procedure="' + frame.procedure + '"] [data-node="' + frame.node + '"]');
    var title = table.querySelector("summary").textContent.trim();
    return Array.prototype.some.call(node.querySelectorAll("details summary"), function (s) { return s.textContent.trim() === title; });
  };

  /* The chart of the current procedure at print size, scrolled to the current step. */
  Bot.prototype.chart = function (procedure, node) {
    var holder = this.root.querySelector('[data-chart="' + procedure + '"]');
    if (!holder) return;
    holder.hidden = false;
    var old = holder.querySelectorAll(".rs-walker-current");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("rs-walker-current");
    var nodes = holder.querySelectorAll("g.node[data-chart-node]"), current = null;
    for (var j = 0; j < nodes.length; j++) {
      if (nodes[j].getAttribute("data-chart-node") === node) { current = nodes[j]; current.classList.add("rs-walker-current"); }
    }
    this.stage.appendChild(holder);
    if (!current) return;
    var frame = holder.querySelector(".rs-bot__chart-frame"), box = current.getBoundingClientRect(), outer = frame.getBoundingClientRect();
    frame.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
    frame.scrollTop += box.top + box.height / 2 - (outer.top + outer.height / 2);
  };

  Bot.prototype.outline = function (here) {
    var self = this, list = el("ol", { "class": "rs-bot__outline", "aria-label": "This turn" });
    this.data.parts.forEach(function (part, i) {
      var item = el("li", {}, self.title(part.procedure)), status;
      if (here.skipped.indexOf(i) >= 0) status = self.applies(part, here.state) ? "does not apply now" : "not now (" + self.stateText(here.state) + ")";
      else if (i < here.part || here.done) status = "done";
      else if (i === here.part) status = "now";
      else status = "";
      if (status) item.appendChild(el("small", {}, " · " + status));
      if (i === here.part && !here.done) item.setAttribute("aria-current", "step");
      list.appendChild(item);
    });
    return list;
  };

  /* ------------------------------------------------------------ set-up and answers */

  Bot.prototype.setup = function (state) {
    var self = this;
    this.form.hidden = false;
    this.stage.hidden = true;
    this.root.querySelector(".rs-bot__top").hidden = true;
    this.root.querySelector(".rs-bot__controls").hidden = true;
    this.where.textContent = "";
    this.stateLine.textContent = "";
    this.data.state.forEach(function (v) {
      var select = self.form.querySelector('select[name="' + v.id + '"]');
      select.textContent = "";
      v.values.forEach(function (pair) {
        var option = el("option", { value: pair[0] }, pair[1]);
        if (pair[0] === (state ? state[v.id] : v.initial)) option.selected = true;
        select.appendChild(option);
      });
    });
    var charts = this.root.querySelectorAll("[data-chart]");
    for (var c = 0; c < charts.length; c++) charts[c].hidden = true;
    this.form.querySelector("select, button").focus({ preventScroll: true });
  };

  Bot.prototype.answer = function (target) {
    var saved = this.saved, log = saved.log.slice(), act = target.getAttribute("data-act");
    if (target.hasAttribute("data-token")) {
      if (target.hasAttribute("data-replace")) log.pop();
      log.push(target.getAttribute("data-token"));
      this.push({ state: saved.state, seed: saved.seed, log: log });
    } else if (act === "back") { // one answer back: the history's Back where it is that
      if (!log.length) return;
      log.pop();
      this.saved = { state: saved.state, seed: saved.seed, log: log };
      this.store(this.saved);
      this.render(true);
      this.place.undo(this.encode(this.saved));
    } else if (act === "restart") {
      this.push({ state: saved.state, seed: saved.seed, log: [] });
    } else if (act === "next-turn") {
      var next = this.interpreter.change(this.here.state, this.data.after).vars;
      this.push({ state: next, seed: saved.seed + 1, log: [] });
    } else if (act === "setup") {
      this.setup(saved && saved.state);
    }
  };

  Bot.prototype.start = function () {
    var self = this, root = this.root;
    root.hidden = false;
    var saved = this.decode(location.hash) || this.stored();
    root.addEventListener("click", function (event) {
      var target = event.target.closest("button");
      if (target && root.contains(target) && !target.disabled && target.type !== "submit") self.answer(target);
    });
    root.addEventListener("change", function (event) {
      if (event.target.classList.contains("rs-bot__note")) self.note(event.target.getAttribute("data-deck"), event.target.value);
    });
    this.form.addEventListener("submit", function (event) {
      event.preventDefault();
      var state = {};
      self.data.state.forEach(function (v) { state[v.id] = self.form.querySelector('select[name="' + v.id + '"]').value; });
      var seed = self.saved ? self.saved.seed : Math.floor(Math.random() * 2147483646) + 1;
      self.push({ state: state, seed: seed, log: self.saved ? self.saved.log : [] }); // the answers so far stand where they still hold
    });
    this.saved = saved;
    this.place = rulesmithPlace(function () { return self.saved ? self.encode(self.saved) : ""; },
                                function (address) { self.show(address); });
    this.place.start(!!saved);
    if (saved) this.render(false);
    else this.setup(null);
  };

  function startAll() {
    var roots = document.querySelectorAll(".rs-bot");
    for (var i = 0; i < roots.length; i++) new Bot(roots[i]).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
