"""Which games a club's ratings count, and in what order they were played.

Play order: the night's date, then the night (its id, for two nights on one date), then the
round's number, then the table, then the game's number in its match. Games of one round are
played at the same time by different people, so any order among them rates alike; the table
only makes the order total. The order is packed in one integer (`play_order`) so a club's
nights' rows sort and compare in SQL.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import aliased

from ..core.db import db
from ..core.models import Event, Game, Match, Player, Round, Seat
from ..rules.games import CARD_DRAW
from ..rules.ratings import RatedGame, rateable

EPOCH = date(2000, 1, 1)
# Bits: days since 2000 (16), event id (23), round (8), table (10), game number (6).
_FIELDS = ((24 + 23, 1 << 16), (24, 1 << 23), (16, 1 << 8), (6, 1 << 10), (0, 1 << 6))


def play_order(night: date, event_id: int, round_number: int = 0, table: int = 0,
               number: int = 0) -> int:
    values = ((night - EPOCH).days, event_id, round_number, table, number)
    order = 0
    for (shift, size), value in zip(_FIELDS, values, strict=True):
        order |= min(max(value, 0), size - 1) << shift
    return order


def night_start(night: date, event_id: int) -> int:
    """The order of a night's first possible game: where re-rating a change in it begins."""
    return play_order(night, event_id)


def club_nights(club_id: int) -> list:
    """The club's nights the ratings count (not archived ones): id, revision, date, and the
    night's random code (which keeps two databases' night 1 apart in a process's memory)."""
    return db.session.execute(
        select(Event.id, Event.revision, Event.night_date, Event.code)
        .where(Event.club_id == club_id, Event.archived_at.is_(None))).all()


def people_digests(event_ids: Iterable[int]) -> dict[int, str]:
    """Per night, a digest of which person each of its players is (a merge changes it)."""
    ids = list(event_ids)
    found: dict[int, list] = {e: [] for e in ids}
    for chunk in range(0, len(ids), 500):
        for event_id, player_id, person_id in db.session.execute(
                select(Player.event_id, Player.id, Player.person_id)
                .where(Player.event_id.in_(ids[chunk:chunk + 500]))
                .order_by(Player.event_id, Player.id)):
            found[event_id].append(f"{player_id}:{person_id}")
    return {e: hashlib.sha256(",".join(v).encode()).hexdigest() for e, v in found.items()}


def rated_games(nights: dict[int, date]) -> list[RatedGame]:
    """Every rated game of these nights ({event id: date}), each with its play order, in
    play order. One query a batch of nights: each game with its round, table and its four
    seats' people beside it (side A is seats 1 and 3), each seat found by its key, and its
    score (which weights its update)."""
    games: list[RatedGame] = []
    ids = list(nights)
    connection = db.session.connection()
    seats = {n: aliased(Seat, name=f"s{n}") for n in (1, 2, 3, 4)}
    players = {n: aliased(Player, name=f"p{n}") for n in (1, 2, 3, 4)}
    query = select(Game.id, Game.event_id, Game.number, Game.winner, Game.forfeited_by,
                   Game.tie_method, Game.points_a, Game.points_b, Round.number, Match.table,
                   *(players[n].person_id for n in (1, 3, 2, 4))) \
        .join(Match, Match.id == Game.match_id).join(Round, Round.id == Match.round_id)
    for n in (1, 2, 3, 4):
        query = query.outerjoin(seats[n], (seats[n].match_id == Game.match_id)
                                & (seats[n].seat == n)) \
            .outerjoin(players[n], players[n].id == seats[n].player_id)
    (round_shift, round_size), (table_shift, table_size), (_, number_size) = _FIELDS[2:]
    # Many nights a query: PostgreSQL then hashes the seats once rather than once a batch.
    for chunk in range(0, len(ids), 500):
        part = ids[chunk:chunk + 500]
        starts = {e: night_start(nights[e], e) for e in part}
        # The tables and rounds filtered by night too: for one night PostgreSQL otherwise
        # hashed every table of the club's year (60 ms, not 25). Fetched at once: row by
        # row, psycopg's fetches cost a third of the read.
        found = connection.execute(query.where(
            Game.event_id.in_(part), Match.event_id.in_(part), Round.event_id.in_(part),
            Game.winner.is_not(None))).all()
        for (game_id, event_id, number, winner, forfeited, tie, points_a, points_b, round_no,
             table, a1, a2, b1, b2) in found:
            if not rateable((a1, a2, b1, b2), winner, forfeited is not None, tie == CARD_DRAW):
                continue
            # play_order(), written out: a club's year is 250,000 of these.
            if not (0 <= round_no < round_size and 0 <= table < table_size
                    and 0 <= number < number_size):
                round_no, table, number = (min(max(v, 0), size - 1) for v, size in (
                    (round_no, round_size), (table, table_size), (number, number_size)))
            order = starts[event_id] | round_no << round_shift | table << table_shift | number
            games.append(RatedGame(order, game_id, (a1, a2), (b1, b2), winner, event_id,
                                   (points_a, points_b)))
    games.sort(key=lambda g: g.order)
    return games


def games_digests(nights: Iterable[int], games: Iterable[RatedGame]) -> dict[int, str]:
    """Per night, a digest of its rated games as they would be rated (order, game, people,
    winner, score): equal digests rate alike. `games`: those nights' rated games, in play
    order."""
    found: dict[int, list] = {e: [] for e in nights}
    for game in games:
        found[game.night].append((*game[:5], game.points))
    return {e: _digest(v) for e, v in found.items()}


def _digest(games: list) -> str:
    return hashlib.sha256(repr(games).encode()).hexdigest()


NO_RATED_GAMES = _digest([])  # a night none of whose games is rated (yet)
