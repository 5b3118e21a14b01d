"""The short way's writes: prepared statements, built once, that store new hands (one, or a
paper sheet's) or a game sheet's verdict from what `entry_read.entry_of` read, under the
event's lock taken with its revision bump. When the revision is the one read before, nothing
in the event changed in between, so the game's stored totals are current and the game's new
state follows from them; else nothing is written (RACED)."""

from __future__ import annotations

import functools
from types import SimpleNamespace

from sqlalchemy import bindparam, case, insert, select, update

from ..core.common import audit as record
from ..core.db import db
from ..core.models import Event, Game, Hand, Match, Result
from ..rules import games as rgames
from ..rules.matches import match_state
from .entry_read import Entry, entry_query
from .game_state import game_view, hand_view, remember_hand_views, result_rows
from .news import hands_stored

RACED = SimpleNamespace()  # what the short way gives when the event changed since the read


@functools.cache
def statements() -> SimpleNamespace:
    """The short way's statements, built once with bind parameters: building a statement
    (and its cache key) from values costs more than running it."""
    events, hands, games, matches = (Event.__table__, Hand.__table__, Game.__table__,
                                     Match.__table__)
    results = Result.__table__
    side_a = results.c.side == "A"
    results_update = (update(results).where(results.c.game_id == bindparam("the_game"))
                      .values(points=case((side_a, bindparam("points_a")),
                                          else_=bindparam("points_b")),
                              against=case((side_a, bindparam("points_b")),
                                           else_=bindparam("points_a")),
                              forfeited=False, revision=bindparam("revision")))
    return SimpleNamespace(
        # The lock and the revision bump in one: the event's row (PostgreSQL) or the write
        # lock already taken by BEGIN IMMEDIATE (SQLite).
        lock=(update(events).where(events.c.id == bindparam("the_event"))
              .values(revision=events.c.revision + 1)
              .returning(events.c.revision, events.c.status)),
        hand=insert(hands),
        game=(update(games).where(games.c.id == bindparam("the_game"),
                                  games.c.version == bindparam("old_version"))
              .values({name: bindparam(name) for name in GAME_CHANGES})),
        # Both sides' result rows: one statement while the game goes on, another once it
        # has a winner (which side won is then known to the rows).
        results=results_update.values(won=None),
        results_won=results_update.values(won=results.c.side == bindparam("winner")),
        new_results=insert(results),
        sheet=(update(games).where(games.c.id == bindparam("the_game"),
                                   games.c.version == bindparam("old_version"))
               .values({name: bindparam(name) for name in SHEET_CHANGES})),
        match=(update(matches).where(matches.c.id == bindparam("the_match"))
               .values(status=bindparam("status"), winner=bindparam("winner"))))


def hands_of(game_id: int):
    return select(Hand).where(Hand.game_id == game_id).order_by(Hand.number)


def prepare() -> None:
    """Run a hand's statements once against no row (game, match and event 0), in a transaction
    rolled back, so that their SQL is built before the worker takes requests: building it
    costs about 2 ms of CPU a statement the first time a process runs it, which all fell on
    the first hand a worker took (15-25 ms of CPU, the slowest hands of a benchmark run with
    two workers). The inserts are left out (no insert touches nothing); the game sheet's
    writes and the paper sheet's read (the entry with the sheet's other ids) are in."""
    sql = statements()
    # Exactly the parameters each statement is run with: their names are part of its key.
    nothing = {"the_game": 0, "old_version": -1}
    results = {"the_game": 0, "points_a": 0, "points_b": 0, "revision": 0}
    try:
        db.session.execute(entry_query(), {"game_id": 0, "hand_id": ""})
        db.session.execute(entry_query(True), {"game_id": 0, "hand_id": "", "others": [""]})
        db.session.execute(hands_of(0))
        conn = db.session.connection()
        conn.execute(sql.lock, {"the_event": 0})
        conn.execute(sql.game, {**nothing, **dict.fromkeys(GAME_CHANGES)})
        conn.execute(sql.sheet, {**nothing, **dict.fromkeys(SHEET_CHANGES)})
        conn.execute(sql.results, results)
        conn.execute(sql.results_won, {**results, "winner": "A"})
        conn.execute(sql.match, {"the_match": 0, "status": "playing", "winner": None})
    finally:
        db.session.rollback()


SHEET_CHANGES = ("from_sheet", "points_a", "points_b", "hands_played", "end", "winner", "level",
                 "bumps", "tie_method", "tie_winner", "last_entry_at", "version")
GAME_CHANGES = ("points_a", "points_b", "hands_played", "entries", "end", "winner", "level",
                "bumps", "last_entry_at", "version")


def write_hands(entry: Entry, rows: list[dict], state: rgames.GameState, views: list[dict],
                audit: dict | None = None) -> dict | SimpleNamespace | None:
    """The short way's writes, for one hand or a paper sheet's: under the event's lock (and
    its revision bump) the new hands in one statement, the game's new state, its result rows,
    its match once it is over, and the audit entry given (`common.audit`'s arguments but the
    event's); then the answer, from the game as read and `views`, the hand views before these.
    RACED when the event changed since `entry_of` read it, None when the game's rows did (both
    having rolled back and stored nothing).

    Everything that needs no lock is done before the event's row is locked, and the answer
    is made after the commit: the lock is held for the writes alone, so that on PostgreSQL
    a hand in another worker waits for nothing more (the revision check under the lock finds
    any change since the entry was read, and then nothing is written)."""
    game = entry.game
    changes = {"points_a": state.points_a, "points_b": state.points_b,
               "hands_played": state.hands_played, "entries": game.entries + len(rows),
               "end": state.end, "winner": state.winner, "level": state.level,
               "bumps": {str(k): v for k, v in sorted(state.bumps.items())},
               "last_entry_at": rows[-1]["created_at"], "version": game.version + 1}
    sql = statements()
    conn = db.session.connection()
    revision = lock_event_row(conn, entry)
    if revision is None:
        return RACED
    conn.execute(sql.hand, rows)
    written = conn.execute(sql.game, {"the_game": game.id, "old_version": game.version,
                                      **changes}).rowcount
    if written != 1:  # cannot happen under the event's lock; if it does, go the long way
        db.session.rollback()
        return None
    for name, value in changes.items():
        setattr(game, name, value)
    if not write_results(conn, entry, state, revision):
        db.session.rollback()  # its rows were removed meanwhile: the long way writes them
        return None
    if state.end is not None:  # the game, and so its one-game match, is over
        write_match(conn, game, state)
    if audit is not None:
        record(entry.event_id, **audit)
    hands_stored(entry.event_id, game.id, entry.table,
                 [(row["id"], row["number"]) for row in rows], state)
    db.session.commit()
    views = views + [hand_view(SimpleNamespace(**row)) for row in rows]
    view = game_view(game, hands=views, preset=entry.preset)
    remember_hand_views(game, views)
    return view


def lock_event_row(conn, entry: Entry) -> int | None:
    """Lock the event's row and bump its revision: the new revision, or None (rolled back)
    when something else changed the event since `entry_of` read it, or finished it."""
    locked = conn.execute(statements().lock, {"the_event": entry.event_id}).first()
    if locked is None or locked.revision != entry.revision + 1 or \
            locked.status == "finished":
        db.session.rollback()
        return None
    return locked.revision


def write_results(conn, entry: Entry, state: rgames.GameState, revision: int) -> int:
    """Both sides' result rows from the game's new state, as the standings read them: updated
    (naming the winner once there is one), or inserted at the game's first entry. The number
    of rows written: 0 when the rows were removed meanwhile."""
    sql, game = statements(), entry.game
    if not entry.has_results:
        rows = result_rows(game, entry.preset, revision)
        conn.execute(sql.new_results, rows)
        return len(rows)
    results = {"the_game": game.id, "points_a": state.points_a,
               "points_b": state.points_b, "revision": revision}
    if state.winner is None:
        return conn.execute(sql.results, results).rowcount
    return conn.execute(sql.results_won, {**results, "winner": state.winner}).rowcount


def write_match(conn, game, state: rgames.GameState) -> None:
    """The game's one-game match after the game's end: over, with its winner (or still in
    play, a level game waiting for its settlement)."""
    decided = match_state(1, [state.winner], best_of=False)
    game.match.status = "over" if decided.over else "playing"
    game.match.winner = decided.winner if decided.over else None
    conn.execute(statements().match, {"the_match": game.match.id,
                                       "status": game.match.status,
                                       "winner": game.match.winner})
