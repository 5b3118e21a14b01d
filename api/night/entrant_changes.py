"""Changing an entrant after registration: a player's or team's name, check-in and withdrawal,
the event day's marks (paid, stays at a table, disqualified, categories) and a team's
substitutes."""

from __future__ import annotations

from ..core.common import audit, get_player, get_team, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.keys import Principal
from ..core.models import Event, Player, Team, utcnow
from ..people.people import link_players
from . import door
from .entrants import (
    TEAM_SUBSTITUTES,
    make_room,
    name_or_422,
    next_position,
    seated_yet,
    taken_names,
)


def update_player(event_id: int, principal: Principal, player_id: int, changes: dict) -> Player:
    """Check in, withdraw, come back, or fix a name; late arrivals are marked as such."""
    event = lock_event(event_id)
    player = get_player(event, player_id)
    before = {"name": player.name, "checked_in": player.checked_in,
              "withdrawn": player.withdrawn, **_event_day(player)}
    if "name" in changes:
        name = name_or_422(changes["name"])
        if name.casefold() != player.name.casefold() and \
                name.casefold() in taken_names(event.id, Player):
            raise Conflict(f"'{name}' is already registered.", code="duplicate-name")
        player.name = name
    if "checked_in" in changes:
        if changes["checked_in"] and not player.checked_in:
            door.allow_check_in(event, principal, "player", player.id, player.name,
                                changes.get("after_window", False))
        _check_in(player, changes["checked_in"], seated_yet(event))
    if "withdrawn" in changes:
        player.withdrawn = changes["withdrawn"]
    if EVENT_DAY & changes.keys():
        if player.role != "player":
            raise Conflict(f"{player.name} is a substitute: set this on the team.",
                           code="substitute")
        _set_event_day(event, player, changes)
    audit(event.id, principal, "update-player", "player", player.id, before=before,
          after={"name": player.name, "checked_in": player.checked_in,
                 "withdrawn": player.withdrawn, **_event_day(player)})
    db.session.commit()
    return player


def update_team(event_id: int, principal: Principal, team_id: int, changes: dict,
                reschedule=None) -> Team:
    """Rename, withdraw, check in, move between divisions, the event day's settings.
    `reschedule(event)`: schedules a league's season again (league/league.py), for a team
    moved between divisions after the season was scheduled but before its first week."""
    event = lock_event(event_id)
    team = get_team(event, team_id)
    before = {"name": team.name, "withdrawn": team.withdrawn,
              "playoff_excluded": team.playoff_excluded, "checked_in": _team_here(team),
              "division": team.division, **_event_day(team)}
    if "name" in changes:
        name = name_or_422(changes["name"], "The team name")
        if name.casefold() != team.name.casefold() and \
                name.casefold() in taken_names(event.id, Team):
            raise Conflict(f"There is already a team called '{name}'.",
                           code="duplicate-name")
        team.name = name
    if "withdrawn" in changes:
        team.withdrawn = changes["withdrawn"]
    if "playoff_excluded" in changes:
        team.playoff_excluded = changes["playoff_excluded"]
    if "division" in changes and changes["division"] != team.division:
        if any(r.stage == "regular" and r.status != "scheduled" for r in event.rounds):
            raise Conflict(f"{team.name} cannot change division now: the season's first week "
                           "has been played (its schedule is within the divisions).",
                           code="season-started")
        team.division = changes["division"]
        if event.schedule and event.schedule.get("season"):
            if reschedule is None:
                raise Conflict(f"{team.name} cannot change division once the season is "
                               "scheduled.", code="season-scheduled")
            db.session.flush()
            reschedule(event)  # the pairings within the divisions, drawn again
    if "checked_in" in changes:
        if changes["checked_in"] and not _team_here(team):
            door.allow_check_in(event, principal, "team", team.id, team.name,
                                changes.get("after_window", False))
        late = seated_yet(event)  # a team arriving after round 1 is late, as a player is
        for member in team.members:
            if member.role == "player":
                _check_in(member, changes["checked_in"], late)
    if EVENT_DAY & changes.keys():
        _set_event_day(event, team, changes)
    audit(event.id, principal, "update-team", "team", team.id, before=before,
          after={"name": team.name, "withdrawn": team.withdrawn,
                 "playoff_excluded": team.playoff_excluded, "checked_in": _team_here(team),
                 "division": team.division, **_event_day(team)})
    db.session.commit()
    return team


EVENT_DAY = frozenset({"paid", "stays_at", "disqualified", "categories"})


def _event_day(entrant) -> dict:
    return {"paid": entrant.paid, "stays_at": entrant.stays_at,
            "disqualified": entrant.disqualified, "categories": entrant.categories or []}


def _set_event_day(event: Event, entrant, changes: dict) -> None:
    """Paid, an accommodation (stays at a table), a disqualification (with its reason, or
    None to undo it) and the categories an entrant is in (RULES.md §4)."""
    if "paid" in changes:
        entrant.paid = changes["paid"]
    if "stays_at" in changes:
        entrant.stays_at = changes["stays_at"]
    if "disqualified" in changes:
        entrant.disqualified = changes["disqualified"]
    if "categories" in changes:
        known = list((event.categories or {}).keys())
        unknown = [c for c in changes["categories"]
                   if c.casefold() not in {k.casefold() for k in known}]
        if unknown:
            raise Invalid(f"No category '{unknown[0]}' in this event"
                          + (f"; it has {', '.join(known)}." if known else
                             "; add categories first (Event tab)."),
                          code="unknown-category")
        by_fold = {k.casefold(): k for k in known}
        entrant.categories = list(dict.fromkeys(by_fold[c.casefold()]
                                                for c in changes["categories"]))


def _check_in(player: Player, here: bool, late: bool) -> None:
    """Check a player in (late when a round was seated already), or undo a check-in made by
    mistake at the door: then they are not here, and no longer counted late."""
    if here and not player.checked_in:
        player.checked_in_at = utcnow()
        player.late = late
    elif not here:
        player.checked_in_at = None
        player.late = False
    player.checked_in = here


def _team_here(team: Team) -> bool:
    return all(m.checked_in for m in team.members if m.role == "player")


def add_substitute(event_id: int, principal: Principal, team_id: int, name: str,
                   client: str = "") -> Player:
    event = lock_event(event_id)
    team = get_team(event, team_id)
    if preset_of(event).movement != "league-schedule":
        raise Conflict("Substitutes are only kept for league teams.", code="not-league")
    if sum(m.role == "substitute" for m in team.members) >= TEAM_SUBSTITUTES:
        raise Conflict(f"A team keeps at most {TEAM_SUBSTITUTES} substitutes; "
                       f"{team.name} has them all.", code="too-many-substitutes")
    make_room(event, 1, client=client)
    person = name_or_422(name)
    if person.casefold() in taken_names(event.id, Player):
        raise Conflict(f"'{person}' is already registered in this event.",
                       code="duplicate-name")
    player = Player(event_id=event.id, name=person, position=next_position(Player, event.id),
                    team_id=team.id, role="substitute")
    db.session.add(player)
    db.session.flush()
    link_players(event, [player])
    audit(event.id, principal, "add-substitute", "player", player.id,
          after={"name": person, "team": team.name})
    db.session.commit()
    return player
