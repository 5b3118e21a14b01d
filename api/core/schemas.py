"""The API's shapes for core: the base every area stands on: the database and its tables,
domain errors, text rules, limits, keys, rows and the audit log, and the shapes every area's
schemas share."""

from __future__ import annotations

from functools import partial

import marshmallow as ma
from marshmallow import fields, validate

from .text import bad_character, clean_name, unstorable

# --- fields every area's schemas use --------------------------------------------------------------

# The default Integer silently truncates 3.9 to 3 and takes "3"; a hand's tricks must not.
Int = partial(fields.Integer, strict=True)


class StrictBoolean(fields.Boolean):
    """The default Boolean takes "yes", "on" and 1 as true; a JSON body must say true or
    false. (truthy={True} is not enough: 1 == True, so 1 is in the set.)"""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


Bool = StrictBoolean


def _unstorable_fields(data, path: str = "") -> dict[str, str]:
    """Where text no database can store (NUL, a lone surrogate) hides in the input, and why:
    keys and values alike, at any depth (the body's depth is bounded before it is parsed)."""
    if isinstance(data, str):
        why = unstorable(data)
        return {path or "_schema": why} if why else {}
    found: dict[str, str] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            found.update(_unstorable_fields(key, path or "_schema"))
            found.update(_unstorable_fields(value, f"{path}.{key}" if path else str(key)))
    elif isinstance(data, list):
        for value in data:
            found.update(_unstorable_fields(value, path))
    return found


def _at_most(raw: str, max_length: int, what: str) -> str:
    # The documented maxLength holds for the text as sent, not only once cleaned: a tool
    # reading the OpenAPI document may rely on a longer one being refused.
    if len(raw) > max_length:
        raise ma.ValidationError(f"{what} is longer than {max_length} characters.")
    return raw


class TextField(fields.String):
    """Free text on one line (a note, a label), cleaned as names are: runs of spaces, tabs
    and line breaks become one space and the ends are trimmed; any other control or invisible
    character is refused. At most `max_length` characters as sent."""

    def __init__(self, *args, max_length: int = 200, min_length: int = 0, **kwargs):
        super().__init__(*args, validate=validate.Length(min_length, max_length), **kwargs)
        self.max_length = max_length

    def _deserialize(self, value, attr, data, **kwargs):
        raw = _at_most(super()._deserialize(value, attr, data, **kwargs), self.max_length,
                       "The text")
        text = " ".join(raw.split())
        why = bad_character(text)
        if why:
            raise ma.ValidationError(f"The text {why}.")
        return text


class NameField(fields.String):
    """A name people read (an event, a team, a player): trimmed, spaces collapsed, printable,
    never blank (RULES of the board: what the player names already had)."""

    def __init__(self, *args, max_length: int = 120, **kwargs):
        super().__init__(*args, validate=validate.Length(1, max_length), **kwargs)
        self.max_length = max_length

    def _deserialize(self, value, attr, data, **kwargs):
        raw = _at_most(super()._deserialize(value, attr, data, **kwargs), self.max_length,
                       "The name")
        try:
            return clean_name(raw, "The name", self.max_length)
        except ValueError as error:
            raise ma.ValidationError(str(error)) from None


class ListOf(fields.List):
    """A list of at most `max_items`, refused before its items are read (a 2 MB body holds a
    list of a million small items: reading each first took a second of a worker's time)."""

    def __init__(self, cls_or_instance, *, max_items: int, min_items: int = 0, **kwargs):
        super().__init__(cls_or_instance, validate=validate.Length(min_items, max_items),
                         **kwargs)
        self.max_items = max_items

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and len(value) > self.max_items:
            raise ma.ValidationError(f"Longer than {self.max_items} items.")
        return super()._deserialize(value, attr, data, **kwargs)


class Schema(ma.Schema):
    """Base: unknown fields are refused, so a typo in a field name is an error, not ignored."""

    class Meta:
        unknown = ma.RAISE
        ordered = True

    @ma.pre_load
    def refuse_unstorable_text(self, data, **kwargs):
        # PostgreSQL's text cannot hold NUL (storing or even comparing one was a 500 there),
        # and no database can encode a lone surrogate (a 500 on both).
        where = _unstorable_fields(data)
        if where:
            raise ma.ValidationError({name: [f"Text that {why}."]
                                      for name, why in where.items()})
        return data


# --- the service and who is asking ----------------------------------------------------------------

class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)


# --- small shared pieces --------------------------------------------------------------------------

SIDE = validate.OneOf(["A", "B"])
SEAT = validate.Range(1, 4)
Side = partial(fields.String, validate=SIDE)
Name = NameField


class SidePointsSchema(Schema):
    A = Int(required=True)
    B = Int(required=True)


class PageSchema(Schema):
    """A page of a long table, from the query string (its text read as integers, not strict
    as in bodies): the series' standings and the club's ratings."""

    offset = fields.Integer(load_default=0, validate=validate.Range(0, 10**6), metadata={
        "description": "Rows to skip: 100 answers the table from its 101st row."})
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000), metadata={
        "description": "Rows to answer (a club of thousands would be megabytes at once)."})


class RefSchema(Schema):
    id = Int(allow_none=True)
    name = fields.String(allow_none=True)


# --- the audit log --------------------------------------------------------------------------------

class AuditKeySchema(Schema):
    id = Int(required=True)
    role = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "The name the organizer "
                                                   "gave the key (may be empty)."})
    hint = fields.String(required=True, metadata={"description": "The key's last characters."})
    table = Int(allow_none=True)


class AuditSchema(Schema):
    id = Int(required=True)
    at = fields.DateTime(required=True)
    key_id = Int(allow_none=True)
    role = fields.String(required=True)
    action = fields.String(required=True)
    entity = fields.String(required=True)
    entity_id = fields.String(required=True)
    round_number = Int(allow_none=True)
    table = Int(allow_none=True)
    before = fields.Raw(allow_none=True)
    after = fields.Raw(allow_none=True)
    key = fields.Nested(AuditKeySchema, allow_none=True, metadata={
        "description": "The key that made the change (null: the system, or a key deleted)."})
    changed = fields.List(fields.String(), required=True, metadata={
        "description": "The fields the change changed, e.g. ['tricks'] for 3 tricks -> 4."})


class AuditQuerySchema(Schema):
    table = fields.Integer(load_default=None, validate=validate.Range(1, 1000))
    round = fields.Integer(load_default=None, validate=validate.Range(1, 1000))
    limit = fields.Integer(load_default=200, validate=validate.Range(1, 1000))


class WhoAmISchema(Schema):
    key_id = Int(required=True)
    event_id = Int(required=True, allow_none=True, metadata={
        "description": "The key's event; null for a club key, which reaches every event of "
                       "its club."})
    event_name = fields.String(required=True, allow_none=True)
    role = fields.String(required=True)
    table = Int(allow_none=True)
    club_id = Int(allow_none=True, metadata={"description": "Set for a club key."})


def refuse(message: str):
    raise ma.ValidationError(message)
