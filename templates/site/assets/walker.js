/* Rulesmith: step through a solo-bot procedure, one decision at a time (issue 15).
 *
 * The page already holds every step, rendered from the procedure data and hidden
 * (templates/site/_walker_macros.md.j2); this script only shows one at a time. It reads the
 * procedures' graph from the page, and the procedure interpreter (procedure.js, as on the Bot turn
 * page) walks it: the place is the moves since the first procedure's start, kept in the page
 * address as the path taken,
 *   #walk=<procedure>.<node>.<node>…~<next procedure>.<node>…
 * so a reload, a locked phone or a shared link returns to the same step; every answer is an entry
 * of the browser's history (place.js, as on the Bot turn page), so the phone's Back undoes it.
 * A step that calls another procedure is entered ("+": the called procedure's walk follows) and
 * returned from at its end (",": the caller's walk goes on after the calling step):
 *   #walk=action.choose.raid+raid.check.done,action.performed
 * The walker shows where it is ("Action Phase › Raid, step 2").
 * Plain script, no dependencies; works from disk (file://) and from a server.
 */
(function () {
  "use strict";

  var addresses = rulesmithProcedure.addresses;
  var CURRENT = "rs-walker-current";

  /* The graph the page holds (the interpreter's, procedure.js): each panel a procedure, each of its
     steps a node; a step has data-next, an end data-end, a decision neither, and its choices are
     its branches in order; a step's call is its "Run" button (data-enter), optional where a
     choice goes on without it. */
  function readGraph(root) {
    var procedures = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-panel]"), function (panel) {
      var nodes = {};
      Array.prototype.forEach.call(panel.querySelectorAll("[data-node]"), function (element) {
        var to = Array.prototype.map.call(element.querySelectorAll("button[data-to]"), function (b) {
          return b.getAttribute("data-to");
        });
        var enter = element.querySelector("button[data-enter]"), node;
        if (element.hasAttribute("data-end")) node = { type: "end" };
        else if (element.hasAttribute("data-next")) node = { type: "step", next: element.getAttribute("data-next") };
        else node = { type: "decision", branches: to };
        if (enter) node.call = { procedure: enter.getAttribute("data-enter"), optional: to.length > 0 };
        nodes[element.getAttribute("data-node")] = node;
      });
      procedures[panel.getAttribute("data-panel")] = {
        title: panel.getAttribute("data-title"), start: panel.getAttribute("data-start"), nodes: nodes
      };
    });
    return { procedures: procedures, state: [] };
  }

  function Walker(root) {
    this.root = root;
    this.sequence = root.getAttribute("data-sequence").split(" ");
    this.live = root.querySelector(".rs-walker__live");
    this.where = root.querySelector(".rs-walker__where");
    this.interpreter = new rulesmithProcedure.Interpreter(readGraph(root));
    this.update(this.sequence[0], []);
  }

  Walker.prototype.panel = function (procedure) {
    return this.root.querySelector('[data-panel="' + procedure + '"]');
  };

  Walker.prototype.title = function (procedure) {
    return this.interpreter.procedures[procedure].title;
  };

  /* The place: the moves from the start of `first` that hold (the rest cut), the walk they lead to
     and its address. */
  Walker.prototype.update = function (first, moves) {
    var run = this.interpreter.run(first, moves, this.sequence);
    this.first = first;
    this.moves = moves.slice(0, run.valid);
    this.walk = run.walk;
    this.address = addresses.walk.format(run.trail);
    return run.valid === moves.length;
  };

  /* The place an address gives ({first, moves}), or null where it is not one of this walker's. */
  Walker.prototype.parse = function (hash) {
    var trail = addresses.walk.parse(hash);
    return trail && this.interpreter.follow(trail, this.sequence);
  };

  /* Text of an element as a screen reader hears it: icons by their labels. */
  function spoken(element) {
    var copy = element.cloneNode(true), icons = copy.querySelectorAll("[role=img][aria-label]");
    for (var i = 0; i < icons.length; i++) {
      icons[i].replaceWith(document.createTextNode(" " + icons[i].getAttribute("aria-label") + " "));
    }
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /* The flowcharts of a procedure that are inline <svg>: each node is <g class="node"
     data-chart-node="node id">…</g>, so a chart is the procedure's when it holds a node for every
     step. An <img> chart cannot be reached from the page and is left as it is. */
  Walker.prototype.charts = function (procedure) {
    var ids = Array.prototype.map.call(this.panel(procedure).querySelectorAll("[data-node]"), function (n) {
      return n.getAttribute("data-node");
    });
    return Array.prototype.filter.call(document.querySelectorAll("svg"), function (svg) {
      var nodes = {};
      Array.prototype.forEach.call(svg.querySelectorAll("g.node[data-chart-node]"), function (g) {
        nodes[g.getAttribute("data-chart-node")] = true;
      });
      return ids.every(function (id) { return nodes[id]; });
    });
  };

  Walker.prototype.highlight = function (procedure, id) {
    var old = document.querySelectorAll("svg ." + CURRENT);
    for (var i = 0; i < old.length; i++) old[i].classList.remove(CURRENT);
    this.charts(procedure).forEach(function (svg) {
      var nodes = svg.querySelectorAll("g.node[data-chart-node]");
      for (var j = 0; j < nodes.length; j++) {
        if (nodes[j].getAttribute("data-chart-node") === id) {
          nodes[j].classList.add(CURRENT);
          follow(svg, nodes[j]);
        }
      }
    });
  };

  /* A chart shown at print size in a frame (Full size on a phone): the frame scrolls to the current step. */
  function follow(svg, node) {
    var frame = svg.closest(".rs-flowchart__frame");
    if (!frame || (frame.scrollHeight <= frame.clientHeight + 1 && frame.scrollWidth <= frame.clientWidth + 1)) return;
    var box = node.getBoundingClientRect(), outer = frame.getBoundingClientRect();
    frame.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
    frame.scrollTop += box.top + box.height / 2 - (outer.top + outer.height / 2);
  }

  Walker.prototype.render = function (moved) {
    var root = this.root, self = this, frames = this.walk.frames, here = frames[frames.length - 1];
    root.setAttribute("data-procedure", here.procedure);
    var panels = root.querySelectorAll("[data-panel], [data-chart]");
    for (var p = 0; p < panels.length; p++) {
      panels[p].hidden = (panels[p].getAttribute("data-panel") || panels[p].getAttribute("data-chart")) !== here.procedure;
    }
    var nodes = root.querySelectorAll("[data-node]"), shown = null;
    for (var n = 0; n < nodes.length; n++) {
      var isHere = nodes[n].getAttribute("data-node") === here.node &&
        nodes[n].closest("[data-panel]").getAttribute("data-panel") === here.procedure;
      nodes[n].hidden = !isHere;
      if (isHere) {
        nodes[n].setAttribute("data-step", here.node);
        shown = nodes[n];
      } else {
        nodes[n].removeAttribute("data-step");
      }
    }
    var old = root.querySelectorAll("[data-return-row]");
    for (var o = 0; o < old.length; o++) old[o].remove();
    var end = shown.hasAttribute("data-end"), called = this.interpreter.called(this.walk);
    var next = this.interpreter.following(this.walk, this.sequence);
    if (end && called) { // the end of a called procedure: back to the step after the call
      var caller = frames[frames.length - 2].procedure, row = document.createElement("div");
      row.className = "rs-walker__choices";
      row.setAttribute("data-return-row", "");
      var back = document.createElement("button");
      back.type = "button";
      back.className = "md-button";
      back.setAttribute("data-return", "");
      back.textContent = T("Back to {procedure}", { procedure: this.title(caller) });
      row.appendChild(back);
      shown.appendChild(row);
    }
    var nextButton = root.querySelector("button[data-next]"), nextLink = root.querySelector("div.rs-walker__next");
    if (nextButton) {
      nextButton.hidden = !next;
      if (next) nextButton.textContent = T("Next procedure: {name}", { name: this.title(next) });
    }
    if (nextLink) nextLink.hidden = !end || called;
    root.querySelector("[data-back]").disabled = !this.moves.length;
    root.querySelector("[data-restart]").disabled = !this.moves.length;
    if (this.where && called) {
      this.where.textContent = frames.map(function (frame) { return self.title(frame.procedure); }).join(" \u203a ") +
        ", " + T("step {number}", { number: shown.getAttribute("data-number") });
    } else if (this.where && this.sequence.length > 1) {
      var outermost = frames[0].procedure;
      this.where.textContent = T("Procedure {number} of {count}", { number: this.sequence.indexOf(outermost) + 1, count: this.sequence.length });
    } else if (this.where) {
      this.where.textContent = "";
    }
    // the chart of the innermost procedure that has one here follows its step (a called procedure
    // without a chart on this page: the calling step stays marked in the caller's)
    for (var k = frames.length - 1; k >= 0; k--) {
      if (k === 0 || this.charts(frames[k].procedure).length) { this.highlight(frames[k].procedure, frames[k].node); break; }
    }
    if (!moved) return;
    var number = shown.getAttribute("data-number"), text = spoken(shown.querySelector(".rs-walker__text"));
    var choices = Array.prototype.map.call(shown.querySelectorAll("button[data-to], button[data-enter]"), function (b) {
      return b.textContent;
    });
    this.live.textContent = (end ? T("Step {number}, end:", { number: number }) : T("Step {number}:", { number: number })) + " " + text +
      (choices.length > 1 ? " " + T("Choices:") + " " + choices.join(", ") + "." : "");
    var focus = shown.querySelector("button[data-to], button[data-enter], button[data-return]") ||
      (nextButton && !nextButton.hidden && nextButton) ||
      (nextLink && !nextLink.hidden && nextLink.querySelector("a")) ||
      root.querySelector("[data-back]");
    focus.focus({ preventScroll: true });
    var top = root.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) root.scrollIntoView({ block: "start" });
  };

  /* A new place: a new entry of the history (Back undoes it). A move that does not hold (the next
     procedure where none follows) changes nothing: the moves before it are the place already. */
  Walker.prototype.go = function (first, moves) {
    if (!this.update(first, moves)) return;
    this.place.go(this.address);
    this.render(true);
  };

  /* The place an address gives (Back, Forward, an address typed), where it is one of this walker's. */
  Walker.prototype.show = function (address) {
    var found = this.parse(address);
    if (!found) return;
    var before = this.address;
    this.update(found.first, found.moves);
    if (this.address !== before) this.render(true);
  };

  /* The move a choice makes: a "Run" button enters its call, "Back to …" returns from it, a choice
     that goes to a node is the move there (a branch, "Done", "Go on without it"); null otherwise. */
  Walker.prototype.moveOf = function (button) {
    if (button.hasAttribute("data-enter") || button.hasAttribute("data-return")) return "d";
    return button.hasAttribute("data-to") ? this.interpreter.moveTo(this.walk, button.getAttribute("data-to")) : null;
  };

  Walker.prototype.click = function (button) {
    var moves = this.moves.slice(), move = this.moveOf(button);
    if (move !== null) {
      moves.push(move);
    } else if (button.hasAttribute("data-back")) { // one answer back: the history's Back where it is that
      if (!moves.length) return;
      moves.pop();
      this.update(this.first, moves);
      this.render(true);
      this.place.undo(this.address);
      return;
    } else if (button.hasAttribute("data-restart")) {
      moves = [];
    } else if (button.hasAttribute("data-next")) {
      moves.push("~");
    } else {
      return;
    }
    this.go(this.first, moves);
  };

  Walker.prototype.start = function () {
    var self = this, root = this.root;
    root.hidden = false;
    var fromAddress = this.parse(location.hash);
    if (fromAddress) this.update(fromAddress.first, fromAddress.moves);
    this.render(false);
    this.place = rulesmithPlace(function () { return self.address; }, function (address) { self.show(address); });
    // an address that went astray is corrected to the place it reached; a link that opened the
    // page at a place shows it (a reload keeps the reader's scroll position)
    if (!this.place.start(!!fromAddress) && fromAddress) root.scrollIntoView({ block: "start" });
    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (button && root.contains(button) && !button.disabled) self.click(button);
    });
    // Full size (print size, in a frame that pans sideways): the frame shows the current step
    var zooms = document.querySelectorAll(".rs-flowchart__zoom");
    for (var z = 0; z < zooms.length; z++) {
      zooms[z].addEventListener("change", function (event) {
        var frame = event.currentTarget.parentNode.querySelector(".rs-flowchart__frame");
        var current = frame && frame.querySelector("svg g.node." + CURRENT);
        if (current) follow(current.ownerSVGElement, current);
      });
    }
    var jumps = document.querySelectorAll("button[data-walk]");
    for (var i = 0; i < jumps.length; i++) {
      var procedure = jumps[i].getAttribute("data-walk");
      if (this.sequence.indexOf(procedure) < 0) continue;
      jumps[i].hidden = false;
      jumps[i].addEventListener("click", function (event) {
        self.go(event.currentTarget.getAttribute("data-walk"), []);
        root.scrollIntoView({ block: "start" });
      });
    }
  };

  function startAll() {
    var roots = document.querySelectorAll(".rs-walker[data-sequence]");
    for (var i = 0; i < roots.length; i++) new Walker(roots[i]).start();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
