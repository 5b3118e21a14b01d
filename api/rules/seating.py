"""Seating and movement: round-1 tables at check-in, and who sits where in each later round."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import SeatingError
from .seats import SEATS_OF, SIDE_OF_SEAT, SIDES, A, B, other

GHOST = None  # a ghost seat's occupant: cards played blind, never moves

SMALLEST_PROGRESSIVE_FIELD = 6  # two tables, each with one ghost


def _partner_seat(seat: int) -> int:
    """Seats 1 and 3 are partners, as are 2 and 4."""
    return (seat + 1) % 4 + 1


def _pair(one: Any, two: Any) -> frozenset:
    return frozenset((one, two))


@dataclass(frozen=True)
class Table:
    """One table of an individual event: `seats[0]` is seat 1; GHOST (None) is the ghost seat."""

    number: int
    seats: tuple[Any, Any, Any, Any]

    def __post_init__(self):
        if len(self.seats) != 4:
            raise SeatingError(f"Table {self.number} has {len(self.seats)} seats; a euchre table "
                               "has 4.")
        ghosts = sum(1 for player in self.seats if player is GHOST)
        if ghosts > 1:
            raise SeatingError(f"Table {self.number} has {ghosts} ghost seats, and a table can "
                               "hold at most one ghost (the rules move no other kind): seat a "
                               "late player there, or move players so each ghost has a table "
                               "of its own.", table=self.number, ghosts=ghosts)
        players = self.players
        if len(set(players)) != len(players):
            raise SeatingError(f"Table {self.number} seats the same player twice.")

    @property
    def players(self) -> tuple:
        """The real players at the table, in seat order."""
        return tuple(player for player in self.seats if player is not GHOST)

    @property
    def has_ghost(self) -> bool:
        return any(player is GHOST for player in self.seats)

    @property
    def ghost_seat(self) -> int | None:
        """The ghost's seat number, or None at a table of four players."""
        for seat, player in enumerate(self.seats, start=1):
            if player is GHOST:
                return seat
        return None

    def side(self, side: str) -> tuple[Any, Any]:
        """The two occupants of side A (seats 1 and 3) or side B (seats 2 and 4)."""
        first, second = SEATS_OF[side]
        return self.seats[first - 1], self.seats[second - 1]

    def seat_of(self, player: Any) -> int:
        """The seat (1-4) where a player sits at this table."""
        for seat, occupant in enumerate(self.seats, start=1):
            if occupant is not GHOST and occupant == player:
                return seat
        raise SeatingError(f"Player {player!r} is not at table {self.number}.")

    def partner_of(self, player: Any) -> Any:
        """The player's partner this round (GHOST when partnering the ghost)."""
        return self.seats[_partner_seat(self.seat_of(player)) - 1]

    def side_of(self, player: Any) -> str:
        return SIDE_OF_SEAT[self.seat_of(player)]


@dataclass(frozen=True)
class Pairing:
    """One table of a team event: team `a` sits in seats 1 and 3 (side A), team `b` in 2 and 4."""

    number: int
    a: Any
    b: Any

    def team(self, side: str) -> Any:
        """The team on side A or B."""
        return self.a if side == A else self.b

    def side_of(self, team: Any) -> str:
        if team == self.a:
            return A
        if team == self.b:
            return B
        raise SeatingError(f"Team {team!r} is not at table {self.number}.")


# --- the size of a field ---------------------------------------------------------------------

def _count(player_count: int) -> int:
    if isinstance(player_count, bool) or not isinstance(player_count, int) or player_count < 0:
        raise SeatingError(f"A player count is a whole number of players, not {player_count!r}.")
    return player_count


def ghost_seats(player_count: int) -> int:
    """Ghost seats needed so that every table has four seats filled: (4 - n % 4) % 4."""
    return (4 - _count(player_count) % 4) % 4


def table_count(player_count: int) -> int:
    """Tables needed to seat everyone, ghost tables included: ceil(n / 4)."""
    return -(-_count(player_count) // 4)


def _players(word: int) -> str:
    return f"{word} player" if word == 1 else f"{word} players"


def check_progressive_field(player_count: int) -> None:
    """Refuse a progressive field that cannot be seated and moved.

    Each ghost needs a table of its own (a table holds at most one ghost), and movement needs
    at least two tables, so 6 players is the smallest field; every field of 6 or more works
    (9 players: 3 tables, each with a ghost).
    """
    n = _count(player_count)
    if n >= SMALLEST_PROGRESSIVE_FIELD:
        return
    short = SMALLEST_PROGRESSIVE_FIELD - n
    if n == 0:
        reason = "No players are checked in"
    elif n <= 4:
        reason = (f"With {_players(n)} there is only one table, and progressive movement needs "
                  "at least two")
    else:
        reason = (f"{_players(n)} would need {ghost_seats(n)} ghost seats at "
                  f"{table_count(n)} tables, and a table holds at most one ghost")
    raise SeatingError(f"{reason}: add {_players(short)} (6 is the smallest progressive field).",
                       players=n, add=short)


def check_multiple_of_four(player_count: int) -> None:
    """Refuse a WEC singles field that is not a whole number of tables, saying how to fix it."""
    n = _count(player_count)
    if n >= 4 and n % 4 == 0:
        return
    add = (4 - n % 4) % 4 or 4
    if n < 4:
        raise SeatingError(f"{_players(n)}: WEC singles needs a multiple of 4 players, with no "
                           f"ghost seats: add {_players(add)}.", players=n, add=add)
    withdraw = n % 4
    raise SeatingError(f"{_players(n)}: WEC singles needs a multiple of 4 players, with no ghost "
                       f"seats: add {_players(add)} or withdraw {withdraw}.",
                       players=n, add=add, withdraw=withdraw)


def _check_entrants(entrants: Sequence, word: str) -> None:
    seen = set()
    for entrant in entrants:
        if entrant is GHOST:
            raise SeatingError(f"A {word} needs an id; None stands for the ghost seat.")
        if entrant in seen:
            raise SeatingError(f"{word.capitalize()} {entrant!r} is checked in twice.")
        seen.add(entrant)


# --- round 1 ---------------------------------------------------------------------------------

def seat_individuals(players: Iterable, rng: random.Random) -> list[Table]:
    """Random tables and seats for round 1 of an individual event.

    The ghost tables are the last `ghost_seats(n)` tables, each ghost in seat 4.
    """
    field = list(players)
    check_progressive_field(len(field))
    _check_entrants(field, "player")
    rng.shuffle(field)
    ghosts = ghost_seats(len(field))
    full = table_count(len(field)) - ghosts
    tables = []
    for index in range(full):
        tables.append(Table(index + 1, tuple(field[4 * index:4 * index + 4])))
    for index in range(ghosts):
        start = 4 * full + 3 * index
        tables.append(Table(full + index + 1, (*field[start:start + 3], GHOST)))
    return tables


def seat_teams(teams: Iterable, rng: random.Random) -> list[Pairing]:
    """Round 1 of a team event by random draw: each table's first team drawn takes side A."""
    field = list(teams)
    if len(field) < 2:
        raise SeatingError(f"{len(field)} team{'' if len(field) == 1 else 's'}: a team event "
                           f"needs at least 2 teams: add {2 - len(field)}.")
    if len(field) % 2:
        raise SeatingError(f"{len(field)} teams: add one team or withdraw one, so that every "
                           "table has two.", teams=len(field), add=1, withdraw=1)
    _check_entrants(field, "team")
    rng.shuffle(field)
    return [Pairing(index + 1, field[2 * index], field[2 * index + 1])
            for index in range(len(field) // 2)]


# --- between rounds --------------------------------------------------------------------------

def _check_winners(numbers: Sequence[int], winners: Mapping[int, str]) -> None:
    """Every table needs the winning side of its last game, and nothing else may be named."""
    for number in numbers:
        if number not in winners:
            raise SeatingError(f"Table {number} has no winner for its last game: finish it (a "
                               "level game needs its playoff hand or card draw) before moving.")
        if winners[number] not in SIDES:
            raise SeatingError(f"Table {number}'s winner must be side A or B, not "
                               f"{winners[number]!r}.")
    extra = sorted(set(winners) - set(numbers), key=repr)
    if extra:
        raise SeatingError(f"A winner was given for table {extra[0]!r}, which is not in this "
                           "round.")


def _in_order(tables: Iterable, kind: str) -> list:
    ordered = sorted(tables, key=lambda table: table.number)
    numbers = [table.number for table in ordered]
    if len(set(numbers)) != len(numbers):
        raise SeatingError(f"Two {kind} share a table number; number each table once.")
    return ordered


def _repeats(pairs: Iterable[tuple[Any, Any]], partners: Collection[frozenset]) -> int:
    return sum(1 for one, two in pairs if _pair(one, two) in partners)


def _fewest_repeats(options: Sequence[Sequence[tuple[Any, Any]]],
                    partners: Collection[frozenset]) -> int:
    """The index of the first option whose partnerships repeat the fewest earlier ones."""
    counts = [_repeats(option, partners) for option in options]
    return counts.index(min(counts))


class StayError(SeatingError):
    """Entrants who stay at one table (an accommodation) cannot all be kept there."""

    code = "accommodation"


@dataclass(frozen=True)
class StayChange:
    """What an accommodation changed at one table: `stayed` kept the table where the movement
    would have moved them on, and `moved` left it in their place (to table `to`, when known)."""

    table: int
    stayed: tuple
    moved: tuple
    to: int | None = None


@dataclass(frozen=True)
class Moved:
    """The next round's tables (or pairings), and what the accommodations changed in it."""

    tables: list
    changes: list[StayChange]


def progressive_next(tables: Sequence[Table], winners: Mapping[int, str],
                     partners: Collection[frozenset], stays: Collection = ()) -> list[Table]:
    """The next round's tables of a progressive event: `progressive_move` without its notes."""
    return progressive_move(tables, winners, partners, stays).tables


def progressive_move(tables: Sequence[Table], winners: Mapping[int, str],
                     partners: Collection[frozenset], stays: Collection = ()) -> Moved:
    """The next round of a progressive event (RULES.md, "progressive": movement and ghosts).

    `winners` maps each table number to the side (A or B) that won its last game; `partners`
    holds every pair (frozenset of two ids) who have already partnered. A pair that includes
    GHOST counts like any other, so a caller that records ghost partnerships also spreads the
    ghost seat around; last round's partnerships are added here in any case. `stays` are the
    players who never change table (RULES.md §4, "Accommodation").

    - A table of four: the winners stay, and the stayer in the lower seat keeps it while the
      other moves to the lower seat of the other side, so they become opponents. The losers
      move on to the next table that accepts arrivals; each arrival partners one stayer.
    - A ghost table: the ghost keeps its seat and its last partner (P) becomes its opponent,
      moving to the lower seat of the other side. If the ghost's side won, the other pair
      moves on and two arrive, one to partner the ghost and one P. If it lost, nobody comes or
      goes: one winner swaps seats with P to partner the ghost and the other partners P, and
      the table accepts no arrivals this round.
    - Losers go to the next accepting table after their own, the last table wrapping round to
      the first; when only one table accepts arrivals, its losers stay there, split up.
    - Wherever two players could each partner one of two others, the way that repeats fewer
      earlier partnerships is taken; when both repeat as many, the player from the lower seat
      partners the stayer who kept their seat (or, at a ghost table that lost, the winner in
      the lower seat partners the ghost).
    - Accommodation: a player who stays is never among those who leave. Where one is on the
      losing side, one winner leaves in their place with the other loser: the one whose move
      repeats fewer partnerships, else the one in the higher seat. Where the one who stays has
      a winner who stays (or the ghost) opposite, those two stay and the other two leave;
      where both losers stay, both winners leave. Two who stay on opposite sides keep their
      seats and each partners an arrival. A table holds at most two who never move, the
      ghost counting as one.
    """
    ordered = _in_order(tables, "tables")
    _check_winners([table.number for table in ordered], winners)
    seated: set = set()
    for table in ordered:
        for player in table.players:
            if player in seated:
                raise SeatingError(f"Player {player!r} is seated at two tables; fix the round "
                                   "before moving.")
            seated.add(player)
    stays = set(stays)
    for table in ordered:
        fixed = [player for player in table.players if player in stays]
        if len(fixed) + table.has_ghost > 2:
            ghost = " and the ghost" if table.has_ghost else ""
            raise StayError(f"Table {table.number} holds {len(fixed)} players who stay"
                               f"{ghost}: at most two who never move can share a table (the "
                               "ghost counts as one). Give one of them another table.",
                               table=table.number, stays=fixed)

    known = set(partners)
    for table in ordered:
        known.update(_pair(*table.side(side)) for side in SIDES)

    # A table accepts arrivals exactly when a pair leaves it: every table of four, and every
    # ghost table whose ghost's side won.
    def accepts(table: Table) -> bool:
        ghost = table.ghost_seat
        return ghost is None or SIDE_OF_SEAT[ghost] == winners[table.number]

    accepting = [table for table in ordered if accepts(table)]
    options = {table.number: _stay_options(table, winners[table.number], stays)
               for table in accepting}
    following = {table.number: accepting[(index + 1) % len(accepting)].number
                 for index, table in enumerate(accepting)}

    def build(choice: Mapping[int, int]) -> list[Table]:
        arrivals = {}
        for table in accepting:
            leaving = options[table.number][choice[table.number]][1]
            arrivals[following[table.number]] = tuple(table.seats[s - 1] for s in leaving)
        return [_reseat(table, winners[table.number], arrivals.get(table.number), known,
                        options[table.number][choice[table.number]][0]
                        if table.number in options else None)
                for table in ordered]

    # Where a winner leaves in place of one who stays, try each winner in turn, table by
    # table, keeping the one whose move repeats fewer partnerships over the whole round.
    choice = {number: 0 for number in options}
    for number, ways in options.items():
        if len(ways) > 1:
            counts = []
            for index in range(len(ways)):
                trial = build({**choice, number: index})
                counts.append(_repeats((table.side(side) for table in trial
                                        for side in SIDES), known))
            choice[number] = counts.index(min(counts))

    changes = []
    for table in accepting:
        staying, leaving = options[table.number][choice[table.number]]
        losing = SEATS_OF[other(winners[table.number])]
        stayed = tuple(table.seats[s - 1] for s in staying if s in losing)
        if stayed:
            moved = tuple(table.seats[s - 1] for s in leaving if s not in losing)
            changes.append(StayChange(table.number, stayed, moved, following[table.number]))
    return Moved(build(choice), changes)


def _stay_options(table: Table, won: str, stays: Collection) -> list[tuple[tuple, tuple]]:
    """The ways (seats that stay, seats that leave) a table may split, the movement's own way
    first: the winners stay unless one who never moves (or the ghost) is among the losers."""
    win_seats, lose_seats = SEATS_OF[won], SEATS_OF[other(won)]
    fixed = {seat for seat, player in enumerate(table.seats, start=1)
             if player is GHOST or player in stays}
    fixed_losing = [seat for seat in lose_seats if seat in fixed]
    if not fixed_losing:
        return [(win_seats, lose_seats)]
    if len(fixed_losing) == 2:
        return [(lose_seats, win_seats)]
    stayer = fixed_losing[0]
    fixed_winning = [seat for seat in win_seats if seat in fixed]
    if fixed_winning:
        staying = tuple(sorted((stayer, fixed_winning[0])))
        return [(staying, tuple(s for s in (1, 2, 3, 4) if s not in staying))]
    low, high = win_seats
    partner = _partner_seat(stayer)
    # The higher seat's winner leaves unless the other way repeats fewer partnerships.
    return [(tuple(sorted((stayer, low))), tuple(sorted((high, partner)))),
            (tuple(sorted((stayer, high))), tuple(sorted((low, partner))))]


def _reseat(table: Table, won: str, arriving: tuple[Any, Any] | None,
            partners: Collection[frozenset], staying: tuple[int, int] | None = None) -> Table:
    """One table's seats for the next round, given who won it, who arrives and which seats'
    players stay (the winners', unless an accommodation says otherwise)."""
    seats: list[Any] = [None] * 4
    ghost = table.ghost_seat
    if arriving is None:
        # A ghost table whose ghost's side lost: the two winners split, one swapping with P.
        ghost_partner_seat = _partner_seat(ghost)
        p = table.seats[ghost_partner_seat - 1]
        low, high = SEATS_OF[won]
        options = [((table.seats[low - 1], GHOST), (table.seats[high - 1], p)),
                   ((table.seats[high - 1], GHOST), (table.seats[low - 1], p))]
        choice = _fewest_repeats(options, partners)
        swapper = (low, high)[choice]
        seats = list(table.seats)
        seats[ghost_partner_seat - 1], seats[swapper - 1] = table.seats[swapper - 1], p
        return Table(table.number, tuple(seats))

    first_seat, second_seat = staying if staying is not None else SEATS_OF[won]
    if ghost in (first_seat, second_seat):
        keeper_seat = ghost
        mover_seat = second_seat if first_seat == ghost else first_seat
    else:
        keeper_seat, mover_seat = first_seat, second_seat
    if SIDE_OF_SEAT[keeper_seat] == SIDE_OF_SEAT[mover_seat]:
        # Partners who both stay split up: one moves to the lower seat of the other side.
        mover_new = SEATS_OF[other(SIDE_OF_SEAT[keeper_seat])][0]
    else:
        mover_new = mover_seat  # already opponents: both keep their seats
    keeper, mover = table.seats[keeper_seat - 1], table.seats[mover_seat - 1]
    mover_partner_seat = _partner_seat(mover_new)
    keeper_partner_seat = _partner_seat(keeper_seat)
    first, second = arriving
    options = [((keeper, first), (mover, second)), ((keeper, second), (mover, first))]
    if _fewest_repeats(options, partners):
        first, second = second, first
    seats[keeper_seat - 1] = keeper
    seats[mover_new - 1] = mover
    seats[keeper_partner_seat - 1] = first
    seats[mover_partner_seat - 1] = second
    return Table(table.number, tuple(seats))


def teams_next(pairings: Sequence[Pairing], winners: Mapping[int, str]) -> list[Pairing]:
    """The next round of the teams preset: `teams_move` without its notes."""
    return teams_move(pairings, winners).tables


def teams_move(pairings: Sequence[Pairing], winners: Mapping[int, str],
               stays: Collection = ()) -> Moved:
    """The next round of the teams preset: winners keep their seats, and each table's losing
    team moves to the next table (the last to the first), taking the side its winners left.

    `stays` are teams that never change table: where one loses, the winning team moves on in
    its place; where both teams at a table stay, that table leaves the rotation (they play
    each other again) and the losers of the table before it move on to the one after it.
    """
    ordered = _in_order(pairings, "pairings")
    _check_winners([pairing.number for pairing in ordered], winners)
    stays = set(stays)
    active = [p for p in ordered if not (p.a in stays and p.b in stays)]
    staying, moving, changes = {}, [], []
    for pairing in active:
        won = winners[pairing.number]
        winner, loser = pairing.team(won), pairing.team(other(won))
        if loser in stays and winner not in stays:
            winner, loser = loser, winner
        staying[pairing.number] = winner
        moving.append(loser)
    for index, pairing in enumerate(active):
        if staying[pairing.number] != pairing.team(winners[pairing.number]):
            changes.append(StayChange(pairing.number, (staying[pairing.number],),
                                      (moving[index],),
                                      active[(index + 1) % len(active)].number))
    next_round = []
    arriving_at = {pairing.number: moving[index - 1] for index, pairing in enumerate(active)}
    for pairing in ordered:
        if pairing.number not in staying:
            changes.append(StayChange(pairing.number, (pairing.a, pairing.b), ()))
            next_round.append(pairing)
            continue
        stayer = staying[pairing.number]
        arriving = arriving_at[pairing.number]  # the first table takes the last one's
        a, b = (stayer, arriving) if pairing.side_of(stayer) == A else (arriving, stayer)
        next_round.append(Pairing(pairing.number, a, b))
    return Moved(next_round, changes)


def wec_doubles_round(first_round: Sequence[Pairing], first_winners: Mapping[int, str],
                      game: int) -> list[Pairing]:
    """Who plays where in game `game` of WEC doubles: `wec_doubles_move` without its notes."""
    return wec_doubles_move(first_round, first_winners, game).tables


def wec_doubles_move(first_round: Sequence[Pairing], first_winners: Mapping[int, str],
                     game: int, stays: Collection = ()) -> Moved:
    """Who plays where in game `game` (1-based) of WEC doubles.

    Game 1 is the draw itself. From game 2, the winners of game 1 are at home: same table,
    same seats, all event. The losers of game 1 visit, moving one table on after every game:
    the visitor from the t-th of T tables plays game k at the ((t - 1 + k - 1) mod T) + 1-th,
    on the side its home team does not hold.

    `stays` are teams that never change table: one that lost game 1 is at home instead of
    its winners (who visit in its place); two at one table both stay there, and the visitors
    go round the other tables.
    """
    if isinstance(game, bool) or not isinstance(game, int) or game < 1:
        raise SeatingError(f"Games are numbered from 1, not {game!r}.")
    ordered = _in_order(first_round, "pairings")
    if game == 1:
        return Moved(list(ordered), [])
    _check_winners([pairing.number for pairing in ordered], first_winners)
    stays = set(stays)
    active = [p for p in ordered if not (p.a in stays and p.b in stays)]
    homes, visitors, changes = {}, [], []
    for pairing in active:
        won = first_winners[pairing.number]
        home, visitor = pairing.team(won), pairing.team(other(won))
        if visitor in stays and home not in stays:
            home, visitor = visitor, home
            changes.append(StayChange(pairing.number, (home,), (visitor,)))
        homes[pairing.number] = home
        visitors.append(visitor)
    count = len(active)
    pairings = []
    position = {pairing.number: index for index, pairing in enumerate(active)}
    for pairing in ordered:
        if pairing.number not in homes:
            changes.append(StayChange(pairing.number, (pairing.a, pairing.b), ()))
            pairings.append(pairing)
            continue
        home = homes[pairing.number]
        visitor = visitors[(position[pairing.number] - (game - 1)) % count]
        a, b = (home, visitor) if pairing.side_of(home) == A else (visitor, home)
        pairings.append(Pairing(pairing.number, a, b))
    return Moved(pairings, changes)
