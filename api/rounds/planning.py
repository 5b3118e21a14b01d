"""Planning a round's tables, shared by every movement: the plan before it is stored, the
history the movements read (who sat where, who won, who partnered whom), roster checks, and
storing a plan as a round with its matches, seats and games."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..core.db import db
from ..core.errors import Conflict
from ..core.models import Event, Game, Match, Round, Seat, Team, utcnow
from ..night.entrants import field_players, field_teams
from ..rules import games as rgames
from ..rules import seating
from ..rules.presets import Preset
from ..rules.seating import StayChange
from ..rules.seats import SEATS_OF


@dataclass
class PlannedTable:
    table: int
    seats: list  # four player ids (None = ghost)
    team_a: int | None = None
    team_b: int | None = None


@dataclass
class Seating:
    """A movement's tables for the next round, with what accommodations changed in them
    (`changes`), who stays (`stays`), notes for the organizer, and the fixed schedule when
    the movement makes one now."""

    tables: list[PlannedTable]
    changes: list[StayChange] = field(default_factory=list)
    stays: set = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    schedule: dict | None = None


@dataclass
class Plan:
    """What the next round would be: its number, stage and seating, before it is stored."""

    number: int
    stage: str
    label: str
    tables: list[PlannedTable]
    games_per_match: int = 1
    best_of: bool = False
    minutes: int | None = None
    notes: list[str] = field(default_factory=list)
    status: str = "playing"
    existing_round: Round | None = None  # a scheduled league week to open
    schedule: dict | None = None  # the event's schedule as it will be once this is seated
    stay_changes: list[StayChange] = field(default_factory=list)  # what accommodations did
    stays: set = field(default_factory=set)  # entrants who stay at their table
    balance: dict | None = None  # a balanced first round: the spread, and the draw's


def round_rng(event: Event, number: int) -> random.Random:
    # The same seed for preview and confirm, so the organizer seats what they saw.
    return random.Random(event.seed * 1009 + number)


def played_rounds(event: Event) -> list[Round]:
    return [r for r in event.rounds if r.status != "scheduled"]


def tables_of(round_: Round) -> list[seating.Table]:
    return [seating.Table(m.table, tuple(seat_map(m).get(n) for n in (1, 2, 3, 4)))
            for m in round_.matches]


def seat_map(match: Match) -> dict[int, int | None]:
    return {s.seat: s.player_id for s in match.seats}


def winners_of(round_: Round) -> dict[int, str]:
    return {m.table: m.winner for m in round_.matches}


def partner_history(event: Event) -> set[frozenset]:
    pairs = set()
    for round_ in played_rounds(event):
        for match in round_.matches:
            seats = seat_map(match)
            for a, b in SEATS_OF.values():
                if seats.get(a) is not None and seats.get(b) is not None:
                    pairs.add(frozenset((seats[a], seats[b])))
    return pairs


def first_tables(event: Event, *, teams: bool) -> dict[int, int]:
    """Each entrant's table in the first round they were seated in (players, or teams)."""
    tables: dict[int, int] = {}
    for round_ in played_rounds(event):
        for match in round_.matches:
            ids = ([match.team_a_id, match.team_b_id] if teams
                   else [s.player_id for s in match.seats])
            for entrant in ids:
                if entrant is not None:
                    tables.setdefault(entrant, match.table)
    return tables


def player_stays(event: Event, players: list) -> dict[int, int]:
    """The players who stay at one table (RULES.md §4), each with their table: the number
    the organizer set, or for "where first seated" (0) that table, or 0 while they have not
    been seated yet."""
    first = first_tables(event, teams=False)
    return {p.id: (p.stays_at or first.get(p.id, 0)) for p in players
            if p.stays_at is not None}


def team_stays(event: Event, teams: list[Team]) -> dict[int, int]:
    """The teams that stay at one table: the team's own setting, else one of its players'
    (a player who cannot move keeps the team at the table)."""
    first = first_tables(event, teams=True)
    stays = {}
    for team in teams:
        setting = team.stays_at
        if setting is None:
            setting = next((m.stays_at for m in team.members
                            if m.role == "player" and m.stays_at is not None), None)
        if setting is not None:
            stays[team.id] = setting or first.get(team.id, 0)
    return stays


def staying_put(stays: dict[int, int], tables: dict[int, int]) -> set:
    """Of those who stay, the ones already at their table (`tables`: entrant -> table): the
    movement keeps them there; anyone else moves as usual and is brought to theirs after."""
    return {e for e, table in stays.items() if table == 0 or tables.get(e) == table}


def seated_ids(round_: Round) -> set:
    return {s.player_id for m in round_.matches for s in m.seats if s.player_id is not None}


def individual_tables(tables: list[list]) -> list[PlannedTable]:
    return [PlannedTable(i, list(seats)) for i, seats in enumerate(tables, start=1)]


def team_map(event: Event) -> dict[int, Team]:
    return {t.id: t for t in event.teams}


def team_tables(pairs, teams: dict[int, Team]) -> list[PlannedTable]:
    planned = []
    for number, (a, b) in enumerate(pairs, start=1):
        roster_a = [m.id for m in teams[a].members if m.role == "player"]
        roster_b = [m.id for m in teams[b].members if m.role == "player"]
        planned.append(PlannedTable(number, [roster_a[0], roster_b[0], roster_a[1],
                                             roster_b[1]], a, b))
    return planned


def check_rosters(teams: list[Team]) -> None:
    for team in teams:
        if len([m for m in team.members if m.role == "player"]) != 2:
            raise Conflict(f"Team '{team.name}' needs two players before it can be seated.",
                           code="incomplete-team")


def field_changes(event: Event, seated: set) -> tuple[set, list]:
    """Who left the field since they were seated, and who arrived and was not seated."""
    here = field_players(event)
    ids = {p.id for p in here}
    return seated - ids, [p.id for p in here if p.id not in seated]


def team_changes(event: Event, previous: Round) -> tuple[set, list]:
    here = [t.id for t in field_teams(event)]
    last = {m.team_a_id for m in previous.matches} | {m.team_b_id for m in previous.matches}
    return last - set(here), [t for t in here if t not in last]


def round_label(preset: Preset, number: int, stage: str) -> str:
    if stage == rgames.CHAMPIONSHIP:
        return "Championship"
    if stage == rgames.CUT_PLAYOFF:
        return "Playoff for the championship"
    word = {"league-schedule": "Week", "wec-singles": "Game", "wec-doubles": "Game"}.get(
        preset.movement, "Round")
    return f"{word} {number}"


def store_plan(event: Event, preset: Preset, plan: Plan) -> Round:
    fmt = rgames.game_format(preset, plan.stage)
    round_ = Round(event_id=event.id, number=plan.number, stage=plan.stage, label=plan.label,
                   status=plan.status, minutes=plan.minutes,
                   clock_started_at=utcnow() if plan.minutes and plan.status == "playing"
                   else None)
    db.session.add(round_)
    db.session.flush()
    for table in plan.tables:
        match = Match(event_id=event.id, round_id=round_.id, table=table.table,
                      team_a_id=table.team_a, team_b_id=table.team_b,
                      games_planned=plan.games_per_match, best_of=plan.best_of,
                      status="playing")
        match.seats = [Seat(seat=n, player_id=pid) for n, pid in enumerate(table.seats, 1)]
        first_games = 1 if plan.best_of else plan.games_per_match
        match.games = [Game(event_id=event.id, number=n, stage=plan.stage,
                            target_points=fmt.target_points, hands_per_game=fmt.hands_per_game,
                            bumps={}) for n in range(1, first_games + 1)]
        round_.matches.append(match)
    db.session.flush()
    return round_
