"""Players and teams: registering (one at a time or from a CSV), check-in, withdrawal."""

from __future__ import annotations

import csv
import io
import unicodedata

from sqlalchemy import func, select

from ..auth import Principal
from ..db import db
from ..models import Event, Player, Round, Team, utcnow
from ..problems import Problem
from .common import audit, get_player, get_team, lock_event, preset_of

NAME_MAX = 60


def clean_name(raw, what: str = "A name") -> str:
    """A name as people will read it on a leaderboard: trimmed, printable, not too long."""
    if not isinstance(raw, str):
        raise ValueError(f"{what} must be text.")
    name = " ".join(raw.split())
    if not name:
        raise ValueError(f"{what} is empty.")
    if len(name) > NAME_MAX:
        raise ValueError(f"{what} is longer than {NAME_MAX} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError(f"{what} contains control characters.")
    return name


def _name_or_422(raw, what: str = "A name") -> str:
    try:
        return clean_name(raw, what)
    except ValueError as exc:
        raise Problem(422, str(exc), code="bad-name") from None


def _next_position(model, event_id: int) -> int:
    current = db.session.execute(
        select(func.max(model.position)).where(model.event_id == event_id)).scalar()
    return (current or 0) + 1


def _taken_names(event_id: int, model) -> set[str]:
    return {n.casefold() for n in db.session.execute(
        select(model.name).where(model.event_id == event_id)).scalars()}


def _seated_yet(event: Event) -> bool:
    return db.session.execute(
        select(Round.id).where(Round.event_id == event.id, Round.status != "scheduled")
    ).first() is not None


def _require_individual(event: Event) -> None:
    if preset_of(event).team_entry:
        raise Problem(409, "This event is for teams: add a team with its two players.",
                      code="team-event")


def _require_teams(event: Event) -> None:
    if not preset_of(event).team_entry:
        raise Problem(409, "This event is for single players: add players, not teams.",
                      code="individual-event")


def add_player(event_id: int, principal: Principal, name: str,
               checked_in: bool = False) -> Player:
    event = lock_event(event_id)
    _require_individual(event)
    player = _insert_players(event, [(name, checked_in)], principal)[0]
    db.session.commit()
    return player


def _insert_players(event: Event, rows: list[tuple[str, bool]], principal,
                    lines: list[int] | None = None,
                    row_errors: dict[int, list[str]] | None = None) -> list[Player]:
    """Register players; `row_errors`: problems already found in rows (by index), reported
    with the others in line order."""
    taken = _taken_names(event.id, Player)
    late = _seated_yet(event)
    position = _next_position(Player, event.id)
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
        if earlier:
            taken.add(name.casefold())
            continue
        taken.add(name.casefold())
        now = utcnow() if checked_in else None
        players.append(Player(event_id=event.id, name=name, position=position, role="player",
                              checked_in=bool(checked_in), checked_in_at=now,
                              late=bool(checked_in and late)))
        position += 1
    if errors:
        raise _row_problem(errors)
    db.session.add_all(players)
    db.session.flush()
    for p in players:
        audit(event.id, principal, "add-player", "player", p.id, after={"name": p.name})
    return players


def _row_problem(errors: dict[str, list[str]]) -> Problem:
    first_key = next(iter(errors))
    detail = f"{first_key.capitalize()}: {errors[first_key][0]}"
    if len(errors) > 1:
        detail += f" (and {len(errors) - 1} more; nothing was stored)"
    else:
        detail += " Nothing was stored."
    return Problem(422, detail, code="bad-rows", errors=errors)


def add_team(event_id: int, principal: Principal, name: str, players: list[str],
             substitutes: list[str] | None = None, checked_in: bool = False) -> Team:
    event = lock_event(event_id)
    _require_teams(event)
    team = _insert_teams(event, [(name, players, substitutes or [], checked_in)], principal)[0]
    db.session.commit()
    return team


def _insert_teams(event: Event, rows, principal, lines: list[int] | None = None,
                  row_errors: dict[int, list[str]] | None = None) -> list[Team]:
    team_names = _taken_names(event.id, Team)
    player_names = _taken_names(event.id, Player)
    team_pos = _next_position(Team, event.id)
    player_pos = _next_position(Player, event.id)
    league = preset_of(event).movement == "league-schedule"
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
                                  checked_in_at=utcnow() if here else None))
            player_pos += 1
        made.append(team)
    if errors:
        raise _row_problem(errors)
    db.session.flush()
    for t in made:
        audit(event.id, principal, "add-team", "team", t.id, after={"name": t.name})
    return made


CHECKED_IN_YES = ("yes", "y", "true", "1", "x")
CHECKED_IN_NO = ("no", "n", "false", "0", "")


def checked_in_value(raw) -> bool:
    """An import's `checked_in` cell: yes or no in the words a spreadsheet uses (any case);
    anything else is refused rather than taken as "no"."""
    value = (raw or "").strip().lower()
    if value in CHECKED_IN_YES:
        return True
    if value in CHECKED_IN_NO:
        return False
    shown = (raw or "").strip()
    shown = shown if len(shown) <= 20 else shown[:20] + "..."
    raise ValueError(f"checked_in is '{shown}': write yes, y, true, 1 or x (checked in), or no, "
                     "n, false, 0 or leave it empty (not yet).")


def import_csv(event_id: int, principal: Principal, text: str) -> dict:
    """Register a whole field from CSV text with a header row. Every row is checked first; a
    bad row is reported by its line number and nothing is stored.

    Players: a `name` column (and optionally `checked_in`: yes/no, see CHECKED_IN_YES/NO;
    any other value is an error on its line).
    Teams: `team`, `player1`, `player2` (and optionally `substitutes`, separated by ';', and
    `checked_in`).
    """
    event = lock_event(event_id)
    team_event = preset_of(event).team_entry
    if text.startswith("\ufeff"):
        text = text[1:]  # the byte-order mark spreadsheets put at the start
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise Problem(422, f"The file is not valid CSV: {exc}.", code="bad-csv") from None
    needed = ["team", "player1", "player2"] if team_event else ["name"]
    missing = [c for c in needed if c not in header]
    if missing:
        raise Problem(422, f"The first line must be a header naming the columns; missing: "
                      f"{', '.join(missing)}. Expected: {','.join(needed)}.", code="bad-csv")
    reader.fieldnames = header
    rows, lines = [], []
    try:
        for record in reader:
            if all(not (v or "").strip() for k, v in record.items() if k):
                continue
            lines.append(reader.line_num)
            rows.append(record)
    except csv.Error as exc:
        raise Problem(422, f"Line {reader.line_num}: {exc}. Nothing was stored.",
                      code="bad-csv") from None
    if not rows:
        raise Problem(422, "The file has a header but no rows.", code="bad-csv")
    if any(None in record for record in rows):
        bad = next(lines[i] for i, r in enumerate(rows) if None in r)
        raise Problem(422, f"Line {bad} has more cells than the header. Nothing was stored.",
                      code="bad-csv")

    here, row_errors = [], {}
    for index, record in enumerate(rows):
        try:
            here.append(checked_in_value(record.get("checked_in")))
        except ValueError as exc:
            here.append(False)
            row_errors[index] = [str(exc)]
    if team_event:
        parsed = [(r.get("team") or "", [r.get("player1") or "", r.get("player2") or ""],
                   [s for s in (r.get("substitutes") or "").split(";") if s.strip()],
                   here[i]) for i, r in enumerate(rows)]
        made = _insert_teams(event, parsed, principal, lines, row_errors)
        db.session.commit()
        return {"teams": len(made), "players": sum(2 + len(p[2]) for p in parsed)}
    made = _insert_players(event, [(r.get("name") or "", here[i]) for i, r in enumerate(rows)],
                           principal, lines, row_errors)
    db.session.commit()
    return {"teams": 0, "players": len(made)}


def update_player(event_id: int, principal: Principal, player_id: int, changes: dict) -> Player:
    """Check in, withdraw, come back, or fix a name; late arrivals are marked as such."""
    event = lock_event(event_id)
    player = get_player(event, player_id)
    before = {"name": player.name, "checked_in": player.checked_in,
              "withdrawn": player.withdrawn}
    if "name" in changes:
        name = _name_or_422(changes["name"])
        if name.casefold() != player.name.casefold() and \
                name.casefold() in _taken_names(event.id, Player):
            raise Problem(409, f"'{name}' is already registered.", code="duplicate-name")
        player.name = name
    if "checked_in" in changes:
        if changes["checked_in"] and not player.checked_in:
            player.checked_in_at = utcnow()
            player.late = _seated_yet(event)
        player.checked_in = changes["checked_in"]
    if "withdrawn" in changes:
        player.withdrawn = changes["withdrawn"]
    audit(event.id, principal, "update-player", "player", player.id, before=before,
          after={"name": player.name, "checked_in": player.checked_in,
                 "withdrawn": player.withdrawn})
    db.session.commit()
    return player


def update_team(event_id: int, principal: Principal, team_id: int, changes: dict) -> Team:
    event = lock_event(event_id)
    team = get_team(event, team_id)
    before = {"name": team.name, "withdrawn": team.withdrawn,
              "playoff_excluded": team.playoff_excluded}
    if "name" in changes:
        name = _name_or_422(changes["name"], "The team name")
        if name.casefold() != team.name.casefold() and \
                name.casefold() in _taken_names(event.id, Team):
            raise Problem(409, f"There is already a team called '{name}'.",
                          code="duplicate-name")
        team.name = name
    if "withdrawn" in changes:
        team.withdrawn = changes["withdrawn"]
    if "playoff_excluded" in changes:
        team.playoff_excluded = changes["playoff_excluded"]
    if "checked_in" in changes:
        for member in team.members:
            if member.role == "player":
                if changes["checked_in"] and not member.checked_in:
                    member.checked_in_at = utcnow()
                member.checked_in = changes["checked_in"]
    audit(event.id, principal, "update-team", "team", team.id, before=before,
          after={"name": team.name, "withdrawn": team.withdrawn,
                 "playoff_excluded": team.playoff_excluded})
    db.session.commit()
    return team


def add_substitute(event_id: int, principal: Principal, team_id: int, name: str) -> Player:
    event = lock_event(event_id)
    team = get_team(event, team_id)
    if preset_of(event).movement != "league-schedule":
        raise Problem(409, "Substitutes are only kept for league teams.", code="not-league")
    person = _name_or_422(name)
    if person.casefold() in _taken_names(event.id, Player):
        raise Problem(409, f"'{person}' is already registered in this event.",
                      code="duplicate-name")
    player = Player(event_id=event.id, name=person, position=_next_position(Player, event.id),
                    team_id=team.id, role="substitute")
    db.session.add(player)
    db.session.flush()
    audit(event.id, principal, "add-substitute", "player", player.id,
          after={"name": person, "team": team.name})
    db.session.commit()
    return player


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
