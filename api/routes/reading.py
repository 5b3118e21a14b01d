"""Reading an event: the live leaderboard (ETag/304), awards, scoresheets, the audit log."""

from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import ORGANIZER, require
from ..schemas import (
    AuditQuerySchema,
    AuditSchema,
    AwardsSchema,
    LeaderboardSchema,
    ScoresheetSchema,
    TiebreakSchema,
)
from ..services import standings as service
from ..services.common import audit_entries

blp = Blueprint("reading", __name__, url_prefix="/api/events/<int:event_id>",
                description="Leaderboards, awards, scoresheets, audit")


def etag_for(name: str, event_id: int, revision: int) -> str:
    return f'W/"{name}-{event_id}-{revision}"'


def etag_matches(tag: str, if_none_match: str | None) -> bool:
    wanted = [t.strip() for t in (if_none_match or "").split(",")]
    return tag in wanted or "*" in wanted


def revision_etag(event_id: int, name: str):
    """The event's revision as an ETag, read without loading anything else. Returns the tag,
    and a ready 304 response when the poller already has it (a 304 costs almost nothing)."""
    tag = etag_for(name, event_id, service.revision_of(event_id))
    if etag_matches(tag, request.headers.get("If-None-Match")):
        response = current_app.response_class(status=304)
        response.headers["ETag"] = tag
        return tag, response
    return tag, None


_BOARD_FIELDS = list(LeaderboardSchema().fields)
_BOARD_HEAD = LeaderboardSchema(exclude=("rows",))


def board_body(board: dict) -> bytes:
    """The leaderboard as the schema would dump it, as JSON bytes, made once per revision.

    Only the small head goes through marshmallow: the rows (one per entrant, 2,000 in a big
    event) are plain ints, strings and bools already, so they are taken as they are (dumping
    them field by field cost 20 ms for 800 players). Under TESTING the full schema dump is
    compared with this one, so every API test that reads a leaderboard checks they agree.
    """
    head = _BOARD_HEAD.dump(board)
    body = {name: board["rows"] if name == "rows" else head[name]
            for name in _BOARD_FIELDS if name == "rows" or name in head}
    if current_app.testing:
        full = LeaderboardSchema().dump(board)
        assert full == body, "the leaderboard's fast dump differs from its schema's"
    return current_app.json.response(body).get_data()


@blp.route("/leaderboard")
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """The live standings. Poll with If-None-Match: a 304 costs almost nothing."""
        tag, unchanged = revision_etag(event_id, "board")
        if unchanged:
            return unchanged
        body = service.leaderboard_body(event_id, board_body)
        return current_app.response_class(body, mimetype="application/json"), 200, \
            {"ETag": tag}


@blp.route("/awards")
class Awards(MethodView):
    @blp.response(200, AwardsSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """Low Score, High Game and the bump cup (per player, per table, in all)."""
        tag, unchanged = revision_etag(event_id, "awards")
        return unchanged or (service.awards_and_bumps(event_id), 200, {"ETag": tag})


@blp.route("/players/<int:player_id>/scoresheet")
class Scoresheet(MethodView):
    @blp.response(200, ScoresheetSchema)
    def get(self, event_id, player_id):
        """A player's scoresheet: per round, table, partner, opponents and score."""
        return service.scoresheet(event_id, player_id)


@blp.route("/scoresheets")
class Scoresheets(MethodView):
    @blp.response(200, ScoresheetSchema(many=True))
    def get(self, event_id):
        """Every player's scoresheet (for printing)."""
        return service.all_scoresheets(event_id)


@blp.route("/tiebreak")
class Tiebreak(MethodView):
    @blp.arguments(TiebreakSchema)
    @blp.response(200, LeaderboardSchema)
    def put(self, body, event_id):
        """Record the order of entrants level on every tie-break (rock-paper-scissors, card
        draw, the organizer's decision); listed entrants are placed in this order
        (organizer)."""
        principal = require(event_id, ORGANIZER)
        service.set_manual_order(event_id, principal, body["order"])
        return service.leaderboard(event_id)


@blp.route("/audit")
class Audit(MethodView):
    @blp.arguments(AuditQuerySchema, location="query")
    @blp.response(200, AuditSchema(many=True))
    def get(self, query, event_id):
        """Changes after entry, newest first; filter by table or round (organizer)."""
        require(event_id, ORGANIZER)
        return audit_entries(event_id, query["table"], query["round"], query["limit"])
