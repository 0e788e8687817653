// The scripts' words (templates/site/assets/words.js): T() gives a page's translation of a word,
// else the English, with its {name} placeholders filled. Run with `node --test` by
// tests/words/test_words.py in the unit tier.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const words = require(path.join(__dirname, "..", "..", "templates", "site", "assets", "words.js"));

test("a word without a translation is the English, its placeholders filled", () => {
  words.use({});
  assert.equal(words.T("Nothing found."), "Nothing found.");
  assert.equal(words.T("Procedure {number} of {count}", { number: 2, count: 3 }), "Procedure 2 of 3");
});

test("a translated word comes from the page's words, its placeholders filled in the translation's order", () => {
  words.use({ "Nothing found.": "Nichts gefunden.", "Run: {name}": "Ausführen: {name}",
              "{winner} wins (the {rule}).": "{winner} gewinnt ({rule})." });
  assert.equal(words.T("Nothing found."), "Nichts gefunden.");
  assert.equal(words.T("Run: {name}", { name: "Raid" }), "Ausführen: Raid");
  assert.equal(words.T("{winner} wins (the {rule}).", { winner: "Red", rule: "highest" }), "Red gewinnt (highest).");
});

test("a value is put in as it is, once: a placeholder inside it is not filled again", () => {
  words.use({});
  assert.equal(words.T("Resume: {where}", { where: "{where} <b>x</b>" }), "Resume: {where} <b>x</b>");
});

test("a placeholder without a value stays visible, and an empty or non-text translation falls back to English", () => {
  words.use({ "Close": "", "Back": 3 });
  assert.equal(words.T("Step {number}:"), "Step {number}:");
  assert.equal(words.T("Close"), "Close");
  assert.equal(words.T("Back"), "Back");
});

test("a word named like an object's own property is not taken from the prototype", () => {
  words.use({});
  assert.equal(words.T("constructor"), "constructor");
  assert.equal(words.T("toString"), "toString");
});

test("without a page (node) the words are read as none: English", () => {
  words.use(null);
  assert.equal(words.T("Search"), "Search");
});
