"""The one place this area reads the club's ratings (api/ratings, issue 30 point 1):
`rating_of(club_id, person_ids) -> {person: (mu, sigma)}` and
`rating_changes_for_event(event_id) -> {person: (before, after)}` (displayed, mu - 3 sigma).

Until the ratings are part of the app, nobody has a rating: a balanced round counts everyone
as the start rating and a recap tells no rating jump."""

from __future__ import annotations

import importlib
from collections.abc import Iterable


def _ratings():
    try:
        return importlib.import_module("api.ratings")
    except ModuleNotFoundError:
        return None


def ratings_of(club_id: int, person_ids: Iterable[int]) -> dict[int, tuple[float, float]]:
    module = _ratings()
    if module is None:
        return {}
    return dict(module.rating_of(club_id, list(person_ids)))


def rating_changes(event_id: int) -> dict[int, tuple[float, float]]:
    module = _ratings()
    if module is None:
        return {}
    return dict(module.rating_changes_for_event(event_id))


def give_ratings(club_id: int, person_ids: list[int], found: dict) -> None:
    """RATINGS_WANTED's listener: each known person's mu."""
    for person, (mu, _sigma) in ratings_of(club_id, person_ids).items():
        found[person] = mu
