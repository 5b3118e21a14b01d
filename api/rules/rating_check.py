"""Does a rating predict? A backtest over games in play order, and a simulated club with
known skills to run it on (RULES.md section 8; bench/ratings.py reports the figures).

Before each game the winner is predicted three ways: from the four players' ratings, from
the season's points per hand so far (each side's two players' averages; somebody with no
hand yet counts as the season's average so far), and by a coin. Each is scored by accuracy,
Brier score and log loss. Standard library only.

Both predictions turn a difference into a chance through a curve whose steepness is learned
as the season goes, the same way for both: before each game, the steepness (from one fine
grid) that has the best Brier score on the games before it. No hindsight: a game is scored
by what was known before it. For the ratings the curve is the model's own (a normal on the
sides' summed mu over c, steepness 1 being the model's); for points per hand a logistic.
The best steepness in hindsight is reported for points per hand as a check on the baseline.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import ratings as rr


@dataclass(frozen=True)
class PlayedGame:
    """A finished, rated game with what the baseline needs: each side's points and hands."""

    order: int
    side_a: tuple[int, int]
    side_b: tuple[int, int]
    winner: str
    points_a: int
    points_b: int
    hands: int


@dataclass
class Score:
    games: int = 0
    right: float = 0.0
    brier: float = 0.0
    log_loss: float = 0.0

    def add(self, p_a: float, a_won: bool) -> None:
        p = min(max(p_a, 1e-6), 1 - 1e-6)
        self.games += 1
        self.right += 0.5 if p == 0.5 else (1.0 if (p > 0.5) == a_won else 0.0)
        self.brier += (p - (1.0 if a_won else 0.0)) ** 2
        self.log_loss -= math.log(p if a_won else 1.0 - p)

    def figures(self) -> dict:
        n = max(self.games, 1)
        return {"games": self.games, "accuracy": round(self.right / n, 4),
                "brier": round(self.brier / n, 4), "log_loss": round(self.log_loss / n, 4)}


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


class Calibrated:
    """A prediction's steepness learned from the games seen: `chance(d)` is the curve at
    d times the steepness that has scored best so far (`home` while none has), from a
    geometric grid around `home` spanning `low` to `high`;
    `learn(d, a_won)` scores every steepness of the grid on one more game."""

    RATIO = 1.08  # between one steepness of the grid and the next

    def __init__(self, curve, home: float, low: float, high: float) -> None:
        steps = range(math.floor(math.log(low / home, self.RATIO)),
                      math.ceil(math.log(high / home, self.RATIO)) + 1)
        self.grid = tuple(home * self.RATIO ** i for i in steps)
        self.curve, self.home = curve, home
        self.brier = [0.0] * len(self.grid)
        self.best = self.grid.index(home)

    @property
    def steepness(self) -> float:
        return self.grid[self.best]

    def chance(self, d: float) -> float:
        return self.curve(self.grid[self.best] * d)

    def learn(self, d: float, a_won: bool) -> None:
        y = 1.0 if a_won else 0.0
        brier, curve = self.brier, self.curve
        for i, k in enumerate(self.grid):
            brier[i] += (curve(k * d) - y) ** 2
        lowest = min(brier)
        # Ties (the first games) keep the steepness nearest home.
        self.best = min((i for i, b in enumerate(brier) if b == lowest),
                        key=lambda i: abs(math.log(self.grid[i] / self.home)))


def _rating_gap(side_a, side_b) -> float:
    """The ratings' difference over c: the normal curve's argument at steepness 1."""
    mu = side_a[0][0] + side_a[1][0] - side_b[0][0] - side_b[1][0]
    return mu / math.sqrt(2 * rr.BETA * rr.BETA + side_a[0][1] ** 2 + side_a[1][1] ** 2
                          + side_b[0][1] ** 2 + side_b[1][1] ** 2)


def backtest(games: Sequence[PlayedGame]) -> dict:
    """Rate the games in order, predicting each before it is rated."""
    now: dict[int, rr.Rating] = {}
    rating, coin, season = Score(), Score(), Score()
    rating_curve = Calibrated(rr.normal_cdf, 1.0, 0.05, 4.0)
    season_curve = Calibrated(_logistic, 8.0, 0.25, 64.0)
    points: dict[int, list[float]] = {}
    all_points = [0.0, 0]  # the season's points and hands, everybody's
    for game in sorted(games, key=lambda g: g.order):
        a_won = game.winner == "A"
        side_a = tuple(now.get(p, rr.START) for p in game.side_a)
        side_b = tuple(now.get(p, rr.START) for p in game.side_b)
        gap = _rating_gap(side_a, side_b)
        rating.add(rating_curve.chance(gap), a_won)
        rating_curve.learn(gap, a_won)
        coin.add(0.5, a_won)
        average = all_points[0] / all_points[1] if all_points[1] else 0.0

        def pph(side, average=average):
            return sum(points[p][0] / points[p][1] if p in points else average
                       for p in side) / 2

        lead = pph(game.side_a) - pph(game.side_b)
        season.add(season_curve.chance(lead), a_won)
        season_curve.learn(lead, a_won)
        rr.rate([rr.RatedGame(game.order, None, game.side_a, game.side_b, game.winner,
                              points=(game.points_a, game.points_b))], ratings=now)
        for side, got in ((game.side_a, game.points_a), (game.side_b, game.points_b)):
            for p in side:
                total = points.setdefault(p, [0.0, 0])
                total[0] += got
                total[1] += game.hands
                all_points[0] += got
                all_points[1] += game.hands
    best = min(range(len(season_curve.grid)), key=lambda i: season_curve.brier[i])
    hindsight = season_curve.brier[best] / max(season.games, 1)
    return {"ratings": {**rating.figures(), "steepness": round(rating_curve.steepness, 3)},
            "points_per_hand": {**season.figures(),
                                "steepness": round(season_curve.steepness, 3)},
            "points_per_hand_in_hindsight": {"brier": round(hindsight, 4),
                                             "steepness": round(season_curve.grid[best], 3)},
            "coin": coin.figures(), "final": now}


@dataclass
class SimulatedClub:
    skills: dict[int, float]
    games: list[PlayedGame] = field(default_factory=list)
    nights: list[list[PlayedGame]] = field(default_factory=list)


def simulate_club(people: int = 60, nights: int = 30, seed: int = 1, rounds: int = 8,
                  hands_per_game: int = 8, attendance: float = 0.7,
                  spread: float = 1.0, to_points: int | None = None) -> SimulatedClub:
    """A club of `people` with skills drawn from a normal (sd `spread`), playing progressive
    nights: each night about `attendance` of them come (a multiple of four), every round
    seats them at random with new partners, and each game is `hands_per_game` hands, each
    won by a side with a logistic chance on the sides' summed skills (0.35 per unit: a good
    pair beats an average one about 60% of hands), worth 1, 2 (a march) or 4 (a loner march)
    points; a level game goes to one playoff hand. With `to_points` a game is played to
    that many points instead (a game of 10 as most clubs play it)."""
    rng = random.Random(seed)
    skills = {p: rng.gauss(0.0, spread) for p in range(1, people + 1)}
    club = SimulatedClub(skills)
    order = 0
    for _night in range(nights):
        here = [p for p in skills if rng.random() < attendance]
        here = here[:len(here) - len(here) % 4]
        night: list[PlayedGame] = []
        for _round in range(rounds):
            rng.shuffle(here)
            for t in range(0, len(here), 4):
                a, b = (here[t], here[t + 2]), (here[t + 1], here[t + 3])
                edge = 0.35 * (skills[a[0]] + skills[a[1]] - skills[b[0]] - skills[b[1]])
                p_hand = 1.0 / (1.0 + math.exp(-edge))
                pa = pb = hands = 0
                while (hands < hands_per_game if to_points is None
                       else max(pa, pb) < to_points):
                    hands += 1
                    worth = rng.choices((1, 2, 4), (0.7, 0.25, 0.05))[0]
                    if rng.random() < p_hand:
                        pa += worth
                    else:
                        pb += worth
                if pa == pb:
                    winner = "A" if rng.random() < p_hand else "B"
                else:
                    winner = "A" if pa > pb else "B"
                order += 1
                night.append(PlayedGame(order, a, b, winner, pa, pb, hands))
        club.nights.append(night)
        club.games.extend(night)
    return club


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return out
    rx, ry = ranks(list(xs)), ranks(list(ys))
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else 0.0
