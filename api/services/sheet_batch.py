"""A game's hands entered from its paper sheet in one request: checked whole by the rules
(`rules.paper_sheet`), stored whole in one transaction, or refused with the mistakes by row.

The app makes one id per sheet; each row's hand id is its own or '<sheet id>.<row>'. Sent
again (a lost answer), the rows already stored are answered as stored, never added twice.
"""

from __future__ import annotations

from sqlalchemy import select

from ..auth import Principal
from ..db import db
from ..models import DeletedHand, Hand
from ..rules.paper_sheet import check_rows
from .common import audit, game_label, get_game
from .errors import Conflict, Gone, Invalid
from .game_end import sheet_tie
from .game_state import fmt_of, game_view, rules_hand, stored_score
from .game_writes import commit_and_view, locked_game, lower_first, store_result, writable
from .hands import fingerprint, hand_columns


def _rows(body: dict) -> list[dict]:
    """The rows with their hand ids; the same id twice in one sheet is refused on its row."""
    rows, seen, twice = [], {}, {}
    for number, row in enumerate(body["hands"]):
        hand_id = row.get("id") or f"{body['id']}.{number + 1}"
        if hand_id in seen:
            twice[str(number)] = [f"Row {number + 1} has the same id as row "
                                  f"{seen[hand_id] + 1} ('{hand_id}'); each hand needs its own."]
        seen.setdefault(hand_id, number)
        rows.append({**row, "id": hand_id})
    if twice:
        raise Invalid("Two rows of the sheet have the same hand id.", code="duplicate-ids",
                      errors={"hands": twice})
    return rows


def _stored_before(event_id: int, game, rows: list[dict]) -> int:
    """How many of the rows are already stored in this game (a sheet sent again): they must
    be the sheet's first rows, stored as they are now. A row whose id was deleted, or names
    another hand, is refused on its row."""
    ids = [row["id"] for row in rows]
    stored = {h.id: h for h in db.session.execute(
        select(Hand).where(Hand.event_id == event_id, Hand.id.in_(ids))).scalars()}
    deleted = {d.id: d for d in db.session.execute(
        select(DeletedHand).where(DeletedHand.event_id == event_id,
                                  DeletedHand.id.in_(ids))).scalars()}
    gone = {str(n): [f"Hand '{row['id']}' was entered and then deleted (it was hand "
                     f"{deleted[row['id']].number}); enter the sheet under a new id."]
            for n, row in enumerate(rows) if row["id"] in deleted}
    if gone:
        raise Gone("Some rows of this sheet were entered and then deleted, so they are not "
                   "entered again. Send the sheet under a new id.", code="hand-deleted",
                   errors={"hands": gone})
    clash = {}
    for n, row in enumerate(rows):
        hand = stored.get(row["id"])
        if hand is not None and (hand.game_id != game.id or
                                 hand.fingerprint != fingerprint(row)):
            clash[str(n)] = [f"A different hand was already stored with id '{row['id']}'. "
                             "Use a new id for a new hand."]
    if clash:
        raise Conflict("Some rows of this sheet have ids already used for other hands.",
                       code="id-conflict", errors={"hands": clash})
    done = [n for n, row in enumerate(rows) if row["id"] in stored]
    if done != list(range(len(done))):
        raise Conflict(f"{game_label(game)} already has rows {', '.join(str(n + 1) for n in done)}"
                       " of this sheet but not the rows before them; send the rest as a sheet "
                       "of its own.", code="id-conflict")
    return len(done)


def enter_hands(game_id: int, principal: Principal, body: dict) -> tuple[dict, bool]:
    """Store the sheet's hands after the game's own, all or none. Returns (the game's view,
    whether anything was stored)."""
    rows = _rows(body)
    event, game, preset = locked_game(game_id)
    already = _stored_before(event.id, game, rows)
    if already == len(rows):  # sent before: nothing changes
        db.session.rollback()  # (the event's revision is left as it was)
        return game_view(get_game(game_id)), False
    writable(game, principal)
    label = game_label(game)
    if game.forfeited_by or game.from_sheet:
        raise Conflict(f"{label} was "
                       f"{'forfeited' if game.forfeited_by else 'entered from the game sheet'};"
                       " hands cannot be added.", code="game-over")
    new = rows[already:]
    earlier = [stored_score(h) for h in game.hands]
    round_ = game.match.round
    time_called = round_.time_called_at is not None
    if time_called and any(s.counts for s in earlier):
        # Time ended a game already being entered: its hands are the ones played.
        raise Conflict(f"Time was called, so {lower_first(label)} ended with the hands "
                       "already entered; ask the organizer to add any that are missing.",
                       code="game-over")
    tie = body.get("tie")
    check = check_rows(fmt_of(game), earlier, [rules_hand(r) for r in new], preset,
                       label=label, time_called=time_called, whole=True,
                       tie_winner=tie["winner"] if tie else game.tie_winner)
    if check.short:
        raise Invalid(check.short, code="sheet-short")
    if not check.ok:
        errors = {str(n + already): [why] for n, why in sorted(check.errors.items())}
        detail = "; ".join(f"Row {int(n) + 1}: {why[0]}" for n, why in errors.items())
        # A game over before the sheet is the game's state (409); else the sheet is wrong.
        over = game.end is not None and game.end != "time"
        raise (Conflict if over else Invalid)(
            f"Nothing was stored. {detail}", code="game-over" if over else "sheet-rows",
            errors={"hands": errors})
    if tie:
        sheet_tie(game, check.state, tie, label)
    number = len(game.hands)
    for row, score in zip(new, check.scores, strict=True):
        number += 1
        game.hands.append(Hand(id=row["id"], event_id=game.event_id, number=number,
                               fingerprint=fingerprint(row), created_by=principal.key_id,
                               **hand_columns(row, score)))
    game.entries = number
    store_result(game, preset, check.state)
    audit(event.id, principal, "enter-paper-sheet", "game", game.id,
          after={"sheet": body["id"], "hands": len(new), "game": game.number,
                 "points": [game.points_a, game.points_b]},
          round_number=round_.number, table=game.match.table)
    return commit_and_view(game), True
