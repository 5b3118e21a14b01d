"""What the ratings show: a club's table, a person's rating over their nights, and the two
functions other areas call (`rating_of`, `rating_changes_for_event`). Every read first
brings the club's ratings up to date (rerate.sync: two small queries when nothing changed)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..core.db import db
from ..core.errors import Forbidden
from ..core.models import Event, Person, RatedNight, Rating, RatingNight
from ..people.people import get_person
from ..rules import ratings as rr
from .order import night_start
from .rerate import sync


def _row(person_id: int, name: str, mu: float, sigma: float, games: int, wins: int) -> dict:
    return {"person_id": person_id, "name": name, "rating": rr.display((mu, sigma)),
            "mu": round(mu, 3), "sigma": round(sigma, 3), "games": games, "wins": wins}


def table(club_id: int, viewer_is_club: bool) -> list[dict]:
    """The club's rated people, best first (by mu - 3 sigma, then name), each with a place
    (equal ratings share it). The public does not see private people at all; erased people
    appear under their 'Former player N' name, as everywhere."""
    sync(club_id)
    query = (select(Person.id, Person.name, Person.private, Rating.mu, Rating.sigma,
                    Rating.games, Rating.wins)
             .join(Rating, Rating.person_id == Person.id)
             .where(Rating.club_id == club_id, Person.club_id == club_id))
    rows = [_row(pid, name, mu, sigma, games, wins)
            for pid, name, private, mu, sigma, games, wins in db.session.execute(query)
            if viewer_is_club or not private]
    rows.sort(key=lambda r: (-r["rating"], r["name"].casefold(), r["person_id"]))
    place, previous = 0, None
    for index, row in enumerate(rows, start=1):
        if row["rating"] != previous:
            place, previous = index, row["rating"]
        row["place"] = place
    return rows


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
