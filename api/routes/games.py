"""Games and hands: the runner's writes, with idempotent ids and If-Match on changes."""

from __future__ import annotations

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import current_principal, require
from ..schemas import (
    DealerSchema,
    GameSchema,
    HandBodySchema,
    HandCreateSchema,
    SettlementSchema,
    SheetSchema,
    SignOffSchema,
)
from ..services import games as service

blp = Blueprint("games", __name__, url_prefix="/api/games/<int:game_id>",
                description="Games and hands")


def _runner(game_id: int):
    event_id, table = service.where_is(game_id)
    return require(event_id, "runner", table=table)


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
    return service.require_if_match(request.headers.get("If-Match"))


def _with_etag(view: dict, status: int = 200):
    return view, status, {"ETag": f'"{view["version"]}"'}


@blp.route("")
class GameById(MethodView):
    @blp.response(200, GameSchema, headers={"ETag": {"schema": {"type": "string"}}})
    def get(self, game_id):
        """A game as the runner's screen shows it; its ETag is the version for If-Match."""
        return _with_etag(service.read_game(game_id))


@blp.route("/hands")
class Hands(MethodView):
    @blp.arguments(HandCreateSchema)
    @blp.response(201, GameSchema)
    @blp.alt_response(200, schema=GameSchema, description="This hand id was already stored "
                      "with the same content; nothing changed.")
    def post(self, body, game_id):
        """Enter a hand. Send the id the phone made for it: sending it again stores it once;
        the same id with a different hand is a 409 (runner or organizer)."""
        principal = _runner(game_id)
        view, created = service.record_hand(game_id, principal, body)
        return _with_etag(view, 201 if created else 200)


@blp.route("/hands/<string:hand_id>")
class HandById(MethodView):
    @blp.arguments(HandBodySchema)
    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    def put(self, body, game_id, hand_id):
        """Change a hand; If-Match must carry the game's version (stale: 412)."""
        principal = _runner(game_id)
        return _with_etag(service.edit_hand(game_id, hand_id, principal, body, _if_match()))

    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    def delete(self, game_id, hand_id):
        """Delete a hand (undo); If-Match must carry the game's version (stale: 412)."""
        principal = _runner(game_id)
        return _with_etag(service.delete_hand(game_id, hand_id, principal, _if_match()))


@blp.route("/sheet")
class Sheet(MethodView):
    @blp.arguments(SheetSchema)
    @blp.doc(parameters=[IF_MATCH_TO_CHANGE])
    @blp.response(200, GameSchema)
    def put(self, body, game_id):
        """Enter the game from its sheet: final points and bumps per seat (WEC formats).
        Replacing a sheet already entered needs If-Match."""
        principal = _runner(game_id)
        return _with_etag(service.enter_sheet(game_id, principal, body,
                                              request.headers.get("If-Match")))

    @blp.doc(parameters=[IF_MATCH])
    @blp.response(200, GameSchema)
    def delete(self, game_id):
        """Remove a sheet entry, to enter the game hand by hand instead (If-Match)."""
        principal = _runner(game_id)
        return _with_etag(service.clear_sheet(game_id, principal, _if_match()))


@blp.route("/settlement")
class Settlement(MethodView):
    @blp.arguments(SettlementSchema)
    @blp.doc(parameters=[IF_MATCH_TO_CHANGE])
    @blp.response(200, GameSchema)
    def post(self, body, game_id):
        """Settle a level game: who won the playoff hand or the card draw (points stay
        level). Changing a settlement already recorded needs If-Match."""
        principal = _runner(game_id)
        return _with_etag(service.settle_tie(game_id, principal, body["method"],
                                             body["winner"], request.headers.get("If-Match")))


@blp.route("/sign-off")
class SignOff(MethodView):
    @blp.arguments(SignOffSchema)
    @blp.response(200, GameSchema)
    def post(self, body, game_id):
        """The opponents confirm the finished game; runners cannot change it afterwards."""
        principal = _runner(game_id)
        return _with_etag(service.sign_off(game_id, principal, body["by"]))


@blp.route("/reopen")
class Reopen(MethodView):
    @blp.response(200, GameSchema)
    def post(self, game_id):
        """Undo a sign-off so the game can be corrected (organizer)."""
        _runner(game_id)
        return _with_etag(service.reopen(game_id, current_principal()))


@blp.route("/dealer")
class Dealer(MethodView):
    @blp.arguments(DealerSchema)
    @blp.response(200, GameSchema)
    def put(self, body, game_id):
        """Record the first dealer's seat, so the screen can say whose deal it is."""
        principal = _runner(game_id)
        return _with_etag(service.set_first_dealer(game_id, principal, body["seat"]))
