#!/usr/bin/env python3
"""Generate synthetic games for the benchmark: same shapes and about the same size as the real ones.

    .venv/bin/python scripts/make_synthetic_games.py OUT_DIR --games 10 [--seed 1]

writes OUT_DIR/synth-001/ … OUT_DIR/synth-010/, each a valid game folder (content/README.md):
a game.yaml with modules and kinds with typed fields (integer, enum, boolean, ref, ref-list, text,
string-list …), entity files with field values and references between entities, rules files with
nested prose sections, tables with declared rules (increasing, non-decreasing, unique, range, sum,
matches), solo-bot procedures (steps, Yes/No decisions, loops, two ends), worked examples whose
expressions recompute from the tables, a glossary and known gaps, with items marked missing or
unverified the way the transcriptions mark them. Measured against the shipped games (about 55
entities, 16 tables, 10 procedures with 95 nodes, 20 examples, 45 sections, 45 terms and 160 KB of
YAML per game), each synthetic game has about the same counts and bytes. Output is deterministic
for a given seed, so benchmark runs compare like with like.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import yaml

SCHEMA = "# yaml-language-server: $schema={up}schema/content.schema.json\n"

WORDS = (
    ["player", "bot", "round", "turn", "phase", "card", "token", "track", "board", "region", "district", "country", "power", "faction", "leader", "action", "market", "supply", "resource", "influence", "control", "conflict", "majority", "support", "vote", "agenda", "project", "stage", "mission", "weather", "unit", "scrapper", "drone", "outpost", "refuge", "alliance", "symbol", "deck", "discard", "hand", "pool", "bag", "space", "value", "cost", "reward", "threshold", "step", "priority", "initiative", "order", "tie", "score", "point", "end", "setup", "module", "expansion", "the", "a", "an", "of", "to", "in", "on", "for", "with", "from", "each", "every", "its", "their", "this", "that", "when", "if", "then", "until", "unless", "and", "or", "place", "take", "move", "draw", "reveal", "spend", "gain", "lose", "resolve", "apply", "check", "compare", "choose", "return", "shuffle", "remove", "first", "second", "third", "last", "next", "previous", "highest", "lowest", "adjacent", "neutral", "friendly", "rival", "hidden", "open", "always", "never", "only", "also", "again", "instead", "still", "immediately", "once", "twice", "per", "at", "most", "least"])
ICONS = ("flag", "vote", "shield", "die", "money", "leader", "skull", "target", "thumb-up", "thumb-down")  # the package defaults
ENDS = ("The bot's action ends.", "The bot passes; the next player takes a turn.")


class _Dumper(yaml.SafeDumper):
    """Plain YAML only: content files may not use anchors or aliases."""

    def ignore_aliases(self, data):  # noqa: ARG002 (PyYAML's Dumper interface)
        return True


def _str(dumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


class Writer:
    """Prose and ids for one game, from one seeded random generator."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.refs: list[str] = []  # every target key, filled as items are declared

    def words(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(low, high)))

    def title(self, low: int = 2, high: int = 4) -> str:
        return " ".join(w.capitalize() for w in self.words(low, high).split())

    def sentence(self, refs: bool = True) -> str:
        text = self.words(7, 18)
        roll = self.rng.random()
        if refs and self.refs and roll < 0.35:
            key = self.rng.choice(self.refs)
            text += f" ([[{key}]])" if self.rng.random() < 0.7 else f" [[{key}|{self.words(1, 3)}]]"
        elif roll < 0.45:
            text += f" [[icon:{self.rng.choice(ICONS)}]]"
        elif roll < 0.55:
            text = f"**{self.words(1, 3)}:** " + text
        return text[0].upper() + text[1:] + "."

    def paragraph(self, low: int = 2, high: int = 5, refs: bool = True) -> str:
        return " ".join(self.sentence(refs) for _ in range(self.rng.randint(low, high)))

    def body(self, paragraphs: int) -> str:
        parts = []
        for _ in range(paragraphs):
            if self.rng.random() < 0.2:
                parts.append("\n".join(f"- {self.sentence()}" for _ in range(self.rng.randint(2, 5))))
            else:
                parts.append(self.paragraph(3, 6))
        return "\n\n".join(parts) + "\n"


def _dump(path: Path, data: dict, depth: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(SCHEMA.format(up="../" * depth) + text, encoding="utf-8")


KINDS = [  # id, name, plural, generated, declared count, fields
    ("faction", "Faction", "Factions", 4, 5, [
        {"id": "colour", "name": "Colour", "type": "enum", "values": ["red", "green", "blue", "yellow", "black"]},
        {"id": "starting_units", "name": "Starting units", "type": "integer", "min": 0},
        {"id": "ability", "name": "Faction ability", "type": "text"}]),
    ("symbol", "Symbol", "Symbols", 6, None, []),
    ("leader", "Leader card", "Leader cards", 8, 10, [
        {"id": "faction", "name": "Faction", "type": "ref", "to": "faction"},
        {"id": "value", "name": "Leader value", "type": "integer", "min": 1, "max": 9},
        {"id": "support", "name": "Initial support", "type": "integer", "min": -2, "max": 5},
        {"id": "goal", "name": "Goal", "type": "text"},
        {"id": "symbols", "name": "Symbols", "type": "ref-list", "to": "symbol"}]),
    ("card", "Action card", "Action cards", 14, 18, [
        {"id": "cost", "name": "Cost", "type": "integer", "min": 0},
        {"id": "timing", "name": "Timing", "type": "enum", "values": ["immediate", "permanent", "end-of-round"]},
        {"id": "secret", "name": "Secret", "type": "boolean"},
        {"id": "symbol", "name": "Symbol", "type": "ref", "to": "symbol"},
        {"id": "effect", "name": "Effect", "type": "text"}]),
    ("country", "Country card", "Country cards", 10, 12, [
        {"id": "ct", "name": "Conflict threshold", "type": "integer", "min": 2},
        {"id": "extra_dice", "name": "Extra dice", "type": "integer", "min": 0},
        {"id": "reward", "name": "Reward", "type": "ref-list", "to": "symbol"},
        {"id": "tags", "name": "Tags", "type": "string-list"}]),
    ("mission", "Mission card", "Mission cards", 6, 6, [
        {"id": "points", "name": "Points", "type": "integer-list"},
        {"id": "condition", "name": "Condition", "type": "text"},
        {"id": "steps", "name": "Steps", "type": "text-list"}]),
    ("weather", "Weather card", "Weather cards", 5, 6, [
        {"id": "season", "name": "Season", "type": "string"},
        {"id": "modifier", "name": "Modifier", "type": "number"},
        {"id": "effect", "name": "Effect", "type": "text"}]),
    ("token", "Token", "Tokens", 3, None, [
        {"id": "quantity", "name": "Quantity", "type": "integer", "min": 0}]),
]
MODULES = [("base", "Base game"), ("expansion", "Expansion module"), ("solo", "Solo mode")]
RULE_FILES = 8  # rules/NN-*.yaml, each with sections, tables, procedures and examples
SECTIONS_PER_FILE = 2
TABLES_PER_FILE = 2
PROCEDURES_PER_FILE = (1, 2)  # alternating: 12 procedures per game
EXAMPLES_PER_FILE = 3
TERMS = 45
GAPS = 8


def make_game(folder: Path, game_id: str, seed: int) -> None:
    """One synthetic game in `folder` (created)."""
    rng = random.Random(seed)
    w = Writer(rng)
    modules = [m for m, _ in MODULES]

    def source(depth_section: str | None = None) -> dict:
        src = {"section": depth_section or w.title()}
        if rng.random() < 0.7:
            src["page"] = rng.randint(1, 40)
        return src

    # --- every id first, so texts can refer to any of them
    entity_ids = {kind: [f"{kind}-{i + 1:02d}" for i in range(n)] for kind, _, _, n, _, _ in KINDS}
    section_ids = [[f"rule-{f + 1:02d}-{s + 1}" for s in range(SECTIONS_PER_FILE)] for f in range(RULE_FILES)]
    table_ids = [[f"table-{f + 1:02d}-{t + 1}" for t in range(TABLES_PER_FILE)] for f in range(RULE_FILES)]
    procedure_ids = [[f"bot-{f + 1:02d}-{p + 1}" for p in range(PROCEDURES_PER_FILE[f % 2])] for f in range(RULE_FILES)]
    example_ids = [[f"example-{f + 1:02d}-{e + 1}" for e in range(EXAMPLES_PER_FILE)] for f in range(RULE_FILES)]
    term_ids = [f"term-{i + 1:02d}" for i in range(TERMS)]
    w.refs = ([f"{k}:{i}" for k, ids in entity_ids.items() for i in ids]
              + [f"rule:{i}" for ids in section_ids for i in ids]
              + [f"rule:{i}-sub-{s + 1}" for ids in section_ids for i in ids for s in range(2)]
              + [f"table:{i}" for ids in table_ids for i in ids]
              + [f"procedure:{i}" for ids in procedure_ids for i in ids]
              + [f"term:{i}" for i in term_ids]
              + [f"kind:{k}" for k, *_ in KINDS] + [f"module:{m}" for m in modules])

    # --- game.yaml
    kinds = []
    for kind, name, plural, generated, count, fields in KINDS:
        entry = {"id": kind, "name": name, "plural": plural, "description": w.paragraph(1, 3)}
        if count is not None:
            entry["count"] = count
            if count > generated:
                entry["count_note"] = f"The text reproduces {generated} of the {count} cards."
        entry["fields"] = fields
        kinds.append(entry)
    _dump(folder / "game.yaml", {
        "game": {"id": game_id, "name": f"Synthetic {game_id[-3:]}", "subtitle": w.title(),
                 "description": w.body(2), "data_version": "1.0.0", "language": "en",
                 "sources": [{"id": "core", "file": f"{game_id}.txt", "title": f"{game_id} rulebook"}]},
        "modules": [{"id": m, "name": n, "description": w.paragraph(1, 2)} for m, n in MODULES],
        "kinds": kinds,
    }, 2)

    # --- entities, one file per kind
    for kind, _name, _plural, _generated, _count, fields in KINDS:
        entities = []
        for n, ident in enumerate(entity_ids[kind]):
            entity = {"id": ident, "name": w.title(1, 3), "source": source()}
            missing = n % 7 == 6
            if missing:
                entity["status"] = "missing"
                entity["note"] = "The card is not reproduced in the text; only its name is given."
            elif n % 11 == 5:
                entity["status"] = "unverified"
                entity["note"] = "The text is garbled here; kept as printed."
            entity["text"] = w.paragraph(1, 4)
            values = {}
            for spec in fields:
                if missing and rng.random() < 0.6:
                    values[spec["id"]] = {"status": "missing", "note": "Not in the text."}
                    continue
                values[spec["id"]] = _value(spec, w, entity_ids, n)
            if values:
                entity["fields"] = values
            if rng.random() < 0.3:
                entity["aliases"] = [f"{entity['name']} card"]
            entities.append(entity)
        module = modules[len(kind) % 3]
        _dump(folder / "entities" / f"{kind}.yaml", {"defaults": {"kind": kind, "module": module},
                                                     "entities": entities}, 3)

    # --- rules files: sections, tables, procedures, examples
    for f in range(RULE_FILES):
        module = modules[0] if f < 5 else modules[1] if f < 7 else modules[2]
        sections = []
        for ident in section_ids[f]:
            sections.append({
                "id": ident, "title": w.title(), "source": source(), "body": w.body(rng.randint(3, 5)),
                "sections": [{"id": f"{ident}-sub-{s + 1}", "title": w.title(), "body": w.body(rng.randint(1, 3))}
                             for s in range(2)]})
        tables = []
        for ident in table_ids[f]:
            tables.append(_table(ident, w, tables[0] if tables else None))
        procedures = [_procedure(ident, w) for ident in procedure_ids[f]]
        examples = [_example(ident, w, tables[e % len(tables)]) for e, ident in enumerate(example_ids[f])]
        _dump(folder / "rules" / f"{f + 1:02d}-{section_ids[f][0]}.yaml", {
            "defaults": {"module": module, "source": source(w.title())},
            "sections": sections, "tables": tables, "procedures": procedures, "examples": examples}, 3)

    # --- glossary and gaps
    glossary = []
    for ident in term_ids:
        term = {"id": ident, "term": w.title(1, 2), "definition": w.paragraph(1, 3), "source": source()}
        if rng.random() < 0.3:
            term["aliases"] = [term["term"] + "s"]
        if rng.random() < 0.2:
            term["note"] = "Base-game term; not described further in these texts."
        glossary.append(term)
    _dump(folder / "glossary.yaml", {"glossary": glossary}, 2)
    _dump(folder / "gaps.yaml", {"gaps": [
        {"id": f"gap-{i + 1:02d}", "title": w.title(3, 6), "module": modules[i % 3],
         "status": "missing" if i % 2 else "unverified", "note": w.paragraph(1, 3), "source": source(), "affects": []}
        for i in range(GAPS)]}, 2)


def _value(spec: dict, w: Writer, entity_ids: dict, n: int):
    rng, kind = w.rng, spec["type"]
    if kind == "integer":
        low = int(spec.get("min", 0))
        return rng.randint(low, int(spec.get("max", low + 8)))
    if kind == "number":
        return round(rng.uniform(-2, 2), 1)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "enum":
        return rng.choice(spec["values"])
    if kind == "ref":
        return entity_ids[spec["to"]][n % len(entity_ids[spec["to"]])]
    if kind == "ref-list":
        return rng.sample(entity_ids[spec["to"]], rng.randint(1, 3))
    if kind == "text":
        return w.paragraph(1, 3)
    if kind == "text-list":
        return [w.sentence() for _ in range(rng.randint(2, 4))]
    if kind == "string-list":
        return [w.words(1, 2) for _ in range(rng.randint(1, 3))]
    if kind == "integer-list":
        return sorted(rng.randint(0, 9) for _ in range(3))
    return w.words(1, 3)  # string


def _table(ident: str, w: Writer, matches: dict | None) -> dict:
    """Key column 1..n (increasing), a non-decreasing track, a ranged value, a summed count, a text.
    The second table of a file repeats the first one's keys and track, held by a `matches` rule."""
    rng = w.rng
    rows, track, total = [], rng.randint(0, 3), 0
    count = len(matches["rows"]) if matches else rng.randint(3, 8)
    for key in range(1, count + 1):
        track = matches["rows"][key - 1][1] if matches else track + rng.randint(0, 2)
        amount = rng.randint(0, 4)
        total += amount
        rows.append([key, track, rng.randint(1, 6), amount, w.sentence()])
    if not matches and rng.random() < 0.3:
        rows[-1][2] = {"value": rows[-1][2], "status": "unverified", "note": "Hard to read in the source."}
    rules = [{"rule": "increasing", "column": "key"}, {"rule": "unique", "column": "key"},
             {"rule": "non-decreasing", "column": "track"}, {"rule": "range", "column": "dice", "min": 1, "max": 6},
             {"rule": "sum", "column": "amount", "equals": total}]
    if matches:
        rules.append({"rule": "matches", "column": "track", "table": matches["id"], "other_column": "track"})
    return {"id": ident, "title": w.title(3, 6), "description": w.paragraph(1, 2),
            "columns": [{"id": "key", "title": "Key", "type": "integer"},
                        {"id": "track", "title": w.title(1, 2), "type": "integer"},
                        {"id": "dice", "title": "Dice", "type": "integer"},
                        {"id": "amount", "title": w.title(1, 2), "type": "integer"},
                        {"id": "effect", "title": "Effect", "type": "text"}],
            "rows": rows, "rules": rules}


def _procedure(ident: str, w: Writer) -> dict:
    """A chain of steps and Yes/No decisions (about ten nodes) with a loop and two ends."""
    rng = w.rng
    size = rng.randint(5, 9)
    ids = [f"n{i + 1}" for i in range(size)] + ["done", "stop"]
    nodes = []
    for i in range(size):
        nxt = ids[i + 1]
        if i % 3 == 1:
            other = "stop" if i == 1 else ids[rng.randint(0, i - 1)] if rng.random() < 0.3 else ids[rng.randint(i + 1, size)]
            if other == nxt:
                other = "stop"
            nodes.append({"id": ids[i], "type": "decision", "text": w.sentence().rstrip(".") + "?",
                          "branches": [{"when": "Yes", "to": nxt}, {"when": "No", "to": other}]})
        else:
            nodes.append({"id": ids[i], "type": "step", "text": w.sentence(), "next": nxt})
    nodes.append({"id": "done", "type": "end", "text": ENDS[0]})
    nodes.append({"id": "stop", "type": "end", "text": ENDS[1]})
    return {"id": ident, "title": "Bot: " + w.title(), "description": w.paragraph(1, 2), "start": "n1",
            "nodes": nodes}


def _example(ident: str, w: Writer, table: dict) -> dict:
    """`lookup(...) + bonus` over a generated table, with the result the tables give."""
    rng = w.rng
    row = rng.choice(table["rows"])
    dice = row[2]["value"] if isinstance(row[2], dict) else row[2]
    bonus = rng.randint(0, 3)
    return {"id": ident, "title": w.title(3, 6), "text": w.paragraph(1, 3),
            "inputs": {"key": row[0], "bonus": bonus},
            "expression": f"lookup('{table['id']}', key, 'track') + lookup('{table['id']}', key, 'dice') + bonus",
            "result": row[1] + dice + bonus}


def generate(out: Path, games: int, seed: int = 1) -> list[Path]:
    """`games` synthetic games in `out` (created); returns their folders."""
    folders = []
    for n in range(1, games + 1):
        folder = out / f"synth-{n:03d}"
        make_game(folder, folder.name, seed * 100_003 + n)
        folders.append(folder)
    return folders


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="content folder to write the games into")
    parser.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    folders = generate(args.out, args.games, args.seed)
    print(f"wrote {len(folders)} synthetic game(s) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
