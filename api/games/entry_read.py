"""What a new hand (or a game's sheet) needs to know, read in one statement before any lock:
the game's row and state, its table, round and names, the event's revision and format, and any
hand already stored (or deleted) under the id the phone made (for a paper sheet, under any of
its ids). The game comes as plain values shaped like its rows, so the one game view
(`game_state.game_view`) is built from them as from the rows."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import bindparam, exists, select

from ..core.common import preset_of
from ..core.db import db
from ..core.errors import not_found
from ..core.models import DeletedHand, Event, Game, Hand, Match, Player, Result, Round, Seat, Team
from ..rules.presets import Preset

GAME_COLUMNS = ("id", "event_id", "match_id", "number", "stage", "target_points",
                "hands_per_game", "points_a", "points_b", "hands_played", "entries", "end",
                "winner", "level", "tie_method", "tie_winner", "forfeited_by", "from_sheet",
                "first_dealer", "bumps", "signed_off_at", "signed_off_by", "last_entry_at",
                "version", "adjust_a", "adjust_b", "ruled", "corrections")


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
def entry_query(others: bool = False):
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
        rounds.c.status.label("round_status"), rounds.c.time_called_at,
        rounds.c.closed_at.label("round_closed_at"), events.c.revision,
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
    row = db.session.execute(entry_query(bool(others)), values).first()
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
                             status=row.round_status, time_called_at=row.time_called_at,
                             closed_at=row.round_closed_at)
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
