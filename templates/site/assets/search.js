/* Search that forgives typos, one game at a time (MiniSearch; the index: rulesmith/site/search.py).
 *
 * A search button in the header opens a dialog. The first search loads the list of games and
 * this game's index only (search/<game>.js, about 100 KB) with MiniSearch (18 KB); results are
 * this game's, each labelled with its game and page. "Search the other games too" loads the
 * others and lists their results after this game's. On the site's own pages (home, downloads,
 * changelog) every game is searched. The index files are scripts, not fetched JSON, so that search
 * works from disk (file://) as well as from any server and under any subpath.
 */
(function () {
  "use strict";
  var STOP = ("a an and are as at be by for from if in is it its of on or that the their then this to was " +
    "were will with").split(" ");  // the same words as STOP_WORDS in search.py
  var MAX = 30, OTHERS = 8;  // results shown: of this game (or in all), and of each other game
  var config = JSON.parse((document.getElementById("__config") || {}).textContent || "{}");
  var base = config.base || ".";
  var loaded = {}, waiting = {}, indexes = {}, site = null, game = null, others = false;
  var dialog, input, list, status, more;

  function fold(text) {  // words as search.py's words(): lower case, accents folded
    return (text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").match(/[\p{L}\p{N}]+/gu) || []);
  }

  // The index scripts call this as they load.
  window.rulesmithSearch = {
    add: function (data) {
      var id = data.game;
      if (data.games) site = data;
      var stop = data.stop || STOP;  // a site in another language: its index carries its stop words
      var search = new MiniSearch({
        fields: ["title", "aliases", "words"],
        tokenize: fold,
        processTerm: function (term) { return stop.indexOf(term) >= 0 ? null : term; }
      });
      search.addAll(data.docs.map(function (row, n) {
        return {id: n, title: row[2], aliases: row[3], words: row[4]};
      }));
      indexes[id] = {data: data, search: search};
      (waiting[id] || []).forEach(function (done) { done(); });
    }
  };

  function script(src, id) {
    return new Promise(function (resolve, reject) {
      if (indexes[id] || (id === "minisearch" && window.MiniSearch)) return resolve();
      (waiting[id] = waiting[id] || []).push(resolve);
      if (loaded[src]) return;
      loaded[src] = true;
      var element = document.createElement("script");
      element.src = src;
      element.onload = function () { if (id === "minisearch") resolve(); };
      element.onerror = function () { loaded[src] = false; reject(new Error("could not load " + src)); };
      document.head.appendChild(element);
    });
  }

  function index(id) {
    return script(base + "/search/" + id + ".js", id);
  }

  function thisGame() {  // the game whose folder this page is in, if any
    var root = new URL(base + "/", document.baseURI).pathname;
    // both as the browser encodes them (game ids need no decoding, and "%zz" in an address would throw)
    var rest = window.location.pathname.slice(root.length);
    var first = rest.split("/")[0];
    return site && site.games.some(function (g) { return g.id === first; }) && rest.indexOf("/") > 0 ? first : null;
  }

  var ready = null;
  function prepare() {
    if (!ready) {
      ready = script(base + "/assets/vendor/minisearch/minisearch.min.js", "minisearch")
        .then(function () { return index("site"); })
        .then(function () {
          game = thisGame();
          return game ? index(game) : loadOthers();
        });
    }
    return ready;
  }

  /* Every game's index, as far as they load: offline, a game not saved on this device does not,
     and the search says so (issue 43) rather than waiting without a word. Resolves to the names
     of the games that could not be loaded. */
  function loadOthers() {
    others = true;
    return Promise.all(site.games.map(function (g) {
      return index(g.id).then(function () { return null; }, function () { return g.name || g.id; });
    })).then(function (missing) { return missing.filter(function (name) { return name; }); });
  }

  function unsaved(missing) {
    return missing.length ? " Not saved on this device, so not searched: " + missing.join(", ") +
      ". To search them without a connection, open each game once while online (its pages are then saved for offline use)." : "";
  }

  function results(id, query) {
    var found = indexes[id];
    if (!found) return [];
    var options = {boost: {title: 3, aliases: 2.5}, prefix: true, fuzzy: 0.2, combineWith: "AND",
                   // a page's weight (rulesmith/site/search.py): a complete table above an example of one case
                   boostDocument: function (n) { return found.data.pages[found.data.docs[n][0]][2] || 1; }};
    var hits = found.search.search(query, options);
    if (!hits.length) hits = found.search.search(query, Object.assign({}, options, {combineWith: "OR"}));
    return hits.map(function (hit) {
      var row = found.data.docs[hit.id], page = found.data.pages[row[0]];
      var folder = found.data.game === "site" ? "" : found.data.game + "/";
      return {
        href: new URL(base + "/" + folder + page[0] + (row[1] ? "#" + row[1] : ""), document.baseURI).href,
        title: row[2], where: (found.data.name ? found.data.name + " · " : "") + page[1],
        text: row[5], score: hit.score, own: id === game,
        // the reference tables whose numbers this text condenses: one tap to them from the result
        numbers: (row[6] || []).map(function (table) {
          return {href: new URL(base + "/" + folder + table[0], document.baseURI).href, title: table[1]};
        })
      };
    });
  }

  function show(query) {
    list.textContent = "";
    if (!fold(query).length) {
      status.textContent = T("Type a card, rule or term: a typo is forgiven.");
      more.hidden = true;
      return;
    }
    var ids = [game || "site"].concat(others ? site.games.map(function (g) { return g.id; }) : []);
    var seen = {}, hits = [], total = 0;
    ids.forEach(function (id, n) {
      if (seen[id]) return;
      seen[id] = true;
      var found = results(id, query).sort(function (a, b) { return b.score - a.score; });
      total += found.length;
      // this game's best results, then each other game's few best after them
      hits = hits.concat(found.slice(0, game && n > 0 ? OTHERS : MAX));
    });
    if (!game) hits.sort(function (a, b) { return b.score - a.score; });  // no game of its own: best first
    var shown = Math.min(hits.length, game && others ? MAX + OTHERS * (ids.length - 1) : MAX);
    hits = hits.slice(0, shown);
    hits.forEach(function (hit) {
      var item = document.createElement("li"), link = document.createElement("a");
      var where = document.createElement("span"), title = document.createElement("span");
      link.href = hit.href;
      where.className = "rs-search__where";
      where.textContent = hit.where;
      title.className = "rs-search__title";
      title.textContent = hit.title;
      link.append(where, title);
      if (hit.text) {
        var text = document.createElement("span");
        text.className = "rs-search__text";
        text.textContent = hit.text;
        link.append(text);
      }
      link.addEventListener("click", function () { dialog.close(); });
      item.append(link);
      hit.numbers.forEach(function (table) {
        var numbers = document.createElement("a");
        numbers.className = "rs-search__numbers";
        numbers.href = table.href;
        numbers.textContent = T("The numbers: {table}", { table: table.title }) + " \u2192";
        numbers.addEventListener("click", function () { dialog.close(); });
        item.append(numbers);
      });
      list.append(item);
    });
    status.textContent = total ? (total === 1 ? T("1 result") : T("{count} results", { count: total })) +
      (total > shown ? ", " + T("the best {count} shown", { count: shown }) : "") : T("Nothing found.");
    var rest = game && !others ? site.games.filter(function (g) { return g.id !== game; }) : [];
    more.hidden = !rest.length;
    more.textContent = T("Search {games} too", { games: rest.map(function (g) { return g.name; }).join(", ") });
  }

  function run() {
    var query = input.value;
    prepare().then(function () { if (input.value === query) show(query); }, function (error) {
      status.textContent = T("Search could not load ({reason}).", { reason: error.message });
    });
  }

  function open() {
    if (!dialog.open) dialog.showModal();
    input.focus();
    input.select();
    run();
  }

  function build() {
    var header = document.querySelector(".md-header__inner");
    if (!header) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "md-header__button md-icon rs-search-button";
    button.setAttribute("aria-label", T("Search"));
    button.title = T("Search") + " (/)";
    button.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true">' +
      '<path d="M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 ' +
      '6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5"/></svg>';
    var title = header.querySelector(".md-header__title");
    header.insertBefore(button, title ? title.nextSibling : null);

    dialog = document.createElement("dialog");
    dialog.className = "rs-search";
    dialog.setAttribute("aria-label", T("Search this reference"));
    dialog.innerHTML = '<form method="dialog" class="rs-search__bar" role="search">' +
      '<label class="rs-search__label" for="rs-search-input">Search</label>' +
      '<input id="rs-search-input" class="rs-search__input" type="search" autocomplete="off" spellcheck="false" ' +
      'placeholder="Card, rule or term" aria-describedby="rs-search-status">' +
      '<button class="rs-search__close" value="close" aria-label="Close search">Close</button></form>' +
      '<p id="rs-search-status" class="rs-search__status" role="status"></p>' +
      '<ol class="rs-search__results"></ol>' +
      '<button type="button" class="rs-search__more" hidden></button>';
    // the words, set as text (never as markup) in the site's language
    dialog.querySelector(".rs-search__label").textContent = T("Search");
    dialog.querySelector(".rs-search__input").setAttribute("placeholder", T("Card, rule or term"));
    dialog.querySelector(".rs-search__close").setAttribute("aria-label", T("Close search"));
    dialog.querySelector(".rs-search__close").textContent = T("Close");
    document.body.append(dialog);
    input = dialog.querySelector("input");
    list = dialog.querySelector("ol");
    status = dialog.querySelector(".rs-search__status");
    more = dialog.querySelector(".rs-search__more");
    button.addEventListener("click", open);
    input.addEventListener("input", run);
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {  // a search field would only clear itself: close search
        event.preventDefault();
        dialog.close();
      }
      if (event.key === "Enter") {
        event.preventDefault();
        var first = list.querySelector("a");
        if (first) first.click();
      }
    });
    more.addEventListener("click", function () {
      more.disabled = true;
      loadOthers().then(function (missing) {
        more.disabled = false;
        show(input.value);
        status.textContent += unsaved(missing);
        input.focus();
      });
    });
    dialog.addEventListener("click", function (event) { if (event.target === dialog) dialog.close(); });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && /^[/sSfF]$/.test(event.key)) {
        event.preventDefault();
        open();
      }
    });
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) {
      input.value = query;
      open();
    }
  }

  build();
})();
