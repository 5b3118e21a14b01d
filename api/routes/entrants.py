"""Players and teams: register, import, check in, withdraw, substitutes."""

from __future__ import annotations

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import client_address, require
from ..core.common import get_event
from ..core.keys import ORGANIZER
from ..league import league
from ..night import entrant_changes, entrant_import
from ..night import entrants as service
from ..night.schemas import (
    ImportedSchema,
    ImportSchema,
    PlayerCreateSchema,
    PlayerSchema,
    PlayerUpdateSchema,
    SubstituteCreateSchema,
    TeamCreateSchema,
    TeamSchema,
    TeamUpdateSchema,
)
from ..problems import Problem

blp = Blueprint("entrants", __name__, url_prefix="/api/events/<int:event_id>",
                description="Players and teams")


@blp.route("/players")
class Players(MethodView):
    @blp.response(200, PlayerSchema(many=True))
    def get(self, event_id):
        """Everyone registered, in registration order."""
        get_event(event_id)
        return service.list_players(event_id)

    @blp.arguments(PlayerCreateSchema)
    @blp.response(201, PlayerSchema)
    def post(self, body, event_id):
        """Register one player (individual formats; organizer)."""
        principal = require(event_id, ORGANIZER)
        return service.add_player(event_id, principal, body["name"], body["checked_in"],
                                  client_address(), body.get("people"), body["after_window"])


@blp.route("/players/<int:player_id>")
class PlayerById(MethodView):
    @blp.arguments(PlayerUpdateSchema, required=False)
    @blp.response(200, PlayerSchema)
    def patch(self, body, event_id, player_id):
        """Check a player in (after round 1 they are a late arrival), withdraw them, bring
        them back or fix their name (organizer)."""
        principal = require(event_id, ORGANIZER)
        return entrant_changes.update_player(event_id, principal, player_id, body)


@blp.route("/import")
class Import(MethodView):
    @blp.arguments(ImportSchema, location="json")
    @blp.doc(requestBody={"content": {"text/csv": {"schema": {"type": "string"}}}})
    @blp.response(201, ImportedSchema)
    def post(self, body, event_id):
        """Register a field from CSV (JSON {"csv": ...} or a text/csv body). Players: a 'name'
        column; teams: 'team,player1,player2' and optional 'substitutes' (';'-separated).
        A bad row is reported by its line and nothing is stored (organizer)."""
        principal = require(event_id, ORGANIZER)
        text = (body or {}).get("csv")
        if text is None:
            if request.is_json:
                raise Problem(422, "csv: Missing data for required field.",
                              errors={"csv": ["Missing data for required field."]})
            if request.mimetype != "text/csv":
                raise Problem(415, "Send the CSV as JSON {\"csv\": \"...\"} or with "
                              "Content-Type: text/csv.", code="unsupported-media-type")
            try:
                text = request.get_data().decode("utf-8")
            except UnicodeDecodeError:
                raise Problem(422, "The file is not UTF-8 text; save it as 'CSV UTF-8'.",
                              code="bad-csv") from None
        return entrant_import.import_csv(event_id, principal, text, client_address(),
                                  (body or {}).get("people"))


@blp.route("/teams")
class Teams(MethodView):
    @blp.response(200, TeamSchema(many=True))
    def get(self, event_id):
        """Every team with its players (and league substitutes)."""
        get_event(event_id)
        return service.list_teams(event_id)

    @blp.arguments(TeamCreateSchema)
    @blp.response(201, TeamSchema)
    def post(self, body, event_id):
        """Register a team of two (team formats; organizer)."""
        principal = require(event_id, ORGANIZER)
        return service.add_team(event_id, principal, body["name"], body["players"],
                                body["substitutes"], body["checked_in"], client_address(),
                                body.get("people"), body.get("division"),
                                body["after_window"])


@blp.route("/teams/<int:team_id>")
class TeamById(MethodView):
    @blp.arguments(TeamUpdateSchema, required=False)
    @blp.response(200, TeamSchema)
    def patch(self, body, event_id, team_id):
        """Check a team in, withdraw it, exclude it from the playoffs or rename it
        (organizer)."""
        principal = require(event_id, ORGANIZER)
        return entrant_changes.update_team(event_id, principal, team_id, body,
                                   reschedule=league.reschedule_season)


@blp.route("/teams/<int:team_id>/substitutes")
class Substitutes(MethodView):
    @blp.arguments(SubstituteCreateSchema)
    @blp.response(201, PlayerSchema)
    def post(self, body, event_id, team_id):
        """Add a substitute to a league team's list (organizer)."""
        principal = require(event_id, ORGANIZER)
        return entrant_changes.add_substitute(event_id, principal, team_id, body["name"],
                                      client_address())
