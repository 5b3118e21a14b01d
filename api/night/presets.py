"""The preset catalogue, as plain data for the API and the PWA."""

from __future__ import annotations

from ..rules.hands import outcome_table, renege_table
from ..rules.presets import CHOICE_WORDS, PARAMETERS, PRESETS, Preset


def parameter_info() -> dict:
    """Each parameter's kind, bounds, the formats that use it and its choices in words: what
    a screen needs to offer a custom format without knowing the game itself."""
    return {name: {
        "type": spec.type, "description": spec.description, "minimum": spec.minimum,
        "maximum": spec.maximum, "nullable": spec.nullable, "none_means": spec.none_means,
        "only_for": list(spec.only_for),
        "choices": [{"value": value, "words": CHOICE_WORDS.get(name, {}).get(value, value)}
                    for value in spec.choices],
    } for name, spec in PARAMETERS.items()}


def describe(preset: Preset) -> dict:
    """A preset's key, name, summary, parameter values with their meanings, its points table,
    and which entry of that table each played hand and each renege claim takes."""
    return {
        "key": preset.key,
        "name": preset.name,
        "summary": preset.summary,
        "based_on": preset.based_on,
        "parameters": preset.parameters(),
        "descriptions": {name: spec.description for name, spec in PARAMETERS.items()},
        "parameter_info": parameter_info(),
        "hand_values": outcome_table(preset),
        "points": points_table(preset),
        "renege_values": renege_table(),
    }


def points_table(preset: Preset) -> dict[str, int]:
    """What every result scores, penalties included: a phone offline adds these up for a
    provisional score (a sum of data, no euchre worked out again in JavaScript)."""
    points = {key.replace("-", "_"): value for key, value in preset.hand_points().items()}
    return {**points, "renege": preset.renege_points,
            "renege_loner": preset.renege_loner_points,
            "false_claim": preset.false_claim_points}


def list_presets() -> list[dict]:
    return [describe(p) for p in PRESETS.values()]


def find_preset(key: str) -> dict | None:
    preset = PRESETS.get(key)
    return describe(preset) if preset else None
