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
