"""Who sits where in the next regular round, by the format's movement: progressive (winners
stay, losers move), the WEC singles schedule, and the team rotations (teams, WEC doubles)."""

from __future__ import annotations

from collections.abc import Callable

from ..models import Event, Round
from ..rules import field as rfield
from ..rules import schedules, seating
from ..rules.presets import Preset
from .entrants import field_players, field_teams
from .planning import (
    PlannedTable,
    check_rosters,
    field_changes,
    individual_tables,
    partner_history,
    played_rounds,
    round_rng,
    seated_ids,
    tables_of,
    team_changes,
    team_map,
    team_tables,
    winners_of,
)


def progressive_seating(event: Event, preset: Preset, number: int,
                        previous: Round | None) -> list[PlannedTable]:
    """Round 1 at random; then the winners stay and the losers move on a table."""
    players = [p.id for p in field_players(event)]
    if previous is None:
        tables = seating.seat_individuals(players, round_rng(event, number))
        return individual_tables([list(t.seats) for t in tables])
    moved = seating.progressive_next(tables_of(previous), winners_of(previous),
                                     partner_history(event))
    withdrawn, arrivals = field_changes(event, seated_ids(previous))
    return individual_tables(rfield.fill_seats([list(t.seats) for t in moved], withdrawn,
                                               arrivals))


def wec_singles_seating(event: Event, preset: Preset, number: int,
                        previous: Round | None) -> list[PlannedTable]:
    """Game `number` of the schedule fixed at the start (nobody partners anyone twice)."""
    players = [p.id for p in field_players(event)]
    if previous is None or not (event.schedule or {}).get("games"):
        schedule = schedules.wec_singles_schedule(players, preset.rounds, round_rng(event, 0))
        games = [[list(t.seats) for t in game] for game in schedule]
    else:
        games = event.schedule["games"]
    tables = [list(seats) for seats in games[number - 1]]
    if previous is not None:
        # The schedule is fixed: whoever left leaves a ghost in each later game, and a late
        # arrival takes a ghost seat in each game from now on.
        scheduled = {pid for seats in games[0] for pid in seats if pid is not None}
        withdrawn, arrivals = field_changes(event, scheduled)
        tables = rfield.fill_seats(tables, withdrawn, arrivals)
    return individual_tables(tables)


def team_rotation_seating(event: Event, preset: Preset, number: int,
                          previous: Round | None) -> list[PlannedTable]:
    """The teams format: after each round the losing team at each table moves on one."""
    return _team_seating(event, number, previous, lambda: seating.teams_next(
        _pairings(previous), winners_of(previous)))


def wec_doubles_seating(event: Event, preset: Preset, number: int,
                        previous: Round | None) -> list[PlannedTable]:
    """WEC doubles: game 1's winners keep their table; its losers move on after every game."""
    def moved():
        first = played_rounds(event)[0]
        return seating.wec_doubles_round(_pairings(first), winners_of(first), number)

    return _team_seating(event, number, previous, moved)


def _pairings(round_: Round) -> list[seating.Pairing]:
    return [seating.Pairing(m.table, m.team_a_id, m.team_b_id) for m in round_.matches]


def _team_seating(event: Event, number: int, previous: Round | None,
                  moved: Callable[[], list[seating.Pairing]]) -> list[PlannedTable]:
    """Team formats: round 1 at random, later rounds as `moved()` says, with the teams that
    withdrew or arrived since taken out or put in."""
    teams = field_teams(event)
    check_rosters(teams)
    if previous is None:
        pairs = [(p.a, p.b) for p in seating.seat_teams([t.id for t in teams],
                                                        round_rng(event, number))]
    else:
        withdrawn, arrivals = team_changes(event, previous)
        pairs = rfield.fill_pairings([(p.a, p.b) for p in moved()], withdrawn, arrivals)
    return team_tables(pairs, team_map(event))
