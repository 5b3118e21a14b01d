"""A series: several events of a club scored together by a rule that is data (RULES.md §5).

Each event gives every person who played in it a place (or none, when removed) and a total.
The series rule turns those into series points: the event total itself, or points by place
from a table, where entrants sharing a place share the points of the places they cover. Then
optionally only the best N events count, and a person needs a minimum of events to be ranked.
Persons level on series points share the place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

TOTAL = "total"
PLACES = "places"
METHODS = (TOTAL, PLACES)


class SeriesRuleError(ValueError):
    """A scoring rule that cannot be used, in words for the organizer."""


@dataclass(frozen=True)
class Rule:
    method: str = TOTAL
    points: tuple[float, ...] = ()  # for PLACES: 1st, 2nd, ...; places past the end score 0
    best_of: int | None = None
    min_events: int | None = None


def check_rule(method: str, points: Sequence | None, best_of: int | None,
               min_events: int | None) -> Rule:
    """The rule, or SeriesRuleError saying what is wrong with it."""
    if method not in METHODS:
        raise SeriesRuleError(f"The scoring method is '{method}': use 'total' (each event's "
                              "total points) or 'places' (points by place from a table).")
    table = tuple(points or ())
    if method == PLACES:
        if not table:
            raise SeriesRuleError("Scoring by places needs a points table: the points for "
                                  "1st, 2nd, 3rd ... (e.g. 10, 8, 6, 5, 4).")
        if len(table) > 500:
            raise SeriesRuleError("A points table of at most 500 places is plenty.")
        for number, value in enumerate(table, start=1):
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0 \
                    or value > 100_000:
                raise SeriesRuleError(f"Place {number} is worth {value!r}: give a number of "
                                      "points from 0 to 100000.")
        if any(later > earlier for earlier, later in zip(table, table[1:], strict=False)):
            raise SeriesRuleError("The points table must not give a lower place more than a "
                                  "higher one (it should go down, or stay level).")
    elif table:
        raise SeriesRuleError("A points table is only used when scoring by places.")
    for name, value in (("best_of", best_of), ("min_events", min_events)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= 1000):
            raise SeriesRuleError(f"{name} is {value!r}: give a whole number from 1 to 1000, "
                                  "or leave it out.")
    return Rule(method, tuple(float(v) for v in table), best_of, min_events)


class Finish(NamedTuple):
    """One person's finish in one event: their place (None: removed/struck) and total.
    (A tuple: a year of a big club's nights is a hundred thousand of them.)"""

    person: Hashable
    place: int | None
    total: int


@dataclass(frozen=True)
class EventResult:
    event: Hashable
    finishes: tuple[Finish, ...]


@dataclass(slots=True)
class Counted:
    event: Hashable
    place: int | None
    total: int
    points: float
    counted: bool = False


@dataclass(slots=True)
class Standing:
    person: Hashable
    place: int | None
    events_played: int
    total: float
    ranked: bool
    # (event, place, event total, series points) per event played, and which of them count:
    # kept as tuples (a big club's year is a hundred thousand), `results` spells them out.
    raw: list = field(default_factory=list)
    counting: frozenset = frozenset()

    @property
    def results(self) -> list[Counted]:
        return [Counted(event, place, total, points, index in self.counting)
                for index, (event, place, total, points) in enumerate(self.raw)]


def _shares(rule: Rule, finishes: Sequence[Finish]) -> dict[int | None, float]:
    """Series points by place for one event (None: no place, nothing)."""
    if rule.method == TOTAL:
        return {}
    sharing: dict[int, int] = defaultdict(int)
    for f in finishes:
        if f.place is not None:
            sharing[f.place] += 1
    # The points of places 1..n added up, so a share of k places is one subtraction.
    upto = [0.0]
    for value in rule.points:
        upto.append(upto[-1] + value)
    last = len(rule.points)
    share = {place: round((upto[min(place - 1 + k, last)] - upto[min(place - 1, last)]) / k, 1)
             for place, k in sharing.items()}
    share[None] = 0.0
    return share


def place_points(rule: Rule, finishes: Sequence[Finish]) -> dict[Hashable, float]:
    """Series points of one event for each person who finished it."""
    if rule.method == TOTAL:
        return {f.person: float(f.total) for f in finishes}
    share = _shares(rule, finishes)
    return {f.person: share[f.place] for f in finishes}


def standings(rule: Rule, events: Sequence[EventResult]) -> list[Standing]:
    """The series table: ranked persons by counted points (level ones share a place), then
    those short of the minimum of events (unranked, place None), each with every event's
    result and whether it counted. Events are in the order given (oldest first)."""
    by_person: dict[Hashable, list] = defaultdict(list)
    by_total = rule.method == TOTAL
    for result in events:
        share = _shares(rule, result.finishes)
        event = result.event
        for person, place, total in result.finishes:
            by_person[person].append((event, place, total,
                                      float(total) if by_total else share[place]))
    table = []
    best_of = rule.best_of
    for person, raw in by_person.items():
        if best_of is None or len(raw) <= best_of:
            counting = frozenset(range(len(raw)))
        else:
            order = sorted(range(len(raw)), key=lambda i: (-raw[i][3], i))
            counting = frozenset(order[:best_of])
        total = round(sum(raw[i][3] for i in counting), 1)
        ranked = rule.min_events is None or len(raw) >= rule.min_events
        table.append(Standing(person, None, len(raw), total, ranked, raw, counting))
    table.sort(key=lambda s: (not s.ranked, -s.total, -s.events_played))
    place = 0
    for index, row in enumerate(table):
        if not row.ranked:
            break
        if index == 0 or row.total != table[index - 1].total:
            place = index + 1
        row.place = place
    return table
