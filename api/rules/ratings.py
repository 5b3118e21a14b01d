"""Ratings (RULES.md §8): Weng-Lin's Bayesian approximation (the OpenSkill family), with the
two players of a side as a team and one update per rated game, in play order.

The model is OpenSkill's Thurstone-Mosteller with full pairing, with three of its settings
chosen for euchre (the figures behind them: BENCHMARKS.md, "Ratings"):

- gamma = 1: each game shrinks a player's sigma by the whole of what the result tells, as
  the normal (probit) model's own update does (with two teams it is then the same update as
  TrueSkill's). OpenSkill's default (the team's sigma over c) keeps sigma large for longer,
  so a regular's rating keeps jumping on single games; on simulated clubs it predicted
  worse, and lost to the season's points per hand on more seeds.
- beta = 2 sigma0 (16.7; OpenSkill's default is sigma0 / 2): beta is how much one game's
  performance varies around a side's skill, and a game of euchre is as much the cards as
  the players. At 16.7 the model's own win chances are about as sure as the results bear
  out on simulated clubs of the issue's spread of skills (the backtest's learned steepness
  comes out at 0.96 for 8-hand games, 1.07 for games to 10; at 12.5 it was 0.84, too
  sure; at OpenSkill's default, 0.65). Beta from 12.5 to 16.7 moved the Brier score by
  0.0003 at most: the steepness is what it changes.
- epsilon = 0: no draw margin, since a rated game always has a winner (a level game is
  rated by its playoff hand, and one settled by a card draw is not rated).

A game is rated by its result, and a result is a score: the update is weighted by how
decisively the game was won (`weight`: 0.5 for a level game decided by its playoff hand,
about 1 for a usual win, 2.5 for a shutout), in the spirit of OpenSkill's own score margins,
so a 10-1 rout tells the ratings more than a 10-9 squeaker. It is still one update per
game. Without it, with winners-stay movement (a night's later games are between sides of
like strength) one win or loss per game told less than the season's points per hand; with
it the ratings predict better than points per hand on every simulated club tried
(BENCHMARKS.md, "Ratings").

It is written here rather than called from the `openskill` package because re-rating a club
of 2,000,000 hands goes through about 250,000 games, and the package's rating objects cost
5 to 10 times more per game than these few float operations (BENCHMARKS.md, "Ratings");
tests/rules/test_ratings.py checks this update (at weight 1) against the package's own
figures. The package's score margin (which makes a big win look less surprising rather
than count for more) and its weights (each player's share of a team's result) are not
this weight. Standard library only.

A rating is (mu, sigma); it is shown as mu - 3 sigma (never a bare mu), with sigma.
"""

from __future__ import annotations

import gc
import math
import sys
from collections.abc import Iterable, Mapping
from typing import NamedTuple

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 2.0 * SIGMA  # how much one game's performance varies around a side's skill
TAU = MU / 300.0  # added uncertainty before every game, so a regular's sigma never freezes
KAPPA = 0.0001  # a sigma never shrinks by more than this factor's square root in one game
_SQRT2 = math.sqrt(2.0)
_PDF = 1.0 / math.sqrt(2.0 * math.pi)
_EPSILON = sys.float_info.epsilon

Rating = tuple[float, float]  # (mu, sigma)
START: Rating = (MU, SIGMA)


def display(rating: Rating) -> float:
    """What a person sees: the conservative estimate mu - 3 sigma, to two decimals."""
    mu, sigma = rating
    return round(mu - 3.0 * sigma, 2)


class RatedGame(NamedTuple):
    """One finished game to rate: its place in the club's play order (any sortable value),
    what the caller calls it, the persons on side A (seats 1 and 3) and side B (seats 2 and
    4), the side that won, and the night it was played in (its games are contiguous in play
    order)."""

    order: object
    key: object
    side_a: tuple[int, int]
    side_b: tuple[int, int]
    winner: str  # "A" | "B"
    night: object = None
    points: tuple[int, int] | None = None  # side A's and side B's; None: not known


def weight(points_won: int, points_lost: int) -> float:
    """How much one game counts: 0.5 plus twice the winners' margin as a share of the
    points scored (0.5 for a level game decided by its playoff hand or a card the score
    does not show, 1 when the winners took three points in five, 2.5 for a shutout). A
    game whose score says nothing (no points on either side) counts 1."""
    won, lost = max(points_won, 0), max(points_lost, 0)
    if won + lost == 0:
        return 1.0
    return 0.5 + 2.0 * max(won - lost, 0) / (won + lost)


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / _SQRT2)


def update(winners: tuple[Rating, Rating], losers: tuple[Rating, Rating], weight: float = 1.0
           ) -> tuple[tuple[Rating, Rating], tuple[Rating, Rating]]:
    """One game between two teams of two: Thurstone-Mosteller full pairing (tau added
    before the game, gamma = 1, epsilon = 0, kappa as OpenSkill's), the move of every mu
    and the shrink of every sigma scaled by the game's `weight` (1: the model's own update).
    Written out flat: this is the inner loop of re-rating a club's whole history."""
    tau2 = TAU * TAU
    (wm1, ws1), (wm2, ws2) = winners
    (lm1, ls1), (lm2, ls2) = losers
    wv1, wv2, lv1, lv2 = ws1 * ws1 + tau2, ws2 * ws2 + tau2, ls1 * ls1 + tau2, ls2 * ls2 + tau2
    c2 = wv1 + wv2 + lv1 + lv2 + 2.0 * BETA * BETA
    c = math.sqrt(c2)
    x = (wm1 + wm2 - lm1 - lm2) / c  # how far the winners were expected to win
    won = 0.5 * math.erfc(-x / _SQRT2)  # their chance under the model
    if won < _EPSILON:  # far past what a float holds: the limits (as OpenSkill's)
        v, w = -x, 1.0
    else:
        v = _PDF * math.exp(-0.5 * x * x) / won
        w = v * (v + x)
    move, shrink = weight * v / c, weight * w / c2
    return (((wm1 + wv1 * move, math.sqrt(wv1 * max(1.0 - wv1 * shrink, KAPPA))),
             (wm2 + wv2 * move, math.sqrt(wv2 * max(1.0 - wv2 * shrink, KAPPA)))),
            ((lm1 - lv1 * move, math.sqrt(lv1 * max(1.0 - lv1 * shrink, KAPPA))),
             (lm2 - lv2 * move, math.sqrt(lv2 * max(1.0 - lv2 * shrink, KAPPA)))))


def win_probability(side_a: tuple[Rating, Rating], side_b: tuple[Rating, Rating],
                    steepness: float = 1.0) -> float:
    """The chance side A wins, before the game, from the four ratings: the model's own (a
    normal on the teams' summed mu over c; OpenSkill's predict_win for this model), with
    the difference scaled by `steepness` (1: the model's; the backtest learns it from the
    games before, api/rules/rating_check.py)."""
    mu_a = side_a[0][0] + side_a[1][0]
    mu_b = side_b[0][0] + side_b[1][0]
    c = math.sqrt(2 * BETA * BETA + side_a[0][1] ** 2 + side_a[1][1] ** 2
                  + side_b[0][1] ** 2 + side_b[1][1] ** 2)
    return normal_cdf(steepness * (mu_a - mu_b) / c)


def _rate_game(game: RatedGame, now: dict[int, Rating]) -> tuple:
    """One game rated, `now` (the ratings so far; START for a newcomer) brought past it:
    the winners' and the losers' persons, their ratings before, and after."""
    if game.winner == "A":
        (w1, w2), (l1, l2), points = game.side_a, game.side_b, game.points
    else:
        (w1, w2), (l1, l2), points = game.side_b, game.side_a, game.points
        if points is not None:
            points = points[1], points[0]
    get = now.get
    bw1, bw2, bl1, bl2 = get(w1, START), get(w2, START), get(l1, START), get(l2, START)
    (aw1, aw2), (al1, al2) = update((bw1, bw2), (bl1, bl2),
                                    1.0 if points is None else weight(*points))
    now[w1], now[w2], now[l1], now[l2] = aw1, aw2, al1, al2
    return w1, w2, l1, l2, bw1, bw2, bl1, bl2, aw1, aw2, al1, al2


class Step(NamedTuple):
    """One person's rating before and after one game."""

    key: object
    order: object
    person: int
    before: Rating
    after: Rating
    won: bool


def rate(games: Iterable[RatedGame], start: Mapping[int, Rating] | None = None,
         ratings: dict[int, Rating] | None = None) -> tuple[dict[int, Rating], list[Step]]:
    """Rate the games in their play order (sorted here by `order`, ties kept as given) from
    the ratings in `start` (a person not in it starts at START): the ratings after the last
    game, and one step per person per game. `ratings`, when given, is updated in place (and
    is the first value returned)."""
    now = dict(start or {}) if ratings is None else ratings
    if ratings is not None and start:
        now.update(start)
    steps: list[Step] = []
    add, make = steps.append, Step._make
    ordered = sorted(games, key=lambda g: g.order)
    # A club's whole history makes a million small tuples that hold no cycles: the cyclic
    # collector's passes over them are most of the time spent (measured: 45%), so it waits.
    collecting = gc.isenabled() and len(ordered) > 10_000
    if collecting:
        gc.disable()
    try:
        for game in ordered:
            w1, w2, l1, l2, bw1, bw2, bl1, bl2, aw1, aw2, al1, al2 = _rate_game(game, now)
            key, order = game.key, game.order
            add(make((key, order, w1, bw1, aw1, True)))
            add(make((key, order, w2, bw2, aw2, True)))
            add(make((key, order, l1, bl1, al1, False)))
            add(make((key, order, l2, bl2, al2, False)))
    finally:
        if collecting:
            gc.enable()
    return now, steps


class NightRow(NamedTuple):
    """One person's rating before a night's first rated game and after its last, with the
    games they played in it and won."""

    night: object
    person: int
    before: Rating
    after: Rating
    games: int
    wins: int


def rate_nights(games: Iterable[RatedGame], start: Mapping[int, Rating] | None = None
                ) -> tuple[dict[int, Rating], list[NightRow]]:
    """Rate the games as `rate` does, keeping one row per night and person instead of one
    step per game and person (what the club's storage keeps: a profile's chart is drawn over
    nights, a recap reads a night's changes, and re-rating starts at a night's first game).
    The rows come night by night, in play order; a night's games must be contiguous in
    play order (a club's are: the night comes before the round in the order)."""
    now = dict(start or {})
    rows: list[NightRow] = []
    ordered = sorted(games, key=lambda g: g.order)
    collecting = gc.isenabled() and len(ordered) > 10_000  # as in rate()
    if collecting:
        gc.disable()
    try:
        night, tally = object(), {}
        for game in ordered:
            if game.night != night:
                rows += [NightRow(night, p, *row) for p, row in tally.items()]
                night, tally = game.night, {}
                seen = tally.get
            w1, w2, l1, l2, bw1, bw2, bl1, bl2, aw1, aw2, al1, al2 = _rate_game(game, now)
            for person, before, after, win in ((w1, bw1, aw1, 1), (w2, bw2, aw2, 1),
                                               (l1, bl1, al1, 0), (l2, bl2, al2, 0)):
                row = seen(person)
                if row is None:
                    tally[person] = [before, after, 1, win]
                else:
                    row[1] = after
                    row[2] += 1
                    row[3] += win
        rows += [NightRow(night, p, *row) for p, row in tally.items()]
    finally:
        if collecting:
            gc.enable()
    return now, rows


def rateable(persons: Iterable[int | None], winner: str | None, forfeited: bool,
             settled_by_card_draw: bool) -> bool:
    """Whether a finished game is rated: four distinct people seated (no ghost seat, no
    player outside the club's registry), a winner, no forfeit, not settled by a card draw. A
    game entered from its sheet is rated by its result like any other."""
    seated = list(persons)
    return (winner in ("A", "B") and not forfeited and not settled_by_card_draw
            and len(seated) == 4 and None not in seated and len(set(seated)) == 4)
