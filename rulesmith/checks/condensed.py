"""Condensed wording on a player aid stays faithful to the item it condenses (its text,
subsections, cells or steps, with value references read from the data):

- every number it prints occurs in the item: a condensed text can drop words, never change a
  number;
- it keeps every condition of the item: for each group of condition words (if, unless, only,
  may, must, not, at most, each … as templates/condition-words.yaml lists them) it uses them at
  least as often as the full text, or its aid entry says under `in_full` which part of the item
  keeps the rest, and the aid prints a pointer to that part in full.

Problems are reported at their place in content/<game>/aids.yaml; `rulesmith review` prints
every condensed block beside its full text with what it drops (rulesmith/commands/review.py).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import yaml

from rulesmith.content import model
from rulesmith.content.link import REFERENCE, Index
from rulesmith.problems import nearest
from rulesmith.project import templates
from rulesmith.values import references as values
from rulesmith.values.fieldtypes import plain as plain_value

NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")


def plain_words(text: str, index: Index) -> str:
    """A text with references replaced by what they show (labels, names, values)."""
    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "value":
            try:
                return values.shown(index, ident)
            except values.ValueError_:
                return ""
        if label:
            return label
        return index.targets[target].name if target in index.targets else ""

    return REFERENCE.sub(replace, text or "")


def numbers(text: str, index: Index) -> list[str]:
    """The numbers a text prints, in order."""
    return NUMBER.findall(plain_words(text, index))


def full_text(item, index: Index, notes: bool = True) -> str:
    """Everything the full item prints, as plain text (without status notes: the rule's own words)."""
    parts: list[str] = []
    def note(thing) -> str:
        return (thing.note or "") if notes else ""

    if isinstance(item, model.Section):
        parts += [item.title, item.body, note(item)]
        for sub in item.sections:
            parts.append(full_text(sub, index, notes))
    elif isinstance(item, model.Table):
        parts += [item.title, item.description, note(item)]
        parts += [column.title for column in item.columns]
        for row in item.rows:
            for cell in row:
                value = plain_value(cell)
                parts.append(", ".join(map(str, value)) if isinstance(value, list) else str(value))
    elif isinstance(item, model.Procedure):
        parts += [item.title, item.description, note(item)]
        parts += [node.text for node in item.nodes]
        parts += [branch.when for node in item.nodes for branch in node.branches]
    elif isinstance(item, model.Entity):
        parts += [item.name, item.text, note(item)]
        parts += [str(plain_value(v)) for v in item.fields.values()]
    else:
        parts.append(getattr(item, "name", "") or getattr(item, "title", ""))
    return "\n\n".join(plain_words(part, index) for part in parts if part)


def unfaithful_numbers(entry: model.AidEntry, index: Index) -> list[str]:
    """Numbers in the entry's condensed text that the item it condenses does not print."""
    if not entry.condensed or entry.show not in index.targets:
        return []
    texts = parts(index.targets[entry.show].item, entry.show, index, condensed=entry.condensed)
    found = set(NUMBER.findall(full_text(index.targets[entry.show].item, index)))
    found |= {n for key, text in texts.items() if key != entry.show for n in NUMBER.findall(text)}
    return [n for n in numbers(entry.condensed, index) if n not in found]


# --- Conditions: the words that carry a rule's conditions and permissions -------------------

WORDS_FILE = templates() / "condition-words.yaml"
# Where a sentence ends: after . ! ? or ; (not after a list number such as "1."), at a blank
# line, and before a list item.
SENTENCE = re.compile(r"(?<=[^\d\s][.!?;])\s+|\n\s*\n\s*(?:\d+\.\s+)?|\n\s*(?:[-*]|\d+\.)\s+")


@dataclass(frozen=True)
class Group:
    """One kind of condition word (templates/condition-words.yaml): its key and its phrases."""

    key: str
    means: str
    phrases: tuple[str, ...]


@lru_cache(maxsize=1)
def groups() -> tuple[Group, ...]:
    data = yaml.safe_load(WORDS_FILE.read_text(encoding="utf-8"))
    return tuple(Group(g["key"], g["means"], tuple(str(p).lower() for p in g["phrases"])) for g in data["groups"])


@lru_cache(maxsize=1)
def matcher() -> tuple[re.Pattern, dict[str, str]]:
    by_phrase = {phrase: group.key for group in groups() for phrase in group.phrases}
    alternatives = sorted(by_phrase, key=len, reverse=True)  # "no more than" before "no"
    pattern = r"(?<![\w'])(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in alternatives) + r")(?![\w'])"
    return re.compile(pattern, re.IGNORECASE), by_phrase


def normal(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")


@lru_cache(maxsize=8192)
def occurrences(text: str) -> tuple[tuple[str, str], ...]:
    """(group key, phrase as written) of every condition word in a plain text, in order. The
    check asks this of the same texts many times (each part, each sentence, for each group)."""
    pattern, by_phrase = matcher()
    found = []
    for match in pattern.finditer(normal(text)):
        phrase = re.sub(r"\s+", " ", match.group(0).lower())
        found.append((by_phrase[phrase], match.group(0)))
    return tuple(found)


def counts(text: str) -> Counter:
    return Counter(key for key, _ in occurrences(text))


def _sections_text(section: model.Section, index: Index, skip: frozenset, own_only: bool) -> str:
    parts = [plain_words(section.body, index)] if section.body else []  # headings carry no condition
    if not own_only:
        parts += [_sections_text(sub, index, skip, False) for sub in section.sections if f"rule:{sub.id}" not in skip]
    return "\n\n".join(part for part in parts if part)


def parts(item, key: str, index: Index, skip: frozenset = frozenset(), condensed: str | None = None) -> dict[str, str]:
    """The parts of what a condensed block stands for that a pointer can name, each with its whole
    plain text: the item itself and, for a rules section, each subsection (nested ones too) not
    in `skip` (those printed as entries of their own on the same aid); then every entity the
    condensed wording names that the aid does not print on its own (stands_for)."""
    if not isinstance(item, model.Section):
        found = {key: full_text(item, index, notes=False)}
    else:
        found = {key: _sections_text(item, index, skip, False)}
        stack = [sub for sub in item.sections if f"rule:{sub.id}" not in skip]
        while stack:
            section = stack.pop(0)
            found[f"rule:{section.id}"] = _sections_text(section, index, skip, False)
            stack += [sub for sub in section.sections if f"rule:{sub.id}" not in skip]
    for entity_key in named_entities(condensed, index, skip | {key}):
        found[entity_key] = full_text(index.targets[entity_key].item, index, notes=False)
    return found


def named_entities(condensed: str | None, index: Index, skip: frozenset = frozenset()) -> list[str]:
    """The entities a condensed wording names ([[kind:id]]), in order, but those in `skip`: the
    block stands for their text too (D.E.I.'s Psionics block condenses Infamous and the other
    Faction Skills, whose conditions are the entities' own)."""
    found: list[str] = []
    for match in REFERENCE.finditer(condensed or ""):
        key = match.group(1)
        target = index.targets.get(key)
        if key not in skip and key not in found and isinstance(getattr(target, "item", None), model.Entity):
            found.append(key)
    return found


def stands_for(entry: model.AidEntry, index: Index, skip: frozenset = frozenset()) -> list[str]:
    """Everything a condensed block stands for: its item, the subsections it prints, and the
    entities its wording names (`rulesmith review` lists them; the check compares with all)."""
    if not entry.condensed or entry.show not in index.targets:
        return []
    return list(parts(index.targets[entry.show].item, entry.show, index, skip, entry.condensed))


def whole(texts: dict[str, str], key: str) -> str:
    """The whole text a block stands for: its item (with its subsections) and the named entities."""
    return "\n\n".join([texts[key]] + [text for part, text in texts.items() if not part.startswith(("rule:", key))])


def sentences(text: str) -> list[str]:
    """The sentences of a plain text (paragraphs, list items and headings end one too)."""
    return [re.sub(r"\s+", " ", s).strip() for s in SENTENCE.split(text) if s and s.strip()]


@dataclass
class Drop:
    """A group of condition words the condensed wording uses less often than its full text."""

    group: Group
    full: int  # times the full text uses the group's words
    kept: int  # times the condensed wording does
    left_to: list[str]  # parts the entry's `in_full` names for this group
    missing: int  # uses neither kept nor pointed to: the check refuses the entry while > 0
    where: list[tuple[str, str]]  # (part key, sentence) of the full text that use the group's words


def own_sentences(item, key: str, index: Index, skip: frozenset, condensed: str | None = None) -> list[tuple[str, str]]:
    """(part key, sentence) of every sentence of what a block stands for, each under the part
    that prints it (the item, its subsections, the entities its wording names)."""
    found = []
    if isinstance(item, model.Section):
        stack = [(key, item)]
        while stack:
            part_key, section = stack.pop(0)
            found += [(part_key, s) for s in sentences(_sections_text(section, index, skip, True))]
            stack += [(f"rule:{sub.id}", sub) for sub in section.sections if f"rule:{sub.id}" not in skip]
    else:
        found = [(key, s) for s in sentences(full_text(item, index, notes=False))]
    for entity_key in named_entities(condensed, index, skip | {key}):
        found += [(entity_key, s) for s in sentences(full_text(index.targets[entity_key].item, index, notes=False))]
    return found


def drops(entry: model.AidEntry, index: Index, skip: frozenset = frozenset()) -> list[Drop]:
    """Every group of condition words the entry's condensed wording uses less often than the
    item it condenses (without the subsections in `skip`), with where the full text uses them
    and which of them the entry's `in_full` points to."""
    if not entry.condensed or entry.show not in index.targets:
        return []
    item = index.targets[entry.show].item
    texts = parts(item, entry.show, index, skip, entry.condensed)
    full, kept = counts(whole(texts, entry.show)), counts(plain_words(entry.condensed, index))
    found, own = [], None
    for group in groups():
        if kept[group.key] >= full[group.key]:
            continue
        left_to = [p.part for p in entry.in_full if group.key in p.drops and p.part in texts]
        pointed = min(full[group.key], sum(counts(texts[p])[group.key] for p in left_to))
        own = own if own is not None else own_sentences(item, entry.show, index, skip, entry.condensed)
        where = [(part, s) for part, s in own if any(k == group.key for k, _ in occurrences(s))]
        found.append(Drop(group, full[group.key], kept[group.key], left_to,
                          max(0, full[group.key] - pointed - kept[group.key]), where))
    return found


def condition_problems(entry: model.AidEntry, index: Index, skip: frozenset = frozenset()):
    """(where, message, hint) for every condition the entry's condensed wording drops without
    saying where the rest is, and every `in_full` pointer that points to nothing."""
    if not entry.condensed or entry.show not in index.targets:
        return
    item = index.targets[entry.show].item
    texts = parts(item, entry.show, index, skip, entry.condensed)
    known = {g.key: g for g in groups()}
    dropped = {d.group.key: d for d in drops(entry, index, skip)}
    for pointer in entry.in_full:
        if pointer.part not in texts:
            yield (pointer.where("part"), f"in_full names {pointer.part}, which is not part of what {entry.show} prints here",
                   nearest(pointer.part, texts) or "name " + " or ".join(sorted(texts)))
            continue
        for j, word in enumerate(pointer.drops):
            if word not in known:
                yield (pointer.where("drops", j), f"unknown condition word '{word}'",
                       nearest(word, known) or "condition words: " + ", ".join(known))
            elif not counts(texts[pointer.part])[word]:
                users = [k for k, t in texts.items() if counts(t)[word]]
                yield (pointer.where("drops", j), f"{pointer.part} does not use '{word}' "
                       f"({', '.join(known[word].phrases[:4])}{' …' if len(known[word].phrases) > 4 else ''})",
                       "name the part that does: " + ", ".join(users) if users else f"remove '{word}' from drops")
            elif word not in dropped:
                yield (pointer.where("drops", j), f"the condensed text keeps every '{word}' of {entry.show}",
                       f"remove '{word}' from drops: nothing is left to the full text")
    for drop in dropped.values():
        if not drop.missing:
            continue
        users = sorted({part for part, _ in drop.where}) or [entry.show]
        example = next((s for _, s in drop.where), "")
        example = example if len(example) <= 90 else example[:87] + "…"
        yield (entry.where("condensed"),
               f"condensed text of {entry.show} drops '{drop.group.key}' ({drop.group.means}): the full text "
               f"uses it {_times(drop.full)}, the condensed text {_times(drop.kept)}" + (f', e.g. "{example}"' if example else ""),
               f"keep the condition, or say where the rest is: in_full: [{{part: {users[0]}, drops: [{drop.group.key}]}}]"
               + (f" (it is used in {', '.join(users)})" if len(users) > 1 else "")
               + "; `rulesmith review` shows the block beside its full text")


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")
