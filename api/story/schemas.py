"""The API's shapes for the night's story."""

from __future__ import annotations

from marshmallow import fields

from ..core.schemas import Bool, Int, Schema


class SentenceSchema(Schema):
    text = fields.String(required=True)
    fact = Int(required=True, metadata={"description": "The index in `facts` of the fact "
                                        "this sentence was written from."})


class RecapSchema(Schema):
    event_id = Int(required=True)
    name = fields.String(required=True)
    night_date = fields.Date(required=True)
    finished = Bool(required=True, metadata={
        "description": "Only a finished night has a story; before, both lists are empty."})
    sentences = fields.List(fields.Nested(SentenceSchema), required=True)
    facts = fields.List(fields.Dict(), required=True, metadata={
        "description": "Each fact: kind, value, entrants, players, games and hands it came "
                       "from, and what its kind adds (round, table, score_then, final, ...)."})
