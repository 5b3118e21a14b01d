"""What each table of a round waits for, and on whom (RULES.md section 7), for the
organizer's progress board: a hand one side entered that the other has not confirmed (or,
under double entry, not entered itself), a mismatch, a call to the organizer, a finished game
not yet signed off where the format asks for a sign-off.

Read with one query per kind for the whole round (the waiting entries, the waiting calls),
never one per table: a round of a hundred tables reads as fast as a round of two."""

from __future__ import annotations

from datetime import UTC

from sqlalchemy import select

from ..core.common import preset_of
from ..core.db import db
from ..core.models import Call, HandEntry, Round
from ..games.entry_views import CHANGES, EDIT, MISMATCH, SHEET, WAITING
from ..rules.presets import CONFIRM_EACH_HAND

# The order a table's waits are listed in: what needs the organizer first.
ORDER = {"call": 0, "mismatch": 1, "confirm": 2, "enter": 2, "sign_off": 3}


def _age(moment, now) -> int:
    if moment is None:
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(int((now - moment).total_seconds()), 0)


def _minutes(seconds: int) -> str:
    minutes = seconds // 60
    return "just now" if minutes < 1 else f"{minutes} min ago"


def _hands(entry) -> str:
    if entry.kind == SHEET and entry.count > 1:
        return f"hands {entry.number} to {entry.number + entry.count - 1} (a sheet)"
    return f"hand {entry.number}"


def _entry_waits(game, rows, mode: str, now) -> list[dict]:
    """A game's waiting entries as the board says them: its first mismatch, else the first
    entry waiting on the other side (later ones queue behind it and are not repeated)."""
    mismatched = sorted({e.number for e in rows if e.state == MISMATCH})
    if mismatched:
        number = mismatched[0]
        first = min((e for e in rows if e.number == number), key=lambda e: e.created_at)
        return [{"kind": "mismatch", "game_id": game.id, "number": number, "side": None,
                 "age_seconds": _age(first.created_at, now),
                 "words": f"{_hands(first).capitalize()}: the pairs disagree. Settle it, "
                          "or the table does."}]
    pending = sorted(rows, key=lambda e: (e.number, e.created_at))
    if not pending:
        return []
    first = pending[0]
    other = "B" if first.side == "A" else "A"
    kind, verb = ("confirm", "confirm") if mode == CONFIRM_EACH_HAND else ("enter", "enter")
    what, did = _hands(first), "entered"
    if first.kind in CHANGES:  # a change of an agreed hand is agreed to in either mode
        kind, verb, did = "confirm", "agree to", "proposed"
        what = f"{'the change of' if first.kind == EDIT else 'deleting'} hand {first.number}"
    count = len(pending)
    more = f" ({count} entries waiting)" if count > 1 else ""
    return [{"kind": kind, "game_id": game.id, "number": first.number, "side": other,
             "age_seconds": _age(first.created_at, now),
             "words": f"Side {other} to {verb} {what} (side {first.side} {did} it "
                      f"{_minutes(_age(first.created_at, now))}){more}."}]


def round_waits(round_: Round, now) -> dict[int, list[dict]]:
    """Each table's waits (by table number), first what needs the organizer most; tables
    where nothing waits are left out. A closed round waits for nothing here."""
    if round_.status == "closed":
        return {}
    games = {g.id: (m, g) for m in round_.matches for g in m.games}
    if not games:
        return {}
    preset = preset_of(round_.event)
    entries: dict[int, list[HandEntry]] = {}
    for entry in db.session.execute(
            select(HandEntry).where(HandEntry.event_id == round_.event_id,
                                    HandEntry.game_id.in_(list(games)),
                                    HandEntry.state.in_(WAITING))).scalars():
        entries.setdefault(entry.game_id, []).append(entry)
    waits: dict[int, list[dict]] = {}
    for call in db.session.execute(
            select(Call).where(Call.event_id == round_.event_id,
                               Call.round_number == round_.number,
                               Call.answered_at.is_(None)).order_by(Call.id)).scalars():
        age = _age(call.called_at, now)
        waits.setdefault(call.table, []).append({
            "kind": "call", "game_id": call.game_id, "number": None, "side": None,
            "age_seconds": age, "call_id": call.id,
            "words": f"Called the organizer {_minutes(age)}."})
    for game_id, (match, game) in games.items():
        found = _entry_waits(game, entries.get(game_id, []), preset.verification, now)
        if not found and preset.sign_off_required and game.end is not None and \
                game.signed_off_at is None and (game.winner is not None or not game.level):
            found = [{"kind": "sign_off", "game_id": game.id, "number": None,
                      "side": None, "age_seconds": _age(game.last_entry_at, now),
                      "words": f"Game {game.number} is finished: the opponents to sign "
                               "it off."}]
        if found:
            waits.setdefault(match.table, []).extend(found)
    for listed in waits.values():
        listed.sort(key=lambda w: ORDER[w["kind"]])
    return waits
