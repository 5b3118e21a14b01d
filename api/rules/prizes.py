"""Money and draws on the night (RULES.md §4): the prize pool, the payout split by field size,
shared places sharing money, and the door-prize draw.

Amounts are whole currency units (the organizer hands out notes, not cents). What does not
divide evenly stays with the organizer and is shown as such.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RuleError

# The split by field size, as per cent of the pool per place: (smallest field, percentages).
# Loner Seekers pay 1st-2nd with 12-20 players and 1st-3rd with 24 or more; a smaller field
# pays its winner. Fields of 21-23 (odd nights with ghosts) take the 12-player split.
DEFAULT_SPLIT: tuple[tuple[int, tuple[int, ...]], ...] = (
    (1, (100,)),
    (12, (60, 40)),
    (24, (50, 30, 20)),
)

MAX_PLACES_PAID = 20


class MoneyError(RuleError):
    """A fee, a maintenance fee, a split or a draw that cannot be used."""

    code = "bad-money"


@dataclass(frozen=True)
class Pool:
    paid: int  # entrants whose fee is marked paid
    collected: int  # the fees paid
    maintenance: int  # kept by the organizer before the split
    pool: int  # what is paid out (collected - maintenance)


@dataclass(frozen=True)
class Payouts:
    pool: Pool
    percentages: tuple[int, ...]  # the split used, per place from 1st
    by_place: tuple[int, ...]  # each paid place's amount before any sharing
    by_entrant: dict[Any, int]  # what each placed entrant takes home
    remainder: int  # what did not divide evenly: stays with the organizer

    @property
    def paid_out(self) -> int:
        return sum(self.by_entrant.values())


def check_split(split: Sequence[tuple[int, Sequence[int]]]) -> tuple:
    """A split table checked: fields ascending from 1, each row's per cents (1st, 2nd, ...)
    whole, not rising down the places, at most MAX_PLACES_PAID, adding up to 100."""
    rows = []
    previous = 0
    for index, (smallest, percentages) in enumerate(split):
        where = f"Row {index + 1} of the split"
        percentages = tuple(percentages)
        if index == 0 and smallest != 1:
            raise MoneyError(f"{where} must start at a field of 1 (every field size needs a "
                             "split).")
        if smallest <= previous:
            raise MoneyError(f"{where}: field sizes must rise ({smallest} after {previous}).")
        if not percentages or len(percentages) > MAX_PLACES_PAID:
            raise MoneyError(f"{where}: pay between 1 and {MAX_PLACES_PAID} places.")
        if any(p < 0 or int(p) != p for p in percentages):
            raise MoneyError(f"{where}: per cents are whole numbers, 0 or more.")
        if sum(percentages) != 100:
            raise MoneyError(f"{where} adds up to {sum(percentages)}%, not 100%.")
        if any(b > a for a, b in zip(percentages, percentages[1:], strict=False)):
            raise MoneyError(f"{where}: a lower place cannot be paid more than a higher one.")
        rows.append((int(smallest), tuple(int(p) for p in percentages)))
        previous = smallest
    if not rows:
        raise MoneyError("The split needs at least one row.")
    return tuple(rows)


def split_for(field_size: int, split=DEFAULT_SPLIT) -> tuple[int, ...]:
    """The per cents paid to each place for a field of this size."""
    chosen = split[0][1]
    for smallest, percentages in split:
        if field_size >= smallest:
            chosen = percentages
    return chosen


def prize_pool(fee: int, paid: int, maintenance_amount: int = 0,
               maintenance_percent: int = 0) -> Pool:
    """The pool: fees marked paid less the maintenance fee (an amount, or a per cent of the
    fees rounded to the nearest unit, halves up), never below nothing."""
    if fee < 0 or paid < 0 or maintenance_amount < 0 or not 0 <= maintenance_percent <= 100:
        raise MoneyError("Fees and the maintenance fee cannot be negative, nor the "
                         "maintenance per cent over 100.")
    collected = fee * paid
    kept = maintenance_amount + (collected * maintenance_percent * 2 + 100) // 200
    kept = min(kept, collected)
    return Pool(paid=paid, collected=collected, maintenance=kept, pool=collected - kept)


def payouts(pool: Pool, places: Sequence[tuple[Any, int | None]],
            split=DEFAULT_SPLIT, field_size: int | None = None) -> Payouts:
    """Who takes what: `places` are (entrant, place) in standings order, place None for one
    struck from the places (disqualified, removed). Entrants sharing a place split equally the
    amounts of the places they cover (two sharing 2nd with three places paid share 2nd's and
    3rd's money); each share is rounded down to whole units and the rest is the remainder."""
    placed = [(e, p) for e, p in places if p is not None]
    size = field_size if field_size is not None else len(places)
    percentages = split_for(size, split)
    by_place = tuple(pool.pool * pct // 100 for pct in percentages)
    groups: dict[int, list] = {}
    for entrant, place in placed:
        groups.setdefault(place, []).append(entrant)
    by_entrant: dict[Any, int] = {}
    for place, group in groups.items():
        covered = by_place[place - 1:place - 1 + len(group)]
        if not covered:
            continue
        share = sum(covered) // len(group)
        for entrant in group:
            by_entrant[entrant] = share
    remainder = pool.pool - sum(by_entrant.values())
    return Payouts(pool=pool, percentages=percentages, by_place=by_place,
                   by_entrant=by_entrant, remainder=remainder)


def draw(candidates: Sequence[Any], count: int, seed: int) -> list[Any]:
    """A door-prize draw: `count` distinct winners, uniformly at random among `candidates`,
    in the order drawn. The same candidates (in any order) and seed draw the same winners."""
    if count < 1:
        raise MoneyError("Draw at least one winner.")
    pool = sorted(set(candidates), key=lambda c: (str(type(c)), c))
    if count > len(pool):
        raise MoneyError(f"Only {len(pool)} can be drawn from; {count} asked for.")
    return random.Random(seed).sample(pool, count)
