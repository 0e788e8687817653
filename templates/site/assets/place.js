/* Rulesmith: a walker's place in the page address, each answer an entry of the browser's history
 * (issue 25), for the procedure pages' walker (walker.js) and the Bot turn page (botturn.js) alike:
 * the phone's Back button undoes one answer and Forward gives it again; a reload or a locked phone
 * comes back to the same place; Back from the place the page opened at leaves the page, as usual.
 *
 * Every entry of the page's history keeps its place in its state (rsPlace: the place's address,
 * "#walk=…" or "#bot&…"): an answer's entry, the page's first entry (whose address may have no
 * place: it opened at the first step) and an entry made by a link inside the page (#a-heading),
 * which keeps the place shown when it was followed. An answer's entry also keeps the place it was
 * given at (rsFrom), so that the walker's own Back button goes back through the history where
 * that is the place one answer back, and the browser's Forward still gives the answer again.
 *
 * One place per page (one walker). Plain script, no dependencies; a page with a walker or the Bot
 * turn companion loads it before the scripts that use it (the bundle walking.js, with the procedure
 * interpreter, procedure.js, which reads and writes the addresses: templates/theme/main.html).
 */
var rulesmithPlace = (function () {
  "use strict";

  function placeOf(state) {
    return state && typeof state.rsPlace === "string" ? state.rsPlace : null;
  }

  /* current(): the address of the place shown now; show(address): shows the place an address
     gives (it does nothing for an address that gives none of its places). */
  function Place(current, show) {
    this.current = current;
    this.show = show;
  }

  /* The page has started: the entry it stands on keeps its place (and its address is corrected
     to it, where `correct`). Returns whether the reader had this entry before (a reload, or
     Back or Forward from another page: the browser puts the scroll back where it was). */
  Place.prototype.start = function (correct) {
    var self = this, seen = placeOf(history.state) !== null;
    this.replace(this.current(), !correct);
    // Between the page's own entries the walker, not the browser, says where the page scrolls: the
    // step shown in view (a browser puts back where the reader had scrolled on leaving that entry,
    // maybe far from the walker). The entry the page is left from (a reload, another page, a
    // locked phone) has the browser's own restoring again, so that coming back keeps the reader's
    // place on the page; it is the walker's again once the page has loaded (the browser restores
    // while it loads). New entries take the mode of the entry they are made from.
    if ("scrollRestoration" in history) {
      var manual = function () { setTimeout(function () { history.scrollRestoration = "manual"; }, 0); };
      if (document.readyState === "complete") manual();
      else window.addEventListener("load", manual);
      window.addEventListener("pagehide", function () { history.scrollRestoration = "auto"; });
      window.addEventListener("pageshow", function (event) { if (event.persisted) manual(); });
    }
    window.addEventListener("popstate", function (event) {
      var place = placeOf(event.state);
      self.show(place === null ? location.hash : place);
      if (place === null) self.replace(self.current(), true);
    });
    window.addEventListener("hashchange", function () {
      if (placeOf(history.state) !== null) return; // an entry of ours: popstate has shown it
      self.show(location.hash); // an address typed, or a link inside the page: the place stays
      self.replace(self.current(), true);
    });
    return seen;
  };

  /* An answer: a new entry of the history. */
  Place.prototype.go = function (address) {
    var from = placeOf(history.state);
    if (address === from) return;
    if ("scrollRestoration" in history) history.scrollRestoration = "manual"; // answered before the page had loaded
    try {
      history.pushState({ rsPlace: address, rsFrom: from }, "", address);
    } catch (error) { // a browser that refuses pushState here: the hashchange keeps the place
      location.hash = address;
    }
  };

  /* The place of the entry the page stands on changes (corrected, or undone in place): no new
     entry; the page's address too, unless `keepAddress`. */
  Place.prototype.replace = function (address, keepAddress) {
    var state = Object.assign({}, history.state, { rsPlace: address });
    try {
      history.replaceState(state, "", keepAddress ? location.href : address || location.pathname + location.search);
    } catch (error) { // some browsers refuse replaceState on file:// pages
      if (!keepAddress && address) location.replace(address);
    }
  };

  /* One answer back, to the place `address`, which the caller shows already: through the
     history where the entry before is that place (so Forward gives the answer again), else in
     place (the page was opened at a later place, from a link or a bookmark). */
  Place.prototype.undo = function (address) {
    if (history.state && history.state.rsFrom === address) history.back();
    else this.replace(address);
  };

  return function (current, show) { return new Place(current, show); };
})();
