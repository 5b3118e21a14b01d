"""Reading an event: the live leaderboard (ETag/304), awards, scoresheets, the audit log."""

from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import RAISE

from ..auth import require
from ..core.common import audit_entries
from ..core.keys import ORGANIZER
from ..core.schemas import AuditQuerySchema, AuditSchema
from ..core.writes_first import yield_to_writes
from ..leaderboard.board import awards_and_bumps, leaderboard
from ..leaderboard.body import accepts_gzip, leaderboard_body, revision_etag
from ..leaderboard.schemas import LeaderboardSchema
from ..standings import scoresheets, tiebreak
from ..standings.schemas import AwardsSchema, ScoresheetSchema, TiebreakSchema
from . import examples

blp = Blueprint("reading", __name__, url_prefix="/api/events/<int:event_id>",
                description="Leaderboards, awards, scoresheets, audit")


@blp.route("/leaderboard")
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema, headers={"ETag": {"schema": {"type": "string"}}},
                  example=examples.LEADERBOARD)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """The live standings. Poll with If-None-Match: a 304 costs almost nothing."""
        yield_to_writes()  # a board built now shows a hand being stored (see leaderboard_body)
        tag, unchanged = revision_etag(event_id, "board")
        if unchanged:
            return unchanged
        gzipped = accepts_gzip(request.headers.get("Accept-Encoding"))
        response = current_app.response_class(
            leaderboard_body(event_id, gzipped), mimetype="application/json")
        response.vary.add("Accept-Encoding")
        if gzipped:  # 180 KB for 800 players is a seventh of that gzipped: phones on bar wifi
            response.headers["Content-Encoding"] = "gzip"
        return response, 200, {"ETag": tag}


@blp.route("/awards")
class Awards(MethodView):
    @blp.response(200, AwardsSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """Low Score, High Game and the bump cup (per player, per table, in all)."""
        tag, unchanged = revision_etag(event_id, "awards")
        return unchanged or (awards_and_bumps(event_id), 200, {"ETag": tag})


@blp.route("/players/<int:player_id>/scoresheet")
class Scoresheet(MethodView):
    @blp.response(200, ScoresheetSchema)
    def get(self, event_id, player_id):
        """A player's scoresheet: per round, table, partner, opponents and score."""
        return scoresheets.scoresheet(event_id, player_id)


@blp.route("/scoresheets")
class Scoresheets(MethodView):
    @blp.response(200, ScoresheetSchema(many=True))
    def get(self, event_id):
        """Every player's scoresheet (for printing)."""
        return scoresheets.all_scoresheets(event_id)


@blp.route("/tiebreak")
class Tiebreak(MethodView):
    @blp.arguments(TiebreakSchema)
    @blp.response(200, LeaderboardSchema)
    def put(self, body, event_id):
        """Record the order of entrants level on every tie-break (rock-paper-scissors, card
        draw, the organizer's decision); listed entrants are placed in this order
        (organizer)."""
        principal = require(event_id, ORGANIZER)
        tiebreak.set_manual_order(event_id, principal, body["order"])
        return leaderboard(event_id)


@blp.route("/audit")
class Audit(MethodView):
    @blp.arguments(AuditQuerySchema, location="query", unknown=RAISE)
    @blp.response(200, AuditSchema(many=True))
    def get(self, query, event_id):
        """Changes after entry, newest first; filter by table or round (organizer)."""
        require(event_id, ORGANIZER)
        return audit_entries(event_id, query["table"], query["round"], query["limit"])
