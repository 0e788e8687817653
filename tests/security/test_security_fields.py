"""Every hostile payload in every field a content file can set: refused where it stands, or
built and inert in every output.

The fields are never listed here. They come from the model: every field of every class a content
file can hold (`model.ContentFile` and the classes its annotations reach: ids, dates, numbers,
enum values, URLs, example inputs and results, procedure labels, aid plans, bot state, decks and
turn, errata, rulings, glossary, icons …; a mapping gives a slot for its keys and one for its
values), and from the registry of declared field types (`fieldtypes.REGISTRY`): an entity field
and a table cell of each type, written plainly and with a status and note. A field added to the
model is walked the moment it is declared; a class or type the fixture
(tests/fixtures/every-field) lacks fails the first test, naming what to add.

For each payload in each slot, either

- the check refuses it: a ContentError (the command prints it and exits 1, no traceback) with a
  problem, and its hint, at the line the payload is written on (or the line of its key); or
- the check accepts it: then every slot takes every payload it accepted, in one content, built
  once into a site with its player aids, and every output is read: each page's HTML and, in
  Chromium, its live DOM with a dialog listener; the per-game search indexes; every flowchart SVG;
  every PDF's link annotations and actions.
"""

from __future__ import annotations

import copy
import io
import json
import re
import types
import typing
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pytest
from conftest import rulesmith_here
from test_hostile import live_markup_problems, parse
from test_security import GAME, instances, model_classes, played_in_chromium, read_fixture, write

from rulesmith.content import model
from rulesmith.content.load import read_file
from rulesmith.pipeline import check_content
from rulesmith.problems import ContentError, Problems
from rulesmith.site.search import entries, read_index
from rulesmith.values import fieldtypes

# Each payload carries a marker of its own (alert(1NN), or the base64 of one), by which its line
# and its arrival in the outputs are found.
PAYLOADS = {
    "javascript URL": "javascript:alert(101)",
    "data URL": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxMDIpPC9zY3JpcHQ+",
    "script element": "<script>alert(103)</script>",
    "img onerror": "<img src=x onerror=alert(104)>",
    "attribute breakout": "x\" onmouseover=\"alert(105)\" y='",
    "URL breakout": "https://example.org/) <img src=x onerror=alert(106)> (",
    "javascript link": "[x](javascript:alert(107))",
    "attribute list": "Z {: onclick=\"alert(108)\" }",
    "script end": "</script><svg onload=alert(109)>",
    "entity-encoded tag": "&lt;img src=x onerror=alert(110)&gt;",
    # A link that one reading of the text makes a code block and another a live link (issue 34):
    # each text is converted once, alone, and placed as that HTML, so every output reads it alike.
    "indented javascript link": "    [The bot draws a card.](javascript:alert(111))",
    "tab-indented javascript link": "\t[The bot draws a card.](javascript:alert(112))",
    "javascript link after a newline": "Draw a card.\n    [Then this.](javascript:alert(113))",
    "javascript link in a list": "- Draw a card.\n\n    [Then this.](javascript:alert(114))",
    "javascript link in a quote": "> [Then this.](javascript:alert(115))",
    "javascript link in an admonition": "!!! note\n    [Then this.](javascript:alert(116))",
    "indented javascript definition": "[Then this.][r]\n\n   [r]: javascript:alert(117)",
    "javascript link in a table": "| a |\n|---|\n| [Then this.](javascript:alert(118)) |",
}
MARKER = {name: re.search(r"alert\(\d+\)|PHNjcmlwdD5hbGVydCgxMDIp", text).group(0) for name, text in PAYLOADS.items()}


@dataclass(frozen=True)
class Slot:
    """A place a content file can set: `path` in `file`, and how a payload goes there."""

    name: str
    file: str
    path: tuple
    how: str  # value, list (its first item), key (of a mapping), wrapped-value / wrapped-note ({value, status, note})
    item: tuple  # the path of the item (the model instance) the slot belongs to


def _shape(annotation) -> str:
    """'list', 'dict' or 'value': what a field holds, without Optional and Annotated."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _shape(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _shape(args[0]) if len(args) == 1 else "value"
    origin = typing.get_origin(annotation)
    return "list" if origin is list else "dict" if origin is dict else "value"


def _unwrap(annotation):
    while typing.get_origin(annotation) is typing.Annotated or (
            typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(typing.get_args(annotation)) == 2
            and type(None) in typing.get_args(annotation)):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    return annotation


def model_slots(data: dict) -> tuple[list[Slot], list[str]]:
    """A slot per field of every model class (two per mapping field), at the class's first instance
    in the fixture; and the classes the fixture lacks."""
    found: dict[type, tuple[str, tuple, dict]] = {}
    for file, content in data.items():
        for cls, path, mapping in instances(content, model.ContentFile):
            found.setdefault(cls, (file, path, mapping))
    slots, missing = [], []
    for cls in model_classes():
        if cls not in found:
            missing.append(cls.__name__)
            continue
        file, path, mapping = found[cls]
        for name, info in cls.model_fields.items():
            key = info.alias or name
            label = f"{cls.__name__}.{name}"
            shape = _shape(info.annotation)
            if shape != "dict":
                slots.append(Slot(label, file, path + (key,), shape, path))
                continue
            existing = mapping.get(key) or {}
            first = next(iter(existing), "k")
            value_type = typing.get_args(_unwrap(info.annotation))[1]
            slots.append(Slot(f"{label}[key]", file, path + (key,), "key", path))
            slots.append(Slot(f"{label}[value]", file, path + (key, first), _shape(value_type), path))
    return slots, missing


def declared_slots(data: dict) -> tuple[list[Slot], list[str]]:
    """For every type of fieldtypes.REGISTRY: an entity field and a table cell of that type, each
    written as the value, as a list item for a list type, and inside {value, status, note}."""
    slots, missing = [], []
    for type_ in fieldtypes.REGISTRY:
        how = "list" if type_.endswith("-list") else "value"
        for where, place in (("entity field", _entity_field(data, type_)), ("table cell", _table_cell(data, type_))):
            if place is None:
                missing.append(f"{'a kind field' if where == 'entity field' else 'a table column'} of type {type_}")
                continue
            file, path = place
            item = path[:2]  # the entity or the table
            slots += [Slot(f"{where} of type {type_}", file, path, how, item),
                      Slot(f"{where} of type {type_} with a status", file, path, "wrapped-value", item),
                      Slot(f"{where} of type {type_}: its note", file, path, "wrapped-note", item)]
    return slots, missing


def _entity_field(data, type_):
    for content in data.values():
        for kind in content.get("kinds", []):
            for spec in kind.get("fields", []):
                if spec["type"] == type_:
                    for file, other in data.items():
                        for j, entity in enumerate(other.get("entities", [])):
                            if entity.get("kind") == kind["id"] and spec["id"] in entity.get("fields", {}):
                                return file, ("entities", j, "fields", spec["id"])
    return None


def _table_cell(data, type_):
    """A cell of a column of the type, in the first row; a key column only where no other has it."""
    found = [(c == 0, file, ("tables", i, "rows", 0, c)) for file, content in data.items()
             for i, table in enumerate(content.get("tables", []))
             for c, column in enumerate(table["columns"]) if column.get("type", "string") == type_]
    return min(found)[1:] if found else None


FIXTURE = read_fixture()
_MODEL_SLOTS, _MISSING_CLASSES = model_slots(FIXTURE)
_DECLARED_SLOTS, _MISSING_TYPES = declared_slots(FIXTURE)
SLOTS = _MODEL_SLOTS + _DECLARED_SLOTS


def _target(data: dict, slot: Slot):
    target = data[slot.file]
    for part in slot.path[:-1]:
        if isinstance(target, dict) and part not in target:
            target[part] = {}
        target = target[part]
    return target


def joined(values: list) -> str:
    """Several payloads in one text, each read as it is read alone: a payload that depends on where
    its line starts (indented, after a line break) stands after a thematic break, which ends any
    list, quote or paragraph before it."""
    if any("\n" in v or v[:1].isspace() for v in values):
        return "\n\n---\n\n".join(values)
    return " ".join(values)


def inject(data: dict, slot: Slot, values: list) -> None:
    """Put the payloads (one, or every one a slot accepted) in the slot."""
    target, last = _target(data, slot), slot.path[-1]
    if slot.how == "list":  # in place of the first item, so the list keeps its length
        existing = target.get(last) if isinstance(target, dict) else target[last]
        target[last] = list(values) + (list(existing[1:]) if isinstance(existing, list) else [])
    elif slot.how == "key":
        existing = target.get(last) or {}
        sample = next(iter(existing.values()), None)
        rest = dict(list(existing.items())[1:])
        target[last] = {**{v: copy.deepcopy(sample) for v in values}, **rest}
    elif slot.how == "wrapped-value":
        target[last] = {"status": "unverified", "value": joined(values), "note": "Doubtful."}
    elif slot.how == "wrapped-note":
        target[last] = {"status": "unverified", "value": fieldtypes.plain(target[last]), "note": joined(values)}
    else:
        target[last] = joined(values)


def own_lines(source, slot: Slot, payload: str) -> set[int]:
    """The lines the slot's payload stands on, as the loader reads the file: its key's and its
    value's (the list item, the mapping key, the value or note of {value, status, note})."""
    path = slot.path
    inner = {"list": [path + (0,)], "key": [path + (PAYLOADS[payload],)],
             "wrapped-value": [path + ("value",)], "wrapped-note": [path + ("note",)]}.get(slot.how, [])
    starts = {table[place][0] for place in [path, *inner] for table in (source.keys, source.values) if place in table}
    # a payload of several lines may be written as a block, one line below its key: each of its lines
    spread = 2 * PAYLOADS[payload].count("\n") + 1 if "\n" in PAYLOADS[payload] else 0  # quoted: a blank line each
    return {line + extra for line in starts for extra in range(spread + 1)}


def item_lines(source, slot: Slot) -> set[int]:
    """The lines of the item the slot belongs to: a rule over the item ("a status needs a note",
    "the example's expression cannot be computed") names the item, not the field."""
    lines = [line for place, (line, _) in source.values.items() if slot.item and place[:len(slot.item)] == slot.item]
    return set(range(min(lines), max(lines) + 1)) if lines else set()


def layers(slots: list[Slot]) -> list[list[Slot]]:
    """The slots in groups within which no slot stands inside another (or in the same place): a
    payload can then be put in every slot of a group at once."""
    depth = {}
    for i, slot in enumerate(slots):
        depth[slot.name] = sum(1 for j, other in enumerate(slots) if j != i and slot.path[:len(other.path)] == other.path
                               and (len(other.path) < len(slot.path) or j < i))
    return [[s for s in slots if depth[s.name] == d] for d in sorted(set(depth.values()))]


def _check(data: dict, folder: Path) -> tuple[list, dict]:
    """The problems of the content (none: it passes), and each file the payloads changed, as the loader reads it."""
    content = write(data, folder)
    sources = {name: read_file(content / GAME / name, Problems()) for name in data if data[name] != FIXTURE[name]}
    try:
        check_content(content)
    except ContentError as error:
        return error.problems, sources
    return [], sources


def by_file(problems) -> dict[str, list]:
    """The problems by the name of their file (asked once per round, not once per slot)."""
    found: dict[str, list] = {}
    for problem in problems:
        found.setdefault(Path(problem.file).name, []).append(problem)
    return found


def _at(problems: dict[str, list], slot: Slot, lines: set[int]) -> list:
    return [p for p in problems.get(slot.file, ()) if p.line in lines]


def refusals(payload: str, group: list[Slot], folder: Path) -> tuple[dict[str, str], list[str]]:
    """The payload in every slot of a group at once, checked again without the slots refused, until
    the rest passes: {slot: 'refused' | 'accepted' | 'unlocated'}, and the problems that stand
    nowhere near a payload, or lack a column or hint.

    A slot is refused when a problem stands on its payload's line; where the problems stand only
    on the lines of items, each slot of those items is checked alone, its item's lines counting."""
    remaining, result, unlocated = list(group), {}, []
    for round_ in range(2 * len(group) + 1):
        data = copy.deepcopy(FIXTURE)
        for slot in remaining:
            inject(data, slot, [PAYLOADS[payload]])
        problems, sources = _check(data, folder / f"round-{round_}")
        if not problems:
            result.update({slot.name: "accepted" for slot in remaining})
            return result, unlocated
        filed = by_file(problems)
        found = {slot.name: _at(filed, slot, own_lines(sources[slot.file], slot, payload)) for slot in remaining}
        if not any(found.values()):
            found = {}
            for slot in remaining:
                if _at(filed, slot, item_lines(sources[slot.file], slot)):
                    alone = copy.deepcopy(FIXTURE)
                    inject(alone, slot, [PAYLOADS[payload]])
                    own, own_sources = _check(alone, folder / f"round-{round_}-{slot.name}")
                    source = own_sources[slot.file]
                    found[slot.name] = _at(by_file(own), slot, own_lines(source, slot, payload) | item_lines(source, slot))
        refused = {name for name, at in found.items() if at}
        unlocated += [str(p) for name in refused for p in found[name] if not (p.column >= 1 and p.message and p.hint)]
        if not refused:  # what is left is refused, but nowhere near where it stands
            result.update({slot.name: "unlocated" for slot in remaining})
            return result, unlocated + [str(p) for p in problems]
        result.update(dict.fromkeys(refused, "refused"))
        remaining = [slot for slot in remaining if slot.name not in refused]
    raise AssertionError("unreachable: each round refuses at least one slot")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> tuple[dict[tuple[str, str], str], dict[str, list[str]]]:
    """{(slot, payload): 'refused' | 'accepted'} for every slot and payload; unlocated problems by payload."""
    folder = tmp_path_factory.mktemp("every-slot")
    found, unlocated = {}, {}
    for j, payload in enumerate(PAYLOADS):
        for i, group in enumerate(layers(SLOTS)):
            result, bad = refusals(payload, group, folder / f"{j}-{i}")
            found.update({(name, payload): r for name, r in result.items()})
            if bad:
                unlocated.setdefault(payload, []).extend(bad)
    return found, unlocated


def test_the_walk_covers_every_field_of_the_model_and_every_declared_type():
    """Every class the model reaches and every declared type has an instance in the fixture."""
    assert not _MISSING_CLASSES, (f"tests/fixtures/every-field lacks an instance of {_MISSING_CLASSES}: add one "
                                  "of each, so their fields are walked")
    assert not _MISSING_TYPES, f"tests/fixtures/every-field lacks {_MISSING_TYPES}: add one of each"
    fields = sum(len(cls.model_fields) + sum(_shape(i.annotation) == "dict" for i in cls.model_fields.values())
                 for cls in model_classes())
    assert len(_MODEL_SLOTS) == fields
    assert len(_DECLARED_SLOTS) == 2 * 3 * len(fieldtypes.REGISTRY)
    names = {s.name for s in SLOTS}
    assert len(names) == len(SLOTS)  # one slot per place, no two the same


def test_each_payload_in_each_field_is_refused_where_it_stands_or_accepted(outcomes):
    """A refusal names the payload's file and line (or its item's), with a column and a hint."""
    found, problems = outcomes
    assert len(found) == len(SLOTS) * len(PAYLOADS)
    unlocated = sorted(f"{slot} ← {payload}" for (slot, payload), result in found.items() if result == "unlocated")
    assert not unlocated and not problems, json.dumps({"slots": unlocated, "problems": problems}, indent=1,
                                                      ensure_ascii=False)
    for payload in ("script element", "img onerror", "script end"):  # markup is refused everywhere
        assert all(found[s.name, payload] == "refused" for s in SLOTS), \
            [s.name for s in SLOTS if found[s.name, payload] != "refused"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_refused_payloads_exit_1_without_a_traceback(outcomes, payload, tmp_path):
    """The payload at once in every innermost slot that refuses it (a slot holding no other): the
    command lists located problems."""
    data = copy.deepcopy(FIXTURE)
    refused = [s for s in SLOTS if outcomes[0][s.name, payload] == "refused"]
    innermost, paths = [], set()
    for slot in refused:
        holds_another = any(len(o.path) > len(slot.path) and o.path[:len(slot.path)] == slot.path for o in refused)
        if not holds_another and (slot.file, slot.path) not in paths:
            innermost.append(slot)
            paths.add((slot.file, slot.path))
    assert len(innermost) > 100, len(innermost)
    for slot in innermost:
        inject(data, slot, [PAYLOADS[payload]])
    content = write(data, tmp_path / "content")
    run = rulesmith_here("check", cwd=content)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if ": warning:" not in line and line.strip()]
    assert errors and all(re.match(r"^demo/[\w.-]+\.yaml:\d+:\d+: ", line) or line.startswith(("  ", "error:", "found "))
                          or re.match(r"^\d+ problems?", line) for line in errors), errors[:5]


# ---------------------------------------------------------------- what is accepted is built

def accepted_content(outcomes, folder: Path) -> tuple[Path, dict[str, list[str]]]:
    """The fixture with every slot holding every payload it accepted, checked clean."""
    accepted: dict[str, list[str]] = {}
    for (slot, payload), result in outcomes[0].items():
        if result == "accepted":
            accepted.setdefault(slot, []).append(payload)
    data = copy.deepcopy(FIXTURE)
    for slot in SLOTS:
        if slot.name in accepted:
            inject(data, slot, [PAYLOADS[p] for p in accepted[slot.name]])
    content = write(data, folder)
    try:
        check_content(content)
    except ContentError as error:
        pytest.fail("payloads accepted one by one are refused together:\n" +
                    "\n".join(str(p) for p in error.value.problems[:20]))
    return content, accepted


@pytest.fixture(scope="module")
def accepted_build(outcomes, tmp_path_factory):
    from rulesmith.commands.build import build

    folder = tmp_path_factory.mktemp("accepted")
    content, accepted = accepted_content(outcomes, folder / "content")
    build(content, folder / "site", pdfs=True, quiet=True, work=folder / "work")
    return folder / "site", accepted


def _arrived(site: Path, accepted: dict[str, list[str]]) -> set[str]:
    """The payloads whose marker reached some page (so the scans below saw them)."""
    text = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    return {p for payloads in accepted.values() for p in payloads if MARKER[p] in text}


@pytest.mark.pdf  # builds the site with its PDFs
def test_accepted_payloads_are_inert_text_on_every_page(accepted_build):
    site, accepted = accepted_build
    assert accepted, "no slot accepted any payload: nothing was built"
    assert _arrived(site, accepted), "no accepted payload reached a page"
    problems = {}
    for path in sorted(site.rglob("*.html")):
        bad = live_markup_problems(parse(path.read_text(encoding="utf-8")))
        if bad:
            problems[str(path.relative_to(site))] = bad
    assert not problems, json.dumps(problems, indent=1)


@pytest.mark.pdf  # builds the site with its PDFs
def test_accepted_payloads_are_inert_in_the_search_indexes(accepted_build):
    site, accepted = accepted_build
    files = sorted((site / "search").glob("*.js"))
    assert any(f.name == f"{GAME}.js" for f in files), files
    seen = False
    for path in files:
        assert "</" not in path.read_text(encoding="utf-8"), path.name
        for doc in entries(read_index(path)):
            for key in ("title", "aliases", "words", "text"):
                seen |= any(MARKER[p] in doc[key] for ps in accepted.values() for p in ps)
                assert not live_markup_problems(parse(doc[key])), (doc["location"], key, doc[key][:200])
    assert seen, "no accepted payload reached the search index"


@pytest.mark.pdf  # builds the site with its PDFs
def test_every_script_filled_in_from_accepted_payloads_parses_as_it_was_written(accepted_build):
    """The search indexes, the offline workers and the web app files: JavaScript that Node reads as
    a program (no payload ended a string and began code), JSON that parses."""
    import shutil
    import subprocess

    site, _ = accepted_build
    node = shutil.which("node")
    assert node, "node is needed to read the filled-in scripts (scripts/setup --test installs it)"
    scripts = sorted(site.glob("search/*.js")) + sorted(site.glob("*/sw.js"))
    assert len(scripts) >= 3, scripts
    for path in scripts:
        run = subprocess.run([node, "--check", str(path)], capture_output=True, text=True)
        assert run.returncode == 0, (path.name, run.stderr[-500:])
    for path in sorted(site.rglob("*.webmanifest")):
        json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.pdf  # builds the site with its PDFs
def test_accepted_payloads_are_inert_in_every_flowchart(accepted_build):
    site, _ = accepted_build
    files = sorted(site.rglob("*.svg"))
    charts = [(str(p.relative_to(site)), p.read_text(encoding="utf-8")) for p in files if "/flowcharts/" in str(p)
              or p.parent.name == "charts" or "class=\"node" in p.read_text(encoding="utf-8")]
    charts += [(str(page.relative_to(site)), m.group(0)) for page in sorted(site.rglob("*.html"))
               for m in re.finditer(r"<svg class=\"rs-flowchart__svg\".*?</svg>", page.read_text(encoding="utf-8"), re.S)]
    assert len(charts) >= 2, [c[0] for c in charts]
    for name, chart in charts:
        root = ET.fromstring(re.sub(r"\A.*?(?=<svg\b)", "", chart, flags=re.S).replace("&nbsp;", "&#160;"))
        for element in root.iter():
            tag = element.tag.rsplit("}", 1)[-1]
            assert tag not in ("script", "foreignObject", "iframe", "image", "a"), (name, tag)
            for attr, value in element.attrib.items():
                attr = attr.rsplit("}", 1)[-1]
                assert not attr.startswith("on"), (name, tag, attr)
                assert not re.match(r"\s*(javascript|data|vbscript):", value, re.I) or attr not in ("href", "src"), \
                    (name, tag, attr, value)


def _pdf_actions(obj, found: list, seen: set) -> None:
    """Every action dictionary reachable from a PDF object (links, open actions, annotations)."""
    obj = obj.get_object() if hasattr(obj, "get_object") else obj
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        if "/S" in obj:
            found.append(obj)
        for key, value in obj.items():
            if key not in ("/Parent", "/P", "/Kids", "/Font", "/FontFile2", "/FontFile3", "/K", "/ParentTree"):
                _pdf_actions(value, found, seen)
    elif isinstance(obj, list):
        for value in obj:
            _pdf_actions(value, found, seen)


@pytest.mark.pdf  # builds the site with its PDFs
def test_accepted_payloads_make_no_link_or_action_in_any_pdf(accepted_build):
    """Every link of every aid goes to a page of the same PDF or to an https URL that passes the
    model's URL rule; no JavaScript, launch, form or other action."""
    site, accepted = accepted_build
    pdfs = sorted(site.rglob("*.pdf"))
    assert len(pdfs) >= 6, pdfs
    problems, links, texts = [], 0, ""
    for path in pdfs:
        reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
        root = reader.trailer["/Root"]
        for key in ("/OpenAction", "/AA", "/AcroForm"):
            if key in root:
                problems.append(f"{path.name}: catalog has {key}")
        if "/JavaScript" in (root.get("/Names") or {}):
            problems.append(f"{path.name}: document JavaScript")
        for number, page in enumerate(reader.pages, 1):
            texts += page.extract_text() or ""
            if "/AA" in page:
                problems.append(f"{path.name} p{number}: page action")
            for annot in page.get("/Annots") or []:
                annot = annot.get_object()
                actions: list = []
                _pdf_actions(annot.get("/A"), actions, set())
                links += annot.get("/Subtype") == "/Link"
                for action in actions:
                    kind = action.get("/S")
                    if kind == "/URI":
                        uri = str(action.get("/URI"))
                        why = model.https_url_problem(uri)
                        if why:
                            problems.append(f"{path.name} p{number}: link to {uri!r} ({why})")
                    elif kind not in ("/GoTo",):
                        problems.append(f"{path.name} p{number}: {kind} action")
    assert not problems, problems
    assert links, "no link annotation in any PDF: the scan saw nothing"
    assert any(MARKER[p] in texts for ps in accepted.values() for p in ps), "no accepted payload reached a PDF"


@pytest.mark.browser
def test_no_page_runs_a_payload_in_chromium(accepted_build, browser):
    """Each page opened, hovered and clicked through, with a dialog listener; then its live DOM scanned."""
    site, _ = accepted_build
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 8
    dialogs, findings = played_in_chromium(browser, site, pages)
    assert not dialogs, dialogs
    assert not findings, json.dumps(findings, indent=1)
