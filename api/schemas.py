"""marshmallow schemas: the API's input and output shapes (shape only; meaning is in rules/)."""

from __future__ import annotations

from functools import partial

import marshmallow as ma
from marshmallow import fields, validate

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


def _nul_fields(data, path: str = "") -> list[str]:
    """Where a NUL character hides in the input: text that PostgreSQL cannot store."""
    if isinstance(data, str):
        return [path or "_schema"] if "\x00" in data else []
    if isinstance(data, dict):
        return [found for key, value in data.items()
                for found in _nul_fields(key, path or "_schema") + _nul_fields(
                    value, f"{path}.{key}" if path else str(key))]
    if isinstance(data, list):
        return [found for value in data for found in _nul_fields(value, path)]
    return []


class Schema(ma.Schema):
    """Base: unknown fields are refused, so a typo in a field name is an error, not ignored."""

    class Meta:
        unknown = ma.RAISE
        ordered = True

    @ma.pre_load
    def refuse_nul(self, data, **kwargs):
        # PostgreSQL's text cannot hold NUL: storing or even comparing one was a 500 there.
        where = _nul_fields(data)
        if where:
            raise ma.ValidationError({name: ["Text cannot contain NUL (\\x00) characters."]
                                      for name in where})
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


# --- small shared pieces --------------------------------------------------------------------

SIDE = validate.OneOf(["A", "B"])
SEAT = validate.Range(1, 4)
Side = partial(fields.String, validate=SIDE)
Name = partial(fields.String, validate=validate.Length(1, 120))


class SidePointsSchema(Schema):
    A = Int(required=True)
    B = Int(required=True)


class RefSchema(Schema):
    id = Int(allow_none=True)
    name = fields.String(allow_none=True)


# --- events and access ----------------------------------------------------------------------

class EventCreateSchema(Schema):
    name = Name(required=True)
    preset = fields.String(required=True, metadata={"description": "A preset key, e.g. "
                                                    "'progressive'."})
    overrides = fields.Dict(keys=fields.String(), load_default=None,
                            metadata={"description": "Parameter changes for a custom format "
                                      "(see GET /api/presets)."})


class EventUpdateSchema(Schema):
    name = Name()
    status = fields.String(validate=validate.OneOf(["open", "finished"]))


class EventSchema(Schema):
    id = Int(required=True)
    code = fields.String(required=True)
    name = fields.String(required=True)
    preset = fields.String(required=True)
    format = fields.Nested(PresetSchema, required=True)
    status = fields.String(required=True)
    revision = Int(required=True)
    created_at = fields.DateTime(required=True)
    players = Int(required=True)
    teams = Int(required=True)
    rounds = Int(required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class EventCreatedSchema(EventSchema):
    organizer_key = fields.String(required=True, metadata={
        "description": "Shown once: keep it. Send it as 'Authorization: Bearer <key>'."})
    join_pin = fields.String(required=True)


class AccessSchema(Schema):
    code = fields.String(required=True)
    join_pin = fields.String(required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class KeyCreateSchema(Schema):
    table = Int(load_default=None, allow_none=True, validate=validate.Range(1, 1000))
    label = fields.String(load_default="", validate=validate.Length(0, 80))


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

class PlayerCreateSchema(Schema):
    name = Name(required=True)
    checked_in = Bool(load_default=False)


class PlayerUpdateSchema(Schema):
    name = Name()
    checked_in = Bool()
    withdrawn = Bool()


class PlayerSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    position = Int(required=True)
    team_id = Int(allow_none=True)
    role = fields.String(required=True)
    checked_in = Bool(required=True)
    late = Bool(required=True)
    withdrawn = Bool(required=True)


class TeamCreateSchema(Schema):
    name = Name(required=True)
    players = fields.List(Name(), required=True)
    substitutes = fields.List(Name(), load_default=list)
    checked_in = Bool(load_default=False)


class TeamUpdateSchema(Schema):
    name = Name()
    withdrawn = Bool()
    playoff_excluded = Bool()
    checked_in = Bool()


class TeamSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)
    position = Int(required=True)
    withdrawn = Bool(required=True)
    removed = Bool(required=True)
    playoff_excluded = Bool(required=True)
    members = fields.List(fields.Nested(PlayerSchema), required=True)


class SubstituteCreateSchema(Schema):
    name = Name(required=True)


class ImportSchema(Schema):
    # Needed when the body is JSON (a text/csv body is the CSV itself); never null.
    csv = fields.String(validate=validate.Length(1, 1_000_000),
                        metadata={"description": "CSV text with a header row: 'name' for "
                                  "players; 'team,player1,player2[,substitutes]' for teams."})


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
    tables = fields.List(fields.Nested(PlanTableSchema), required=True)


# --- games and hands ------------------------------------------------------------------------

class RenegeSchema(Schema):
    by = Side(required=True, metadata={"description": "The side accused of reneging."})
    upheld = Bool(required=True)


HAND_ID = validate.Regexp(r"^[A-Za-z0-9_.:-]{1,64}$",
                          error="A hand id is 1 to 64 letters, digits or _ . : - "
                                "(the app makes one per hand).")


class HandBodySchema(Schema):
    kind = fields.String(load_default="play", validate=validate.OneOf(["play", "penalty"]))
    maker = Side(load_default=None, allow_none=True)
    tricks = Int(load_default=None, allow_none=True)
    alone = Bool(load_default=False)
    loner_seat = Int(load_default=None, allow_none=True, validate=SEAT)
    renege = fields.Nested(RenegeSchema, load_default=None, allow_none=True)
    surrendered = fields.List(Int(validate=SEAT), load_default=list,
                              validate=validate.Length(max=4))
    dealer = Int(load_default=None, allow_none=True, validate=SEAT)
    trump = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(
        ["hearts", "diamonds", "spades", "clubs"]))
    note = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, 200))


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
    forfeited_by = fields.String(allow_none=True)
    from_sheet = Bool(required=True)
    first_dealer = Int(allow_none=True)
    dealer = Int(allow_none=True)
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


class ForfeitCreateSchema(Schema):
    team_id = Int(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(
        ["late", "no-show", "one-player"]))
    minutes_late = Int(load_default=None, allow_none=True, validate=validate.Range(0, 600))
    note = fields.String(load_default=None, allow_none=True, validate=validate.Length(0, 500))


class ForfeitResultSchema(Schema):
    games = fields.List(Int(), required=True)
    offences = Int(required=True)
    status = fields.String(required=True)
    message = fields.String(required=True)
    match = fields.Nested(GameMatchSchema, required=True)


class SeatChangeSchema(Schema):
    seat = Int(required=True, validate=SEAT)
    player_id = Int(required=True)


class TiebreakSchema(Schema):
    order = fields.List(Int(), required=True, validate=validate.Length(0, 5000))


# --- reading: leaderboard, awards, scoresheets, audit ---------------------------------------

class StandingRowSchema(Schema):
    place = Int(required=True)
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
    stats = fields.Dict(keys=fields.String(), required=True)


class TieEntrantSchema(Schema):
    id = Int(required=True)
    name = fields.String(required=True)


class TieGroupSchema(Schema):
    place = Int(required=True)
    entrants = fields.List(fields.Nested(TieEntrantSchema), required=True)
    affects_prizes = Bool(required=True)


class CurrentRoundSchema(Schema):
    id = Int(required=True)
    number = Int(required=True)
    label = fields.String(required=True)
    status = fields.String(required=True)
    stage = fields.String(required=True)
    clock = fields.Nested(ClockSchema, allow_none=True)


class ChampionshipSchema(Schema):
    decided_after_rounds = Int(allow_none=True)
    regular_rounds_done = Bool(required=True)
    qualified = fields.List(fields.Nested(RefSchema), required=True)
    contenders = fields.List(fields.Nested(RefSchema), required=True)
    playoff = fields.String(allow_none=True)
    spots = Int()
    finalists = fields.List(fields.Nested(RefSchema), required=True)
    champion = fields.Nested(RefSchema, allow_none=True)


class LeaderboardSchema(Schema):
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    revision = Int(required=True)
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


class LowScoreSchema(Schema):
    total = Int(allow_none=True)
    entrants = fields.List(fields.Nested(RefSchema), required=True)


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


class AwardsSchema(Schema):
    low_score = fields.Nested(LowScoreSchema, required=True)
    high_game = fields.Nested(HighGameSchema, required=True)
    bump_cup = fields.Nested(BumpCupSchema, required=True)


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
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    team_id = Int(allow_none=True)
    rounds = fields.List(fields.Nested(SheetRowSchema), required=True)
    upcoming = fields.List(fields.Nested(UpcomingSchema), required=True)
    total = Int(allow_none=True)


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


class SeasonWeekSchema(Schema):
    week = Int(required=True)
    round_id = Int(allow_none=True)
    status = fields.String(allow_none=True)
    matches = fields.List(fields.Nested(SeasonMatchSchema), required=True)


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
    match_id = Int(allow_none=True)
    games_won = fields.Dict(keys=fields.String(), values=Int(), allow_none=True)
    games = fields.List(fields.Nested(BracketGameSchema), required=True)
    winner = Int(allow_none=True)


class BracketRoundSchema(Schema):
    round = Int(required=True)
    label = fields.String(allow_none=True)
    round_id = Int(allow_none=True)
    projected = Bool(required=True, metadata={"description": "Not seated yet: before the "
                                              "draw, what the standings would give now."})
    matches = fields.List(fields.Nested(BracketMatchSchema), required=True)


class SeedSchema(Schema):
    seed = Int(required=True)
    id = Int(required=True)
    name = fields.String(allow_none=True)


class BracketSchema(Schema):
    rounds = fields.List(fields.Nested(BracketRoundSchema), required=True)
    drawn = Bool(required=True)
    seeds = fields.List(fields.Nested(SeedSchema), required=True)


class QrSchema(Schema):
    text = fields.String(required=True, validate=validate.Length(1, 1000))
    title = fields.String(load_default="QR code", validate=validate.Length(1, 120))


class WhoAmISchema(Schema):
    key_id = Int(required=True)
    event_id = Int(required=True)
    event_name = fields.String(required=True)
    role = fields.String(required=True)
    table = Int(allow_none=True)
