"""A change to an agreed hand under `confirm_each_hand` or `double_entry` (RULES.md section 7):
one side's runner does not change or delete an agreed hand alone. The change is kept as an
entry (`hand_entries`, kind `edit` or `delete`, `hand_id` the hand it changes) that counts once
the other side agrees: it confirms it (`verification.confirm`), or makes the same change
itself (under double entry, both enter the corrected hand). The other side may reject it;
the proposing side may withdraw it or propose another in its place. The organizer changes a
hand directly (`hands.py`), as under sign-off.

A change sent again (the phone's outbox) is known by what it says, the side and the version
it was made against (its If-Match), so it is kept once and answered the same way, whatever
happened to it since."""

from __future__ import annotations

from sqlalchemy import select

from ..core.common import audit
from ..core.db import db
from ..core.errors import Conflict
from ..core.keys import Principal
from ..core.models import HandEntry, utcnow
from ..rules.hands import score_hand
from . import hands as hand_edits
from .entry_views import AGREED, CHANGES, DELETE, EDIT, PENDING, digest, hand_fields
from .game_state import compute_state, hand_view, rules_hand, stored_score
from .game_writes import check_version, locked_game, writable


def _entry_id(game_id: int, hand_id: str, kind: str, side: str, fields: dict | None,
              if_match: str | None) -> str:
    """The change's id, from what it says and the version it was made against: the same
    request sent again finds the entry it made."""
    return "chg-" + digest({"game": game_id, "hand": hand_id, "kind": kind, "side": side,
                            "fields": fields, "if_match": if_match})[:40]


def propose(game_id: int, hand_id: str, principal: Principal, side: str, body: dict | None,
            if_match: str | None, answer) -> tuple[dict, int]:
    """A side's change (`body`) or deletion (`body` None) of an agreed hand, kept until the
    other side agrees. `answer(game_id, side, principal)` reads the game as the side sees it.
    Returns (game, status): 202 kept to be agreed, 200 agreed (the other side had proposed the
    same) or sent again."""
    event, game, preset = locked_game(game_id)
    kind = EDIT if body is not None else DELETE
    fields = hand_fields(body) if body is not None else None
    entry_id = _entry_id(game.id, hand_id, kind, side, fields, if_match)
    known = db.session.get(HandEntry, {"event_id": event.id, "id": entry_id})
    if known is not None:  # sent again: answered as it stands now
        db.session.rollback()
        return answer(game_id, side, principal), 202 if known.state == PENDING else 200
    writable(game, principal)
    check_version(game, if_match)
    hand = hand_edits.find_hand(game, hand_id)
    if fields is not None:
        score = score_hand(rules_hand(fields), preset)
        compute_state(game, [score if h.id == hand_id else stored_score(h)
                             for h in game.hands], preset)  # a change that cannot be: refused
    content = digest({"kind": kind, "hand": hand_id, "fields": fields})
    waiting = _waiting_changes(game.id, hand_id)
    theirs = next((e for e in waiting if e.side != side), None)
    if theirs is not None and theirs.content != content:
        raise Conflict(f"Side {theirs.side} proposed another change of hand {hand.number}: "
                       "confirm it or reject it first.", code="change-waiting")
    for own in (e for e in waiting if e.side == side):  # replaced by this one
        own.state, own.decided_at, own.decided_by = "withdrawn", utcnow(), f"side {side}"
    row = HandEntry(id=entry_id, event_id=event.id, game_id=game.id, kind=kind, side=side,
                    number=hand.number, count=0, body=fields or {}, hand_id=hand_id,
                    fingerprint=content, content=content, state=PENDING,
                    created_by=principal.key_id, created_at=utcnow())
    db.session.add(row)
    db.session.flush()
    audit(event.id, principal, "propose-hand-change", "hand", hand_id, before=hand_view(hand),
          after={"number": hand.number, "side": side, "kind": kind, "hand": fields},
          round_number=game.match.round.number, table=game.match.table)
    if theirs is not None:  # both sides made the same change: it counts
        apply(event, game, preset, theirs, principal, f"side {side}", also=[row])
        return answer(game_id, side, principal), 200
    db.session.commit()
    return answer(game_id, side, principal), 202


def _waiting_changes(game_id: int, hand_id: str) -> list[HandEntry]:
    return list(db.session.execute(
        select(HandEntry).where(HandEntry.game_id == game_id, HandEntry.hand_id == hand_id,
                                HandEntry.kind.in_(CHANGES), HandEntry.state == PENDING))
        .scalars())


def apply(event, game, preset, row: HandEntry, principal: Principal, by: str,
          also: list[HandEntry] = ()) -> dict:
    """Store an agreed change through the hand path (`hands.edit_locked`/`delete_locked`),
    in one transaction with the entries' new states; commits."""
    now = utcnow()
    for entry in [row, *also]:
        entry.state, entry.decided_at, entry.decided_by = AGREED, now, by
    audit(event.id, principal, "confirm-hand-entry", "hand_entry", row.id,
          after={"number": row.number, "kind": row.kind, "entered_by": f"side {row.side}",
                 "confirmed_by": by},
          round_number=game.match.round.number, table=game.match.table)
    # (The entries still waiting follow the change: `hands._waiting_entries_follow`.)
    if row.kind == EDIT:
        return hand_edits.edit_locked(event, game, preset, row.hand_id, principal, row.body,
                                      by=by)
    return hand_edits.delete_locked(event, game, preset, row.hand_id, principal, by=by)


def check_still_there(game, row: HandEntry) -> None:
    """A change is confirmed only while its hand is still there."""
    if not any(h.id == row.hand_id for h in game.hands):
        raise Conflict(f"Hand '{row.hand_id}' is no longer in this game (it was deleted "
                       "meanwhile), so there is nothing to change.", code="hand-gone")
