"""The API's shapes for rounds: rounds: planning and seating the next one by the format's
movement, the clock, the round's view, seat changes and the teams format's championship."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import SEAT, Bool, Int, ListOf, RefSchema, Schema, SidePointsSchema


class RoundCreateSchema(Schema):
    number = Int(load_default=None, allow_none=True, validate=validate.Range(1, 1000),
                 metadata={"description": "The round you expect to seat; a repeat is refused."})
    balanced = Bool(load_default=False, metadata={
        "description": "Seat the first round with partners balanced by rating (progressive "
                       "and WEC singles only; refused for other formats and later rounds)."})


class PreviewArgsSchema(Schema):
    balanced = fields.Boolean(load_default=False, truthy={"true", "1"}, falsy={"false", "0"},
                              metadata={
                                  "description": "Preview the first round balanced by "
                                                 "rating (as `balanced` when seating)."})


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
    status = fields.String(required=True, metadata={
        "description": "scheduled (its round, a league week to come, has not started: no "
                       "score yet), playing or over."})
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


class TableWaitSchema(Schema):
    kind = fields.String(required=True, metadata={
        "description": "What the table waits for: 'call' (it called the organizer), "
                       "'mismatch' (double entry: the pairs entered a hand differently), "
                       "'confirm' (confirm_each_hand: the other side to confirm a hand), "
                       "'enter' (double entry: the other side to enter a hand itself), "
                       "'sign_off' (a finished game the opponents have not signed off, where "
                       "the format asks for it and the event checks scores by sign-off)."})
    game_id = Int(required=True)
    number = Int(allow_none=True, metadata={
        "description": "The hand it is about (a mismatch: the number to settle at "
                       "/api/games/<game_id>/mismatches/<number>/settle)."})
    side = fields.String(allow_none=True, metadata={
        "description": "The side waited on ('A' or 'B'), for 'confirm' and 'enter'."})
    age_seconds = Int(required=True, metadata={
        "description": "How long it has waited, by the server's clock."})
    call_id = Int(metadata={"description": "A call's id (to answer it)."})
    round_number = Int(metadata={"description": "A call's round: the round of the game the "
                                                "table called about."})
    words = fields.String(required=True, metadata={
        "description": "The wait in a sentence, as the progress board shows it."})


class LateCallSchema(TableWaitSchema):
    table = Int(required=True, metadata={"description": "The table that called."})


class RoundTableSchema(Schema):
    match_id = Int(required=True)
    table = Int(required=True)
    status = fields.String(required=True, metadata={
        "description": "scheduled (its round has not started), playing or over."})
    winner = fields.String(allow_none=True)
    signed_off = Bool(required=True)
    team_a = fields.Nested(RefSchema, allow_none=True)
    team_b = fields.Nested(RefSchema, allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    games = fields.List(fields.Nested(TableGameSchema), required=True)
    waits = fields.List(fields.Nested(TableWaitSchema), required=True, metadata={
        "description": "What the table waits for and on whom, what needs the organizer "
                       "first (a call, then a mismatch, then an entry to confirm or enter, "
                       "then a sign-off); empty when nothing waits. A closed round still "
                       "lists a call made after it closed, and a change proposed in its "
                       "correction window."})
    waiting = Bool(required=True, metadata={"description": "Whether anything waits."})


class ProgressSchema(Schema):
    tables = Int(required=True)
    finished = Int(required=True)
    hands = Int(required=True, metadata={"description": "Hands counted at its tables (under "
                                         "confirm each hand or double entry: agreed ones)."})
    begun = Bool(required=True, metadata={
        "description": "Play has begun: a hand has been entered at one of its tables, counted "
                       "or still waiting for the other pair to agree it. Until then the "
                       "projector shows where everyone sits."})
    waiting = Int(required=True, metadata={"description": "Tables where something waits."})


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
    late_calls = fields.List(fields.Nested(LateCallSchema), required=True, metadata={
        "description": "In the round being played: the calls still waiting from tables about "
                       "games of other rounds (a correction after an earlier round closed), "
                       "oldest first, each with its table and round. Empty otherwise."})


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


class BalanceSchema(Schema):
    spread = fields.Float(required=True, metadata={
        "description": "The largest difference between two sides' ratings (sums of mu) at a "
                       "table without a ghost, as balanced."})
    drawn_spread = fields.Float(required=True, metadata={
        "description": "The same in the random draw it was balanced from."})
    rated = Int(required=True, metadata={"description": "Players with a rating."})
    players = Int(required=True)


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
    balance = fields.Nested(BalanceSchema, allow_none=True, metadata={
        "description": "When the round was asked balanced: the spread it achieved."})


class RoundSwapSchema(Schema):
    a = Int(required=True, metadata={"description": "A seated entrant: a player's id, or a "
                                     "team's in a team format."})
    b = Int(required=True, metadata={"description": "The entrant to change places with."})


class SeatSwapSchema(Schema):
    seats = ListOf(Int(validate=SEAT), required=True, min_items=2, max_items=2, metadata={
        "description": "The two seats (1-4) whose players sat in each other's places."})
