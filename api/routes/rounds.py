"""Rounds: preview and seat the next one, the clock, calling time, closing."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require, require_key
from ..core.common import get_event, get_round
from ..core.keys import ORGANIZER
from ..rounds import rounds as service
from ..rounds import seat_changes
from ..rounds.round_view import list_rounds, round_view
from ..rounds.schemas import (
    ClockStartSchema,
    PlanSchema,
    PreviewArgsSchema,
    RoundCreateSchema,
    RoundSchema,
    RoundSwapSchema,
)

blp = Blueprint("rounds", __name__, url_prefix="/api", description="Rounds and seating")


@blp.route("/events/<int:event_id>/rounds")
class Rounds(MethodView):
    @blp.response(200, RoundSchema(many=True))
    def get(self, event_id):
        """Every round (league weeks included), each with its tables and progress."""
        get_event(event_id)
        return [round_view(r) for r in list_rounds(event_id)]

    @blp.arguments(RoundCreateSchema, required=False)
    @blp.response(201, RoundSchema)
    def post(self, body, event_id):
        """Seat the next round by the format's movement (or open the next league week, or the
        next playoff stage). Send the number you expect, so a repeat seats nothing
        (organizer)."""
        principal = require(event_id, ORGANIZER)
        return round_view(service.seat_next_round(event_id, principal, body["number"],
                                                  body.get("balanced", False)))


@blp.route("/events/<int:event_id>/rounds/next")
class NextRound(MethodView):
    @blp.arguments(PreviewArgsSchema, location="query")
    @blp.response(200, PlanSchema)
    def get(self, args, event_id):
        """Preview the next round's seating without storing it (organizer). When no round
        can be seated now, `ready` is false and `reason` says why (seating would be a 409)."""
        require(event_id, ORGANIZER)
        return service.preview(get_event(event_id), args["balanced"])


@blp.route("/rounds/<int:round_id>")
class RoundById(MethodView):
    @blp.response(200, RoundSchema)
    def get(self, round_id):
        """A round's tables, seats, games and progress."""
        return round_view(get_round(round_id))


@blp.route("/rounds/<int:round_id>/time")
class CallTime(MethodView):
    @blp.response(200, RoundSchema)
    def post(self, round_id):
        """Call time: unfinished games end with the hands played (organizer)."""
        require_key()
        principal = require(get_round(round_id).event_id, ORGANIZER)
        return round_view(service.call_time(round_id, principal))


@blp.route("/rounds/<int:round_id>/clock")
class Clock(MethodView):
    @blp.arguments(ClockStartSchema, required=False)
    @blp.response(200, RoundSchema)
    def post(self, body, round_id):
        """Start (or restart) the round clock (organizer)."""
        require_key()
        principal = require(get_round(round_id).event_id, ORGANIZER)
        return round_view(service.start_clock(round_id, principal, body["minutes"]))


@blp.route("/rounds/<int:round_id>/close")
class Close(MethodView):
    @blp.response(200, RoundSchema)
    def post(self, round_id):
        """Close the round once every game is finished (organizer)."""
        require_key()
        principal = require(get_round(round_id).event_id, ORGANIZER)
        return round_view(service.close_round(round_id, principal))


@blp.route("/rounds/<int:round_id>/reopen")
class Reopen(MethodView):
    @blp.response(200, RoundSchema)
    def post(self, round_id):
        """Reopen the latest round for corrections (organizer)."""
        require_key()
        principal = require(get_round(round_id).event_id, ORGANIZER)
        return round_view(service.reopen_round(round_id, principal))


@blp.route("/rounds/<int:round_id>/swap")
class Swap(MethodView):
    @blp.arguments(RoundSwapSchema)
    @blp.response(200, RoundSchema)
    def post(self, body, round_id):
        """Swap two seated entrants (players, or teams in a team format), at one table or
        across two, before either table's first hand; refused (409, naming the table) once
        anything is recorded there (organizer)."""
        require_key()
        principal = require(get_round(round_id).event_id, ORGANIZER)
        seat_changes.swap_entrants(round_id, principal, body["a"], body["b"])
        return round_view(get_round(round_id))
