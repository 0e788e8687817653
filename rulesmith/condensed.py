"""Condensed wording on a player aid stays faithful: every number it prints occurs in the item
it condenses (its text, subsections, cells or steps, with value references read from the data).

A condensed text can drop words, never change a number; a number the full item does not print
is reported at its place in content/<game>/aids.yaml.
"""

from __future__ import annotations

import re

from . import model, values
from .fieldtypes import plain as plain_value
from .link import REFERENCE, Index

NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")


def _plain(text: str, index: Index) -> str:
    """A text with references replaced by what they show (labels, names, values)."""
    def replace(match: re.Match) -> str:
        target, label = match.group(1), match.group(2)
        kind, _, ident = target.partition(":")
        if kind == "value":
            try:
                return values.shown(values.lookup(index, ident))
            except values.ValueError_:
                return ""
        if label:
            return label
        return index.targets[target].name if target in index.targets else ""

    return REFERENCE.sub(replace, text or "")


def numbers(text: str, index: Index) -> list[str]:
    """The numbers a text prints, in order."""
    return NUMBER.findall(_plain(text, index))


def full_text(item, index: Index) -> str:
    """Everything the full item prints, as plain text."""
    parts: list[str] = []
    if isinstance(item, model.Section):
        parts += [item.title, item.body, item.note or ""]
        for sub in item.sections:
            parts.append(full_text(sub, index))
    elif isinstance(item, model.Table):
        parts += [item.title, item.description, item.note or ""]
        parts += [column.title for column in item.columns]
        for row in item.rows:
            for cell in row:
                value = plain_value(cell)
                parts.append(", ".join(map(str, value)) if isinstance(value, list) else str(value))
    elif isinstance(item, model.Procedure):
        parts += [item.title, item.description, item.note or ""]
        parts += [node.text for node in item.nodes]
        parts += [branch.when for node in item.nodes for branch in node.branches]
    elif isinstance(item, model.Entity):
        parts += [item.name, item.text, item.note or ""]
        parts += [str(plain_value(v)) for v in item.fields.values()]
    else:
        parts.append(getattr(item, "name", "") or getattr(item, "title", ""))
    return "\n".join(_plain(part, index) for part in parts if part)


def unfaithful_numbers(entry: model.AidEntry, index: Index) -> list[str]:
    """Numbers in the entry's condensed text that the item it condenses does not print."""
    if not entry.condensed or entry.show not in index.targets:
        return []
    found = set(NUMBER.findall(full_text(index.targets[entry.show].item, index)))
    return [n for n in numbers(entry.condensed, index) if n not in found]
