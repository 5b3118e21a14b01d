"""What every use case shares: finding rows, locking an event for a write, the audit log."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import joinedload, selectinload

from ..auth import Principal
from ..db import db
from ..models import AuditEntry, Event, Game, Match, Player, Round, Seat, Team
from ..problems import Problem
from ..rules.presets import Preset, preset_from_parameters


def not_found(what: str) -> Problem:
    return Problem(404, f"{what} does not exist.", code="not-found")


def get_event(event_id: int) -> Event:
    event = db.session.get(Event, event_id)
    if event is None:
        raise not_found(f"Event {event_id}")
    return event


def lock_event(event_id: int, *, bump: bool = True, when_finished: bool = False) -> Event:
    """Start a write on an event: bump its revision (so pollers see a change) and hold its row.

    Every write in an event goes through here first. On PostgreSQL the UPDATE takes the row
    lock, so writes to one event queue instead of racing; on SQLite the transaction already
    began with BEGIN IMMEDIATE. Either way the revision changes in the same transaction.
    With `bump=False` the row is only locked (for writes nobody watching needs to see).

    An event marked finished takes no more play (hands, rounds, players, forfeits, tie-breaks)
    until the organizer opens it again; `when_finished=True` is for the writes that stay
    possible (its name and status, keys and the PIN).
    """
    if not bump:
        query = select(Event).where(Event.id == event_id).with_for_update()
    else:
        # One statement: take the lock, bump the revision and load the row.
        query = (update(Event).where(Event.id == event_id)
                 .values(revision=Event.revision + 1).returning(Event))
    event = db.session.execute(
        query, execution_options={"populate_existing": True}).scalar_one_or_none()
    if event is None:
        raise not_found(f"Event {event_id}")
    if event.status == "finished" and not when_finished:
        raise Problem(409, f"{event.name} is marked finished, so its results are final; the "
                      "organizer can open it again (Event tab) to change anything.",
                      code="event-finished")
    return event


def preset_of(event: Event) -> Preset:
    return _preset(event.preset_key, json.dumps(event.parameters, sort_keys=True))


@lru_cache(maxsize=256)
def _preset(key: str, parameters: str) -> Preset:
    # Presets are immutable, so one per distinct stored format is built once per process.
    return preset_from_parameters(key, json.loads(parameters))


GAME_LOADS = (
    joinedload(Game.match).joinedload(Match.round),
    joinedload(Game.match).selectinload(Match.seats).joinedload(Seat.player),
    joinedload(Game.match).selectinload(Match.games),
    joinedload(Game.match).joinedload(Match.team_a),
    joinedload(Game.match).joinedload(Match.team_b),
    selectinload(Game.hands),
)


def get_game(game_id: int) -> Game:
    """A game with everything its screen and its rules need, loaded in a few queries.
    Writers lock the event first and load the game after, so what they read is current."""
    query = select(Game).where(Game.id == game_id).options(*GAME_LOADS)
    game = db.session.execute(query).unique().scalar_one_or_none()
    if game is None:
        raise not_found(f"Game {game_id}")
    return game


def get_match(match_id: int) -> Match:
    match = db.session.get(Match, match_id)
    if match is None:
        raise not_found(f"Match {match_id}")
    return match


ROUND_LOADS = (
    selectinload(Round.matches).selectinload(Match.seats).joinedload(Seat.player),
    selectinload(Round.matches).selectinload(Match.games),
    selectinload(Round.matches).joinedload(Match.team_a),
    selectinload(Round.matches).joinedload(Match.team_b),
)


def get_round(round_id: int) -> Round:
    """A round with its tables, seats, players and games, in a handful of queries."""
    round_ = db.session.execute(
        select(Round).where(Round.id == round_id).options(*ROUND_LOADS)).scalar_one_or_none()
    if round_ is None:
        raise not_found(f"Round {round_id}")
    return round_


def get_player(event: Event, player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None or player.event_id != event.id:
        raise not_found(f"Player {player_id} in this event")
    return player


def get_team(event: Event, team_id: int) -> Team:
    team = db.session.get(Team, team_id)
    if team is None or team.event_id != event.id:
        raise not_found(f"Team {team_id} in this event")
    return team


def game_label(game: Game) -> str:
    """How a runner names a game: 'Game 2 at table 4' (or 'The game at table 4')."""
    match = game.match
    if match.games_planned > 1:
        return f"Game {game.number} at table {match.table}"
    return f"The game at table {match.table}"


def audit(event_id: int, principal: Principal | None, action: str, entity: str,
          entity_id: Any, *, before: dict | None = None, after: dict | None = None,
          round_number: int | None = None, table: int | None = None) -> None:
    """Record a change after entry: who, when, what it was and what it became."""
    db.session.add(AuditEntry(
        event_id=event_id,
        key_id=principal.key_id if principal else None,
        role=principal.role if principal else "system",
        action=action, entity=entity, entity_id=str(entity_id),
        before=_jsonable(before), after=_jsonable(after), round_number=round_number,
        table=table,
    ))


def _jsonable(value):
    """Plain JSON for the audit columns (dates become ISO text)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, default=lambda v: v.isoformat()
                                 if hasattr(v, "isoformat") else str(v)))


def audit_entries(event_id: int, table: int | None = None, round_number: int | None = None,
                  limit: int = 200) -> list[AuditEntry]:
    """The audit log, newest first, optionally for one table or round."""
    query = select(AuditEntry).where(AuditEntry.event_id == event_id)
    if table is not None:
        query = query.where(AuditEntry.table == table)
    if round_number is not None:
        query = query.where(AuditEntry.round_number == round_number)
    return list(db.session.execute(query.order_by(AuditEntry.id.desc()).limit(limit)).scalars())
