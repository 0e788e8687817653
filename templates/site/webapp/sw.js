/* The service worker of one game (rulesmith/site/webapp.py fills in the names in capitals).
 *
 * Installed from the game's folder, so its scope is that game. On install it keeps every file a
 * reader opens at the table (pages, assets, the search index, the PDFs) in a cache named after
 * its version; pages are then answered from that cache first, with or without signal. A new
 * version waits until the page asks it to take over (the reader's "Update"), then removes the old
 * cache. Anything not kept (another game's pages, version.json) goes to the network as usual.
 */
"use strict";
var GAME = __GAME__;
var VERSION = __VERSION__;
var LABEL = __LABEL__;
var FILES = __FILES__;
var PREFIX = "rulesmith-" + GAME + "-";
var CACHE = PREFIX + VERSION;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(FILES.map(function (file) { return new Request(file, {cache: "reload"}); }));
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "take-over") self.skipWaiting();
  if (data.type === "what-do-you-hold" && event.ports[0]) {
    event.ports[0].postMessage({version: VERSION, label: LABEL, files: FILES.length});
  }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    var url = new URL(request.url);
    if (request.mode === "navigate" && url.pathname.slice(-1) === "/") url.pathname += "index.html";
    return cache.match(url.href, {ignoreSearch: true}).then(function (kept) {
      if (kept) return kept;
      return fetch(request).catch(function (error) {
        // Offline and not kept: a page of this game that is not a file (a typo in the address)
        // gets the 404 page if kept, else the failure stands.
        if (request.mode !== "navigate") throw error;
        return cache.match(new URL("../404.html", self.location.href).href).then(function (page) {
          if (page) return page;
          throw error;
        });
      });
    });
  }));
});
