"""A new hand, the request a runner's phone makes most: answered in as few statements as the
database allows, and a retry answered without the write lock.

Before any lock, one statement reads everything the hand needs (`entry_of`): the game's row
and state, its table, round and names, the event's revision and format, and any hand already
stored (or deleted) under the id the phone made. A retry is answered from that (`replayed`).
A new hand then takes the lock with the event's revision bump; when the revision is the one
read before, nothing in the event changed in between, so the game's stored totals are current:
the new state follows from them and the one hand (`rules.games.add_hand`), and the hand, the
game's totals and its result rows are written in three statements. Anything out of the
ordinary (the event changed meanwhile, a game over or signed off, a round not in play, a match
of several games) takes the long way, which loads the whole game as every other change does.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import bindparam, case, exists, insert, select, update

from ..auth import Principal
from ..db import db, reading_only
from ..models import (
    DeletedHand,
    Event,
    Game,
    Hand,
    Match,
    Player,
    Result,
    Round,
    Seat,
    Team,
    utcnow,
)
from ..rules import games as rgames
from ..rules.hands import HandScore, score_hand
from ..rules.matches import match_state
from ..rules.presets import Preset
from .common import audit as record
from .common import game_label, get_game, lock_event, preset_of
from .errors import Conflict, Gone, not_found
from .game_state import (
    compute_state,
    game_view,
    hand_view,
    known_hand_views,
    remember_hand_views,
    result_rows,
    rules_hand,
    stored_score,
)
from .game_writes import commit_and_view, lower_first, store_result, writable
from .hands import fingerprint, hand_columns

GAME_COLUMNS = ("id", "event_id", "match_id", "number", "stage", "target_points",
                "hands_per_game", "points_a", "points_b", "hands_played", "entries", "end",
                "winner", "level", "tie_method", "tie_winner", "forfeited_by", "from_sheet",
                "first_dealer", "bumps", "signed_off_at", "signed_off_by", "last_entry_at",
                "version")


@dataclass(frozen=True)
class Entry:
    """What entering one hand needs to know, read before any lock."""

    game: SimpleNamespace  # the game's row, its match, round and seats, as plain values
    event_id: int
    table: int
    revision: int  # the event's, when read
    event_status: str
    has_results: bool  # the game's rows in `results` are written (at its first change)
    preset: Preset
    stored: SimpleNamespace | None  # a hand already stored under the id: game, fingerprint
    deleted: SimpleNamespace | None  # a hand deleted under the id: game, number
    others_used: bool = False  # any of a sheet's other ids is stored or deleted already


@functools.cache
def _entry_query(others: bool = False):
    """The one statement of `entry_of`, built once (building it costs more than running it):
    the game joined to its match, round, event and teams, its four seated players, any hand
    stored or deleted under the id, and whether its result rows are written. With `others`:
    whether any of a sheet's other ids (bound as `others`) is stored or deleted."""
    games, matches, rounds, events = (Game.__table__, Match.__table__, Round.__table__,
                                      Event.__table__)
    team_a, team_b = Team.__table__.alias("team_a"), Team.__table__.alias("team_b")
    stored, deleted = Hand.__table__.alias("stored"), DeletedHand.__table__.alias("deleted")
    results = Result.__table__
    game_id, hand_id = bindparam("game_id"), bindparam("hand_id")
    def one(column, where):
        return select(column).where(where).scalar_subquery()

    is_stored = (stored.c.event_id == games.c.event_id) & (stored.c.id == hand_id)
    is_deleted = (deleted.c.event_id == games.c.event_id) & (deleted.c.id == hand_id)
    columns = [games.c[name] for name in GAME_COLUMNS] + [
        matches.c.table, matches.c.games_planned, matches.c.best_of,
        matches.c.status.label("m_status"), matches.c.winner.label("m_winner"),
        matches.c.team_a_id, matches.c.team_b_id,
        one(team_a.c.name, team_a.c.id == matches.c.team_a_id).label("team_a_name"),
        one(team_b.c.name, team_b.c.id == matches.c.team_b_id).label("team_b_name"),
        rounds.c.id.label("round_id"),
        rounds.c.number.label("round_number"), rounds.c.label.label("round_label"),
        rounds.c.status.label("round_status"), rounds.c.time_called_at, events.c.revision,
        events.c.status.label("event_status"), events.c.preset_key, events.c.parameters,
        one(stored.c.game_id, is_stored).label("stored_game"),
        one(stored.c.fingerprint, is_stored).label("stored_print"),
        one(stored.c.number, is_stored).label("stored_number"),
        one(deleted.c.game_id, is_deleted).label("deleted_game"),
        one(deleted.c.number, is_deleted).label("deleted_number"),
        exists().where(results.c.game_id == games.c.id).label("has_results")]
    joined = (games.join(matches, games.c.match_id == matches.c.id)
              .join(rounds, matches.c.round_id == rounds.c.id)
              .join(events, games.c.event_id == events.c.id))
    # The four seats as small subqueries rather than eight more joins: PostgreSQL plans a
    # join of 16 tables anew each time at a cost of ~2 ms (more than running it).
    seats_, players = Seat.__table__, Player.__table__
    for number in (1, 2, 3, 4):
        at = (seats_.c.match_id == matches.c.id) & (seats_.c.seat == number)
        columns += [select(seats_.c.player_id).where(at).scalar_subquery()
                    .label(f"player{number}"),
                    select(players.c.name).join(seats_, seats_.c.player_id == players.c.id)
                    .where(at).scalar_subquery().label(f"name{number}")]
    if others:
        ids = bindparam("others", expanding=True)
        columns.append(
            (exists().where(stored.c.event_id == games.c.event_id, stored.c.id.in_(ids))
             | exists().where(deleted.c.event_id == games.c.event_id, deleted.c.id.in_(ids)))
            .label("others_used"))
    return select(*columns).select_from(joined).where(games.c.id == game_id)


def entry_of(game_id: int, hand_id: str | None = None, others: list[str] | None = None) -> Entry:
    """Everything a new hand (or a game sheet) needs, in one statement; NotFound for an
    unknown game. `others`: a paper sheet's ids after its first (`hand_id`)."""
    values = {"game_id": game_id, "hand_id": hand_id}
    if others:
        values["others"] = others
    row = db.session.execute(_entry_query(bool(others)), values).first()
    if row is None:
        raise not_found(f"Game {game_id}")
    return Entry(game=_light_game(row), event_id=row.event_id, table=row.table,
                 revision=row.revision, event_status=row.event_status,
                 has_results=bool(row.has_results),
                 preset=preset_of(SimpleNamespace(preset_key=row.preset_key,
                                                  parameters=row.parameters)),
                 stored=(SimpleNamespace(game_id=row.stored_game, fingerprint=row.stored_print,
                                         number=row.stored_number)
                         if row.stored_game is not None else None),
                 deleted=(SimpleNamespace(game_id=row.deleted_game, number=row.deleted_number)
                          if row.deleted_game is not None else None),
                 others_used=bool(others) and bool(row.others_used))


def _light_game(row) -> SimpleNamespace:
    """The game as plain values shaped like its rows (game.match.round, match.seats, ...), so
    the one game view (`game_state.game_view`) is built from them as from the rows."""
    round_ = SimpleNamespace(id=row.round_id, number=row.round_number, label=row.round_label,
                             status=row.round_status, time_called_at=row.time_called_at)
    teams = {side: (SimpleNamespace(id=team_id, name=name) if team_id is not None else None)
             for side, team_id, name in (("A", row.team_a_id, row.team_a_name),
                                         ("B", row.team_b_id, row.team_b_name))}
    seats = [SimpleNamespace(seat=n, player_id=getattr(row, f"player{n}"),
                             player=(SimpleNamespace(name=getattr(row, f"name{n}"))
                                     if getattr(row, f"player{n}") is not None else None))
             for n in (1, 2, 3, 4)]
    match = SimpleNamespace(id=row.match_id, table=row.table, games_planned=row.games_planned,
                            best_of=row.best_of, status=row.m_status, winner=row.m_winner,
                            team_a_id=row.team_a_id, team_b_id=row.team_b_id,
                            team_a=teams["A"], team_b=teams["B"], seats=seats, round=round_)
    game = SimpleNamespace(**{c: getattr(row, c) for c in GAME_COLUMNS}, match=match)
    match.games = [game]  # a match of several games takes the long way
    return game


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
        return game_view(entry.game, hands=views)
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
RACED = SimpleNamespace()  # what the short way gives when the event changed since the read


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
            and game.end is None and entry.event_status != "finished"
            and entry.stored is None and entry.deleted is None)


@functools.cache
def _statements() -> SimpleNamespace:
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


def _hands_of(game_id: int):
    return select(Hand).where(Hand.game_id == game_id).order_by(Hand.number)


def prepare() -> None:
    """Run a hand's statements once against no row (game, match and event 0), in a transaction
    rolled back, so that their SQL is built before the worker takes requests: building it
    costs about 2 ms of CPU a statement the first time a process runs it, which all fell on
    the first hand a worker took (15-25 ms of CPU, the slowest hands of a benchmark run with
    two workers). The inserts are left out (no insert touches nothing); the sheet is in."""
    sql = _statements()
    # Exactly the parameters each statement is run with: their names are part of its key.
    nothing = {"the_game": 0, "old_version": -1}
    results = {"the_game": 0, "points_a": 0, "points_b": 0, "revision": 0}
    try:
        db.session.execute(_entry_query(), {"game_id": 0, "hand_id": ""})
        db.session.execute(_hands_of(0))
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


def _record_from_totals(entry: Entry, principal: Principal, body: dict,
                        score: HandScore) -> dict | SimpleNamespace | None:
    """The short way: the new state from the stored totals and this hand, written in a few
    prepared statements (`write_hands`)."""
    game = entry.game
    views = known_hand_views(game)
    if views is None:  # this process has not seen the game at this version: read its hands
        views = [hand_view(h) for h in db.session.execute(_hands_of(game.id)).scalars()]
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
    sql = _statements()
    conn = db.session.connection()
    revision = _lock_event(conn, entry)
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
    if not _write_results(conn, entry, state, revision):
        db.session.rollback()  # its rows were removed meanwhile: the long way writes them
        return None
    if state.end is not None:  # the game, and so its one-game match, is over
        _write_match(conn, game, state)
    if audit is not None:
        record(entry.event_id, **audit)
    db.session.commit()
    views = views + [hand_view(SimpleNamespace(**row)) for row in rows]
    view = game_view(game, hands=views)
    remember_hand_views(game, views)
    return view


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
            and entry.event_status != "finished"):
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
    sql = _statements()
    conn = db.session.connection()
    revision = _lock_event(conn, entry)
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
    _write_results(conn, entry, state, revision)
    _write_match(conn, game, state)
    view = game_view(game, hands=[])
    db.session.commit()
    return view


def _lock_event(conn, entry: Entry) -> int | None:
    """Lock the event's row and bump its revision: the new revision, or None (rolled back)
    when something else changed the event since `entry_of` read it, or finished it."""
    locked = conn.execute(_statements().lock, {"the_event": entry.event_id}).first()
    if locked is None or locked.revision != entry.revision + 1 or \
            locked.status == "finished":
        db.session.rollback()
        return None
    return locked.revision


def _write_results(conn, entry: Entry, state: rgames.GameState, revision: int) -> int:
    """Both sides' result rows from the game's new state, as the standings read them: updated
    (naming the winner once there is one), or inserted at the game's first entry. The number
    of rows written: 0 when the rows were removed meanwhile."""
    sql, game = _statements(), entry.game
    if not entry.has_results:
        rows = result_rows(game, entry.preset, revision)
        conn.execute(sql.new_results, rows)
        return len(rows)
    results = {"the_game": game.id, "points_a": state.points_a,
               "points_b": state.points_b, "revision": revision}
    if state.winner is None:
        return conn.execute(sql.results, results).rowcount
    return conn.execute(sql.results_won, {**results, "winner": state.winner}).rowcount


def _write_match(conn, game, state: rgames.GameState) -> None:
    """The game's one-game match after the game's end: over, with its winner (or still in
    play, a level game waiting for its settlement)."""
    decided = match_state(1, [state.winner], best_of=False)
    game.match.status = "over" if decided.over else "playing"
    game.match.winner = decided.winner if decided.over else None
    conn.execute(_statements().match, {"the_match": game.match.id,
                                       "status": game.match.status,
                                       "winner": game.match.winner})


def _record_the_long_way(entry: Entry, principal: Principal, body: dict,
                         score: HandScore) -> tuple[dict, bool]:
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
    rgames.check_hand_allowed(current, game_label(game), counts=score.counts)
    state = compute_state(game, [stored_score(h) for h in game.hands] + [score], preset)
    number = len(game.hands) + 1
    game.hands.append(Hand(id=hand_id, event_id=game.event_id, number=number,
                           fingerprint=fingerprint(body), created_by=principal.key_id,
                           **hand_columns(body, score)))
    game.entries = number
    store_result(game, preset, state)
    return commit_and_view(game), True
