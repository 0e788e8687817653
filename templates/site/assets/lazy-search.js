/* Start the search only when a reader first asks for it.
 *
 * Material starts its search worker on every page load, and the worker loads the whole search
 * index at once (about 200 KB per game): most of a phone's first load for a reader who never
 * searches. This stands in for the Worker Material creates: messages wait in a queue, and the
 * real worker (and with it the index) starts on the first sign of searching: a tap or focus on
 * the search field or its button, a search shortcut key, or a page opened with a search query.
 * Loaded as a polyfill, after the offline shim and before Material's bundle.
 */
(function () {
  "use strict";
  var Real = window.Worker;
  if (!Real) return;
  var waiting = [];

  function wantsSearch(event) {
    var target = event.target;
    if (event.type === "keydown") {
      var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      return !typing && (event.key === "/" || event.key === "s" || event.key === "S" || event.key === "f" || event.key === "F");
    }
    return !!(target && target.closest && target.closest(".md-search, label[for='__search'], #__search"));
  }

  function startAll() {
    var started = waiting;
    waiting = [];
    started.forEach(function (start) { start(); });
  }

  ["pointerdown", "focusin", "keydown", "touchstart"].forEach(function (type) {
    document.addEventListener(type, function (event) { if (wantsSearch(event)) startAll(); }, true);
  });

  function LazyWorker(url, options) {
    var self = this, worker = null, queue = [], listeners = [];
    function start() {
      if (worker) return;
      worker = new Real(url, options);
      worker.onmessage = function (event) { if (self.onmessage) self.onmessage(event); };
      worker.onerror = function (event) { if (self.onerror) self.onerror(event); };
      listeners.forEach(function (l) { worker.addEventListener(l[0], l[1], l[2]); });
      queue.forEach(function (m) { worker.postMessage(m[0], m[1]); });
      queue = [];
    }
    self.onmessage = null;
    self.onerror = null;
    self.postMessage = function (message, transfer) {
      if (worker) worker.postMessage(message, transfer); else queue.push([message, transfer]);
    };
    self.addEventListener = function (type, listener, opts) {
      listeners.push([type, listener, opts]);
      if (worker) worker.addEventListener(type, listener, opts);
    };
    self.removeEventListener = function (type, listener, opts) {
      listeners = listeners.filter(function (l) { return l[0] !== type || l[1] !== listener; });
      if (worker) worker.removeEventListener(type, listener, opts);
    };
    self.terminate = function () { if (worker) worker.terminate(); };
    if (/[?&#]q=/.test(window.location.search + window.location.hash)) start(); else waiting.push(start);
  }
  window.Worker = LazyWorker;
})();
