"""Changes to the field between rounds: who fills the seat of a player who left, and where a
late arrival sits, disturbing the format's movement as little as possible."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .errors import SeatingError

GHOST = None


def fill_seats(tables: Sequence[Sequence[Any]], withdrawn: set,
               arrivals: Sequence[Hashable]) -> list[list[Any]]:
    """Individual formats. `tables` are the next round's seats (four per table, None for a
    ghost) as the movement made them; returns the seats with the field's changes applied.

    [decision] A player who withdrew leaves a ghost in their seat, and a late arrival takes a
    ghost seat (the table with the most ghosts first). The field then gets exactly the tables
    RULES.md gives its size (ceil(n / 4), at most one ghost each): a table with more ghosts
    than that allows is taken down from the end, its players filling ghost seats elsewhere,
    and a table still short of players borrows from the last full table. Arrivals with no
    ghost seat open a new table at the end, filled the same way.
    """
    seated = [[GHOST if seat in withdrawn else seat for seat in table] for table in tables]
    waiting = list(arrivals)
    while waiting and any(GHOST in t for t in seated):
        index = max((i for i, t in enumerate(seated) if GHOST in t),
                    key=lambda i: (seated[i].count(GHOST), -i))
        seated[index][seated[index].index(GHOST)] = waiting.pop(0)
    while waiting:
        group, waiting = waiting[:4], waiting[4:]
        seated.append(group + [GHOST] * (4 - len(group)))

    players = sum(1 for t in seated for seat in t if seat is not GHOST)
    if players < 6:
        raise SeatingError(f"{players} players are too few to seat; a round needs at least "
                           "6 (two tables).")
    needed = -(-players // 4)
    while len(seated) > needed:
        # Take down the table with the fewest players (the later one when level).
        index = min(range(len(seated)), key=lambda i: (4 - seated[i].count(GHOST), -i))
        leaving = [p for p in seated.pop(index) if p is not GHOST]
        for player in leaving:
            target = max((i for i, t in enumerate(seated) if GHOST in t),
                         key=lambda i: (seated[i].count(GHOST), -i))
            seated[target][seated[target].index(GHOST)] = player
    while True:
        short = [i for i, t in enumerate(seated) if t.count(GHOST) > 1]
        if not short:
            break
        full = [i for i, t in enumerate(seated) if GHOST not in t]
        donor = full[-1]
        # The donor gives the player whose seat keeps its stayers together: the last seat.
        seat = 3
        player, seated[donor][seat] = seated[donor][seat], GHOST
        seated[short[0]][seated[short[0]].index(GHOST)] = player
    return seated


def fill_pairings(pairings: Sequence[tuple[Hashable, Hashable]], withdrawn: set,
                  arrivals: Sequence[Hashable]) -> list[tuple[Hashable, Hashable]]:
    """Team formats. [decision] A late team takes the place of a team that withdrew (in
    registration order); further late teams play each other at new tables at the end. An odd
    number of teams cannot be seated: the organizer adds or withdraws one."""
    waiting = list(arrivals)
    seated = []
    for a, b in pairings:
        if a in withdrawn:
            a = waiting.pop(0) if waiting else GHOST
        if b in withdrawn:
            b = waiting.pop(0) if waiting else GHOST
        seated.append((a, b))
    empty = sum(1 for pair in seated for team in pair if team is GHOST)
    if (empty + len(waiting)) % 2:
        count = sum(1 for pair in seated for team in pair if team is not GHOST) + len(waiting)
        raise SeatingError(
            f"{count} teams cannot be seated in pairs: add a late team or withdraw one more.")
    # Pair up tables left with one team each, then seat remaining late teams together.
    lonely = [team for pair in seated if GHOST in pair for team in pair if team is not GHOST]
    kept = [pair for pair in seated if GHOST not in pair]
    rest = lonely + waiting
    for i in range(0, len(rest), 2):
        kept.append((rest[i], rest[i + 1]))
    return kept
