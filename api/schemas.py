"""marshmallow schemas: the API's input and output shapes (shape only; meaning is in rules/)."""

from __future__ import annotations

from functools import partial

import marshmallow as ma
from marshmallow import fields

# The default Integer silently truncates 3.9 to 3 and takes "3"; a hand's tricks must not.
Int = partial(fields.Integer, strict=True)


class Schema(ma.Schema):
    """Base: unknown fields are refused, so a typo in a field name is an error, not ignored."""

    class Meta:
        unknown = ma.RAISE
        ordered = True


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)


class HandValueSchema(Schema):
    alone = fields.Boolean(required=True)
    tricks = Int(required=True)
    result = fields.String(required=True)
    label = fields.String(required=True)
    makers_score = Int(required=True)
    defenders_score = Int(required=True)


class PresetSchema(Schema):
    key = fields.String(required=True)
    name = fields.String(required=True)
    summary = fields.String(required=True)
    based_on = fields.String(allow_none=True)
    parameters = fields.Dict(keys=fields.String(), required=True)
    descriptions = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    hand_values = fields.List(fields.Nested(HandValueSchema), required=True)
