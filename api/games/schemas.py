"""The API's shapes for games: a game at a table: its state, entering and correcting hands, a
paper sheet, the end of the game."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from ..core.schemas import SEAT, Bool, Int, ListOf, Schema, Side, SidePointsSchema, TextField

# --- games and hands ------------------------------------------------------------------------------

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


ENTERING_SIDE = ("Which side enters it, 'A' or 'B': needed when the event checks scores by "
                 "confirm_each_hand or double_entry (then the hand is kept as that side's "
                 "entry until the other side agrees); ignored under sign_off.")


class HandCreateSchema(HandBodySchema):
    id = fields.String(required=True, validate=HAND_ID,
                       metadata={"description": "Made on the phone; sending the same hand "
                                 "again stores it once."})
    side = Side(load_default=None, allow_none=True, metadata={"description": ENTERING_SIDE})


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
    state = fields.String(required=True, validate=validate.OneOf(["agreed", "ruled"]),
                          metadata={"description": "A stored hand is 'agreed': entered under "
                                    "sign-off, confirmed by the other side, or entered alike by "
                                    "both sides (or settled). 'ruled' is kept for a hand the "
                                    "organizer ruled on."})


ENTRY_STATES = ("pending", "mismatch")


class EntrySchema(Schema):
    id = fields.String(required=True, metadata={"description": "The id the phone made."})
    number = Int(required=True, metadata={"description": "The hand number it enters (a "
                                          "sheet: its first hand)."})
    count = Int(required=True, metadata={"description": "How many hands it enters."})
    kind = fields.String(required=True, validate=validate.OneOf(["hand", "sheet", "edit",
                                                                 "delete"]), metadata={
        "description": "'hand' or 'sheet': a new hand (or a sheet's hands) entered; 'edit' or "
                       "'delete': a change one side proposed to an agreed hand (`hand_id`), "
                       "which counts once the other side confirms it (or, under double "
                       "entry, makes the same change)."})
    hand_id = fields.String(allow_none=True, metadata={
        "description": "The agreed hand an 'edit' or 'delete' would change; else null."})
    side = fields.String(required=True, metadata={"description": "The side that entered it."})
    state = fields.String(required=True, validate=validate.OneOf(ENTRY_STATES), metadata={
        "description": "'pending': waiting for the other side (to confirm it, or to enter "
                       "the same hand); 'mismatch': both sides entered the hand and the "
                       "entries differ. An entry is not a hand: no total counts it."})
    created_at = fields.DateTime(required=True)
    hidden = Bool(required=True, metadata={
        "description": "Under double entry the other side's pending entry is not shown to a "
                       "side that has not entered that hand yet: then hand and sheet are "
                       "null."})
    hand = fields.Dict(allow_none=True, metadata={"description": "The hand's fields as "
                                                  "entered (as POST /hands takes them)."})
    sheet = fields.Dict(allow_none=True, metadata={"description": "A sheet's rows as "
                                                   "entered (hands) and its tie."})


class MismatchEntriesSchema(Schema):
    A = fields.Nested(EntrySchema, required=True)
    B = fields.Nested(EntrySchema, required=True)


class MismatchSchema(Schema):
    number = Int(required=True)
    kind = fields.String(required=True)
    entries = fields.Nested(MismatchEntriesSchema, required=True, metadata={
        "description": "Both sides' entries, side by side."})
    differ = fields.List(fields.String(), required=True, metadata={
        "description": "The fields in which the two entries differ."})


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


class CorrectionSchema(Schema):
    at = fields.String(required=True, metadata={"description": "When (ISO 8601, UTC)."})
    reason = fields.String(required=True)
    key_id = Int(allow_none=True)


class RulingSchema(Schema):
    id = Int(required=True)
    game_id = Int(required=True)
    kind = fields.String(required=True, metadata={
        "description": "adjust (points to a side), forfeit, protest_upheld (the protested "
                       "side forfeits) or protest_rejected (the result stands)."})
    side = fields.String(allow_none=True)
    points = Int(allow_none=True)
    reason = fields.String(required=True)
    protest_id = Int(allow_none=True)
    created_at = fields.DateTime(required=True)
    withdrawn = Bool(required=True)
    withdrawn_at = fields.DateTime(allow_none=True)
    withdrawn_reason = fields.String(allow_none=True)


class ProtestSchema(Schema):
    id = Int(required=True)
    game_id = Int(required=True)
    team_id = Int(required=True, metadata={"description": "The team protesting."})
    against_team_id = Int(required=True, metadata={"description": "The team protested."})
    player_id = Int(required=True, metadata={"description": "The player whose eligibility "
                                             "is protested."})
    team_name = fields.String(required=True)
    against_team_name = fields.String(required=True)
    player_name = fields.String(required=True)
    grounds = fields.String(required=True)
    lodged_by = fields.String(required=True, metadata={"description": "team or organizer"})
    status = fields.String(required=True, metadata={"description": "waiting, upheld or "
                                                    "rejected"})
    lodged_at = fields.DateTime(required=True)
    ruled_at = fields.DateTime(allow_none=True)
    ruling_reason = fields.String(allow_none=True)


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
                       "either side when a level championship game stands). Always empty "
                       "under confirm_each_hand and double_entry: both sides agreed each "
                       "hand, so there is no sign-off."})
    bumps = fields.Dict(keys=fields.String(), values=Int(), required=True)
    signed_off = Bool(required=True)
    signed_off_by = fields.String(allow_none=True)
    signed_off_at = fields.DateTime(allow_none=True)
    correctable_until = fields.DateTime(allow_none=True, metadata={
        "description": "Until when the table may still change the game: the correction "
                       "window's end, `correction_minutes` after its round closed (null while "
                       "the round has not closed). After it only the organizer, with a reason "
                       "(X-Reason)."})
    correction_open = Bool(required=True, metadata={
        "description": "Whether the table may change the game now."})
    corrections = fields.List(fields.Nested(CorrectionSchema), required=True, metadata={
        "description": "The organizer's changes after the window closed, with their reasons."})
    ruled = Bool(required=True, metadata={
        "description": "A ruling of the organizer stands on the game: its result is ruled "
                       "(see rulings)."})
    rulings = fields.List(fields.Nested(RulingSchema), required=True, metadata={
        "description": "The standing rulings (withdrawn ones: GET .../rulings)."})
    protests = fields.List(fields.Nested(ProtestSchema), required=True, metadata={
        "description": "A league playoff game's protests, waiting or ruled."})
    match = fields.Nested(GameMatchSchema, required=True)
    version = Int(required=True)
    hands = fields.List(fields.Nested(HandSchema), required=True)
    verification = fields.String(validate=validate.OneOf(
        ["sign_off", "confirm_each_hand", "double_entry"]), metadata={
        "description": "Who confirms a score at this event (on a game read and on the "
                       "answers of the entry routes)."})
    entries = fields.List(fields.Nested(EntrySchema), metadata={
        "description": "The entries waiting to become hands (confirm_each_hand, "
                       "double_entry), lowest hand number first."})
    mismatches = fields.List(fields.Nested(MismatchSchema), metadata={
        "description": "Hands both sides entered differently, each with both entries."})
    waiting = Int(metadata={"description": "How many entries wait (pending or mismatch)."})
    waiting_for = fields.String(allow_none=True, metadata={
        "description": "What the game waits for, in words, or null."})


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


# --- a game from its paper sheet ------------------------------------------------------------------

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
    side = Side(load_default=None, allow_none=True, metadata={"description": ENTERING_SIDE})
    hands = ListOf(fields.Nested(HandRowSchema), required=True, min_items=1,
                   max_items=SHEET_ROWS, metadata={
                       "description": "The sheet's hands in order, as POST /hands takes "
                                      "them. A mistake is reported on its row: errors.hands"
                                      ".<index from 0>."})
    tie = fields.Nested(SettlementSchema, load_default=None, allow_none=True, metadata={
        "description": "A game that ends level: who won its playoff hand or card draw."})


# --- who confirms a score: entries, confirmations, mismatches ------------------------------------

class GameReadSchema(Schema):
    side = Side(load_default=None, allow_none=True, metadata={
        "description": "The side reading (double entry): its own waiting entries are shown; "
                       "the other side's are hidden until this side has entered that hand."})


class EntrySideSchema(Schema):
    side = Side(required=True, metadata={"description": "The side making this call."})


class RejectSchema(EntrySideSchema):
    reason = TextField(load_default=None, allow_none=True, max_length=200, metadata={
        "description": "Why the entry is wrong, for the audit log."})


class HandEditSchema(HandBodySchema):
    side = Side(load_default=None, allow_none=True, metadata={
        "description": "Under confirm_each_hand or double_entry, a runner's change of an "
                       "agreed hand is proposed by a side and counts once the other side "
                       "agrees (202); the organizer changes it directly (no side)."})


class ChangeSideSchema(Schema):
    side = Side(load_default=None, allow_none=True, metadata={
        "description": "Under confirm_each_hand or double_entry: the side proposing the "
                       "deletion of an agreed hand (a runner's key); it counts once the "
                       "other side agrees (202)."})


class EntryChangeSchema(HandBodySchema):
    side = Side(required=True, metadata={"description": "The side that entered it."})


class SettleSchema(Schema):
    take = Side(load_default=None, allow_none=True, metadata={
        "description": "Store this side's entry as the hand."})
    hand = fields.Nested(HandCreateSchema, load_default=None, allow_none=True, metadata={
        "description": "Or the corrected hand, with a new id, stored instead of both."})
    sheet = fields.Nested(HandBatchSchema, load_default=None, allow_none=True, metadata={
        "description": "Or, for a sheet's mismatch, the corrected sheet with a new id."})

    @validates_schema
    def one_way(self, data, **kwargs):
        given = [name for name in ("take", "hand", "sheet") if data.get(name) is not None]
        if len(given) > 1:
            raise ValidationError("Settle it one way: send 'take' or the corrected 'hand' "
                                  "(or 'sheet'), not both.", field_name=given[-1])
