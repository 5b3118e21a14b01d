"""People's data (RULES.md section 9): erasing a person from a club, and a person's data as
one file.

Erasing replaces the person's name, and every name they played under, by "Former player N"
wherever the club's records hold text: their entries in every event, team names, notes, key
labels, sign-offs, door requests, the audit logs, kept finishes, prizes, draws and series
rows. Only names change: every result, total and place stays as it was, since they are kept
by ids. A name inside another person's longer name ("Will" in "Will Smith") is left alone.

The columns searched are found from the tables themselves (every text or JSON column of a
table that belongs to an event or to the club, less the technical ones named below), so a
column added later is searched too. Each column is searched in the database first (a plain
substring test), and only the rows that mention a name are read and rewritten.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from sqlalchemy import JSON, String, Table, Text, cast, func, or_, select, update

from ..core.common import jsonable
from ..core.db import db
from ..core.keys import Principal
from ..core.models import (
    Club,
    Event,
    Game,
    Hand,
    Match,
    Person,
    Player,
    Protest,
    Round,
    Seat,
    Series,
    Team,
)
from ..people.name_match import name_key
from ..people.people import club_audit, get_person, lock_club_people
from .profiles import profile

# Columns that hold codes, states, digests or settings, never a person's name.
TECHNICAL = frozenset({
    "slug", "bucket", "action", "entity", "entity_id", "digest", "hint", "code", "preset_key",
    "parameters", "status", "join_pin", "time_zone", "door_token", "registration_token",
    "name_key", "profile_stamp", "standings_stamp", "scoring", "role", "client", "stage",
    "winner", "tie_method", "tie_winner", "forfeited_by", "id", "fingerprint", "kind", "maker",
    "renege_by", "surrendered", "trump", "result", "side", "reason", "games", "bumps",
    "registration_divisions", "announced_by", "division",
})
PSEUDONYM = "Former player {n}"


# --- erasing ------------------------------------------------------------------------------

def _text_columns(table: Table) -> list:
    return [c for c in table.columns
            if isinstance(c.type, String | Text | JSON) and c.name not in TECHNICAL
            and not c.primary_key]


def _scope(table: Table, club_id: int, event_ids: list[int], series_ids: list[int]):
    """Which rows of `table` are the club's, or None for a table that is not the club's."""
    if table.name == "events":
        return table.c.club_id == club_id
    if "event_id" in table.c:
        return table.c.event_id.in_(event_ids)
    if table.name == "series_rows":
        return table.c.series_id.in_(series_ids)
    if "club_id" in table.c:
        return table.c.club_id == club_id
    return None


def _mentions(column, names: list[str]):
    """A database test for `column` holding any of `names` (as typed, lower case, or as JSON
    writes it with escapes)."""
    text = cast(column, Text)
    tests = []
    for name in names:
        tests.append(text.contains(name, autoescape=True))
        tests.append(func.lower(text).contains(name.lower(), autoescape=True))
        escaped = json.dumps(name)[1:-1]
        if escaped != name:
            tests.append(text.contains(escaped, autoescape=True))
    return or_(*tests)


class Replacer:
    """Replaces whole-name occurrences of `names` (any letter case) by `pseudonym`, leaving
    alone the longer names in `keep` that contain one of them."""

    def __init__(self, names: set[str], keep: set[str], pseudonym: str):
        self.names = {n.casefold() for n in names}
        self.pseudonym = pseudonym
        every = sorted(set(names) | set(keep), key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<!\w)(?:" + "|".join(re.escape(n) for n in every) + r")(?!\w)", re.IGNORECASE)

    def _one(self, found: re.Match) -> str:
        return self.pseudonym if found.group(0).casefold() in self.names else found.group(0)

    def __call__(self, value):
        if isinstance(value, str):
            return self.pattern.sub(self._one, value)
        if isinstance(value, list):
            return [self(v) for v in value]
        if isinstance(value, dict):
            return {self(k): self(v) for k, v in value.items()}
        return value


def erase_person(club_id: int, principal: Principal, person_id: int) -> Person:
    """Erase a person from the club's records (see the module); once only."""
    lock_club_people(club_id)
    person = get_person(club_id, person_id)
    if person.erased_at is not None:
        return person
    club = db.session.get(Club, club_id)
    club.erased_count += 1
    pseudonym = PSEUDONYM.format(n=club.erased_count)
    while db.session.scalar(select(Person.id).where(
            Person.club_id == club_id, Person.name_key == name_key(pseudonym))):
        club.erased_count += 1
        pseudonym = PSEUDONYM.format(n=club.erased_count)

    event_ids = list(db.session.scalars(select(Event.id).where(Event.club_id == club_id)))
    series_ids = list(db.session.scalars(select(Series.id).where(Series.club_id == club_id)))
    entries = db.session.execute(select(Player.id, Player.name).where(
        Player.person_id == person.id)).all()
    names = {person.name} | {name for _, name in entries}
    # Other people's names that contain one of theirs are kept whole.
    others = set(db.session.scalars(select(Player.name).where(
        Player.event_id.in_(event_ids), Player.person_id.is_distinct_from(person.id))))
    others |= set(db.session.scalars(select(Person.name).where(
        Person.club_id == club_id, Person.id != person.id)))
    keep = {o for o in others if o.casefold() not in {n.casefold() for n in names}
            and any(n.casefold() in o.casefold() for n in names)}
    replace = Replacer(names, keep, pseudonym)

    db.session.execute(update(Player).where(Player.person_id == person.id)
                       .values(name=pseudonym))
    person.name, person.name_key = pseudonym, name_key(pseudonym)
    person.erased_at = datetime.now(UTC)
    db.session.flush()
    for table in db.metadata.sorted_tables:
        where = _scope(table, club_id, event_ids, series_ids)
        if where is None:
            continue
        keys = list(table.primary_key.columns)
        for column in _text_columns(table):
            rows = db.session.execute(select(*keys, column).where(
                where, column.is_not(None), _mentions(column, sorted(names)))).all()
            for row in rows:
                value = row[-1]
                changed = replace(value)
                if changed != value:
                    db.session.execute(update(table).where(
                        *(k == row[i] for i, k in enumerate(keys))).values(
                        {column.name: changed}))
    # What is kept from names is read afresh: every profile (partners are named), the
    # series' tables and every board of the club's events (their revisions move).
    db.session.execute(update(Person).where(Person.club_id == club_id)
                       .values(profile_stamp=None, profile_kept=None))
    db.session.execute(update(Series).where(Series.club_id == club_id)
                       .values(revision=Series.revision + 1, standings_stamp=None))
    db.session.execute(update(Event).where(Event.club_id == club_id)
                       .values(revision=Event.revision + 1))
    club.revision += 1
    club_audit(club_id, principal, "erase", "person", person.id, after={"name": pseudonym})
    db.session.commit()
    return person


# --- a person's data as a file ------------------------------------------------------------

def person_data(club_id: int, person_id: int) -> dict:
    """Everything the club keeps about a person: their record, their entries in every event
    (place and points as the event's results give them), every hand they sat in and the
    league protests about them, their team or a game they played."""
    person = get_person(club_id, person_id)
    club = db.session.get(Club, club_id)
    entries = db.session.execute(
        select(Player, Event).join(Event, Event.id == Player.event_id)
        .where(Player.person_id == person.id).order_by(Event.night_date, Event.id)).all()
    players = {p.id: (p, e) for p, e in entries}
    nights = [{"event_id": e.id, "event": e.name, "code": e.code, "date": e.night_date,
               "format": e.preset_key, "entered_as": p.name, "role": p.role,
               "checked_in": p.checked_in, "withdrawn": p.withdrawn,
               "disqualified": p.disqualified}
              for p, e in entries]
    seats = db.session.execute(
        select(Seat.match_id, Seat.seat, Seat.player_id).where(
            Seat.player_id.in_(list(players)))).all()
    at_match = {m: (seat, player) for m, seat, player in seats}
    hands = []
    if at_match:
        rows = db.session.execute(
            select(Hand, Game.number, Match.id, Match.table, Round.number)
            .join(Game, Game.id == Hand.game_id).join(Match, Match.id == Game.match_id)
            .join(Round, Round.id == Match.round_id)
            .where(Match.id.in_(list(at_match)))
            .order_by(Hand.event_id, Round.number, Match.table, Game.number, Hand.number)).all()
        for hand, game_number, match_id, table, round_number in rows:
            seat, player_id = at_match[match_id]
            side = "A" if seat in (1, 3) else "B"
            event = players[player_id][1]
            hands.append({
                "event_id": event.id, "event": event.name, "round": round_number,
                "table": table, "game": game_number, "hand": hand.number, "seat": seat,
                "side": side, "kind": hand.kind, "maker": hand.maker, "tricks": hand.tricks,
                "alone": hand.alone, "loner_seat": hand.loner_seat, "trump": hand.trump,
                "renege_by": hand.renege_by, "renege_upheld": hand.renege_upheld,
                "points_for_side": hand.points_a if side == "A" else hand.points_b,
                "points_against": hand.points_b if side == "A" else hand.points_a,
                "outcome": hand.outcome, "note": hand.note, "entered_at": hand.created_at})
    return jsonable({
        "format": "euchre-person-data", "version": 1,
        "made_at": datetime.now(UTC),
        "club": {"id": club.id, "name": club.name},
        "person": {"id": person.id, "name": person.name, "private": person.private,
                   "erased": person.erased_at is not None, "since": person.created_at},
        # Places, totals and statistics as the profile page shows them.
        "profile": profile(club_id, person.id, True),
        "nights": nights, "hands": hands,
        "protests": _protests(players, list(at_match)),
    })


def _protests(players: dict, matches: list[int]) -> list[dict]:
    """League protests (RULES.md section 6) that concern the person: about them, lodged by or
    against a team they played on, or about a game they sat in; with how each was ruled."""
    if not players:
        return []
    teams = {p.team_id for p, _event in players.values() if p.team_id is not None}
    games = select(Game.id).where(Game.match_id.in_(matches)) if matches else None
    concern = [Protest.player_id.in_(list(players))]
    if teams:
        concern += [Protest.team_id.in_(teams), Protest.against_team_id.in_(teams)]
    if games is not None:
        concern.append(Protest.game_id.in_(games))
    rows = db.session.execute(select(Protest).where(or_(*concern))
                              .order_by(Protest.event_id, Protest.id)).scalars()
    names = {}

    def name(model, row_id):
        if (model, row_id) not in names:
            row = db.session.get(model, row_id)
            names[model, row_id] = row.name if row is not None else None
        return names[model, row_id]

    events = {e.id: e for _p, e in players.values()}
    return [{"event_id": p.event_id,
             "event": events[p.event_id].name if p.event_id in events else None,
             "game_id": p.game_id, "lodged_by_team": name(Team, p.team_id),
             "against_team": name(Team, p.against_team_id),
             "about_player": name(Player, p.player_id),
             "about_you": p.player_id in players, "grounds": p.grounds,
             "lodged_by": p.lodged_by, "status": p.status, "lodged_at": p.lodged_at,
             "ruled_at": p.ruled_at, "ruling_reason": p.ruling_reason} for p in rows]
