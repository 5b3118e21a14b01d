"""The API's shapes for people: the club's people: a person's record, names matched across
events, and where a player's name links."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ..core.schemas import Bool, Int, Name, Schema

# --- choosing a person of the club's registry -----------------------------------------------------

class PersonChoice(fields.Field):
    """The organizer's decision for a name in a club's event: a person's id, or "new"."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "new":
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 2**31:
            return value
        raise ma.ValidationError('A person\'s id (a number) or "new".')

    def _jsonschema_type_mapping(self):  # pragma: no cover - apispec reads metadata instead
        return {}


class PeopleDecisions(fields.Dict):
    """{name: person id | "new"}: at most as many as an import has rows."""

    def __init__(self, **kwargs):
        super().__init__(keys=fields.String(validate=validate.Length(1, 120)),
                         values=PersonChoice(metadata={"oneOf": [
                             {"type": "integer", "minimum": 1}, {"type": "string",
                                                                 "enum": ["new"]}]}),
                         load_default=None, metadata={"description": (
                             "In a club's event: for a name the club's registry has only "
                             "near or ambiguous matches for, link it to a person (their id) "
                             "or make a new person (\"new\"). Exact names link by "
                             "themselves.")}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, dict) and len(value) > 2000:
            raise ma.ValidationError("At most 2000 decisions.")
        return super()._deserialize(value, attr, data, **kwargs)


# --- the club's people ----------------------------------------------------------------------------

class PersonSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    private = Bool(required=True)
    events = Int(required=True)
    erased = Bool(load_default=False, dump_default=False, metadata={
        "description": "Erased at their request: the name is \"Former player N\"."})


class PersonUpdateSchema(Schema):
    name = Name()
    private = Bool()


class MergeSchema(Schema):
    merge = Int(required=True, validate=validate.Range(1, 2**31 - 1), metadata={
        "description": "The other record of the same person: its entries become this "
                       "person's and it is removed."})


class SplitSchema(Schema):
    player_id = Int(required=True, validate=validate.Range(1, 2**31 - 1), metadata={
        "description": "The event entry (player) linked to the wrong person."})
    to = PersonChoice(load_default="new", metadata={
        "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["new"]}],
        "description": "The person it belongs to, or \"new\"."})
