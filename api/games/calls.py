"""A table calls the organizer from its phone (RULES.md §7): the call waits, shown to the
organizer with its table and age, until someone answers it. Calls and answers go into the
audit log (the night's log); a table cannot flood the organizer with them."""

from __future__ import annotations

from sqlalchemy import func, select

from ..core import limits
from ..core.common import audit, game_label, lock_event
from ..core.db import db
from ..core.errors import not_found
from ..core.keys import Principal
from ..core.models import ApiKey, Call, Round, utcnow
from .game_writes import locked_game
from .news import game_changed

# A table may call this many times in this many seconds (answered calls included).
CALLS_PER_WINDOW = 6
CALL_WINDOW = 15 * 60


def call_view(call: Call, labels: dict[int, str] | None = None, now=None,
              rounds: dict[int, tuple[str, bool]] | None = None) -> dict:
    """A call as the organizer's list shows it. `rounds`: the event's rounds by number, each
    (label, closed), read once for a list; else read for this call's round."""
    now = now or utcnow()
    if rounds is None:
        rounds = _rounds(call.event_id, call.round_number)
    label, closed = rounds.get(call.round_number, (f"Round {call.round_number}", False))
    end = call.answered_at or now
    answered_by = None
    if call.answered_by is not None:
        answered_by = {"key_id": call.answered_by,
                       "label": (labels or {}).get(call.answered_by) or "organizer"}
    return {"id": call.id, "event_id": call.event_id, "game_id": call.game_id,
            "table": call.table, "round_number": call.round_number,
            "round_label": label, "round_closed": closed,
            "called_at": call.called_at, "waiting": call.answered_at is None,
            "age_seconds": max(0, int((now - call.called_at).total_seconds())),
            "waited_seconds": max(0, int((end - call.called_at).total_seconds())),
            "answered_at": call.answered_at, "answered_by": answered_by}


def _rounds(event_id: int, number: int | None = None) -> dict[int, tuple[str, bool]]:
    """The event's rounds (only round `number`, when given): {number: (label, closed)}."""
    query = select(Round.number, Round.label, Round.status).where(Round.event_id == event_id)
    if number is not None:
        query = query.where(Round.number == number)
    return {row.number: (row.label, row.status == "closed")
            for row in db.session.execute(query)}


def _labels(key_ids) -> dict[int, str]:
    ids = {k for k in key_ids if k is not None}
    if not ids:
        return {}
    return {row.id: row.label or f"organizer key …{row.hint}" for row in db.session.execute(
        select(ApiKey.id, ApiKey.label, ApiKey.hint).where(ApiKey.id.in_(ids)))}


def call_organizer(game_id: int, principal: Principal) -> tuple[dict, bool]:
    """A table's call: (the call, whether it is new). While the table's last call waits, a
    new one is that call (a phone tapping twice, or sending its outbox again)."""
    event, game, _preset = locked_game(game_id)
    table = game.match.table
    waiting = db.session.execute(
        select(Call).where(Call.event_id == event.id, Call.table == table,
                           Call.answered_at.is_(None)).order_by(Call.id).limit(1)
    ).scalar_one_or_none()
    if waiting is not None:
        view = call_view(waiting)
        db.session.rollback()  # nothing changed: no revision bump either
        return view, False
    limits.take(f"call:{event.id}:{table}", CALLS_PER_WINDOW, CALL_WINDOW,
                f"Table {table} has called the organizer {CALLS_PER_WINDOW} times in "
                f"{CALL_WINDOW // 60} minutes; the organizer knows. Wave to the desk, or try "
                "again later.")
    call = Call(event_id=event.id, game_id=game.id, table=table,
                round_number=game.match.round.number, key_id=principal.key_id,
                called_at=utcnow())
    db.session.add(call)
    db.session.flush()
    audit(event.id, principal, "call", "call", call.id, after={"game": game_label(game)},
          round_number=call.round_number, table=table)
    view = call_view(call)
    game_changed(event.id, game, "call", call_id=call.id)
    db.session.commit()
    return view, True


def event_calls(event_id: int) -> dict:
    """The organizer's list: the waiting calls (oldest first), then those answered (newest
    first), with the night's counts."""
    calls = list(db.session.execute(select(Call).where(Call.event_id == event_id)).scalars())
    labels = _labels(c.answered_by for c in calls)
    now = utcnow()
    waiting = sorted((c for c in calls if c.answered_at is None), key=lambda c: c.id)
    answered = sorted((c for c in calls if c.answered_at is not None), key=lambda c: -c.id)
    rounds = _rounds(event_id)
    return {"waiting": len(waiting), "answered": len(answered), "total": len(calls),
            "calls": [call_view(c, labels, now, rounds) for c in waiting + answered]}


def answer_call(event_id: int, call_id: int, principal: Principal) -> dict:
    """The organizer has gone to the table: the call stops waiting. Answering an answered
    call again changes nothing and says who answered it."""
    lock_event(event_id, when_finished=True)
    call = db.session.get(Call, call_id)
    if call is None or call.event_id != event_id:
        raise not_found(f"Call {call_id} in this event")
    if call.answered_at is None:
        call.answered_at, call.answered_by = utcnow(), principal.key_id
        audit(event_id, principal, "answer-call", "call", call.id,
              after={"waited_seconds": int((call.answered_at - call.called_at)
                                           .total_seconds())},
              round_number=call.round_number, table=call.table)
    view = call_view(call, _labels([call.answered_by]))
    db.session.commit()
    return view


def count_calls(event_id: int) -> int:
    return db.session.execute(select(func.count()).select_from(Call)
                              .where(Call.event_id == event_id)).scalar_one()
