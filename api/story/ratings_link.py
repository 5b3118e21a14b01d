"""The one place this area reads the club's ratings (api/ratings, issue 30 point 1): each
person's (mu, sigma) for a balanced first round, and the night's rating changes (shown
rating, mu - 3 sigma, before and after) for the recap's rating jump."""

from __future__ import annotations

from collections.abc import Iterable

from ..ratings.reads import rating_changes_for_event, rating_of
from ..rules.ratings import START


def ratings_of(club_id: int, person_ids: Iterable[int], fresh: bool = True
               ) -> dict[int, tuple[float, float]]:
    """The people's ratings, leaving out those still at the start (no rated game yet).
    `fresh`: bring the club's ratings up to date first, which ends the caller's transaction
    (ratings/rerate.sync): a read may, a write holding a lock may not."""
    found = rating_of(club_id, list(person_ids), bring_up_to_date=fresh)
    return {person: rating for person, rating in found.items() if tuple(rating) != START}


def rating_changes(event_id: int) -> dict[int, tuple[float, float]]:
    return dict(rating_changes_for_event(event_id))


def give_ratings(club_id: int, person_ids: list[int], found: dict, fresh: bool) -> None:
    """RATINGS_WANTED's listener: each rated person's mu."""
    for person, (mu, _sigma) in ratings_of(club_id, person_ids, fresh).items():
        found[person] = mu
