"""Who confirms a score (RULES.md section 7): the other side's confirmation or rejection of
an entry, the entering side's change or withdrawal, and a mismatch settled. New hands and
sheets come in by the games routes (POST /hands, /paper-sheet), which hand them here when
the event checks scores by confirm_each_hand or double_entry."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..games import verification
from ..games.schemas import (
    EntryChangeSchema,
    EntrySideSchema,
    GameSchema,
    RejectSchema,
    SettleSchema,
)
from .games import game_principal

blp = Blueprint("verification", __name__, url_prefix="/api/games/<int:game_id>",
                description="Who confirms a score: entries, confirmations, mismatches")


@blp.route("/entries/<string:entry_id>")
class EntryById(MethodView):
    @blp.arguments(EntryChangeSchema)
    @blp.response(200, GameSchema)
    def put(self, body, game_id, entry_id):
        """Change a waiting entry of one hand: only the side that entered it, before it is
        confirmed or matched (runner or organizer)."""
        principal = game_principal(game_id)
        return verification.change(game_id, entry_id, principal, body)


@blp.route("/entries/<string:entry_id>/confirm")
class Confirm(MethodView):
    @blp.arguments(EntrySideSchema)
    @blp.response(200, GameSchema)
    def post(self, body, game_id, entry_id):
        """confirm_each_hand: the other side confirms the waiting entry and the hand is
        stored. The side that entered it cannot confirm it (409); entries are confirmed in
        hand order; sending the confirmation again changes nothing (runner or organizer)."""
        principal = game_principal(game_id)
        return verification.confirm(game_id, entry_id, principal, body["side"])


@blp.route("/entries/<string:entry_id>/reject")
class Reject(MethodView):
    @blp.arguments(RejectSchema)
    @blp.response(200, GameSchema)
    def post(self, body, game_id, entry_id):
        """confirm_each_hand: the other side says the waiting entry is wrong; it is set
        aside, with who and why in the audit log, and the hand is entered again (runner or
        organizer)."""
        principal = game_principal(game_id)
        return verification.reject(game_id, entry_id, principal, body["side"],
                                    body.get("reason"))


@blp.route("/entries/<string:entry_id>/withdraw")
class Withdraw(MethodView):
    @blp.arguments(EntrySideSchema)
    @blp.response(200, GameSchema)
    def post(self, body, game_id, entry_id):
        """The side that entered a waiting entry takes it back (runner or organizer)."""
        principal = game_principal(game_id)
        return verification.withdraw(game_id, entry_id, principal, body["side"])


@blp.route("/mismatches/<int:number>/settle")
class Settle(MethodView):
    @blp.arguments(SettleSchema)
    @blp.response(200, GameSchema)
    def post(self, body, game_id, number):
        """double_entry: settle hand `number`'s mismatch in one choice: take one side's
        entry, or store the corrected hand (a sheet's mismatch: the corrected sheet). The
        table's key or the organizer's; audited. Later hands wait until it is settled."""
        principal = game_principal(game_id)
        corrected = body.get("hand") or body.get("sheet")
        kind = "sheet" if body.get("sheet") else "hand"
        return verification.settle(game_id, number, principal, body.get("take"), corrected,
                                   kind)
