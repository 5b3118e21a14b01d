"""Running rounds: seat the next one by the format's movement, the clock, time calling,
closing and reopening.

The planner for each movement is picked from one table, PLANNERS; every planner takes the
event, its preset and the rounds played, and returns the Plan of the next round.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.common import audit, game_label, get_round, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.hooks import NEWS, Hook
from ..core.keys import Principal
from ..core.models import Event, Round, utcnow
from ..games.entry_views import waiting_counts
from ..games.game_state import compute_state, save_game
from ..rules import games as rgames
from ..rules.errors import SeatingError
from ..rules.presets import SIGN_OFF, Preset
from . import championship, movement
from .balanced import balance_plan as balanced_plan
from .balanced import check_format as check_balanced_format
from .planning import Plan, played_rounds, round_label, store_plan
from .round_view import plan_view


def plan_next_round(event: Event, balanced: bool = False, fresh: bool = False) -> Plan:
    """The round the format says comes next, computed but not stored; `balanced`: its
    partners balanced by rating (the first round of a format that draws partners), from the
    ratings brought up to date first when `fresh` (only outside a write: see balanced.py)."""
    preset = preset_of(event)
    if balanced:
        check_balanced_format(preset)
    rounds = played_rounds(event)
    if rounds and rounds[-1].status != "closed":
        last = rounds[-1]
        raise Conflict(f"{last.label} is still being played: close it before seating the "
                       "next round.", code="round-open")
    try:
        plan = PLANNERS[preset.movement](event, preset, rounds)
    except SeatingError as error:
        raise Conflict(error.message, code=error.code) from None
    return balanced_plan(event, preset, plan, fresh) if balanced else plan


def _regular_rounds(seating) -> Callable[[Event, Preset, list[Round]], Plan]:
    """A planner for formats that play a fixed number of regular rounds, seated by `seating`
    (the movement's tables for round `number`); after them, the championship where the format
    has one, else the event is complete."""

    def plan(event: Event, preset: Preset, rounds: list[Round]) -> Plan:
        regular = [r for r in rounds if r.stage == rgames.REGULAR]
        if len(regular) >= preset.rounds:
            if preset.championship_teams:
                return championship.plan_after_rounds(event, preset, len(rounds) + 1)
            raise Conflict(f"All {preset.rounds} rounds have been played; the event is "
                           "complete.", code="event-complete")
        number = len(rounds) + 1
        seated = seating(event, preset, number, rounds[-1] if rounds else None)
        tables = seated.tables
        plan = Plan(number, rgames.REGULAR, round_label(preset, number, rgames.REGULAR),
                    tables, minutes=preset.round_minutes, notes=list(seated.notes),
                    schedule=seated.schedule, stay_changes=seated.changes,
                    stays=seated.stays)
        ghosts = sum(t.seats.count(None) for t in tables)
        if ghosts:
            plan.notes.append(f"{ghosts} ghost seat{'s' if ghosts > 1 else ''} at table"
                              f"{'s' if ghosts > 1 else ''} "
                              f"{', '.join(str(t.table) for t in tables if None in t.seats)}.")
        return plan

    return plan


# The planner of each movement (a preset's `movement`): the one place that chooses.
PLANNERS: dict[str, Callable[[Event, Preset, list[Round]], Plan]] = {
    "progressive": _regular_rounds(movement.progressive_seating),
    "wec-singles": _regular_rounds(movement.wec_singles_seating),
    "teams-rotation": _regular_rounds(movement.team_rotation_seating),
    "wec-doubles": _regular_rounds(movement.wec_doubles_seating),
    # "league-schedule": the league's planner, added by league.connect()
}

# A round seated ahead of time (a league's week) starts: the league forfeits the matches of
# teams withdrawn since (league/forfeits.py).
SCHEDULED_ROUND_STARTS = Hook("a round seated ahead of time starts")


def seat_next_round(event_id: int, principal: Principal, number: int | None,
                    balanced: bool = False) -> Round:
    """Store the planned round. `number` guards against seating twice: asking for a round
    that already exists is a 409, so a double tap or a retried request seats one round."""
    event = lock_event(event_id)
    existing = {r.number: r for r in played_rounds(event)}
    if number is not None and number in existing:
        raise Conflict(f"{existing[number].label} is already seated.",
                       code="round-exists", round_id=existing[number].id)
    plan = plan_next_round(event, balanced)
    if number is not None and number != plan.number:
        raise Conflict(f"The next round is round {plan.number}, not {number}.",
                       code="wrong-round")
    preset = preset_of(event)
    if plan.existing_round is not None:
        round_ = plan.existing_round
        round_.status = "playing"
        round_.clock_started_at = utcnow() if round_.minutes else None
        SCHEDULED_ROUND_STARTS(event, round_)
    else:
        round_ = store_plan(event, preset, plan)
    if plan.schedule is not None:
        event.schedule = plan.schedule  # a league season, or the WEC singles games
    audit(event.id, principal, "seat-round", "round", round_.number,
          after={"tables": len(plan.tables), "stage": plan.stage,
                 **({"balance": plan.balance} if plan.balance else {})},
          round_number=round_.number)
    db.session.commit()
    return round_


def call_time(round_id: int, principal: Principal) -> Round:
    """The round's time is up: unfinished games end with the hands played."""
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    preset = preset_of(event)
    if round_.status != "playing":
        raise Conflict(f"{round_.label} is not being played.", code="round-not-playing")
    if round_.time_called_at is not None:
        return round_
    if preset.movement == "league-schedule":
        fmt = rgames.game_format(preset, round_.stage)
        length = (f"played to {fmt.target_points} points" if fmt.target_points is not None
                  else f"played out, all {fmt.hands_per_game} hands")
        raise Conflict(f"League games have no time limit; every game is {length}.",
                       code="no-time-limit")
    round_.time_called_at = utcnow()
    db.session.flush()
    ended = 0
    for match in round_.matches:
        for game in match.games:
            if game.end is None:
                state = compute_state(game, preset=preset)
                save_game(game, preset, state)
                ended += game.end is not None
    audit(event.id, principal, "call-time", "round", round_.number, round_number=round_.number)
    if ended:  # the games time ended count as they stand
        NEWS(event.id, [("standings.changed", {"event_id": event.id, "round_id": round_.id,
                                               "round": round_.number, "why": "time called"})])
    db.session.commit()
    return round_


def start_clock(round_id: int, principal: Principal, minutes: int | None) -> Round:
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    if round_.status != "playing":
        raise Conflict(f"{round_.label} is not being played.", code="round-not-playing")
    round_.minutes = minutes or round_.minutes or preset_of(event).round_minutes
    if not round_.minutes:
        raise Invalid("Say how many minutes the round lasts.", code="minutes-needed")
    round_.clock_started_at = utcnow()
    audit(event.id, principal, "start-clock", "round", round_.number,
          after={"minutes": round_.minutes}, round_number=round_.number)
    db.session.commit()
    return round_


def unfinished(round_: Round, preset: Preset) -> list[str]:
    """Why the round cannot close yet, table by table, in words for the organizer."""
    reasons = []
    waiting = {} if preset.verification == SIGN_OFF else waiting_counts(
        [game.id for match in round_.matches for game in match.games])
    for match in round_.matches:
        for game in match.games:
            label = game_label(game)
            if waiting.get(game.id):
                count = waiting[game.id]
                reasons.append(f"{label} has {count} "
                               f"{'entry' if count == 1 else 'entries'} waiting to be "
                               "confirmed or settled.")
            elif game.end is None:
                played = game.hands_played
                reasons.append(f"{label} is still being played ({played} "
                               f"hand{'' if played == 1 else 's'} so far).")
            elif game.winner is None and game.stage != rgames.CHAMPIONSHIP:
                reasons.append(f"{label} is level: record the playoff hand or card draw.")
            elif preset.sign_off_needed and game.signed_off_at is None:
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
        raise Conflict(f"{round_.label} has not started.", code="round-not-started")
    reasons = unfinished(round_, preset)
    if reasons:
        raise Conflict(f"{round_.label} cannot close yet: {reasons[0]}"
                       + (f" And {len(reasons) - 1} more: see the list." if len(reasons) > 1
                          else ""),
                       code="round-unfinished", errors={"tables": reasons})
    round_.status = "closed"
    round_.closed_at = utcnow()
    audit(event.id, principal, "close-round", "round", round_.number, round_number=round_.number)
    data = {"event_id": event.id, "round_id": round_.id, "round": round_.number}
    NEWS(event.id, [("round.closed", data),
                    ("standings.changed", {**data, "why": "round closed"})])
    db.session.commit()
    return round_


def reopen_round(round_id: int, principal: Principal) -> Round:
    round_ = get_round(round_id)
    event = lock_event(round_.event_id)
    later = [r for r in played_rounds(event) if r.number > round_.number]
    if later:
        raise Conflict(f"{later[0].label} is already seated; a round can be reopened only "
                       "while it is the latest.", code="later-round")
    if round_.status == "closed":
        round_.status = "playing"
        round_.closed_at = None
        audit(event.id, principal, "reopen-round", "round", round_.number,
              round_number=round_.number)
    db.session.commit()
    return round_


def preview(event: Event, balanced: bool = False) -> dict:
    """The next round as the format would seat it now, or, when none can be seated yet, why
    not (`ready` false, with the reason a seating attempt would be refused with)."""
    try:
        return plan_view(plan_next_round(event, balanced, fresh=True), event)
    except Conflict as refused:
        return {"ready": False, "code": refused.code, "reason": refused.detail,
                "number": None, "stage": None, "label": None, "minutes": None, "notes": [],
                "accommodations": [], "tables": [], "balance": None}
