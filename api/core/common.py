"""What every use case shares: finding rows, locking an event for a write, the audit log."""

from __future__ import annotations

import json
import secrets
from functools import lru_cache
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import joinedload, selectinload

from ..rules.presets import Preset, preset_from_parameters
from .db import db
from .errors import Conflict, Forbidden, NotFound, not_found
from .keys import Principal
from .models import ApiKey, AuditEntry, ClubKey, Event, Game, Match, Player, Round, Seat, Team


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
        raise Conflict(f"{event.name} is marked finished, so its results are final; the "
                       "organizer can open it again (Event tab) to change anything.",
                       code="event-finished")
    return event


def event_by_code(code: str, what_to_do: str) -> Event:
    """The event with this public code (any letter case), or a 404 that says what to do."""
    event = db.session.execute(
        select(Event).where(Event.code == code.strip().upper())).scalar_one_or_none()
    if event is None:
        raise NotFound(f"No event has the code '{code}'. {what_to_do}", code="not-found")
    return event


def check_link_token(current: str | None, given: str, refusal: str, code: str) -> None:
    """A public link's token (the door QR, a team registration link) must be the current
    one: compared in constant time; an old or missing one is refused with `refusal`."""
    if current is None or not secrets.compare_digest(given.encode(), current.encode()):
        raise Forbidden(refusal, code=code)


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
        role=("club" if principal.club_id is not None else principal.role) if principal
        else "system",
        action=action, entity=entity, entity_id=str(entity_id),
        before=jsonable(before), after=jsonable(after), round_number=round_number,
        table=table,
    ))


def audit_many(event_id: int, principal: Principal | None, action: str, entity: str,
               changes: list[tuple[Any, dict]]) -> None:
    """One audit entry a change for many changes of one kind ((entity id, after) each), in
    one statement: a field of 400 registered at once costs one insert, not 400 objects."""
    if not changes:
        return
    role = ("club" if principal.club_id is not None else principal.role) if principal \
        else "system"
    key_id = principal.key_id if principal else None
    db.session.execute(insert(AuditEntry.__table__), [
        {"event_id": event_id, "key_id": key_id, "role": role, "action": action,
         "entity": entity, "entity_id": str(entity_id), "before": None,
         "after": jsonable(after)} for entity_id, after in changes])


def jsonable(value):
    """Plain JSON for the audit columns (dates become ISO text)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, default=lambda v: v.isoformat()
                                 if hasattr(v, "isoformat") else str(v)))


# What an audit entry's before/after carry that follows from the change rather than being it
# (a hand's points follow from its tricks), or that only places it (its id and number).
CONSEQUENCES = frozenset({"points", "result", "outcome", "bumps", "created_at", "id", "number",
                          "game", "sign_off"})


def changed_fields(before: dict | None, after: dict | None) -> list[str]:
    """The fields a change changed, by name: every one whose value differs, so "3 tricks ->
    4" reads as a change of tricks even when the score stays the same."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    return sorted(k for k in before.keys() & after.keys()
                  if k not in CONSEQUENCES and before.get(k) != after.get(k))


def audit_entries(event_id: int, table: int | None = None, round_number: int | None = None,
                  limit: int = 200) -> list[dict]:
    """The audit log, newest first, optionally for one table or round; each entry names the
    key that made the change (its label and last characters, so two desks can be told
    apart) and the fields it changed."""
    # A club key's entries name the club key (its ids are another table's).
    by_club = AuditEntry.role == "club"
    query = (select(AuditEntry, func.coalesce(ApiKey.label, ClubKey.label),
                    func.coalesce(ApiKey.hint, ClubKey.hint), ApiKey.table)
             .outerjoin(ApiKey, (ApiKey.id == AuditEntry.key_id) & ~by_club)
             .outerjoin(ClubKey, (ClubKey.id == AuditEntry.key_id) & by_club)
             .where(AuditEntry.event_id == event_id))
    if table is not None:
        query = query.where(AuditEntry.table == table)
    if round_number is not None:
        query = query.where(AuditEntry.round_number == round_number)
    entries = []
    for entry, label, hint, key_table in db.session.execute(
            query.order_by(AuditEntry.id.desc()).limit(limit)):
        entries.append({
            "id": entry.id, "at": entry.at, "key_id": entry.key_id, "role": entry.role,
            "action": entry.action, "entity": entry.entity, "entity_id": entry.entity_id,
            "round_number": entry.round_number, "table": entry.table,
            "before": entry.before, "after": entry.after,
            "key": (None if entry.key_id is None or hint is None else
                    {"id": entry.key_id, "role": entry.role, "label": label or "",
                     "hint": hint, "table": key_table}),
            "changed": changed_fields(entry.before, entry.after),
        })
    return entries


def keep_quietly(*statements) -> None:
    """Write a cache during a read (series standings, a profile): the read's transaction
    ends first and the writes are a short transaction of their own; when the database is
    busy they are left for a later read, never an error for this one. Each statement is a
    statement or (statement, parameters)."""
    db.session.rollback()
    try:
        for statement in statements:
            db.session.execute(*statement) if isinstance(statement, tuple) \
                else db.session.execute(statement)
        db.session.commit()
    except OperationalError:
        db.session.rollback()
