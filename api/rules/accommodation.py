"""Accommodations (RULES.md §4): entrants who stay at one table all event, whatever the
movement says. The movements themselves keep them (seating.py, schedules.py); this module
decides their tables in round 1 and brings back to its table anyone the round's movement or
field changes left elsewhere (their stay was set mid-event, a late arrival filled a seat)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .seating import GHOST, StayChange, StayError

WHERE_FIRST_SEATED = 0  # a stay of 0: the table where the entrant was first seated


def who(entrant: Any, names: Mapping | None) -> str:
    """An entrant as a person reads it: their name when known."""
    return (names or {}).get(entrant) or f"Entrant {entrant!r}"


def check_tables(stays: Mapping[Any, int], tables: int, names: Mapping | None = None) -> None:
    """[decision] A stay at a table the round does not have is refused, not moved to another
    table: the organizer chooses where the player goes."""
    for entrant, table in sorted(stays.items(), key=lambda item: (item[1], repr(item[0]))):
        if table > tables:
            raise StayError(
                f"{who(entrant, names)} stays at table {table}, but this round has only "
                f"{tables} table{'' if tables == 1 else 's'}: choose a table from 1 to "
                f"{tables} for them in Players (or clear the stay), then seat the round.",
                entrant=entrant, table=table, tables=tables)


def free_targets(stays: Mapping[Any, int], tables: int, rng: random.Random,
                 ghost_tables: Collection[int] = ()) -> dict[Any, int]:
    """Round 1: tables for those who stay where first seated (0), each at a table nobody
    else stays at when there are enough, tables of four before ghost tables, drawn at random.
    Only draws from `rng` when someone stays where first seated."""
    targets = {entrant: table for entrant, table in stays.items() if table}
    loose = sorted((e for e, table in stays.items() if not table), key=repr)
    if not loose:
        return targets
    taken = set(targets.values())
    full = [t for t in range(1, tables + 1) if t not in taken and t not in ghost_tables]
    ghost = [t for t in range(1, tables + 1) if t not in taken and t in ghost_tables]
    rng.shuffle(full)
    rng.shuffle(ghost)
    order = full + ghost
    # More loose stayers than free tables: share, fewest stayers first.
    order += sorted(range(1, tables + 1),
                    key=lambda t: (list(targets.values()).count(t), t in ghost_tables, t))
    for entrant, table in zip(loose, order, strict=False):
        targets[entrant] = table
    return targets


def check_room(stays: Mapping[Any, int], capacity: Mapping[int, int] | int,
               names: Mapping | None = None, what: str = "players") -> None:
    """At most `capacity` entrants can stay at one table (a table's, or every table's)."""
    at: dict[int, list] = {}
    for entrant, table in stays.items():
        at.setdefault(table, []).append(entrant)
    for table, entrants in sorted(at.items()):
        room = capacity if isinstance(capacity, int) else capacity.get(table, 2)
        if len(entrants) > room:
            listed = ", ".join(sorted(who(e, names) for e in entrants))
            raise StayError(
                f"{len(entrants)} {what} stay at table {table} ({listed}), and it has room "
                f"for {room} who never move: give one of them another table.", table=table)


def _pair(one, two) -> frozenset:
    return frozenset((one, two))


def place_players(tables: Sequence[Sequence], stays: Mapping[Any, int],
                  partners: Collection[frozenset] = (), names: Mapping | None = None
                  ) -> tuple[list[list], list[StayChange]]:
    """Bring each player who stays to their table. `tables` are seat lists (four players,
    None for the ghost) numbered from 1; `stays` maps a player to their table (0: no table
    yet, left alone).

    A player away from their table changes places with a player there who does not stay:
    the one whose change repeats the fewest partnerships (`partners`), then one on the other
    side from anyone else who stays there, then the one in the higher seat. A stay at a table
    the round does not have is refused (`check_tables`)."""
    seated = [list(table) for table in tables]
    where = {player: (index, seat) for index, table in enumerate(seated)
             for seat, player in enumerate(table) if player is not GHOST}
    wanted = {p: t for p, t in stays.items() if t and p in where}
    check_tables(wanted, len(seated), names)
    fixed = {p for p, t in wanted.items() if where[p][0] + 1 == t}
    changes = []
    for player, target in sorted(wanted.items(), key=lambda item: (item[1], repr(item[0]))):
        index, seat = where[player]
        if index + 1 == target:
            continue
        there, here = seated[target - 1], seated[index]
        staying_sides = {s % 2 for s, p in enumerate(there) if p in fixed}
        free = [s for s, p in enumerate(there) if p is not GHOST and p not in fixed]
        # Fewest repeated partnerships, then away from others who stay, then the higher seat.
        costs = {s: ((_pair(player, there[(s + 2) % 4]) in partners)
                     + (_pair(there[s], here[(seat + 2) % 4]) in partners),
                     s % 2 in staying_sides, -s) for s in free}
        if not free:
            raise StayError(f"Table {target} has no seat for {who(player, names)}: every "
                               "other seat there holds someone who stays or the ghost. Give "
                               "one of them another table.",
                               table=target)
        swap = min(free, key=costs.__getitem__)
        moved = there[swap]
        there[swap], seated[index][seat] = player, moved
        where[player], where[moved] = (target - 1, swap), (index, seat)
        fixed.add(player)
        if wanted.get(moved) == index + 1:
            fixed.add(moved)  # the swap took them to their own table
        changes.append(StayChange(target, (player,), (moved,), index + 1))
    return seated, changes


def place_teams(pairs: Sequence[tuple[Any, Any]], stays: Mapping[Any, int],
                names: Mapping | None = None) -> tuple[list[tuple], list[StayChange]]:
    """Bring each team that stays to its table. `pairs` are (side A team, side B team)
    numbered from 1. A team away from its table changes places with the team there that does
    not stay (the side B team when neither does)."""
    seated = [list(pair) for pair in pairs]
    where = {team: (index, side) for index, pair in enumerate(seated)
             for side, team in enumerate(pair)}
    wanted = {t: table for t, table in stays.items() if table and t in where}
    check_tables(wanted, len(seated), names)
    check_room(wanted, 2, names, what="teams")
    fixed = {t for t, table in wanted.items() if where[t][0] + 1 == table}
    changes = []
    for team, target in sorted(wanted.items(), key=lambda item: (item[1], repr(item[0]))):
        index, side = where[team]
        if index + 1 == target:
            continue
        there = seated[target - 1]
        swap = 1 if there[1] not in fixed else 0
        moved = there[swap]
        there[swap], seated[index][side] = team, moved
        where[team], where[moved] = (target - 1, swap), (index, side)
        fixed.add(team)
        if wanted.get(moved) == index + 1:
            fixed.add(moved)
        changes.append(StayChange(target, (team,), (moved,), index + 1))
    return [tuple(pair) for pair in seated], changes
