"""The API's shapes for league forfeits: one recorded (by the organizer, or announced ahead by
a captain), its answer, and a forfeit announced ahead taken back."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import Bool, Int, Schema, TextField
from ..games.schemas import GameMatchSchema


class ForfeitCreateSchema(Schema):
    team_id = Int(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(
        ["late", "no-show", "one-player"]))
    minutes_late = Int(load_default=None, allow_none=True, validate=validate.Range(0, 600),
                       metadata={"description": "For 'late': without it, measured from the "
                                 "night's start time to now."})
    note = TextField(load_default=None, allow_none=True, max_length=500)


class AdvanceForfeitSchema(Schema):
    week = Int(required=True, validate=validate.Range(1, 60))
    note = TextField(load_default=None, allow_none=True, max_length=500)


class ForfeitResultSchema(Schema):
    games = fields.List(Int(), required=True)
    offences = Int(required=True, metadata={
        "description": "The team's offences so far: its weeks with a forfeit that have "
                       "started (a week forfeited ahead counts from its start)."})
    status = fields.String(required=True)
    offence = Int(metadata={"description": "The offence this forfeit is, or becomes when its "
                            "week starts."})
    counted = Bool(metadata={"description": "Its week has started, so it is an offence now."})
    message = fields.String(required=True)
    minutes_late = Int(allow_none=True)
    advance = Bool(metadata={"description": "Recorded before the night."})
    match = fields.Nested(GameMatchSchema, required=True)


class ForfeitTakenBackSchema(Schema):
    team_id = Int(required=True)
    name = fields.String(required=True, metadata={"description": "The team's name."})
    week = Int(required=True)
    match_id = Int(required=True, metadata={"description": "The match the team plays after "
                                            "all."})
    taken_back = Bool(required=True, metadata={
        "description": "Always true: the forfeit is gone (sent again, the same answer)."})
    offences = Int(required=True, metadata={
        "description": "The team's offences so far: its weeks with a forfeit that have "
                       "started."})
    status = fields.String(required=True)
    ahead = fields.List(Int(), required=True, metadata={
        "description": "The weeks the team still forfeits ahead, in the order they become "
                       "offences."})
    message = fields.String(required=True, metadata={
        "description": "What taking it back did, and the offence each week still forfeited "
                       "ahead becomes when it starts, in words."})
