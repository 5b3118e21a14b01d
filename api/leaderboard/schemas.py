"""The API's shapes for leaderboard: the live leaderboard: the board, per-revision cache, kept
totals and the body with its ETag and gzip."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import Bool, Int, RefSchema, Schema
from ..rounds.schemas import ClockSchema


class RowWaitingSchema(Schema):
    hands = Int(required=True, metadata={
        "description": "Hands entered at this entrant's table that wait for the other side "
                       "to agree (not in `total` yet)."})
    mismatch = Bool(required=True, metadata={
        "description": "The two sides entered a hand differently: it waits to be settled."})
    changes = Int(required=True, metadata={
        "description": "Corrections of agreed hands waiting for the other side."})
    words = fields.String(required=True, metadata={
        "description": "What waits, in plain words (\"2 hands waiting to be agreed\")."})
    tables = fields.List(Int(), required=True)


class TableWaitingSchema(Schema):
    game_id = Int(required=True)
    round = Int(required=True, allow_none=True)
    table = Int(required=True)
    game = Int(required=True, metadata={"description": "The game's number in its match."})
    hands = Int(required=True, metadata={
        "description": "Hands entered that wait for the other side to agree (a hand both "
                       "sides entered counts once); none of them is in the totals yet."})
    mismatch = Bool(required=True, metadata={
        "description": "A hand the two sides entered differently waits to be settled."})
    changes = Int(required=True, metadata={
        "description": "Corrections of agreed hands waiting for the other side."})
    words = fields.String(required=True, metadata={"description": "The same, in plain words."})
    entrants = fields.List(Int(), required=True, metadata={
        "description": "The entrants playing this game (their rows carry `waiting` too)."})


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
    waiting = fields.Nested(RowWaitingSchema, required=True, allow_none=True, metadata={
        "description": "Under confirm_each_hand or double_entry: what this entrant's table "
                       "in play entered that waits for agreement, left out of `total`; "
                       "null when nothing waits (always under sign_off)."})


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
    waiting = fields.List(fields.Nested(TableWaitingSchema), required=True, metadata={
        "description": "Under confirm_each_hand or double_entry: each game of a round in "
                       "play whose table has entries waiting for the other side (hands not "
                       "in the totals yet, a mismatch to settle), by round and table. Empty "
                       "under sign_off."})
