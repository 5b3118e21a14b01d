"""The organizer's rulings on a game, league protests and a table's call to the organizer
(RULES.md §6, §7): thin routes over games/rulings.py, league/protests.py and games/calls.py."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require, require_key, require_team
from ..core.keys import ORGANIZER, TEAM
from ..games import calls, rulings
from ..games.game_writes import where_is
from ..games.ruling_schemas import (
    CallSchema,
    CallsSchema,
    ProtestCreateSchema,
    ProtestRuledSchema,
    ProtestRulingSchema,
    RulingCreateSchema,
    RulingResultSchema,
    RulingWithdrawSchema,
)
from ..games.schemas import ProtestSchema, RulingSchema
from ..league import protests
from .games import game_principal

blp = Blueprint("rulings", __name__, url_prefix="/api",
                description="Rulings, protests and calls to the organizer")


@blp.route("/games/<int:game_id>/rulings")
class Rulings(MethodView):
    @blp.response(200, RulingSchema(many=True))
    def get(self, game_id):
        """Every ruling on the game, withdrawn ones too, oldest first."""
        return rulings.list_rulings(game_id)

    @blp.arguments(RulingCreateSchema)
    @blp.response(201, RulingResultSchema)
    def post(self, body, game_id):
        """Record a ruling with its reason: points to a side (adjust; negative takes them
        away), a forfeit, a protest upheld (the side named forfeits) or rejected. It counts in
        the game's points and winner, the match, standings and leaderboard (organizer)."""
        principal = game_principal(game_id, ORGANIZER)
        return rulings.add_ruling(game_id, principal, body)


@blp.route("/games/<int:game_id>/rulings/<int:ruling_id>")
class RulingById(MethodView):
    @blp.arguments(RulingWithdrawSchema)
    @blp.response(200, RulingResultSchema)
    def delete(self, body, game_id, ruling_id):
        """Withdraw a ruling, with a reason: its effect on the game goes; it stays listed as
        withdrawn (organizer)."""
        principal = game_principal(game_id, ORGANIZER)
        return rulings.withdraw_ruling(game_id, ruling_id, principal, body["reason"])


@blp.route("/games/<int:game_id>/protests")
class Protests(MethodView):
    @blp.arguments(ProtestCreateSchema)
    @blp.response(201, ProtestSchema)
    @blp.alt_response(200, schema=ProtestSchema, description="The same protest waits "
                      "already; nothing changed.")
    def post(self, body, game_id):
        """Lodge a protest about an opposing player's eligibility before a league playoff
        game (refused once the game has entries): a captain with the team key, about the
        other team's player, or the organizer."""
        principal = require_key()
        event_id, _table = where_is(game_id)
        if principal.role == TEAM:
            principal = require_team(event_id, principal.team_id)
        else:
            principal = require(event_id, ORGANIZER)
        view, created = protests.lodge(game_id, principal, body)
        return view, 201 if created else 200


@blp.route("/events/<int:event_id>/protests")
class EventProtests(MethodView):
    @blp.response(200, ProtestSchema(many=True))
    def get(self, event_id):
        """The event's protests, waiting and ruled, oldest first."""
        return protests.event_protests(event_id)


@blp.route("/events/<int:event_id>/protests/<int:protest_id>/ruling")
class ProtestRuling(MethodView):
    @blp.arguments(ProtestRulingSchema)
    @blp.response(200, ProtestRuledSchema)
    def post(self, body, event_id, protest_id):
        """Rule on a waiting protest, with the reason: upheld, the protested team forfeits
        the game; rejected, the result stands (organizer)."""
        principal = require(event_id, ORGANIZER)
        return protests.rule(event_id, protest_id, principal, body["upheld"], body["reason"])


@blp.route("/games/<int:game_id>/call")
class Call(MethodView):
    @blp.response(201, CallSchema)
    @blp.alt_response(200, schema=CallSchema, description="The table's call waits already; "
                      "this is it.")
    def post(self, game_id):
        """Call the organizer to the table. While the table's call waits, calling again
        answers that call. A table may call a few times in a quarter of an hour (429 after)
        (the table's runner key or the organizer)."""
        principal = game_principal(game_id)
        view, created = calls.call_organizer(game_id, principal)
        return view, 201 if created else 200


@blp.route("/events/<int:event_id>/calls")
class Calls(MethodView):
    @blp.response(200, CallsSchema)
    def get(self, event_id):
        """The calls waiting (oldest first, with table, game and age) and those answered,
        with who answered (organizer)."""
        require(event_id, ORGANIZER)
        return calls.event_calls(event_id)


@blp.route("/events/<int:event_id>/calls/<int:call_id>/answer")
class AnswerCall(MethodView):
    @blp.response(200, CallSchema)
    def post(self, event_id, call_id):
        """The organizer went to the table: the call stops waiting (organizer)."""
        principal = require(event_id, ORGANIZER)
        return calls.answer_call(event_id, call_id, principal)
