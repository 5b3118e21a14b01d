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

from sqlalchemy import case, func, select

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
    play order. One query a batch of nights: each game with its round, table and the four
    seats' people (side A is seats 1 and 3; the seats are pivoted into one row a table in
    SQL, so a club's year is 250,000 rows read, not a million seats beside them)."""
    games: list[RatedGame] = []
    ids = list(nights)
    connection = db.session.connection()
    seat = {n: func.max(case((Seat.seat == n, Player.person_id))) for n in (1, 2, 3, 4)}
    for chunk in range(0, len(ids), 50):
        part = ids[chunk:chunk + 50]
        seated = (select(Seat.match_id, *(seat[n].label(f"p{n}") for n in (1, 2, 3, 4)))
                  .join(Player, Player.id == Seat.player_id)
                  .where(Seat.match_id.in_(select(Match.id).where(Match.event_id.in_(part))))
                  .group_by(Seat.match_id).subquery())
        for (game_id, event_id, number, winner, forfeited, tie, round_no, table,
             a1, a2, b1, b2) in connection.execute(
                select(Game.id, Game.event_id, Game.number, Game.winner, Game.forfeited_by,
                       Game.tie_method, Round.number, Match.table, seated.c.p1, seated.c.p3,
                       seated.c.p2, seated.c.p4)
                .join(Match, Match.id == Game.match_id)
                .join(Round, Round.id == Match.round_id)
                .outerjoin(seated, seated.c.match_id == Game.match_id)
                .where(Game.event_id.in_(part), Game.winner.is_not(None))):
            if not rateable((a1, a2, b1, b2), winner, forfeited is not None, tie == CARD_DRAW):
                continue
            games.append(RatedGame(
                play_order(nights[event_id], event_id, round_no, table, number), game_id,
                (a1, a2), (b1, b2), winner, event_id))
    games.sort(key=lambda g: g.order)
    return games


def games_digests(nights: Iterable[int], games: Iterable[RatedGame]) -> dict[int, str]:
    """Per night, a digest of its rated games as they would be rated (order, people,
    winner): equal digests rate alike. `games`: those nights' rated games, in play order."""
    found: dict[int, list] = {e: [] for e in nights}
    for game in games:
        found[game.night].append(f"{game.order}:{game.key}:{game.side_a}:{game.side_b}:"
                                 f"{game.winner}")
    return {e: hashlib.sha256(";".join(v).encode()).hexdigest() for e, v in found.items()}
