"""Changes to the field between rounds: who fills the seat of a player who left, and where a
late arrival sits, without undoing the format's movement."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .errors import SeatingError

GHOST = None


def fill_seats(tables: Sequence[Sequence[Any]], withdrawn: set, arrivals: Sequence[Hashable]) \
        -> list[list[Any]]:
    """Individual formats. `tables` are the next round's seats (four per table, None for a
    ghost) as the movement made them.

    [decision] A player who withdrew leaves a ghost in their seat. A late arrival takes a
    ghost seat, first at tables with the most ghosts (so two-ghost tables are rare), then
    the lowest table number. Late arrivals left over sit at new tables at the end, two to
    four real players each (ghosts fill the rest); a single player left over waits, because
    a table of one real player is no game.
    """
    seated = [[GHOST if seat in withdrawn else seat for seat in table] for table in tables]
    waiting = list(arrivals)
    while waiting:
        ghost_tables = [i for i, t in enumerate(seated) if GHOST in t]
        if not ghost_tables:
            break
        index = max(ghost_tables, key=lambda i: (seated[i].count(GHOST), -i))
        seat = seated[index].index(GHOST)
        seated[index][seat] = waiting.pop(0)
    if len(waiting) == 1:
        raise SeatingError(
            f"No seat is free for the late player {waiting[0]!r}: one late player can join "
            "when a ghost seat is free or a second late player arrives. Check them in later, "
            "or withdraw them for now.")
    while waiting:
        group, waiting = waiting[:4], waiting[4:]
        if len(waiting) == 1:  # never leave one alone: 5 -> 3 + 2
            waiting.insert(0, group.pop())
        # Real players first on opposite sides (seats 1 and 2), ghosts in the last seats.
        seats = [GHOST] * 4
        for seat, player in zip((0, 1, 2, 3), group, strict=False):
            seats[seat] = player
        seated.append(seats)
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
