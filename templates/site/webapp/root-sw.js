/* The site's own service worker, at the site's root (rulesmith/site/webapp.py fills in the names
 * in capitals). A game's worker (<game>/sw.js) keeps that game and answers its pages; this one
 * answers only the pages no game's worker holds, and only when the network fails: instead of the
 * browser's own error, a page of ours that says which game was not saved on this device, how to
 * save it, and which games are saved. Online, every request goes to the network as before; it
 * keeps nothing itself.
 */
"use strict";
var GAMES = __GAMES__;
var LANG = __LANG__;
// Its words in the site's language (rulesmith/words.py: the translations of the T(…) below,
// none for English); a worker has no page to read them from (assets/words.js), so they come filled in.
var WORDS = __WORDS__;
var ROOT = new URL("./", self.location.href);

// It takes over at once, but claims no open page: a game's page is its game worker's to control
// (assets/offline.js reads a controller as an earlier saved copy of the game).
self.addEventListener("install", function () { self.skipWaiting(); });

function escaped(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c];
  });
}

function T(msgid, params) {  // as assets/words.js: the translation, else the English, {name} filled
  var own = Object.prototype.hasOwnProperty.call(WORDS, msgid) ? WORDS[msgid] : null;
  return (typeof own === "string" && own ? own : msgid).replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, function (whole, key) {
    return params && Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole;
  });
}

function saved() { // the games whose worker has kept them: their caches, "rulesmith-<game>-<version>"
  return caches.keys().then(function (names) {
    return Object.keys(GAMES).filter(function (id) {
      return names.some(function (name) { return name.indexOf("rulesmith-" + id + "-") === 0; });
    });
  });
}

function notSaved(url, held) {
  var game = url.href.indexOf(ROOT.href) === 0 ? url.href.slice(ROOT.href.length).split("/")[0] : "";
  var name = Object.prototype.hasOwnProperty.call(GAMES, game) ? GAMES[game] : null;
  // every value escaped before it is put in; the words themselves hold no markup (tests/words)
  var shown = name ? { name: escaped(name) } : {};
  var body = "<h1>" + (name ? T("{name}: not saved on this device", shown) : T("Not saved on this device")) + "</h1>" +
    "<p>" + (name ? T("There is no connection, and {name} was not saved on this device for use without one.", shown)
      : T("There is no connection, and this page was not saved on this device for use without one.")) + "</p>" +
    "<p><strong>" + (name ? T("To save it:") : T("To save a game:")) + "</strong> " +
    (name ? T("open any of its pages once while online and wait for \u201cSaved for offline use\u201d at the foot of the page. {name} is then there without a connection.", shown)
      : T("open any of its pages once while online and wait for \u201cSaved for offline use\u201d at the foot of the page. This page is then there without a connection.")) + "</p>" +
    (held.length ? "<p>" + T("Saved on this device:") + "</p><ul>" + held.map(function (id) {
      return "<li><a href=\"" + escaped(new URL(encodeURIComponent(id) + "/index.html", ROOT).href) + "\">" + escaped(GAMES[id]) + "</a></li>";
    }).join("") + "</ul>" : "<p>" + T("No game is saved on this device yet.") + "</p>");
  var page = "<!doctype html><html lang=\"" + escaped(LANG) + "\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>" + (name ? T("{name}: not saved", shown) : T("Not saved")) + "</title>" +
    "<style>body{font:1.05rem/1.5 system-ui,sans-serif;max-width:36rem;margin:1.5rem auto;padding:0 1rem;" +
    "color:#1a1a1a;background:#fff}a{color:#0b57d0}@media (prefers-color-scheme:dark){" +
    "body{color:#e2e4e9;background:#1e2129}a{color:#8ab4f8}}</style></head><body>" + body + "</body></html>";
  return new Response(page, {status: 503, headers: {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}});
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith(fetch(request).catch(function () {
    return saved().then(function (held) { return notSaved(new URL(request.url), held); });
  }));
});
