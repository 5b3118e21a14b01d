"""The preset catalogue, as plain data for the API and the PWA."""

from __future__ import annotations

from ..rules.hands import outcome_table
from ..rules.presets import PARAMETERS, PRESETS, Preset


def describe(preset: Preset) -> dict:
    """A preset's key, name, summary, parameter values with their meanings, and hand values."""
    return {
        "key": preset.key,
        "name": preset.name,
        "summary": preset.summary,
        "based_on": preset.based_on,
        "parameters": preset.parameters(),
        "descriptions": {name: spec.description for name, spec in PARAMETERS.items()},
        "hand_values": outcome_table(preset),
    }


def list_presets() -> list[dict]:
    return [describe(p) for p in PRESETS.values()]


def find_preset(key: str) -> dict | None:
    preset = PRESETS.get(key)
    return describe(preset) if preset else None
