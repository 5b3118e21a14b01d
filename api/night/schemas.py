"""The API's shapes for night: an event night before play: events and their keys, registration
and check-in, the door and self check-in, presets and QR codes."""

from __future__ import annotations

import functools
import zoneinfo

import marshmallow as ma
from marshmallow import fields, validate

from ..core.schemas import Bool, Int, ListOf, Name, NameField, Schema, TextField
from ..people.schemas import PeopleDecisions
from ..rules.presets import VERIFICATION_MODES

# --- presets: the formats and their points --------------------------------------------------------

class HandValueSchema(Schema):
    alone = Bool(required=True)
    tricks = Int(required=True)
    result = fields.String(required=True)
    label = fields.String(required=True)
    makers_score = Int(required=True)
    defenders_score = Int(required=True)
    points_key = fields.String(required=True, metadata={
        "description": "The entry of `points` this hand scores (e.g. loner-euchred)."})
    scorer = fields.String(required=True, validate=validate.OneOf(["makers", "defenders"]),
                           metadata={"description": "The side that scores it."})


class RenegeValueSchema(Schema):
    """One shape of renege claim and the entry of `points` it adds (no rules needed to add)."""

    accused = fields.String(required=True, validate=validate.OneOf(["makers", "defenders"]))
    alone = Bool(required=True, metadata={"description": "The makers went alone."})
    upheld = Bool(required=True)
    points_key = fields.String(required=True, metadata={
        "description": "The entry of `points` the claim adds (renege, renege-loner or "
                       "false-claim)."})
    scorer = fields.String(required=True, validate=validate.OneOf(["makers", "defenders"]))
    tricks_count = Bool(required=True, metadata={
        "description": "Whether the hand's tricks are scored as well (an upheld renege ends "
                       "the hand; a rejected claim does not)."})


class ChoiceSchema(Schema):
    value = fields.String(required=True)
    words = fields.String(required=True)


class ParameterInfoSchema(Schema):
    """What a parameter is, in words and bounds, and which formats use it."""

    type = fields.String(required=True, metadata={"description": "int, bool, choice or places"})
    description = fields.String(required=True)
    minimum = Int(allow_none=True)
    maximum = Int(allow_none=True)
    nullable = Bool(required=True)
    none_means = fields.String(allow_none=True, metadata={
        "description": "What an empty value means, in words."})
    only_for = fields.List(fields.String(), required=True, metadata={
        "description": "The movements that use it; empty: every format."})
    choices = fields.List(fields.Nested(ChoiceSchema), required=True)


def _points(description: str, key: str | None = None):
    # data_key: the results' own names, as a hand's `result` spells them ("loner-made").
    return Int(required=True, data_key=key, metadata={"description": description})


class PointsTableSchema(Schema):
    made = _points("Makers take 3 or 4 tricks: the makers score this.")
    march = _points("Makers take all 5 tricks: the makers score this.")
    loner_made = _points("A lone player takes 3 or 4 tricks.", "loner-made")
    loner_march = _points("A lone player takes all 5 tricks.", "loner-march")
    euchred = _points("The makers take fewer than 3 tricks: the defenders score this.")
    loner_euchred = _points("A lone player takes fewer than 3: the defenders score this.",
                            "loner-euchred")
    renege = _points("An upheld renege: the wronged side scores this.")
    renege_loner = _points("An upheld renege against a lone player's side.", "renege-loner")
    false_claim = _points("A renege claim found wrong: the accused side scores this (0: none).",
                          "false-claim")


class PresetSchema(Schema):
    key = fields.String(required=True)
    name = fields.String(required=True)
    summary = fields.String(required=True)
    based_on = fields.String(allow_none=True)
    parameters = fields.Dict(keys=fields.String(), required=True)
    descriptions = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    parameter_info = fields.Dict(keys=fields.String(), values=fields.Nested(ParameterInfoSchema),
                                 required=True)
    hand_values = fields.List(fields.Nested(HandValueSchema), required=True)
    points = fields.Nested(PointsTableSchema, required=True, metadata={
        "description": "What each result scores under this format (the scoring side's "
                       "points); custom formats may change any of them."})
    renege_values = fields.List(fields.Nested(RenegeValueSchema), required=True)


@functools.cache
# --- events and access ----------------------------------------------------------------------------

def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _check_time_zone(value: str) -> None:
    if value not in _time_zones():
        raise ma.ValidationError("Not a time zone this server knows: use an IANA name such as "
                                 "'America/Detroit' or 'Europe/London' (or 'UTC').")


def TimeZone(**kwargs):  # noqa: N802 (a field factory, named like the fields it makes)
    return fields.String(validate=_check_time_zone, metadata={
        "description": "The venue's IANA time zone, e.g. 'America/Detroit': check-in windows, "
                       "league nights and the times in exports are in it."}, **kwargs)


class EventCreateSchema(Schema):
    name = Name(required=True)
    time_zone = TimeZone(load_default="UTC")
    preset = fields.String(required=True, metadata={"description": "A preset key, e.g. "
                                                    "'progressive'."})
    overrides = fields.Dict(keys=fields.String(), load_default=None,
                            metadata={"description": "Parameter changes for a custom format "
                                      "(see GET /api/presets)."})


HAND_AWARD_KEYS = ["most-loners", "most-marches", "best-make-pct"]


class EventUpdateSchema(Schema):
    name = Name()
    verification = fields.String(validate=validate.OneOf(VERIFICATION_MODES), metadata={
        "description": "Who confirms a score: sign_off, confirm_each_hand or double_entry "
                       "(the format's 'verification' parameter). Refused (409) while any "
                       "entry waits to be confirmed or settled."})
    correction_minutes = Int(validate=validate.Range(0, 1440), metadata={
        "description": "Minutes after a round closes during which a table may still change "
                       "its games (the format's 'correction_minutes' parameter); a change "
                       "applies to every closed round's window at once."})
    time_zone = TimeZone()
    status = fields.String(validate=validate.OneOf(["open", "finished"]))
    hand_awards = ListOf(fields.String(validate=validate.OneOf(HAND_AWARD_KEYS)), max_items=3,
                         metadata={"description": "Awards from the hands to give at this "
                                   "event, besides Low Score and High Game."})


class EventSchema(Schema):
    id = Int(required=True)
    code = fields.String(required=True)
    name = fields.String(required=True)
    preset = fields.String(required=True)
    format = fields.Nested(PresetSchema, required=True)
    status = fields.String(required=True)
    revision = Int(required=True)
    time_zone = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    hand_awards = fields.List(fields.String(), required=True)
    club_id = Int(allow_none=True)
    players = Int(required=True)
    teams = Int(required=True)
    rounds = Int(required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class EventCreatedSchema(EventSchema):
    organizer_key = fields.String(required=True, metadata={
        "description": "Shown once: keep it. Send it as 'Authorization: Bearer <key>'."})
    join_pin = fields.String(required=True)


class WrongPinsSchema(Schema):
    count = Int(required=True, metadata={"description": "Wrong PINs tried for this event in "
                                         "the current window (a new PIN starts it afresh)."})
    seconds_left = Int(required=True)
    advice = Bool(required=True, metadata={"description": "Enough that a new PIN is advised."})


class AccessSchema(Schema):
    code = fields.String(required=True)
    join_pin = fields.String(required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    wrong_pins = fields.Nested(WrongPinsSchema, required=True)


class KeyCreateSchema(Schema):
    table = Int(load_default=None, allow_none=True, validate=validate.Range(1, 1000))
    label = TextField(load_default="", max_length=80)


class KeySchema(Schema):
    id = Int(required=True)
    role = fields.String(required=True)
    table = Int(allow_none=True)
    label = fields.String(required=True)
    hint = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    revoked = Bool(required=True)


class IssuedKeySchema(KeySchema):
    key = fields.String(required=True, metadata={"description": "Shown once."})
    link = fields.String(required=True)


class TableCardsCreateSchema(Schema):
    tables = Int(required=True, validate=validate.Range(1, 1000), metadata={
        "description": "Cards for tables 1 to this number."})


class TableCardSchema(Schema):
    table = Int(required=True)
    link = fields.String(required=True, metadata={"description": "The runner link for the "
                                                  "table's QR code (its key shown once)."})


class TableCardsSchema(Schema):
    cards = fields.List(fields.Nested(TableCardSchema), required=True)
    replaced = Int(required=True, metadata={"description": "Keys of cards printed before, "
                                            "revoked now: phones that scanned them join again."})


class OrganizerKeySchema(Schema):
    organizer_key = fields.String(required=True)


class JoinSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(1, 12))
    pin = fields.String(required=True, validate=validate.Length(1, 12))
    table = Int(load_default=None, allow_none=True, validate=validate.Range(1, 1000))


class JoinedSchema(Schema):
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    key = fields.String(required=True)
    table = Int(allow_none=True)


# --- players and teams ----------------------------------------------------------------------------

class PlayerCreateSchema(Schema):
    name = Name(required=True)
    checked_in = Bool(load_default=False)
    after_window = Bool(load_default=False, metadata={
        "description": "With checked_in after the check-in window closed: an exception for "
                       "this one (audited)."})
    people = PeopleDecisions()


class EventDayChanges(Schema):
    """What the organizer sets on an entrant on the night (RULES.md §4)."""

    paid = Bool(metadata={"description": "The entry fee is paid (counts in the prize pool)."})
    stays_at = Int(allow_none=True, validate=validate.Range(0, 1000), metadata={
        "description": "An accommodation: the entrant stays at this table every round (0: "
                       "where seated in round 1); null moves as the format says."})
    disqualified = TextField(allow_none=True, min_length=1, max_length=200, metadata={
        "description": "Disqualify with this reason: results stand for the opponents, no "
                       "place or prize. Null undoes it."})
    categories = ListOf(Name(max_length=40), max_items=10, metadata={
        "description": "The event's categories this entrant is in (each ranked apart)."})


def AfterWindow():  # noqa: N802 (a field factory, named like the fields it makes)
    return Bool(metadata={"description": "With checked_in: check in after the check-in window "
                                         "closed, as an exception for this one (audited)."})


class PlayerUpdateSchema(EventDayChanges):
    name = Name()
    checked_in = Bool()
    withdrawn = Bool()
    after_window = AfterWindow()


class PlayerSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    position = Int(required=True)
    team_id = Int(allow_none=True)
    role = fields.String(required=True)
    checked_in = Bool(required=True)
    late = Bool(required=True)
    withdrawn = Bool(required=True)
    person_id = Int(allow_none=True, metadata={"description": "The club's person (club "
                                               "events only)."})
    paid = Bool(required=True)
    stays_at = Int(allow_none=True)
    disqualified = fields.String(allow_none=True)
    categories = fields.Function(lambda p: p.categories or [], required=True,
                                 metadata={"type": "array", "items": {"type": "string"}})


class TeamCreateSchema(Schema):
    name = Name(required=True)
    # The service says what a team needs (two players, a few substitutes); these bounds only
    # keep a list of thousands from being read at all.
    players = ListOf(Name(), required=True, max_items=10)
    substitutes = ListOf(Name(), load_default=list, max_items=50)
    checked_in = Bool(load_default=False)
    after_window = Bool(load_default=False, metadata={
        "description": "With checked_in after the check-in window closed: an exception for "
                       "this one (audited)."})
    people = PeopleDecisions()
    division = Name(load_default=None, allow_none=True, max_length=40, metadata={
        "description": "A league's division (skill level): its teams meet each other."})


class TeamUpdateSchema(EventDayChanges):
    name = Name()
    withdrawn = Bool()
    playoff_excluded = Bool()
    checked_in = Bool()
    after_window = AfterWindow()
    division = Name(allow_none=True, max_length=40)


class TeamSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    position = Int(required=True)
    withdrawn = Bool(required=True)
    removed = Bool(required=True)
    playoff_excluded = Bool(required=True)
    division = fields.String(allow_none=True)
    paid = Bool(required=True)
    stays_at = Int(allow_none=True)
    disqualified = fields.String(allow_none=True)
    categories = fields.Function(lambda t: t.categories or [], required=True,
                                 metadata={"type": "array", "items": {"type": "string"}})
    members = fields.List(fields.Nested(PlayerSchema), required=True)


class SubstituteCreateSchema(Schema):
    name = Name(required=True)


class ImportSchema(Schema):
    # Needed when the body is JSON (a text/csv body is the CSV itself); never null.
    csv = fields.String(validate=validate.Length(1, 1_000_000),
                        metadata={"description": "CSV text with a header row: 'name' for "
                                  "players; 'team,player1,player2[,substitutes]' for teams."})
    people = PeopleDecisions()


class ImportedSchema(Schema):
    players = Int(required=True)
    teams = Int(required=True)


# --- QR codes -------------------------------------------------------------------------------------

class QrSchema(Schema):
    text = TextField(required=True, min_length=1, max_length=1000)
    title = NameField(load_default="QR code")
