"""The API's shapes for what the organizer decides about a game (rulings, protests) and a
table's calls to the organizer."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import Bool, Int, Schema, Side, TextField
from .schemas import GameSchema, ProtestSchema, RulingSchema

REASON = {"max_length": 300, "min_length": 1}


class RulingCreateSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(
        ["adjust", "forfeit", "protest_upheld", "protest_rejected"]))
    side = Side(load_default=None, allow_none=True, metadata={
        "description": "The side the points go to (adjust) or that forfeits (forfeit, "
                       "protest_upheld)."})
    points = Int(load_default=None, allow_none=True, validate=validate.Range(-100, 100),
                 metadata={"description": "adjust only: points to the side (negative takes "
                                          "them away)."})
    reason = TextField(required=True, **REASON)


class RulingWithdrawSchema(Schema):
    reason = TextField(required=True, **REASON)


class RulingResultSchema(RulingSchema):
    game = fields.Nested(GameSchema, required=True, metadata={
        "description": "The game with the ruling counted."})


class ProtestCreateSchema(Schema):
    player_id = Int(required=True, metadata={
        "description": "The opposing player whose eligibility is protested."})
    grounds = TextField(required=True, **REASON)


class ProtestRulingSchema(Schema):
    upheld = Bool(required=True, metadata={
        "description": "true: the protested team forfeits the game; false: the result "
                       "stands."})
    reason = TextField(required=True, **REASON)


class ProtestRuledSchema(ProtestSchema):
    ruling = Int(required=True, metadata={"description": "The ruling made on the game."})
    game = fields.Nested(GameSchema, required=True)


class AnsweredBySchema(Schema):
    key_id = Int(required=True)
    label = fields.String(required=True)


class CallSchema(Schema):
    id = Int(required=True)
    event_id = Int(required=True)
    game_id = Int(required=True)
    table = Int(required=True)
    round_number = Int(required=True)
    round_label = fields.String(required=True, metadata={
        "description": "The round's name ('Round 2', 'Week 3')."})
    round_closed = Bool(required=True, metadata={
        "description": "Whether the game's round is closed: a call about a correction after "
                       "the round, say."})
    called_at = fields.DateTime(required=True)
    waiting = Bool(required=True)
    age_seconds = Int(required=True, metadata={"description": "Seconds since the call."})
    waited_seconds = Int(required=True, metadata={
        "description": "Seconds it waited (until answered, or until now)."})
    answered_at = fields.DateTime(allow_none=True)
    answered_by = fields.Nested(AnsweredBySchema, allow_none=True)


class CallsSchema(Schema):
    waiting = Int(required=True)
    answered = Int(required=True)
    total = Int(required=True, metadata={"description": "Calls tonight, answered or not."})
    calls = fields.List(fields.Nested(CallSchema), required=True, metadata={
        "description": "Waiting calls (oldest first), then answered ones (newest first)."})
