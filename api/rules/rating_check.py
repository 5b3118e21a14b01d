"""Does a rating predict? A backtest over games in play order, and a simulated club with
known skills to run it on (RULES.md section 8; bench/ratings.py reports the figures).

Before each game the winner is predicted three ways: from the four players' ratings (the
update's own win probability), from the season's points per hand so far (each side's two
players' averages, through a logistic whose steepness is the one that scored best on the
games before; the best steepness in hindsight is reported too), and by a coin. Each is
scored by accuracy, Brier score and log loss. Standard library only."""

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


# The points-per-hand baseline's logistic steepness: before each game it uses the one that
# has scored best on the games before (no hindsight, as the ratings have none).
STEEPNESS = (0.5, 1, 2, 3, 5, 8, 12, 16, 24)


def backtest(games: Sequence[PlayedGame]) -> dict:
    """Rate the games in order, predicting each before it is rated."""
    now: dict[int, rr.Rating] = {}
    rating, coin = Score(), Score()
    season, trial = Score(), {k: Score() for k in STEEPNESS}
    points: dict[int, list[float]] = {}
    for game in sorted(games, key=lambda g: g.order):
        a_won = game.winner == "A"
        side_a = tuple(now.get(p, rr.START) for p in game.side_a)
        side_b = tuple(now.get(p, rr.START) for p in game.side_b)
        rating.add(rr.win_probability(side_a, side_b), a_won)
        coin.add(0.5, a_won)

        def pph(side):
            return sum(points[p][0] / points[p][1] if points.get(p, (0, 0))[1] else 0.0
                       for p in side) / 2

        gap = pph(game.side_a) - pph(game.side_b)
        # The steepness that has scored best so far (nothing known: the middle one).
        lead = min(STEEPNESS, key=lambda k: (trial[k].brier, abs(k - 3)))
        season.add(1.0 / (1.0 + math.exp(-lead * gap)), a_won)
        for k, score in trial.items():
            score.add(1.0 / (1.0 + math.exp(-k * gap)), a_won)
        rr.rate([rr.RatedGame(game.order, None, game.side_a, game.side_b, game.winner)],
                ratings=now)
        for side, got in ((game.side_a, game.points_a), (game.side_b, game.points_b)):
            for p in side:
                total = points.setdefault(p, [0.0, 0])
                total[0] += got
                total[1] += game.hands
    best = min(trial, key=lambda k: trial[k].brier)
    return {"ratings": rating.figures(), "points_per_hand": season.figures(),
            "points_per_hand_in_hindsight": {**trial[best].figures(), "steepness": best},
            "coin": coin.figures(), "final": now}


@dataclass
class SimulatedClub:
    skills: dict[int, float]
    games: list[PlayedGame] = field(default_factory=list)
    nights: list[list[PlayedGame]] = field(default_factory=list)


def simulate_club(people: int = 60, nights: int = 30, seed: int = 1, rounds: int = 8,
                  hands_per_game: int = 8, attendance: float = 0.7,
                  spread: float = 1.0) -> SimulatedClub:
    """A club of `people` with skills drawn from a normal (sd `spread`), playing progressive
    nights: each night about `attendance` of them come (a multiple of four), every round
    seats them at random with new partners, and each game is `hands_per_game` hands, each
    won by a side with a logistic chance on the sides' summed skills (0.35 per unit: a good
    pair beats an average one about 60% of hands), worth 1, 2 (a march) or 4 (a loner march)
    points; a level game goes to one playoff hand."""
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
                pa = pb = 0
                for _hand in range(hands_per_game):
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
                night.append(PlayedGame(order, a, b, winner, pa, pb, hands_per_game))
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
