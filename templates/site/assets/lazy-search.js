/* Load the search index only when a reader first asks for search.
 *
 * Material requests search/search_index.json as soon as a page loads (XMLHttpRequest), and the
 * index holds every page's text: about 200 KB per game, most of a phone's first load for a
 * reader who never searches. This holds that one request back until the first sign of searching:
 * a tap or focus on the search field or its button, a search shortcut key, or a page opened with
 * a search query; Material then builds the index as usual. (From disk, file://, Material loads
 * the index as a local script instead: nothing travels over a network, and it is left alone.)
 * Loaded as a polyfill, before Material's bundle.
 */
(function () {
  "use strict";
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  var held = [], wanted = /[?&#]q=/.test(window.location.search + window.location.hash);

  function release() {
    wanted = true;
    var now = held;
    held = [];
    now.forEach(function (request) { send.apply(request[0], request[1]); });
  }

  function wantsSearch(event) {
    var target = event.target;
    if (event.type === "keydown") {
      var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      return !typing && /^[/sSfF]$/.test(event.key);
    }
    return !!(target && target.closest && target.closest(".md-search, label[for='__search'], #__search"));
  }

  ["pointerdown", "focusin", "keydown", "touchstart"].forEach(function (type) {
    document.addEventListener(type, function (event) { if (!wanted && wantsSearch(event)) release(); }, true);
  });

  XMLHttpRequest.prototype.open = function (method, url) {
    this._rulesmithSearchIndex = /\/search\/search_index\.json(\?|$)/.test(String(url));
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this._rulesmithSearchIndex && !wanted) {
      held.push([this, arguments]);
      return;
    }
    return send.apply(this, arguments);
  };
})();
