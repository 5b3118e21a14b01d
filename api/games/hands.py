"""Correcting hands: edits and deletions replay the game; the first dealer; what every hand's
entry shares (its fingerprint and columns). A new hand's way is `hand_entry.py`."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import select, update

from ..core.common import audit, game_label
from ..core.db import db
from ..core.errors import not_found
from ..core.keys import Principal
from ..core.models import DeletedHand, Game, Hand, HandEntry, utcnow
from ..rules.hands import PLAY, HandScore, score_hand
from .game_state import compute_state, hand_view, rules_hand, stored_score
from .game_writes import (
    check_version,
    commit_and_view,
    locked_game,
    store_result,
    unsigned_note,
    writable,
)

HAND_FIELDS = ("kind", "maker", "tricks", "alone", "loner_seat", "renege", "surrendered",
               "dealer", "trump", "note")


def fingerprint(body: dict) -> str:
    canonical = {k: body.get(k) for k in HAND_FIELDS}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, default=str).encode()).hexdigest()


def hand_columns(body: dict, score: HandScore) -> dict:
    renege = body.get("renege")
    return {
        "kind": body.get("kind") or PLAY, "maker": body.get("maker"),
        "alone": bool(body.get("alone")), "loner_seat": body.get("loner_seat"),
        "tricks": body.get("tricks"),
        "renege_by": renege["by"] if renege else None,
        "renege_upheld": renege["upheld"] if renege else None,
        "surrendered": list(body.get("surrendered") or []), "dealer": body.get("dealer"),
        "trump": body.get("trump"), "note": body.get("note"),
        "points_a": score.points_a, "points_b": score.points_b, "result": score.result,
        "outcome": score.outcome, "bumps": {str(k): v for k, v in score.bumps.items()},
    }


def find_hand(game: Game, hand_id: str) -> Hand:
    for hand in game.hands:
        if hand.id == hand_id:
            return hand
    raise not_found(f"Hand '{hand_id}' in {game_label(game).lower()}")


def edit_hand(game_id: int, hand_id: str, principal: Principal, body: dict,
              if_match: str | None) -> dict:
    """Change a stored hand; every later hand is replayed, so an edit that would end the game
    before its last hand is refused with the reason."""
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    check_version(game, if_match)
    return edit_locked(event, game, preset, hand_id, principal, body)


def edit_locked(event, game: Game, preset, hand_id: str, principal: Principal,
                body: dict, by: str = "the organizer") -> dict:
    """The edit, once the event is locked and the change allowed (also the way a change both
    sides agreed to is stored, `hand_changes.py`); commits and answers with the game."""
    hand = find_hand(game, hand_id)
    before = hand_view(hand)
    score = score_hand(rules_hand(body), preset)
    scores = [score if h.id == hand_id else stored_score(h) for h in game.hands]
    state = compute_state(game, scores, preset)
    for column, value in hand_columns(body, score).items():
        setattr(hand, column, value)
    hand.fingerprint = fingerprint(body)
    _waiting_entries_follow(game, hand_id, deleted=False, by=by)
    unsigned = store_result(game, preset, state, why="hand corrected")
    audit(event.id, principal, "edit-hand", "hand", hand.id, before=before,
          after={**hand_view(hand), "game": game.number, **unsigned_note(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def delete_hand(game_id: int, hand_id: str, principal: Principal, if_match: str | None) -> dict:
    """Remove a hand (undo) and close the gap in the numbering."""
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    check_version(game, if_match)
    return delete_locked(event, game, preset, hand_id, principal)


def delete_locked(event, game: Game, preset, hand_id: str, principal: Principal,
                  by: str = "the organizer") -> dict:
    """The deletion, once the event is locked and the change allowed; commits."""
    hand = find_hand(game, hand_id)
    _waiting_entries_follow(game, hand_id, deleted=True, by=by)
    before = hand_view(hand)
    remaining = [h for h in game.hands if h.id != hand_id]
    state = compute_state(game, [stored_score(h) for h in remaining], preset)
    # Its id stays taken: a phone still holding the hand in its outbox is told it was deleted.
    db.session.add(DeletedHand(event_id=hand.event_id, id=hand.id, game_id=game.id,
                               number=hand.number, fingerprint=hand.fingerprint,
                               deleted_by=principal.key_id))
    game.hands.remove(hand)
    db.session.flush()
    # Renumber one row at a time in rising order so the unique (game, number) pair never
    # collides, whatever order the database checks it in.
    for position, later in enumerate(remaining, start=1):
        if later.number != position:
            db.session.execute(update(Hand).where(Hand.event_id == later.event_id,
                                                  Hand.id == later.id).values(number=position))
    db.session.expire(game, ["hands"])
    game.entries = len(remaining)
    unsigned = store_result(game, preset, state, why="hand deleted")
    audit(event.id, principal, "delete-hand", "hand", hand_id, before=before,
          after={"game": game.number, **unsigned_note(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def _waiting_entries_follow(game: Game, hand_id: str, *, deleted: bool, by: str) -> None:
    """Where the event checks scores by confirm_each_hand or double_entry, the entries still
    waiting follow a change made to a stored hand: a change still proposed for that hand was
    made against it as it was, so it is overruled (`by` the change made); after a deletion,
    the entries waiting after the hand move down a number with the hands."""
    now, number = utcnow(), find_hand(game, hand_id).number
    for entry in db.session.execute(select(HandEntry).where(
            HandEntry.game_id == game.id, HandEntry.state.in_(("pending", "mismatch")))).scalars():
        if entry.kind in ("edit", "delete") and entry.hand_id == hand_id:
            entry.state, entry.decided_at, entry.decided_by = "overruled", now, by
        elif deleted and entry.number > number:
            entry.number -= 1


def set_first_dealer(game_id: int, principal: Principal, seat: int | None) -> dict:
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    game.first_dealer = seat
    return commit_and_view(game)
