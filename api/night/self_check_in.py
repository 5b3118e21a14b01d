"""Self check-in at the door: the door QR opens a page where a player finds their name and
checks in (in a team event either player checks the team in), or, not registered yet, asks to
be added; the organizer accepts or declines each request.

Door writes are counted per event and client address once the door code is checked
(core/limits.py), and only those that change something: a wrong code, a second tap or a
refusal writes nothing, so a stranger cannot use up the count a whole venue on one wifi shares.
Requests to be added are capped by how many wait at once, per address and per event; the
organizer declines a flood of them in one step. Every door write works only with the event's
current door code and inside the check-in window (door.py). A check-in is the same change the
organizer's Check in makes (entrant_changes.py), audited as made at the door.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from flask import current_app
from sqlalchemy import func, select

from ..core import limits
from ..core.common import audit, get_event, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, NotFound
from ..core.keys import Principal
from ..core.models import DoorRequest, Event, Match, Player, Round, Seat, Team, utcnow
from ..rules import check_in as rules
from . import door, entrant_changes, entrants

# A request refused for too many waiting is told to try again after this many seconds: by
# then the organizer has usually answered some.
WAITING_RETRY_SECONDS = 60


def _door_principal(event: Event) -> Principal:
    # Not a key: the audit log records the change as made at the door.
    return Principal(None, event.id, "door")


def _count(event: Event, client: str) -> None:
    """Count one door write that changes something, from this address at this event (inside
    the caller's transaction: a refusal rolls its count back)."""
    config = current_app.config
    limits.take(f"door:{event.id}:{client}", config["DOOR_LIMIT"], config["DOOR_WINDOW_SECONDS"],
                "Too many check-ins from this network for now: see the organizer at the desk.")


def _arrivals(event: Event) -> list[tuple[Player, Team | None]]:
    """Who may still check in at the door: registered players (not substitutes), not
    withdrawn, not yet here; in a team event the players of teams not yet here."""
    rows = db.session.execute(
        select(Player, Team).outerjoin(Team, Team.id == Player.team_id)
        .where(Player.event_id == event.id, Player.role == "player",
               Player.withdrawn.is_(False))
        .order_by(func.lower(Player.name))).all()
    if not preset_of(event).team_entry:
        return [(p, None) for p, _ in rows if not p.checked_in]
    away_teams = {t.id for p, t in rows if t is not None and not p.checked_in}
    return [(p, t) for p, t in rows
            if t is not None and t.id in away_teams and not t.withdrawn and not t.removed]


def _table_of(player: Player) -> int | None:
    """The table a player sits at in the round being played or about to be, if seated."""
    return db.session.execute(
        select(Match.table).join(Round, Round.id == Match.round_id)
        .join(Seat, Seat.match_id == Match.id)
        .where(Seat.player_id == player.id, Round.status != "closed")
        .order_by(Round.number.desc()).limit(1)).scalar()


def _request_view(req: DoorRequest, event: Event, same_network: int | None = None) -> dict:
    view = {"id": req.id, "name": req.name, "status": req.status,
            "created_at": req.created_at, "decided_at": req.decided_at,
            "player_id": req.player_id, "checked_in_at": None, "time": None, "table": None,
            "same_network": same_network}
    player = db.session.get(Player, req.player_id) if req.player_id else None
    if player is not None and player.checked_in_at is not None:
        view.update(checked_in_at=player.checked_in_at, table=_table_of(player),
                    time=rules.clock_words(player.checked_in_at.astimezone(door.zone_of(event))))
    return view


def door_view(code: str, token: str, request_id: int | None = None) -> dict:
    """What the door page shows: the event, the window, the names still to check in, and
    (given its id) how a request to be added stands."""
    event = door.event_by_code(code)
    door.check_token(event, token)
    team_entry = preset_of(event).team_entry
    view = {"event_id": event.id, "event_name": event.name, "code": event.code,
            "team_entry": team_entry, "requests": not team_entry,
            "window": door.window_view(event),
            "names": [{"player_id": p.id, "name": p.name, "team": t.name if t else None}
                      for p, t in _arrivals(event)],
            "request": None}
    if request_id is not None:
        req = db.session.get(DoorRequest, request_id)
        if req is None or req.event_id != event.id:
            raise NotFound(f"Request {request_id} was not made at this door.")
        view["request"] = _request_view(req, event)
    return view


def _checked_in(player: Player, team: Team | None) -> bool:
    return all(m.checked_in for m in team.members if m.role == "player") if team \
        else player.checked_in


def _at_the_door(event: Event, player_id: int) -> tuple[Player, Team | None]:
    """The player (and team) a door check-in names, or why not."""
    player = db.session.get(Player, player_id)
    if player is None or player.event_id != event.id or player.role != "player":
        raise NotFound("That name is not on this event's list: ask the organizer at the desk.")
    if player.withdrawn:
        raise Conflict(f"{player.name} is withdrawn from this event: see the organizer at the "
                       "desk.", code="withdrawn")
    team = db.session.get(Team, player.team_id) if player.team_id else None
    if team is not None and (team.withdrawn or team.removed):
        raise Conflict(f"{team.name} is withdrawn from this event: see the organizer at the "
                       "desk.", code="withdrawn")
    return player, team


def check_in(code: str, token: str, player_id: int, client: str) -> dict:
    """Check a player (or their team) in from the door page; a second tap answers the same.

    Everything that refuses, and a second tap, only reads: only a check-in that happens
    takes the event's write and is counted (DOOR_LIMIT per address at this event)."""
    event = door.event_by_code(code)
    door.check_token(event, token)
    player, team = _at_the_door(event, player_id)
    already = _checked_in(player, team)
    if not already:
        door.require_open(event)
        event = lock_event(event.id)
        door.check_token(event, token)  # rotated meanwhile?
        db.session.refresh(player)
        if team is not None:
            db.session.refresh(team)
        player, team = _at_the_door(event, player_id)
        already = _checked_in(player, team)
    if not already:
        door.require_open(event)
        _count(event, client)
        if team is not None:
            entrant_changes.update_team(event.id, _door_principal(event), team.id,
                                 {"checked_in": True})
        else:
            entrant_changes.update_player(event.id, _door_principal(event), player.id,
                                   {"checked_in": True})
        db.session.refresh(player)
    at = rules.clock_words(player.checked_in_at.astimezone(door.zone_of(event)))
    table = _table_of(player)
    where = f" Your table: {table}." if table else ""
    said = (f"You were already checked in, {player.name}, at {at}." if already else
            f"You're checked in, {player.name}, at {at}.")
    if team is not None:
        said += f" Your team, {team.name}, is checked in."
    db.session.commit()
    return {"player_id": player.id, "name": player.name, "team": team.name if team else None,
            "checked_in_at": player.checked_in_at, "time": at, "late": player.late,
            "table": table, "message": said + where}


def _waiting(event: Event) -> list[DoorRequest]:
    return list(db.session.execute(select(DoorRequest).where(
        DoorRequest.event_id == event.id, DoorRequest.status == "waiting")
        .order_by(DoorRequest.id)).scalars())


def _may_ask(event: Event, name: str, client: str) -> DoorRequest | None:
    """Why this request cannot be made (raised), or the same request already waiting (asked
    twice: one request), or None: it may be made. Only reads."""
    if preset_of(event).team_entry:
        raise Conflict("This event is for teams of two: ask the organizer at the desk to add "
                       "your team.", code="team-event")
    door.require_open(event)
    known = next((p for p in db.session.execute(select(Player).where(
        Player.event_id == event.id)).scalars() if p.name.casefold() == name.casefold()), None)
    if known is not None:
        raise Conflict(f"'{known.name}' is already registered: find the name in the list "
                       "above" + (" (checked in already)." if known.checked_in else "."),
                       code="duplicate-name")
    waiting = _waiting(event)
    same = next((r for r in waiting if r.name.casefold() == name.casefold()), None)
    if same is not None:
        return same
    config = current_app.config
    mine = sum(1 for r in waiting if r.client == client[:64])
    if mine >= config["DOOR_REQUEST_LIMIT"]:
        raise limits.too_many(f"{mine} requests to be added from this network are waiting for "
                              "the organizer already: see the organizer at the desk.",
                              WAITING_RETRY_SECONDS)
    if len(waiting) >= config["DOOR_REQUESTS_WAITING"]:
        refusal = limits.too_many(f"{len(waiting)} requests are waiting for the organizer "
                                  "already: see the organizer at the desk.",
                                  WAITING_RETRY_SECONDS)
        refusal.code = "too-many-requests"
        raise refusal
    return None


def ask(code: str, token: str, name: str, client: str) -> tuple[DoorRequest, Event]:
    """Someone not on the list asks to be added; the organizer decides (decide below).

    At most DOOR_REQUEST_LIMIT requests from one address wait at once at an event and
    DOOR_REQUESTS_WAITING from everyone (429 past either): the organizer's queue. Refusals and a
    request made twice only read; a new request takes the event's write and is counted."""
    event = door.event_by_code(code)
    door.check_token(event, token)
    same = _may_ask(event, name, client)
    if same is None:
        event = lock_event(event.id)
        door.check_token(event, token)
        same = _may_ask(event, name, client)
    if same is not None:
        db.session.rollback()
        return same, event
    _count(event, client)
    req = DoorRequest(event_id=event.id, name=name, status="waiting", client=client[:64])
    db.session.add(req)
    db.session.flush()
    audit(event.id, _door_principal(event), "door-request", "door-request", req.id,
          after={"name": name})
    db.session.commit()
    return req, event


def request_view(req: DoorRequest, event: Event) -> dict:
    return _request_view(req, event)


def list_requests(event_id: int) -> list[dict]:
    """The event's requests to be added: the waiting ones first (oldest first), then the
    latest decided."""
    event = get_event(event_id)
    rows = list(db.session.execute(select(DoorRequest).where(DoorRequest.event_id == event_id)
                                   .order_by(DoorRequest.id)).scalars())
    waiting = [r for r in rows if r.status == "waiting"]
    decided = [r for r in reversed(rows) if r.status != "waiting"][:50]
    networks = Counter(r.client for r in waiting)
    return [_request_view(r, event, networks[r.client]) for r in waiting] + \
        [_request_view(r, event) for r in decided]


def decline_many(event_id: int, principal: Principal, like: int | None = None,
                 since: datetime | None = None) -> dict:
    """Decline a flood of waiting requests in one step: those made from the same network as
    request `like`, or those made at `since` or later, or (neither given) every waiting one.
    Each is declined as one by one (the phones that asked see it); one audit entry says how
    many. Returns how many were declined and their names."""
    event = lock_event(event_id)
    waiting = _waiting(event)
    what = "every waiting request"
    if like is not None:
        anchor = db.session.get(DoorRequest, like)
        if anchor is None or anchor.event_id != event.id:
            raise NotFound(f"Request {like} does not exist in this event.")
        waiting = [r for r in waiting if r.client == anchor.client]
        what = f"the waiting requests from the same network as {anchor.name}'s"
    if since is not None:
        # A time without an offset is the venue's, as the check-in window's.
        moment = since if since.tzinfo else since.replace(tzinfo=door.zone_of(event))
        waiting = [r for r in waiting if r.created_at >= moment]
        what = f"{'those of ' if like is not None else ''}requests made since " \
               f"{rules.local_text(moment.astimezone(door.zone_of(event)))}"
    now = utcnow()
    for req in waiting:
        req.status, req.decided_at = "declined", now
    names = [r.name for r in waiting]
    if waiting:
        audit(event.id, principal, "decline-door-requests", "event", event.id,
              after={"declined": len(names), "which": what, "names": names[:50]})
    db.session.commit()
    return {"declined": len(names), "names": names}


def decide(event_id: int, principal: Principal, request_id: int, accept: bool,
           name: str | None = None, people: dict | None = None, client: str = "") -> dict:
    """Accept (the person is added and checked in, under `name` when the organizer corrects
    it) or decline a request. Deciding the same way again answers the same."""
    event = lock_event(event_id)
    req = db.session.get(DoorRequest, request_id)
    if req is None or req.event_id != event.id:
        raise NotFound(f"Request {request_id} does not exist in this event.")
    wanted = "accepted" if accept else "declined"
    if req.status == wanted:
        db.session.commit()
        return _request_view(req, event)
    if req.status != "waiting":
        raise Conflict(f"The request from {req.name} was {req.status} already.",
                       code="request-decided")
    req.status, req.decided_at = wanted, utcnow()
    audit(event.id, principal, f"{'accept' if accept else 'decline'}-door-request",
          "door-request", req.id, before={"status": "waiting", "name": req.name},
          after={"status": wanted, "name": name or req.name})
    if not accept:
        db.session.commit()
        return _request_view(req, event)
    # Added and checked in with the request's change, in one transaction (add_player commits).
    player = entrants.add_player(event.id, principal, name or req.name, checked_in=True,
                                 client=client, people=people)
    req.player_id = player.id
    db.session.commit()
    return _request_view(req, event)
