"""Rosters captains keep: the team registration link, the captain's team key, the team's
schedule, roster changes and advance forfeits (announced, and taken back)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import RAISE

from ..auth import client_address, require, require_team
from ..core.common import get_event
from ..core.keys import ORGANIZER
from ..league import captains as service
from ..league import link_teams, rosters, take_back
from ..league.forfeit_schemas import (
    AdvanceForfeitSchema,
    ForfeitResultSchema,
    ForfeitTakenBackSchema,
)
from ..league.schemas import (
    CaptainRegisteredSchema,
    CaptainRegisterSchema,
    LinkTeamsRemovedSchema,
    LinkTeamsRemoveSchema,
    RegistrationPageSchema,
    RegistrationQuerySchema,
    RegistrationSchema,
    RegistrationSetSchema,
    RosterUpdateSchema,
    TeamKeyIssuedSchema,
    TeamScheduleSchema,
)
from .events import base_url

blp = Blueprint("captains", __name__, url_prefix="/api",
                description="League teams' captains: registration, rosters, forfeits")


def captain_link(team, secret: str) -> str:
    return f"{base_url()}/e/{team.event_id}/team/{team.id}#key={secret}"


def registration(event) -> dict:
    view = service.registration_view(event)
    token = view["token"]
    view["link"] = f"{base_url()}/register/{event.code}#t={token}" if token else None
    return view


@blp.route("/events/<int:event_id>/registration")
class Registration(MethodView):
    @blp.response(200, RegistrationSchema)
    def get(self, event_id):
        """The team registration link (for its QR), its deadline and the roster lock week
        (organizer)."""
        require(event_id, ORGANIZER)
        return registration(get_event(event_id))

    @blp.arguments(RegistrationSetSchema, required=False)
    @blp.response(200, RegistrationSchema)
    def put(self, body, event_id):
        """Open captains' registration (the link is made the first time, or anew with
        rotate), set its deadline in the event's time zone and the week after which rosters
        are final (organizer)."""
        principal = require(event_id, ORGANIZER)
        return registration(service.set_registration(event_id, principal, body or {}))


@blp.route("/register/<string:code>")
class RegisterPage(MethodView):
    @blp.arguments(RegistrationQuerySchema, location="query", unknown=RAISE)
    @blp.response(200, RegistrationPageSchema)
    def get(self, query, code):
        """The registration page: the league, whether registration is open and until when.
        Needs the token of the registration link (a wrong or old one is a 403)."""
        return service.public_view(code, query["token"])

    @blp.arguments(CaptainRegisterSchema)
    @blp.response(201, CaptainRegisteredSchema)
    def post(self, body, code):
        """A captain registers a team (its name, two players, substitutes, and its division
        when the organizer offers divisions) until the deadline. The answer carries the team
        key once: it edits the roster until it is final and announces forfeits. Needs the
        link's token."""
        team, secret = service.register(code, body["token"], body["name"], body["players"],
                                         body["substitutes"], client_address(),
                                         body["division"])
        return {"event_id": team.event_id, "team": team, "key": secret,
                "link": captain_link(team, secret)}


@blp.route("/events/<int:event_id>/teams/<int:team_id>/key")
class TeamKey(MethodView):
    @blp.response(201, TeamKeyIssuedSchema)
    def post(self, event_id, team_id):
        """A new team key for the team's captain, shown once; the team's earlier keys stop
        working (organizer)."""
        principal = require(event_id, ORGANIZER)
        team, secret = service.issue_team_key(event_id, principal, team_id)
        return {"team_id": team.id, "key": secret, "link": captain_link(team, secret)}


@blp.route("/events/<int:event_id>/teams/<int:team_id>/schedule")
class TeamSchedule(MethodView):
    @blp.response(200, TeamScheduleSchema)
    def get(self, event_id, team_id):
        """A team's season: each night, opponent, table, result and points, every forfeit
        (advance ones too), its roster and whether it is final."""
        return rosters.team_schedule(get_event(event_id), team_id)


@blp.route("/events/<int:event_id>/teams/<int:team_id>/roster")
class Roster(MethodView):
    @blp.arguments(RosterUpdateSchema, required=False)
    @blp.response(200, TeamScheduleSchema)
    def put(self, body, event_id, team_id):
        """Change the team's name, players or substitutes: the captain (team key) until the
        roster is final, the organizer always."""
        principal = require_team(event_id, team_id)
        team = rosters.update_roster(event_id, team_id, principal, body or {})
        return rosters.team_schedule(get_event(event_id), team.id)


@blp.route("/events/<int:event_id>/teams/<int:team_id>/advance-forfeits")
class AdvanceForfeits(MethodView):
    @blp.arguments(AdvanceForfeitSchema)
    @blp.response(201, ForfeitResultSchema)
    def post(self, body, event_id, team_id):
        """The team cannot come on a week's night: the opponent sees it now, the match's games
        are forfeited when the week starts and count in the standings from then, and so does
        the offence; sent again, it is recorded once (the captain's team key, or the
        organizer)."""
        principal = require_team(event_id, team_id)
        return rosters.announce_forfeit(event_id, team_id, principal, body["week"],
                                        body["note"])


@blp.route("/events/<int:event_id>/teams/<int:team_id>/advance-forfeits/<int:week>")
class AdvanceForfeit(MethodView):
    @blp.response(200, ForfeitTakenBackSchema)
    def delete(self, event_id, team_id, week):
        """Take back the team's forfeit announced for a week that has not started (it found a
        substitute): the team plays that week, nothing of the forfeit counts, the opponent's
        schedule and calendar show the match again; audited. Sent again, answered the same.
        Once the week has started the forfeit stands (409 forfeit-stands: only a ruling on a
        game changes its result). The captain's team key, or the organizer."""
        principal = require_team(event_id, team_id)
        return take_back.take_back(event_id, team_id, principal, week)


@blp.route("/events/<int:event_id>/registration/remove-teams")
class RemoveLinkTeams(MethodView):
    @blp.arguments(LinkTeamsRemoveSchema, required=False)
    @blp.response(200, LinkTeamsRemovedSchema)
    def post(self, body, event_id):
        """Remove in one step the teams captains registered through the link (since a time,
        when given), before the season is scheduled: a squatter's teams, with their players
        and team keys. Teams the organizer added stay (organizer)."""
        principal = require(event_id, ORGANIZER)
        return link_teams.remove_link_teams(event_id, principal, (body or {}).get("since"))
