"""Reading an event: the live leaderboard (ETag/304), awards, scoresheets, the audit log."""

from __future__ import annotations

import functools
import json

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
    StandingRowSchema,
    TiebreakSchema,
)
from ..services import standings as service
from ..services.common import audit_entries
from ..services.standings import RoundsView

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
        if name == "board":
            response.vary.add("Accept-Encoding")
        return tag, response
    return tag, None


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header takes gzip (every browser's does)."""
    weights = {}
    for part in (accept_encoding or "").split(","):
        coding, _, params = part.partition(";")
        params = params.strip().lower()
        try:
            weights[coding.strip().lower()] = float(params[2:]) if params.startswith("q=") \
                else 1.0
        except ValueError:
            weights[coding.strip().lower()] = 0.0
    return weights.get("gzip", weights.get("*", 0.0)) > 0


_BOARD_FIELDS = list(LeaderboardSchema().fields)
_PLAIN = ("rows", "ties")  # plain ints, strings, bools, lists and dicts already
_BOARD_HEAD = LeaderboardSchema(exclude=_PLAIN)
_ROW_KEYS = [(name, f'"{name}":') for name in StandingRowSchema().fields]


def board_body(board: dict) -> bytes:
    """The leaderboard as JSON bytes, exactly as its schema would dump it, made once per
    revision (a big event's is 1 MB).

    Only the small head goes through marshmallow: the rows (one per entrant, 2,000 in a big
    event) and the ties are plain values already, so they are written out directly, and each
    row's rounds (most of the bytes) keep their JSON between revisions (RoundsView). Dumping
    the rows field by field cost 20 ms for 800 players. Under TESTING the schema's own dump is
    compared with this one, so every API test that reads a leaderboard checks they agree.
    """
    dumps = functools.partial(current_app.json.dumps, separators=(",", ":"))
    head = _BOARD_HEAD.dump(board)
    parts = []
    for name in _BOARD_FIELDS:
        if name == "rows":
            text = "[" + ",".join(_row_json(row, dumps) for row in board["rows"]) + "]"
        elif name in _PLAIN:
            if name not in board:
                continue
            text = dumps(board[name])
        elif name in head:
            text = dumps(head[name])
        else:
            continue
        parts.append(f'"{name}":{text}')
    body = ("{" + ",".join(parts) + "}\n").encode()
    if current_app.testing:
        schema = current_app.json.response(LeaderboardSchema().dump(board)).get_data()
        assert json.loads(body) == json.loads(schema), "the fast dump differs from the schema's"
        assert current_app.debug or body == schema, "the fast dump's bytes differ"
    return body


def _row_json(row: dict, dumps) -> str:
    rounds = row["rounds"]
    if type(rounds) is RoundsView:  # kept between revisions: so is the row's JSON, until
        values = list(row.values())  # any of its values changes (its place, say)
        if rounds.row is not None and rounds.row[0] == values:
            return rounds.row[1]
    text = "{" + ",".join(key + _value(row[name], dumps) for name, key in _ROW_KEYS) + "}"
    if type(rounds) is RoundsView:
        rounds.row = (values, text)
    return text


def _value(value, dumps) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is RoundsView:
        if value.json is None:
            value.json = dumps(value)
        return value.json
    if not value and (kind is list or kind is dict):
        return "[]" if kind is list else "{}"
    return dumps(value)


@blp.route("/leaderboard")
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """The live standings. Poll with If-None-Match: a 304 costs almost nothing."""
        tag, unchanged = revision_etag(event_id, "board")
        if unchanged:
            return unchanged
        gzipped = accepts_gzip(request.headers.get("Accept-Encoding"))
        response = current_app.response_class(
            service.leaderboard_body(event_id, board_body, gzipped), mimetype="application/json")
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
