"""Write docs/portable-format.schema.json (JSON Schema, draft 2020-12) from the portable
format's sections (api/portable/format.py): run after a column is added or left out.

    python3 scripts/portable_schema.py          # write it
    python3 scripts/portable_schema.py --check  # fail if it is out of date
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sqlalchemy import JSON, Boolean, Date, Float, Integer, String, Text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.core.models import UTCDateTime  # noqa: E402
from api.portable.checks import CHOICES  # noqa: E402
from api.portable.format import (  # noqa: E402
    CLUB,
    EVENT,
    FORMAT,
    NIGHT,
    PEOPLE,
    SERIES,
    VERSION,
    Section,
)

TARGET = ROOT / "docs" / "portable-format.schema.json"


def _column(column, section: str) -> dict:
    kind = column.type
    if isinstance(kind, Boolean):
        schema = {"type": "boolean"}
    elif isinstance(kind, Integer):
        schema = {"type": "integer"}
    elif isinstance(kind, Float):
        schema = {"type": "number"}
    elif isinstance(kind, UTCDateTime):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(kind, Date):
        schema = {"type": "string", "format": "date"}
    elif isinstance(kind, String | Text):
        schema = {"type": "string"}
        if getattr(kind, "length", None):
            schema["maxLength"] = kind.length
    elif isinstance(kind, JSON):
        schema = {}
    else:  # pragma: no cover - a new column type must be described here
        raise TypeError(f"{column}: {kind!r}")
    if (section, column.name) in CHOICES:
        schema["enum"] = list(CHOICES[section, column.name])
    if column.nullable and schema:
        schema = {**schema, "type": [schema["type"], "null"]}
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    if column.comment or column.doc:
        schema["description"] = column.comment or column.doc
    return schema


def _row(section: Section, extra: dict | None = None) -> dict:
    properties = {c.name: _column(c, section.name) for c in section.columns}
    properties.update(extra or {})
    required = sorted(c.name for c in section.columns if not c.nullable)
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def schema() -> dict:
    night = {"type": "object", "required": ["event", *[s.name for s in NIGHT]],
             "additionalProperties": False,
             "properties": {"event": _row(EVENT),
                            **{s.name: {"type": "array", "items": _row(s)} for s in NIGHT}}}
    series = _row(SERIES, {"nights": {"type": "array", "items": {"type": "integer"},
                                      "description": "the ids of its nights in this file"}})
    series["required"] = sorted([*series["required"], "nights"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://euchre-scorekeeper.example/portable-format.schema.json",
        "title": "Euchre scorekeeper portable file",
        "description": "An event, a league season or a club's year (docs/portable-format.md).",
        "type": "object",
        "required": ["format", "version", "scope", "exported_at", "club", "people", "series",
                     "nights", "ratings_inputs"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "scope": {"enum": ["event", "club"]},
            "exported_at": {"type": "string", "format": "date-time"},
            "club": {"oneOf": [{"type": "null"}, _row(CLUB)]},
            "people": {"type": "array", "items": _row(PEOPLE)},
            "series": {"type": "array", "items": series},
            "nights": {"type": "array", "items": night},
            "ratings_inputs": {"type": "array", "items": {
                "type": "object", "required": ["night", "games"],
                "additionalProperties": False,
                "properties": {"night": {"type": "integer"},
                               "games": {"type": "array", "items": {"type": "integer"}}}}},
        },
    }


def main() -> int:
    text = json.dumps(schema(), indent=2) + "\n"
    if "--check" in sys.argv:
        if TARGET.read_text() != text:
            print(f"{TARGET} is out of date: run python3 scripts/portable_schema.py")
            return 1
        return 0
    TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
