"""A game's hands entered from its paper sheet in one request: checked whole by the rules
(`rules.paper_sheet`), stored whole in one transaction, or refused with the mistakes by row.

The app makes one id per sheet; each row's hand id is its own or '<sheet id>.<row>'. Sent
again (a lost answer), the rows already stored are answered as stored, never added twice.

A whole game's sheet for a game in play with no hands yet (the sheet's ordinary case) takes a
hand's short way (`short_writes.write_hands`): read with the key in one statement, checked by
the rules, then written in a handful under the event's lock, as one hand is. Anything else (a
mistake, a retry, hands entered before, a tie to settle, time called) takes the long way,
which loads the whole game and words every refusal.
"""

from __future__ import annotations

from sqlalchemy import select

from ..core.common import audit, game_label, get_game
from ..core.db import db
from ..core.errors import Conflict, Gone, Invalid
from ..core.keys import Principal
from ..core.models import DeletedHand, Hand, utcnow
from ..rules.paper_sheet import check_rows
from . import entry_read, hand_entry
from .game_end import sheet_tie
from .game_state import fmt_of, game_view, rules_hand, stored_score
from .game_writes import commit_and_view, locked_game, lower_first, store_result, writable
from .hands import fingerprint, hand_columns
from .news import hands_stored
from .short_writes import RACED, write_hands


def sheet_ids(body: dict) -> list[str]:
    """The hand id of each of the sheet's rows, in order."""
    return [row.get("id") or f"{body['id']}.{number + 1}"
            for number, row in enumerate(body["hands"])]


def _rows(body: dict) -> list[dict]:
    """The rows with their hand ids; the same id twice in one sheet is refused on its row."""
    rows, seen, twice = [], {}, {}
    for number, (row, hand_id) in enumerate(zip(body["hands"], sheet_ids(body), strict=True)):
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


def entry_of(game_id: int, body: dict) -> entry_read.Entry:
    """What the sheet's short way needs, read in one statement with its ids: the game's
    entry, told whether any of the sheet's ids is already stored or deleted."""
    ids = sheet_ids(body)
    return entry_read.entry_of(game_id, ids[0], others=ids[1:])


def enter_hands(game_id: int, principal: Principal, body: dict,
                entry: entry_read.Entry | None = None) -> tuple[dict, bool]:
    """Store the sheet's hands after the game's own, all or none. Returns (the game's view,
    whether anything was stored). `entry`: the game's entry read with the sheet's ids
    (`entry_of`) where the caller read it with the key."""
    if entry is None:
        entry = entry_of(game_id, body)
    view = _the_short_way(entry, principal, body)
    if view is not None:
        return view, True
    return enter_hands_the_long_way(game_id, principal, body)


def _the_short_way(entry: entry_read.Entry, principal: Principal, body: dict) -> dict | None:
    """The sheet stored the short way, answered with the game; None (nothing stored, the
    read's transaction over) when it is not the ordinary case or the rules refuse a row."""
    hand_entry.end_read()
    game = entry.game
    ordinary = (hand_entry.ordinary(entry) and not entry.others_used and game.entries == 0
                and not body.get("tie") and len(set(sheet_ids(body))) == len(body["hands"]))
    if not ordinary:
        return None
    rows, label = _rows(body), game_label(game)
    check = check_rows(fmt_of(game), [], [rules_hand(r) for r in rows], entry.preset,
                       label=label, whole=True, tie_winner=game.tie_winner)
    if not check.ok:
        return None  # the long way words the mistake
    now = utcnow()
    hands = [{"id": row["id"], "event_id": entry.event_id, "game_id": game.id,
              "number": number, "fingerprint": fingerprint(row),
              "created_by": principal.key_id, "created_at": now, **hand_columns(row, score)}
             for number, (row, score) in enumerate(zip(rows, check.scores, strict=True),
                                                    start=1)]
    round_ = game.match.round
    view = write_hands(entry, hands, check.state, [], audit={
        "principal": principal, "action": "enter-paper-sheet", "entity": "game",
        "entity_id": game.id, "round_number": round_.number, "table": game.match.table,
        "after": {"sheet": body["id"], "hands": len(hands), "game": game.number,
                  "points": [check.state.points_a, check.state.points_b]}})
    if view is None or view is RACED:
        db.session.rollback()
        return None
    return view


def enter_hands_the_long_way(game_id: int, principal: Principal, body: dict,
                             agreed: dict | None = None) -> tuple[dict, bool]:
    """The sheet with the whole game loaded under the event's lock: every refusal worded, a
    sheet sent again answered as stored. `agreed`: both sides' sheets agreed (news)."""
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
    hands_stored(event.id, game.id, game.match.table,
                 [(row["id"], n) for n, row in enumerate(new, start=number - len(new) + 1)],
                 check.state, agreed)
    return commit_and_view(game), True
