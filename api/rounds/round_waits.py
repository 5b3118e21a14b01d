"""What each table of a round waits for, and on whom (RULES.md section 7), for the
organizer's progress board: a hand one side entered that the other has not confirmed (or,
under double entry, not entered itself), a mismatch, a call to the organizer, a finished game
not yet signed off where the format asks for a sign-off. A closed round can still wait: a
table may call, or propose a change of an agreed hand, after its round closed (in the
correction window); the board of the round being played also lists the calls still waiting
from rounds before it (`late_calls`), since the organizer watches that board.

Read with one query per kind for the whole round (the waiting entries, the waiting calls),
never one per table: a round of a hundred tables reads as fast as a round of two."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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


def _entry_waits(game, rows, mode: str, now, window_closed: bool = False) -> list[dict]:
    """A game's waiting entries as the board says them: its first mismatch, else the first
    entry waiting on the other side (later ones queue behind it and are not repeated).
    `window_closed`: the round's correction window has closed, so the other side can no
    longer agree to a proposed change (only the organizer changes the game now)."""
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
    ago = _minutes(_age(first.created_at, now))
    words = f"Side {other} to {verb} {what} (side {first.side} {did} it {ago}){more}."
    if window_closed:
        words = (f"Side {first.side} {did} {what} {ago}; the correction window has closed, "
                 f"so side {other} can no longer agree to it: side {first.side} takes it "
                 "back, or you change the game.")
    return [{"kind": kind, "game_id": game.id, "number": first.number, "side": other,
             "age_seconds": _age(first.created_at, now), "words": words}]


def _call_wait(call, now, closed_at: datetime | None) -> dict:
    """A waiting call as the board says it; `closed_at`: when its round closed, if it had
    when the table called."""
    age = _age(call.called_at, now)
    after = closed_at is not None and _aware(call.called_at) >= _aware(closed_at)
    return {"kind": "call", "game_id": call.game_id, "number": None, "side": None,
            "age_seconds": age, "call_id": call.id, "round_number": call.round_number,
            "words": f"Called the organizer {_minutes(age)}"
                     + (", after the round closed." if after else ".")}


def _aware(moment):
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def late_calls(round_: Round, now) -> list[dict]:
    """The calls still waiting from tables about games of other rounds than this one (a
    correction after an earlier round closed), oldest first, each with its table and round:
    listed on the board of the round being played, where the organizer looks. Empty for a
    round not being played (a closed round's calls show at its own tables)."""
    if round_.status != "playing":
        return []
    rounds = {r.number: r for r in round_.event.rounds}
    found = []
    for call in db.session.execute(
            select(Call).where(Call.event_id == round_.event_id,
                               Call.round_number != round_.number,
                               Call.answered_at.is_(None)).order_by(Call.id)).scalars():
        other = rounds.get(call.round_number)
        label = other.label if other is not None else f"Round {call.round_number}"
        closed = other is not None and other.status == "closed"
        wait = _call_wait(call, now, None)
        wait.update(table=call.table, words=f"Called the organizer "
                    f"{_minutes(wait['age_seconds'])}, about its game in {label}"
                    + (" (closed)." if closed else "."))
        found.append(wait)
    return found


def round_waits(round_: Round, now) -> dict[int, list[dict]]:
    """Each table's waits (by table number), first what needs the organizer most; tables
    where nothing waits are left out. A closed round lists what still waits at its tables:
    a call, a change proposed in its correction window, a sign-off a correction undid."""
    games = {g.id: (m, g) for m in round_.matches for g in m.games}
    if not games:
        return {}
    preset = preset_of(round_.event)
    closed_at = round_.closed_at if round_.status == "closed" else None
    window_closed = closed_at is not None and now >= _aware(closed_at) + timedelta(
        minutes=preset.correction_minutes)
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
        waits.setdefault(call.table, []).append(_call_wait(call, now, closed_at))
    for game_id, (match, game) in games.items():
        found = _entry_waits(game, entries.get(game_id, []), preset.verification, now,
                             window_closed)
        if not found and preset.sign_off_needed and game.end is not None and \
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
