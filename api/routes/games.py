"""Games and hands: the runner's writes, with idempotent ids and If-Match on changes."""

from __future__ import annotations

import json
from datetime import datetime

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import current_principal, require, require_key
from ..core.db import db, reading_only
from ..core.keys import ORGANIZER, RUNNER
from ..games import (
    entry_checks,
    game_end,
    hand_changes,
    hand_entry,
    hands,
    sheet_batch,
    verification,
)
from ..games.game_writes import require_if_match, where_is
from ..games.schemas import (
    ChangeSideSchema,
    DealerSchema,
    GameReadSchema,
    GameSchema,
    HandBatchSchema,
    HandCreateSchema,
    HandEditSchema,
    SettlementSchema,
    SheetSchema,
    SignOffSchema,
)
from ..problems import Problem
from ..rounds import seat_changes
from ..rounds.schemas import SeatSwapSchema
from ..rules.presets import SIGN_OFF

# One instance each, not one a request (webargs makes one per call from a class).
HANDS_IN = HandCreateSchema()
SHEET_IN = SheetSchema()
HAND_EDIT_IN = HandEditSchema()

blp = Blueprint("games", __name__, url_prefix="/api/games/<int:game_id>",
                description="Games and hands")


def game_principal(game_id: int, role: str = RUNNER):
    """The key on the request, checked against the game's event and table (`role`: who may)."""
    require_key()
    event_id, table = where_is(game_id)
    return require(event_id, role, table=table)


# Edits and deletes name the version they were made against (no silent overwrite).
IF_MATCH = {"in": "header", "name": "If-Match", "required": True,
            "schema": {"type": "string"},
            "description": "The game's version, as its ETag gave it: a stale one is a 412, "
                           "none at all a 428."}
# Entering a sheet or a settlement the first time is not an edit; changing one is.
IF_MATCH_TO_CHANGE = {**IF_MATCH, "required": False,
                      "description": "The game's version, as its ETag gave it: needed to "
                                     "replace what is already recorded (stale: 412, "
                                     "missing: 428)."}


def _if_match() -> str:
    """The If-Match a change must carry: missing, it is a 428 whatever else the game's state
    would say, as the OpenAPI document promises for a required header."""
    return require_if_match(request.headers.get("If-Match"))


def _with_etag(view: dict, status: int = 200):
    return view, status, {"ETag": f'"{view["version"]}"'}


def _iso(value):
    if isinstance(value, datetime):
        return value.isoformat()  # as the schema's DateTime writes it
    raise TypeError(f"{type(value).__name__} is not JSON")


def game_json(view: dict) -> bytes:
    """A game view written out directly: the view is already in the shape GameSchema
    describes (plain values), and dumping it through the schema cost more than the rest of
    a hand's answer (tests/api/test_fast_dumps_agree.py holds the two equal)."""
    body = json.dumps(view, default=_iso, sort_keys=True, separators=(",", ":"))
    return (body + "\n").encode()


def _game_json(view: dict, status: int):
    response = current_app.response_class(game_json(view), status=status,
                                          mimetype="application/json")
    response.headers["ETag"] = f'"{view["version"]}"'
    return response


def _hand_entry(game_id: int, body: dict):
    """A new hand's key, game and stored twin, read without the write lock: the principal,
    the game's entry, and the game as stored when the hand is a retry (else None)."""
    with reading_only():
        principal = require_key()
        entry = hand_entry.entry_of(game_id, body["id"])
        require(entry.event_id, RUNNER, table=entry.table)
        if entry.preset.verification != SIGN_OFF:  # a side's entry, not yet a hand
            db.session.rollback()
            return principal, entry, None
        stored = hand_entry.replayed(entry, body["id"], body)
    return principal, entry, stored


def enter_hand(game_id: int, body: dict) -> tuple[dict, int]:
    """A hand's POST once its body is read: the game and the status to answer. Where the
    event checks scores by confirm_each_hand or double_entry, the hand is a side's entry
    (`verification.enter`)."""
    principal, entry, stored = _hand_entry(game_id, body)
    if entry.preset.verification != SIGN_OFF:
        return verification.enter(game_id, principal, body)
    if stored is not None:  # a retry, answered from the read
        return stored, 200
    view, created = hand_entry.record_hand(entry, principal, body)
    return view, 201 if created else 200


def enter_ordinary_hand(game_id: int, body: dict) -> tuple[dict, int] | None:
    """The same before Flask (hand_posts.py): a retry, or a hand the short way stores; None
    for anything else, with nothing stored (Flask then answers it)."""
    principal, entry, stored = _hand_entry(game_id, body)
    if entry.preset.verification != SIGN_OFF:  # a side's entry: Flask takes it
        return None
    if stored is not None:
        return stored, 200
    view = hand_entry.record_the_short_way(entry, principal, body)
    return None if view is None else (view, 201)


def _sheet_entry(game_id: int):
    with reading_only():
        principal = require_key()
        entry = hand_entry.entry_of(game_id)
        require(entry.event_id, RUNNER, table=entry.table)
    return principal, entry


def enter_sheet(game_id: int, body: dict, if_match: str | None) -> dict:
    """A game sheet's PUT once its body is read: the game."""
    principal, entry = _sheet_entry(game_id)
    entry_checks.sheet_allowed(entry.preset)
    view = hand_entry.record_sheet(entry, body)
    if view is None:  # not the ordinary first sheet: the whole game, every refusal worded
        view = game_end.enter_sheet(game_id, principal, body, if_match)
    return view


def enter_first_sheet(game_id: int, body: dict) -> dict | None:
    """The same before Flask: the game's first sheet, stored the short way; None for anything
    else, with nothing stored."""
    _principal, entry = _sheet_entry(game_id)
    if entry.preset.verification != SIGN_OFF:  # refused, in words, by Flask
        db.session.rollback()
        return None
    return hand_entry.record_sheet(entry, body)


@blp.route("")
class GameById(MethodView):
    @blp.arguments(GameReadSchema, location="query")
    @blp.response(200, GameSchema, headers={"ETag": {"schema": {"type": "string"}}})
    def get(self, args, game_id):
        """A game as the runner's screen shows it; its ETag is the version for If-Match.
        With its verification: the entries waiting to become hands and any mismatch (under
        double entry the other side's pending entries are hidden from a side that has not
        entered that hand; the organizer's key sees them all)."""
        try:
            principal = current_principal()
        except Problem:  # a read anyone may make: a stale key reads as the public does
            principal = None
        return _with_etag(verification.game_read(game_id, args.get("side"), principal))


@blp.route("/hands")
class Hands(MethodView):
    @blp.arguments(HANDS_IN)
    @blp.response(201, GameSchema)
    @blp.alt_response(200, schema=GameSchema, description="This hand id was already stored "
                      "with the same content; nothing changed.")
    def post(self, body, game_id):
        """Enter a hand. Send the id the phone made for it: sending it again stores it once;
        the same id with a different hand is a 409 (runner or organizer). Where the event
        checks scores by confirm_each_hand or double_entry, say which side enters it
        (`side`): the hand is kept as that side's entry until the other side confirms it or
        enters the same (see the game's `entries`)."""
        return _game_json(*enter_hand(game_id, body))


@blp.route("/paper-sheet")
class HandBatch(MethodView):
    @blp.arguments(HandBatchSchema)
    @blp.response(201, GameSchema)
    @blp.alt_response(200, schema=GameSchema, description="This sheet was already stored; "
                      "nothing changed.")
    def post(self, body, game_id):
        """Enter a game's hands from its paper sheet, all at once: stored whole or not at all.
        A mistake is a 422 whose errors.hands names the row (from 0); sending the sheet again
        stores it once (runner or organizer). Under confirm_each_hand or double_entry the
        sheet, with its `side`, is kept as that side's entry until agreed."""
        with reading_only():  # the key and the game with the sheet's ids, in one read
            principal = require_key()
            entry = sheet_batch.entry_of(game_id, body)
            require(entry.event_id, RUNNER, table=entry.table)
        if entry.preset.verification != SIGN_OFF:  # a side's entry of the sheet
            db.session.rollback()
            view, status = verification.enter(game_id, principal, body, kind="sheet")
            return _game_json(view, status)
        view, created = sheet_batch.enter_hands(game_id, principal, body, entry)
        return _game_json(view, 201 if created else 200)


def _change_by_a_side(game_id: int, hand_id: str, side: str | None, body: dict | None):
    """A runner's change (or deletion) of an agreed hand where the event checks scores by
    confirm_each_hand or double_entry: a side's proposal (`hand_changes.propose`), answered
    202 until the other side agrees. None where the change is made directly (sign-off, or
    the organizer's key)."""
    with reading_only():
        principal = game_principal(game_id)
        mode = hand_entry.entry_of(game_id).preset.verification
    # End the read before any write takes the lock: on SQLite a read turned into a write is
    # refused (busy, a 503) when another edit committed in between, not told it is stale.
    db.session.rollback()
    if mode == SIGN_OFF or principal.role == ORGANIZER:
        return None
    side = entry_checks.needs_side({"side": side}, mode)
    view, status = hand_changes.propose(game_id, hand_id, principal, side, body, _if_match(),
                                        verification.game_read)
    return _with_etag(view, status)


@blp.route("/hands/<string:hand_id>")
class HandById(MethodView):
    @blp.arguments(HAND_EDIT_IN)
    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    @blp.alt_response(202, schema=GameSchema, description="confirm_each_hand or double_entry, "
                      "a runner's key: the change is kept as the side's proposal (an entry of "
                      "kind 'edit') and counts once the other side confirms it or makes the "
                      "same change.")
    def put(self, body, game_id, hand_id):
        """Change a hand; If-Match must carry the game's version (stale: 412). Where the
        event checks scores by confirm_each_hand or double_entry, a runner names its side
        and the change waits for the other side (202); the organizer changes it at once."""
        side = body.pop("side", None)
        proposed = _change_by_a_side(game_id, hand_id, side, body)
        if proposed is not None:
            return proposed
        principal = game_principal(game_id)
        return _with_etag(hands.edit_hand(game_id, hand_id, principal, body, _if_match()))

    @blp.arguments(ChangeSideSchema, location="query")
    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    @blp.alt_response(202, schema=GameSchema, description="confirm_each_hand or double_entry, "
                      "a runner's key: the deletion waits for the other side (an entry of "
                      "kind 'delete').")
    def delete(self, args, game_id, hand_id):
        """Delete a hand (undo); If-Match must carry the game's version (stale: 412). Under
        confirm_each_hand or double_entry a runner names its side (?side=) and the deletion
        waits for the other side (202)."""
        proposed = _change_by_a_side(game_id, hand_id, args.get("side"), None)
        if proposed is not None:
            return proposed
        principal = game_principal(game_id)
        return _with_etag(hands.delete_hand(game_id, hand_id, principal, _if_match()))


@blp.route("/sheet")
class Sheet(MethodView):
    @blp.arguments(SHEET_IN)
    @blp.doc(parameters=[IF_MATCH_TO_CHANGE])
    @blp.response(200, GameSchema)
    def put(self, body, game_id):
        """Enter the game from its sheet: final points and bumps per seat (WEC formats).
        Replacing a sheet already entered needs If-Match."""
        return _game_json(enter_sheet(game_id, body, request.headers.get("If-Match")), 200)

    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    def delete(self, game_id):
        """Remove a sheet entry, to enter the game hand by hand instead (If-Match)."""
        principal = game_principal(game_id)
        return _with_etag(game_end.clear_sheet(game_id, principal, _if_match()))


@blp.route("/settlement")
class Settlement(MethodView):
    @blp.arguments(SettlementSchema)
    @blp.doc(parameters=[IF_MATCH_TO_CHANGE])
    @blp.response(200, GameSchema)
    def post(self, body, game_id):
        """Settle a level game: who won the playoff hand or the card draw (points stay
        level). Changing a settlement already recorded needs If-Match."""
        principal = game_principal(game_id)
        return _with_etag(game_end.settle_tie(game_id, principal, body["method"],
                                             body["winner"], request.headers.get("If-Match")))


@blp.route("/sign-off")
class SignOff(MethodView):
    @blp.arguments(SignOffSchema)
    @blp.response(200, GameSchema)
    def post(self, body, game_id):
        """The opponents confirm the finished game (under sign-off only: where both sides
        agree each hand there is no sign-off, a 409 no-sign-off)."""
        principal = game_principal(game_id)
        return _with_etag(game_end.sign_off(game_id, principal, body["by"]))


@blp.route("/reopen")
class Reopen(MethodView):
    @blp.response(200, GameSchema)
    def post(self, game_id):
        """Undo a sign-off so the game can be corrected (organizer)."""
        principal = game_principal(game_id, ORGANIZER)
        return _with_etag(game_end.reopen(game_id, principal))


@blp.route("/dealer")
class Dealer(MethodView):
    @blp.arguments(DealerSchema)
    @blp.response(200, GameSchema)
    def put(self, body, game_id):
        """Record the first dealer's seat, so the screen can say whose deal it is."""
        principal = game_principal(game_id)
        return _with_etag(hands.set_first_dealer(game_id, principal, body["seat"]))


@blp.route("/seats/swap")
class SeatSwap(MethodView):
    @blp.arguments(SeatSwapSchema)
    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    def post(self, body, game_id):
        """Players sat in each other's seats and hands were played: swap the two seats in
        this game's match, keeping every hand, so the points go to the players who earned
        them (in a team format, seats on different sides swap the two teams' sides).
        If-Match carries the game's version (organizer)."""
        principal = game_principal(game_id, ORGANIZER)
        return _with_etag(seat_changes.correct_seats(game_id, principal, body["seats"],
                                                     _if_match()))
