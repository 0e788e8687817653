"""Hostile content in every text field the model declares, generated from the model itself.

The list of fields is never written here: `model.text_fields` says which fields of which class
are plain text or Markdown, and `link.FORMAT_OF_TYPE` which declared field and column types are.
A field added to the model is covered the moment it is declared; a class the fixture lacks
fails the test with what to add.

1. Every payload that could become live markup is refused by the check, at the line it is on.
2. Plain text that the check accepts but that tries to break out of an attribute or form a link
   is built into a site: no page, navigation entry, title, search entry or flowchart holds a
   script, an event handler or a javascript: URL, and Chromium opens every page without a dialog.
"""

from __future__ import annotations

import functools
import json
import typing
from pathlib import Path

import pytest
import yaml
from conftest import build_site
from test_hostile import live_markup_problems, parse

from rulesmith.content import model
from rulesmith.content.link import FORMAT_OF_TYPE
from rulesmith.content.load import read_file
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError, Problems
from rulesmith.site.search import entries, read_index

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "every-field"
GAME = "demo"

# Each refused payload, and the text the problem must stand on.
REFUSED = {
    "script": "<script>alert(1)</script>",
    "img onerror": "<img src=x onerror=alert(2)>",
    "svg onload": "<svg onload=alert(4)>",
}
JAVASCRIPT_LINK = "[click](javascript:alert(3))"
# Accepted in plain text (no markup characters): must come out as inert text everywhere.
PLAIN_BREAKOUT = 'Q" onmouseover="alert(5)\' ' + JAVASCRIPT_LINK + " R & D"
# Accepted in Markdown: quotes and attribute lists that must stay text.
MARKDOWN_BREAKOUT = 'M" onmouseover="alert(6)\' {onclick=alert(7)} {: onfocus="alert(8)" }'


@functools.cache
def _fixture_text() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted((FIXTURE / GAME).glob("*.yaml"))}


def read_fixture() -> dict[str, dict]:
    """A fresh copy of the fixture's data (libyaml's loader: hundreds of tests read it)."""
    return {name: yaml.load(text, Loader=yaml.CSafeLoader) for name, text in _fixture_text().items()}


_UNCHANGED = read_fixture()  # to write a file a test left alone as it stands


def model_classes(root=model.ContentFile, seen=None) -> list[type]:
    """Every model class a content file can hold, from the model's own annotations."""
    seen = seen if seen is not None else []
    if root not in seen:
        seen.append(root)
        for inner in model.nested_models(root).values():
            model_classes(inner, seen)
    return seen


def instances(data, cls, path=()):
    """(class, data path, mapping) of every model instance in a file's data."""
    if not isinstance(data, dict):
        return
    yield cls, path, data
    for name, inner in model.nested_models(cls).items():
        key = "except" if name == "except_" else name
        value = data.get(key)
        if isinstance(value, dict):
            yield from instances(value, inner, path + (key,))
        elif isinstance(value, list):
            for i, entry in enumerate(value):
                yield from instances(entry, inner, path + (key, i))


def is_list(cls, name) -> bool:
    annotation = cls.model_fields[name].annotation
    return any(typing.get_origin(a) is list for a in (annotation, *typing.get_args(annotation)))


def slots() -> dict[str, tuple]:
    """Every text slot: 'Class.field' (or the declared type) -> (format, file, path, is_list)."""
    data = read_fixture()
    found, missing = {}, []
    every = [(cls, file, path) for file, content in data.items() for cls, path, _ in instances(content, model.ContentFile)]
    for cls in model_classes():
        for fmt in (model.PLAIN, model.MARKDOWN):
            for name in model.text_fields(cls, fmt):
                place = next(((file, path) for c, file, path in every if c is cls), None)
                if place is None:
                    missing.append(cls.__name__)
                    continue
                found[f"{cls.__name__}.{name}"] = (fmt, place[0], place[1] + (name,), is_list(cls, name))
    for type_, fmt in FORMAT_OF_TYPE.items():
        entity = _declared_slot(data, "fields", type_)
        if entity is None:
            missing.append(f"a kind field of type {type_}")
        else:
            found[f"entity field of type {type_}"] = (fmt, *entity, type_.endswith("-list"))
        cell = _declared_slot(data, "columns", type_)
        if cell is not None:
            found[f"table cell of type {type_}"] = (fmt, *cell, type_.endswith("-list"))
    assert not missing, f"tests/fixtures/every-field lacks: {sorted(set(missing))}; add one of each"
    assert any(k.startswith("table cell") for k in found)
    return found


def _declared_slot(data, where: str, type_: str):
    """Path of an entity field (where='fields') or first-row cell (where='columns') of a type."""
    for file, content in data.items():
        for kind in content.get("kinds", []) if where == "fields" else []:
            for spec in kind.get("fields", []):
                if spec["type"] == type_:
                    for file2, content2 in data.items():
                        for j, entity in enumerate(content2.get("entities", [])):
                            if entity.get("kind") == kind["id"]:
                                return file2, ("entities", j, "fields", spec["id"])
        for i, table in enumerate(content.get("tables", [])) if where == "columns" else []:
            for c, column in enumerate(table["columns"]):
                if column.get("type", "string") == type_:
                    return file, ("tables", i, "rows", 0, c)
    return None


SLOTS = slots()


def inject(data: dict, file: str, path: tuple, value, as_list: bool) -> None:
    target = data[file]
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = [value] if as_list else value


def write(data: dict, folder: Path) -> Path:
    game = folder / GAME
    game.mkdir(parents=True)
    for name, content in data.items():
        text = _fixture_text()[name] if content == _UNCHANGED.get(name) else \
            yaml.dump(content, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True, width=10_000)
        (game / name).write_text(text, encoding="utf-8")
    return folder


def line_of(file: Path, needle: str) -> int:
    return next(n for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_every_text_field_of_the_model_is_covered():
    """The generated slots include every field the model marks, so this file needs no list."""
    marked = {f"{c.__name__}.{n}" for c in model_classes() for f in (model.PLAIN, model.MARKDOWN)
              for n in model.text_fields(c, f)}
    assert marked and marked <= set(SLOTS)
    assert {"Kind.description", "FieldDef.description", "Column.description", "Section.title",
            "GameInfo.name", "Branch.when"} <= marked  # the fields the issues named, as a sanity check


def test_every_str_field_of_the_model_has_a_text_format():
    """A new str field must say whether it is plain text or Markdown (or be an id or a key)."""
    unmarked = []
    for cls in model_classes():
        for name, info in cls.model_fields.items():
            if info.annotation is str and not info.metadata:
                unmarked.append(f"{cls.__name__}.{name}")
    # Internal keys, never shown as text: the erratum's target and field, a URL, an expression.
    assert sorted(unmarked) == ["Erratum.field", "Erratum.target"], unmarked


def refused_at_their_lines(text: str, slots: dict[str, tuple], folder: Path) -> tuple[list[str], list[str]]:
    """`text` in every slot at once, checked; the slots refused at their own line are taken out and
    the rest checked again, until none is left (the check reports every problem of a stage at once,
    and a later stage runs once the earlier ones pass): (the slots never refused at their line,
    the refusals without a hint)."""
    remaining, unhinted = dict(slots), []
    for round_ in range(len(slots)):
        data = read_fixture()
        for _, file, path, as_list in remaining.values():
            inject(data, file, path, f"Before {text} after", as_list)
        content = write(data, folder / f"round-{round_}")
        try:
            check_content(content)
        except ContentError as error:
            problems = error.problems
        else:
            return sorted(remaining), unhinted
        sources = {file: read_file(content / GAME / file, Problems()) for file in data}
        at: dict[tuple[str, int], list] = {}
        for problem in problems:
            at.setdefault((Path(problem.file).name, problem.line), []).append(problem)
        refused = {}
        for name, (_, file, path, as_list) in remaining.items():
            place = path + (0,) if as_list else path
            if at.get((file, sources[file].where(place)[1])):
                refused[name] = at[(file, sources[file].where(place)[1])]
        if not refused:
            return sorted(remaining), unhinted
        unhinted += [str(p) for found in refused.values() for p in found if not p.hint]
        remaining = {name: slot for name, slot in remaining.items() if name not in refused}
        if not remaining:
            return [], unhinted
    return sorted(remaining), unhinted


@pytest.mark.parametrize("payload", REFUSED)
def test_markup_is_refused_in_every_text_field(payload, tmp_path):
    """Each text slot refuses the payload at its own line, with a hint (tried in every slot at
    once, round by round: the slots not refused are listed together)."""
    unrefused, unhinted = refused_at_their_lines(REFUSED[payload], SLOTS, tmp_path)
    assert not unrefused, f"nothing reported at the line of {unrefused}"
    assert not unhinted, unhinted


@pytest.mark.parametrize("slot", [s for s in SLOTS if SLOTS[s][0] is model.MARKDOWN])
def test_javascript_links_are_refused_in_every_markdown_field(slot, tmp_path):
    _fmt, file, path, as_list = SLOTS[slot]
    data = read_fixture()
    inject(data, file, path, f"See {JAVASCRIPT_LINK}.", as_list)
    content = write(data, tmp_path / "content")
    with pytest.raises(ContentError) as error:
        check_content(content)
    line = line_of(content / GAME / file, "javascript:")
    assert any(p.line == line and "link target" in p.message for p in error.value.problems), \
        [str(p) for p in error.value.problems]


def breakout_content(folder: Path) -> Path:
    """The fixture with every plain-text slot holding PLAIN_BREAKOUT and every Markdown slot
    MARKDOWN_BREAKOUT: text the check accepts, which must stay text on every path."""
    data = read_fixture()
    for slot, (fmt, file, path, as_list) in SLOTS.items():
        if slot.endswith("of type range"):
            continue  # a range key is parsed as one ("4+"): no text is accepted there
        value = PLAIN_BREAKOUT if fmt is model.PLAIN else MARKDOWN_BREAKOUT
        inject(data, file, path, value, as_list)
    for content in data.values():  # an enum value must be declared, and the row keys stay unique
        for kind in content.get("kinds", []):
            for spec in kind.get("fields", []):
                if spec["type"] == "enum":
                    spec["values"] = [PLAIN_BREAKOUT]
        for table in content.get("tables", []):
            for column in table["columns"]:
                if column.get("type") == "enum":
                    column["values"] = [*column["values"], PLAIN_BREAKOUT]
            for r, row in enumerate(table["rows"]):
                row[1] = f"{row[1]} {r}" if isinstance(row[1], str) else row[1]
        for deck in content.get("bot", {}).get("decks", []):  # a draw may take two: the deck keeps two cards
            if deck.get("cards") == [PLAIN_BREAKOUT]:
                deck["cards"] = [PLAIN_BREAKOUT, f"{PLAIN_BREAKOUT} 2"]
        for example in content.get("examples", []):  # a printed result that recomputes: the page shows it
            if isinstance(example.get("result"), list) and example["result"] == [PLAIN_BREAKOUT]:
                example["expression"] = repr([PLAIN_BREAKOUT])
                example["inputs"] = {}
    return write(data, folder)


@pytest.fixture(scope="module")
def breakout_site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("breakout")
    content = breakout_content(folder / "content")
    check_content(content)  # accepted: nothing here is markup
    build_site(content, folder / "site", folder / "work")
    return folder / "site"


def test_accepted_breakout_text_stays_text_on_every_page(breakout_site):
    pages = sorted(breakout_site.rglob("*.html"))
    assert len(pages) > 8
    problems = {str(p.relative_to(breakout_site)): live_markup_problems(parse(p.read_text(encoding="utf-8")))
                for p in pages}
    problems = {k: v for k, v in problems.items() if v}
    assert not problems, json.dumps(problems, indent=1)
    # The text reached the navigation, titles and bodies (so the check above saw it).
    overview = (breakout_site / GAME / "index.html").read_text(encoding="utf-8")
    assert "alert(5)" in overview and "alert(6)" in overview


def test_accepted_breakout_text_stays_text_in_search_and_flowcharts(breakout_site):
    for path in sorted((breakout_site / "search").glob("*.js")):  # one JSON value in a call, nothing to break out of
        assert "</" not in path.read_text(encoding="utf-8"), path.name
        for doc in entries(read_index(path)):
            for key in ("title", "aliases", "text"):
                assert not live_markup_problems(parse(doc[key])), (doc["location"], key)
    # flowcharts are inline in the procedure pages
    svgs = [(path.name, chart.split("</svg>", 1)[0] + "</svg>")
            for path in sorted(breakout_site.rglob("solo/*.html"))
            for chart in path.read_text(encoding="utf-8").split("<svg")[1:] if 'class="rs-flowchart__svg"' in chart[:200]]
    assert svgs
    for name, svg in svgs:
        page = parse("<svg" + svg)
        assert not live_markup_problems(page), name


def played_in_chromium(browser, site: Path, pages: list[Path]) -> tuple[list, dict[str, list[str]]]:
    """Each page opened, hovered and its buttons clicked through (the walker, the companion) as a
    reader would, with a dialog listener; then its live DOM scanned for event-handler attributes,
    javascript:/data: URLs, frames and scripts in the content: (dialogs, {page: findings}). The
    mouse goes to each shown element at once (`force`: Playwright's wait for it to be still and
    uncovered took half of the sweep); a covered element's hover or click reaches what covers it,
    as a reader's does. Half a second for each: an element a click has hidden waits it out, a
    shown one on a busy machine is still reached."""
    dialogs, findings = [], {}
    page = browser.new_page()
    page.on("dialog", lambda dialog: (dialogs.append((page.url, dialog.message)), dialog.dismiss()))
    for path in pages:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        page.mouse.move(5, 5)
        # a reader can hover and click only what is shown at this width (a hidden element would only
        # wait out its timeout); an element a click hides is passed over
        elements = page.locator("article a, article button, article summary, label, .md-nav__link").filter(visible=True)
        for element in elements.all()[:80]:
            try:
                element.hover(timeout=500, force=True)
                if element.evaluate("e => e.tagName") in ("BUTTON", "SUMMARY"):
                    element.click(timeout=500, force=True)
            except Exception:  # hidden or gone after a click: not a finding
                pass
        bad = page.evaluate(DOM_SCAN)
        if bad:
            findings[str(path.relative_to(site))] = bad
    page.close()
    return dialogs, findings


DOM_SCAN = r"""() => {
  const bad = [];
  const url = /^\s*(javascript|data|vbscript):/i;
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.attributes) {
      const name = a.name.toLowerCase();
      if (name.startsWith('on')) bad.push(`<${e.tagName} ${name}>`);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'srcdoc'].includes(name)
          && url.test(a.value)) bad.push(`<${e.tagName} ${name}=${a.value.slice(0, 60)}>`);
    }
    if (['IFRAME', 'OBJECT', 'EMBED', 'FRAME'].includes(e.tagName)) bad.push(`<${e.tagName}>`);
    if (e.tagName === 'SCRIPT' && e.closest('article')) bad.push(`<script> in the page content`);
  }
  return bad;
}"""


@pytest.mark.browser
def test_the_readers_hovers_and_clicks_set_off_what_a_page_would_run(browser, tmp_path):
    """The control of the two sweeps below: a page whose link runs a script when hovered, and one
    whose button runs one when clicked, each open their dialog when played as a reader plays them,
    and their event attributes are found in the live DOM. (Two pages: a page's first dialog is
    what fails a sweep, and a click made while the first is still open may not land.)"""
    for name, body in (("hover.html", '<p>Text <a href="#x" onmouseover="alert(\'hovered\')">a link</a></p>'),
                       ("click.html", '<button onclick="alert(\'clicked\')">A button</button>')):
        (tmp_path / name).write_text(f"<!doctype html><html><body><article>{body}</article></body></html>", encoding="utf-8")
    dialogs, findings = played_in_chromium(browser, tmp_path, [tmp_path / "hover.html", tmp_path / "click.html"])
    assert sorted(message for _, message in dialogs) == ["clicked", "hovered"]
    assert findings == {"hover.html": ["<A onmouseover>"], "click.html": ["<BUTTON onclick>"]}


@pytest.mark.browser
def test_no_page_opens_a_dialog_in_chromium(breakout_site, browser):
    pages = [p for p in sorted(breakout_site.rglob("*.html")) if "alert(" in p.read_text(encoding="utf-8")]
    assert len(pages) > 5
    dialogs, findings = played_in_chromium(browser, breakout_site, pages)
    assert not dialogs, dialogs
    assert not findings, json.dumps(findings, indent=1)
