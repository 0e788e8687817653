/* The scripts' words in the site's language: T(msgid, {name: value}) (rulesmith/words.py says how). */
var rulesmithWords = (function () {
  "use strict";
  var table = null, own = Object.prototype.hasOwnProperty;
  function read() {
    var meta = typeof document !== "undefined" && document.querySelector('meta[name="rs-words"]');
    try { var found = meta && JSON.parse(meta.getAttribute("content")); } catch (error) { found = null; }
    return found && typeof found === "object" ? found : {};
  }
  function fill(text, params) {
    return text.replace(/\{([A-Za-z_]\w*)\}/g, function (whole, name) {
      return params && own.call(params, name) ? String(params[name]) : whole;
    });
  }
  function T(msgid, params) {
    if (table === null) table = read();
    var said = own.call(table, msgid) ? table[msgid] : null;
    return fill(typeof said === "string" && said ? said : msgid, params);
  }
  return { T: T, fill: fill, use: function (words) { table = words; } };  // use: for tests (null: read the page again)
})();
var T = rulesmithWords.T;
if (typeof module === "object" && module.exports) module.exports = rulesmithWords;
