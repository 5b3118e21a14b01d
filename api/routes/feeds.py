"""Calendar feeds (RFC 5545 `.ics`, subscribable as webcal://): a league team's matches, an
event's nights and rounds, a club's nights; a league's calendar privacy and teams' links."""

from __future__ import annotations

import hashlib

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require, require_team
from ..core.common import get_event, get_team, preset_of
from ..core.keys import ORGANIZER
from ..feeds import links
from ..feeds.ical import MEDIA_TYPE, calendar_bytes, uid
from ..feeds.league_feeds import team_calendar
from ..feeds.nights_feeds import club_calendar, event_calendar
from ..feeds.schemas import CalendarSchema, CalendarSetSchema, TeamCalendarSchema
from ..league.forfeits import require_league
from . import examples
from .events import base_url

blp = Blueprint("feeds", __name__, url_prefix="/api",
                description="Calendar feeds (iCalendar, RFC 5545)")

ICS_DOC = {"responses": {"200": {
    "description": "An iCalendar (RFC 5545) feed, UTF-8. Each match, week, night or round keeps "
                   "its UID; a change raises its SEQUENCE. ETag/If-None-Match: 304.",
    "content": {"text/calendar": {"schema": {"type": "string"}, "example": examples.ICS}}}}}


def feed(name: str, calendar_uid: str, items) -> Response:
    body = calendar_bytes(name, calendar_uid, items)
    response = Response(body, content_type=MEDIA_TYPE)
    response.set_etag(hashlib.sha256(body).hexdigest()[:32])
    response.headers["Content-Disposition"] = 'inline; filename="calendar.ics"'
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def webcal(url: str | None) -> str | None:
    return None if url is None else "webcal://" + url.split("://", 1)[1]


def event_feed_url(event) -> str:
    return f"{base_url()}/api/events/{event.id}/calendar.ics"


def team_feed_url(event, team, token: str | None) -> str | None:
    if not event.calendar_private:
        return f"{base_url()}/api/events/{event.id}/teams/{team.id}/calendar.ics"
    return f"{base_url()}/api/calendars/{token}.ics" if token else None


def calendar_view(event) -> dict:
    url = None if event.calendar_private else event_feed_url(event)
    return {"event_id": event.id, "private": event.calendar_private, "ics": url,
            "webcal": webcal(url)}


def team_view(event, team, token: str | None) -> dict:
    url = team_feed_url(event, team, token)
    return {"event_id": event.id, "team_id": team.id, "private": event.calendar_private,
            "ics": url, "webcal": webcal(url)}


@blp.route("/events/<int:event_id>/calendar.ics")
class EventFeed(MethodView):
    @blp.doc(**ICS_DOC)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id):
        """The event's calendar: a league's weeks and playoff rounds on their nights; any
        other event's night and each round seated (from its start, in the event's time
        zone). A league whose calendars are private answers 403."""
        event = get_event(event_id)
        links.require_public(event)
        name, items = event_calendar(event)
        return feed(name, uid("event", event.code), items)


@blp.route("/events/<int:event_id>/teams/<int:team_id>/calendar.ics")
class TeamFeed(MethodView):
    @blp.doc(**ICS_DOC)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, event_id, team_id):
        """A league team's matches: opponent, table, night and start; a postponed or moved
        match is the same event with a higher SEQUENCE, a match that will not be played is
        STATUS:CANCELLED. A league whose calendars are private answers 403 (each team's
        secret link reads it)."""
        event = get_event(event_id)
        links.require_public(event)
        name, items = team_calendar(event, team_id)
        return feed(name, uid("team", event.code, team_id), items)


@blp.route("/calendars/<string:token>.ics")
class SecretTeamFeed(MethodView):
    @blp.doc(**ICS_DOC)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, token):
        """A team's calendar through its secret link (a private league's): the same feed as
        the team's public one. A link unknown or replaced is a 404."""
        team = links.team_by_token(token)
        event = get_event(team.event_id)
        name, items = team_calendar(event, team.id)
        return feed(name, uid("team", event.code, team.id), items)


@blp.route("/clubs/<int:club_id>/calendar.ics")
class ClubFeed(MethodView):
    @blp.doc(**ICS_DOC)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, club_id):
        """The club's nights: a league's weeks and playoff rounds at their start time, any
        other night as a whole day on its date (nights set aside are left out)."""
        name, items = club_calendar(club_id)
        return feed(name, uid("club", club_id), items)


@blp.route("/events/<int:event_id>/calendar")
class EventCalendar(MethodView):
    @blp.response(200, CalendarSchema, example=examples.CALENDAR)
    def get(self, event_id):
        """Whether the event's calendars are private, and its feed's links when they are
        not (anyone: the event page's "Add to calendar")."""
        return calendar_view(get_event(event_id))

    @blp.arguments(CalendarSetSchema)
    @blp.response(200, CalendarSchema)
    def put(self, body, event_id):
        """Make a league's calendars private (each team's secret link reads its own) or
        public again (organizer). Audited."""
        principal = require(event_id, ORGANIZER)
        return calendar_view(links.set_private(event_id, principal, body["private"]))


@blp.route("/events/<int:event_id>/teams/<int:team_id>/calendar")
class TeamCalendar(MethodView):
    @blp.response(200, TeamCalendarSchema)
    def get(self, event_id, team_id):
        """The team's calendar link: the public feed, or in a private league the team's
        secret link (the captain's team key, or the organizer)."""
        require_team(event_id, team_id)
        event = get_event(event_id)
        require_league(preset_of(event))  # only a league's teams have a feed to link
        team = get_team(event, team_id)
        return team_view(event, team, links.current_token(team))

    @blp.response(201, TeamCalendarSchema)
    def post(self, event_id, team_id):
        """A new secret link for the team's calendar; the old one stops working at once
        (the captain's team key, or the organizer). Audited."""
        principal = require_team(event_id, team_id)
        team, token = links.new_team_link(event_id, principal, team_id)
        return team_view(get_event(event_id), team, token)

    @blp.response(200, TeamCalendarSchema)
    def delete(self, event_id, team_id):
        """Revoke the team's secret link without making another (the captain's team key,
        or the organizer). Audited."""
        principal = require_team(event_id, team_id)
        team = links.revoke_team_link(event_id, principal, team_id)
        return team_view(get_event(event_id), team, None)
