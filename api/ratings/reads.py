"""What the ratings show: a club's table, a person's rating over their nights, and the two
functions other areas call (`rating_of`, `rating_changes_for_event`). Every read first
brings the club's ratings up to date (rerate.sync: two small queries when nothing changed);
the table is ranked once per change and kept per process, and a read answers a page of it."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from sqlalchemy import select

from ..core.caching import Kept
from ..core.db import db
from ..core.errors import Forbidden
from ..core.models import Event, Person, RatedNight, Rating, RatingNight
from ..people.people import get_person
from ..rules import ratings as rr
from .order import night_start
from .rerate import rated_stamp, sync


def _row(person_id: int, name: str, mu: float, sigma: float, games: int, wins: int) -> dict:
    return {"person_id": person_id, "name": name, "rating": rr.display((mu, sigma)),
            "mu": round(mu, 3), "sigma": round(sigma, 3), "games": games, "wins": wins}


# The whole table, ranked, by (club, whether the viewer holds the club key), stamped with
# rerate.rated_stamp: a page is a slice of it. Weighed in rows (about 300 bytes each): a
# club of 20,000 people seen with and without its key is 40,000.
TABLES_KEPT = 16
_TABLES = Kept(TABLES_KEPT, weigh=lambda table: len(table.rows), max_weight=100_000)
PAGE = 100  # rows a read answers unless it asks for more
COLUMNS = ("place", "person_id", "name", "rating", "mu", "sigma", "games", "wins")


class _Ranked(NamedTuple):
    rows: list[tuple]  # (-rating, name casefolded, person id, name, mu, sigma, games, wins)
    places: array  # each row's place


def forget() -> None:
    _TABLES.clear()


def table_stamp(club_id: int) -> str:
    """Bring the club's ratings up to date (rerate.sync) and say what they now are: a
    digest that changes with every re-rate and every change to the club's registry (a
    rename, a person made private, a merge, an erasure), and not otherwise."""
    sync(club_id)
    return rated_stamp(club_id)


def _ranked(club_id: int, viewer_is_club: bool) -> _Ranked:
    """Every rated person the viewer may see, best first (by mu - 3 sigma, then name, then
    id), and their places (equal ratings share one; the places count only the people this
    viewer sees). Rows as they sort, rounded only when shown: for a club of 20,000 people
    about 25 ms of reading and 30 of ranking on SQLite, once per change and viewer."""
    query = (select(Person.id, Person.name, Rating.mu, Rating.sigma, Rating.games,
                    Rating.wins)
             .join(Rating, Rating.person_id == Person.id)
             .where(Rating.club_id == club_id, Person.club_id == club_id))
    if not viewer_is_club:
        query = query.where(Person.private.is_(False))
    display = rr.display
    rows = [(-display((mu, sigma)), name.casefold(), pid, name, mu, sigma, games, wins)
            for pid, name, mu, sigma, games, wins in
            db.session.connection().execute(query).all()]
    rows.sort()  # the person's id settles every tie: nothing after it is compared
    places = array("l")
    place, previous = 0, None
    for index, row in enumerate(rows, start=1):
        if row[0] != previous:
            place, previous = index, row[0]
        places.append(place)
    return _Ranked(rows, places)


def _shown(row: tuple, place: int) -> tuple:
    """A ranked row as COLUMNS."""
    minus, _, person_id, name, mu, sigma, games, wins = row
    return (place, person_id, name, -minus, round(mu, 3), round(sigma, 3), games, wins)


def _kept(club_id: int, viewer_is_club: bool, stamp: str | None) -> _Ranked:
    return _TABLES.get_or_build((club_id, viewer_is_club),
                                lambda: _ranked(club_id, viewer_is_club),
                                stamp or table_stamp(club_id))


def table(club_id: int, viewer_is_club: bool, stamp: str | None = None) -> Iterator[tuple]:
    """The club's rated people, best first (by mu - 3 sigma, then name), each a row of
    COLUMNS with its place (equal ratings share it). The public does not see private people
    at all; erased people appear under their 'Former player N' name, as everywhere.
    `stamp`: table_stamp's, when the caller has it."""
    found = _kept(club_id, viewer_is_club, stamp)
    return map(_shown, found.rows, found.places)


def page(club_id: int, viewer_is_club: bool, offset: int = 0, limit: int = PAGE,
         stamp: str | None = None) -> dict:
    """Rows `offset` to `offset + limit` of the table, with how many it has: the places are
    the whole table's (the 150th is 150th on the second page)."""
    found = _kept(club_id, viewer_is_club, stamp)
    end = offset + limit
    return {"rows": [dict(zip(COLUMNS, _shown(row, place), strict=True))
                     for row, place in zip(found.rows[offset:end], found.places[offset:end],
                                           strict=True)],
            "total_rows": len(found.rows), "offset": offset}


def history(club_id: int, person_id: int, viewer_is_club: bool) -> dict:
    """A person's rating now and after each night they played a rated game (the profile's
    chart): refused to the public for a private person, as the profile is."""
    person = get_person(club_id, person_id)
    if person.private and not viewer_is_club:
        raise Forbidden(f"{person.name}'s profile is private: only the club sees it.",
                        code="private-person")
    sync(club_id)
    nights = []
    games = wins = 0
    last = rr.START
    for event_id, code, name, night, mu_before, sigma_before, mu, sigma, played, won in \
            db.session.execute(
                select(RatingNight.event_id, Event.code, Event.name, Event.night_date,
                       RatingNight.mu_before, RatingNight.sigma_before, RatingNight.mu,
                       RatingNight.sigma, RatingNight.games, RatingNight.wins)
                .join(Event, Event.id == RatingNight.event_id)
                .where(RatingNight.club_id == club_id, RatingNight.person_id == person.id)
                .order_by(RatingNight.night_order)):
        games, wins, last = games + played, wins + won, (mu, sigma)
        nights.append({"event_id": event_id, "code": code, "name": name, "date": night,
                       "games": played, "wins": won,
                       "before": rr.display((mu_before, sigma_before)),
                       "rating": rr.display(last), "mu": round(mu, 3),
                       "sigma": round(sigma, 3)})
    return {"person_id": person.id, "name": person.name, "private": person.private,
            **_row(person.id, person.name, *last, games, wins), "rated": games > 0,
            "nights": nights}


def rating_of(club_id: int, person_ids: Iterable[int], *, bring_up_to_date: bool = True
              ) -> dict[int, tuple[float, float]]:
    """Each person's (mu, sigma) now; a person with no rated game has the starting rating.
    For balanced seating (another area's use). Bringing the ratings up to date ends the
    caller's transaction first (see rerate.sync): inside a write, pass
    `bring_up_to_date=False` to read what was last rated (a finished night is rated at once)."""
    ids = list(dict.fromkeys(person_ids))
    if bring_up_to_date:
        sync(club_id)
    found = {p: rr.START for p in ids}
    for chunk in range(0, len(ids), 500):
        for person_id, mu, sigma in db.session.execute(
                select(Rating.person_id, Rating.mu, Rating.sigma)
                .where(Rating.club_id == club_id, Rating.person_id.in_(ids[chunk:chunk + 500]))):
            found[person_id] = (mu, sigma)
    return found


def rating_changes_for_event(event_id: int, *, bring_up_to_date: bool = True
                             ) -> dict[int, tuple[float, float]]:
    """Per person who played a rated game in the night: their shown rating (mu - 3 sigma)
    before its first game and after its last. For the night's recap. (`bring_up_to_date`:
    as for rating_of.)"""
    club_id = db.session.scalar(select(Event.club_id).where(Event.id == event_id))
    if club_id is None:
        return {}
    if bring_up_to_date:
        sync(club_id)
    # The night's rows are found by the order its games were rated under (its stamp's date:
    # the night's date unless it changed since, and was not re-rated yet).
    rated_on = db.session.scalar(select(RatedNight.night_date)
                                 .where(RatedNight.event_id == event_id))
    if rated_on is None:
        return {}
    return {person: (rr.display((mu_before, sigma_before)), rr.display((mu, sigma)))
            for person, mu_before, sigma_before, mu, sigma in db.session.execute(
                select(RatingNight.person_id, RatingNight.mu_before, RatingNight.sigma_before,
                       RatingNight.mu, RatingNight.sigma)
                .where(RatingNight.club_id == club_id,
                       RatingNight.night_order == night_start(rated_on, event_id)))}
