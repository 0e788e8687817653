"""The JSON Schema of the content format, generated from the model (one description, no drift)."""

from __future__ import annotations

import json
from pathlib import Path

from .model import ContentFile


def content_schema() -> dict:
    schema = ContentFile.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def write_schema(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(content_schema(), indent=2, sort_keys=True) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path
