"""Does the club's rating predict its games? The backtest of api/rules/rating_check.py over
a club's own history: every rated game in play order, predicted before it is rated."""

from __future__ import annotations

from sqlalchemy import select

from ..core.db import db
from ..core.models import Game
from ..rules import rating_check
from .order import club_nights, rated_games


def club_backtest(club_id: int) -> dict:
    """Accuracy, Brier score and log loss of the ratings, the season's points per hand and a
    coin, over every rated game of the club."""
    games = rated_games({n.id: n.night_date for n in club_nights(club_id)})
    ids = [g.key for g in games]
    points: dict[int, tuple[int, int, int]] = {}
    for chunk in range(0, len(ids), 500):
        for game_id, pa, pb, hands in db.session.execute(
                select(Game.id, Game.points_a, Game.points_b, Game.hands_played)
                .where(Game.id.in_(ids[chunk:chunk + 500]))):
            points[game_id] = (pa, pb, hands)
    played = [rating_check.PlayedGame(g.order, g.side_a, g.side_b, g.winner,
                                      *points[g.key]) for g in games]
    found = rating_check.backtest(played)
    found.pop("final")
    return found
