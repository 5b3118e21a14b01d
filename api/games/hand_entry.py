"""A new hand, the request a runner's phone makes most: answered in as few statements as the
database allows, and a retry answered without the write lock.

Before any lock, one statement reads everything the hand needs (`entry_read.entry_of`). A
retry is answered from that (`replayed`). A new hand then takes the lock with the event's
revision bump; when the revision is the one read before, nothing in the event changed in
between, so the game's stored totals are current: the new state follows from them and the one
hand (`rules.games.add_hand`), and the hand, the game's totals and its result rows are
written in three statements (`short_writes.write_hands`). Anything out of the
ordinary (the event changed meanwhile, a game over or signed off, a round not in play, a match
of several games) takes the long way, which loads the whole game as every other change does.
"""

from __future__ import annotations

from types import SimpleNamespace

from ..core.common import game_label, get_game, lock_event
from ..core.db import db, reading_only
from ..core.errors import Conflict, Gone
from ..core.keys import Principal
from ..core.models import DeletedHand, Hand, utcnow
from ..rules import games as rgames
from ..rules.hands import HandScore, score_hand
from .entry_read import Entry, entry_of
from .game_state import (
    compute_state,
    game_view,
    hand_view,
    known_hand_views,
    rules_hand,
    stored_score,
)
from .game_writes import commit_and_view, lower_first, store_result, writable
from .hands import fingerprint, hand_columns
from .news import hands_stored
from .short_writes import (
    RACED,
    hands_of,
    lock_event_row,
    prepare,
    statements,
    write_hands,
    write_match,
    write_results,
)

# `prepare` (a worker warms the hand's statements) and `entry_of` are the hand path's, here.
__all__ = ["Entry", "entry_of", "prepare", "record_hand", "record_locked", "record_sheet",
           "record_the_short_way", "replayed"]


def replayed(entry: Entry, hand_id: str, body: dict) -> dict | None:
    """The answer to a hand sent again (a phone retrying a lost answer): the stored game, or
    the reason it cannot be stored. None for a hand not seen before. Ends the transaction that
    read it where a write needs a transaction of its own (`end_read`)."""
    answered = True
    try:
        if entry.deleted is not None:
            where = lower_first(game_label(get_game(entry.deleted.game_id)))
            raise Gone(f"Hand '{hand_id}' was entered and then deleted from {where} "
                       f"(it was hand {entry.deleted.number}), so it is not entered again. If "
                       "it should count, enter it as a new hand.", code="hand-deleted")
        if entry.stored is None:
            answered = False
            return None
        if entry.stored.game_id != entry.game.id or \
                entry.stored.fingerprint != fingerprint(body):
            where = lower_first(game_label(get_game(entry.stored.game_id)))
            raise Conflict(f"A different hand was already stored with id '{hand_id}'"
                           f" (hand {entry.stored.number} of {where}). Use a new id for a new "
                           "hand.", code="id-conflict")
        views = known_hand_views(entry.game) if entry.game.match.games_planned == 1 else None
        if views is None:
            return game_view(get_game(entry.game.id))
        # The game as read with the entry, with the hand views this process keeps for its
        # version: nothing more to read.
        return game_view(entry.game, hands=views, preset=entry.preset)
    finally:
        if answered:
            db.session.rollback()
        else:
            end_read()


def end_read() -> None:
    """End the transaction that read the entry before a write, on SQLite: a write there must
    begin with BEGIN IMMEDIATE (a read transaction cannot always take the write lock later).
    On PostgreSQL the write goes on in the same transaction, which saves three round trips
    (a new connection's ping, BEGIN, ROLLBACK): its lock (UPDATE events) reads the newest
    committed row whatever was read before, and the revision check finds any change since."""
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.rollback()


# The short way's tries at a hand whose event changed under it before the long way takes it.
TRIES = 3


def record_hand(entry: Entry, principal: Principal, body: dict) -> tuple[dict, bool]:
    """Store one new hand (the id checked by `replayed` first) and answer the game's new
    state. Returns (view, created); created is False when a concurrent request stored the
    same hand meanwhile (then the stored game is answered)."""
    fast = record_the_short_way(entry, principal, body)
    if fast is not None:
        return fast, True
    lock_event(entry.event_id)
    return _record_the_long_way(entry, principal, body,
                                score_hand(rules_hand(body), entry.preset))


def record_locked(entry: Entry, principal: Principal, body: dict,
                  agreed: dict | None = None, played_before_time: bool = False) \
        -> tuple[dict, bool]:
    """The long way for a caller that holds the event's lock already and has changed rows in
    the same transaction (a hand both sides agreed, `verification.py`, told as `agreed`):
    the hand stored exactly as `record_hand` stores it, committed with the caller's
    changes. `played_before_time`: entered before the round's time was called, so a game
    that time ended still takes it (its agreement came after)."""
    return _record_the_long_way(entry, principal, body,
                                score_hand(rules_hand(body), entry.preset), agreed,
                                played_before_time)


def record_the_short_way(entry: Entry, principal: Principal, body: dict) -> dict | None:
    """The new hand stored the short way, answered with the game's new state; None when the
    hand is not the ordinary case (then nothing is stored and the read's transaction is over).

    Another change to the event (a hand at another table, most often) may get in between the
    entry's read and the event's lock: the read is then done again and the hand tried again,
    up to TRIES times, rather than handed to the long way (which cost 10-30 ms of CPU more:
    the slowest hands of a benchmark run were these, a few in a hundred at 200 tables)."""
    score = score_hand(rules_hand(body), entry.preset)
    for _ in range(TRIES):
        if not ordinary(entry):
            db.session.rollback()
            return None
        view = _record_from_totals(entry, principal, body, score)
        if view is not RACED:
            return view
        with reading_only():
            entry = entry_of(entry.game.id, body["id"])
            if replayed(entry, body["id"], body) is not None:
                return None  # the same hand, sent again, got there first: the long way says so
    return None


def ordinary(entry: Entry) -> bool:
    """A hand for a game in play the usual way (its first too, which writes the game's
    result rows); anything else takes the long way, where every refusal is worded."""
    game = entry.game
    return (game.match.round.status == "playing" and game.match.round.time_called_at is None
            and game.match.games_planned == 1 and game.match.status == "playing"
            and not game.forfeited_by and not game.from_sheet and game.signed_off_at is None
            and not game.ruled and game.end is None and entry.event_status != "finished"
            and entry.stored is None and entry.deleted is None)


def _record_from_totals(entry: Entry, principal: Principal, body: dict,
                        score: HandScore) -> dict | SimpleNamespace | None:
    """The short way: the new state from the stored totals and this hand, written in a few
    prepared statements (`write_hands`)."""
    game = entry.game
    views = known_hand_views(game)
    if views is None:  # this process has not seen the game at this version: read its hands
        views = [hand_view(h) for h in db.session.execute(hands_of(game.id)).scalars()]
    fmt = rgames.GameFormat(target_points=game.target_points,
                            hands_per_game=game.hands_per_game)
    before = rgames.GameState(fmt, game.points_a, game.points_b, game.hands_played, None,
                              None, False, {int(k): v for k, v in (game.bumps or {}).items()})
    state = rgames.add_hand(before, score, game_label(game))
    now = utcnow()
    row = {"id": body["id"], "event_id": entry.event_id, "game_id": game.id,
           "number": game.entries + 1, "fingerprint": fingerprint(body),
           "created_by": principal.key_id, "created_at": now, **hand_columns(body, score)}
    return write_hands(entry, [row], state, views)


def record_sheet(entry: Entry, body: dict) -> dict | None:
    """A WEC game's sheet entered the first time, the short way: the game's row, its result
    rows and its match written from the sheet's verdict in three statements after the lock.
    None when the game is not the ordinary case (hands entered, a sheet already there, signed
    off, a round not in play, ...): then `game_end.enter_sheet` takes it, every refusal
    worded. Ends the transaction that read the entry first, where it must (`end_read`)."""
    end_read()
    game, preset = entry.game, entry.preset
    round_ = game.match.round
    if body.get("tie"):  # a level sheet with its playoff: the long way, which stores both
        return None
    if not (preset.game_sheet and round_.status == "playing" and game.match.games_planned == 1
            and not game.match.best_of and not game.forfeited_by and not game.from_sheet
            and game.signed_off_at is None and game.entries == 0 and game.end is None
            and not game.ruled and entry.event_status != "finished"):
        return None
    fmt = rgames.GameFormat(target_points=game.target_points,
                            hands_per_game=game.hands_per_game)
    # The rules' verdict first: a sheet they refuse is refused before anything is locked.
    state = rgames.sheet_game(fmt, body["points"]["A"], body["points"]["B"],
                              {int(k): v for k, v in (body.get("bumps") or {}).items()},
                              hands_played=body.get("hands_played"),
                              tie_winner=game.tie_winner, label=game_label(game),
                              values=rgames.sheet_hand_values(preset),
                              time_called=round_.time_called_at is not None)
    sql = statements()
    conn = db.session.connection()
    revision = lock_event_row(conn, entry)
    if revision is None:
        return None
    now = utcnow()
    changes = {"from_sheet": True, "points_a": state.points_a, "points_b": state.points_b,
               "hands_played": state.hands_played, "end": state.end,
               "winner": state.winner, "level": state.level,
               "bumps": {str(k): v for k, v in sorted(state.bumps.items())},
               "tie_method": game.tie_method if state.level else None,
               "tie_winner": game.tie_winner if state.level else None,
               "last_entry_at": now, "version": game.version + 1}
    if conn.execute(sql.sheet, {"the_game": game.id, "old_version": game.version,
                                **changes}).rowcount != 1:
        db.session.rollback()  # cannot happen under the event's lock: the long way, then
        return None
    for name, value in changes.items():
        setattr(game, name, value)
    write_results(conn, entry, state, revision)
    write_match(conn, game, state)
    view = game_view(game, hands=[], preset=preset)
    db.session.commit()
    return view


def _record_the_long_way(entry: Entry, principal: Principal, body: dict,
                         score: HandScore, agreed: dict | None = None,
                         played_before_time: bool = False) -> tuple[dict, bool]:
    """Under the lock taken: the whole game loaded, every refusal worded."""
    hand_id = body["id"]
    existing = db.session.get(Hand, {"event_id": entry.event_id, "id": hand_id},
                              populate_existing=True)
    gone = db.session.get(DeletedHand, {"event_id": entry.event_id, "id": hand_id})
    if existing is not None or gone is not None:  # stored or deleted since it was read
        fresh = entry_of(entry.game.id, hand_id)
        answer = replayed(fresh, hand_id, body)
        return answer, False
    game = get_game(entry.game.id)
    preset = entry.preset
    writable(game, principal)
    if game.forfeited_by or game.from_sheet:
        raise Conflict(f"{game_label(game)} was "
                       f"{'forfeited' if game.forfeited_by else 'entered from the game sheet'};"
                       " hands cannot be added.", code="game-over")
    current = compute_state(game, preset=preset)
    if not (played_before_time and current.end == "time"):
        rgames.check_hand_allowed(current, game_label(game), counts=score.counts)
    state = compute_state(game, [stored_score(h) for h in game.hands] + [score], preset)
    number = len(game.hands) + 1
    game.hands.append(Hand(id=hand_id, event_id=game.event_id, number=number,
                           fingerprint=fingerprint(body), created_by=principal.key_id,
                           **hand_columns(body, score)))
    game.entries = number
    store_result(game, preset, state)
    hands_stored(game.event_id, game.id, game.match.table, [(hand_id, number)], state,
                 agreed)
    return commit_and_view(game), True
