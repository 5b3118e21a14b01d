"""Keeping a club's ratings up to date: find the first game a change touched, and re-rate
from there on (every later step is deleted and computed again from the ratings just before
it). A new night at the end of the club's year re-rates only that night's games; a night
entered late for an earlier date, a correction, a ruling or a merge of two people re-rates
from that night's first game on. What was rated is stamped per night (its revision, date
and players' people), so every change is seen, whichever path wrote it."""

from __future__ import annotations

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import OperationalError

from ..core.caching import Kept
from ..core.db import db
from ..core.models import Club, Event, RatedNight, Rating, RatingStep
from ..rules import ratings as rr
from .order import club_nights, games_digests, night_start, people_digests, rated_games


def after_night_finished(event_id: int) -> None:
    club_id = db.session.scalar(select(Event.club_id).where(Event.id == event_id))
    if club_id is not None:
        sync(club_id)


def _first_change(club_id: int, club_revision: int, nights
                  ) -> tuple[int | None, dict | None]:
    """The play order from which the club must be re-rated (None: nothing changed), and
    each night's stamp now: revision, date, its players' people, and a digest of its rated
    games as they would be rated. A night whose revision changed but whose rated games did
    not (a night marked finished; a hand in a game still being played) is only stamped."""
    kept = {r.event_id: r for r in db.session.execute(
        select(RatedNight).where(RatedNight.club_id == club_id)).scalars()}
    registry_changed = any(r.club_revision != club_revision for r in kept.values())
    touched = [n for n in nights if registry_changed or n.id not in kept
               or (kept[n.id].revision, kept[n.id].night_date) != (n.revision, n.night_date)]
    digests = people_digests(n.id for n in touched)
    played = games_digests({n.id: n.night_date for n in touched})
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
    if not (starts or touched):
        return None, None  # nothing to re-rate, nothing to stamp
    return (min(starts) if starts else None), stamps


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
        start, stamps = _first_change(club_id, club_revision, nights)
        if start is not None:
            rerate_from(club_id, start, stamps, club_revision)
        elif stamps is not None:  # only stamps changed (a night finished, a hand in a game
            _restamp(club_id, stamps, club_revision)  # not over)
        db.session.commit()
        _SYNCED.put(club_id, True, (club_revision, tuple(sorted(tuple(n) for n in nights))))
    except OperationalError:  # a busy database: the next read tries again
        db.session.rollback()
        return False
    return start is not None


def _restamp(club_id: int, stamps: dict, club_revision: int) -> None:
    db.session.execute(delete(RatedNight).where(RatedNight.club_id == club_id))
    db.session.execute(insert(RatedNight), [
        {"event_id": e, "club_id": club_id, "revision": r, "night_date": d, "people": p,
         "games": g, "club_revision": club_revision} for e, (r, d, p, g) in stamps.items()])


def rerate_from(club_id: int, start: int, stamps: dict, club_revision: int) -> None:
    """Re-rate the club's games from play order `start` on, in the open transaction.

    What it reads is in proportion to the games re-rated, not to the club's history: a
    person's rating just before `start` is the `before` of their first step from `start` on
    (deleted here), or, when they had none, their rating now (all their steps are earlier);
    their games and wins are what the ratings row counted, less the steps deleted, plus the
    new ones. Steps are deleted only here (a game deleted leaves its steps until its night is
    re-rated: no foreign key to games), so those counts stay exact."""
    dropped: dict[int, tuple[rr.Rating, int, int]] = {}  # person -> first before, games, wins
    for person, mu_before, sigma_before, won in db.session.execute(
            select(RatingStep.person_id, RatingStep.mu_before, RatingStep.sigma_before,
                   RatingStep.won)
            .where(RatingStep.club_id == club_id, RatingStep.play_order >= start)
            .order_by(RatingStep.play_order)):
        first, games, wins = dropped.get(person, ((mu_before, sigma_before), 0, 0))
        dropped[person] = (first, games + 1, wins + int(won))
    db.session.execute(delete(RatingStep).where(RatingStep.club_id == club_id,
                                                RatingStep.play_order >= start))
    nights = {e: stamp[1] for e, stamp in stamps.items()
              if night_start(stamp[1], e) >= start}
    games = rated_games(nights)
    persons = {p for g in games for p in (*g.side_a, *g.side_b)}
    current = _current(club_id, persons | dropped.keys())
    before = {p: dropped[p][0] if p in dropped else current[p][0]
              for p in persons if p in dropped or p in current}
    now, steps = rr.rate(games, before)
    _insert_steps([(s.key[0], s.key[1], s.person, club_id, s.order, s.before[0], s.before[1],
                    s.after[0], s.after[1], s.won) for s in steps])
    counted: dict[int, list[int]] = {}
    for step in steps:
        tally = counted.setdefault(step.person, [0, 0])
        tally[0] += 1
        tally[1] += int(step.won)
    rows = []
    for person in persons | dropped.keys():
        _, games_then, wins_then = current.get(person, (None, 0, 0))
        _, games_gone, wins_gone = dropped.get(person, (None, 0, 0))
        games_now, wins_now = counted.get(person, (0, 0))
        total = games_then - games_gone + games_now
        if total <= 0:
            continue
        rating = now[person] if person in now else dropped[person][0]
        rows.append({"club_id": club_id, "person_id": person, "mu": rating[0],
                     "sigma": rating[1], "games": total,
                     "wins": wins_then - wins_gone + wins_now})
    _replace_current(club_id, persons | dropped.keys(), rows)
    if stamps:
        _restamp(club_id, stamps, club_revision)
    else:
        db.session.execute(delete(RatedNight).where(RatedNight.club_id == club_id))


STEP_COLUMNS = ("game_id", "event_id", "person_id", "club_id", "play_order", "mu_before",
                "sigma_before", "mu", "sigma", "won")


def _insert_steps(rows: list[tuple]) -> None:
    """The steps straight to the driver's executemany: a club's whole history is a million
    rows, and the ORM's bulk insert spent 80 microseconds a row building its parameters."""
    if not rows:
        return
    connection = db.session.connection()
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    sql = (f"INSERT INTO {RatingStep.__tablename__} ({', '.join(STEP_COLUMNS)}) "
           f"VALUES ({', '.join([mark] * len(STEP_COLUMNS))})")
    for chunk in range(0, len(rows), 50_000):
        connection.exec_driver_sql(sql, rows[chunk:chunk + 50_000])


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


def _replace_current(club_id: int, persons: set[int], rows: list[dict]) -> None:
    ids = sorted(persons)
    for chunk in range(0, len(ids), 500):
        db.session.execute(delete(Rating).where(Rating.club_id == club_id,
                                                Rating.person_id.in_(ids[chunk:chunk + 500])))
    for chunk in range(0, len(rows), 5000):
        db.session.execute(insert(Rating), rows[chunk:chunk + 5000])


def rerate_all(club_id: int) -> None:
    """Forget the club's ratings and rate everything again (the bench; a repair)."""
    db.session.execute(delete(RatedNight).where(RatedNight.club_id == club_id))
    db.session.commit()
    _SYNCED.clear()
    sync(club_id)
