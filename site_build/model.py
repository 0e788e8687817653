"""Stage 2, model: the typed content, one set of classes for every game.

These pydantic classes are the schema: they validate the YAML, document the format and export
the JSON Schema for editors (`rulesmith schema`). A game declares its own entity kinds and their
typed fields in data (`kinds:`); `check` validates entity fields against those declarations.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, model_validator

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
FieldId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
Text = str  # Markdown with [[kind:id]] references and [[icon:name]] icons
Status = Literal["verified", "unverified", "missing", "reconstructed", "contradictory"]
FieldType = Literal["text", "string", "integer", "number", "boolean", "enum", "ref", "ref-list",
                    "text-list", "string-list", "integer-list"]
RESERVED_KINDS = ("kind", "rule", "table", "procedure", "example", "term", "module", "icon", "gap")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Located(Strict):
    """A content item that remembers the file and data path it was read from."""

    _file: Any = PrivateAttr(default=None)  # load.SourceFile
    _path: tuple = PrivateAttr(default=())

    def where(self, *subpath, key: bool = False) -> tuple[str, int, int]:
        if self._file is None:
            return ("<unknown>", 1, 1)
        return self._file.where(self._path + tuple(subpath), key=key)


class Source(Strict):
    """Where in the rulebook an item comes from."""

    section: str = Field(description="Rulebook section (heading) the item is transcribed from.")
    page: int | None = Field(default=None, ge=1, description="Rulebook page, where the text gives one.")
    file: Id | None = Field(default=None, description="Id of the game source, when not the first.")


class Fidelity(Located):
    status: Status = Field(default="verified", description="How faithful the data is to the source.")
    note: Text | None = Field(default=None, description="Why the status is not `verified`.")

    @model_validator(mode="after")
    def _note_for_status(self):
        if self.status != "verified" and not self.note:
            raise ValueError(f"status '{self.status}' needs a note saying what is missing or doubtful and why")
        return self


class SourceText(Strict):
    id: Id
    file: str
    title: str


class GameInfo(Located):
    id: Id
    name: str
    subtitle: str | None = None
    description: Text = ""
    data_version: str
    language: str = "en"
    sources: list[SourceText] = Field(min_length=1)


class Module(Located):
    id: Id
    name: str
    description: Text = ""


class FieldDef(Strict):
    id: FieldId
    name: str
    type: FieldType
    to: Id | None = Field(default=None, description="Kind referred to, for ref and ref-list.")
    values: list[str] | None = Field(default=None, description="Allowed values, for enum.")
    min: float | None = None
    max: float | None = None
    required: bool = False
    description: Text = ""

    @model_validator(mode="after")
    def _options(self):
        if self.type in ("ref", "ref-list") and not self.to:
            raise ValueError(f"a field of type {self.type} needs `to: <kind>`")
        if self.type == "enum" and not self.values:
            raise ValueError("a field of type enum needs `values: [...]`")
        return self


class Kind(Located):
    id: Id
    name: str
    plural: str
    description: Text = ""
    count: int | None = Field(default=None, ge=0, description="How many exist in the game, per the source.")
    count_note: Text | None = None
    fields: list[FieldDef] = []


class Entity(Fidelity):
    id: Id
    name: str
    kind: Id | None = None
    module: Id | None = None
    source: Source | None = None
    text: Text = ""
    fields: dict[str, Any] = {}
    aliases: list[str] = []


class Column(Strict):
    id: FieldId
    title: str
    type: FieldType = "string"
    to: Id | None = None
    values: list[str] | None = None
    min: float | None = None
    max: float | None = None
    description: Text = ""


class TableRule(Strict):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    rule: Literal["non-decreasing", "non-increasing", "increasing", "decreasing", "unique", "range",
                  "sum", "matches", "entity-count"]
    column: FieldId
    min: float | None = None
    max: float | None = None
    equals: float | None = None
    table: Id | None = None
    other_column: FieldId | None = None
    kind_column: FieldId | None = None
    except_: list[Any] = Field(default=[], alias="except")


class Table(Fidelity):
    id: Id
    title: str
    module: Id | None = None
    source: Source | None = None
    description: Text = ""
    columns: list[Column] = Field(min_length=1)
    rows: list[list[Any]]
    rules: list[TableRule] = []


class Branch(Strict):
    when: str
    to: Id


class Node(Located):
    id: Id
    type: Literal["step", "decision", "end"]
    text: Text
    next: Id | None = None
    branches: list[Branch] = []


class Procedure(Fidelity):
    id: Id
    title: str
    module: Id | None = None
    source: Source | None = None
    description: Text = ""
    start: Id
    nodes: list[Node] = Field(min_length=1)


class Example(Fidelity):
    id: Id
    title: str
    module: Id | None = None
    source: Source | None = None
    text: Text
    printed: bool = Field(default=True, description="False for a check case that applies a stated rule "
                          "rather than an example printed in the rulebook.")
    inputs: dict[str, Any] = {}
    expression: str | None = None
    result: Any = None


class Term(Located):
    id: Id
    term: str
    aliases: list[str] = []
    definition: Text
    note: Text | None = None
    module: Id | None = None
    source: Source | None = None


class Gap(Fidelity):
    id: Id
    title: str
    module: Id | None = None
    source: Source | None = None


class Section(Fidelity):
    id: Id
    title: str
    module: Id | None = None
    source: Source | None = None
    body: Text = ""
    sections: list[Section] = []


class ErratumSource(Strict):
    kind: Literal["publisher-faq", "reader-report", "transcription-fix"]
    description: str
    url: str | None = None


class Erratum(Located):
    id: Id
    date: datetime.date
    source: ErratumSource
    target: str = Field(description="kind:id of the entity, or table:id, rule:id …")
    field: str = Field(description="name | text | fields.<field> | rows.<key>.<column> | body …")
    old: Any = None
    new: Any = None
    note: Text = ""


class SourceLines(Located):
    """One range of a source text and the content items that carry it (the reverse pass as data)."""

    source: Id = Field(description="Id of the text, as declared under game.sources.")
    lines: Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]*(-[1-9][0-9]*)?$")] = Field(
        description="Line or inclusive line range of the text: `12` or `12-40`.")
    items: list[str] = Field(default=[], description="kind:id of every item that carries these lines.")
    not_content: str | None = Field(default=None, description="Why these lines are not rules content "
                                    "(page header, illustration caption, credits …).")

    @model_validator(mode="after")
    def _items_or_reason(self):
        if bool(self.items) == bool(self.not_content):
            raise ValueError("give either `items: [kind:id, …]` or `not_content: <why>`, not both or neither")
        return self


class Defaults(Strict):
    kind: Id | None = None
    module: Id | None = None
    source: Source | None = None


class ContentFile(Strict):
    """One YAML file of a game: any of these collections."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={
        "title": "Rulesmith content file",
        "description": "See content/README.md for the format."})
    game: GameInfo | None = None
    modules: list[Module] = []
    kinds: list[Kind] = []
    defaults: Defaults | None = None
    sections: list[Section] = []
    entities: list[Entity] = []
    tables: list[Table] = []
    procedures: list[Procedure] = []
    examples: list[Example] = []
    glossary: list[Term] = []
    gaps: list[Gap] = []
    errata: list[Erratum] = []
    source_map: list[SourceLines] = []


COLLECTIONS = ("modules", "kinds", "sections", "entities", "tables", "procedures", "examples",
               "glossary", "gaps", "errata", "source_map")
