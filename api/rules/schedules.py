"""Fixed schedules: WEC singles tables for every game, league round robins, playoff brackets."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from .accommodation import check_room, check_tables, free_targets, who
from .errors import SeatingError
from .seating import GHOST, StayError, Table, check_multiple_of_four

# --- WEC singles -----------------------------------------------------------------------------

SEARCH_STEPS = 40_000  # moves tried at most; fields of 28 or more finish in far fewer
START_TEMPERATURE = 0.5  # a move adding one repeat is first taken with chance exp(-1/0.5)
TARGETED = 0.6  # the share of moves that start from a pair who already faced each other
STAY_WEIGHT = 1000  # a player away from the table they stay at weighs this many repeats


@dataclass(frozen=True)
class ScheduleReport:
    """How often a schedule brings the same two players together again.

    Each count adds, for every pair of players, the meetings beyond their first: a pair who
    partner twice adds 1 to `repeated_partners`; a pair who face each other three times as
    opponents adds 2 to `repeated_opponents`.
    """

    repeated_partners: int
    repeated_opponents: int


def schedule_report(schedule: Iterable[Iterable[Table]]) -> ScheduleReport:
    """Count repeated partnerships and repeated pairs of opponents in a schedule of games."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for game in schedule:
        for table in game:
            one, two, three, four = table.seats
            for pair in ((one, three), (two, four)):
                if GHOST not in pair:
                    partners[frozenset(pair)] += 1
            for pair in ((one, two), (one, four), (three, two), (three, four)):
                if GHOST not in pair:
                    opponents[frozenset(pair)] += 1
    return ScheduleReport(
        repeated_partners=sum(count - 1 for count in partners.values()),
        repeated_opponents=sum(count - 1 for count in opponents.values()),
    )


def smallest_wec_field(rounds: int) -> int:
    """The fewest players (a multiple of 4) who can play `rounds` games without a repeat
    partner: each player needs `rounds` different partners."""
    return max(4, -(-(rounds + 1) // 4) * 4)


def wec_singles_schedule(players: Iterable, rounds: int, rng: random.Random, *,
                         steps: int = SEARCH_STEPS, stays: Mapping[Any, int] | None = None,
                         names: Mapping | None = None) -> list[list[Table]]:
    """Every player's table and seat for all `rounds` games of WEC singles, fixed at check-in.

    Nobody partners the same player twice: the partnerships of each game are one perfect
    matching of the circle method's 1-factorisation of the field (n - 1 of them, pairwise
    disjoint), chosen at random after a random relabelling of the players. A field too small
    for that (fewer than rounds + 1 players) is refused rather than scheduled with repeats.

    Partnerships are then paired into tables so that repeated opponents are as few as the
    search finds: a greedy first draw, then simulated annealing over moves within a game
    (two tables swap partnerships or single players, or a table re-pairs its four), never
    making a repeated partnership. From 28 players up it finds a schedule with no repeated
    opponents in a few milliseconds; below that some are unavoidable (with 8 games every
    player faces 16 opponents, more than the 15 others of a 16-player field), and it stops at
    the count no schedule can beat (n * max(0, 2 * rounds - (n - 1)) / 2), or after `steps`
    moves, returning the best schedule it saw. Fewer steps are faster, perhaps with more
    repeated opponents; 0 keeps the greedy draw.

    Tables are numbered 1 to n/4 in each game; seats 1 and 3 hold one partnership, 2 and 4
    the other. The same players in the same order and the same seed give the same schedule.

    `stays` (RULES.md §4, "Accommodation") maps players who never change table to their
    table (0: wherever game 1 puts them, a table nobody else stays at when there is one).
    Their table is then the same in all games: the partnerships are drawn from matchings in
    which no two of them bound for different tables partner, the search keeps such players
    apart (and those bound for one table together), and each game's tables are numbered so
    that theirs has its number. No repeated partner still holds; repeated opponents may rise
    (schedule_report counts them).
    """
    field = list(players)
    check_multiple_of_four(len(field))
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(f"A schedule needs at least one game, not {rounds!r}.")
    seen = set()
    for player in field:
        if player is GHOST or player in seen:
            raise SeatingError(f"Player {player!r} is checked in twice or has no id.")
        seen.add(player)
    n = len(field)
    if n - 1 < rounds:
        smallest = smallest_wec_field(rounds)
        raise SeatingError(f"{n} players can play only {n - 1} games without someone partnering "
                           f"the same player twice, and this schedule has {rounds}: add "
                           f"{smallest - n} players ({smallest} is the smallest field for "
                           f"{rounds} games) or play {n - 1} games.",
                           players=n, add=smallest - n)

    rng.shuffle(field)  # the random relabelling: index i plays as field[i]
    tables = n // 4
    targets = {}
    if stays:
        targets = free_targets({p: t for p, t in stays.items() if p in seen}, tables, rng)
        check_tables(targets, tables, names)
        check_room(targets, 4, names)
    index_of = {player: index for index, player in enumerate(field)}
    bound = {index_of[player]: table for player, table in targets.items()}
    usable = range(n - 1)
    if bound:
        usable = [r for r in usable if not any(
            one in bound and two in bound and bound[one] != bound[two]
            for one, two in _circle_matching(n, r))]
        if len(usable) < rounds:
            listed = ", ".join(sorted(who(p, names) for p in targets))
            raise StayError(f"{len(targets)} players stay at their tables ({listed}): too "
                               f"many to keep apart for {rounds} games without a repeated "
                               "partner. Let some of them move.")
    search = _ScheduleSearch(n, [_circle_matching(n, r) for r in rng.sample(usable, rounds)],
                             rng, bound)
    search.improve(steps)
    if search.broken():
        listed = ", ".join(sorted(who(p, names) for p in targets))
        raise StayError(f"No schedule was found that keeps {listed} at their tables in "
                           "every game: give them tables of their own (or let some move).")
    schedule = []
    for game in search.games:
        numbers = {}
        for index, seats in enumerate(game):
            for player in seats:
                if player in bound:
                    numbers[index] = bound[player]
        spare = iter(sorted(set(range(1, tables + 1)) - set(numbers.values())))
        for index in range(len(game)):
            if index not in numbers:
                numbers[index] = next(spare)
        schedule.append(sorted((Table(numbers[index], tuple(field[p] for p in seats))
                                for index, seats in enumerate(game)),
                               key=lambda table: table.number))
    return schedule


def _circle_matching(n: int, r: int) -> list[tuple[int, int]]:
    """Matching `r` of the circle method: player n-1 at the centre, the rest on a circle."""
    ring = n - 1
    pairs = [(r, ring)]
    pairs.extend(((r + i) % ring, (r - i) % ring) for i in range(1, n // 2))
    return pairs


# Seat indices (0-3) of the four pairs of opponents and the two partnerships at a table.
_OPPONENT_SEATS = ((0, 1), (0, 3), (2, 1), (2, 3))
_PARTNER_SEATS = ((0, 2), (1, 3))


class _ScheduleSearch:
    """Tables for each game built from fixed partnerships, improved by local search.

    Players are indices 0..n-1; a pair (i, j) is the key min*n + max. `opponents` and
    `partners` count the meetings of each pair; `repeated` lists the pairs who face each other
    more than once (with `slot` giving each one's position, for constant-time removal).
    """

    def __init__(self, n: int, matchings: list[list[tuple[int, int]]], rng: random.Random,
                 bound: dict[int, int] | None = None):
        self.n = n
        self.rng = rng
        self.bound = bound or {}  # players who stay -> their table
        self.opponents = [0] * (n * n)
        self.partners = [0] * (n * n)
        self.repeated: list[int] = []
        self.slot: dict[int, int] = {}
        self.games: list[list[list[int]]] = []
        self.table_of: list[list[int]] = []  # per game: player -> index of their table
        # The fewest repeats possible: each player faces 2 opponents a game, among n - 1 others.
        excess = max(0, 2 * len(matchings) - (n - 1))
        self.floor = n * excess // 2
        for matching in matchings:
            self._draw(matching)

    def key(self, one: int, two: int) -> int:
        return one * self.n + two if one < two else two * self.n + one

    def _draw(self, matching: list[tuple[int, int]]) -> None:
        """Pair the game's partnerships into tables greedily, avoiding repeated opponents."""
        rng, opponents, key = self.rng, self.opponents, self.key
        pending = [pair if rng.random() < 0.5 else pair[::-1] for pair in matching]
        rng.shuffle(pending)
        tables = []
        while pending:
            first = pending.pop()
            pick = 0
            for index, second in enumerate(pending):
                if not any(opponents[key(x, y)] for x in first for y in second):
                    pick = index
                    break
            second = pending.pop(pick)
            tables.append([first[0], second[0], first[1], second[1]])
        self.games.append(tables)
        table_of = [0] * self.n
        for index, seats in enumerate(tables):
            for player in seats:
                table_of[player] = index
            self._count(seats, +1)
        self.table_of.append(table_of)

    def _count(self, seats: list[int], step: int) -> None:
        key = self.key
        for x, y in _PARTNER_SEATS:
            self.partners[key(seats[x], seats[y])] += step
        for x, y in _OPPONENT_SEATS:
            pair = key(seats[x], seats[y])
            self.opponents[pair] += step
            count = self.opponents[pair]
            if step > 0 and count == 2:
                self.slot[pair] = len(self.repeated)
                self.repeated.append(pair)
            elif step < 0 and count == 1:
                index = self.slot.pop(pair)
                last = self.repeated.pop()
                if last != pair:
                    self.repeated[index] = last
                    self.slot[last] = index

    @property
    def cost(self) -> int:
        return sum(count - 1 for count in self.opponents if count > 1)

    def _delta(self, old: list[list[int]], new: list[list[int]]) -> int:
        """The change in repeated opponents if the tables `old` became `new`."""
        n, change = self.n, {}
        for tables, step in ((old, -1), (new, +1)):
            for seats in tables:
                for x, y in _OPPONENT_SEATS:
                    one, two = seats[x], seats[y]
                    pair = one * n + two if one < two else two * n + one
                    change[pair] = change.get(pair, 0) + step
        delta = 0
        for pair, step in change.items():
            if step:
                before = self.opponents[pair]
                after = before + step
                delta += (after - 1 if after > 1 else 0) - (before - 1 if before > 1 else 0)
        return delta

    def improve(self, steps: int) -> None:
        """Simulated annealing over moves between tables of one game: a move that adds repeated
        opponents is taken now and then, less often as the search cools, so that it can climb
        out of a dead end; the best tables seen are kept. Stops early at the floor."""
        if self.n // 4 < 2:
            return  # one table a game: nothing to move
        rng = self.rng
        excess, broken = self.cost, self.broken()
        best, best_games = excess + STAY_WEIGHT * broken, None
        for step in range(steps):
            if excess <= self.floor and not broken:
                break
            move = self._propose(broken)
            if move is None:
                continue
            game_index, before, after = move
            delta = self._delta(list(before.values()), list(after.values()))
            stay_delta = self._stay_delta(game_index, after) if self.bound else 0
            change = delta + STAY_WEIGHT * stay_delta
            if change > 0:
                temperature = START_TEMPERATURE * (1 - step / steps)
                if rng.random() >= math.exp(-change / temperature):
                    continue
            self._move(game_index, before, after)
            excess += delta
            broken += stay_delta
            if excess + STAY_WEIGHT * broken < best:
                best, best_games = excess + STAY_WEIGHT * broken, [
                    [list(seats) for seats in game] for game in self.games]
        if best_games is not None and best < excess + STAY_WEIGHT * broken:
            self._restore(best_games)

    # Players who stay: each pair of them must share a table exactly when bound to one table.

    def _apart(self, tables: Mapping[int, int]) -> int:
        """Pairs of players who stay, seated against their tables (together though bound to
        different tables, or apart though bound to one), given each one's table index."""
        bound, stayers = self.bound, list(self.bound)
        return sum(1 for i, one in enumerate(stayers) for two in stayers[i + 1:]
                   if (tables[one] == tables[two]) != (bound[one] == bound[two]))

    def broken(self) -> int:
        """Pairs of players who stay seated against their tables, over all games."""
        if not self.bound:
            return 0
        return sum(self._apart(table_of) for table_of in self.table_of)

    def _stay_delta(self, game_index: int, after: dict[int, list[int]]) -> int:
        table_of = self.table_of[game_index]
        now = {player: table_of[player] for player in self.bound}
        moved = dict(now)
        for index, seats in after.items():
            for player in seats:
                if player in moved:
                    moved[player] = index
        return self._apart(moved) - self._apart(now)

    def _propose(self, broken: int = 0) \
            -> tuple[int, dict[int, list[int]], dict[int, list[int]]] | None:
        """A random change to one or two tables of a game, as (game, old tables, new tables)
        keyed by table index; None when it would make a repeated partnership. While players
        who stay are away from their tables (`broken`), half the moves start from one."""
        rng, n, key, partners = self.rng, self.n, self.key, self.partners
        if broken and rng.random() < 0.5:
            games = [g for g, table_of in enumerate(self.table_of) if self._apart(table_of)]
            game_index = rng.choice(games)
            table_of = self.table_of[game_index]
            player = rng.choice([one for one in self.bound if any(
                (table_of[one] == table_of[two]) != (self.bound[one] == self.bound[two])
                for two in self.bound if two != one)])
        elif rng.random() < TARGETED and self.repeated:
            # Start from a pair of players who face each other again.
            one, two = divmod(self.repeated[rng.randrange(len(self.repeated))], n)
            meetings = [g for g, table_of in enumerate(self.table_of)
                        if table_of[one] == table_of[two]
                        and self._sides_differ(g, table_of[one], one, two)]
            game_index = rng.choice(meetings)
            player = one if rng.random() < 0.5 else two
        else:
            game_index, player = rng.randrange(len(self.games)), rng.randrange(n)
        game = self.games[game_index]
        here = self.table_of[game_index][player]
        there = rng.randrange(len(game) - 1)
        there += there >= here
        old_here, old_there = game[here], game[there]
        seat = old_here.index(player)
        new_here, new_there = list(old_here), list(old_there)
        kind = rng.random()
        if kind < 0.4:
            # Swap the player's partnership with one of the other table's.
            side, other_side = seat % 2, rng.randrange(2)
            for offset in (0, 2):
                new_here[side + offset] = old_there[other_side + offset]
                new_there[other_side + offset] = old_here[side + offset]
            return game_index, {here: old_here, there: old_there}, {here: new_here,
                                                                    there: new_there}
        if kind < 0.8:
            # Swap the player alone with someone at the other table: both take new partners.
            other_seat = rng.randrange(4)
            new_here[seat], new_there[other_seat] = old_there[other_seat], player
            if (partners[key(new_here[seat], new_here[(seat + 2) % 4])]
                    or partners[key(player, new_there[(other_seat + 2) % 4])]):
                return None
            return game_index, {here: old_here, there: old_there}, {here: new_here,
                                                                    there: new_there}
        # Re-pair the player's table: seat 3 changes places with seat 2 or seat 4.
        swap = 1 if rng.random() < 0.5 else 3
        new_here[2], new_here[swap] = old_here[swap], old_here[2]
        if partners[key(new_here[0], new_here[2])] or partners[key(new_here[1], new_here[3])]:
            return None
        return game_index, {here: old_here}, {here: new_here}

    def _move(self, game_index: int, before: dict[int, list[int]],
              after: dict[int, list[int]]) -> None:
        game, table_of = self.games[game_index], self.table_of[game_index]
        for seats in before.values():
            self._count(seats, -1)
        for index, seats in after.items():
            game[index] = seats
            self._count(seats, +1)
            for player in seats:
                table_of[player] = index

    def _restore(self, games: list[list[list[int]]]) -> None:
        """Go back to the best tables found, recounting every meeting."""
        self.opponents = [0] * (self.n * self.n)
        self.partners = [0] * (self.n * self.n)
        self.repeated, self.slot = [], {}
        self.games = games
        for game, table_of in zip(games, self.table_of, strict=True):
            for index, seats in enumerate(game):
                for player in seats:
                    table_of[player] = index
                self._count(seats, +1)

    def _sides_differ(self, game: int, table: int, one: int, two: int) -> bool:
        seats = self.games[game][table]
        return seats.index(one) % 2 != seats.index(two) % 2


# --- league ----------------------------------------------------------------------------------

def league_schedule(teams: Sequence, weeks: int | None = None) -> list[list[tuple[Any, Any]]]:
    """A round robin of weekly (home, away) matches by the circle method, in registration order.

    With an odd number of teams, one team sits out each week, shown last as (team, None).
    `weeks=None` gives one full round robin: n - 1 weeks, or n when the count is odd. Longer
    seasons repeat the cycle with home and away swapped each time round. Over a round robin
    every team is at home as often as away (one more or less when it plays an odd number).
    """
    field = list(teams)
    if len(field) < 2:
        raise SeatingError(f"A league schedule needs at least 2 teams; {len(field)} registered.")
    if len(set(field)) != len(field) or any(team is None for team in field):
        raise SeatingError("Each team must be registered once, with an id.")
    # With an odd count the bye takes the fixed place, so every team sits out once.
    circle = [None, *field] if len(field) % 2 else field
    size = len(circle)
    cycle_weeks = size - 1
    if weeks is None:
        weeks = cycle_weeks
    if isinstance(weeks, bool) or not isinstance(weeks, int) or weeks < 1:
        raise SeatingError(f"A season has at least one week, not {weeks!r}.")

    cycle = []
    for week in range(cycle_weeks):
        # The fixed place stays put while the others turn one place a week.
        ring = circle[1:]
        turned = ring[week:] + ring[:week]
        order = [circle[0], *turned]
        matches, bye = [], None
        for index in range(size // 2):
            home, away = order[index], order[size - 1 - index]
            if index == 0 and week % 2:
                home, away = away, home  # the fixed place alternates, balancing home and away
            if home is None or away is None:
                bye = (away if home is None else home, None)
            else:
                matches.append((home, away))
        if bye is not None:
            matches.append(bye)
        cycle.append(matches)

    schedule = []
    for week in range(weeks):
        matches = cycle[week % cycle_weeks]
        if (week // cycle_weeks) % 2:
            matches = [(away, home) if away is not None else (home, away)
                       for home, away in matches]
        schedule.append(list(matches))
    return schedule


# --- playoffs --------------------------------------------------------------------------------

def bracket_rounds(team_count: int) -> int:
    """Rounds of a single-elimination bracket for this many teams: ceil(log2 n)."""
    if isinstance(team_count, bool) or not isinstance(team_count, int) or team_count < 2:
        raise SeatingError(f"A playoff needs at least 2 teams, not {team_count!r}.")
    return (team_count - 1).bit_length()


def _bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two bracket: 1, 8, 4, 5, 2, 7, 3, 6 for 8,
    so that seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def playoff_bracket(seeds: Sequence) -> list[tuple[Any, Any]]:
    """The first round of a single-elimination playoff, in bracket order.

    `seeds[0]` is seed 1. Seeds meet 1 v N, 2 v N-1, ... placed so that the top two can meet
    only in the final; when N is not a power of two the top seeds get byes, shown as
    (team, None). Each match lists the higher seed first.
    """
    field = list(seeds)
    rounds = bracket_rounds(len(field))
    if len(set(field)) != len(field) or any(team is None for team in field):
        raise SeatingError("Each playoff team must be seeded once, with an id.")
    order = _bracket_order(2 ** rounds)
    matches = []
    for index in range(0, len(order), 2):
        high, low = order[index], order[index + 1]
        matches.append((field[high - 1], field[low - 1] if low <= len(field) else None))
    return matches


def next_bracket_round(previous_round: Sequence[tuple[Any, Any]],
                       winners: Mapping[tuple[Any, Any], Any]) -> list[tuple[Any, Any]]:
    """The next round of a bracket: the winners of adjacent matches meet, in bracket order.

    `winners` maps each played match (the tuple as given) to its winning team; a bye's team
    goes through without an entry.
    """
    if len(previous_round) < 2:
        raise SeatingError("That round was the final: the bracket is complete.")
    if len(previous_round) & (len(previous_round) - 1):
        raise SeatingError(f"A bracket round has a power-of-two number of matches, not "
                           f"{len(previous_round)}.")
    through = []
    for match in previous_round:
        home, away = match
        if away is None:
            through.append(home)
            continue
        winner = winners.get(match)
        if winner is None:
            raise SeatingError(f"The match {home!r} v {away!r} has no winner yet: record it "
                               "before drawing the next round.")
        if winner != home and winner != away:
            raise SeatingError(f"{winner!r} did not play in the match {home!r} v {away!r}.")
        through.append(winner)
    return [(through[index], through[index + 1]) for index in range(0, len(through), 2)]


def bracket_champion(rounds: Sequence[Sequence[tuple[Any, Any]]],
                     winners: Mapping[tuple[Any, Any], Any]) -> Any:
    """The winner of a bracket whose last drawn round is its final (one match, or one team
    alone), or None while it is still being played."""
    if not rounds or len(rounds[-1]) != 1:
        return None
    home, away = rounds[-1][0]
    return home if away is None else winners.get((home, away))


def bracket_seeds(first_round: Sequence[tuple[Any, Any]]) -> dict[Any, int]:
    """Each team's seed number, read back from a first round made by `playoff_bracket`."""
    order = _bracket_order(2 * len(first_round))
    seeds = {}
    for index, (high, low) in enumerate(first_round):
        seeds[high] = order[2 * index]
        if low is not None:
            seeds[low] = order[2 * index + 1]
    return seeds


def bracket_outline(drawn: Sequence[Sequence[tuple[Any, Any]]],
                    winners: Mapping[tuple[Any, Any], Any]) -> list[list[tuple[Any, Any]]]:
    """The rounds still to come after the `drawn` ones, down to the final: a team already
    through (a bye, a decided match of the last drawn round) is in its place, None where the
    match that sends a team there is not decided yet."""
    rounds: list[list[tuple[Any, Any]]] = []
    current = [tuple(match) for match in (drawn[-1] if drawn else [])]
    known = True  # only the last drawn round has byes and winners; later rounds are empty
    while len(current) > 1:
        through = [(home if away is None else winners.get((home, away))) if known else None
                   for home, away in current]
        current = [(through[index], through[index + 1]) for index in range(0, len(through), 2)]
        rounds.append(current)
        known = False
    return rounds


# --- divisions and league nights -------------------------------------------------------------

def division_schedule(divisions: Sequence[Sequence], weeks: int | None = None) \
        -> list[list[tuple[Any, Any]]]:
    """A league of several divisions (skill levels): a round robin within each, played on the
    same nights. Week by week, each division's matches in division order (its bye last).
    `weeks=None`: the longest division's round robin; a shorter division's cycle starts again
    (home and away swapped) in the weeks left, as one division's longer season would."""
    groups = [list(d) for d in divisions]
    if not groups:
        raise SeatingError("A league needs at least one division of teams.")
    seen = [team for group in groups for team in group]
    if len(set(seen)) != len(seen):
        raise SeatingError("A team can be in one division only.")
    for group in groups:
        if len(group) < 2:
            raise SeatingError(f"Each division needs at least 2 teams; one has {len(group)}.")
    longest = max(len(g) - 1 + len(g) % 2 for g in groups)
    weeks = longest if weeks is None else weeks
    schedules = [league_schedule(group, weeks) for group in groups]
    return [[pair for schedule in schedules for pair in schedule[week]] for week in range(weeks)]


def league_nights(first: date, weeks: int, moves: Sequence[tuple[int, int]] = ()) -> list[date]:
    """The date of every week: the first night, then a week apart. `moves` are postponements
    in the order they were made, (week, days): that week and every later one move `days`
    later (a night cancelled for weather: the rest of the schedule follows a week on)."""
    nights = [first + timedelta(days=7 * n) for n in range(weeks)]
    for week, days in moves:
        if not 1 <= week <= weeks:
            raise SeatingError(f"There is no week {week} in a season of {weeks} weeks.")
        nights[week - 1:] = [night + timedelta(days=days) for night in nights[week - 1:]]
    return nights
