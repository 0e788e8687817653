/* A game's pages as a web app that works without signal (its worker: <game>/sw.js, written by
 * rulesmith/site/webapp.py). Served over HTTP(S), a game's page registers its game's worker,
 * which keeps the game for offline use, and says at the foot of the page what the saved copy
 * holds ("Saved for offline use: Data of 2026-11-30 · errata up to e2"). When the hosted copy is
 * newer, the new worker waits and the page offers "Update"; it then takes over and the page
 * reloads. From disk (file://) nothing is registered: the pages work as they are.
 */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(window.location.protocol)) return;
  var manifest = document.querySelector('link[rel="manifest"]');
  if (!manifest) return;  // not a game's page
  var folder = new URL(".", manifest.href).href;

  // The note's place is made now, while the page is first laid out, with room for two lines and
  // laid out on its own (CSS: contain): what it says later, once the page has loaded, then changes
  // that box only. Appended after load, the note made the browser lay out the whole page again
  // (a long task on a phone, issue 29). A live region that is there before it speaks is also the
  // one screen readers announce.
  var note = document.createElement("p");
  note.className = "rs-offline";
  note.setAttribute("role", "status");
  (document.querySelector(".md-footer-meta__inner") || document.body).append(note);

  function say(text, action) {
    note.textContent = text;
    if (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "rs-offline__update";
      button.textContent = action.label;
      button.addEventListener("click", action.run);
      note.append(" ", button);
    }
  }

  function ask(worker) {
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { resolve(event.data); };
      worker.postMessage({type: "what-do-you-hold"}, [channel.port2]);
    });
  }

  function offer(waiting) {
    ask(waiting).then(function (newer) {
      say(T("A newer version is online: {version}.", { version: newer.label }), {label: T("Update"), run: function () {
        updating = true;
        waiting.postMessage({type: "take-over"});
      }});
    });
  }

  var updating = false;  // the reader asked for the newer version: show it once it has taken over
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (updating) {
      updating = false;
      window.location.reload();
    }
  });

  // After the page has loaded and the browser is idle: the worker's download of the whole game
  // must not compete with this page's own first load on a slow connection.
  function whenIdle(run) {
    window.addEventListener("load", function () {
      if ("requestIdleCallback" in window) window.requestIdleCallback(run, {timeout: 5000});
      else window.setTimeout(run, 2000);
    });
  }

  whenIdle(function () {
    // the site's root worker: offline, a page of a game not saved here says so and how to save it
    var root = new URL("..", folder).href;
    navigator.serviceWorker.register(root + "sw.js", {scope: root}).catch(function () { /* online as before */ });
    navigator.serviceWorker.register(folder + "sw.js", {scope: folder}).then(function (registration) {
      var current = registration.active;
      if (current) registration.update().catch(function () { /* offline: keep what is saved */ });
      if (current) {
        ask(current).then(function (held) {
          if (!registration.waiting) say(T("Saved for offline use: {version}.", { version: held.label }));
        });
      }
      if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
      registration.addEventListener("updatefound", function () {
        var installing = registration.installing;
        if (!installing) return;
        if (!current) say(T("Saving this game for offline use…"));
        installing.addEventListener("statechange", function () {
          if (installing.state === "installed" && navigator.serviceWorker.controller) offer(installing);
          if (installing.state === "activated" && !current) {
            ask(installing).then(function (held) { say(T("Saved for offline use: {version}.", { version: held.label })); });
          }
          if (installing.state === "redundant" && !current) say(T("This game could not be saved for offline use."));
        });
      });
    }, function () { /* no worker: the site works online as before */ });
  });
})();
