"""What a game read shows of the entries that wait under `confirm_each_hand` and
`double_entry` (RULES.md section 7): each waiting entry with its state, the mismatches side by
side with the fields that differ, how many wait and on whom, in words.

Under double entry a side must not see the other side's entry of a hand before its own is in:
an entry of the other side that is still pending shows its number and side but not what it
says (`hidden`), unless the reader is the organizer. A mismatch shows both entries to all."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import func, select

from ..core.db import db
from ..core.models import HandEntry
from ..rules.presets import CONFIRM_EACH_HAND, DOUBLE_ENTRY
from .hands import HAND_FIELDS

PENDING, MISMATCH, AGREED = "pending", "mismatch", "agreed"
WAITING = (PENDING, MISMATCH)
HAND, SHEET = "hand", "sheet"
# A change proposed to an agreed hand (`hand_changes.py`): counts once the other side agrees.
EDIT, DELETE = "edit", "delete"
CHANGES = (EDIT, DELETE)


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def hand_fields(body: dict) -> dict:
    """A hand's fields as entered, JSON-ready (the entry's `body` for one hand)."""
    return {name: body.get(name) for name in HAND_FIELDS}


def waiting_entries(game_id: int) -> list[HandEntry]:
    """The game's entries not yet decided, lowest hand number first (side A before B)."""
    return list(db.session.execute(
        select(HandEntry).where(HandEntry.game_id == game_id, HandEntry.state.in_(WAITING))
        .order_by(HandEntry.number, HandEntry.side, HandEntry.created_at)).scalars())


def waiting_counts(game_ids: list[int]) -> dict[int, int]:
    """How many entries wait in each of these games (those with none left out)."""
    if not game_ids:
        return {}
    return dict(db.session.execute(
        select(HandEntry.game_id, func.count()).where(HandEntry.game_id.in_(game_ids),
                                                      HandEntry.state.in_(WAITING))
        .group_by(HandEntry.game_id)).all())


def hands_words(entry: HandEntry) -> str:
    if entry.kind in CHANGES:
        return f"{'The change of' if entry.kind == EDIT else 'Deleting'} hand {entry.number}"
    if entry.kind == SHEET:
        last = entry.number + entry.count - 1
        return f"The sheet (hands {entry.number} to {last})" if last > entry.number \
            else f"The sheet (hand {entry.number})"
    return f"Hand {entry.number}"


def differ(a: HandEntry, b: HandEntry) -> list[str]:
    """The fields in which two entries of the same hand (or sheet) differ."""
    if a.kind != b.kind:
        return ["kind"]
    if a.kind == HAND:
        return [name for name in HAND_FIELDS if a.body.get(name) != b.body.get(name)]
    rows_a, rows_b = a.body.get("hands") or [], b.body.get("hands") or []
    fields = [f"hands[{n}].{name}" for n, (x, y) in enumerate(zip(rows_a, rows_b, strict=False))
              for name in HAND_FIELDS if x.get(name) != y.get(name)]
    if len(rows_a) != len(rows_b):
        fields.append("hands (how many)")
    if a.body.get("tie") != b.body.get("tie"):
        fields.append("tie")
    return fields


def entry_view(entry: HandEntry, visible: bool = True) -> dict:
    shown = entry.body if visible else None
    return {"id": entry.id, "number": entry.number, "count": entry.count, "kind": entry.kind,
            "side": entry.side, "state": entry.state, "created_at": entry.created_at,
            "hidden": not visible,
            "hand": shown if shown is not None and entry.kind in (HAND, EDIT) else None,
            "hand_id": entry.hand_id if entry.kind in CHANGES else None,
            "sheet": shown if shown is not None and entry.kind == SHEET else None}


def _visible(entry: HandEntry, mode: str, side: str | None, organizer: bool) -> bool:
    return (organizer or mode != DOUBLE_ENTRY or entry.state == MISMATCH
            or entry.side == side or entry.kind in CHANGES)


def verification_view(game_id: int, mode: str, side: str | None = None,
                      organizer: bool = False) -> dict:
    """The members a game read adds for its verification: the mode, the waiting entries
    (as `side` or the organizer may see them), the mismatches and what waits on whom. None
    under sign-off, where nothing waits."""
    if mode not in (CONFIRM_EACH_HAND, DOUBLE_ENTRY):
        return {}  # sign-off: the game as it always was (a hand's answer is the same read)
    rows = waiting_entries(game_id)
    entries = [entry_view(e, _visible(e, mode, side, organizer)) for e in rows]
    by_number: dict[int, dict[str, HandEntry]] = {}
    for e in rows:
        if e.state == MISMATCH:
            by_number.setdefault(e.number, {})[e.side] = e
    mismatches = [{"number": number, "kind": pair["A"].kind,
                   "entries": {s: entry_view(pair[s]) for s in ("A", "B")},
                   "differ": differ(pair["A"], pair["B"])}
                  for number, pair in sorted(by_number.items()) if len(pair) == 2]
    return {"verification": mode, "entries": entries, "mismatches": mismatches,
            "waiting": len(rows), "waiting_for": waiting_words(rows, mode, mismatches)}


def waiting_words(rows: list[HandEntry], mode: str, mismatches: list[dict]) -> str | None:
    """What the game waits for, in words: the first mismatch, else the first pending entry."""
    if mismatches:
        first = mismatches[0]
        what = hands_words(rows[[e.number for e in rows].index(first["number"])])
        return (f"{what} is a mismatch: side A and side B entered it differently "
                f"({', '.join(first['differ']) or 'the rows'}). The table takes one side's "
                "entry or enters the corrected hand, or the organizer settles it; later hands "
                "wait behind it.")
    if not rows:
        return None
    first = rows[0]
    other = "B" if first.side == "A" else "A"
    if mode == CONFIRM_EACH_HAND or first.kind in CHANGES:
        return (f"{hands_words(first)} waits for side {other} to confirm it (side "
                f"{first.side} entered it).")
    return f"{hands_words(first)} waits for side {other}'s own entry of it."
