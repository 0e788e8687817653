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
from dataclasses import dataclass, replace
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
        + (f"; its plan may give {', '.join(f'`{p}`' for p in k.parts)}" if k.parts else "")
        + (f"; at most {k.budget.get('pages', 0)} pages" + (f" + {k.budget['per_procedure']} per procedure"
           if k.budget.get("per_procedure") else "")
           + (f" + 1 per {k.budget['per_held_chars']:,} characters of the rules it holds"
              if k.budget.get("per_held_chars") else "")
           + f" (in another language, {aidkinds.translated_budget():g} times that)" if k.budget else "; no page budget")
        + "." for k in aidkinds.kinds())


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
page listing all entities of a kind: `[[kind:ship]]`). An unknown target is an error with
the nearest valid ids as a hint. Every reference becomes a link, and the target lists what
refers to it.

**Values.** `[[value:kind:id.field]]` shows the current value of an entity's field, and
`[[value:table:id.key.column]]` a table cell (the row whose first column is `key`), e.g.
"the cutter carries [[value:ship:cutter.cargo]] crates". Write a number the data holds this way instead
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
          (model.Fidelity, model.Source)),
    Topic("game", "`game`", """\
The game itself, in `game.yaml`. Its `sources` are the rulebook texts the data is transcribed
from, found by path: `sources_folder` relative to the project (the folder that holds
`content/`), then each text's `file` relative to it (`$RULESMITH_SOURCES` overrides the folder).
With the texts, `rulesmith check` proves the source map against them (see `source_map`); without
them, it warns that the source map is unchecked.""", (model.GameInfo, model.SourceText)),
    Topic("modules", "`modules`", """\
The modules of the game (base game, expansions, optional rules), in `game.yaml`. Entities,
tables, procedures, examples, terms, gaps and rules sections name the module they belong to with
`module:` (or the file's `defaults: {module: …}`); a subsection without one belongs to the module
of its section. A field of a kind can apply only with a module too (see `kinds`). An item
without a module applies with every module; in a game with more than
one module, `rulesmith check` counts such items so that none is left out by mistake (glossary
terms and gaps, which may concern the whole game, are not counted).""",
          (model.Module,)),
    Topic("kinds", "`kinds`", """\
The kinds of entity the game declares, in `game.yaml`, each with its typed fields. An entity's
`fields:` are checked against its kind's declaration: an unknown field, a value of the wrong
type, outside `min`/`max` or not among an enum's `values` is an error at its line.""",
          (model.Kind, model.FieldDef), after=_field_types()),
    Topic("defaults", "`defaults`", """\
Values applied to every entity, table, procedure, example, term, gap and section of the same
file that does not set its own.""", (model.Defaults,)),
    Topic("sections", "`sections`", """\
Prose rules sections. Every top-level section is one page of the rules, in file order; its
subsections are shown on the same page. A section with a `module` is a rules text that applies
only with that module.""", (model.Section,)),
    Topic("entities", "`entities`", """\
Cards, tokens, ships, symbols …: every thing of a declared kind. Each kind has a page listing
all of its entities, with an anchor per entity.""", (model.Entity,)),
    Topic("tables", "`tables`", """\
Stage tables, tracks and reference tables: typed columns (the field types), rows, and rules the
check holds the table to. The first column is the row's key (unique). **A table keyed by the
entities of a kind** (card values per rank): make its first column `{type: ref, to: <kind>}`;
every key must then be the id of one of them (the check says which is not), and the table shows
each row with the entity's name, linked. Player counts and ranges as keys are written as text
(`"2"`, `"4+"`).""", (model.Table, model.Column, model.TableRule), after=_table_rules()),
    Topic("procedures", "`procedures`", """\
Solo-bot decision processes. The check proves every target exists, every node is reachable from
`start`, and every node can reach an `end` (loops are fine if they can end). The site shows the
flowchart, a numbered text version (node order = list order) and a step-by-step walker; the
game's *Bot turn* page walks all its procedures in file order. Where the rulebook labels its
steps (`A1`, `P4`), give each node its `label`: the chart, the list, the walker and the Bot turn
page then call the step by it, in one numbering (unlabelled nodes keep their position; two steps
that would read alike are refused). In a game with a bot, every decision says who answers it
(`asks: board`, or `given:` on its branches: under `bot`). What a step reads, rolls, draws, counts
and calls is below;
the bot's state, decks and turn are under `bot`.""",
          (model.Procedure, model.Node, model.Branch, model.Call, model.Read, model.Roll, model.Draw,
           model.Tally, model.Change)),
    Topic("examples", "`examples`", f"""\
Worked examples printed in the rulebook. With an `expression`, the check recomputes the example
from the data and fails if the result differs from the printed `result`, so an erratum that
breaks an example is caught. `printed: false` marks a check case that applies a rule the
rulebook states rather than an example it prints; the site labels it so. An expression may use
the inputs, numbers, `+ - * / // % **`, comparisons, `in`, `and`/`or`/`not`, `x if c else y`,
lists written out (`[a, b]`), positions (`counts[i]`) and the functions below; nothing else
(no `for`, no other names). Every number in it stays within ±{LIMIT:,}
and a power's exponent within {MAX_EXPONENT}: the check refuses an expression that would run long.""", (model.Example,), after=_functions()),
    Topic("glossary", "`glossary`", "Glossary terms; search finds their aliases too.", (model.Term,)),
    Topic("gaps", "`gaps`", """\
Known gaps in the source that belong to no single entity, table or section (those carry their own
status). Each gap is listed on the game's *Gaps in the source* page and shown where a text refers
to it.""", (model.Gap,)),
    Topic("errata", "`errata`", """\
Erratum records, by convention in `errata.yaml`; `rulesmith errata add` writes one and the
corrected value together. The check proves every record names an existing value, that the data
holds the latest record's `new`, and that records of one value chain (each `old` is the previous
`new`).""", (model.Erratum, model.ErratumSource)),
    Topic("rulings", "`rulings`", """\
Rulings and FAQ answers, by convention in `rulings.yaml`; `rulesmith ruling add` writes one. A
ruling is about one or more items (`about`), and is shown on each of them, in search, on the
changelogs and on the aids that print those items; one about a rules section or a gap is shown
on the gaps page and the aids too. Its source is published at an address (`url`) or, for an
answer with none (an e-mail, a convention), names where it was given (`where`). A later ruling
that replaces it names it with `superseded_by`; an erratum that overrules it, `overruled_by`.""",
          (model.Ruling, model.RulingSource)),
    Topic("source_map", "`source_map`", """\
The reverse pass, by convention in `source-map.yaml`: every line of every source text is mapped,
once, to the items that carry it, or marked as not rules content with the reason. With the texts
found (see `game`), the check proves every item exists, every range is within its text, no two
ranges overlap and no line is left unmapped (reported at the text's own line). Without them, the
check warns that the source map is unchecked.""", (model.SourceLines,)),
    Topic("icons", "`icons`", """\
`[[icon:name]]` renders the same icon on the site and in the PDFs. A game declares its icons in
any file of its folder (by convention `icons.yaml`). Every game also has Rulesmith's default
icons (die, money, leader, skull, target, thumb-up, thumb-down, vote, flag, shield); a game's
icon of the same id replaces the default.""", (model.Icon,)),
    Topic("aids", "`aids`", """\
What goes on a game's player aids, in order. The aid kinds (rules summary, solo-bot aid, card
reference) are declared by Rulesmith. A game gets a rules summary only when it plans one; the
solo aid prints every procedure by itself and takes an optional plan; the card reference
prints every table and entity list and takes no plan. A plan part an aid does not print (a
`sequence` on the solo aid), and an entry option that would change nothing on it (`subsections` of
a table, `in_full` without `condensed`), is refused at its line: nothing planned is dropped
silently. The solo aid prints its plan's `setup` and `body` on page 1, before the procedures: the
bot's set-up and its other rules (its end of game, its scoring). The first page's "at a glance" is the
plan's `sequence`: a phase table, or, for a game without phases, the rules sections that make
its turn.

`show` is `rule:<id>`, `table:<id>`, `procedure:<id>` or `kind:<id>` (the list of that kind). A
subsection planned as an entry of its own is not printed again inside its parent. Condensed
wording may drop words, never change a number: every number it prints must occur in the item it
names, or the check reports it at its place. It stands for the whole section on the aid: its
subsections are not printed, and under its heading the aid says where the site has the full
text.""", (model.AidPlan, model.AidEntry, model.InFull), after=_aid_kinds),
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
The solo bot, by convention in `bot.yaml`: its state (difficulty, round … set once by the player
and kept between turns), the decks it draws from, and its turn: which procedures it runs, in what
order. The site's *Bot turn* page walks the turn: it answers from the state what a step `reads`
from a table (a table read by a state has that state's values as its row keys, or as its columns),
draws from a deck where a step says `draw`, counts with a `tally`, enters the procedure a step
`call`s and comes back, and sets the state where a step or the turn's end says so (`sets`,
`after`). What a step may do is under `procedures`. The source map names the bot's parts as
`bot:turn`, `bot:part-<n>` (the n-th part of the turn), `bot:state-<id>` and `bot:deck-<id>`.

**Who answers each decision.** In a game with a bot, every decision says who answers it. Either
`asks: board`: only the player can answer it, from the board or the cards in hand; or each branch
has `given:`, what the Bot turn page holds that answers it, so the page answers it itself and
shows the answer as a line with its reason:

- `given: {state: {difficulty: [high, maximum]}}`: the bot's state has one of these values;
- `given: {roll: <step>, is: [6]}`: the roll a step of the same procedure made;
- `given: {read: <step>, is: [Roll again]}`: the table answer of a step that reads a table;
- `given: {drawn: <step>, is: [Pass]}`: the card a step drew from a deck the page holds (of
  several, the one that wins: `draw: {…, wins: highest}`);
- `given: {ended: [performed]}`: the end reached by the procedure the step before it called;
- `given: {count: reached}` or `{count: below}`: the decision's `tally` and its number to reach;
- `given: {event: [inner-circle]}`: the turn's event this run of the part is for (`events:` of
  the turn and of a part, `event:` of a call);
- `given: {otherwise: true}`: every case no other branch takes.

The check refuses a decision that does not say who answers it, a `given` whose source the page
does not hold there, a given decision that leaves a case unanswered, and a board question whose
answer the page already holds: one that shows the bot's state beside it, keeps a count with its
number to reach, or comes right after a roll, a draw from a deck the page holds or a call whose
end the page knows.

**A loop played at the table.** Where steps and board questions lead round in a cycle (check the
next card, place, any tokens left? …) and nothing in the cycle is the page's to do (no call, roll,
draw, table read, state change, card or count), the Bot turn page shows the cycle as one screen:
its steps together, where each answer leads, and asks once how it ended (the answers that lead
out of it). Nothing needs declaring: the cycle is found in the procedure's graph.

**The turn's events.** Parts that apply when something happens at the table (`events: [event …]`)
are asked about once, on one screen, for each run of such parts in the turn's order: the player
ticks what happened, and each ticked part runs once per event.""",
                   _bot_models()),
           Topic("translations", "`translations`", """\
A game's translations are gettext catalogs, one PO file per language in the game's folder:
`content/<game>/translations/<lang>.po` (`de.po`, `fr.po`, `pt-br.po`; gettext's and the web's
spellings `pt_BR.po`, `es_ES.po`, `Language: es_ES` are the same language), beside the game's
template `<game>.pot` (every text, untranslated: what Weblate, Crowdin or `msginit` start a new
language from). Translators edit them with the tools they know (Poedit, Weblate, Crowdin, any text
editor); they are reviewed in pull requests like the YAML.

Every reader-visible text of the content is one entry: its context (`msgctxt`) is the text's
address, the item's key and the place inside it as an erratum names it (`ship:cutter.name`,
`rule:setup.body`, `ship:galleon.fields.flag`, `table:harbour-dues.rows.3.dues`,
`procedure:harbourmaster-turn.nodes.draw.text`, `term:cargo.aliases.0`, `game:<id>.description`,
`aid:rules-summary.covers`, `bot:state-weather.values.rough.name`, `icon:<id>.label`); its
`msgid` is the English; its `msgstr` the translation; its reference (`#:`) the content file,
relative to the game's folder, and the line the text starts on (`rules/05-docking.yaml:12`), which
a translator's tool opens. What cites the English rulebook (a source's section, a rulebook's
title) and texts without a letter (`2`, `3-5`) have no entry.

- `rulesmith translate update <game> <lang>` makes the catalog, or refreshes it from the current
  English as `msgmerge` does: a new text is added untranslated; a translated entry whose English
  changed keeps its translation, marked `fuzzy`, with the English it was made from as `#| msgid`;
  an entry whose text is gone becomes obsolete (`#~`) and comes back if its text does; an
  untranslated entry whose English is translated elsewhere in the catalog gets that translation as
  a suggestion, marked `fuzzy` and `#. suggested: …`, counted and shown as missing until a
  translator accepts it. It writes the extracted comments (`#.`: the item, the text's format and
  `current since <date>`, the day by which a translated entry was brought up to date), the
  reference (`#:`) and the template; the translators' own comments, flags and header stay as
  they are. It lays the file out as gettext's tools do (lines of at most 79 columns, broken where
  `msgcat` breaks them), so a save by a PO tool followed by `translate update`, or `msgcat`,
  changes nothing but what the translator changed. `rulesmith translate template <game>` writes
  the template alone.
- `rulesmith translate status [<game>] [--json]` prints, per game and language, the texts
  translated, outdated (fuzzy, or their English changed since) and missing, in entries and in
  words of the English, with percentages, and how many entries are reviewed.
- `rulesmith translate review <game> <lang> <address>… --by <name>` (or `--all`) records that a
  reviewer checked those translations as they are now: a translator comment `# reviewed by <name>
  on <date> (<fingerprint>)` in each entry (PO tools keep it), and the header's `X-Reviewed-By`
  and `X-Review-Date` (the last review). An entry whose English or translation changed since is
  no longer reviewed; a catalog is reviewed only when every text is translated from the current
  English and reviewed, and is shown as unreviewed until then.
- `rulesmith errata add` and `rulesmith ruling add` say which translations the change made
  outdated and which new texts are not yet translated; `rulesmith diff` lists the translations
  added, changed, made outdated and brought up to date.

A translation is shown only for the English it was made from: an outdated one with the current
English beside it, a missing one as the English, marked as not yet translated.

A translation keeps every reference, `{placeholder}` and number of its English, written in digits
as the English writes them ("3 cards": "3 Karten"; `2,5` and `2.5` are one number); the check
holds a fuzzy entry to the English it was made from, and an entry whose `fuzzy` mark was removed
to the current English.

A text that says a count (a step's answer such as "The harbourmaster takes {value} coins") may be
translated in plural forms: `msgid_plural` repeats the English, `msgstr[0]` … one per form of
the header's `Plural-Forms` (as `msginit` writes it, e.g. `nplurals=2; plural=(n != 1);`); the
form for the count shown is chosen by that rule, each form is checked as a translation, and every
form or none is translated. No other text has plural forms.

The check reads every catalog (a syntax error is reported at its line) and refuses: a file named
for no language, or for the content's own; a header whose `Language` is not the file's; an entry
without a context or whose context names no text (`translate update` makes those obsolete); a
text translated twice; plural forms; a translation that leaves out or adds a `[[kind:id]]`
reference (its label after `|` may be translated) or a `{placeholder}`; and a translation that
is not as safe as content text: Markdown judged as the content's Markdown (no raw HTML, https
links only, no images), plain text by the plain-text rule (no markup, no invisible characters).
A fuzzy entry is held to the English it was made from."""),
           )
# -- the example game ------------------------------------------------------------------------
# Each topic's example is one file of one small invented game, Tidewater (no game Rulesmith ships):
# written into content/tidewater/ (game, modules and kinds in game.yaml; each other topic a file
# of its own), they check together (tests/format/test_format.py), so every reference in one
# example names an item another declares.
EXAMPLE_GAME_FILE = "game.yaml"  # where the examples of the topics in IN_GAME_YAML go
IN_GAME_YAML = ("game", "modules", "kinds")
EXAMPLES: dict[str, str] = {
    "files": """\
# yaml-language-server: $schema=../../../schema/tidewater.schema.json
# rules/02-storms.yaml: one file of the game; any of the keys below, in any file
sections:
  - id: storms
    title: Storms
    module: storms
    source: {section: "Storms", page: 6}
    body: "When a storm card is drawn, every ship at sea loses one crate."
""",
    "references": """\
sections:
  - id: trade
    title: Trade
    module: base
    body: |
      A [[ship:cutter]] carries [[value:ship:cutter.cargo]] crates; every [[kind:ship|ship]] pays
      [[value:table:harbour-dues.3.dues]] coins in a harbour of 3 ships ([[table:harbour-dues]],
      [[rule:docking|docking]]). Coins: [[icon:anchor]]. The charts are a [[gap:chart-art]].
""",
    "status": """\
entities:
  - id: sloop
    name: Sloop
    kind: ship
    module: base
    status: unverified
    note: "The card's text is cut off in the rulebook."
    source: {section: "Ships", page: 3}
    fields: {cargo: {value: 3, status: unverified, note: "Printed as 3; the FAQ does not say."}, speed: 2}
""",
    "game": """\
game:
  id: tidewater
  name: Tidewater
  description: "Markdown: what the data covers."
  data_version: "1.0.0"
  sources_folder: sources
  sources:
    - {id: core, file: tidewater-rulebook.txt, title: "Tidewater Rulebook", short: TR}
  show_source_texts: true  # the site may show the rulebook's lines (by default: line references only)
""",
    "modules": """\
modules:
  - {id: base, name: "Base game"}
  - {id: storms, name: "Storms module", description: "Adds storm cards."}
  - {id: solo, name: "Solo mode", description: "One player against the Harbourmaster, a bot."}
""",
    "kinds": """\
kinds:
  - id: ship
    name: Ship card
    plural: Ship cards
    count: 3
    fields:
      - {id: cargo, name: Cargo, type: integer, min: 1, required: true}
      - {id: speed, name: Speed, type: integer, min: 0}
      - {id: flag, name: Flag, type: enum, values: [red, blue]}
      - {id: storm_damage, name: Storm damage, type: integer, module: storms}
""",
    "defaults": """\
defaults: {kind: ship, module: base, source: {section: "Ships", page: 3}}
""",
    "sections": """\
sections:
  - id: docking
    title: Docking
    module: base
    source: {section: "Docking", page: 4}
    body: |
      A ship docks in a harbour and pays the dues of [[table:harbour-dues]], Markdown as the
      rulebook says it.
    sections:
      - {id: docking-full, title: A full harbour, body: "A ship that finds no room waits at sea."}
""",
    "entities": """\
defaults: {kind: ship, module: base, source: {section: "Ships", page: 3}}
entities:
  - id: cutter
    name: Cutter
    text: "Card text, Markdown: docks before a [[ship:galleon]]."
    fields: {cargo: 2, speed: 3, flag: red}
    aliases: [Cutter card]
  - {id: galleon, name: Galleon, fields: {cargo: 5, speed: 1, flag: blue, storm_damage: 2}}
""",
    "tables": """\
defaults: {module: base}
tables:
  - id: harbour-dues
    title: Harbour dues by ships in the harbour
    source: {section: "Docking", page: 4}
    columns:
      - {id: ships, title: Ships in the harbour, type: string}
      - {id: dues, title: Dues, type: integer}
    rows:
      - ["2", 3]
      - ["3", 2]
      - ["4+", 1]
    rules:
      - {rule: non-increasing, column: dues}
  - id: ship-points
    title: Points per ship
    columns:
      - {id: ship, title: Ship, type: ref, to: ship}
      - {id: points, title: Points, type: integer}
    rows:
      - [cutter, 1]
      - [galleon, 3]
  - id: crew-by-weather
    title: The Harbourmaster's crew, by the weather
    source: {section: "Solo mode", page: 8}
    columns:
      - {id: weather, title: Weather, type: string}
      - {id: crew, title: Crew, type: integer}
    rows:
      - [calm, 1]
      - [rough, 2]
""",
    "procedures": """\
defaults: {module: base, source: {section: "Solo mode", page: 8}}
procedures:
  - id: harbourmaster-turn
    title: "The Harbourmaster's turn"
    start: crew
    nodes:
      - id: crew
        label: H1
        type: step
        text: "Find the Harbourmaster's crew for the weather: [[table:crew-by-weather]]."
        next: draw
        reads: {table: crew-by-weather, row: "state:weather", column: crew, says: "The Harbourmaster has {value} crew"}
      - {id: draw, label: H2, type: step, text: "Draw a tide card.", next: enough, draw: {deck: tide-cards}}
      - id: enough
        label: H3
        type: decision
        text: "Has it drawn a tide card for each crew?"
        tally: {node: draw, label: "Tide cards drawn this turn", of: crew}
        branches:  # the page counts and knows the number: it answers
          - {when: "Yes", to: dock, given: {count: reached}}
          - {when: "No", to: draw, given: {count: below}}
      - {id: dock, label: H4, type: step, text: "It docks a ship.", next: done, call: {procedure: harbourmaster-dock}}
      - {id: done, label: H5, type: end, text: "The Harbourmaster's turn ends."}
  - id: harbourmaster-dock
    title: "The Harbourmaster docks a ship"
    start: room
    nodes:
      - id: room
        type: decision
        asks: board  # only the player sees the harbour
        text: "Is there room in the harbour?"
        branches:
          - {when: "Yes", to: docked}
          - {when: "No", to: waits}
      - {id: docked, type: end, text: "The ship docks."}
      - {id: waits, type: end, text: "The ship waits at sea."}
""",
    "examples": """\
examples:
  - id: cutter-dues
    title: "The cutter pays its dues"
    module: base
    source: {section: "Docking", page: 4}
    text: "A cutter with 2 crates in a harbour of 3 ships pays 2 + 2 = 4 coins."
    inputs: {cargo: "[[value:ship:cutter.cargo]]", ships: 3}
    expression: "cargo + lookup('harbour-dues', ships, 'dues')"
    result: 4
""",
    "glossary": """\
glossary:
  - id: cargo
    term: Cargo
    aliases: [Crates]
    definition: "What a ship carries, counted in crates (Markdown)."
""",
    "gaps": """\
gaps:
  - id: chart-art
    title: Sea charts
    status: missing
    note: "The sea charts are not reproduced in the text layer of the rulebook."
    affects: [ship:sloop]
    source: {section: "Ships", page: 3}
""",
    "errata": """\
errata:
  - id: e1
    date: 2026-03-01
    source: {kind: publisher-faq, description: "Publisher FAQ v2", url: "https://example.org/faq"}
    target: ship:cutter
    field: fields.cargo
    old: 3
    new: 2
    note: "The cutter carries 2 crates, not 3."
""",
    "rulings": """\
rulings:
  - id: r1
    date: 2026-03-02
    source: {kind: publisher-faq, description: "Publisher FAQ v2, question 4", url: "https://example.org/faq#4"}
    about: [rule:docking]
    question: "May a ship dock twice in one turn?"
    answer: "No."
  - id: r2
    date: 2026-04-01
    source: {kind: designer-answer, description: "The designer's answer", where: "e-mail from the designer, 2026-04-01"}
    about: [rule:docking, table:harbour-dues]
    question: "Does a ship that waits at sea pay the dues?"
    answer: "No: only a ship that docks pays."
""",
    "source_map": """\
source_map:
  - {source: core, lines: "1-2", not_content: "title page"}
  - {source: core, lines: "3-9", items: [rule:docking, table:harbour-dues, example:cutter-dues]}
  - {source: core, lines: "10-14", items: [procedure:harbourmaster-turn, rule:solo, bot:turn, bot:state-weather]}
""",
    "icons": """\
icons:
  - {id: anchor, label: "Anchor", glyphs: [material/anchor]}
""",
    "aids": """\
aids:
  - aid: rules-summary
    covers: "Markdown: what the summary covers (page 1)."
    sequence:
      - {show: "rule:trade", title: "A turn at a glance"}
    setup:
      - {show: "table:harbour-dues"}
    body:
      - {show: "rule:docking"}
      - show: "rule:storms"
        title: "Storms, in short"
        condensed: |
          When a storm card is drawn, each ship at sea loses one crate.
  - aid: solo-aid
    holds: solo  # the module of the solo rules: every section of it printed, or under leaves_out
    setup:
      - {show: "table:crew-by-weather"}
    body:
      - {show: "rule:solo"}
""",
    "bot": """\
sections:
  - id: solo
    title: Solo mode
    module: solo
    source: {section: "Solo mode", page: 8}
    body: "You play against the Harbourmaster: after each of your turns, play its turn."
bot:
  name: The Harbourmaster
  state:
    - id: weather
      name: Weather
      type: enum
      values: [{id: calm, name: Calm}, {id: rough, name: Rough}]
      initial: calm
      source: {section: "Solo mode", page: 8}
    - {id: round, name: Round, type: integer, min: 1, max: 8, initial: 1, source: {section: "Solo mode", page: 8}}
  decks:
    - {id: tide-cards, name: Tide cards, cards: [High tide, Low tide]}
  turn:
    title: "The Harbourmaster's turn"
    source: {section: "Solo mode", page: 8}
    parts:
      - {procedure: harbourmaster-turn, when: "After each player's turn.", source: {section: "Solo mode", page: 8}}
    after:
      - {state: round, to: next}
""",
}
EXAMPLES["translations"] = """\
#. Ship card Cutter
#. Markdown: keep every [[…]] reference as written.
#. current since 2026-03-01
#: entities/ships.yaml:14
msgctxt "ship:cutter.text"
msgid "Docks before a [[ship:galleon]]."
msgstr "Legt vor einer [[ship:galleon]] an."

#, fuzzy
#| msgid "Each ship pays 3 coins."
msgctxt "rule:docking.body"
msgid "Each ship pays 2 coins."
msgstr "Jedes Schiff zahlt 3 Münzen."
"""  # a PO catalog, content/tidewater/translations/de.po
TOPICS = tuple(replace(t, example=EXAMPLES.get(t.id, t.example)) for t in TOPICS)
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
        parts.append(f"```{'po' if topic.id == 'translations' else 'yaml'}\n{topic.example.rstrip()}\n```")
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
