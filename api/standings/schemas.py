"""The API's shapes for standings: standings and prizes: standings computed from the results,
tiebreaks, awards, score sheets, money and payouts, named awards, categories and door-prize
draws."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.schemas import Bool, Int, ListOf, Name, RefSchema, Schema, TextField

# --- tiebreaks, awards and score sheets -----------------------------------------------------------

class TiebreakSchema(Schema):
    order = ListOf(Int(), required=True, max_items=5000)


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
    notes = fields.List(fields.String(), required=True, metadata={
        "description": "The round's rulings and the organizer's changes after the correction "
                       "window, each with its reason."})


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


# --- the event day: money, named awards, categories, door prizes (RULES.md §4) --------------------

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
