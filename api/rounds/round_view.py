"""How a round reads: its tables, seats and games, the progress board, the clock, and a
planned round before it is seated."""

from __future__ import annotations

from datetime import UTC, timedelta

from sqlalchemy import select

from ..core.common import ROUND_LOADS
from ..core.db import db
from ..core.models import Event, Game, HandEntry, Round, utcnow
from ..rules.seats import SIDE_OF_SEAT
from .planning import Plan
from .round_waits import late_calls, round_waits


def clock_view(round_: Round) -> dict | None:
    if not round_.minutes or round_.clock_started_at is None:
        return None
    start = round_.clock_started_at
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    ends = start + timedelta(minutes=round_.minutes)
    remaining = (ends - utcnow()).total_seconds()
    return {"minutes": round_.minutes, "started_at": start, "ends_at": ends,
            "seconds_left": max(int(remaining), 0)}


def _aware(moment):
    if moment is not None and moment.tzinfo is None:
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


def play_begun(round_: Round, hands: int) -> bool:
    """Has play begun at the round's tables: a hand counted (`hands`, agreed ones), or a hand
    entered by one pair that waits for the other (confirm each hand, double entry; RULES.md
    §7), or was entered and since set aside? Until then the projector shows where everyone
    sits. One query, and only for a round in play with no hand counted yet."""
    if hands or round_.status == "scheduled":
        return bool(hands)
    game_ids = [g.id for m in round_.matches for g in m.games]
    return bool(game_ids) and db.session.execute(
        select(HandEntry.id).where(HandEntry.event_id == round_.event_id,
                                   HandEntry.game_id.in_(game_ids)).limit(1)).first() is not None


def match_status(match) -> str:
    """A match as the views say it: 'scheduled' while its round has not started (a league
    week to come, seated ahead: its games have no score yet, whatever the stored status
    says), else 'playing' or 'over'."""
    return "scheduled" if match.round.status == "scheduled" else match.status


def game_status(game: Game, round_: Round) -> str:
    """A game as the views say it: 'scheduled' before its round has started, 'over' once it
    has ended (played, forfeited, time called), else 'playing'."""
    if round_.status == "scheduled":
        return "scheduled"
    return "over" if game.end is not None else "playing"


def round_view(round_: Round, *, detail: bool = True) -> dict:
    """A round's tables, who sits where, each game's score and the progress board."""
    tables = []
    done = 0
    hands = 0
    now = utcnow()
    waits = round_waits(round_, now) if detail else {}
    for match in round_.matches:
        seats = {s.seat: s for s in match.seats}
        games = [{"id": g.id, "number": g.number, "points": {"A": g.points_a, "B": g.points_b},
                  "hands_played": g.hands_played, "hands_per_game": g.hands_per_game,
                  "target_points": g.target_points, "over": g.end is not None,
                  "status": game_status(g, round_),
                  "winner": g.winner, "level": g.level, "end": g.end,
                  "forfeited_by": g.forfeited_by,
                  "signed_off": g.signed_off_at is not None,
                  "last_entry_at": g.last_entry_at,
                  "idle_seconds": idle_seconds(g, round_, now), "version": g.version}
                 for g in match.games]
        hands += sum(g.hands_played for g in match.games)
        finished = match.status == "over"
        done += finished
        tables.append({
            "match_id": match.id, "table": match.table, "status": match_status(match),
            "winner": match.winner, "signed_off": match.signed_off_at is not None,
            "team_a": ({"id": match.team_a.id, "name": match.team_a.name}
                       if match.team_a else None),
            "team_b": ({"id": match.team_b.id, "name": match.team_b.name}
                       if match.team_b else None),
            "seats": [{"seat": n, "player_id": seats[n].player_id if n in seats else None,
                       "name": (seats[n].player.name if n in seats and seats[n].player
                                else "Ghost"), "side": SIDE_OF_SEAT[n]} for n in (1, 2, 3, 4)],
            "games": games,
            "waits": waits.get(match.table, []), "waiting": bool(waits.get(match.table)),
        })
    return {
        "id": round_.id, "event_id": round_.event_id, "number": round_.number,
        "stage": round_.stage, "label": round_.label, "status": round_.status,
        "time_called": round_.time_called_at is not None, "clock": clock_view(round_),
        "progress": {"tables": len(tables), "finished": done, "hands": hands,
                     "begun": play_begun(round_, hands),
                     "waiting": sum(t["waiting"] for t in tables)},
        "tables": tables if detail else [],
        "late_calls": late_calls(round_, now) if detail else [],
    }


def _names(entrants: tuple, names: dict) -> str:
    listed = [names.get(e, "Ghost") if e is not None else "the ghost" for e in entrants]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def accommodations_view(plan: Plan, names: dict) -> list[dict]:
    """What the accommodations did in a planned round, one entry a table, each with a
    sentence for the organizer: who stays where, and who moves instead of them."""
    entries, told = [], set()
    for change in plan.stay_changes:
        stayed, moved = _names(change.stayed, names), _names(change.moved, names) \
            if change.moved else ""
        one = len(change.stayed) == 1
        if not change.moved:
            note = (f"{stayed} both stay at table {change.table} (accommodation): they play "
                    "each other again.")
        else:
            to = f" to table {change.to}" if change.to is not None else ""
            note = (f"{stayed} {'stays' if one else 'stay'} at table {change.table} "
                    f"(accommodation): {moved} {'moves' if len(change.moved) == 1 else 'move'}"
                    f"{to} instead.")
        entries.append({"table": change.table,
                        "stays": [names.get(e, "Ghost") for e in change.stayed],
                        "moves": [names.get(e, "Ghost") for e in change.moved],
                        "to": change.to, "note": note})
        told.update(change.stayed)
    for table in plan.tables:
        ids = [table.team_a, table.team_b] if table.team_a else table.seats
        for entrant in ids:
            if entrant is not None and entrant in plan.stays and entrant not in told:
                entries.append({"table": table.table, "stays": [names.get(entrant, "")],
                                "moves": [], "to": None,
                                "note": f"{names.get(entrant, '')} stays at table "
                                        f"{table.table} (accommodation)."})
    return sorted(entries, key=lambda entry: entry["table"])


def plan_view(plan: Plan, event: Event) -> dict:
    names = {p.id: p.name for p in event.players}
    teams = {t.id: t.name for t in event.teams}
    accommodations = accommodations_view(
        plan, teams if any(t.team_a for t in plan.tables) else names)
    return {
        "ready": True, "code": None, "reason": None,
        "number": plan.number, "stage": plan.stage, "label": plan.label,
        "minutes": plan.minutes,
        "notes": plan.notes + [entry["note"] for entry in accommodations],
        "accommodations": accommodations,
        "balance": plan.balance,
        "tables": [{"table": t.table,
                    "team_a": ({"id": t.team_a, "name": teams.get(t.team_a)}
                               if t.team_a else None),
                    "team_b": ({"id": t.team_b, "name": teams.get(t.team_b)}
                               if t.team_b else None),
                    "seats": [{"seat": n, "player_id": pid,
                               "name": names.get(pid, "Ghost") if pid else "Ghost",
                               "side": SIDE_OF_SEAT[n]}
                              for n, pid in enumerate(t.seats, 1)]}
                   for t in plan.tables],
    }


def list_rounds(event_id: int) -> list[Round]:
    return list(db.session.execute(
        select(Round).where(Round.event_id == event_id).order_by(Round.number)
        .options(*ROUND_LOADS)).scalars())
