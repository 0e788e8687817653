"""The id rule: every kind of id and key content and commands write, each with its pattern, its
longest length, its message and its example, in one place.

An id names a file, an anchor and a command's argument, so it is short and plain; a field id is
a word with `_`; a state value may be any short word. Each kind (`IdKind`) says what it is called
and gives its own example in its messages (a field id is never told "e.g. 'world-bank'"), and is
the one pydantic type of its fields (`IdKind.type`): the model, the JSON Schema, the load's
messages, the format reference and the commands that take an id all ask it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

# Ids name the site's files and anchors and the commands' arguments: a file name of 329 characters
# cannot be written (most systems stop at 255 bytes), and no rulebook needs one that long.
MAX_LENGTH = 64
KEBAB = r"[a-z0-9]+(-[a-z0-9]+)*"
ERROR = "id_rule"  # the pydantic error type the load reports with the kind's message


@dataclass(frozen=True)
class IdKind:
    name: str  # what the messages call one: "id", "field id"
    plural: str  # "ids", "field ids"
    pattern: str  # anchored regular expression
    rule: str  # the pattern in words: "lower-case kebab-case"
    example: str  # one that follows the rule, as the hint shows it
    max_length: int | None = MAX_LENGTH

    def problem(self, text: str) -> str | None:
        """What makes `text` no id of this kind, said after it ("… is not lower-case kebab-case"),
        or None when it is one."""
        if self.max_length is not None and len(text) > self.max_length:
            return f"is {len(text)} characters long; {_article(self.name)} has at most {self.max_length}"
        if not re.fullmatch(self.pattern, text):
            return f"is not {self.rule}"
        return None

    @property
    def hint(self) -> str:
        return f"{self.plural} are {self.rule}, e.g. {self.example}"

    def message(self, text: str, field: object) -> tuple[str, str]:
        """(message, hint) for content that wrote `text` under the key `field`."""
        if self.max_length is not None and len(text) > self.max_length:
            return (f"'{field}' is {len(text)} characters long, at most {self.max_length}: '{text[:30]}…'",
                    f"{self.plural} are short names in {self.rule}, e.g. {self.example}")
        return f"'{text}' is not a valid {self.name} for '{field}'", self.hint

    def json_schema(self) -> dict:
        schema: dict[str, Any] = {"type": "string", "pattern": self.pattern}
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        return schema

    def _validate(self, text: str) -> str:
        if self.problem(text):
            raise PydanticCustomError(ERROR, "{text} " + (self.problem(text) or ""), {"text": text, "id_kind": self.name})
        return text

    @property
    def type(self) -> Any:
        """The pydantic type of a field that holds an id of this kind (the kind itself rides along
        as metadata, for the format reference)."""
        return Annotated[str, self, AfterValidator(self._validate), WithJsonSchema(self.json_schema())]


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


ID = IdKind("id", "ids", rf"^{KEBAB}$", "lower-case kebab-case", "'world-bank'")
FIELD_ID = IdKind("field id", "field ids", r"^[a-z][a-z0-9_]*$", "lower case, with `_` between words",
                  "'effect_type'")
GAME_ID = IdKind("game id", "game ids", rf"^{KEBAB}$", "lower-case kebab-case", "'my-game'")
ERRATUM_ID = IdKind("erratum id", "erratum ids", rf"^{KEBAB}$", "lower-case kebab-case", "e3 or faq-2-cost")
RULING_ID = IdKind("ruling id", "ruling ids", rf"^{KEBAB}$", "lower-case kebab-case", "r3 or faq-2-move")
STATE_VALUE = IdKind("state value id", "state value ids", r"^[A-Za-z0-9_+-]+$",
                     "letters, digits, `_`, `+` and `-`", "'medium'")
STATE_REF = IdKind("row or column", "rows and columns", rf"^(state:{KEBAB}|roll|[A-Za-z0-9_+-]+)$",
                   "`state:<id>`, `roll`, or a row key or column id as written", "'state:difficulty'", None)
INPUT_NAME = IdKind("input name", "input names", r"^[a-z_][a-z0-9_]*$", "lower case, with `_` between words",
                    "'own_influences'", None)
KEY = IdKind("item key", "item keys", rf"^{KEBAB}:{KEBAB}$", "kind:id, both in lower-case kebab-case",
             "'rule:setup'", None)
GLYPH = IdKind("glyph name", "glyph names", r"^[a-z0-9-]+(/[a-z0-9-]+)+$", "a set and a name, joined by '/'",
               "'material/flag'", None)
LINES = IdKind("line range", "line ranges", r"^[1-9][0-9]*(-[1-9][0-9]*)?$", "a line or a range of lines",
               "'12' or '12-40'", None)
# A translation's language: its catalog's name (translations/de.po) and, later, its folder of the site.
LANGUAGE = IdKind("language code", "language codes", r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$",
                  "a lower-case ISO 639 language code, with a region or script after '-' if needed",
                  "'de' or 'pt-br'", 16)
KINDS = {kind.name: kind for kind in (ID, FIELD_ID, GAME_ID, ERRATUM_ID, RULING_ID, STATE_VALUE, STATE_REF,
                                      INPUT_NAME, KEY, GLYPH, LINES, LANGUAGE)}


def kind_of(metadata) -> IdKind | None:
    """The id kind among a field's metadata (the format reference names a field's type by it)."""
    return next((meta for meta in metadata if isinstance(meta, IdKind)), None)
