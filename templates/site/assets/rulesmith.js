/* A table wider than the screen scrolls inside its frame: make that frame reachable and named
   for keyboard and screen-reader users (axe: scrollable-region-focusable). Runs on every page
   view, including Material's instant navigation. */
document$.subscribe(function () {
  // All measured first, then all changed: a change between two measurements would make the
  // browser lay the page out again for each table (a long task on a page of many tables).
  var frames = Array.prototype.filter.call(document.querySelectorAll(".md-typeset__scrollwrap"), function (frame) {
    return frame.scrollWidth > frame.clientWidth + 1;
  });
  // On a phone, a table still wider than the screen is stacked (rulesmith.css): each row a block,
  // each cell led by its column's heading, so the page pans one way only.
  if (window.matchMedia("(max-width: 44.9375em)").matches) {
    frames = frames.filter(function (frame) {
      var table = frame.querySelector("table"), head = table && table.tHead && table.tHead.rows[0];
      if (!head || head.cells.length < 3) return true;
      var labels = Array.prototype.map.call(head.cells, function (cell) { return cell.textContent.trim(); });
      Array.prototype.forEach.call(table.tBodies, function (body) {
        Array.prototype.forEach.call(body.rows, function (row) {
          Array.prototype.forEach.call(row.cells, function (cell, k) { if (labels[k]) cell.setAttribute("data-label", labels[k]); });
        });
      });
      table.setAttribute("data-rs-stacked", "");
      return false;
    });
  }
  frames.forEach(function (frame) {
    frame.tabIndex = 0;
    frame.setAttribute("role", "region");
    frame.setAttribute("aria-label", T("Table, scrolls sideways"));
  });
});

/* Flowchart labels are laid out by Graphviz in Inter, the page's web font. If that font does not
   load (blocked, or a reader's setting), a wider fallback would spill out of the boxes: each line
   wider than the room its box gives it is then drawn squeezed to that room (SVG textLength).
   With Inter, every line already fits and nothing changes. Runs once fonts have settled. */
function rulesmithFitFlowcharts() {
  // Measured all at once, then changed: one layout of the page rather than one for each line.
  var texts = [];
  document.querySelectorAll("svg.rs-flowchart__svg g.node").forEach(function (node) {
    var shape = node.querySelector("path, polygon");
    if (!shape) return;
    node.querySelectorAll("text").forEach(function (text) {
      if (text.hasAttribute("textLength")) {
        text.removeAttribute("textLength");
        text.removeAttribute("lengthAdjust");
      }
      texts.push([shape, text]);
    });
  });
  var fits = texts.map(function (pair) {
    var box = pair[0].getBBox(), text = pair[1], pad = 2;
    var x = parseFloat(text.getAttribute("x")), anchor = text.getAttribute("text-anchor") || "start";
    var left = x - box.x - pad, right = box.x + box.width - x - pad;
    var room = anchor === "middle" ? 2 * Math.min(left, right) : anchor === "end" ? left : right;
    return room > 0 && text.getComputedTextLength() > room ? room : 0;
  });
  texts.forEach(function (pair, i) {
    if (fits[i]) {
      pair[1].setAttribute("textLength", fits[i].toFixed(1));
      pair[1].setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });
}
document$.subscribe(function () {
  document.fonts.ready.then(rulesmithFitFlowcharts);
});
document.fonts.addEventListener("loadingdone", rulesmithFitFlowcharts);
document.fonts.addEventListener("loadingerror", rulesmithFitFlowcharts);

/* A game's overview offers to resume a bot turn in progress (issue 43): the Bot turn page keeps,
   beside its place, where the turn stands ("Round 2 · Players 3: Bot: Influence action, step 4");
   the link goes back to that place. Nothing is shown without a turn in progress. */
document$.subscribe(function () {
  document.querySelectorAll(".rs-resume").forEach(function (holder) {
    // the Bot turn page: the link of the line before (MkDocs writes its address)
    var before = holder.previousElementSibling, link0 = before && before.querySelector("a[href]");
    if (!link0) return;
    var page = new URL(link0.getAttribute("href"), location.href), kept = null;
    try { kept = JSON.parse(localStorage.getItem("rulesmith-bot:" + page.pathname + ":resume") || "null"); } catch (error) { kept = null; }
    if (!kept || typeof kept.where !== "string" || typeof kept.hash !== "string" || kept.hash.indexOf("#bot&") !== 0) return;
    var link = document.createElement("a");
    link.className = "md-button md-button--primary rs-resume__link";
    link.href = page.pathname + kept.hash;
    link.textContent = T("Resume: {where}", { where: kept.where });
    holder.textContent = "";
    holder.appendChild(link);
    holder.hidden = false;
  });
});

/* The language switch (theme/partials/alternate.html) leads to the same page in the other
   language; the item the reader is at (the address's #anchor: anchors are ids, the same in
   every language) goes with it. */
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.rs-language");
  if (link && location.hash && !link.hash) link.hash = location.hash;
}, true);
