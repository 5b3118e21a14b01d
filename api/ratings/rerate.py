"""Keeping a club's ratings up to date: find the first night a change touched, and re-rate
from its first game on (every later night's rows are deleted and computed again from the
ratings just before it). A new night at the end of the club's year re-rates only that
night's games; a night entered late for an earlier date, a correction, a ruling or a merge
of two people re-rates from that night's first game on. What was rated is stamped per night
(its revision, date and players' people), so every change is seen, whichever path wrote
it."""

from __future__ import annotations

import gc
import hashlib
from contextlib import contextmanager

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import OperationalError

from ..core.caching import Kept
from ..core.db import db
from ..core.models import Club, Event, RatedNight, Rating, RatingNight
from ..rules import ratings as rr
from .order import (
    NO_RATED_GAMES,
    club_nights,
    games_digests,
    night_start,
    people_digests,
    rated_games,
)


def after_night_finished(event_id: int) -> None:
    club_id = db.session.scalar(select(Event.club_id).where(Event.id == event_id))
    if club_id is not None:
        sync(club_id)


def _first_change(club_id: int, club_revision: int, nights
                  ) -> tuple[int | None, dict | None, dict, list]:
    """The play order from which the club must be re-rated (None: nothing changed); each
    night's stamp now (revision, date, its players' people, a digest of its rated games as
    they would be rated), or None when no stamp changed; the stamps kept; and the rated games
    read to find it (those of the nights whose revision or date changed), which the re-rate
    uses rather than reading them again. A night whose revision changed but whose rated
    games did not (a night marked finished; a hand in a game still being played) is only
    stamped. A change to the club's registry (a merge) reads only who each night's players
    are."""
    kept = {r.event_id: r for r in db.session.execute(
        select(RatedNight.event_id, RatedNight.revision, RatedNight.night_date,
               RatedNight.people, RatedNight.games, RatedNight.club_revision)
        .where(RatedNight.club_id == club_id))}
    registry_changed = any(r.club_revision != club_revision for r in kept.values())
    changed = {n.id: n.night_date for n in nights if n.id not in kept
               or (kept[n.id].revision, kept[n.id].night_date) != (n.revision, n.night_date)}
    digests = people_digests(n.id for n in nights if registry_changed or n.id in changed)
    read = rated_games(changed)
    played = games_digests(changed, read)
    starts = []
    stamps = {}
    for night in nights:
        old = kept.get(night.id)
        stamps[night.id] = (night.revision, night.night_date,
                            digests.get(night.id, old.people if old else None),
                            played.get(night.id, old.games if old else None))
        if old is None:
            starts.append(night_start(night.night_date, night.id))
        elif (old.night_date, old.people, old.games) != stamps[night.id][1:]:
            starts.append(min(night_start(night.night_date, night.id),
                              night_start(old.night_date, night.id)))
    gone = kept.keys() - {n.id for n in nights}
    starts += [night_start(kept[e].night_date, e) for e in gone]
    if not (starts or changed or registry_changed):
        return None, None, kept, []  # nothing to re-rate, nothing to stamp
    return (min(starts) if starts else None), stamps, kept, read


@contextmanager
def _no_cyclic_collection():
    """A club's year re-rated makes a million small objects that hold no cycles (rows read,
    games, ratings): the cyclic collector's passes over them cost a quarter to a third of
    the re-rate (measured: 2.0 s of 4.3 reading the games), so it waits until the end.
    Objects still go as soon as nothing refers to them."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


# club -> True, stamped with what this process last found rated: the registry's revision and
# every night's (id, revision, date, code). A read that finds the same stamp reads on.
_SYNCED = Kept(256)


def sync(club_id: int) -> bool:
    """Bring the club's ratings up to date in a short transaction of its own (the caller's
    is ended first); True when anything was re-rated. Safe to call on every read: when
    nothing changed since this process last looked it costs two small queries."""
    db.session.rollback()
    club_revision = db.session.scalar(select(Club.revision).where(Club.id == club_id))
    if club_revision is None:
        return False
    nights = club_nights(club_id)
    seen = (club_revision, tuple(sorted(tuple(n) for n in nights)))
    if _SYNCED.get(club_id, seen):
        return False
    db.session.rollback()
    try:
        # Hold the club's row so two workers never re-rate the same club at once, and look
        # under the lock (the other one may have done it meanwhile).
        db.session.execute(select(Club.id).where(Club.id == club_id).with_for_update())
        club_revision = db.session.scalar(select(Club.revision).where(Club.id == club_id))
        nights = club_nights(club_id)
        with _no_cyclic_collection():
            start, stamps, kept, read = _first_change(club_id, club_revision, nights)
            if start is not None:
                rerate_from(club_id, start, stamps, club_revision, read)
            if stamps is not None:  # (only the stamps changed: a night finished, a hand in
                _restamp(club_id, stamps, club_revision, kept)  # a game not over yet)
        db.session.commit()
        _SYNCED.put(club_id, True, (club_revision, tuple(sorted(tuple(n) for n in nights))))
    except OperationalError:  # a busy database: the next read tries again
        db.session.rollback()
        return False
    return start is not None


def rated_stamp(club_id: int) -> str:
    """A digest of what the club's ratings rows were last rated from and shown with: the
    registry's revision (names, privacy, merges) and the stamp of each night with a rated
    game but its revision (its date, its players' people, its rated games' digest, its
    random code). A write that changes none of them (a new night, a hand in a game still
    being played, a night marked finished) leaves it as it was; anything that re-rates
    changes it. The stamps are written in the transaction that writes the rows, so it never
    says more than they do."""
    revision = db.session.scalar(select(Club.revision).where(Club.id == club_id))
    nights = db.session.execute(
        select(RatedNight.event_id, Event.code, RatedNight.night_date, RatedNight.people,
               RatedNight.games)
        .join(Event, Event.id == RatedNight.event_id)
        .where(RatedNight.club_id == club_id, RatedNight.games != NO_RATED_GAMES)
        .order_by(RatedNight.event_id)).all()
    text = f"{club_id}.{revision}." + ".".join(
        f"{e}{code}{night}{people}{games}" for e, code, night, people, games in nights)
    return hashlib.sha256(text.encode()).hexdigest()


def _restamp(club_id: int, stamps: dict, club_revision: int, kept: dict) -> None:
    """Write the stamps that changed (and forget the nights gone): a night finished
    rewrites one row, not the club's year."""
    stale = [e for e, stamp in stamps.items() if e not in kept
             or (kept[e].revision, kept[e].night_date, kept[e].people, kept[e].games,
                 kept[e].club_revision) != (*stamp, club_revision)]
    stale_ids = sorted({*stale, *(kept.keys() - stamps.keys())})
    for chunk in range(0, len(stale_ids), 500):
        db.session.execute(delete(RatedNight).where(
            RatedNight.event_id.in_(stale_ids[chunk:chunk + 500])))
    if stale:
        db.session.execute(insert(RatedNight), [
            {"event_id": e, "club_id": club_id, "revision": stamps[e][0],
             "night_date": stamps[e][1], "people": stamps[e][2], "games": stamps[e][3],
             "club_revision": club_revision} for e in stale])


def rerate_from(club_id: int, start: int, stamps: dict, club_revision: int,
                read: list) -> None:
    """Re-rate the club's games from play order `start` (a night's first) on, in the open
    transaction; `read`: rated games already read (of any nights), used rather than read
    again.

    What it reads is in proportion to the nights re-rated, not to the club's history: a
    person's rating just before `start` is the `before` of their first night from `start`
    on (deleted here), or, when they have none, their rating now (all their nights are
    earlier); their games and wins are what the ratings row counted, less the nights
    deleted, plus the new ones."""
    dropped: dict[int, tuple[rr.Rating, int, int]] = {}  # person -> first before, games, wins
    for _, person, mu_before, sigma_before, games, wins in sorted(db.session.execute(
            delete(RatingNight).where(RatingNight.club_id == club_id,
                                      RatingNight.night_order >= start)
            .returning(RatingNight.night_order, RatingNight.person_id, RatingNight.mu_before,
                       RatingNight.sigma_before, RatingNight.games, RatingNight.wins))):
        first, games_before, wins_before = dropped.get(person, ((mu_before, sigma_before), 0, 0))
        dropped[person] = (first, games_before + games, wins_before + wins)
    starts = {e: night_start(stamp[1], e) for e, stamp in stamps.items()}
    nights = {e: stamp[1] for e, stamp in stamps.items() if starts[e] >= start}
    have = {g.night for g in read}
    games = [g for g in read if g.night in nights]
    games += rated_games({e: d for e, d in nights.items() if e not in have})
    persons = {p for g in games for p in (*g.side_a, *g.side_b)}
    current = _current(club_id, persons | dropped.keys())
    before = {p: dropped[p][0] if p in dropped else current[p][0]
              for p in persons if p in dropped or p in current}
    now, rows = rr.rate_nights(games, before)
    _write(RatingNight.__tablename__, NIGHT_COLUMNS,
           [(r.night, r.person, club_id, starts[r.night], *r.before, *r.after, r.games, r.wins)
            for r in rows])
    counted: dict[int, list[int]] = {}
    for row in rows:
        tally = counted.setdefault(row.person, [0, 0])
        tally[0] += row.games
        tally[1] += row.wins
    changed = []
    for person in persons | dropped.keys():
        _, games_then, wins_then = current.get(person, (None, 0, 0))
        _, games_gone, wins_gone = dropped.get(person, (None, 0, 0))
        games_now, wins_now = counted.get(person, (0, 0))
        total = games_then - games_gone + games_now
        if total <= 0:
            continue
        rating = now[person] if person in now else dropped[person][0]
        changed.append((club_id, person, rating[0], rating[1], total,
                        wins_then - wins_gone + wins_now))
    _replace_current(club_id, persons | dropped.keys(), changed)


NIGHT_COLUMNS = ("event_id", "person_id", "club_id", "night_order", "mu_before",
                 "sigma_before", "mu", "sigma", "games", "wins")
RATING_COLUMNS = ("club_id", "person_id", "mu", "sigma", "games", "wins")


def _write(table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Rows straight to the driver: COPY on PostgreSQL (its executemany is a round trip a
    batch, and the ORM's bulk insert spent 80 microseconds a row building parameters),
    executemany on SQLite. A club's whole history is 100,000 rows a person a night."""
    if not rows:
        return
    connection = db.session.connection()
    names = ", ".join(columns)
    if connection.dialect.name == "postgresql":
        with connection.connection.driver_connection.cursor() as cursor, \
                cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    marks = ", ".join("?" * len(columns))
    connection.exec_driver_sql(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


def _current(club_id: int, persons: set[int]) -> dict[int, tuple[rr.Rating, int, int]]:
    """These people's ratings rows: (mu, sigma), games, wins."""
    found = {}
    ids = sorted(persons)
    for chunk in range(0, len(ids), 500):
        for person, mu, sigma, games, wins in db.session.execute(
                select(Rating.person_id, Rating.mu, Rating.sigma, Rating.games, Rating.wins)
                .where(Rating.club_id == club_id, Rating.person_id.in_(ids[chunk:chunk + 500]))):
            found[person] = ((mu, sigma), games, wins)
    return found


def _replace_current(club_id: int, persons: set[int], rows: list[tuple]) -> None:
    ids = sorted(persons)
    for chunk in range(0, len(ids), 500):
        db.session.execute(delete(Rating).where(Rating.club_id == club_id,
                                                Rating.person_id.in_(ids[chunk:chunk + 500])))
    _write(Rating.__tablename__, RATING_COLUMNS, rows)


def forget() -> None:
    """Forget what this process last found rated (after rows were changed by hand)."""
    _SYNCED.clear()


def rerate_all(club_id: int) -> None:
    """Forget the club's ratings and rate everything again (the bench; a repair)."""
    db.session.rollback()
    for table in (RatedNight, RatingNight, Rating):
        db.session.execute(delete(table).where(table.club_id == club_id))
    db.session.commit()
    forget()
    sync(club_id)
