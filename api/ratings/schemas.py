"""The ratings' part of the API's schemas."""

from __future__ import annotations

from marshmallow import fields

from ..core.schemas import Bool, Int, PageSchema, Schema

Float = fields.Float

RATING_HELP = ("mu - 3 sigma: the rating shown (RULES.md section 8), a cautious estimate that "
               "starts at 0 and rises as games show the skill; never a bare mu.")


class RatingRowSchema(Schema):
    place = Int(required=True, metadata={"description": "Equal ratings share the place."})
    person_id = Int(required=True)
    name = fields.String(required=True)
    rating = Float(required=True, metadata={"description": RATING_HELP})
    mu = Float(required=True)
    sigma = Float(required=True, metadata={"description": "The rating's uncertainty (±)."})
    games = Int(required=True, metadata={"description": "Rated games."})
    wins = Int(required=True)


class RatingsPageSchema(PageSchema):
    """A page of the ratings table (as the series' standings page)."""


class RatingsTableSchema(Schema):
    rows = fields.List(fields.Nested(RatingRowSchema), required=True, metadata={
        "description": "The rows from `offset`, at most `limit` (see the query), best first; "
                       "each place is the whole table's."})
    total_rows = Int(required=True, metadata={
        "description": "Rated people in the whole table (as this key sees it)."})
    offset = Int(required=True)


class RatingNightSchema(Schema):
    event_id = Int(required=True)
    code = fields.String(required=True)
    name = fields.String(required=True)
    date = fields.Date(required=True)
    games = Int(required=True)
    wins = Int(required=True)
    before = Float(required=True, metadata={"description": "The rating before the night."})
    rating = Float(required=True, metadata={"description": "After the night's last game."})
    mu = Float(required=True)
    sigma = Float(required=True)


class RatingHistorySchema(Schema):
    person_id = Int(required=True)
    name = fields.String(required=True)
    private = Bool(required=True)
    rated = Bool(required=True, metadata={"description": "Whether any game was rated yet."})
    rating = Float(required=True, metadata={"description": RATING_HELP})
    mu = Float(required=True)
    sigma = Float(required=True)
    games = Int(required=True)
    wins = Int(required=True)
    nights = fields.List(fields.Nested(RatingNightSchema), required=True)
