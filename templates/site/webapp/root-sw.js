/* The site's own service worker, at the site's root (rulesmith/site/webapp.py fills in the names
 * in capitals). A game's worker (<game>/sw.js) keeps that game and answers its pages; this one
 * answers only the pages no game's worker holds, and only when the network fails: instead of the
 * browser's own error, a page of ours that says which game was not saved on this device, how to
 * save it, and which games are saved. Online, every request goes to the network as before; it
 * keeps nothing itself.
 */
"use strict";
var GAMES = __GAMES__;
var ROOT = new URL("./", self.location.href);

// It takes over at once, but claims no open page: a game's page is its game worker's to control
// (assets/offline.js reads a controller as an earlier saved copy of the game).
self.addEventListener("install", function () { self.skipWaiting(); });

function escaped(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c];
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
  var what = name ? escaped(name) + " is" : "This page is";
  var body = "<h1>" + (name ? escaped(name) + ": not saved on this device" : "Not saved on this device") + "</h1>" +
    "<p>There is no connection, and " + (name ? escaped(name) + " was" : "this page was") +
    " not saved on this device for use without one.</p>" +
    "<p><strong>To save " + (name ? "it" : "a game") + ":</strong> open any of its pages once while online and wait for " +
    "\u201cSaved for offline use\u201d at the foot of the page. " + what + " then there without a connection.</p>" +
    (held.length ? "<p>Saved on this device:</p><ul>" + held.map(function (id) {
      return "<li><a href=\"" + escaped(new URL(encodeURIComponent(id) + "/index.html", ROOT).href) + "\">" + escaped(GAMES[id]) + "</a></li>";
    }).join("") + "</ul>" : "<p>No game is saved on this device yet.</p>");
  var page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>" + (name ? escaped(name) + ": not saved" : "Not saved") + "</title>" +
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
