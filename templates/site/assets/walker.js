/* Rulesmith: step through a solo-bot procedure, one decision at a time (issue 15).
 *
 * The page already holds every step, rendered from the procedure data and hidden
 * (templates/site/_walker_macros.md.j2); this script only shows one at a time. The place is the
 * path taken, kept in the page address as
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

  var PREFIX = "walk=";
  var CURRENT = "rs-walker-current";

  function Walker(root) {
    this.root = root;
    this.sequence = root.getAttribute("data-sequence").split(" ");
    this.live = root.querySelector(".rs-walker__live");
    this.where = root.querySelector(".rs-walker__where");
    this.state = this.initial(this.sequence[0]);
  }

  Walker.prototype.panel = function (procedure) {
    return this.root.querySelector('[data-panel="' + procedure + '"]');
  };

  Walker.prototype.node = function (procedure, id) {
    var panel = this.panel(procedure);
    return panel && panel.querySelector('[data-node="' + id + '"]');
  };

  Walker.prototype.initial = function (procedure) {
    return [{ procedure: procedure, path: [this.panel(procedure).getAttribute("data-start")], how: "" }];
  };

  /* The call a node makes (the procedure it enters), or null. */
  Walker.prototype.callOf = function (procedure, id) {
    var button = this.node(procedure, id) && this.node(procedure, id).querySelector("button[data-enter]");
    return button ? button.getAttribute("data-enter") : null;
  };

  /* The procedures being walked, outermost first: each the index of its latest segment. A "+"
     segment enters a call; a "," segment is its caller again, after the calling step. */
  Walker.prototype.stack = function (state) {
    var stack = [];
    for (var i = 0; i < state.length; i++) {
      if (state[i].how === "+") stack.push(i);
      else if (state[i].how === ",") { stack.pop(); stack[stack.length - 1] = i; }
      else stack = [i];
    }
    return stack;
  };

  Walker.prototype.targets = function (procedure, id) {
    var element = this.node(procedure, id), found = [];
    if (!element) return found;
    var buttons = element.querySelectorAll("button[data-to]");
    for (var i = 0; i < buttons.length; i++) found.push(buttons[i].getAttribute("data-to"));
    return found;
  };

  Walker.prototype.isEnd = function (procedure, id) {
    var element = this.node(procedure, id);
    return !!element && element.hasAttribute("data-end");
  };

  Walker.prototype.nextProcedure = function (procedure) {
    var at = this.sequence.indexOf(procedure);
    return at >= 0 && at + 1 < this.sequence.length ? this.sequence[at + 1] : null;
  };

  /* The longest valid walk the address describes, or null if it describes none of this walker. */
  Walker.prototype.parse = function (hash) {
    hash = rulesmithPlace.decode(hash);
    if (hash.indexOf(PREFIX) !== 0) return null;
    var segments = hash.slice(PREFIX.length).split(/(?=[~+,])/), state = [];
    for (var s = 0; s < segments.length; s++) {
      var how = /^[~+,]/.test(segments[s]) ? segments[s].charAt(0) : "";
      var parts = segments[s].slice(how.length).split("."), procedure = parts[0];
      if (!this.panel(procedure) || (how === "") !== (s === 0)) break;
      var start = this.panel(procedure).getAttribute("data-start");
      if (state.length) {
        var stack = this.stack(state), last = state[state.length - 1], at = last.path[last.path.length - 1];
        if (how === "~") {
          if (stack.length > 1 || procedure !== this.nextProcedure(last.procedure) || !this.isEnd(last.procedure, at)) break;
        } else if (how === "+") {
          if (this.callOf(last.procedure, at) !== procedure) break;
        } else { // "," back to the caller, after its calling step
          if (stack.length < 2 || !this.isEnd(last.procedure, at)) break;
          var caller = state[stack[stack.length - 2]], calling = caller.path[caller.path.length - 1];
          if (procedure !== caller.procedure) break;
          start = this.node(procedure, calling).getAttribute("data-next");
        }
      } else if (this.sequence.indexOf(procedure) < 0) {
        break;
      }
      var path = [start];
      for (var i = parts.length > 1 && parts[1] === start ? 2 : 1; i < parts.length; i++) {
        if (this.targets(procedure, path[path.length - 1]).indexOf(parts[i]) < 0) break;
        path.push(parts[i]);
      }
      state.push({ procedure: procedure, path: path, how: how });
      if (i < parts.length) break; // the rest of the address does not follow the procedure
    }
    return state.length ? state : null;
  };

  Walker.prototype.serialise = function () {
    return PREFIX + this.state.map(function (segment, i) {
      return (i ? segment.how || "~" : "") + [segment.procedure].concat(segment.path).join(".");
    }).join("");
  };

  Walker.prototype.current = function () {
    var segment = this.state[this.state.length - 1];
    return { procedure: segment.procedure, id: segment.path[segment.path.length - 1] };
  };

  Walker.prototype.atStart = function () {
    return this.state.length === 1 && this.state[0].path.length === 1;
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

  /* A chart shown at print size in a frame (a phone): the frame scrolls to the current step. */
  function follow(svg, node) {
    var frame = svg.closest(".rs-flowchart__frame");
    if (!frame || (frame.scrollHeight <= frame.clientHeight + 1 && frame.scrollWidth <= frame.clientWidth + 1)) return;
    var box = node.getBoundingClientRect(), outer = frame.getBoundingClientRect();
    frame.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
    frame.scrollTop += box.top + box.height / 2 - (outer.top + outer.height / 2);
  }

  Walker.prototype.render = function (moved) {
    var here = this.current(), root = this.root, self = this, stack = this.stack(this.state);
    root.setAttribute("data-procedure", here.procedure);
    var panels = root.querySelectorAll("[data-panel], [data-chart]");
    for (var p = 0; p < panels.length; p++) {
      panels[p].hidden = (panels[p].getAttribute("data-panel") || panels[p].getAttribute("data-chart")) !== here.procedure;
    }
    var nodes = root.querySelectorAll("[data-node]"), shown = null;
    for (var n = 0; n < nodes.length; n++) {
      var isHere = nodes[n].getAttribute("data-node") === here.id &&
        nodes[n].closest("[data-panel]").getAttribute("data-panel") === here.procedure;
      nodes[n].hidden = !isHere;
      if (isHere) {
        nodes[n].setAttribute("data-step", here.id);
        shown = nodes[n];
      } else {
        nodes[n].removeAttribute("data-step");
      }
    }
    var old = root.querySelectorAll("[data-return-row]");
    for (var o = 0; o < old.length; o++) old[o].remove();
    var end = shown.hasAttribute("data-end"), called = stack.length > 1;
    var next = end && !called ? this.nextProcedure(here.procedure) : null;
    if (end && called) { // the end of a called procedure: back to the step after the call
      var caller = this.state[stack[stack.length - 2]].procedure, row = document.createElement("div");
      row.className = "rs-walker__choices";
      row.setAttribute("data-return-row", "");
      var back = document.createElement("button");
      back.type = "button";
      back.className = "md-button";
      back.setAttribute("data-return", "");
      back.textContent = "Back to " + this.panel(caller).getAttribute("data-title");
      row.appendChild(back);
      shown.appendChild(row);
    }
    var nextButton = root.querySelector("button[data-next]"), nextLink = root.querySelector("div.rs-walker__next");
    if (nextButton) {
      nextButton.hidden = !next;
      if (next) nextButton.textContent = "Next procedure: " + this.panel(next).getAttribute("data-title");
    }
    if (nextLink) nextLink.hidden = !end || called;
    root.querySelector("[data-back]").disabled = this.atStart();
    root.querySelector("[data-restart]").disabled = this.atStart();
    if (this.where && called) {
      this.where.textContent = stack.map(function (i) {
        return self.panel(self.state[i].procedure).getAttribute("data-title");
      }).join(" \u203a ") + ", step " + shown.getAttribute("data-number");
    } else if (this.where && this.sequence.length > 1) {
      var top = this.state[stack[0]].procedure;
      this.where.textContent = "Procedure " + (this.sequence.indexOf(top) + 1) + " of " + this.sequence.length;
    } else if (this.where) {
      this.where.textContent = "";
    }
    // the chart of the innermost procedure that has one here follows its step (a called procedure
    // without a chart on this page: the calling step stays marked in the caller's)
    for (var k = stack.length - 1; k >= 0; k--) {
      var segment = this.state[stack[k]], at = segment.path[segment.path.length - 1];
      if (k === 0 || this.charts(segment.procedure).length) { this.highlight(segment.procedure, at); break; }
    }
    if (!moved) return;
    var number = shown.getAttribute("data-number"), text = spoken(shown.querySelector(".rs-walker__text"));
    var choices = Array.prototype.map.call(shown.querySelectorAll("button[data-to], button[data-enter]"), function (b) {
      return b.textContent;
    });
    this.live.textContent = "Step " + number + (end ? ", end" : "") + ": " + text +
      (choices.length > 1 ? " Choices: " + choices.join(", ") + "." : "");
    var focus = shown.querySelector("button[data-to], button[data-enter], button[data-return]") ||
      (nextButton && !nextButton.hidden && nextButton) ||
      (nextLink && !nextLink.hidden && nextLink.querySelector("a")) ||
      root.querySelector("[data-back]");
    focus.focus({ preventScroll: true });
    var top = root.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) root.scrollIntoView({ block: "start" });
  };

  /* A new place: a new entry of the history (Back undoes it). */
  Walker.prototype.go = function (state) {
    this.state = state;
    this.place.go("#" + this.serialise());
    this.render(true);
  };

  /* The place an address gives (Back, Forward, an address typed), where it is one of this walker's. */
  Walker.prototype.show = function (address) {
    var state = this.parse(address);
    if (!state) return;
    var before = this.serialise();
    this.state = state;
    if (this.serialise() !== before) this.render(true);
  };

  Walker.prototype.copy = function () {
    return this.state.map(function (s) { return { procedure: s.procedure, path: s.path.slice(), how: s.how }; });
  };

  Walker.prototype.click = function (button) {
    var state = this.copy(), last = state[state.length - 1];
    if (button.hasAttribute("data-to")) {
      last.path.push(button.getAttribute("data-to"));
    } else if (button.hasAttribute("data-enter")) {
      var entered = button.getAttribute("data-enter");
      if (!this.panel(entered)) return;
      state.push({ procedure: entered, path: [this.panel(entered).getAttribute("data-start")], how: "+" });
    } else if (button.hasAttribute("data-return")) {
      var stack = this.stack(state);
      if (stack.length < 2) return;
      var caller = state[stack[stack.length - 2]], calling = caller.path[caller.path.length - 1];
      state.push({ procedure: caller.procedure, path: [this.node(caller.procedure, calling).getAttribute("data-next")], how: "," });
    } else if (button.hasAttribute("data-back")) { // one answer back: the history's Back where it is that
      if (last.path.length > 1) last.path.pop();
      else if (state.length > 1) state.pop();
      else return;
      this.state = state;
      this.render(true);
      this.place.undo("#" + this.serialise());
      return;
    } else if (button.hasAttribute("data-restart")) {
      state = this.initial(state[0].procedure);
    } else if (button.hasAttribute("data-next")) {
      var next = this.nextProcedure(last.procedure);
      if (!next || this.stack(state).length > 1) return;
      var following = this.initial(next)[0];
      following.how = "~";
      state.push(following);
    } else {
      return;
    }
    this.go(state);
  };

  Walker.prototype.start = function () {
    var self = this, root = this.root;
    root.hidden = false;
    var fromAddress = this.parse(location.hash);
    if (fromAddress) this.state = fromAddress;
    this.render(false);
    this.place = rulesmithPlace(function () { return "#" + self.serialise(); }, function (address) { self.show(address); });
    // an address that went astray is corrected to the place it reached; a link that opened the
    // page at a place shows it (a reload keeps the reader's scroll position)
    if (!this.place.start(!!fromAddress) && fromAddress) root.scrollIntoView({ block: "start" });
    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (button && root.contains(button) && !button.disabled) self.click(button);
    });
    var jumps = document.querySelectorAll("button[data-walk]");
    for (var i = 0; i < jumps.length; i++) {
      var procedure = jumps[i].getAttribute("data-walk");
      if (this.sequence.indexOf(procedure) < 0) continue;
      jumps[i].hidden = false;
      jumps[i].addEventListener("click", function (event) {
        self.go(self.initial(event.currentTarget.getAttribute("data-walk")));
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
