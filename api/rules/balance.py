"""Balanced seating: a first round whose partners are drawn so that, at every table, the two
sides' ratings are as close as can be found (RULES.md §8, ratings; issue 30).

The input is a draw already made (the format's random round 1, ghosts and players who stay
at one table in place) and each player's rating; the output is the same tables with the free
players moved among the free seats. A side's rating is the sum of its two players' ratings;
a table's difference is side A's minus side B's; the **spread** of a seating is the largest
difference at any table without a ghost (a ghost plays blind, so its table is left out).

The search: where the free players can be placed in few enough ways (a night of eight, or
twelve with people who stay), every placement is tried and the best kept, so a small night
gets the most level seating there is (a swap search missed it one time in seven at eight
players). Otherwise, from the draw and from a few shuffles of it (all from `seed`, so the
preview and the seating agree), swap two free players while that lowers the sum of the
squared differences; keep the seating with the smallest spread. It never returns a seating
with a larger spread than the draw it was given."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import factorial, prod
from typing import Any

START_RATING = 25.0  # RULES.md §8: start mu; a person without a rating counts as this
RESTARTS = 2
MOST_PASSES = 40
# Up to this many distinct placements of the free players, all are tried (eight free players
# at two tables have 2,520; twelve at three have 7,484,400, left to the swap search).
MOST_PLACEMENTS = 5_000
_SIGN = (1, -1, 1, -1)  # seats 1 and 3 are side A, 2 and 4 side B


@dataclass(frozen=True)
class Balanced:
    """The balanced tables (a list of four-seat lists, None a ghost), the spread they have,
    and the spread of the draw they were made from."""

    tables: list[list]
    spread: float
    drawn_spread: float


def rating_of(player: Any, ratings: Mapping) -> float:
    value = ratings.get(player)
    return START_RATING if value is None else float(value)


def differences(tables: Sequence[Sequence], ratings: Mapping) -> list[float | None]:
    """Each table's side A rating minus side B's; None for a table with a ghost."""
    out: list[float | None] = []
    for seats in tables:
        if any(p is None for p in seats):
            out.append(None)
        else:
            out.append(sum(s * rating_of(p, ratings) for s, p in zip(_SIGN, seats, strict=True)))
    return out


def spread(tables: Sequence[Sequence], ratings: Mapping) -> float:
    """The largest difference between the two sides' ratings at any table without a ghost."""
    return max((abs(d) for d in differences(tables, ratings) if d is not None), default=0.0)


def balance_tables(tables: Sequence[Sequence], ratings: Mapping, *, seed: int,
                   fixed: Collection = ()) -> Balanced:
    """The draw `tables` with its free players (everyone but ghosts and `fixed`) moved among
    their seats so the spread is as small as the search finds; deterministic for a seed."""
    drawn = [list(seats) for seats in tables]
    fixed = set(fixed)
    slots = [(t, s) for t, seats in enumerate(drawn) for s, p in enumerate(seats)
             if p is not None and p not in fixed]
    drawn_spread = spread(drawn, ratings)
    best = drawn
    best_key = (drawn_spread, _square_sum(drawn, ratings))
    exact = _every_placement(drawn, slots, ratings)
    if exact is not None:
        key = (spread(exact, ratings), _square_sum(exact, ratings))
        return Balanced(exact, key[0], drawn_spread) if key < best_key else \
            Balanced(drawn, drawn_spread, drawn_spread)
    rng = random.Random(seed)
    starts = [[p for t, s in slots for p in [drawn[t][s]]]]
    for _ in range(RESTARTS):
        shuffled = list(starts[0])
        rng.shuffle(shuffled)
        starts.append(shuffled)
    for order in starts:
        candidate = _improve(drawn, slots, order, ratings)
        key = (spread(candidate, ratings), _square_sum(candidate, ratings))
        if key < best_key:
            best, best_key = candidate, key
        if best_key[0] < 1e-9:
            break  # level at every table: no start can do better
    return Balanced(best, best_key[0], drawn_spread)


def _every_placement(drawn: list[list], slots: list[tuple[int, int]],
                     ratings: Mapping) -> list[list] | None:
    """The most level seating of all (smallest spread, then smallest sum of squares), trying
    every distinct placement of the free players; None where there are too many to try.

    Two free seats on the same side of the same table are alike (swapping their players
    changes nothing), so a placement is which players go to each (table, side) group; at a
    table with a ghost the side does not count either."""
    ghost = [any(p is None for p in seats) for seats in drawn]
    groups: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for t, s in slots:
        groups[(t, 0 if ghost[t] else _SIGN[s])].append((t, s))
    order = sorted(groups)
    sizes = [len(groups[g]) for g in order]
    if factorial(len(slots)) // prod(factorial(n) for n in sizes) > MOST_PLACEMENTS:
        return None
    base = []
    free = set(slots)
    for t, seats in enumerate(drawn):
        base.append(0.0 if ghost[t] else sum(
            g * rating_of(p, ratings) for i, (g, p) in enumerate(zip(_SIGN, seats, strict=True))
            if (t, i) not in free))
    players = [drawn[t][s] for t, s in slots]
    rated = {p: rating_of(p, ratings) for p in players}
    best: list = [None, None]  # key, the players chosen for each group

    def place(index: int, left: tuple, diff: list[float], chosen: list) -> None:
        if index == len(order):
            counted = [abs(d) for t, d in enumerate(diff) if not ghost[t]]
            key = (max(counted, default=0.0), sum(d * d for d in counted))
            if best[0] is None or key < best[0]:
                best[0], best[1] = key, list(chosen)
            return
        table, sign = order[index]
        for group in combinations(left, sizes[index]):
            moved = list(diff)
            moved[table] += sign * sum(rated[p] for p in group)
            rest = tuple(p for p in left if p not in group)
            place(index + 1, rest, moved, [*chosen, group])

    place(0, tuple(players), base, [])
    tables = [list(seats) for seats in drawn]
    for g, group in zip(order, best[1], strict=True):
        for (t, s), player in zip(groups[g], group, strict=True):
            tables[t][s] = player
    return tables


def _square_sum(tables: Sequence[Sequence], ratings: Mapping) -> float:
    return sum(d * d for d in differences(tables, ratings) if d is not None)


def _improve(drawn: list[list], slots: list[tuple[int, int]], order: list,
             ratings: Mapping) -> list[list]:
    """Put `order` into `slots`, then swap pairs of them while a swap lowers the sum of the
    squared table differences (first improvement, in slot order)."""
    tables = [list(seats) for seats in drawn]
    for (t, s), player in zip(slots, order, strict=True):
        tables[t][s] = player
    ghost = [any(p is None for p in seats) for seats in tables]
    diff = [0.0 if ghost[t] else
            sum(g * rating_of(p, ratings) for g, p in zip(_SIGN, seats, strict=True))
            for t, seats in enumerate(tables)]
    table = [t for t, _ in slots]
    sign = [0 if ghost[t] else _SIGN[s] for t, s in slots]  # a ghost table's does not count
    value = [rating_of(tables[t][s], ratings) for t, s in slots]
    who = list(order)
    count = len(slots)
    for _ in range(MOST_PASSES):
        improved = False
        for i in range(count):
            ti, gi = table[i], sign[i]
            for j in range(i + 1, count):
                tj, gj = table[j], sign[j]
                change = value[j] - value[i]
                if ti == tj:
                    if gi == gj:
                        continue
                    d = diff[ti]
                    new = d + 2 * gi * change
                    if d * d - new * new > 1e-9:
                        diff[ti] = new
                    else:
                        continue
                else:
                    di, dj = diff[ti], diff[tj]
                    new_i, new_j = di + gi * change, dj - gj * change
                    if di * di + dj * dj - new_i * new_i - new_j * new_j > 1e-9:
                        diff[ti], diff[tj] = new_i, new_j
                    else:
                        continue
                value[i], value[j] = value[j], value[i]
                who[i], who[j] = who[j], who[i]
                improved = True
        if not improved:
            break
    for (t, s), player in zip(slots, who, strict=True):
        tables[t][s] = player
    return tables
