"""Players and teams: registering them (one at a time; a CSV import is entrant_import.py), and
the field as rounds see it. Changes after registration are entrant_changes.py."""

from __future__ import annotations

from flask import current_app
from sqlalchemy import func, insert, select

from ..core import limits
from ..core.common import audit, audit_many, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.keys import Principal
from ..core.models import Event, Player, Round, Team, utcnow
from ..core.text import clean_name
from ..people.people import link_players
from . import door


def name_or_422(raw, what: str = "A name") -> str:
    try:
        return clean_name(raw, what)
    except ValueError as exc:
        raise Invalid(str(exc), code="bad-name") from None


def next_position(model, event_id: int) -> int:
    current = db.session.execute(
        select(func.max(model.position)).where(model.event_id == event_id)).scalar()
    return (current or 0) + 1


def taken_names(event_id: int, model) -> set[str]:
    return {n.casefold() for n in db.session.execute(
        select(model.name).where(model.event_id == event_id)).scalars()}


# Substitutes one league team keeps (a roster is two players and a few who stand in).
TEAM_SUBSTITUTES = 8


def make_room(event: Event, players: int, teams: int = 0, client: str = "") -> None:
    """Refuse, before anything is written, registrations past the largest field an event
    takes, and count them against the registrations from `client` (see check_room and
    take_registrations)."""
    check_room(event, players, teams)
    take_registrations(players, client)


def check_room(event: Event, players: int, teams: int = 0) -> None:
    """Refuse registrations past the largest field an event takes (EVENT_PLAYERS,
    substitutes included) or, in a league, LEAGUE_TEAMS teams: every later write on the event
    (seating, calling time, the season) is one transaction, and it must stay short enough not
    to hold up any other event's hands."""
    config = current_app.config
    cap = config["EVENT_PLAYERS"]
    have = db.session.execute(
        select(func.count()).select_from(Player).where(Player.event_id == event.id)).scalar()
    if have + players > cap:
        raise Conflict(f"An event takes at most {cap:,} players (substitutes included); this "
                       f"one has {have:,}, and this would add {players:,}.",
                       code="too-many-players")
    if teams and preset_of(event).movement == "league-schedule":
        cap = config["LEAGUE_TEAMS"]
        have = db.session.execute(
            select(func.count()).select_from(Team).where(Team.event_id == event.id)).scalar()
        if have + teams > cap:
            raise Conflict(f"A league takes at most {cap:,} teams (its whole season is "
                           f"scheduled at once); this one has {have:,}, and this would add "
                           f"{teams:,}. Split a bigger league into divisions, one event each.",
                           code="too-many-teams")


def take_registrations(players: int, client: str) -> None:
    """Players registered from one client address are limited (REGISTRATION_LIMIT an hour,
    two of the largest fields): the work an event's writes take grows with its field, and
    without it one address could fill event after event (each made in a moment) and seat
    them all at once, holding up everyone's hands on SQLite for as long as it liked. Counted
    inside the registration's write, so it holds across workers."""
    config = current_app.config
    limits.take(f"register:{client}", config["REGISTRATION_LIMIT"],
                config["REGISTRATION_WINDOW_SECONDS"],
                f"More than {config['REGISTRATION_LIMIT']:,} players were registered from this "
                "network lately.", amount=players)


def seated_yet(event: Event) -> bool:
    return db.session.execute(
        select(Round.id).where(Round.event_id == event.id, Round.status != "scheduled")
    ).first() is not None


def _require_individual(event: Event) -> None:
    if preset_of(event).team_entry:
        raise Conflict("This event is for teams: add a team with its two players.",
                       code="team-event")


def _require_teams(event: Event) -> None:
    if not preset_of(event).team_entry:
        raise Conflict("This event is for single players: add players, not teams.",
                       code="individual-event")


def add_player(event_id: int, principal: Principal, name: str,
               checked_in: bool = False, client: str = "",
               people: dict | None = None, after_window: bool = False) -> Player:
    """Register one player; in a club's event, linked to the club's person (`people`: the
    organizer's decisions for near names, see people.link_players)."""
    event = lock_event(event_id)
    _require_individual(event)
    player = _insert_players(event, [(name, checked_in)], principal, client=client)[0]
    if checked_in:  # registered at the desk after the window: as a check-in, an exception
        door.allow_check_in(event, principal, "player", player.id, player.name, after_window)
    link_players(event, [player], people)
    db.session.commit()
    return player


def team_players(teams: list[Team]) -> list[Player]:
    ids = [t.id for t in teams]
    return list(db.session.execute(select(Player).where(Player.team_id.in_(ids))
                                   .order_by(Player.position)).scalars()) if ids else []


def _insert_players(event: Event, rows: list[tuple[str, bool]], principal,
                    client: str = "") -> list[Player]:
    """Register players (checked as `player_values` does)."""
    make_room(event, len(rows), client=client)
    players = player_values(event, rows)
    if not players:
        return []
    now = utcnow()
    for values in players:
        values["checked_in_at"] = now if values["checked_in"] else None
    made = list(db.session.scalars(
        insert(Player).returning(Player, sort_by_parameter_order=True), players))
    audit_many(event.id, principal, "add-player", "player",
               [(p.id, {"name": p.name}) for p in made])
    return made


def player_values(event: Event, rows: list[tuple[str, bool]],
                  lines: list[int] | None = None,
                  row_errors: dict[int, list[str]] | None = None) -> list[dict]:
    """Each row's player as it would be stored (its time of check-in left to the write),
    checked against the event as it is now: a name that shows nothing, or one registered
    already, refuses them all. `row_errors`: problems already found in rows (by index),
    reported with the others in line order."""
    taken = taken_names(event.id, Player)
    late = seated_yet(event)
    position = next_position(Player, event.id)
    errors: dict[str, list[str]] = {}
    players = []
    for index, (raw, checked_in) in enumerate(rows):
        where = f"line {lines[index]}" if lines else "name"
        earlier = (row_errors or {}).get(index, [])
        if earlier:
            errors.setdefault(where, []).extend(earlier)
        try:
            name = clean_name(raw, "The name")
        except ValueError as exc:
            errors.setdefault(where, []).append(str(exc))
            continue
        if name.casefold() in taken:
            errors.setdefault(where, []).append(
                f"'{name}' is already registered; add an initial to tell them apart.")
            continue
        taken.add(name.casefold())
        if earlier:
            continue
        players.append({"event_id": event.id, "name": name, "position": position,
                        "role": "player", "checked_in": bool(checked_in),
                        "checked_in_at": None, "late": bool(checked_in and late)})
        position += 1
    if errors:
        raise _row_problem(errors)
    return players


def _row_problem(errors: dict[str, list[str]]) -> Invalid:
    first_key = next(iter(errors))
    detail = f"{first_key.capitalize()}: {errors[first_key][0]}"
    if len(errors) > 1:
        detail += f" (and {len(errors) - 1} more; nothing was stored)"
    else:
        detail += " Nothing was stored."
    return Invalid(detail, code="bad-rows", errors=errors)


def add_team(event_id: int, principal: Principal, name: str, players: list[str],
             substitutes: list[str] | None = None, checked_in: bool = False,
             client: str = "", people: dict | None = None,
             division: str | None = None, after_window: bool = False) -> Team:
    event = lock_event(event_id)
    _require_teams(event)
    if division is not None and preset_of(event).movement != "league-schedule":
        raise Conflict("Divisions are for leagues.", code="not-league")
    team = insert_teams(event, [(name, players, substitutes or [], checked_in)], principal,
                        client=client)[0]
    team.division = division
    if checked_in:
        door.allow_check_in(event, principal, "team", team.id, team.name, after_window)
    link_players(event, team_players([team]), people)
    db.session.commit()
    return team


def register_team(event: Event, principal: Principal, name: str, players: list[str],
                  substitutes: list[str], client: str = "") -> Team:
    """One team registered through a captain's link (league/captains.py): checked and
    limited as the organizer's registrations are."""
    return insert_teams(event, [(name, players, substitutes, False)], principal,
                        client=client)[0]


def insert_teams(event: Event, rows, principal, lines: list[int] | None = None,
                 row_errors: dict[int, list[str]] | None = None,
                 client: str = "") -> list[Team]:
    make_room(event, sum(len(roster) + min(len(subs), TEAM_SUBSTITUTES)
                          for _, roster, subs, _ in rows), teams=len(rows), client=client)
    team_names = taken_names(event.id, Team)
    player_names = taken_names(event.id, Player)
    team_pos = next_position(Team, event.id)
    player_pos = next_position(Player, event.id)
    league = preset_of(event).movement == "league-schedule"
    late = seated_yet(event)
    errors: dict[str, list[str]] = {}
    made = []
    for index, (raw_name, roster, subs, checked_in) in enumerate(rows):
        where = f"line {lines[index]}" if lines else "team"
        problems = list((row_errors or {}).get(index, []))
        try:
            name = clean_name(raw_name, "The team name")
            if name.casefold() in team_names:
                problems.append(f"There is already a team called '{name}'.")
        except ValueError as exc:
            problems.append(str(exc))
            name = None
        if len(roster) != 2:
            problems.append(f"A team has exactly 2 players; {len(roster)} given.")
        if subs and not league:
            problems.append("Substitutes are only kept for league teams.")
        if len(subs) > TEAM_SUBSTITUTES:
            problems.append(f"A team keeps at most {TEAM_SUBSTITUTES} substitutes; "
                            f"{len(subs)} given.")
            subs = subs[:TEAM_SUBSTITUTES]
        people = []
        for raw in list(roster) + list(subs):
            try:
                person = clean_name(raw, "A player's name")
            except ValueError as exc:
                problems.append(str(exc))
                continue
            if person.casefold() in player_names:
                problems.append(f"'{person}' is already registered in this event.")
            player_names.add(person.casefold())
            people.append(person)
        if problems:
            errors[where] = problems
            continue
        team_names.add(name.casefold())
        team = Team(event_id=event.id, name=name, position=team_pos)
        team_pos += 1
        db.session.add(team)
        db.session.flush()
        for i, person in enumerate(people):
            role = "player" if i < 2 else "substitute"
            here = bool(checked_in and role == "player")
            db.session.add(Player(event_id=event.id, name=person, position=player_pos,
                                  team_id=team.id, role=role, checked_in=here,
                                  checked_in_at=utcnow() if here else None,
                                  late=here and late))
            player_pos += 1
        made.append(team)
    if errors:
        raise _row_problem(errors)
    db.session.flush()
    for t in made:
        audit(event.id, principal, "add-team", "team", t.id, after={"name": t.name})
    return made


def list_players(event_id: int) -> list[Player]:
    return list(db.session.execute(
        select(Player).where(Player.event_id == event_id).order_by(Player.position)).scalars())


def list_teams(event_id: int) -> list[Team]:
    return list(db.session.execute(
        select(Team).where(Team.event_id == event_id).order_by(Team.position)).scalars())


def field_players(event: Event) -> list[Player]:
    """Individuals who will be seated: checked in and not withdrawn, in registration order."""
    return [p for p in list_players(event.id)
            if p.role == "player" and p.checked_in and not p.withdrawn]


def field_teams(event: Event) -> list[Team]:
    """Teams who will be seated: not withdrawn or removed, and (outside a league) with both
    players checked in."""
    league = preset_of(event).movement == "league-schedule"
    teams = []
    for team in list_teams(event.id):
        if team.withdrawn or team.removed:
            continue
        roster = [m for m in team.members if m.role == "player"]
        if league or all(m.checked_in and not m.withdrawn for m in roster):
            teams.append(team)
    return teams
