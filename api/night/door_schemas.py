"""The API's shapes for the door: the check-in window and self check-in (RULES.md §4)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..core.schemas import Bool, Int, Name, Schema, refuse
from ..people.schemas import PeopleDecisions


class LocalTimeField(fields.Field):
    """A time the organizer types: '18:30' (on the venue's today) or '2026-12-07T18:30' (the
    venue's local time, or with an offset such as -05:00). Null clears it."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"type": "string", "example": "2026-12-07T18:30",
                                   "description": kwargs.pop("description", "")}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        wrong = ma.ValidationError("Give a time such as '18:30', or a date and time such as "
                                   "'2026-12-07T18:30', in the event's time zone.")
        if not isinstance(value, str) or ":" not in value or len(value) > 40:
            raise wrong
        text = value.strip()
        try:
            if len(text) <= 8:  # a time of day: 18:30, 6:30, 18:30:00
                return fields.Time().deserialize(text.zfill(5) if text.index(":") == 1
                                                 else text)
            moment = fields.DateTime().deserialize(text)
        except ma.ValidationError:
            raise wrong from None
        if not 2000 <= moment.year <= 2100:
            raise ma.ValidationError("Give a date between the years 2000 and 2100.")
        return moment


class CheckInWindowSetSchema(Schema):
    opens = LocalTimeField(required=True, allow_none=True,
                           description="When check-in opens (null: open until it closes).")
    closes = LocalTimeField(required=True, allow_none=True, description=(
        "When check-in closes: after it only the organizer checks someone in, one person at "
        "a time (after_window). Null: no closing time."))


class CheckInWindowSchema(Schema):
    time_zone = fields.String(required=True)
    opens = fields.String(required=True, allow_none=True, metadata={
        "description": "Local time in the event's time zone, e.g. 2026-12-07T18:30."})
    closes = fields.String(required=True, allow_none=True)
    opens_at = fields.DateTime(required=True, allow_none=True, metadata={"description": "UTC."})
    closes_at = fields.DateTime(required=True, allow_none=True)
    opens_words = fields.String(required=True, allow_none=True, metadata={
        "description": "e.g. '6:30 pm' (with the day when it is not today)."})
    closes_words = fields.String(required=True, allow_none=True)
    state = fields.String(required=True, validate=validate.OneOf(
        ["not-set", "not-yet", "open", "closed"]))
    message = fields.String(required=True, metadata={
        "description": "The state in a sentence, e.g. 'Check-in closed at 6:50 pm.'"})


class DoorTokenSchema(Schema):
    token = fields.String(required=True, allow_none=True, metadata={
        "description": "The door code the door QR carries; null until one is made."})
    link = fields.String(required=True, allow_none=True, metadata={
        "description": "The self check-in page's address, for the door QR."})


class DoorQuerySchema(Schema):
    token = fields.String(required=True, validate=validate.Length(1, 64), metadata={
        "description": "The door code from the door QR."})
    request = fields.Integer(validate=validate.Range(1, 2**31 - 1), metadata={
        "description": "A request to be added made from this phone: how it stands."})


class DoorNameSchema(Schema):
    player_id = Int(required=True)
    name = fields.String(required=True)
    team = fields.String(required=True, allow_none=True)


class DoorRequestSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ["waiting", "accepted", "declined"]))
    created_at = fields.DateTime(required=True)
    decided_at = fields.DateTime(required=True, allow_none=True)
    player_id = Int(required=True, allow_none=True)
    checked_in_at = fields.DateTime(required=True, allow_none=True)
    time = fields.String(required=True, allow_none=True, metadata={
        "description": "When the player was checked in, local: '6:41 pm'."})
    table = Int(required=True, allow_none=True)
    same_network = Int(allow_none=True, metadata={
        "description": "Organizer's list: how many waiting requests came from the same "
                       "network as this one (itself included); null once decided."})


class DoorSchema(Schema):
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    code = fields.String(required=True)
    team_entry = Bool(required=True)
    requests = Bool(required=True, metadata={
        "description": "Whether someone not on the list may ask to be added here."})
    window = fields.Nested(CheckInWindowSchema, required=True)
    names = fields.List(fields.Nested(DoorNameSchema), required=True, metadata={
        "description": "Registered players not checked in yet, A to Z (a team's players "
                       "with its name)."})
    request = fields.Nested(DoorRequestSchema, required=True, allow_none=True)


class DoorCheckInSchema(Schema):
    token = fields.String(required=True, validate=validate.Length(1, 64))
    player_id = Int(required=True, validate=validate.Range(1, 2**31 - 1))


class DoorCheckedInSchema(Schema):
    player_id = Int(required=True)
    name = fields.String(required=True)
    team = fields.String(required=True, allow_none=True)
    checked_in_at = fields.DateTime(required=True)
    time = fields.String(required=True, metadata={"description": "Local: '6:41 pm'."})
    late = Bool(required=True)
    table = Int(required=True, allow_none=True)
    message = fields.String(required=True)


class DoorAskSchema(Schema):
    token = fields.String(required=True, validate=validate.Length(1, 64))
    name = Name(required=True)


class DoorDecisionSchema(Schema):
    accept = Bool(required=True)
    name = Name(metadata={"description": "Add them under this name instead (accepting)."})
    people = PeopleDecisions()


class DoorDeclineManySchema(Schema):
    like = Int(validate=validate.Range(1, 2**31 - 1), metadata={
        "description": "Decline the waiting requests made from the same network as this "
                       "request (itself included)."})
    since = fields.DateTime(validate=lambda moment: 2000 <= moment.year <= 2100 or refuse(
        "Give a date between the years 2000 and 2100."), metadata={
        "description": "Decline the waiting requests made at this time or later (without an "
                       "offset: the event's time zone). Neither given: every waiting one."})


class DoorDeclinedSchema(Schema):
    declined = Int(required=True, metadata={"description": "How many were declined."})
    names = fields.List(fields.String(), required=True)
