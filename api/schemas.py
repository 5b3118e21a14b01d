"""marshmallow schemas: the API's input and output shapes (shape only; meaning is in rules/)."""

from __future__ import annotations

import functools
import zoneinfo
from functools import partial

import marshmallow as ma
from marshmallow import fields, validate

from .text import bad_character, clean_name, unstorable

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


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)


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


# --- small shared pieces --------------------------------------------------------------------

SIDE = validate.OneOf(["A", "B"])
SEAT = validate.Range(1, 4)
Side = partial(fields.String, validate=SIDE)
Name = NameField


class SidePointsSchema(Schema):
    A = Int(required=True)
    B = Int(required=True)


class RefSchema(Schema):
    id = Int(allow_none=True)
    name = fields.String(allow_none=True)


# --- events and access ----------------------------------------------------------------------

@functools.cache
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


# --- players and teams ----------------------------------------------------------------------

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


# --- rounds ---------------------------------------------------------------------------------

class RoundCreateSchema(Schema):
    number = Int(load_default=None, allow_none=True, validate=validate.Range(1, 1000),
                 metadata={"description": "The round you expect to seat; a repeat is refused."})


class ClockSchema(Schema):
    minutes = Int(allow_none=True)
    started_at = fields.DateTime(allow_none=True)
    ends_at = fields.DateTime(allow_none=True)
    seconds_left = Int(allow_none=True)


class ClockStartSchema(Schema):
    minutes = Int(load_default=None, allow_none=True, validate=validate.Range(1, 240))


class SeatSchema(Schema):
    seat = Int(required=True)
    player_id = Int(allow_none=True)
    name = fields.String(required=True)
    side = fields.String(required=True, metadata={"description": "A (seats 1 and 3) or B "
                                                  "(seats 2 and 4)."})


class TableGameSchema(Schema):
    id = Int(required=True)
    number = Int(required=True)
    points = fields.Nested(SidePointsSchema, required=True)
    hands_played = Int(required=True)
    hands_per_game = Int(allow_none=True, metadata={"description": "A game of this many "
                                                    "hands (None: played to a target)."})
    target_points = Int(allow_none=True)
    over = Bool(required=True)
    winner = fields.String(allow_none=True)
    level = Bool(required=True)
    end = fields.String(allow_none=True)
    forfeited_by = fields.String(allow_none=True, metadata={"description": "The side that "
                                                            "forfeited the game, if one did."})
    signed_off = Bool(required=True)
    last_entry_at = fields.DateTime(allow_none=True)
    idle_seconds = Int(allow_none=True, metadata={"description": "Seconds since the last "
                       "entry (or the round's start) while the game is being played, by the "
                       "server's clock: the progress board's 'no entry for a while'."})
    version = Int(required=True)


class RoundTableSchema(Schema):
    match_id = Int(required=True)
    table = Int(required=True)
    status = fields.String(required=True)
    winner = fields.String(allow_none=True)
    signed_off = Bool(required=True)
    team_a = fields.Nested(RefSchema, allow_none=True)
    team_b = fields.Nested(RefSchema, allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    games = fields.List(fields.Nested(TableGameSchema), required=True)


class ProgressSchema(Schema):
    tables = Int(required=True)
    finished = Int(required=True)
    hands = Int(required=True)


class RoundSchema(Schema):
    id = Int(required=True)
    event_id = Int(required=True)
    number = Int(required=True)
    stage = fields.String(required=True)
    label = fields.String(required=True)
    status = fields.String(required=True)
    time_called = Bool(required=True)
    clock = fields.Nested(ClockSchema, allow_none=True)
    progress = fields.Nested(ProgressSchema, required=True)
    tables = fields.List(fields.Nested(RoundTableSchema), required=True)


class PlanTableSchema(Schema):
    table = Int(required=True)
    team_a = fields.Nested(RefSchema, allow_none=True)
    team_b = fields.Nested(RefSchema, allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)


class AccommodationSchema(Schema):
    table = Int(required=True)
    stays = fields.List(fields.String(), required=True, metadata={
        "description": "Who stays at this table (an accommodation: RULES.md §4)."})
    moves = fields.List(fields.String(), required=True, metadata={
        "description": "Who moves on in their place (empty when nobody had to)."})
    to = Int(allow_none=True, metadata={"description": "The table they move to."})
    note = fields.String(required=True)


class PlanSchema(Schema):
    ready = Bool(required=True, metadata={
        "description": "Whether a round can be seated now; if not, `reason` says why."})
    code = fields.String(allow_none=True)
    reason = fields.String(allow_none=True)
    number = Int(allow_none=True)
    stage = fields.String(allow_none=True)
    label = fields.String(allow_none=True)
    minutes = Int(allow_none=True)
    notes = fields.List(fields.String(), required=True)
    accommodations = fields.List(fields.Nested(AccommodationSchema), required=True, metadata={
        "description": "What accommodations (entrants who stay at one table) did to this "
                       "round: who stays, and who moves instead."})
    tables = fields.List(fields.Nested(PlanTableSchema), required=True)


class RoundSwapSchema(Schema):
    a = Int(required=True, metadata={"description": "A seated entrant: a player's id, or a "
                                     "team's in a team format."})
    b = Int(required=True, metadata={"description": "The entrant to change places with."})


class SeatSwapSchema(Schema):
    seats = ListOf(Int(validate=SEAT), required=True, min_items=2, max_items=2, metadata={
        "description": "The two seats (1-4) whose players sat in each other's places."})


# --- games and hands ------------------------------------------------------------------------

class RenegeSchema(Schema):
    by = Side(required=True, metadata={"description": "The side accused of reneging."})
    upheld = Bool(required=True)


HAND_ID = validate.Regexp(r"\A[A-Za-z0-9_.:-]{1,64}\Z",
                          error="A hand id is 1 to 64 letters, digits or _ . : - "
                                "(the app makes one per hand).")


class HandBodySchema(Schema):
    kind = fields.String(load_default="play", validate=validate.OneOf(["play", "penalty"]))
    maker = Side(load_default=None, allow_none=True)
    tricks = Int(load_default=None, allow_none=True)
    alone = Bool(load_default=False)
    loner_seat = Int(load_default=None, allow_none=True, validate=SEAT)
    renege = fields.Nested(RenegeSchema, load_default=None, allow_none=True)
    surrendered = ListOf(Int(validate=SEAT), load_default=list, max_items=4)
    dealer = Int(load_default=None, allow_none=True, validate=SEAT)
    trump = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(
        ["hearts", "diamonds", "spades", "clubs"]))
    note = TextField(load_default=None, allow_none=True, max_length=200)


class HandCreateSchema(HandBodySchema):
    id = fields.String(required=True, validate=HAND_ID,
                       metadata={"description": "Made on the phone; sending the same hand "
                                 "again stores it once."})


class HandSchema(Schema):
    id = fields.String(required=True)
    number = Int(required=True)
    kind = fields.String(required=True)
    maker = fields.String(allow_none=True)
    alone = Bool(required=True)
    loner_seat = Int(allow_none=True)
    tricks = Int(allow_none=True)
    renege = fields.Nested(RenegeSchema, allow_none=True)
    surrendered = fields.List(Int(), required=True)
    dealer = Int(allow_none=True)
    trump = fields.String(allow_none=True)
    note = fields.String(allow_none=True)
    points = fields.Nested(SidePointsSchema, required=True)
    result = fields.String(required=True)
    outcome = fields.String(required=True)
    bumps = fields.Dict(keys=fields.String(), values=Int(), required=True)
    created_at = fields.DateTime(required=True)


class GamePlayerSchema(Schema):
    seat = Int(required=True)
    player_id = Int(allow_none=True)
    name = fields.String(required=True)


class GameSideSchema(Schema):
    name = fields.String(required=True)
    team_id = Int(allow_none=True)
    players = fields.List(fields.Nested(GamePlayerSchema), required=True)


class GameSidesSchema(Schema):
    A = fields.Nested(GameSideSchema, required=True)
    B = fields.Nested(GameSideSchema, required=True)


class GameRoundSchema(Schema):
    id = Int(required=True)
    number = Int(required=True)
    label = fields.String(required=True)
    status = fields.String(required=True)
    time_called = Bool(required=True)


class GameFormatSchema(Schema):
    target_points = Int(allow_none=True)
    hands_per_game = Int(allow_none=True)
    description = fields.String(required=True)


class TieSchema(Schema):
    method = fields.String(required=True)
    winner = fields.String(required=True)


class MatchGameSchema(Schema):
    id = Int(required=True)
    number = Int(required=True)
    winner = fields.String(allow_none=True)
    over = Bool(required=True)


class GameMatchSchema(Schema):
    games_planned = Int(required=True)
    best_of = Bool(required=True)
    games_won = fields.Nested(SidePointsSchema, required=True)
    over = Bool(required=True)
    winner = fields.String(allow_none=True)
    games = fields.List(fields.Nested(MatchGameSchema), required=True)


class DealingSchema(Schema):
    seat = Int(required=True, metadata={"description": "The seat due to deal the next hand."})
    for_ghost = Bool(required=True, metadata={
        "description": "The seat is the ghost's: its partner deals the ghost's cards."})
    name = fields.String(allow_none=True, metadata={"description": "Who handles the deal."})


class SignerSchema(Schema):
    seat = Int(required=True)
    player_id = Int(required=True)
    name = fields.String(required=True)
    side = fields.String(required=True)


class GameSchema(Schema):
    id = Int(required=True)
    event_id = Int(required=True)
    match_id = Int(required=True)
    number = Int(required=True)
    label = fields.String(required=True)
    stage = fields.String(required=True)
    table = Int(required=True)
    round = fields.Nested(GameRoundSchema, required=True)
    format = fields.Nested(GameFormatSchema, required=True)
    sides = fields.Nested(GameSidesSchema, required=True)
    points = fields.Nested(SidePointsSchema, required=True)
    hands_played = Int(required=True)
    hands_to_go = Int(allow_none=True)
    points_to_target = fields.Nested(SidePointsSchema, allow_none=True)
    over = Bool(required=True)
    end = fields.String(allow_none=True)
    winner = fields.String(allow_none=True)
    level = Bool(required=True)
    needs_settlement = Bool(required=True)
    tie = fields.Nested(TieSchema, allow_none=True)
    attention = fields.String(allow_none=True, metadata={
        "description": "What the finished game still needs from a person, in words (a level "
                       "game's playoff hand or card draw), or null."})
    forfeited_by = fields.String(allow_none=True)
    from_sheet = Bool(required=True)
    first_dealer = Int(allow_none=True)
    dealer = Int(allow_none=True)
    dealing = fields.Nested(DealingSchema, allow_none=True, metadata={
        "description": "Who deals the next hand (null when nobody knows, or the game is over)."})
    signers = fields.List(fields.Nested(SignerSchema), required=True, metadata={
        "description": "The players who may sign the finished game off (the side that lost; "
                       "either side when a level championship game stands)."})
    bumps = fields.Dict(keys=fields.String(), values=Int(), required=True)
    signed_off = Bool(required=True)
    signed_off_by = fields.String(allow_none=True)
    signed_off_at = fields.DateTime(allow_none=True)
    match = fields.Nested(GameMatchSchema, required=True)
    version = Int(required=True)
    hands = fields.List(fields.Nested(HandSchema), required=True)


class SheetSchema(Schema):
    points = fields.Nested(SidePointsSchema, required=True)
    bumps = fields.Dict(keys=fields.String(validate=validate.OneOf(["1", "2", "3", "4"])),
                        values=Int(validate=validate.Range(0, 1000)), load_default=dict)
    hands_played = Int(load_default=None, allow_none=True, validate=validate.Range(0, 50))
    tie = fields.Nested(lambda: SettlementSchema(), load_default=None, allow_none=True,
                        metadata={"description": "A level sheet's playoff hand or card draw, "
                                  "stored with it; refused on a sheet that is not level."})


class SettlementSchema(Schema):
    method = fields.String(required=True, validate=validate.OneOf(["playoff-hand",
                                                                   "card-draw"]))
    winner = Side(required=True)


class SignOffSchema(Schema):
    by = fields.String(required=True, validate=validate.Length(1, 120),
                       metadata={"description": "The opponent who signs the game off."})


class DealerSchema(Schema):
    seat = Int(required=True, allow_none=True, validate=SEAT)


# --- league ---------------------------------------------------------------------------------

class SeasonCreateSchema(Schema):
    weeks = Int(load_default=None, allow_none=True, validate=validate.Range(1, 60))
    first_night = fields.Date(load_default=None, allow_none=True, metadata={
        "description": "The date of week 1; the league night is that weekday, every week."})
    start_time = fields.Time(load_default=None, allow_none=True, metadata={
        "description": "When a league night starts, in the event's time zone (e.g. 19:00)."})
    division_final = Bool(load_default=False, metadata={
        "description": "With divisions: after each division's playoffs, its winners meet in "
                       "a final (else each division has its own champion)."})


class PostponeSchema(Schema):
    week = Int(required=True, validate=validate.Range(1, 60))
    reason = TextField(load_default="", max_length=200)
    mode = fields.String(load_default="make-up", validate=validate.OneOf(["make-up", "shift"]),
                         metadata={"description": "make-up (the default, as the league rules "
                                   "say): every other week keeps its night and the cancelled "
                                   "week is made up at the end (or on `date`); shift: it and "
                                   "every later week move one league night on."})
    date = fields.Date(load_default=None, allow_none=True, metadata={
        "description": "make-up only: the make-up night; by default a week after the "
                       "season's last night."})


class PlayoffNightSchema(Schema):
    round = Int(required=True, validate=validate.Range(1, 20), metadata={
        "description": "The playoff round: 1 for the first (in divisions, the division "
                       "rounds come first, then the final between division winners)."})
    date = fields.Date(required=True, allow_none=True, metadata={
        "description": "Its night; null: a week after the round before it."})


class PlayoffNightsSchema(Schema):
    nights = ListOf(fields.Nested(PlayoffNightSchema), required=True, max_items=20)
    reason = TextField(load_default="", max_length=200)


class ForfeitCreateSchema(Schema):
    team_id = Int(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(
        ["late", "no-show", "one-player"]))
    minutes_late = Int(load_default=None, allow_none=True, validate=validate.Range(0, 600),
                       metadata={"description": "For 'late': without it, measured from the "
                                 "night's start time to now."})
    note = TextField(load_default=None, allow_none=True, max_length=500)


class ForfeitResultSchema(Schema):
    games = fields.List(Int(), required=True)
    offences = Int(required=True)
    status = fields.String(required=True)
    message = fields.String(required=True)
    minutes_late = Int(allow_none=True)
    advance = Bool(metadata={"description": "Recorded before the night."})
    match = fields.Nested(GameMatchSchema, required=True)


class SeatChangeSchema(Schema):
    seat = Int(required=True, validate=SEAT)
    player_id = Int(required=True)


class TiebreakSchema(Schema):
    order = ListOf(Int(), required=True, max_items=5000)


# --- reading: leaderboard, awards, scoresheets, audit ---------------------------------------

class StandingRowSchema(Schema):
    place = Int(required=True, allow_none=True, metadata={
        "description": "None for an entrant struck from the places (a team removed from a "
                       "league): listed last, its results still count for its opponents."})
    entrant_id = Int(required=True)
    name = fields.String(required=True)
    members = fields.List(fields.String(), required=True)
    total = Int(required=True)
    games_won = Int(required=True)
    games_played = Int(required=True)
    rounds = fields.Dict(keys=fields.String(), values=Int(), required=True)
    shared = Bool(required=True)
    prize = Bool(required=True)
    movement = Int(allow_none=True, metadata={"description": "Places gained since the last "
                                              "round (negative: lost)."})
    withdrawn = Bool(required=True)
    removed = Bool(required=True, metadata={
        "description": "Removed from the league (its third week with a forfeit): no place, "
                       "no playoff seed."})
    stats = fields.Dict(keys=fields.String(), required=True)
    division = fields.String(required=True, allow_none=True, metadata={
        "description": "A league team's division (skill level), if the league has them."})
    division_place = Int(required=True, allow_none=True, metadata={
        "description": "The team's rank within its division (shared when level). A league "
                       "in divisions ranks each division on its own: `place` is this "
                       "division place and `prize` a prize place of the division; no "
                       "overall place."})
    disqualified = fields.String(required=True, allow_none=True, metadata={
        "description": "The reason, when the organizer disqualified this entrant: no place, "
                       "no prize; their results still count for their opponents."})
    payout = Int(required=True, allow_none=True, metadata={
        "description": "What this entrant takes home from the prize pool (whole units); null "
                       "when the event has no entry fee set."})
    profile = fields.String(required=True, allow_none=True, metadata={
        "description": "The player's public profile in the event's club (/c/<slug>/people/"
                       "<id>); null outside a club, for a private person and for teams."})


class TieEntrantSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)


class TieGroupSchema(Schema):
    place = Int(required=True)
    entrants = fields.List(fields.Nested(TieEntrantSchema), required=True)
    affects_prizes = Bool(required=True)
    division = fields.String(metadata={
        "description": "A league in divisions: the division whose place is shared."})


class CurrentRoundSchema(Schema):
    id = Int(required=True)
    number = Int(required=True)
    label = fields.String(required=True)
    status = fields.String(required=True)
    stage = fields.String(required=True)
    clock = fields.Nested(ClockSchema, allow_none=True)


class CutReasonSchema(Schema):
    id = Int(required=True)
    name = fields.String(allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(["through", "out", "level"]))
    reason = fields.String(required=True, metadata={"description": "The rule that decided, "
                                                    "in words."})


class ChampionshipSchema(Schema):
    decided_after_rounds = Int(allow_none=True)
    regular_rounds_done = Bool(required=True)
    qualified = fields.List(fields.Nested(RefSchema), required=True)
    contenders = fields.List(fields.Nested(RefSchema), required=True)
    playoff = fields.String(allow_none=True)
    spots = Int()
    finalists = fields.List(fields.Nested(RefSchema), required=True)
    champion = fields.Nested(RefSchema, allow_none=True)
    reasons = fields.List(fields.Nested(CutReasonSchema), required=True, metadata={
        "description": "Why each team goes through to the championship, is out, or plays "
                       "off (in standings order)."})


class LeaderboardSchema(Schema):
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    revision = Int(required=True)
    finished = Bool(required=True, metadata={
        "description": "The organizer marked the event finished: these results are final."})
    preset = fields.String(required=True)
    entry = fields.String(required=True)
    standings_kind = fields.String(required=True)
    rounds_played = Int(required=True)
    rounds_total = Int(allow_none=True)
    current_round = fields.Nested(CurrentRoundSchema, allow_none=True)
    rows = fields.List(fields.Nested(StandingRowSchema), required=True)
    ties = fields.List(fields.Nested(TieGroupSchema), required=True)
    recorded_order = fields.List(Int(), required=True, metadata={
        "description": "The organizer's recorded tie-break order (entrant ids), if any."})
    championship = fields.Nested(ChampionshipSchema)
    bump_cup_total = Int()
    money = fields.Nested("BoardMoneySchema", metadata={
        "description": "The prize pool, when the event has an entry fee."})
    categories = fields.List(fields.Nested("CategoryBoardSchema"), metadata={
        "description": "Each category's own place list (e.g. High lady / High man)."})
    draw = fields.Nested("DrawSchema", metadata={"description": "The latest door-prize draw."})
    door_prizes = fields.List(fields.Nested("DoorPrizeWinSchema"), metadata={
        "description": "Every door-prize winner with the draws they won, when there are draws."})
    named_awards = fields.List(fields.Nested("NamedAwardSchema"), metadata={
        "description": "The organizer's own awards, when there are any."})


class LowScoreSchema(Schema):
    total = Int(allow_none=True)
    entrants = fields.List(fields.Nested(RefSchema), required=True)
    earned = Bool(required=True, metadata={
        "description": "False until a game is finished: before that everyone is level on "
                       "nothing, and nobody has earned Low Score yet."})


class HighGameEntrySchema(Schema):
    id = Int(required=True)
    name = fields.String(allow_none=True)
    round = Int(required=True)


class HighGameSchema(Schema):
    points = Int(allow_none=True)
    games = fields.List(fields.Nested(HighGameEntrySchema), required=True)


class BumpPlayerSchema(Schema):
    id = Int(required=True)
    name = fields.String(allow_none=True)
    dollars = Int(required=True)


class BumpTableSchema(Schema):
    round = Int(required=True)
    table = Int(required=True)
    dollars = Int(required=True)


class BumpCupSchema(Schema):
    total = Int(required=True)
    players = fields.List(fields.Nested(BumpPlayerSchema), required=True)
    tables = fields.List(fields.Nested(BumpTableSchema), required=True)


class HandAwardSchema(Schema):
    award = fields.String(required=True)
    label = fields.String(required=True)
    value = fields.Float(allow_none=True)
    minimum_calls = Int(allow_none=True)
    players = fields.List(fields.Nested(RefSchema), required=True)


class AwardsSchema(Schema):
    low_score = fields.Nested(LowScoreSchema, required=True)
    high_game = fields.Nested(HighGameSchema, required=True)
    bump_cup = fields.Nested(BumpCupSchema, required=True)
    hands = fields.List(fields.Nested(HandAwardSchema), required=True, metadata={
        "description": "The awards from the hands the organizer chose (hand-by-hand games "
                       "only), players level on the figure sharing one."})
    named = fields.List(fields.Nested("NamedAwardSchema"), required=True, metadata={
        "description": "The organizer's own awards (Farthest Traveler, Sportsmanship, ...)."})


class SheetRowSchema(Schema):
    round = Int(required=True)
    label = fields.String(required=True)
    stage = fields.String(required=True)
    table = Int(required=True)
    seat = Int(required=True)
    partner = fields.String(required=True)
    opponents = fields.List(fields.String(), required=True)
    points = Int(required=True)
    against = Int(required=True)
    score = Int(required=True)
    won = fields.List(Bool(allow_none=True), required=True)
    games_won = Int(required=True)
    finished = Bool(required=True, metadata={"description": "Every game of the round is over."})
    running_total = Int(allow_none=True)


class UpcomingSchema(Schema):
    """A game the fixed schedule (WEC singles) already gives the player."""

    round = Int(required=True)
    label = fields.String(required=True)
    table = Int(required=True)
    seat = Int(required=True)
    partner = fields.String(required=True)
    opponents = fields.List(fields.String(), required=True)


class ScoresheetSchema(Schema):
    player_id = Int(required=True)
    name = fields.String(required=True)
    profile = fields.String(allow_none=True, metadata={
        "description": "In a club's event: the player's profile page (/c/<slug>/people/<id>), "
                       "unless the person is private."})
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    team_id = Int(allow_none=True)
    rounds = fields.List(fields.Nested(SheetRowSchema), required=True)
    upcoming = fields.List(fields.Nested(UpcomingSchema), required=True)
    total = Int(allow_none=True)


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


class SeasonMatchSchema(Schema):
    home = fields.Nested(RefSchema, required=True)
    away = fields.Nested(RefSchema, allow_none=True)
    bye = Bool(required=True)
    match_id = Int(allow_none=True)
    table = Int(allow_none=True)
    status = fields.String(allow_none=True)
    games_won = fields.Dict(keys=fields.String(), values=Int(), allow_none=True)
    forfeits = fields.List(Int())
    division = fields.String(allow_none=True)
    forfeit_details = fields.List(fields.Nested(lambda: ForfeitRowSchema()), metadata={
        "description": "Each forfeit: who, why, the games, and whether it was announced "
                       "before the night."})
    date = fields.Date(allow_none=True, metadata={
        "description": "The match's night: its week's, or its own when it was moved."})
    moved = fields.String(allow_none=True, metadata={
        "description": "Why the match was moved to a night of its own (null if it was not)."})


class SeasonWeekSchema(Schema):
    week = Int(required=True)
    round_id = Int(allow_none=True)
    status = fields.String(allow_none=True)
    date = fields.Date(allow_none=True, metadata={"description": "The league night."})
    start = fields.String(allow_none=True, metadata={"description": "Its start, HH:MM."})
    make_up = Bool(metadata={"description": "A cancelled week made up on another night."})
    cancelled_date = fields.String(allow_none=True, metadata={
        "description": "A make-up week's original night."})
    matches = fields.List(fields.Nested(SeasonMatchSchema), required=True)


class SeasonChangeSchema(Schema):
    week = Int(required=True)
    days = Int(required=True)
    reason = fields.String(required=True)
    at = fields.String(required=True)
    kind = fields.String(metadata={"description": "shift (the week and every later one "
                                   "move), make-up (that week alone moves) or match (one "
                                   "match moves)."})
    match_id = Int(allow_none=True)
    from_ = fields.String(allow_none=True, data_key="from", attribute="from",
                          metadata={"description": "The night it had before."})
    to = fields.String(allow_none=True, metadata={"description": "The new night."})
    text = fields.String(metadata={"description": "The change in a sentence."})


class OffenceSchema(Schema):
    team_id = Int(required=True)
    name = fields.String(required=True)
    offences = Int(required=True)
    status = fields.String(required=True)
    message = fields.String(required=True)
    removed = Bool(required=True)
    playoff_excluded = Bool(required=True)


class ForfeitChoiceSchema(Schema):
    reason = fields.String(required=True)
    minutes_late = Int(allow_none=True)
    games = fields.List(Int(), required=True)
    label = fields.String(required=True)


class SeasonSchema(Schema):
    weeks = fields.List(fields.Nested(SeasonWeekSchema), required=True)
    divisions = fields.List(fields.String(), required=True)
    play_order = fields.List(Int(), metadata={
        "description": "The week numbers in the order they are played (by night)."})
    changes = fields.List(fields.Nested(SeasonChangeSchema), required=True, metadata={
        "description": "Nights moved, in order: from which week, how many days, and why."})
    offences = fields.List(fields.Nested(OffenceSchema), required=True)
    forfeit_choices = fields.List(fields.Nested(ForfeitChoiceSchema), required=True, metadata={
        "description": "What the organizer can record as a forfeit, with the games each costs."})


class SeededSchema(Schema):
    id = Int(required=True)
    name = fields.String(allow_none=True)
    seed = Int(allow_none=True)


class BracketGameSchema(Schema):
    number = Int(required=True)
    points = fields.Dict(keys=fields.String(), values=Int(), required=True,
                         metadata={"description": "Points of teams a and b."})
    winner = Int(allow_none=True, metadata={"description": "The winning team's id."})


class BracketMatchSchema(Schema):
    a = fields.Nested(SeededSchema, required=True, allow_none=True,
                      metadata={"description": "Null while the match that sends a team here "
                                "is undecided."})
    b = fields.Nested(SeededSchema, allow_none=True)
    bye = Bool(required=True)
    division = fields.String(allow_none=True, metadata={
        "description": "The division whose bracket this match is in (leagues in divisions)."})
    match_id = Int(allow_none=True)
    games_won = fields.Dict(keys=fields.String(), values=Int(), allow_none=True)
    games = fields.List(fields.Nested(BracketGameSchema), required=True)
    winner = Int(allow_none=True)
    date = fields.Date(allow_none=True, metadata={
        "description": "The match's night: its round's, or its own when it was moved."})


class BracketRoundSchema(Schema):
    round = Int(required=True)
    label = fields.String(allow_none=True)
    round_id = Int(allow_none=True)
    projected = Bool(required=True, metadata={"description": "Not seated yet: before the "
                                              "draw, what the standings would give now."})
    date = fields.Date(allow_none=True, metadata={
        "description": "Its night: the one the organizer chose, else a week after the round "
                       "before it (the first round: a week after the season's last night)."})
    chosen = Bool(metadata={"description": "The organizer chose this round's night."})
    matches = fields.List(fields.Nested(BracketMatchSchema), required=True)


class SeedSchema(Schema):
    seed = Int(required=True)
    id = Int(required=True)
    name = fields.String(allow_none=True)
    division = fields.String(allow_none=True)


class BracketSchema(Schema):
    rounds = fields.List(fields.Nested(BracketRoundSchema), required=True)
    drawn = Bool(required=True)
    seeds = fields.List(fields.Nested(SeedSchema), required=True)


class QrSchema(Schema):
    text = TextField(required=True, min_length=1, max_length=1000)
    title = NameField(load_default="QR code")


class WhoAmISchema(Schema):
    key_id = Int(required=True)
    event_id = Int(required=True, allow_none=True, metadata={
        "description": "The key's event; null for a club key, which reaches every event of "
                       "its club."})
    event_name = fields.String(required=True, allow_none=True)
    role = fields.String(required=True)
    table = Int(allow_none=True)
    club_id = Int(allow_none=True, metadata={"description": "Set for a club key."})


# --- clubs, people, series ------------------------------------------------------------------

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


class PersonSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    private = Bool(required=True)
    events = Int(required=True)
    erased = Bool(load_default=False, dump_default=False, metadata={
        "description": "Erased at their request: the name is \"Former player N\"."})


class PersonDataSchema(Schema):
    """A person's data as one file (RULES.md section 9): their record, profile, entries and
    every hand they sat in."""

    format = fields.String(required=True, metadata={"example": "euchre-person-data"})
    version = Int(required=True)
    made_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC."})
    club = fields.Dict(required=True)
    person = fields.Dict(required=True)
    profile = fields.Dict(required=True)
    nights = fields.List(fields.Dict(), required=True)
    hands = fields.List(fields.Dict(), required=True)


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


class SeriesPageSchema(Schema):
    # Query strings are text: these integers are read from it (not strict as in bodies).
    offset = fields.Integer(load_default=0, validate=validate.Range(0, 10**6))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000), metadata={
        "description": "Rows to answer (a club of thousands would be megabytes at once)."})


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


# --- the event day: money, named awards, categories, door prizes (RULES.md §4) --------------

class SplitRowSchema(Schema):
    from_field = Int(required=True, validate=validate.Range(1, 10_000), metadata={
        "description": "The smallest field this row is for (the first row is from 1)."})
    percentages = ListOf(Int(validate=validate.Range(0, 100)), required=True, max_items=20,
                         metadata={"description": "Per cent of the pool to 1st, 2nd, ..."})


class MoneySetSchema(Schema):
    entry_fee = Int(required=True, validate=validate.Range(0, 100_000), metadata={
        "description": "Per entrant (per team in team formats), in whole units."})
    currency = fields.String(load_default="$", validate=validate.Regexp(
        r"^[^\s\d]{1,3}$", error="A currency is 1 to 3 symbols or letters, e.g. $ or EUR."))
    maintenance_amount = Int(load_default=0, validate=validate.Range(0, 10_000_000))
    maintenance_percent = Int(load_default=0, validate=validate.Range(0, 100))
    split = ListOf(fields.Nested(SplitRowSchema), max_items=20, load_default=None,
                   allow_none=True, metadata={
                       "description": "The payout split by field size; null: the default "
                                      "(RULES.md §4)."})


class MoneyPlaceSchema(Schema):
    place = Int(required=True)
    percent = Int(required=True)
    amount = Int(required=True)


class MoneyPayoutSchema(Schema):
    entrant_id = Int(required=True)
    name = fields.String(allow_none=True)
    place = Int(required=True)
    shared = Bool(required=True)
    amount = Int(required=True)
    paid = Bool(required=True, metadata={
        "description": "False: a winner not marked paid, to settle at the prize table."})


class MoneySchema(Schema):
    set = Bool(required=True, metadata={"description": "Whether the event has money set."})
    entry_fee = Int(required=True)
    currency = fields.String(required=True)
    maintenance_amount = Int(required=True)
    maintenance_percent = Int(required=True)
    split = fields.List(fields.Nested(SplitRowSchema), required=True)
    custom_split = Bool(required=True)
    paid = Int(required=True, metadata={"description": "Entrants marked paid."})
    unpaid = Int(required=True, metadata={
        "description": "Checked-in entrants not marked paid (a registered no-show owes "
                       "nothing)."})
    unpaid_winners = Int(required=True, metadata={
        "description": "Of those taking prize money, how many are not marked paid."})
    collected = Int(required=True)
    maintenance = Int(required=True)
    pool = Int(required=True)
    remainder = Int(required=True, metadata={
        "description": "What did not divide evenly among shared places: the organizer's."})
    kept_by_organizer = Int(required=True, metadata={
        "description": "The maintenance fee and the remainder."})
    field_size = Int(required=True)
    places = fields.List(fields.Nested(MoneyPlaceSchema), required=True)
    payouts = fields.List(fields.Nested(MoneyPayoutSchema), required=True)


class BoardMoneySchema(Schema):
    currency = fields.String(required=True)
    pool = Int(required=True)
    paid_places = Int(required=True)
    remainder = Int(required=True)


class NamedAwardSetSchema(Schema):
    name = Name(required=True, max_length=60)
    winners = ListOf(Int(), required=True, min_items=1, max_items=20, metadata={
        "description": "Entrant ids (players, or teams in team formats)."})
    note = TextField(load_default=None, allow_none=True, max_length=200, metadata={
        "description": "E.g. the game it was for ('round 3, table 7')."})


class NamedAwardsSetSchema(Schema):
    awards = ListOf(fields.Nested(NamedAwardSetSchema), required=True, max_items=30)


class NamedAwardSchema(Schema):
    name = fields.String(required=True)
    note = fields.String(allow_none=True)
    winners = fields.List(fields.Nested(RefSchema), required=True)


class CategorySetSchema(Schema):
    name = Name(required=True, max_length=40)
    prize_places = Int(load_default=1, validate=validate.Range(0, 20))


class CategoriesSetSchema(Schema):
    categories = ListOf(fields.Nested(CategorySetSchema), required=True, max_items=10)


class CategorySchema(Schema):
    name = fields.String(required=True)
    prize_places = Int(required=True)


class CategoryRowSchema(Schema):
    entrant_id = Int(required=True)
    name = fields.String(required=True)
    place = Int(required=True, allow_none=True)
    total = Int(required=True)
    shared = Bool(required=True)
    prize = Bool(required=True)


class CategoryBoardSchema(CategorySchema):
    rows = fields.List(fields.Nested(CategoryRowSchema), required=True)


class DrawCreateSchema(Schema):
    count = Int(load_default=1, validate=validate.Range(1, 50))
    leave_out_prize_winners = Bool(load_default=True)
    leave_out_drawn = Bool(load_default=True)
    seed = Int(load_default=None, allow_none=True, validate=validate.Range(0, 2**31 - 1),
               metadata={"description": "Draw with this seed (normally left out: the server "
                                        "picks one). To check an earlier draw, repeat it: "
                                        "GET /draws/<number>/repeat."})


class DrawSchema(Schema):
    number = Int(required=True)
    at = fields.String(required=True)
    seed = Int(required=True)
    count = Int(required=True)
    leave_out_prize_winners = Bool(required=True)
    leave_out_drawn = Bool(required=True)
    candidates = Int(required=True, metadata={"description": "How many were in the draw."})
    candidate_list = fields.List(fields.Nested(RefSchema), metadata={
        "description": "Who was in the draw, in the stable order the draw used (by id); "
                       "absent on the leaderboard and on draws made before lists were kept."})
    winners = fields.List(fields.Nested(RefSchema), required=True)


class DrawRepeatSchema(Schema):
    number = Int(required=True, metadata={"description": "The draw repeated."})
    seed = Int(required=True)
    candidates = Int(required=True)
    winners = fields.List(fields.Nested(RefSchema), required=True, metadata={
        "description": "The winners the draw's own candidate list and seed give now."})
    recorded = fields.List(fields.Nested(RefSchema), required=True, metadata={
        "description": "The winners recorded when the draw was made."})
    same = Bool(required=True, metadata={
        "description": "True when the repeat gives the recorded winners, in the same order."})


class DoorPrizeWinSchema(Schema):
    entrant_id = Int(required=True)
    draws = fields.List(Int(), required=True, metadata={
        "description": "The numbers of the draws this entrant won."})


# --- the check-in window and self check-in at the door (RULES.md §4) ------------------------

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
    since = fields.DateTime(validate=lambda moment: 2000 <= moment.year <= 2100 or _refuse(
        "Give a date between the years 2000 and 2100."), metadata={
        "description": "Decline the waiting requests made at this time or later (without an "
                       "offset: the event's time zone). Neither given: every waiting one."})


class DoorDeclinedSchema(Schema):
    declined = Int(required=True, metadata={"description": "How many were declined."})
    names = fields.List(fields.String(), required=True)


# --- a game from its paper sheet ------------------------------------------------------------

BATCH_ID = validate.Regexp(r"\A[A-Za-z0-9_.:-]{1,56}\Z",
                           error="A batch id is 1 to 56 letters, digits or _ . : - (the app "
                                 "makes one per sheet).")
SHEET_ROWS = 40  # a game to 10 or 11 is rarely past 20 hands; thrown-in cards add a few


class HandRowSchema(HandBodySchema):
    id = fields.String(load_default=None, validate=HAND_ID, metadata={
        "description": "The hand's id; left out, it is '<batch id>.<row>' (row 1 first)."})


class HandBatchSchema(Schema):
    id = fields.String(required=True, validate=BATCH_ID, metadata={
        "description": "Made by the app, one per sheet: sending the sheet again stores it "
                       "once."})
    hands = ListOf(fields.Nested(HandRowSchema), required=True, min_items=1,
                   max_items=SHEET_ROWS, metadata={
                       "description": "The sheet's hands in order, as POST /hands takes "
                                      "them. A mistake is reported on its row: errors.hands"
                                      ".<index from 0>."})
    tie = fields.Nested(SettlementSchema, load_default=None, allow_none=True, metadata={
        "description": "A game that ends level: who won its playoff hand or card draw."})


# --- league operations: make-ups, moved matches, captains -----------------------------------

class ForfeitRowSchema(Schema):
    team_id = Int(required=True)
    name = fields.String(allow_none=True)
    reason = fields.String(required=True)
    minutes_late = Int(allow_none=True)
    games = fields.List(Int(), required=True)
    advance = Bool(required=True, metadata={"description": "Announced before the night."})
    announced_by = fields.String(allow_none=True, metadata={
        "description": "organizer or team (the captain's key)."})
    note = fields.String(allow_none=True)


class MakeUpSchema(Schema):
    week = Int(required=True, validate=validate.Range(1, 60))
    reason = TextField(load_default="", max_length=200)
    date = fields.Date(load_default=None, allow_none=True, metadata={
        "description": "The make-up night; by default a week after the season's last night."})


class MoveMatchSchema(Schema):
    match_id = Int(required=True, validate=validate.Range(1, 2**31 - 1))
    date = fields.Date(required=True, metadata={"description": "The match's new night."})
    reason = TextField(load_default="", max_length=200)


def _refuse(message: str):
    raise ma.ValidationError(message)


class RegistrationSetSchema(Schema):
    closes = fields.DateTime(allow_none=True, validate=lambda moment: 2000 <= moment.year
                             <= 2100 or _refuse("Give a date between the years 2000 and 2100."),
                             metadata={
        "description": "When captains' registration closes, in the event's time zone "
                       "(e.g. 2027-01-04T23:59); null: no deadline."})
    lock_after_week = Int(validate=validate.Range(1, 60), metadata={
        "description": "Rosters are final once this many weeks are played (default 2)."})
    rotate = Bool(metadata={"description": "A new link: the old QR stops working."})
    divisions = ListOf(Name(max_length=40), allow_none=True, max_items=20, metadata={
        "description": "The divisions a captain chooses from when registering (then every "
                       "captain chooses one); empty or null: captains choose none."})


class RegistrationSchema(Schema):
    token = fields.String(allow_none=True)
    link = fields.String(allow_none=True, metadata={
        "description": "The team registration page, for the printable QR."})
    code = fields.String(required=True)
    closes_at = fields.DateTime(allow_none=True)
    closes = fields.String(allow_none=True, metadata={"description": "In the venue's time."})
    time_zone = fields.String(required=True)
    open = Bool(required=True)
    message = fields.String(required=True)
    lock_after_week = Int(required=True)
    roster_locked = Bool(required=True)
    roster_message = fields.String(required=True)
    divisions = fields.List(fields.String(), required=True, metadata={
        "description": "The divisions captains choose from (empty: none)."})


class RegistrationQuerySchema(Schema):
    token = fields.String(required=True, validate=validate.Length(1, 64), metadata={
        "description": "The token of the registration link."})


class RegistrationPageSchema(Schema):
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    code = fields.String(required=True)
    open = Bool(required=True)
    message = fields.String(required=True)
    closes = fields.String(allow_none=True)
    time_zone = fields.String(required=True)
    lock_after_week = Int(required=True)
    substitutes = Int(required=True, metadata={"description": "At most this many."})
    divisions = fields.List(fields.String(), required=True, metadata={
        "description": "The divisions to choose from (empty: the organizer places teams)."})


class CaptainRegisterSchema(Schema):
    token = fields.String(required=True, validate=validate.Length(1, 64))
    name = Name(required=True)
    players = ListOf(Name(), required=True, max_items=10)
    substitutes = ListOf(Name(), load_default=list, max_items=50)
    division = Name(load_default=None, allow_none=True, max_length=40, metadata={
        "description": "One of the registration page's divisions: required when it lists "
                       "any, refused when it lists none."})


class LinkTeamsRemoveSchema(Schema):
    since = fields.DateTime(validate=lambda moment: 2000 <= moment.year <= 2100 or _refuse(
        "Give a date between the years 2000 and 2100."), metadata={
        "description": "Only teams registered at this time or later (without an offset: the "
                       "event's time zone); left out: every team registered through the "
                       "link."})


class LinkTeamsRemovedSchema(Schema):
    removed = Int(required=True, metadata={"description": "How many teams were removed."})
    names = fields.List(fields.String(), required=True)


class CaptainRegisteredSchema(Schema):
    event_id = Int(required=True)
    team = fields.Nested(TeamSchema, required=True)
    key = fields.String(required=True, metadata={"description": "The team key, shown once."})
    link = fields.String(required=True, metadata={"description": "The captain's team page."})


class RosterUpdateSchema(Schema):
    name = Name()
    players = ListOf(Name(), max_items=10)
    substitutes = ListOf(Name(), max_items=50)


class AdvanceForfeitSchema(Schema):
    week = Int(required=True, validate=validate.Range(1, 60))
    note = TextField(load_default=None, allow_none=True, max_length=500)


class TeamWeekSchema(Schema):
    week = Int(required=True)
    date = fields.Date(allow_none=True)
    start = fields.String(allow_none=True)
    status = fields.String(allow_none=True)
    bye = Bool(required=True)
    opponent = fields.Nested(RefSchema, allow_none=True)
    home = Bool(allow_none=True)
    table = Int(allow_none=True)
    match_id = Int(allow_none=True)
    games_won = fields.Dict(keys=fields.String(), values=Int(), allow_none=True)
    points = Int(allow_none=True, metadata={"description": "Standings points (7/5/2/0)."})
    forfeits = fields.List(fields.Nested(ForfeitRowSchema), required=True)


class TeamPlayoffSchema(Schema):
    round = Int(required=True, metadata={"description": "1 for the first playoff round."})
    label = fields.String(allow_none=True)
    round_id = Int(required=True)
    status = fields.String(required=True)
    date = fields.Date(allow_none=True, metadata={
        "description": "The match's night: its round's, or its own when it was moved."})
    start = fields.String(allow_none=True)
    opponent = fields.Nested(RefSchema, required=True)
    table = Int(allow_none=True)
    match_id = Int(required=True)
    games_won = fields.Dict(keys=fields.String(), values=Int(), required=True)
    won = Bool(allow_none=True, metadata={"description": "Went through (null: undecided)."})


class TeamRosterSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    division = fields.String(allow_none=True)
    players = fields.List(fields.String(), required=True)
    substitutes = fields.List(fields.String(), required=True)


class TeamScheduleSchema(Schema):
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    time_zone = fields.String(required=True)
    team = fields.Nested(TeamRosterSchema, required=True)
    roster_locked = Bool(required=True)
    lock_after_week = Int(required=True)
    roster_message = fields.String(required=True)
    offences = fields.Nested(OffenceSchema, allow_none=True)
    weeks = fields.List(fields.Nested(TeamWeekSchema), required=True)
    playoffs = fields.List(fields.Nested(TeamPlayoffSchema), required=True, metadata={
        "description": "The team's playoff matches drawn so far, with their nights."})


class TeamKeyIssuedSchema(Schema):
    team_id = Int(required=True)
    key = fields.String(required=True, metadata={"description": "Shown once."})
    link = fields.String(required=True, metadata={"description": "The captain's team page."})
