"""The JSON Schema of the content format, generated from the model (one description, no drift).

`content.schema.json` is the format every game shares; `<game>.schema.json` narrows it to one
game, so an editor flags what `rulesmith check` would: a field of the wrong type, an unknown
field, a value outside an enum or range, a missing required field, an unknown module or kind, a
branch to a node that does not exist, a row with too many cells.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

from rulesmith.checks import tablerules
from rulesmith.content.model import ContentFile
from rulesmith.files import write_if_changed
from rulesmith.values import fieldtypes

ITEM_DEFS_WITH_MODULE = ("Entity", "Table", "Procedure", "Example", "Term", "Gap", "Section", "Defaults")


def content_schema() -> dict:
    return copy.deepcopy(_content_schema())


@functools.cache
def _content_schema() -> dict:
    """Made from the model once per process (a build writes it and narrows it once per game)."""
    schema = ContentFile.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    _all_of(schema["$defs"]["TableRule"], tablerules.json_schema())  # each rule's parameters, as the check reads them
    return schema


def _value(spec) -> dict:
    """The schema of one declared field or column value, as its type in the registry gives it."""
    return fieldtypes.json_schema(spec)


def _optional_enum(values: list[str]) -> dict:
    return {"anyOf": [{"enum": values}, {"type": "null"}]}


def game_schema(game) -> dict:
    """The content schema narrowed to one game's modules, kinds, fields, tables and procedures."""
    schema = content_schema()
    schema["title"] = f"Rulesmith content file of {game.info.name}"
    defs = schema["$defs"]
    modules = [m.id for m in game.modules]
    kinds = [k.id for k in game.kinds]
    for name in ITEM_DEFS_WITH_MODULE:
        defs[name]["properties"]["module"] = _optional_enum(modules)
    defs["Entity"]["properties"]["kind"] = _optional_enum(kinds)
    defs["Defaults"]["properties"]["kind"] = _optional_enum(kinds)
    every_field = sorted({f.id for k in game.kinds for f in k.fields})
    defs["Entity"]["properties"]["fields"] = {"type": "object", "propertyNames": {"enum": every_field}}
    entity_rules, file_rules = [], []
    for kind in game.kinds:
        ref = f"#/$defs/fields-of-{kind.id}"
        defs[f"fields-of-{kind.id}"] = {"type": "object", "additionalProperties": False,
                                         "properties": {f.id: _value(f) for f in kind.fields}}
        required = [f.id for f in kind.fields if f.required]
        # An entity names its kind, or takes it from its file's `defaults: {kind: …}`.
        entity_rules.append({"if": {"required": ["kind"], "properties": {"kind": {"const": kind.id}}},
                             "then": {"properties": {"fields": {"$ref": ref}}}})
        without_kind = {"if": {"not": {"required": ["kind"]}}, "then": {"properties": {"fields": {"$ref": ref}}}}
        if required:  # as the check: required unless the whole entity is missing from the source
            entity_rules.append({
                "if": {"required": ["kind"], "properties": {"kind": {"const": kind.id},
                                                            "status": {"not": {"const": "missing"}}}},
                "then": {"required": ["fields"], "properties": {"fields": {"required": required}}}})
            without_kind = {"allOf": [without_kind, {
                "if": {"not": {"required": ["kind"]}, "properties": {"status": {"not": {"const": "missing"}}}},
                "then": {"required": ["fields"], "properties": {"fields": {"required": required}}}}]}
        file_rules.append({
            "if": {"required": ["defaults"], "properties": {"defaults": {
                "required": ["kind"], "properties": {"kind": {"const": kind.id}}}}},
            "then": {"properties": {"entities": {"items": without_kind}}}})
    _all_of(defs["Entity"], entity_rules)
    _all_of(schema, file_rules)
    _all_of(defs["Table"], [
        {"if": {"required": ["id"], "properties": {"id": {"const": table.id}}},
         "then": {"properties": {"rows": {"type": "array", "items": {
             "type": "array", "prefixItems": [_value(c) for c in table.columns], "items": False}}}}}
        for table in game.tables])
    _all_of(defs["Procedure"], [
        {"if": {"required": ["id"], "properties": {"id": {"const": procedure.id}}},
         "then": {"properties": {
             "start": {"enum": [n.id for n in procedure.nodes]},
             "nodes": {"items": {"properties": {
                 "next": _optional_enum([n.id for n in procedure.nodes]),
                 "branches": {"items": {"properties": {"to": {"enum": [n.id for n in procedure.nodes]}}}}}}}}}}
        for procedure in game.procedures])
    return schema


def _all_of(schema: dict, rules: list[dict]) -> None:
    if rules:  # JSON Schema refuses an empty allOf
        schema["allOf"] = rules


def _write_json(path: Path, schema: dict) -> None:
    write_if_changed(path, (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def write_schema(path: Path, games=()) -> Path:
    """Write the shared schema at `path` and one `<game>.schema.json` beside it per game."""
    _write_json(path, content_schema())
    for game in games:
        _write_json(path.with_name(f"{game.id}.schema.json"), game_schema(game))
    return path


def schema_line(content_file: Path, schema_dir: Path, game_id: str) -> str:
    """The `# yaml-language-server: $schema=…` line a content file should carry."""
    import os

    target = os.path.relpath(schema_dir / f"{game_id}.schema.json", content_file.parent)
    return f"# yaml-language-server: $schema={Path(target).as_posix()}"
