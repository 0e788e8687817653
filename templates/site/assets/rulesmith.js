/* A table wider than the screen scrolls inside its frame: make that frame reachable and named
   for keyboard and screen-reader users (axe: scrollable-region-focusable). Runs on every page
   view, including Material's instant navigation. */
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (frame) {
    if (frame.scrollWidth > frame.clientWidth + 1) {
      frame.tabIndex = 0;
      frame.setAttribute("role", "region");
      frame.setAttribute("aria-label", "Table, scrolls sideways");
    }
  });
});

/* Flowchart labels are laid out by Graphviz in Inter, the page's web font. If that font does not
   load (blocked, or a reader's setting), a wider fallback would spill out of the boxes: each line
   wider than the room its box gives it is then drawn squeezed to that room (SVG textLength).
   With Inter, every line already fits and nothing changes. Runs once fonts have settled. */
function rulesmithFitFlowcharts() {
  document.querySelectorAll("svg.rs-flowchart__svg g.node").forEach(function (node) {
    var shape = node.querySelector("path, polygon");
    if (!shape) return;
    var box = shape.getBBox(), pad = 2;
    node.querySelectorAll("text").forEach(function (text) {
      text.removeAttribute("textLength");
      text.removeAttribute("lengthAdjust");
      var x = parseFloat(text.getAttribute("x")), anchor = text.getAttribute("text-anchor") || "start";
      var left = x - box.x - pad, right = box.x + box.width - x - pad;
      var room = anchor === "middle" ? 2 * Math.min(left, right) : anchor === "end" ? left : right;
      var width = text.getComputedTextLength();
      if (room > 0 && width > room) {
        text.setAttribute("textLength", room.toFixed(1));
        text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    });
  });
}
document$.subscribe(function () {
  document.fonts.ready.then(rulesmithFitFlowcharts);
});
document.fonts.addEventListener("loadingdone", rulesmithFitFlowcharts);
document.fonts.addEventListener("loadingerror", rulesmithFitFlowcharts);
