/* The words the site's scripts write, in the site's language (rulesmith/words.py).
 *
 * Every word a script shows is written in English where it is used, as T(msgid) with the msgid a
 * string literal, or T(msgid, {name: value}) for one with {name} in it, so that Babel finds it
 * (babel.cfg, scripts/words). A page of a site in another language carries the translations of those words, and only those, as JSON in
 * <meta name="rs-words" content="…"> (templates/theme/main.html); T() gives the translation, else
 * the English, with each {name} filled from the parameters. What it returns is text: a script
 * puts it into the page as text (textContent, an attribute), never as markup.
 * Plain script, no dependencies; node loads it as a module (tests/js/words.test.js).
 */
var rulesmithWords = (function () {
  "use strict";
  var table = null;

  function read() {
    var found = {};
    var meta = typeof document !== "undefined" ? document.querySelector('meta[name="rs-words"]') : null;
    if (meta) {
      try {
        var parsed = JSON.parse(meta.getAttribute("content") || "{}");
        if (parsed && typeof parsed === "object") found = parsed;
      } catch (error) {
        found = {};  // words that cannot be read: the English ones are still words
      }
    }
    return found;
  }

  function fill(text, params) {
    return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, function (whole, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }

  function T(msgid, params) {
    if (table === null) table = read();
    var own = Object.prototype.hasOwnProperty.call(table, msgid) ? table[msgid] : null;
    return fill(typeof own === "string" && own ? own : msgid, params);
  }

  // For tests: the words of a page, as its <meta> would give them (null: read the page again).
  function use(words) {
    table = words;
  }

  return { T: T, fill: fill, use: use };
})();
var T = rulesmithWords.T;
if (typeof module === "object" && module.exports) module.exports = rulesmithWords;
