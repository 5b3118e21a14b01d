"""The league: season schedule, forfeits, substitutes, playoff bracket."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require, require_key
from ..core.common import get_event, get_match
from ..core.keys import ORGANIZER
from ..league import changes, forfeits, playoffs
from ..league import league as service
from ..league.forfeit_schemas import ForfeitCreateSchema, ForfeitResultSchema
from ..league.schemas import (
    BracketSchema,
    MakeUpSchema,
    MoveMatchSchema,
    PlayoffNightsSchema,
    PostponeSchema,
    SeasonCreateSchema,
    SeasonSchema,
    SeatChangeSchema,
)
from ..rounds.round_view import round_view
from ..rounds.schemas import RoundTableSchema

blp = Blueprint("league", __name__, url_prefix="/api", description="League play")


@blp.route("/events/<int:event_id>/season")
class Season(MethodView):
    @blp.response(200, SeasonSchema)
    def get(self, event_id):
        """The season by week: who meets whom, byes, results, forfeits and offences."""
        return service.season_view(get_event(event_id))

    @blp.arguments(SeasonCreateSchema, required=False)
    @blp.response(201, SeasonSchema)
    def post(self, body, event_id):
        """Schedule the season: a round robin of the registered teams (organizer)."""
        principal = require(event_id, ORGANIZER)
        return service.season_view(service.create_season(
            event_id, principal, body["weeks"], body["first_night"], body["start_time"],
            body["division_final"]))


@blp.route("/events/<int:event_id>/season/postpone")
class Postpone(MethodView):
    @blp.arguments(PostponeSchema)
    @blp.response(200, SeasonSchema)
    def post(self, body, event_id):
        """A league night is cancelled (organizer). By default, as the league rules say, every
        other week keeps its night and the cancelled week is made up at the end (a week after
        the last night, or on `date`); `"mode": "shift"` moves it and every later week one
        league night on instead. Audited; the season view lists what moved and why."""
        principal = require(event_id, ORGANIZER)
        return service.season_view(changes.cancel_night(
            event_id, principal, body["week"], body["reason"], body["mode"], body["date"]))


@blp.route("/events/<int:event_id>/season/playoff-nights")
class PlayoffNights(MethodView):
    @blp.arguments(PlayoffNightsSchema)
    @blp.response(200, BracketSchema)
    def put(self, body, event_id):
        """Give playoff rounds their nights (organizer): several rounds may share a night,
        any round may have its own date; a round given null goes back to a week after the
        round before it. A playoff match moves alone with /season/move-match. Audited."""
        principal = require(event_id, ORGANIZER)
        event = changes.set_playoff_nights(event_id, principal, body["nights"], body["reason"])
        return playoffs.bracket_view(event)


@blp.route("/events/<int:event_id>/season/make-up")
class MakeUp(MethodView):
    @blp.arguments(MakeUpSchema)
    @blp.response(200, SeasonSchema)
    def post(self, body, event_id):
        """A league night is cancelled and that week alone is made up on another night (by
        default a week after the last); the other weeks stay (organizer). Audited."""
        principal = require(event_id, ORGANIZER)
        return service.season_view(changes.make_up(event_id, principal, body["week"],
                                                   body["reason"], body["date"]))


@blp.route("/events/<int:event_id>/season/move-match")
class MoveMatch(MethodView):
    @blp.arguments(MoveMatchSchema)
    @blp.response(200, SeasonSchema)
    def post(self, body, event_id):
        """One match is played on another night; its week stays (organizer). A playoff match
        too, after the season's last night and not before its round's previous round.
        Audited."""
        principal = require(event_id, ORGANIZER)
        return service.season_view(changes.move_match(event_id, principal, body["match_id"],
                                                      body["date"], body["reason"]))


@blp.route("/events/<int:event_id>/bracket")
class Bracket(MethodView):
    @blp.response(200, BracketSchema)
    def get(self, event_id):
        """The playoff bracket to the final: seeds, byes, each match's games and winner; before
        the draw, the bracket the standings would give now."""
        return playoffs.bracket_view(get_event(event_id))


@blp.route("/matches/<int:match_id>/forfeits")
class Forfeits(MethodView):
    @blp.arguments(ForfeitCreateSchema)
    @blp.response(201, ForfeitResultSchema)
    def post(self, body, match_id):
        """Record a forfeit: late (with minutes, or measured from the night's start time),
        no show or one player; the games it costs and the offence it counts. Before the
        week starts it is an advance forfeit (a no show or one player), shown on the
        opponent's schedule at once, its games forfeited and its offence counted when the
        week starts (organizer)."""
        require_key()
        principal = require(get_match(match_id).event_id, ORGANIZER)
        return forfeits.record_forfeit(match_id, principal, body["team_id"], body["reason"],
                                      body["minutes_late"], body["note"])


@blp.route("/matches/<int:match_id>/seats")
class Seats(MethodView):
    @blp.arguments(SeatChangeSchema)
    @blp.response(200, RoundTableSchema)
    def put(self, body, match_id):
        """Seat a substitute (regular season only) or a roster player (organizer)."""
        require_key()
        principal = require(get_match(match_id).event_id, ORGANIZER)
        match = service.set_seat(match_id, principal, body["seat"], body["player_id"])
        view = round_view(match.round)
        return next(t for t in view["tables"] if t["match_id"] == match.id)
