"""The API's shapes for club: the club's year: clubs, series, profiles, finishes and a person's
data."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import Bool, Int, ListOf, Name, PageSchema, Schema, TextField
from ..people.schemas import PersonSchema


class ClubCreateSchema(Schema):
    name = Name(required=True)
    slug = fields.String(load_default=None, allow_none=True,
                         validate=validate.Length(max=40), metadata={
                             "description": "The public page's address: /c/<slug>."})


class ClubUpdateSchema(Schema):
    name = Name()
    slug = fields.String(allow_none=True, validate=validate.Length(max=40))
    people_private_by_default = Bool(metadata={
        "description": "New people start private (their profile seen by the club only)."})
    indexable = Bool(metadata={
        "description": "Let search engines index the people's pages (off unless chosen)."})


class ClubSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    slug = fields.String(allow_none=True)
    people_private_by_default = Bool(required=True)
    indexable = Bool(required=True)
    created_at = fields.DateTime(required=True)


class ClubCreatedSchema(ClubSchema):
    club_key = fields.String(required=True, metadata={
        "description": "The club key, shown once: it can do everything an organizer key can "
                       "in every event of the club."})


class ClubKeyCreateSchema(Schema):
    label = TextField(load_default="", max_length=80)


class ClubKeySchema(Schema):
    id = Int(required=True)
    label = fields.String(required=True)
    hint = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    revoked = fields.Function(lambda k: (k["revoked_at"] if isinstance(k, dict)
                                         else k.revoked_at) is not None, required=True)


class ClubKeyCreatedSchema(ClubKeySchema):
    key = fields.String(required=True)


class ClubEventSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    code = fields.String(required=True)
    preset = fields.String(required=True, attribute="preset_key")
    status = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    date = fields.Date(required=True, attribute="night_date", metadata={
        "description": "The day the night was played (the organizer sets it; by default the "
                       "day it was made)."})
    archived = fields.Function(lambda e: e.archived_at is not None, required=True, metadata={
        "description": "Set aside by the club (listed to the club key only)."})


class NightUpdateSchema(Schema):
    date = fields.Date(metadata={"description": "The day the night was played, YYYY-MM-DD."})
    archived = Bool(metadata={"description": "Set the night aside (true) or bring it back: an "
                              "archived night leaves the club's lists, series and profiles."})


class PersonDataSchema(Schema):
    """A person's data as one file (RULES.md section 9): their record, profile, entries,
    every hand they sat in and the league protests that concern them."""

    format = fields.String(required=True, metadata={"example": "euchre-person-data"})
    version = Int(required=True)
    made_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC."})
    club = fields.Dict(required=True)
    person = fields.Dict(required=True)
    profile = fields.Dict(required=True)
    nights = fields.List(fields.Dict(), required=True)
    hands = fields.List(fields.Dict(), required=True)
    protests = fields.List(fields.Dict(), required=True, metadata={
        "description": "League protests about the person, their team or a game they played "
                       "(RULES.md section 6): who lodged it, whom it is about "
                       "(`about_you`), the grounds and how it was ruled."})


class ClubAuditKeySchema(Schema):
    id = Int(required=True)
    label = fields.String(required=True)
    hint = fields.String(required=True)


class ClubAuditSchema(Schema):
    id = Int(required=True)
    at = fields.DateTime(required=True)
    action = fields.String(required=True)
    entity = fields.String(required=True)
    entity_id = fields.String(required=True)
    before = fields.Dict(allow_none=True)
    after = fields.Dict(allow_none=True)
    key = fields.Nested(ClubAuditKeySchema, allow_none=True)


class ScoringSchema(Schema):
    method = fields.String(required=True, validate=validate.OneOf(["total", "places"]))
    points = ListOf(fields.Float(allow_nan=False), max_items=500, load_default=None,
                    metadata={"description": "Points for 1st, 2nd, ... (method 'places')."})


class SeriesCreateSchema(Schema):
    name = Name(required=True)
    scoring = fields.Nested(ScoringSchema, load_default=lambda: {"method": "total"})
    best_of = Int(allow_none=True, load_default=None)
    min_events = Int(allow_none=True, load_default=None)
    event_ids = ListOf(Int(validate=validate.Range(1, 2**31 - 1)), max_items=1000,
                       load_default=list)


class SeriesUpdateSchema(Schema):
    name = Name()
    scoring = fields.Nested(ScoringSchema)
    best_of = Int(allow_none=True)
    min_events = Int(allow_none=True)
    event_ids = ListOf(Int(validate=validate.Range(1, 2**31 - 1)), max_items=1000)


class SeriesSchema(Schema):
    id = Int(required=True)
    club_id = Int(required=True)
    name = fields.String(required=True)
    scoring = fields.Dict(required=True)
    best_of = Int(allow_none=True)
    min_events = Int(allow_none=True)
    event_ids = fields.List(Int(), required=True)


class SeriesResultSchema(Schema):
    event_id = Int(required=True)
    place = Int(allow_none=True)
    event_total = Int(required=True)
    points = fields.Float(required=True)
    counted = Bool(required=True)


class SeriesRowSchema(Schema):
    place = Int(allow_none=True)
    person_id = Int(required=True)
    name = fields.String(required=True)
    private = Bool(required=True)
    events_played = Int(required=True)
    counted = Int(required=True)
    total = fields.Float(required=True)
    ranked = Bool(required=True)
    results = fields.List(fields.Nested(SeriesResultSchema), required=True)


class SeriesEventSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    code = fields.String(required=True)
    status = fields.String(required=True)
    date = fields.Date(required=True, metadata={"description": "The day it was played."})


class SeriesStandingsSchema(SeriesSchema):
    events = fields.List(fields.Nested(SeriesEventSchema), required=True)
    rows = fields.List(fields.Nested(SeriesRowSchema), required=True, metadata={
        "description": "The rows from `offset`, at most `limit` (see the query)."})
    total_rows = Int(required=True)
    offset = Int(required=True)


class SeriesPageSchema(PageSchema):
    """A page of the standings (the ratings table pages the same way)."""


class StatsSchema(Schema):
    hands = Int(required=True)
    called = Int(required=True)
    made = Int(required=True)
    marches = Int(required=True)
    euchred = Int(required=True)
    euchres = Int(required=True)
    loners = Int(required=True)
    loners_made = Int(required=True)
    loners_marched = Int(required=True)
    loners_euchred = Int(required=True)
    loners_unattributed = Int(required=True)
    reneges = Int(required=True)
    points = Int(required=True)
    make_pct = fields.Float(allow_none=True)
    points_per_hand = fields.Float(allow_none=True)


class ProfileEventSchema(Schema):
    event_id = Int(required=True)
    player_id = Int(required=True, metadata={"description": "The person's entry in the "
                                             "event (to split it off if linked wrongly)."})
    name = fields.String(required=True)
    code = fields.String(required=True)
    date = fields.Date(required=True, metadata={"description": "The day it was played."})
    preset = fields.String(required=True)
    status = fields.String(required=True)
    place = Int(allow_none=True)
    total = Int(allow_none=True)
    field = Int(required=True)
    prize = Bool(required=True, metadata={"description": "Finished in a prize place of the "
                                          "format (by field size); live while in play."})
    stats = fields.Nested(StatsSchema, allow_none=True)


class BestPartnerSchema(Schema):
    person_id = Int(required=True)
    name = fields.String(required=True)
    hands = Int(required=True)
    points_per_hand = fields.Float(required=True)


class ProfileSchema(Schema):
    person_id = Int(required=True)
    club_id = Int(required=True)
    name = fields.String(required=True)
    private = Bool(required=True)
    events = fields.List(fields.Nested(ProfileEventSchema), required=True)
    stats = fields.Nested(StatsSchema, required=True)
    hands_counted = Int(required=True, metadata={
        "description": "How many hands the statistics rest on (sheets and forfeits have "
                       "none)."})
    best_partner = fields.Nested(BestPartnerSchema, allow_none=True)
    best_partner_min_hands = Int(required=True)


class ClubPageSchema(ClubSchema):
    events = fields.List(fields.Nested(ClubEventSchema), required=True)
    series = fields.List(fields.Nested(SeriesSchema), required=True)
    people = fields.List(fields.Nested(PersonSchema), required=True)
