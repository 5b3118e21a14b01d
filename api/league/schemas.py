"""The API's shapes for league: the league: its season, nights, forfeits, playoffs, captains
and linked teams."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import SEAT, Bool, Int, ListOf, Name, RefSchema, Schema, TextField, refuse
from ..games.schemas import ProtestSchema
from ..night.schemas import TeamSchema

# --- the season, its postponements and seats -------------------------------------------------

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


class SeatChangeSchema(Schema):
    seat = Int(required=True, validate=SEAT)
    player_id = Int(required=True)


# --- the season's view and the playoff bracket ----------------------------------------------------

class SeasonMatchSchema(Schema):
    home = fields.Nested(RefSchema, required=True)
    away = fields.Nested(RefSchema, allow_none=True)
    bye = Bool(required=True)
    match_id = Int(allow_none=True)
    table = Int(allow_none=True)
    status = fields.String(allow_none=True, metadata={
        "description": "scheduled (its week has not started: no result yet), playing or "
                       "over."})
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
    ahead = fields.List(Int(), metadata={
        "description": "The weeks forfeited ahead that have not started: not offences yet."})
    ahead_message = fields.String(metadata={
        "description": "Those weeks, each with the offence it becomes when it starts."})
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


# --- league operations: make-ups, moved matches, captains -----------------------------------------

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
    offence = Int(metadata={"description": "The team's offence this forfeit is, or becomes "
                            "when its week starts."})
    counted = Bool(metadata={"description": "Its week has started, so it is an offence now."})
    offence_message = fields.String(metadata={"description": "That offence, in words."})


class MakeUpSchema(Schema):
    week = Int(required=True, validate=validate.Range(1, 60))
    reason = TextField(load_default="", max_length=200)
    date = fields.Date(load_default=None, allow_none=True, metadata={
        "description": "The make-up night; by default a week after the season's last night."})


class MoveMatchSchema(Schema):
    match_id = Int(required=True, validate=validate.Range(1, 2**31 - 1))
    date = fields.Date(required=True, metadata={"description": "The match's new night."})
    reason = TextField(load_default="", max_length=200)


class RegistrationSetSchema(Schema):
    closes = fields.DateTime(allow_none=True, validate=lambda moment: 2000 <= moment.year
                             <= 2100 or refuse("Give a date between the years 2000 and 2100."),
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
    since = fields.DateTime(validate=lambda moment: 2000 <= moment.year <= 2100 or refuse(
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
    protests = fields.List(fields.Nested(ProtestSchema), required=True, metadata={
        "description": "Protests the team lodged or that were lodged against it."})


class TeamKeyIssuedSchema(Schema):
    team_id = Int(required=True)
    key = fields.String(required=True, metadata={"description": "Shown once."})
    link = fields.String(required=True, metadata={"description": "The captain's team page."})
