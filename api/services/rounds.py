"""Running rounds: plan and seat the next one by the format's movement, the clock, time
calling, closing."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import select

from ..auth import Principal
from ..db import db
from ..models import Event, Game, Match, Player, Round, Seat, Team, utcnow
from ..problems import Problem
from ..rules import field as rfield
from ..rules import games as rgames
from ..rules import schedules, seating
from ..rules.errors import SeatingError
from ..rules.presets import Preset
from . import games as game_service
from .common import audit, get_round, lock_event, preset_of
from .entrants import field_players, field_teams


@dataclass
class PlannedTable:
    table: int
    seats: list  # four player ids (None = ghost)
    team_a: int | None = None
    team_b: int | None = None


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


def _rng(event: Event, number: int) -> random.Random:
    # The same seed for preview and confirm, so the organizer seats what they saw.
    return random.Random(event.seed * 1009 + number)


def played_rounds(event: Event) -> list[Round]:
    return [r for r in event.rounds if r.status != "scheduled"]


def _tables_of(round_: Round) -> list[seating.Table]:
    return [seating.Table(m.table, tuple(_seat_map(m).get(n) for n in (1, 2, 3, 4)))
            for m in round_.matches]


def _seat_map(match: Match) -> dict[int, int | None]:
    return {s.seat: s.player_id for s in match.seats}


def _winners(round_: Round) -> dict[int, str]:
    return {m.table: m.winner for m in round_.matches}


def _partner_history(event: Event) -> set[frozenset]:
    pairs = set()
    for round_ in played_rounds(event):
        for match in round_.matches:
            seats = _seat_map(match)
            for a, b in ((1, 3), (2, 4)):
                if seats.get(a) is not None and seats.get(b) is not None:
                    pairs.add(frozenset((seats[a], seats[b])))
    return pairs


def _seated_ids(round_: Round) -> set:
    return {s.player_id for m in round_.matches for s in m.seats if s.player_id is not None}


def _individual_tables(tables: list[list]) -> list[PlannedTable]:
    return [PlannedTable(i, list(seats)) for i, seats in enumerate(tables, start=1)]


def _team_tables(pairs, teams: dict[int, Team]) -> list[PlannedTable]:
    planned = []
    for number, (a, b) in enumerate(pairs, start=1):
        roster_a = [m.id for m in teams[a].members if m.role == "player"]
        roster_b = [m.id for m in teams[b].members if m.role == "player"]
        planned.append(PlannedTable(number, [roster_a[0], roster_b[0], roster_a[1],
                                             roster_b[1]], a, b))
    return planned


def _field_changes(event: Event, seated: set) -> tuple[set, list]:
    """Who left the field since they were seated, and who arrived and was not seated."""
    here = field_players(event)
    ids = {p.id for p in here}
    return seated - ids, [p.id for p in here if p.id not in seated]


def _team_changes(event: Event, previous: Round) -> tuple[set, list]:
    here = [t.id for t in field_teams(event)]
    last = {m.team_a_id for m in previous.matches} | {m.team_b_id for m in previous.matches}
    return last - set(here), [t for t in here if t not in last]


def _label(preset: Preset, number: int, stage: str) -> str:
    if stage == rgames.CHAMPIONSHIP:
        return "Championship"
    if stage == rgames.CUT_PLAYOFF:
        return "Playoff for the championship"
    word = {"league-schedule": "Week", "wec-singles": "Game", "wec-doubles": "Game"}.get(
        preset.movement, "Round")
    return f"{word} {number}"


def plan_next_round(event: Event) -> Plan:
    """The round the format says comes next, computed but not stored."""
    preset = preset_of(event)
    rounds = played_rounds(event)
    if rounds and rounds[-1].status != "closed":
        last = rounds[-1]
        raise Problem(409, f"{last.label} is still being played: close it before seating the "
                      "next round.", code="round-open")
    try:
        if preset.movement == "league-schedule":
            from .league import plan_league_round

            return plan_league_round(event, preset)
        regular = [r for r in rounds if r.stage == rgames.REGULAR]
        if len(regular) >= preset.rounds:
            if preset.championship_teams:
                from .championship import plan_after_rounds

                return plan_after_rounds(event, preset, len(rounds) + 1)
            raise Problem(409, f"All {preset.rounds} rounds have been played; the event is "
                          "complete.", code="event-complete")
        number = len(rounds) + 1
        planner = PLANNERS[preset.movement]
        tables = planner(event, preset, number, rounds[-1] if rounds else None)
    except SeatingError as error:
        raise Problem(409, error.message, code=error.code) from None
    plan = Plan(number, rgames.REGULAR, _label(preset, number, rgames.REGULAR), tables,
                minutes=preset.round_minutes)
    ghosts = sum(t.seats.count(None) for t in tables)
    if ghosts:
        plan.notes.append(f"{ghosts} ghost seat{'s' if ghosts > 1 else ''} at table"
                          f"{'s' if ghosts > 1 else ''} "
                          f"{', '.join(str(t.table) for t in tables if None in t.seats)}.")
    return plan


def _plan_progressive(event, preset, number, previous):
    players = [p.id for p in field_players(event)]
    if previous is None:
        tables = seating.seat_individuals(players, _rng(event, number))
        return _individual_tables([list(t.seats) for t in tables])
    moved = seating.progressive_next(_tables_of(previous), _winners(previous),
                                     _partner_history(event))
    withdrawn, arrivals = _field_changes(event, _seated_ids(previous))
    return _individual_tables(rfield.fill_seats([list(t.seats) for t in moved], withdrawn,
                                                arrivals))


def _plan_wec_singles(event, preset, number, previous):
    players = [p.id for p in field_players(event)]
    if previous is None or not (event.schedule or {}).get("games"):
        schedule = schedules.wec_singles_schedule(players, preset.rounds, _rng(event, 0))
        games = [[list(t.seats) for t in game] for game in schedule]
    else:
        games = event.schedule["games"]
    tables = [list(seats) for seats in games[number - 1]]
    if previous is not None:
        # The schedule is fixed: whoever left leaves a ghost in each later game, and a late
        # arrival takes a ghost seat in each game from now on.
        scheduled = {pid for seats in games[0] for pid in seats if pid is not None}
        withdrawn, arrivals = _field_changes(event, scheduled)
        tables = rfield.fill_seats(tables, withdrawn, arrivals)
    return _individual_tables(tables)


def _team_map(event: Event) -> dict[int, Team]:
    return {t.id: t for t in event.teams}


def _check_rosters(teams: list[Team]) -> None:
    for team in teams:
        if len([m for m in team.members if m.role == "player"]) != 2:
            raise Problem(409, f"Team '{team.name}' needs two players before it can be seated.",
                          code="incomplete-team")


def _plan_teams(event, preset, number, previous):
    teams = field_teams(event)
    _check_rosters(teams)
    if previous is None:
        pairs = [(p.a, p.b) for p in seating.seat_teams([t.id for t in teams],
                                                        _rng(event, number))]
    else:
        last = [seating.Pairing(m.table, m.team_a_id, m.team_b_id) for m in previous.matches]
        if preset.movement == "wec-doubles":
            first = played_rounds(event)[0]
            first_pairs = [seating.Pairing(m.table, m.team_a_id, m.team_b_id)
                           for m in first.matches]
            moved = seating.wec_doubles_round(first_pairs, _winners(first), number)
        else:
            moved = seating.teams_next(last, _winners(previous))
        withdrawn, arrivals = _team_changes(event, previous)
        pairs = rfield.fill_pairings([(p.a, p.b) for p in moved], withdrawn, arrivals)
    return _team_tables(pairs, _team_map(event))


PLANNERS = {
    "progressive": _plan_progressive,
    "wec-singles": _plan_wec_singles,
    "teams-rotation": _plan_teams,
    "wec-doubles": _plan_teams,
}


def seat_next_round(event_id: int, principal: Principal, number: int | None) -> Round:
    """Store the planned round. `number` guards against seating twice: asking for a round
    that already exists is a 409, so a double tap or a retried request seats one round."""
    event = lock_event(event_id)
    existing = {r.number: r for r in played_rounds(event)}
    if number is not None and number in existing:
        raise Problem(409, f"{existing[number].label} is already seated.",
                      code="round-exists", round_id=existing[number].id)
    plan = plan_next_round(event)
    if number is not None and number != plan.number:
        raise Problem(409, f"The next round is round {plan.number}, not {number}.",
                      code="wrong-round")
    preset = preset_of(event)
    if plan.existing_round is not None:
        round_ = plan.existing_round
        round_.status = "playing"
        round_.clock_started_at = utcnow() if round_.minutes else None
    else:
        round_ = store_plan(event, preset, plan)
    if plan.schedule is not None:
        event.schedule = plan.schedule
    if preset.movement == "wec-singles" and not (event.schedule or {}).get("games"):
        players = [p.id for p in field_players(event)]
        schedule = schedules.wec_singles_schedule(players, preset.rounds, _rng(event, 0))
        event.schedule = {"games": [[list(t.seats) for t in game] for game in schedule]}
    audit(event.id, principal, "seat-round", "round", round_.number,
          after={"tables": len(plan.tables), "stage": plan.stage},
          round_number=round_.number)
    db.session.commit()
    return round_


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


def call_time(round_id: int, principal: Principal) -> Round:
    """The round's time is up: unfinished games end with the hands played."""
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    preset = preset_of(event)
    if round_.status != "playing":
        raise Problem(409, f"{round_.label} is not being played.", code="round-not-playing")
    if round_.time_called_at is not None:
        return round_
    if preset.movement == "league-schedule":
        fmt = rgames.game_format(preset, round_.stage)
        length = (f"played to {fmt.target_points} points" if fmt.target_points is not None
                  else f"played out, all {fmt.hands_per_game} hands")
        raise Problem(409, f"League games have no time limit; every game is {length}.",
                      code="no-time-limit")
    round_.time_called_at = utcnow()
    db.session.flush()
    for match in round_.matches:
        for game in match.games:
            if game.end is None:
                state = game_service.compute_state(game, preset=preset)
                game_service.save_game(game, preset, state)
    audit(event.id, principal, "call-time", "round", round_.number, round_number=round_.number)
    db.session.commit()
    return round_


def start_clock(round_id: int, principal: Principal, minutes: int | None) -> Round:
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    if round_.status != "playing":
        raise Problem(409, f"{round_.label} is not being played.", code="round-not-playing")
    round_.minutes = minutes or round_.minutes or preset_of(event).round_minutes
    if not round_.minutes:
        raise Problem(422, "Say how many minutes the round lasts.", code="minutes-needed")
    round_.clock_started_at = utcnow()
    audit(event.id, principal, "start-clock", "round", round_.number,
          after={"minutes": round_.minutes}, round_number=round_.number)
    db.session.commit()
    return round_


def unfinished(round_: Round, preset: Preset) -> list[str]:
    """Why the round cannot close yet, table by table, in words for the organizer."""
    reasons = []
    for match in round_.matches:
        for game in match.games:
            label = game_service.game_label(game)
            if game.end is None:
                played = game.hands_played
                reasons.append(f"{label} is still being played ({played} "
                               f"hand{'' if played == 1 else 's'} so far).")
            elif game.winner is None and game.stage != rgames.CHAMPIONSHIP:
                reasons.append(f"{label} is level: record the playoff hand or card draw.")
            elif preset.sign_off_required and game.signed_off_at is None:
                reasons.append(f"{label} is not signed off by the opponents yet.")
        if match.status != "over" and not any(g.end is None for g in match.games) and \
                match.best_of:
            reasons.append(f"The match at table {match.table} needs another game.")
    return reasons


def close_round(round_id: int, principal: Principal) -> Round:
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    preset = preset_of(event)
    if round_.status == "closed":
        return round_
    if round_.status == "scheduled":
        raise Problem(409, f"{round_.label} has not started.", code="round-not-started")
    reasons = unfinished(round_, preset)
    if reasons:
        raise Problem(409, f"{round_.label} cannot close yet: {reasons[0]}"
                      + (f" And {len(reasons) - 1} more: see the list." if len(reasons) > 1
                         else ""),
                      code="round-unfinished", errors={"tables": reasons})
    round_.status = "closed"
    round_.closed_at = utcnow()
    audit(event.id, principal, "close-round", "round", round_.number, round_number=round_.number)
    db.session.commit()
    return round_


def reopen_round(round_id: int, principal: Principal) -> Round:
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    later = [r for r in played_rounds(event) if r.number > round_.number]
    if later:
        raise Problem(409, f"{later[0].label} is already seated; a round can be reopened only "
                      "while it is the latest.", code="later-round")
    if round_.status == "closed":
        round_.status = "playing"
        round_.closed_at = None
        audit(event.id, principal, "reopen-round", "round", round_.number,
              round_number=round_.number)
    db.session.commit()
    return round_


def clock_view(round_: Round) -> dict | None:
    if not round_.minutes or round_.clock_started_at is None:
        return None
    start = round_.clock_started_at
    if start.tzinfo is None:
        from datetime import UTC

        start = start.replace(tzinfo=UTC)
    ends = start + timedelta(minutes=round_.minutes)
    remaining = (ends - utcnow()).total_seconds()
    return {"minutes": round_.minutes, "started_at": start, "ends_at": ends,
            "seconds_left": max(int(remaining), 0)}


def _aware(moment):
    if moment is not None and moment.tzinfo is None:
        from datetime import UTC

        return moment.replace(tzinfo=UTC)
    return moment


def idle_seconds(game: Game, round_: Round, now) -> int | None:
    """Seconds since the game's last entry (or since its round started), measured on the
    server's clock so the organizer's progress board needs no clock of its own; None once the
    game is over or the round is not being played."""
    if game.end is not None or round_.status != "playing":
        return None
    since = _aware(game.last_entry_at or round_.clock_started_at or round_.created_at)
    return max(int((now - since).total_seconds()), 0) if since else None


def round_view(round_: Round, *, detail: bool = True) -> dict:
    """A round's tables, who sits where, each game's score and the progress board."""
    tables = []
    done = 0
    hands = 0
    now = utcnow()
    for match in round_.matches:
        seats = {s.seat: s for s in match.seats}
        games = [{"id": g.id, "number": g.number, "points": {"A": g.points_a, "B": g.points_b},
                  "hands_played": g.hands_played, "hands_per_game": g.hands_per_game,
                  "target_points": g.target_points, "over": g.end is not None,
                  "winner": g.winner, "level": g.level, "end": g.end,
                  "signed_off": g.signed_off_at is not None,
                  "last_entry_at": g.last_entry_at,
                  "idle_seconds": idle_seconds(g, round_, now), "version": g.version}
                 for g in match.games]
        hands += sum(g.hands_played for g in match.games)
        finished = match.status == "over"
        done += finished
        tables.append({
            "match_id": match.id, "table": match.table, "status": match.status,
            "winner": match.winner, "signed_off": match.signed_off_at is not None,
            "team_a": ({"id": match.team_a.id, "name": match.team_a.name}
                       if match.team_a else None),
            "team_b": ({"id": match.team_b.id, "name": match.team_b.name}
                       if match.team_b else None),
            "seats": [{"seat": n, "player_id": seats[n].player_id if n in seats else None,
                       "name": (seats[n].player.name if n in seats and seats[n].player
                                else "Ghost")} for n in (1, 2, 3, 4)],
            "games": games,
        })
    return {
        "id": round_.id, "event_id": round_.event_id, "number": round_.number,
        "stage": round_.stage, "label": round_.label, "status": round_.status,
        "time_called": round_.time_called_at is not None, "clock": clock_view(round_),
        "progress": {"tables": len(tables), "finished": done, "hands": hands},
        "tables": tables if detail else [],
    }


def preview(event: Event) -> dict:
    """The next round as the format would seat it now, or, when none can be seated yet, why
    not (`ready` false, with the reason a seating attempt would be refused with)."""
    try:
        return plan_view(plan_next_round(event), event)
    except Problem as refused:
        if refused.status != 409:
            raise
        return {"ready": False, "code": refused.code, "reason": refused.detail,
                "number": None, "stage": None, "label": None, "minutes": None, "notes": [],
                "tables": []}


def plan_view(plan: Plan, event: Event) -> dict:
    names = {p.id: p.name for p in event.players}
    teams = {t.id: t.name for t in event.teams}
    return {
        "ready": True, "code": None, "reason": None,
        "number": plan.number, "stage": plan.stage, "label": plan.label,
        "minutes": plan.minutes, "notes": plan.notes,
        "tables": [{"table": t.table,
                    "team_a": ({"id": t.team_a, "name": teams.get(t.team_a)}
                               if t.team_a else None),
                    "team_b": ({"id": t.team_b, "name": teams.get(t.team_b)}
                               if t.team_b else None),
                    "seats": [{"seat": n, "player_id": pid,
                               "name": names.get(pid, "Ghost") if pid else "Ghost"}
                              for n, pid in enumerate(t.seats, 1)]}
                   for t in plan.tables],
    }


def list_rounds(event_id: int) -> list[Round]:
    from .common import ROUND_LOADS

    return list(db.session.execute(
        select(Round).where(Round.event_id == event_id).order_by(Round.number)
        .options(*ROUND_LOADS)).scalars())


def player_names(event: Event) -> dict[int, str]:
    return {p.id: p.name for p in db.session.execute(
        select(Player).where(Player.event_id == event.id)).scalars()}
