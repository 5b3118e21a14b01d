"""The API's shapes for feeds: a league's calendar setting and a team's calendar link."""

from __future__ import annotations

from marshmallow import fields

from ..core.schemas import Bool, Int, Schema

ICS_EXAMPLE = "https://euchre.example.org/api/events/12/teams/3/calendar.ics"


class CalendarSetSchema(Schema):
    private = Bool(required=True, metadata={
        "description": "true: the league's calendars are read only through each team's "
                       "secret link; false: anyone may subscribe (as anyone may read the "
                       "season)."})


class CalendarSchema(Schema):
    event_id = Int(required=True)
    private = Bool(required=True, metadata={
        "description": "Whether the league's calendars need a team's secret link."})
    ics = fields.String(required=True, allow_none=True, metadata={
        "description": "The event's feed (https); null while the calendars are private.",
        "example": "https://euchre.example.org/api/events/12/calendar.ics"})
    webcal = fields.String(required=True, allow_none=True, metadata={
        "description": "The same feed as a webcal:// link, which calendar apps subscribe to "
                       "when it is opened.",
        "example": "webcal://euchre.example.org/api/events/12/calendar.ics"})


class TeamCalendarSchema(Schema):
    event_id = Int(required=True)
    team_id = Int(required=True)
    private = Bool(required=True)
    ics = fields.String(required=True, allow_none=True, metadata={
        "description": "The team's feed: the public one, or the team's secret link when the "
                       "league's calendars are private (null if none was made yet or it was "
                       "revoked).", "example": ICS_EXAMPLE})
    webcal = fields.String(required=True, allow_none=True, metadata={
        "description": "The same as a webcal:// link.",
        "example": "webcal://euchre.example.org/api/events/12/teams/3/calendar.ics"})
