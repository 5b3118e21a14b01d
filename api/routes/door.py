"""The check-in window, the door code and self check-in at the door."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import RAISE

from ..auth import client_address, require
from ..core.common import get_event
from ..core.keys import ORGANIZER
from ..leaderboard.body import revision_etag
from ..night import door, self_check_in
from ..night.door_schemas import (
    CheckInWindowSchema,
    CheckInWindowSetSchema,
    DoorAskSchema,
    DoorCheckedInSchema,
    DoorCheckInSchema,
    DoorDecisionSchema,
    DoorDeclinedSchema,
    DoorDeclineManySchema,
    DoorQuerySchema,
    DoorRequestSchema,
    DoorSchema,
    DoorTokenSchema,
)
from .events import base_url

blp = Blueprint("door", __name__, url_prefix="/api",
                description="Check-in window and self check-in at the door")


def token_view(event) -> dict:
    token = event.door_token
    return {"token": token,
            "link": f"{base_url()}/door/{event.code}#t={token}" if token else None}


@blp.route("/events/<int:event_id>/check-in-window")
class CheckInWindow(MethodView):
    @blp.response(200, CheckInWindowSchema)
    def get(self, event_id):
        """When check-in opens and closes, in UTC and in the event's local time, and whether
        it is open now."""
        return door.window_view(get_event(event_id))

    @blp.arguments(CheckInWindowSetSchema)
    @blp.response(200, CheckInWindowSchema)
    def put(self, body, event_id):
        """Set the check-in window in the event's time zone ('18:30' is today; null clears
        an end). After it closes only the organizer checks someone in, with after_window
        (organizer)."""
        principal = require(event_id, ORGANIZER)
        return door.window_view(door.set_window(event_id, principal, body["opens"],
                                                body["closes"]))


@blp.route("/events/<int:event_id>/door-token")
class DoorToken(MethodView):
    @blp.response(200, DoorTokenSchema)
    def get(self, event_id):
        """The door code and the self check-in link for the door QR; null until made
        (organizer)."""
        require(event_id, ORGANIZER)
        return token_view(get_event(event_id))

    @blp.response(200, DoorTokenSchema)
    def post(self, event_id):
        """Make a new door code: the door QR printed or shown before stops working
        (organizer)."""
        principal = require(event_id, ORGANIZER)
        return token_view(door.rotate_token(event_id, principal))


@blp.route("/events/<int:event_id>/door-requests")
class DoorRequests(MethodView):
    @blp.response(200, DoorRequestSchema(many=True),
                  headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """Requests to be added made at the door: the waiting ones first. Poll with
        If-None-Match: the ETag is the event's revision, so it also changes when someone
        checks in (organizer)."""
        require(event_id, ORGANIZER)
        tag, unchanged = revision_etag(event_id, "door")
        if unchanged:
            return unchanged
        return self_check_in.list_requests(event_id), 200, {"ETag": tag}


@blp.route("/events/<int:event_id>/door-requests/decline")
class DoorRequestsDecline(MethodView):
    @blp.arguments(DoorDeclineManySchema, required=False)
    @blp.response(200, DoorDeclinedSchema)
    def post(self, body, event_id):
        """Decline a flood of waiting requests at once: those from the same network as one
        request (like), those made since a time (since), or every waiting one (organizer)."""
        principal = require(event_id, ORGANIZER)
        body = body or {}
        return self_check_in.decline_many(event_id, principal, body.get("like"),
                                          body.get("since"))


@blp.route("/events/<int:event_id>/door-requests/<int:request_id>")
class DoorRequestById(MethodView):
    @blp.arguments(DoorDecisionSchema)
    @blp.response(200, DoorRequestSchema)
    def post(self, body, event_id, request_id):
        """Accept a request (the person is added and checked in; `name` corrects the name)
        or decline it (organizer)."""
        principal = require(event_id, ORGANIZER)
        return self_check_in.decide(event_id, principal, request_id, body["accept"],
                                    body.get("name"), body.get("people"), client_address())


@blp.route("/door/<string:code>")
class Door(MethodView):
    @blp.arguments(DoorQuerySchema, location="query", unknown=RAISE)
    @blp.response(200, DoorSchema)
    def get(self, query, code):
        """The door page: the event, the check-in window and the names still to check in.
        Needs the door code from the door QR (a wrong or old one is a 403)."""
        return self_check_in.door_view(code, query["token"], query.get("request"))


@blp.route("/door/<string:code>/check-in")
class DoorCheckIn(MethodView):
    @blp.arguments(DoorCheckInSchema)
    @blp.response(200, DoorCheckedInSchema)
    def post(self, body, code):
        """Check yourself in (in a team event, your team) inside the check-in window, with
        the door code. Check-ins made are limited per client address at the event (429
        with Retry-After); a wrong code or a second tap is not counted."""
        return self_check_in.check_in(code, body["token"], body["player_id"], client_address())


@blp.route("/door/<string:code>/requests")
class DoorAsk(MethodView):
    @blp.arguments(DoorAskSchema)
    @blp.response(201, DoorRequestSchema)
    def post(self, body, code):
        """Not on the list? Ask to be added; the organizer accepts or declines (individual
        events, inside the window). Requests waiting at once are limited per client address
        and per event (429 with Retry-After)."""
        req, event = self_check_in.ask(code, body["token"], body["name"], client_address())
        return self_check_in.request_view(req, event)
