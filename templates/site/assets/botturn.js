/* Rulesmith: the bot's turn, played by the page (issues 25, 43).
 *
 * The page holds every text, rendered and hidden (templates/site/bot-companion.md.j2), and the
 * turn as JSON (rulesmith/site/botturn.py): its parts and events, the procedures with their links,
 * calls, rolls, draws, state changes, who answers each decision (asks: board, or given), and every
 * table answer computed for every state. The procedure interpreter (procedure.js: Turn) plays the
 * turn from its start with the answers given since; this script shows where that stops: what the
 * page did and answered since the last stop (each answer a line with its reason), then the one
 * thing the player must do or answer. The place is in the address and in local storage:
 *   #bot&state=turn:3,difficulty:hard&seed=42&log=e0-2.1.d
 * Each answer is an entry of the history (Back undoes it: place.js); "Roll again" replaces the
 * roll. Plain script, no dependencies.
 */
(function () {
  "use strict";

  var procedureJs = rulesmithProcedure, addresses = procedureJs.addresses;

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

  function Bot(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector(".rs-bot__data").getAttribute("data-bot"));
    this.stage = root.querySelector(".rs-bot__stage");
    this.where = root.querySelector(".rs-bot__where");
    this.stateLine = root.querySelector(".rs-bot__state");
    this.live = root.querySelector(".rs-bot__live");
    this.form = root.querySelector(".rs-bot__setup");
    this.base = "rulesmith-bot:" + location.pathname;
    this.storage = this.base;
    this.current = 1;
    this.count = Math.max(1, this.data.upTo || 1);
    this.turn = new procedureJs.Turn(this.data);
    this.interpreter = this.turn.interpreter;
    this.vars = this.interpreter.variables;
  }

  /* ------------------------------------------------------------ the address and storage */

  Bot.prototype.encode = function (saved) {
    return addresses.turn.format({ state: saved.state, seed: saved.seed, log: saved.log, bot: this.current }, this.data.state);
  };

  Bot.prototype.decode = function (hash) {
    var found = addresses.turn.parse(hash);
    return found && this.interpreter.isState(found.state) && found.bot >= 1 && found.bot <= this.count ? found : null;
  };

  /* ------------------------------------------------------------ several bots (where the rules allow them) */

  /* Bot n: its own state and turn, kept under its own key. */
  Bot.prototype.useBot = function (n) {
    this.current = n;
    this.storage = this.base + (n > 1 ? ":bot" + n : "");
    var buttons = this.root.querySelectorAll(".rs-bot__bots button");
    for (var i = 0; i < buttons.length; i++) buttons[i].setAttribute("aria-pressed", String(i + 1 === n));
  };

  Bot.prototype.switchTo = function (n) {
    if (n === this.current) return;
    this.useBot(n);
    this.dropped = false;
    var saved = this.stored();
    this.saved = saved;
    if (saved) {
      this.place.go(this.encode(saved));
      this.render(true);
    } else {
      this.setup(null);
    }
    this.showDropped();
  };

  Bot.prototype.switcher = function () {
    if (this.count < 2) return;
    var bar = el("div", { "class": "rs-bot__bots", role: "group", "aria-label": T("Which bot") });
    for (var n = 1; n <= this.count; n++) {
      var b = el("button", { type: "button", "class": "md-button rs-bot__bot", "data-bot": String(n), "aria-pressed": String(n === this.current) }, T("Bot {number}", { number: n }));
      bar.appendChild(b);
    }
    this.root.insertBefore(bar, this.root.querySelector(".rs-bot__top"));
  };

  Bot.prototype.store = function (saved) {
    try { localStorage.setItem(this.storage, JSON.stringify(saved)); } catch (error) { /* private mode */ }
  };

  /* The turn kept on the phone, or null. What the page did not write (a missing or wrong-typed
     field, a value the state does not have, an older version's shape, text that is not JSON) is
     dropped, with a line saying so, and the page starts clean: it never stays broken. */
  Bot.prototype.stored = function () {
    var text = null;
    try { text = localStorage.getItem(this.storage); } catch (error) { return null; }
    if (text === null) return null;
    var saved = null;
    try { saved = JSON.parse(text); } catch (error) { saved = null; }
    if (this.wellFormed(saved)) return { state: saved.state, seed: saved.seed, log: saved.log.slice() };
    try { localStorage.removeItem(this.storage); } catch (error) { /* ignore */ }
    this.dropped = true;
    return null;
  };

  Bot.prototype.wellFormed = function (saved) {
    var self = this;
    return !!saved && typeof saved === "object" && !Array.isArray(saved) &&
      Object.keys(saved).every(function (k) { return k === "state" || k === "seed" || k === "log"; }) &&
      !!saved.state && typeof saved.state === "object" &&
      Object.keys(saved.state).every(function (k) { return Object.prototype.hasOwnProperty.call(self.vars, k); }) &&
      this.interpreter.isState(saved.state) &&
      typeof saved.seed === "number" && saved.seed === Math.floor(saved.seed) && saved.seed > 0 && saved.seed < 4294967296 &&
      Array.isArray(saved.log) && saved.log.length < 5000 &&
      saved.log.every(function (token) { return typeof token === "string" && /^[a-z0-9-]{1,40}$/.test(token); });
  };

  /* The notes kept for decks the source does not reproduce: {deck id: text}, each checked (storage
     is not the page's alone: every file:// page shares one in Chromium). */
  var MAX_NOTE = 500;
  Bot.prototype.notes = function () {
    var given = null, notes = {};
    try { given = JSON.parse(localStorage.getItem(this.storage + ":cards") || "{}"); } catch (error) { given = null; }
    if (!given || typeof given !== "object" || Array.isArray(given)) return notes;
    for (var deck in this.data.decks) {
      if (Object.prototype.hasOwnProperty.call(this.data.decks, deck) && Object.prototype.hasOwnProperty.call(given, deck) &&
          typeof given[deck] === "string" && given[deck].length <= MAX_NOTE) notes[deck] = given[deck];
    }
    return notes;
  };

  Bot.prototype.note = function (deck, text) {
    var notes = this.notes();
    notes[deck] = text;
    try { localStorage.setItem(this.storage + ":cards", JSON.stringify(notes)); } catch (error) { /* ignore */ }
  };

  /* Every answer is a new history entry: the phone's Back button undoes it. */
  Bot.prototype.push = function (saved, replace) {
    this.saved = saved;
    this.store(saved);
    if (replace) this.place.replace(this.encode(saved));
    else this.place.go(this.encode(saved));
    this.render(true);
  };

  /* The place of an entry of the history (Back, Forward): a turn, or the set-up the page opened at. */
  Bot.prototype.show = function (address) {
    var found = this.decode(address);
    if (found) {
      if (found.bot !== this.current) this.useBot(found.bot);
      if (this.saved && this.encode(found) === this.encode(this.saved) && this.form.hidden) return;
      this.saved = found;
      this.store(found);
      this.render(true);
    } else if (address === "") {
      this.setup(this.saved && this.saved.state);
    }
  };

  /* ------------------------------------------------------------ words */

  Bot.prototype.valueName = function (id, value) {
    var v = this.vars[id];
    for (var i = 0; v && i < v.values.length; i++) if (v.values[i][0] === value) return v.values[i][1];
    return value;
  };

  Bot.prototype.stateText = function (state) {
    var self = this;
    return (this.count > 1 ? T("Bot {number}", { number: this.current }) + " · " : "") +
      this.data.state.map(function (v) { return v.name + " " + self.valueName(v.id, state[v.id]); }).join(" · ");
  };

  /* The state in the line above the turn, as stateText says it: a name or value the page shows in
     the game's own language (its translation missing, or the game not translated: the state's
     `english`) is said to be in it (the data's `lang`). */
  Bot.prototype.showState = function (line, state) {
    var self = this;
    line.textContent = "";
    if (this.count > 1) line.appendChild(document.createTextNode(T("Bot {number}", { number: this.current }) + " · "));
    this.data.state.forEach(function (v, i) {
      var english = v.english || [];
      if (i) line.appendChild(document.createTextNode(" · "));
      [v.name, self.valueName(v.id, state[v.id])].forEach(function (word, k) {
        if (k) line.appendChild(document.createTextNode(" "));
        line.appendChild(english.indexOf(word) >= 0 ? el("span", { lang: self.data.lang }, word) : document.createTextNode(word));
      });
    });
  };

  Bot.prototype.title = function (procedure) { return this.data.procedures[procedure].title; };

  Bot.prototype.eventName = function (id) {
    var found = (this.data.events || []).filter(function (e) { return e.id === id; })[0];
    return found ? found.name : id;
  };

  /* A node's text as the page renders it (a copy), and its tables. */
  Bot.prototype.text = function (procedure, node) {
    var found = this.root.querySelector('.rs-bot__library [data-procedure="' + procedure + '"] [data-node="' + node + '"]');
    return found ? found.cloneNode(true) : el("div");
  };

  /* A node's text as plain words (`bare`: without the marks shown under it). */
  Bot.prototype.plain = function (procedure, node, bare) {
    var found = this.root.querySelector('.rs-bot__library [data-procedure="' + procedure + '"] [data-node="' + node + '"] .rs-walker__text');
    if (found && bare) {
      found = found.cloneNode(true);
      var marks = found.querySelectorAll(".rs-walker__marks");
      for (var i = 0; i < marks.length; i++) marks[i].parentNode.removeChild(marks[i]);
    }
    return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
  };

  Bot.prototype.library = function (selector) {
    var found = this.root.querySelector(".rs-bot__library " + selector);
    return found ? found.cloneNode(true) : null;
  };

  /* Why the page gave an answer, in words. */
  Bot.prototype.reason = function (why) {
    var self = this;
    if (why.state) return why.state.map(function (pair) { return self.vars[pair[0]].name + ": " + self.valueName(pair[0], pair[1]); }).join(", ");
    if (why.source === "roll") return T("rolled {value}", { value: why.value });
    if (why.source === "read") return T("the table gives {value}", { value: why.value });
    if (why.source === "drawn") return T("drawn: {value}", { value: why.value });
    if (why.ended) {
      var end = this.plain(why.procedure, why.ended).split(/(?<=\.)\s/)[0];
      return T("{procedure} ended: {end}", { procedure: this.title(why.procedure), end: end });
    }
    if (why.count) return why.count.label + ": " + why.count.count + (why.count.of !== null ? " " + T("of {count}", { count: why.count.of }) : "");
    if (why.event) return this.eventName(why.event);
    return "";
  };

  /* ------------------------------------------------------------ showing the place */

  Bot.prototype.render = function (moved) {
    var saved = this.saved, play = this.turn.play(saved.state, saved.seed, saved.log);
    if (play.valid < saved.log.length) { // an address that went astray: cut to where it holds
      saved = this.saved = { state: saved.state, seed: saved.seed, log: saved.log.slice(0, play.valid) };
      this.place.replace(this.encode(saved));
      this.store(saved);
    }
    this.play = play;
    this.form.hidden = true;
    this.keepResume(play, saved);
    this.stage.hidden = false;
    this.root.querySelector(".rs-bot__top").hidden = false;
    this.root.querySelector(".rs-bot__controls").hidden = false;
    this.showState(this.stateLine, play.vars);
    var placed = this.stage.querySelectorAll("[data-chart]"); // the charts outlive the view: back to the root
    for (var p = 0; p < placed.length; p++) this.root.appendChild(placed[p]);
    this.stage.textContent = "";
    this.root.querySelector('[data-act="back"]').disabled = saved.log.length === 0;
    this.root.querySelector('[data-act="restart"]').disabled = saved.log.length === 0;
    var charts = this.root.querySelectorAll("[data-chart]");
    for (var c = 0; c < charts.length; c++) charts[c].hidden = true;
    var view = el("div", { "class": "rs-bot__view", "data-view": play.stop.kind });
    if (play.stop.procedure) view.setAttribute("data-at", play.stop.procedure + "." + play.stop.node);
    this.renderLines(view, play.lines);
    var spoken = this.renderStop(view, play.stop, saved);
    if (play.stop.procedure) { // the procedure's rulebook lines, one tap away (a <details>)
      var lines = this.library('[data-rulebook="' + play.stop.procedure + '"]');
      if (lines) view.appendChild(lines);
    }
    this.stage.appendChild(view);
    if (play.stop.procedure) this.chart(play.stop.procedure, play.stop.node);
    if (!moved) return;
    this.live.textContent = spoken;
    var focus = view.querySelector(".rs-bot__choices button, .rs-bot__choices input");
    if (focus) focus.focus({ preventScroll: true });
    var top = this.root.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) this.root.scrollIntoView({ block: "start" });
  };

  /* Where the turn stands, for the game's overview ("Resume: …"); nothing once it is over. */
  Bot.prototype.keepResume = function (play, saved) {
    var key = this.base + ":resume";
    try {
      if (!saved.log.length || play.stop.kind === "end") { localStorage.removeItem(key); return; }
      var at = play.stop.procedure ? this.title(play.stop.procedure) : play.stop.part !== undefined ? this.title(this.data.parts[play.stop.part].procedure) : "";
      localStorage.setItem(key, JSON.stringify({ where: this.stateText(play.vars) + (at ? ": " + at : ""), hash: this.encode(saved) }));
    } catch (error) { /* private mode */ }
  };

  /* What the page did and answered since the last stop: one list. */
  Bot.prototype.renderLines = function (view, lines) {
    var self = this, list = null, skipped = [];
    function flushSkipped() {
      if (!skipped.length) return;
      var groups = {};
      skipped.forEach(function (s) { (groups[s.why] = groups[s.why] || []).push(self.title(self.data.parts[s.part].procedure)); });
      Object.keys(groups).forEach(function (why) {
        var lead = why === "event" ? T("Did not happen this turn:") + " " : why === "player" ? T("Does not apply now:") + " " : T("Not now ({state}):", { state: self.stateText(self.play.vars) }) + " ";
        view.appendChild(el("p", { "class": "rs-bot__skipped" }, lead + groups[why].join(" · ") + "."));
      });
      skipped = [];
    }
    function items() {
      if (!list) { list = el("ol", { "class": "rs-bot__lines" }); view.appendChild(list); }
      return list;
    }
    lines.forEach(function (line) {
      if (line.kind === "skip") { skipped.push(line); return; }
      flushSkipped();
      if (line.kind === "part") {
        list = null;
        var part = self.data.parts[line.part];
        var head = el("p", { "class": "rs-bot__heading" }, self.title(part.procedure));
        view.appendChild(head);
        if (line.event) view.appendChild(el("p", { "class": "rs-bot__event" }, T("For: {event}", { event: self.eventName(line.event) })));
        return;
      }
      var item = el("li", { "class": "rs-bot__line rs-bot__line--" + line.kind, "data-node": line.procedure + "." + line.node });
      if (line.kind === "looped") { // a loop played at the table: how the player said it ended
        var proc = self.data.procedures[line.procedure], way = proc.loops[line.loop].exits[line.exit];
        item.setAttribute("data-node", line.procedure + "." + way[0]);
        item.appendChild(el("span", { "class": "rs-bot__q" }, T("Played at the table until:") + " " + self.plain(line.procedure, way[0]) + " "));
        item.appendChild(el("strong", { "data-answer": proc.nodes[way[0]].labels[way[1]] }, proc.nodes[way[0]].labels[way[1]]));
        item.appendChild(el("span", { "class": "rs-bot__why" }, " (" + T("your answer") + ")"));
      } else if (line.kind === "answer" || line.kind === "asked") {
        var n = self.data.procedures[line.procedure].nodes[line.node];
        item.appendChild(el("span", { "class": "rs-bot__q" }, self.plain(line.procedure, line.node, true) + " "));
        item.appendChild(el("strong", { "data-answer": n.labels[line.branch] }, n.labels[line.branch]));
        var why = line.kind === "answer" ? self.reason(line.why) : T("your answer");
        if (why) item.appendChild(el("span", { "class": "rs-bot__why" }, " (" + why + ")"));
        var marked = self.text(line.procedure, line.node).querySelector(".rs-walker__marks"); // the question's marks, as marks
        if (marked) item.appendChild(marked);
      } else if (line.kind === "end") {
        var text = self.text(line.procedure, line.node).querySelector(".rs-walker__text") || el("div");
        item.appendChild(el("span", { "class": "rs-bot__end-label" }, line.called ? T("End of {procedure}:", { procedure: self.title(line.procedure) }) + " " : T("End of this part:") + " "));
        item.appendChild(text);
      } else {
        var node = self.data.procedures[line.procedure].nodes[line.node], found = self.text(line.procedure, line.node);
        var body = found.querySelector(".rs-walker__text");
        if (body) item.appendChild(body);
        if (line.roll !== undefined) item.appendChild(el("p", { "class": "rs-bot__result", "data-roll": String(line.roll) }, line.atTable ? T("At the table: {value}", { value: line.roll }) : T("Rolled: {value}", { value: line.roll })));
        if (line.read) {
          var read = node.reads, why2 = read.inputs.filter(function (name) { return name !== "roll"; }).map(function (name) {
            return self.vars[name].name + " " + self.valueName(name, line.read.inputs[name]);
          });
          if (line.read.inputs.roll) why2.push(T("roll {value}", { value: line.read.inputs.roll }));
          var answer = el("p", { "class": "rs-bot__answer", "data-answer": line.read.value });
          answer.appendChild(el("strong", {}, read.says.indexOf("{value}") >= 0 ? read.says.replace("{value}", line.read.value) : read.says + ": " + line.read.value));
          answer.appendChild(document.createTextNode(" (" + why2.join(", ") + ")."));
          item.appendChild(answer);
        }
        if (line.drawn) {
          var deck = self.data.decks[node.draw.deck];
          item.appendChild(el("p", { "class": "rs-bot__result", "data-drawn": line.drawn.join(" "), "data-wins": line.winner },
            T("{deck} drawn: {cards}", { deck: deck.name, cards: line.drawn.join(", ") }) + (line.drawn.length > 1 ? ". " + (node.draw.wins ? T("{winner} wins (the {rule}).", { winner: line.winner, rule: node.draw.wins }) : T("{winner} wins.", { winner: line.winner })) : ".")));
        }
        if (line.beyond) { // more tied than the deck holds: the text gives no way, the table decides
          item.appendChild(el("p", { "class": "rs-bot__result", "data-beyond": String(line.beyond) },
            T("More tied than the {count} {deck}: the text does not say how to break such a tie. Break it at the table.",
              { count: line.beyond, deck: self.data.decks[node.draw.deck].name })));
        }
        if (node.card) self.renderCard(item, node.card);
        if (node.draw && !self.data.decks[node.draw.deck].cards.length) self.renderCard(item, node.draw.deck, true);
        var tables = found.querySelectorAll("details");
        for (var t = 0; t < tables.length; t++) item.appendChild(tables[t]);
      }
      items().appendChild(item);
    });
    flushSkipped();
  };

  /* The one thing the player does or answers now. */
  Bot.prototype.renderStop = function (view, stop, saved) {
    var self = this, data = this.data, choices = el("div", { "class": "rs-walker__choices rs-bot__choices" }), spoken = "";
    var partOf = function (i) { return data.parts[i]; };
    if (stop.kind === "events") {
      this.where.textContent = T("What happened this turn?");
      var box = el("fieldset", { "class": "rs-bot__events" });
      box.appendChild(el("legend", {}, T("Tick what happened for {name} (each part runs once for each):", { name: data.name })));
      stop.events.forEach(function (n) {
        var label = el("label", { "class": "rs-bot__event-choice" }), input = el("input", { type: "checkbox", value: String(n) });
        label.appendChild(input);
        label.appendChild(document.createTextNode(" " + data.events[n].name));
        box.appendChild(label);
      });
      view.appendChild(box);
      var go = button(T("Go on"), null, "rs-bot__primary");
      go.setAttribute("data-act", "events");
      choices.appendChild(go);
      spoken = T("What happened this turn? Tick each, then Go on.");
    } else if (stop.kind === "applies") {
      var part = partOf(stop.part);
      this.where.textContent = T("Part {number} of {count}", { number: stop.part + 1, count: data.parts.length }) + (part.phase ? " · " + part.phase : "");
      view.appendChild(el("p", { "class": "rs-bot__heading" }, this.title(part.procedure)));
      var when = this.library('[data-part="' + stop.part + '"]');
      if (when) { when.className = "rs-bot__when"; view.appendChild(when); }
      choices.appendChild(button(T("It applies: start"), "g", "rs-bot__primary"));
      choices.appendChild(button(T("Not now"), "s"));
      spoken = this.title(part.procedure) + ". " + T("Does it apply now?");
    } else if (stop.kind === "question") {
      var n = data.procedures[stop.procedure].nodes[stop.node];
      this.where.textContent = this.title(stop.procedure) + ", " + T("step {number}", { number: n.number });
      var question = this.text(stop.procedure, stop.node);
      question.className = "rs-bot__question";
      view.appendChild(question);
      var tally = this.interpreter.tally({ frames: [{ procedure: stop.procedure, node: stop.node, passed: {} }], vars: {} });
      if (tally && tally.of === null) view.appendChild(el("p", { "class": "rs-bot__tally" }, tally.label + "."));
      n.labels.forEach(function (label, i) { choices.appendChild(button(label, String(i))); });
      spoken = this.plain(stop.procedure, stop.node) + " " + T("Choices:") + " " + n.labels.join(", ") + ".";
    } else if (stop.kind === "loop") {
      spoken = this.renderLoop(view, choices, stop);
    } else if (stop.kind === "call") {
      var caller = data.procedures[stop.procedure].nodes[stop.node];
      this.where.textContent = this.title(stop.procedure) + ", " + T("step {number}", { number: caller.number });
      choices.appendChild(button(T("Run: {name}", { name: this.title(caller.call.procedure) }), "d", "rs-bot__primary"));
      choices.appendChild(button(T("Go on without it"), "o"));
      spoken = T("Run {name}?", { name: this.title(caller.call.procedure) });
    } else if (stop.kind === "count") {
      var drawing = data.procedures[stop.procedure].nodes[stop.node], deck = data.decks[drawing.draw.deck];
      this.where.textContent = this.title(stop.procedure) + ", " + T("step {number}", { number: drawing.number });
      view.appendChild(this.text(stop.procedure, stop.node));
      view.appendChild(el("p", { "class": "rs-bot__heading" }, T("How many {deck} are drawn (one for each tied)?", { deck: deck.name })));
      for (var k = drawing.draw.count; k <= drawing.draw.upTo; k++) choices.appendChild(button(String(k), "w" + k, "rs-bot__face"));
      // no limit: more tied than there are cards to draw is an answer too (the text is silent on it)
      if (drawing.draw.upTo >= deck.cards.length) choices.appendChild(button(T("More than {count}", { count: deck.cards.length }), "wm"));
      spoken = T("How many are drawn?");
    } else if (stop.kind === "confirm") {
      var ended = stop.end ? partOf(stop.part) : null;
      this.where.textContent = ended ? T("End of {procedure}", { procedure: this.title(ended.procedure) }) : stop.procedure ? this.title(stop.procedure) : "";
      choices.appendChild(button(stop.loop ? T("Done: next round") : T("Done"), "d", "rs-bot__primary"));
      if (stop.again && ended.repeat) choices.appendChild(button(T("{what}: again", { what: ended.repeat }), "a"));
      spoken = T("Do these, then Done.");
    } else {
      var after = this.interpreter.change(this.play.vars, data.after);
      var over = data.called ? T("End of {procedure}", { procedure: data.called }) : T("End of the turn");
      this.where.textContent = over;
      view.appendChild(el("p", { "class": "rs-bot__heading" }, over + "."));
      if (after.goesOn) {
        view.appendChild(el("p", {}, T("Next: {state}.", { state: this.stateText(after.vars) })));
        var b = button(T("Start the next turn"), null, "rs-bot__primary");
        b.setAttribute("data-act", "next-turn");
        choices.appendChild(b);
      } else {
        // where the game ends is the state's to say, with its mark (a game length may be our reading)
        var last = this.data.state.filter(function (v) { return v.id === after.ended; })[0];
        view.appendChild(el("p", {}, last ? T("That was the last {name}: the game ends.", { name: last.name }) : T("That was the last one: the game ends.")));
        var mark = this.library('[data-ends="' + after.ended + '"]');
        if (mark) view.appendChild(mark);
        var s = button(T("Set up a new game"), null);
        s.setAttribute("data-act", "setup");
        choices.appendChild(s);
      }
      spoken = over + ".";
    }
    view.appendChild(choices);
    if (stop.roll) { // the screen's last roll: again where the rules allow it, or as rolled at the table
      var row = el("div", { "class": "rs-bot__roll" }), attempt = /^r(\d+)$/.exec(saved.log[saved.log.length - 1] || "");
      if (stop.roll.reroll) {
        var again = button(T("Roll again"), "r" + (attempt ? parseInt(attempt[1], 10) + 1 : 1));
        again.setAttribute("data-replace", "");
        row.appendChild(again);
      }
      row.appendChild(el("span", { "class": "rs-bot__or" }, T("Rolled at the table instead:")));
      for (var f = stop.roll.min; f <= stop.roll.max; f++) {
        var face = button(String(f), "f" + f, "rs-bot__face");
        face.setAttribute("data-replace", "");
        row.appendChild(face);
      }
      view.appendChild(row);
    }
    return spoken;
  };

  /* A loop played at the table (rulesmith/content/turn.py: table_loops), one screen: its steps and
     questions together, each with its full text and marks and, for a question, where each answer
     leads; then how it ended, one tap: the answers that lead out of it, under their questions. */
  Bot.prototype.renderLoop = function (view, choices, stop) {
    var self = this, proc = this.data.procedures[stop.procedure], loop = proc.loops[stop.loop];
    var inside = {}, numbers = loop.nodes.map(function (id) { inside[id] = true; return proc.nodes[id].number; });
    this.where.textContent = this.title(stop.procedure) + ", " + T("steps {numbers}", { numbers: numbers.join(", ") });
    view.appendChild(el("p", { "class": "rs-bot__heading" }, T("Play these steps at the table, round after round, until an answer leads out of them:")));
    var list = el("ol", { "class": "rs-bot__lines rs-bot__loop" });
    loop.nodes.forEach(function (id) {
      var node = proc.nodes[id], found = self.text(stop.procedure, id), body = found.querySelector(".rs-walker__text") || el("div");
      var item = el("li", { "class": "rs-bot__line rs-bot__line--" + node.type, "data-node": stop.procedure + "." + id });
      item.appendChild(el("span", { "class": "rs-bot__number" }, T("Step {number}:", { number: node.number }) + " "));
      item.appendChild(body);
      if (node.type === "decision") {
        var ways = el("ul", { "class": "rs-bot__ways" });
        node.labels.forEach(function (label, i) {
          var to = node.branches[i], out = !inside[to];
          var way = el("li", out ? { "data-exit": "" } : {});
          way.appendChild(el("strong", {}, label));
          way.appendChild(document.createTextNode(": " + (out ? T("out of the loop") : T("step {number}", { number: proc.nodes[to].number }))));
          ways.appendChild(way);
        });
        item.appendChild(ways);
      }
      var tables = found.querySelectorAll("details");
      for (var t = 0; t < tables.length; t++) item.appendChild(tables[t]);
      list.appendChild(item);
    });
    view.appendChild(list);
    choices.appendChild(el("p", { "class": "rs-bot__heading" }, T("How did it end?")));
    var asked = {};
    loop.exits.forEach(function (way, i) {
      if (!asked[way[0]]) {
        asked[way[0]] = el("div", { "class": "rs-bot__exit", role: "group" });
        var question = el("p", { "class": "rs-bot__q" }, self.plain(stop.procedure, way[0], true)); // its marks are in the list above
        question.id = "rs-exit-" + i;
        asked[way[0]].setAttribute("aria-labelledby", question.id);
        asked[way[0]].appendChild(question);
        choices.appendChild(asked[way[0]]);
      }
      asked[way[0]].appendChild(button(proc.nodes[way[0]].labels[way[1]], "x" + i));
    });
    return T("Play these steps at the table, then say how it ended.");
  };

  Bot.prototype.renderCard = function (view, deckId, drawn) {
    var deck = this.data.decks[deckId], box = el("div", { "class": "rs-bot__card", "data-card": deckId });
    var note = this.library('[data-deck="' + deckId + '"]');
    if (deck.cards.length) return;
    box.appendChild(el("p", { "class": "rs-bot__card-title" },
      drawn ? T("Draw from your own {deck}: the source does not reproduce it.", { deck: deck.name }) : T("Look at {deck}: the source does not reproduce it.", { deck: deck.name })));
    if (note) box.appendChild(note);
    if (!drawn) {
      var label = el("label", {}, T("What it shows (kept for this game):") + " ");
      var input = el("input", { type: "text", "class": "rs-bot__note", "data-deck": deckId });
      input.value = this.notes()[deckId] || "";
      label.appendChild(input);
      box.appendChild(label);
    }
    view.appendChild(box);
  };

  /* The chart of the current procedure, its current step marked and scrolled into view. */
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
      // another roll for the screen's roll replaces it: in the log, and as the history's entry
      var replace = target.hasAttribute("data-replace");
      if (replace && /^[rf]\d+$/.test(log[log.length - 1] || "")) log.pop();
      log.push(target.getAttribute("data-token"));
      this.push({ state: saved.state, seed: saved.seed, log: log }, replace);
    } else if (act === "events") {
      var ticked = Array.prototype.filter.call(this.stage.querySelectorAll(".rs-bot__events input"), function (i) { return i.checked; })
        .map(function (i) { return i.value; });
      log.push("e" + ticked.join("-"));
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
      var next = this.interpreter.change(this.play.vars, this.data.after).vars;
      this.push({ state: next, seed: saved.seed + 1, log: [] });
    } else if (act === "setup") {
      this.setup(saved && saved.state);
    }
  };

  Bot.prototype.start = function () {
    var self = this, root = this.root;
    root.hidden = false;
    var address = this.decode(location.hash);
    if (address) this.useBot(address.bot);
    var saved = address ? { state: address.state, seed: address.seed, log: address.log } : this.stored();
    this.switcher();
    this.useBot(this.current);
    root.addEventListener("click", function (event) {
      var target = event.target.closest("button");
      if (target && target.hasAttribute("data-bot")) { self.switchTo(parseInt(target.getAttribute("data-bot"), 10)); return; }
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
    this.showDropped();
  };

  Bot.prototype.showDropped = function () {
    var old = this.root.querySelector(".rs-bot__dropped");
    if (old) old.parentNode.removeChild(old);
    if (!this.dropped) return;
    var line = el("p", { "class": "rs-bot__dropped", role: "status" },
      T("The turn kept on this phone could not be read (an older version of this page, or changed by hand): it was dropped, and the bot starts clean."));
    this.root.insertBefore(line, this.root.querySelector(".rs-bot__top"));
  };

  function startAll() {
    var roots = document.querySelectorAll(".rs-bot");
    for (var i = 0; i < roots.length; i++) new Bot(roots[i]).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
