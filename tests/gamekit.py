"""Build small content trees for tests: a valid minimal game, then the one thing a test breaks."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

GAME_YAML = """\
game:
  id: mini
  name: Mini Game
  description: "A tiny game for tests."
  data_version: "1.0"
  sources: [{id: core, file: mini.txt, title: Mini Rulebook}]
modules:
  - {id: base, name: Base game}
kinds:
  - id: alliance
    name: Alliance
    plural: Alliances
    count: 3
    fields:
      - {id: cost, name: Cost, type: integer, min: 0}
      - {id: effect, name: Effect, type: text}
      - {id: symbol, name: Symbol, type: ref, to: symbol}
  - id: symbol
    name: Symbol
    plural: Symbols
    fields: []
"""

CONTENT_YAML = """\
defaults: {module: base, source: {section: Cards, page: 2}}
entities:
  - {id: interpol, name: Interpol, kind: alliance, fields: {cost: 3, effect: "Take [[icon:flag]]; see [[table:stages]].", symbol: star}}
  - {id: osce, name: OSCE, kind: alliance, status: missing, note: "Not reproduced in the rulebook.", fields: {cost: {status: missing, note: "Not given."}}}
  - {id: star, name: Star, kind: symbol, text: "Used by [[alliance:interpol]]."}
sections:
  - id: goal
    title: Goal of the game
    body: |
      Win with [[alliance:interpol|the Interpol card]].

      See [[procedure:bot]] and [[term:pp]].
    sections:
      - {id: goal-note, title: Note, body: "Back to [[rule:goal]]."}
tables:
  - id: stages
    title: Stages
    columns: [{id: stage, title: Stage, type: integer}, {id: influence, title: Influence, type: integer}]
    rows: [[1, 2], [2, 4], [3, 6]]
    rules: [{rule: non-decreasing, column: influence}, {rule: unique, column: stage}]
procedures:
  - id: bot
    title: Bot turn
    start: ask
    nodes:
      - {id: ask, type: decision, text: "Can the bot take [[alliance:interpol]]?", branches: [{when: "Yes", to: take}, {when: "No", to: done}]}
      - {id: take, type: step, text: "Take it.", next: done}
      - {id: done, type: end, text: "The turn ends."}
examples:
  - {id: stage-two, title: Stage two, text: "At stage 2 you gain 4.", inputs: {stage: 2}, expression: "lookup('stages', stage, 'influence')", result: 4}
glossary:
  - {id: pp, term: PP, aliases: [Power Points], definition: "Power Points."}
"""


def write_game(root: Path, game: str = GAME_YAML, content: str = CONTENT_YAML, **extra: str) -> Path:
    """content/mini/{game.yaml, content.yaml, **extra}; returns the content folder."""
    folder = root / "content" / "mini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(game), encoding="utf-8")
    if content:
        (folder / "content.yaml").write_text(textwrap.dedent(content), encoding="utf-8")
    for name, text in extra.items():
        path = folder / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root / "content"
