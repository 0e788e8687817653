"""The format reference: every item, field, type and rule of the content format, from the model.

The fields, their types, defaults and descriptions come from the pydantic classes in `content/model.py`
(and the rules of their validators from the validators' docstrings), the field types and table
rules from the model's own lists, the expression functions from `values/expressions.py`. What no class
can say (how files, references and status work) is the prose of the topics below. The text is
shipped with the package, printed by `rulesmith format [topic]`, published as a page of the site,
and is `content/README.md` (a test proves the two agree). Hints in messages name a topic:
`topics.see(topic)`.
"""

from __future__ import annotations

import datetime
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from rulesmith.checks import tablerules
from rulesmith.content import model
from rulesmith.format import topics
from rulesmith.problems import UsageError, nearest
from rulesmith.values import fieldtypes, ids
from rulesmith.values import status as statuses
from rulesmith.values.expressions import FUNCTIONS, LIMIT, MAX_EXPONENT

TITLE = "The content format"


@dataclass(frozen=True)
class Topic:
    id: str  # `rulesmith format <id>`; for an item topic, the top-level key it documents
    title: str
    intro: str  # Markdown, before the fields
    models: tuple[type[BaseModel], ...] = ()  # whose fields are listed, in this order
    example: str = ""  # YAML, checked against the model by the tests
    after: str | typing.Callable[[], str] = ""  # Markdown after the fields (or what makes it, when rendered)


def _field_types() -> str:
    return fieldtypes.reference()


def _table_rules() -> str:
    return tablerules.reference()


def _aid_kinds() -> str:
    from rulesmith.aids import kinds as aidkinds  # (it reads the game; imported when the text is made)

    plans = {"required": "made only when the game plans it", "optional": "a plan is optional",
             "none": "takes no plan"}
    papers = " and ".join(paper.name for paper in aidkinds.geometry().papers)
    return f"Aid kinds (`aid:`), each in {papers}:\n\n" + "\n".join(
        f"- `{k.key}`, {k.title}: {k.contains} {plans.get(k.plan, k.plan).capitalize()}"
        + ("; only for a game with procedures" if k.needs == "procedures" else "")
        + (f"; at most {k.budget.get('pages', 0)} pages" + (f" + {k.budget['per_procedure']} per procedure"
           if k.budget.get("per_procedure") else "") if k.budget else "; no page budget") + "."
        for k in aidkinds.kinds())


def _checks() -> str:
    from rulesmith.checks.check import CHECKS  # checks/check.py reads the game, which reads this module's hints

    return "What `rulesmith check` proves of every game, in this order, after the files are read:\n\n" + "\n".join(
        f"- {check.proves[0].upper()}{check.proves[1:]}." for check in CHECKS)


def _functions() -> str:
    return "Functions an expression may use:\n\n" + "\n".join(
        f"- `{signature}`: {text}" for signature, (_function, text) in FUNCTIONS.items())


TOPICS: tuple[Topic, ...] = (
    Topic("files", "Files", """\
Everything a reader sees comes from the YAML under `content/<game>/`. No Python changes are
needed to add a game: `rulesmith new <game-id>` writes a small game that checks and builds, with
every part of the format once. `rulesmith check` validates the content (every problem at once, as
`file:line:column: message (hint)`); `rulesmith format [topic]` prints this reference, or one
part of it (a topic is the heading's name: `rulesmith format tables`).

A game is a folder `content/<game-id>/` with a `game.yaml` and any number of other `*.yaml`
files, in any subfolders. Files are read in sorted path order, and that order is the reading
order of the rules sections, tables, procedures and examples on the site and in the PDFs, so
name them `rules/01-basics.yaml`, `rules/02-phases.yaml`, … Every file is a mapping whose
top-level keys are any of the keys below. Unknown keys anywhere are errors. YAML anchors and
aliases, tags and duplicate keys are rejected. A file that cannot be read is reported once, with
its error; what other files miss because of it is reported as "… may be in `<file>`, which
could not be read".

The files are YAML 1.2, as editors read them: `Yes`, `no`, `on`, `off` are text (only `true`
and `false` are booleans), `010` is text, dates are written `2026-03-01`.

**Editors.** `rulesmith build` (and `rulesmith schema`) writes the JSON Schema of the format in
`schema/`: `content.schema.json`, the format every game shares, and `<game>.schema.json`,
narrowed to one game (its modules and kinds enumerated, every kind's fields typed, table rows
typed by column, procedure branches limited to the procedure's own steps), so an editor flags at
the line most of what the check would. Every file of a game starts with its game's schema:

```yaml
# yaml-language-server: $schema=../../schema/<game>.schema.json
```

(`../../../schema/…` in a subfolder).""", (model.ContentFile,), after=_checks),
    Topic("references", "Ids and references", """\
Ids are lower-case `kebab-case` (`""" + ids.KEBAB + """`), unique per game within their
namespace. A reference is written inside any text as

- `[[kind:id]]`: a link showing the target's name, or
- `[[kind:id|label]]`: a link showing `label`.

`kind` is an entity kind declared in `game.yaml`, or one of `rule` (a section, top-level or
nested), `table`, `procedure`, `example`, `term` (glossary), `module`, `gap`, or `kind` (the
page listing all entities of a kind: `[[kind:alliance]]`). An unknown target is an error with
the nearest valid ids as a hint. Every reference becomes a link, and the target lists what
refers to it.

**Values.** `[[value:kind:id.field]]` shows the current value of an entity's field, and
`[[value:table:id.key.column]]` a table cell (the row whose first column is `key`), e.g.
"Nigeria has CT [[value:country:nigeria.ct]]". Write a number the data holds this way instead
of retyping it, so an erratum reaches every text. An example's input may be exactly such a
reference: the check reads the value from the data. A gap reference `[[gap:id]]` is shown with
the gap marker, at the place the reader meets the gap.

**Icons.** `[[icon:name]]` renders the same icon on the site and in the PDFs (see `icons`).

**Text.** Text fields are Markdown (paragraphs, lists, `**bold**`, `*italic*`, tables). Nested
lists are indented by 4 spaces (the check rejects 1 to 3, which would silently flatten). Raw HTML
is not allowed, and links may only be `https://`. Plain-text fields (names, titles, labels) are
shown as written and may not contain a tag opener (`<` then a letter, `/`, `!` or `?`) or a
character reference (`&lt;`); `a < b` and `R&D` are fine."""),
    Topic("status", "Status and source: fidelity", """\
Content says what the rulebook says and nothing else. Every entity, table, procedure, example,
section and gap may carry a `status` and a `note`, and most items a `source`:

""" + statuses.reference() + """

A single field or table cell can carry its own status by writing a mapping instead of the plain
value: `{status: missing, note: "…"}` or `{value: 7, status: unverified, note: "…"}`.""",
          (model.Fidelity, model.Source), example="""\
entities:
  - id: nigeria
    name: Nigeria
    kind: country
    status: unverified
    note: "The card's text is cut off in the rulebook."
    source: {section: "Annex 2: Symbols", page: 16}
    fields: {ct: {value: 3, status: unverified, note: "Printed as 3; the FAQ does not say."}}
"""),
    Topic("game", "`game`", """\
The game itself, in `game.yaml`. Its `sources` are the rulebook texts the data is transcribed
from, found by path: `sources_folder` relative to the project (the folder that holds
`content/`), then each text's `file` relative to it (`$RULESMITH_SOURCES` overrides the folder).
With the texts, `rulesmith check` proves the source map against them (see `source_map`); without
them, it warns that the source map is unchecked.""", (model.GameInfo, model.SourceText), example="""\
game:
  id: statecraft
  name: Statecraft
  description: "Markdown: what the data covers."
  data_version: "1.0.0"
  sources_folder: ../shared/seeds
  sources:
    - {id: core, file: 003_805f803e60ff3bea.txt, title: "Statecraft Rulebook"}
"""),
    Topic("modules", "`modules`", """\
The modules of the game (base game, expansions, optional rules), in `game.yaml`. Entities,
tables, procedures, examples, terms, gaps and rules sections name the module they belong to with
`module:` (or the file's `defaults: {module: …}`); a subsection without one belongs to the module
of its section. A field of a kind can apply only with a module too (see `kinds`). An item
without a module applies with every module; in a game with more than
one module, `rulesmith check` counts such items so that none is left out by mistake (glossary
terms and gaps, which may concern the whole game, are not counted).""",
          (model.Module,), example="""\
modules:
  - {id: base, name: "Base game"}
  - {id: brute-force, name: "Brute Force module", description: "Adds the alliances."}
"""),
    Topic("kinds", "`kinds`", """\
The kinds of entity the game declares, in `game.yaml`, each with its typed fields. An entity's
`fields:` are checked against its kind's declaration: an unknown field, a value of the wrong
type, outside `min`/`max` or not among an enum's `values` is an error at its line.""",
          (model.Kind, model.FieldDef), example="""\
kinds:
  - id: country
    name: Country card
    plural: Country cards
    count: 40
    fields:
      - {id: ct, name: Conflict threshold, type: integer, min: 2}
      - {id: muslim, name: Muslim country, type: boolean}
      - {id: symbols, name: Symbols, type: ref-list, to: symbol}
      - {id: colour, name: Colour, type: enum, values: [red, green, blue]}
      - {id: bonus, name: Variant bonus, type: integer, module: variant}
""", after=_field_types()),
    Topic("defaults", "`defaults`", """\
Values applied to every entity, table, procedure, example, term, gap and section of the same
file that does not set its own.""", (model.Defaults,), example="""\
defaults: {kind: alliance, module: brute-force, source: {section: "Alliances", page: 9}}
"""),
    Topic("sections", "`sections`", """\
Prose rules sections. Every top-level section is one page of the rules, in file order; its
subsections are shown on the same page. A section with a `module` is a rules text that applies
only with that module.""", (model.Section,), example="""\
sections:
  - id: conflict
    title: Conflict
    source: {section: "Conflict", page: 9}
    body: |
      Markdown, as the rulebook says it, with [[table:conflict-dice]] references.
    sections:
      - {id: conflict-example, title: Example, body: "…"}
"""),
    Topic("entities", "`entities`", """\
Cards, tokens, alliances, symbols …: every thing of a declared kind. Each kind has a page listing
all of its entities, with an anchor per entity.""", (model.Entity,), example="""\
defaults: {kind: alliance, module: brute-force}
entities:
  - id: interpol
    name: Interpol
    source: {section: "Alliances of the Brute Force Module", page: 9}
    text: "Card text, Markdown."
    fields: {cost: 3, mark: CM}
    aliases: [Interpol card]
"""),
    Topic("tables", "`tables`", """\
Stage tables, tracks and reference tables: typed columns (the field types), rows, and rules the
check holds the table to. The first column is the row's key (unique). **A table keyed by the
entities of a kind** (card values per rank): make its first column `{type: ref, to: <kind>}`;
every key must then be the id of one of them (the check says which is not), and the table shows
each row with the entity's name, linked. Player counts and ranges as keys are written as text
(`"2"`, `"4+"`).""", (model.Table, model.Column, model.TableRule), example="""\
tables:
  - id: conflict-dice
    title: Extra conflict dice per conflict threshold
    source: {section: "Conflict", page: 9}
    columns:
      - {id: ct, title: Conflict threshold, type: string}
      - {id: extra, title: Extra dice, type: integer}
    rows:
      - ["2", 3]
      - ["3", 2]
      - ["4+", 1]
    rules:
      - {rule: non-increasing, column: extra}
  - id: rank-points
    title: Points per rank
    columns:
      - {id: rank, title: Rank, type: ref, to: rank}
      - {id: points, title: Points, type: integer}
    rows:
      - [king, 4]
      - [queen, 3]
""", after=_table_rules()),
    Topic("procedures", "`procedures`", """\
Solo-bot decision processes. The check proves every target exists, every node is reachable from
`start`, and every node can reach an `end` (loops are fine if they can end). The site shows the
flowchart, a numbered text version (node order = list order) and a step-by-step walker; the
game's *Bot turn* page walks all its procedures in file order.""",
          (model.Procedure, model.Node, model.Branch), example="""\
procedures:
  - id: bot-influence
    title: "Bot: Influence action"
    start: first-round
    nodes:
      - {id: first-round, type: step, text: "…", next: can-control}
      - id: can-control
        type: decision
        text: "Can the bot take control with its remaining tokens?"
        branches:
          - {when: "Yes", to: place}
          - {when: "No", to: done}
      - {id: place, type: step, text: "…", next: done}
      - {id: done, type: end, text: "The bot stops placing influence."}
"""),
    Topic("examples", "`examples`", f"""\
Worked examples printed in the rulebook. With an `expression`, the check recomputes the example
from the data and fails if the result differs from the printed `result`, so an erratum that
breaks an example is caught. `printed: false` marks a check case that applies a rule the
rulebook states rather than an example it prints; the site labels it so. An expression may use
the inputs, numbers, `+ - * / // % **`, comparisons, `in`, `and`/`or`/`not`, `x if c else y`,
lists written out (`[a, b]`), positions (`counts[i]`) and the functions below; nothing else
(no `for`, no other names). Every number in it stays within ±{LIMIT:,}
and a power's exponent within {MAX_EXPONENT}: the check refuses an expression that would run long.""", (model.Example,), example="""\
examples:
  - id: nigeria-conflict-china-dice
    title: "Conflict in Nigeria: China's dice"
    source: {section: "Conflict", page: 10}
    text: "China rolls 5 dice (two for its influence, two extra dice and one for the friendly government)."
    inputs: {influences: 2, ct: "[[value:country:nigeria.ct]]", friendly_government: 1}
    expression: "influences + lookup('conflict-dice', ct, 'extra') + friendly_government"
    result: 5
""", after=_functions()),
    Topic("glossary", "`glossary`", "Glossary terms; search finds their aliases too.", (model.Term,), example="""\
glossary:
  - id: agitator
    term: Agitator
    aliases: [Agitators]
    definition: "What the text says it is (Markdown)."
"""),
    Topic("gaps", "`gaps`", """\
Known gaps in the source that belong to no single entity, table or section (those carry their own
status). Each gap is listed on the game's *Gaps in the source* page and shown where a text refers
to it.""", (model.Gap,), example="""\
gaps:
  - id: imf-icons
    title: IMF action icons
    status: missing
    note: "The action icons are not reproduced in the text layer of the rulebook."
    source: {section: "Solo Governance Phase", page: 18}
"""),
    Topic("errata", "`errata`", """\
Erratum records, by convention in `errata.yaml`; `rulesmith errata add` writes one and the
corrected value together. The check proves every record names an existing value, that the data
holds the latest record's `new`, and that records of one value chain (each `old` is the previous
`new`).""", (model.Erratum, model.ErratumSource), example="""\
errata:
  - id: e1
    date: 2026-03-01
    source: {kind: publisher-faq, description: "Publisher FAQ v2", url: "https://example.org/faq"}
    target: alliance:interpol
    field: fields.cost
    old: 3
    new: 4
    note: "…"
"""),
    Topic("source_map", "`source_map`", """\
The reverse pass, by convention in `source-map.yaml`: every line of every source text is mapped,
once, to the items that carry it, or marked as not rules content with the reason. With the texts
found (see `game`), the check proves every item exists, every range is within its text, no two
ranges overlap and no line is left unmapped (reported at the text's own line). Without them, the
check warns that the source map is unchecked.""", (model.SourceLines,), example="""\
source_map:
  - {source: core, lines: "35-47", items: [rule:setup, table:resource-market-setup]}
  - {source: core, lines: "1-4", not_content: "title page and empty table of contents"}
"""),
    Topic("icons", "`icons`", """\
`[[icon:name]]` renders the same icon on the site and in the PDFs. A game declares its icons in
any file of its folder (by convention `icons.yaml`). Every game also has Rulesmith's default
icons (die, money, leader, skull, target, thumb-up, thumb-down, vote, flag, shield); a game's
icon of the same id replaces the default.""", (model.Icon,), example="""\
icons:
  - {id: flag-muslim, label: "Flag with Muslim-country mark", glyphs: [material/flag, material/star-crescent]}
"""),
    Topic("aids", "`aids`", """\
What goes on a game's player aids, in order. The aid kinds (rules summary, solo-bot aid, card
reference) are declared by Rulesmith. A game gets a rules summary only when it plans one; the
solo aid prints every procedure by itself and takes an optional `setup`; the card reference
prints every table and entity list and takes no plan. The first page's "at a glance" is the
plan's `sequence`: a phase table, or, for a game without phases, the rules sections that make
its turn.

`show` is `rule:<id>`, `table:<id>`, `procedure:<id>` or `kind:<id>` (the list of that kind). A
subsection planned as an entry of its own is not printed again inside its parent. Condensed
wording may drop words, never change a number: every number it prints must occur in the item it
names, or the check reports it at its place. It stands for the whole section on the aid: its
subsections are not printed, and under its heading the aid says where the site has the full
text.""", (model.AidPlan, model.AidEntry), example="""\
aids:
  - aid: rules-summary
    covers: "Markdown: what the summary covers (page 1)."
    sequence:
      - {show: "table:round-phases", title: "A round at a glance"}
    setup:
      - {show: "rule:setup"}
    body:
      - {show: "rule:conflict"}
      - {show: "rule:solo-mode", subsections: false}
      - show: "rule:storms"
        title: "Storms, in short"
        condensed: |
          On a 6 a storm hits every ship at sea.
""", after=_aid_kinds),
)
def _bot_models() -> tuple[type[BaseModel], ...]:
    found: list[type[BaseModel]] = []

    def walk(cls):
        if cls not in found:
            found.append(cls)
            for inner in model.nested_models(cls).values():
                walk(inner)
    documented = {cls for topic in TOPICS for cls in topic.models}
    walk(model.ContentFile)  # the bot's own classes, and those of steps and aids no other topic lists
    return tuple(cls for cls in found if cls not in documented)


TOPICS += (Topic("bot", "`bot`", """\
The solo bot's state, decks and turn, what a procedure's steps read, roll, draw, set and call
(the walker on the site plays them), and the aid entries' other options.""", _bot_models()),
           Topic("translations", "`translations`", """\
A game's translations are gettext catalogs, one PO file per language in the game's folder:
`content/<game>/translations/<lang>.po` (`de.po`, `fr.po`, `pt-br.po`: a lower-case language
code, with a region after `-` if needed). Translators edit them with the tools they know (Poedit,
Weblate, Crowdin, any text editor); they are reviewed in pull requests like the YAML.

Every reader-visible text of the content is one entry: its context (`msgctxt`) is the text's
address, the item's key and the place inside it as an erratum names it (`card:interpol.name`,
`rule:setup.body`, `country:nigeria.fields.effect`, `table:conflict-dice.rows.3.extra`,
`procedure:bot-davos.nodes.remove-a.text`, `term:agitator.aliases.0`, `game:<id>.description`,
`aid:rules-summary.covers`, `bot:state-difficulty.values.hard.name`, `icon:<id>.label`); its
`msgid` is the English; its `msgstr` the translation. What cites the English rulebook (a source's
section, a rulebook's title) and texts without a letter (`2`, `3-5`) have no entry.

```po
#. Country card Nigeria
#. Markdown: keep every [[…]] reference as written.
#. current since 2026-03-01
#: entities/countries.yaml
msgctxt "country:nigeria.text"
msgid "Place 1 influence on [[country:chad]]."
msgstr "Lege 1 Einfluss auf [[country:chad]]."

#, fuzzy
#| msgid "Costs 3."
msgctxt "alliance:interpol.fields.effect"
msgid "Costs 4."
msgstr "Kostet 3."
```

- `rulesmith translate update <game> <lang>` makes the catalog, or refreshes it from the current
  English as `msgmerge` does: a new text is added untranslated; a translated entry whose English
  changed keeps its translation, marked `fuzzy`, with the English it was made from as `#| msgid`;
  an entry whose text is gone becomes obsolete (`#~`) and comes back if its text does. It writes
  the extracted comments (`#.`: the item, the text's format and `current since <date>`, the day by
  which a translated entry was brought up to date) and the file reference (`#:`); the
  translators' own comments, flags and header stay as they are.
- `rulesmith translate status [<game>]` prints, per game and language, how many texts are
  translated, outdated (fuzzy, or their English changed since) and missing.
- `rulesmith errata add` and `rulesmith ruling add` say which translations the change made
  outdated and which new texts are not yet translated; `rulesmith diff` lists the translations
  added, changed, made outdated and brought up to date.

A translation is shown only for the English it was made from: an outdated one with the current
English beside it, a missing one as the English, marked as not yet translated.

A reviewer records a review in the catalog's header: `X-Reviewed-By: <name>` and
`X-Review-Date: YYYY-MM-DD` (both, the date not in the future); without them the translation is
shown as unreviewed.

The check reads every catalog (a syntax error is reported at its line) and refuses: a file named
for no language, or for the content's own; a header whose `Language` is not the file's; an entry
without a context or whose context names no text (`translate update` makes those obsolete); a
text translated twice; plural forms; a translation that leaves out or adds a `[[kind:id]]`
reference (its label after `|` may be translated) or a `{placeholder}`; and a translation that
is not as safe as content text: Markdown judged as the content's Markdown (no raw HTML, https
links only, no images), plain text by the plain-text rule (no markup, no invisible characters).
A fuzzy entry is held to the English it was made from."""),
           )
BY_ID = {t.id: t for t in TOPICS}
if tuple(BY_ID) != topics.TOPICS:  # the one list of topics that hints name (format/topics.py)
    raise RuntimeError(f"format/topics.py lists {topics.TOPICS}, the reference writes {tuple(BY_ID)}")


def topic_of(name: str) -> Topic:
    """A topic by its id or an alias; a UsageError naming the topics otherwise."""
    found = BY_ID.get(topics.ALIASES.get(name, name)) or BY_ID.get(name.replace("-", "_"))
    if found is None:
        raise UsageError(f"no format topic '{name}'",
                         nearest(name, list(BY_ID) + list(topics.ALIASES)) or "topics: " + ", ".join(BY_ID))
    return found


# -- rendering -------------------------------------------------------------------------------

def describe(annotation, metadata=()) -> str:
    """A field's type in the reader's words: `id`, `plain text`, `list of Markdown` …"""
    for meta in metadata:
        if meta is model.PLAIN:
            return "plain text"
        if meta is model.MARKDOWN:
            return "Markdown"
        if isinstance(meta, ids.IdKind):
            return meta.name
        if getattr(meta, "pattern", None):
            return "text"
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:
        return describe(args[0], args[1:])
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        inner = [a for a in args if a is not type(None)]
        return " or ".join(describe(a) for a in inner)
    if origin is Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        return "list of " + describe(args[0])
    if origin is dict:
        return "mapping"
    if isinstance(annotation, str):
        annotation = getattr(model, annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _name(annotation).lower() if annotation is not model.Section else "section"
    return {str: "text", int: "whole number", float: "number", bool: "`true` or `false`",
            datetime.date: "date, YYYY-MM-DD", Any: "any value"}.get(annotation, str(annotation))


_NAMES = {"ContentFile": "A content file", "Fidelity": "Every item with a status", "GameInfo": "Game",
          "SourceText": "Source text", "FieldDef": "Field", "TableRule": "Table rule", "Term": "Glossary term",
          "ErratumSource": "Erratum source", "SourceLines": "Source lines", "AidPlan": "Aid plan",
          "AidEntry": "Aid entry"}


def _name(cls: type[BaseModel]) -> str:
    return _NAMES.get(cls.__name__, cls.__name__)


def _default(info) -> str:
    if info.is_required():
        return "required"
    default = info.default
    if default is PydanticUndefined or default in (None, "", [], {}):
        return "optional"
    return f"default `{str(default).lower() if isinstance(default, bool) else default}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _rules(cls: type[BaseModel]) -> list[str]:
    """The rules of a class's own validators, from their docstrings."""
    found = []
    for decorator in cls.__pydantic_decorators__.model_validators.values():
        doc = (decorator.func.__doc__ or "").strip()
        if doc and decorator.cls_var_name in vars(cls):
            found.append(" ".join(doc.split()))
    return found


def fields_table(cls: type[BaseModel]) -> str:
    heading = "| key | type | default | what it holds |" if cls is model.ContentFile else "| field | type | default | what it holds |"
    lines = [f"**{_name(cls)}**" + (f": {' '.join((cls.__doc__ or '').split())}" if cls.__doc__ else ""), "",
             heading, "|---|---|---|---|"]
    for name, info in cls.model_fields.items():
        key = info.alias or name
        description = info.description or ""
        if cls is model.ContentFile:
            description += f" `rulesmith format {key}`"
        lines.append(f"| `{key}` | {_cell(describe(info.annotation, info.metadata))} | {_default(info)} | "
                     f"{_cell(description)} |")
    rules = _rules(cls)
    if rules:
        lines += [""] + [f"Rule: {rule}" for rule in rules]
    return "\n".join(lines)


def render_topic(topic: Topic, level: int = 2) -> str:
    parts = [f"{'#' * level} {topic.title}", topic.intro.strip()]
    if topic.example:
        parts.append(f"```yaml\n{topic.example.rstrip()}\n```")
    parts += [fields_table(cls) for cls in topic.models]
    after = topic.after() if callable(topic.after) else topic.after
    if after:
        parts.append(after.strip())
    parts.append(f"*`rulesmith format {topic.id}` prints this part.*")
    return "\n\n".join(parts) + "\n"


def render(topic: str | None = None) -> str:
    """The whole reference (content/README.md, the site's page), or one topic."""
    if topic is not None:
        return render_topic(topic_of(topic), level=1)
    contents = ", ".join(f"[{t.title.strip('`')}](#{_anchor(t.title)})" for t in TOPICS)
    head = (f"# {TITLE}\n\n<!-- Generated by `rulesmith format` from rulesmith/content/model.py and "
            f"rulesmith/format/reference.py: edit those, then run `rulesmith format > content/README.md`. -->\n\n"
            f"Topics: {contents}.\n")
    return "\n".join([head] + [render_topic(t) for t in TOPICS])


def _anchor(title: str) -> str:
    """The anchor GitHub and MkDocs give a heading (lower case, punctuation dropped, spaces as '-')."""
    kept = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_")
    return kept.strip().replace(" ", "-")
