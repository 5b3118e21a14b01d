"""Who sits where in the next regular round, by the format's movement: progressive (winners
stay, losers move), the WEC singles schedule, and the team rotations (teams, WEC doubles).
Every movement keeps the entrants who stay at one table there (RULES.md §4, accommodation)."""

from __future__ import annotations

from collections.abc import Callable

from ..core.models import Event, Round
from ..night.entrants import field_players, field_teams
from ..rules import accommodation, schedules, seating
from ..rules import field as rfield
from ..rules.presets import Preset
from .planning import (
    Seating,
    check_rosters,
    field_changes,
    individual_tables,
    partner_history,
    played_rounds,
    player_stays,
    round_rng,
    seated_ids,
    staying_put,
    tables_of,
    team_changes,
    team_map,
    team_stays,
    team_tables,
    winners_of,
)


def progressive_seating(event: Event, preset: Preset, number: int,
                        previous: Round | None) -> Seating:
    """Round 1 at random; then the winners stay and the losers move on a table."""
    here = field_players(event)
    stays = player_stays(event, here)
    names = {p.id: p.name for p in event.players}
    if previous is None:
        rng = round_rng(event, number)
        tables = seating.seat_individuals([p.id for p in here], rng)
        ghosts = {t.number for t in tables if t.has_ghost}
        targets = accommodation.free_targets(stays, len(tables), rng, ghosts)
        accommodation.check_tables(targets, len(tables), names)
        accommodation.check_room(targets, dict.fromkeys(ghosts, 1), names)
        seats, _ = accommodation.place_players([list(t.seats) for t in tables], targets,
                                               names=names)
        return Seating(individual_tables(seats), stays=set(targets))
    partners = partner_history(event)
    tables = tables_of(previous)
    at = {player: table.number for table in tables for player in table.players}
    moved = seating.progressive_move(tables, winners_of(previous), partners,
                                     stays=staying_put(stays, at))
    withdrawn, arrivals = field_changes(event, seated_ids(previous))
    filled = rfield.fill_seats([list(t.seats) for t in moved.tables], withdrawn, arrivals)
    seats, placed = accommodation.place_players(filled, stays, partners, names)
    return Seating(individual_tables(seats), moved.changes + placed, stays=set(stays))


def wec_singles_seating(event: Event, preset: Preset, number: int,
                        previous: Round | None) -> Seating:
    """Game `number` of the schedule fixed at the start (nobody partners anyone twice); a
    player who stays has the same table in every game."""
    here = field_players(event)
    players = [p.id for p in here]
    stays = player_stays(event, here)
    names = {p.id: p.name for p in event.players}
    notes, made = [], None
    if previous is None or not (event.schedule or {}).get("games"):
        schedule = schedules.wec_singles_schedule(players, preset.rounds, round_rng(event, 0),
                                                  stays=stays, names=names)
        if stays:
            notes.append(_repeats_note(schedule, players, preset, event))
        games = [[list(t.seats) for t in game] for game in schedule]
        made = {"games": games}
    else:
        games = event.schedule["games"]
    tables = [list(seats) for seats in games[number - 1]]
    changes = []
    if previous is not None:
        # The schedule is fixed: whoever left leaves a ghost in each later game, and a late
        # arrival takes a ghost seat in each game from now on.
        scheduled = {pid for seats in games[0] for pid in seats if pid is not None}
        withdrawn, arrivals = field_changes(event, scheduled)
        tables = rfield.fill_seats(tables, withdrawn, arrivals)
        tables, changes = accommodation.place_players(tables, stays, partner_history(event),
                                                      names)
    return Seating(individual_tables(tables), changes, stays=set(stays), notes=notes,
                   schedule=made)


def _repeats_note(schedule, players: list, preset: Preset, event: Event) -> str:
    """How many repeated opponents the schedule has, beside the schedule with nobody staying."""
    kept = schedules.schedule_report(schedule).repeated_opponents
    free = schedules.schedule_report(schedules.wec_singles_schedule(
        players, preset.rounds, round_rng(event, 0))).repeated_opponents
    extra = (f"{kept - free} more than without the accommodation" if kept > free
             else "no more than without the accommodation")
    return (f"Schedule with players who stay at one table: nobody partners anyone twice; "
            f"{kept} repeated meeting{'' if kept == 1 else 's'} of opponents over "
            f"{preset.rounds} games ({extra}).")


def team_rotation_seating(event: Event, preset: Preset, number: int,
                          previous: Round | None) -> Seating:
    """The teams format: after each round the losing team at each table moves on one."""
    def moved(stays):
        pairings = _pairings(previous)
        return seating.teams_move(pairings, winners_of(previous),
                                  staying_put(stays, _tables(pairings)))

    return _team_seating(event, number, previous, moved)


def wec_doubles_seating(event: Event, preset: Preset, number: int,
                        previous: Round | None) -> Seating:
    """WEC doubles: game 1's winners keep their table; its losers move on after every game."""
    def moved(stays):
        pairings = _pairings(played_rounds(event)[0])
        return seating.wec_doubles_move(pairings, winners_of(played_rounds(event)[0]), number,
                                        staying_put(stays, _tables(pairings)))

    return _team_seating(event, number, previous, moved)


def _pairings(round_: Round) -> list[seating.Pairing]:
    return [seating.Pairing(m.table, m.team_a_id, m.team_b_id) for m in round_.matches]


def _tables(pairings: list[seating.Pairing]) -> dict[int, int]:
    return {team: p.number for p in pairings for team in (p.a, p.b)}


def _team_seating(event: Event, number: int, previous: Round | None,
                  moved: Callable[[dict], seating.Moved]) -> Seating:
    """Team formats: round 1 at random, later rounds as `moved(stays)` says, with the teams
    that withdrew or arrived since taken out or put in, and teams that stay at their tables."""
    teams = field_teams(event)
    check_rosters(teams)
    stays = team_stays(event, teams)
    names = {t.id: t.name for t in event.teams}
    if previous is None:
        rng = round_rng(event, number)
        drawn = [(p.a, p.b) for p in seating.seat_teams([t.id for t in teams], rng)]
        targets = accommodation.free_targets(stays, len(drawn), rng)
        pairs, _ = accommodation.place_teams(drawn, targets, names)
        return Seating(team_tables(pairs, team_map(event)), stays=set(targets))
    result = moved(stays)
    withdrawn, arrivals = team_changes(event, previous)
    pairs = rfield.fill_pairings([(p.a, p.b) for p in result.tables], withdrawn, arrivals)
    pairs, placed = accommodation.place_teams(pairs, stays, names)
    return Seating(team_tables(pairs, team_map(event)), result.changes + placed,
                   stays=set(stays))
