"""Registering a whole field from a CSV file.

A club night's file may hold 400 names to be matched with a club of 20,000 people, and on
SQLite a write holds the one lock every event shares. So the file is read, every row checked
(names cleaned, names taken, room left, check-in values) and every name matched with the club's
people in a read that takes no write lock, and the write holds the lock for the inserts alone:
new people, players, their audit entries, one statement each.

Inside the write only what may have changed since the read is looked at again: the event's
revision (every write to an event moves it; if it moved, the rows are checked again against
the event as it is now, once, inside the write) and the club's people (people added since are
matched; a change to the registry reads it again).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import insert, select

from ..core.common import audit_many, lock_event, preset_of
from ..core.db import db, reading_only
from ..core.errors import Invalid
from ..core.keys import Principal
from ..core.models import Event, Player, utcnow
from ..people.people import (
    Prepared,
    brought_up_to_date,
    choose_people,
    link_players,
    read_people,
    store_people,
)
from . import door
from .entrants import (
    check_room,
    insert_teams,
    player_values,
    take_registrations,
    team_players,
)

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


@dataclass
class _File:
    header: list[str]
    rows: list[dict]
    lines: list[int]  # each row's line in the file


def _read_file(text: str) -> _File:
    if text.startswith("\ufeff"):
        text = text[1:]  # the byte-order mark spreadsheets put at the start
    cap = current_app.config["IMPORT_ROWS"]
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise Invalid(f"The file is not valid CSV: {exc}.", code="bad-csv") from None
    reader.fieldnames = header
    rows, lines = [], []
    try:
        for record in reader:
            if all(not (v or "").strip() for k, v in record.items() if k):
                continue
            lines.append(reader.line_num)
            rows.append(record)
            if len(rows) > cap:
                raise Invalid(f"The file has more than {cap:,} rows; one import takes at most "
                              f"{cap:,}. Split it into smaller files.", code="too-many-rows")
    except csv.Error as exc:  # raised before the reader counts the line it could not read
        raise Invalid(f"Line {reader.line_num + 1}: {exc}. Nothing was stored.",
                      code="bad-csv") from None
    return _File(header, rows, lines)


def _check_cells(event: Event, file: _File) -> tuple[list[bool], dict[int, list[str]]]:
    """The header and each row's check-in cell, against the event (its format, its door):
    whether each row is checked in, and the problems found (by row)."""
    needed = ["team", "player1", "player2"] if preset_of(event).team_entry else ["name"]
    missing = [c for c in needed if c not in file.header]
    if missing:
        raise Invalid(f"The first line must be a header naming the columns; missing: "
                      f"{', '.join(missing)}. Expected: {','.join(needed)}.", code="bad-csv")
    if not file.rows:
        raise Invalid("The file has a header but no rows.", code="bad-csv")
    if any(None in record for record in file.rows):
        bad = next(file.lines[i] for i, r in enumerate(file.rows) if None in r)
        raise Invalid(f"Line {bad} has more cells than the header. Nothing was stored.",
                      code="bad-csv")
    here, row_errors = [], {}
    closed = door.closed_at(event)
    for index, record in enumerate(file.rows):
        try:
            here.append(checked_in_value(record.get("checked_in")))
        except ValueError as exc:
            here.append(False)
            row_errors[index] = [str(exc)]
            continue
        if here[-1] and closed:
            row_errors[index] = [f"checked_in is yes, but check-in closed at {closed}: leave "
                                 "it empty, and check them in one by one as exceptions."]
    return here, row_errors


@dataclass
class _Plan:
    """A file's players as they will be stored, checked against the event at `revision`
    (its door `closed` or not), and who each is in the event's club (`chosen`: a person's
    id, or None for a new person; no club, no `chosen`)."""

    revision: int
    closed: str | None
    players: list[dict]
    chosen: dict[str, int | None] | None


def _plan(event: Event, file: _File, decisions: dict | None,
          people: Prepared | None) -> _Plan:
    """Every check a file of players needs, against the event as this transaction sees it;
    raises the first refusal (nothing is stored)."""
    here, row_errors = _check_cells(event, file)
    check_room(event, len(file.rows))
    players = player_values(event, [(r.get("name") or "", here[i])
                                    for i, r in enumerate(file.rows)],
                            file.lines, row_errors)
    chosen = None
    if people is not None:
        chosen = choose_people(people, [p["name"] for p in players], decisions)
    return _Plan(event.revision, door.closed_at(event), players, chosen)


def _names(file: _File, team_event: bool) -> list[str]:
    columns = ("player1", "player2") if team_event else ("name",)
    return [r.get(c) or "" for r in file.rows for c in columns if r.get(c)]


def _prepare(event_id: int, file: _File,
             decisions: dict | None) -> tuple[Prepared | None, _Plan | None]:
    """In a read (no write lock): the club's people, and for a file of players the plan.
    No plan for an event the write will refuse anyway (none, or finished: lock_event says
    so), nor for teams (checked inside the write)."""
    with reading_only():
        try:
            event = db.session.get(Event, event_id)
            if event is None or event.status == "finished":
                return None, None
            team_event = preset_of(event).team_entry
            people = None if event.club_id is None else \
                read_people(event.club_id, _names(file, team_event))
            return people, None if team_event else _plan(event, file, decisions, people)
        finally:
            db.session.rollback()  # end the read, so the write begins afresh


def import_csv(event_id: int, principal: Principal, text: str, client: str = "",
               people: dict | None = None) -> dict:
    """Register a whole field from CSV text with a header row. Every row is checked first; a
    bad row is reported by its line number and nothing is stored.

    Players: a `name` column (and optionally `checked_in`: yes/no, see CHECKED_IN_YES/NO;
    any other value is an error on its line).
    Teams: `team`, `player1`, `player2` (and optionally `substitutes`, separated by ';', and
    `checked_in`).
    """
    # The key check may have begun a transaction (a club key reads its event's club): it
    # wrote nothing, and ends here, so no lock is held while the file is read and checked.
    db.session.rollback()
    file = _read_file(text)
    prepared, plan = _prepare(event_id, file, people)
    event = lock_event(event_id)
    if prepared is None and event.club_id is not None:  # read before it was a club's
        prepared = read_people(event.club_id, _names(file, preset_of(event).team_entry))
    if preset_of(event).team_entry:
        return _import_teams(event, file, principal, client, people, prepared)
    # Only what may have changed since the read is looked at again (see the module).
    people_changed = prepared is not None and brought_up_to_date(prepared)
    if plan is None or event.revision != plan.revision + 1 or \
            door.closed_at(event) != plan.closed:
        plan = _plan(event, file, people, prepared)  # checked again, as the event is now
    elif people_changed:
        plan.chosen = choose_people(prepared, [p["name"] for p in plan.players], people)
    take_registrations(len(file.rows), client)
    players = plan.players
    if prepared is not None:
        ids = store_people(prepared.club_id, plan.chosen)
        for values in players:
            values["person_id"] = ids[values["name"]]
    now = utcnow()
    for values in players:
        values["checked_in_at"] = now if values["checked_in"] else None
    # One statement for the players (the table's, without the ORM's bookkeeping a row), one
    # to read their ids back by position (the event's own, taken under its lock), one for
    # their audit entries.
    db.session.execute(insert(Player.__table__), players)
    made = dict(db.session.execute(select(Player.position, Player.id).where(
        Player.event_id == event.id, Player.position >= players[0]["position"])).all())
    audit_many(event.id, principal, "add-player", "player",
               [(made[p["position"]], {"name": p["name"]}) for p in players])
    db.session.commit()
    return {"teams": 0, "players": len(players)}


def _import_teams(event: Event, file: _File, principal: Principal, client: str,
                  decisions: dict | None, prepared: Prepared | None) -> dict:
    """A file of teams, checked and stored inside the write (the club's people were read
    before it)."""
    here, row_errors = _check_cells(event, file)
    parsed = [(r.get("team") or "", [r.get("player1") or "", r.get("player2") or ""],
               [s for s in (r.get("substitutes") or "").split(";") if s.strip()],
               here[i]) for i, r in enumerate(file.rows)]
    made = insert_teams(event, parsed, principal, file.lines, row_errors, client)
    link_players(event, team_players(made), decisions, prepared)
    db.session.commit()
    return {"teams": len(made), "players": sum(2 + len(p[2]) for p in parsed)}
