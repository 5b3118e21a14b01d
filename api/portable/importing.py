"""A portable document read back: a new club (with its people, series and nights) or a new
event, in one transaction, with every row's id moved past the ids already in use (so into an
empty instance the ids stay as they were), the ids inside JSON columns moved alike
(remap.py), new secrets (keys, join PINs) made and shown once. A file that fails its checks
stores nothing."""

from __future__ import annotations

import secrets

from flask import current_app
from sqlalchemy import func, insert, select, text
from sqlalchemy.exc import IntegrityError

from ..core import limits
from ..core.caching import forget_everything
from ..core.common import preset_of
from ..core.db import db
from ..core.errors import Invalid
from ..core.keys import ORGANIZER, issue_club_key, issue_key
from ..core.models import Club, Event, SeriesEvent
from ..night.events import CODE_ALPHABET
from ..rules.errors import RuleError
from .checks import check_document
from .format import NIGHT
from .remap import move_event_json
from .verify import check_play

# Tables whose rows get new integer ids (seats and hands are keyed by what holds them).
MOVED = ("people", "series", "events", "teams", "players", "rounds", "matches", "games",
         "results", "protests", "rulings", "forfeits")
BATCH = 2000


def _offsets() -> dict[str, int]:
    """Each table's largest id now: a row's id in the file plus it is free."""
    tables = db.metadata.tables
    return {name: db.session.execute(select(func.coalesce(func.max(tables[name].c.id), 0)))
            .scalar_one() for name in MOVED}


def free_code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if code not in taken and db.session.execute(
                select(Event.id).where(Event.code == code)).first() is None:
            taken.add(code)
            return code


def _insert(table_name: str, rows: list[dict]) -> None:
    table = db.metadata.tables[table_name]
    for start in range(0, len(rows), BATCH):
        db.session.execute(insert(table), rows[start:start + BATCH])


def _team_entry(event: dict, where: str) -> bool:
    try:
        return preset_of(Event(preset_key=event["preset_key"],
                               parameters=event["parameters"])).team_entry
    except (RuleError, KeyError, TypeError, ValueError, AttributeError):
        raise Invalid(f"The file cannot be imported: {where}.parameters is not a format this "
                      "version reads.", code="bad-portable-file",
                      errors={f"{where}.parameters": ["not a readable format"]}) from None


def _mover(old_ids, offset: int) -> dict:
    return {old: old + offset for old in old_ids}


def _store_night(night: dict, where: str, off: dict, club_id: int | None, people: dict,
                 codes: set) -> int:
    event = dict(night["event"])
    new = {s.name: _mover((r["id"] for r in night[s.name]), off[s.table.name])
           for s in NIGHT if s.name not in ("seats", "hands")}
    team_entry = _team_entry(event, f"{where}.event")
    entrants = new["teams"] if team_entry else new["players"]
    move_event_json(event, entrants.__getitem__, new["teams"].__getitem__,
                    new["players"].__getitem__, new["matches"].__getitem__, f"{where}.event")
    event_id = event["id"] + off["events"]
    taken = db.session.execute(select(Event.id).where(Event.code == event["code"])).first()
    if taken is not None or event["code"] in codes:
        event["code"] = free_code(codes)
    codes.add(event["code"])
    event.update(id=event_id, club_id=club_id, join_pin=f"{secrets.randbelow(10**6):06d}",
                 registration_token=(secrets.token_urlsafe(12)
                                     if event.get("registration_closes_at") else None))
    _insert("events", [event])

    def moved(name: str, row: dict, **columns) -> dict:
        row = dict(row)
        if "id" in row and name in new:
            row["id"] = new[name][row["id"]]
        for column, mapping in columns.items():
            if row.get(column) is not None:
                try:
                    row[column] = mapping[row[column]]
                except KeyError:
                    raise Invalid(f"The file cannot be imported: {where}.{name}'s {column} "
                                  f"{row[column]} names no row in this night.",
                                  code="bad-portable-file",
                                  errors={f"{where}.{name}": [f"{column} {row[column]}"]}
                                  ) from None
        return row

    plan = {
        "teams": {},
        "players": {"team_id": new["teams"], "person_id": people},
        "rounds": {},
        "matches": {"round_id": new["rounds"], "team_a_id": new["teams"],
                    "team_b_id": new["teams"]},
        "seats": {"match_id": new["matches"], "player_id": new["players"]},
        "games": {"match_id": new["matches"]},
        "hands": {"game_id": new["games"]},
        "results": {"game_id": new["games"], "entrant_id": entrants,
                    "partner_id": new["players"],
                    "opponent_id": new["teams"] if team_entry else new["players"]},
        "protests": {"game_id": new["games"], "team_id": new["teams"],
                     "against_team_id": new["teams"], "player_id": new["players"]},
        "rulings": {"game_id": new["games"], "protest_id": new["protests"]},
        "forfeits": {"match_id": new["matches"], "team_id": new["teams"]},
    }
    for section in NIGHT:
        rows = [moved(section.name, r, **plan[section.name]) for r in night[section.name]]
        if "event_id" in section.table.c:
            for row in rows:
                row["event_id"] = event_id
        if section.name in ("hands", "rulings"):
            for row in rows:
                row["created_by"] = None
        if rows:
            _insert(section.table.name, rows)
    db.session.flush()
    check_play(event_id, night, where, new["games"])
    return event_id


def _fix_sequences() -> None:
    """PostgreSQL hands out ids from sequences, which rows stored with their own ids do not
    move: each is set past the largest id now."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    for name in MOVED:
        db.session.execute(text(
            f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
            f"(SELECT coalesce(max(id), 0) + 1 FROM {name}), false)"))


def _slug(slug: str | None) -> str | None:
    if slug and db.session.execute(select(Club.id).where(Club.slug == slug)).first() is None:
        return slug
    return None


def import_document(doc, client: str | None = None, slug: str | None = None) -> dict:
    """Store the document as a new club or a new event; returns what was made and its key
    (shown once). `client` counts against the creation limit (None: an operator's command)."""
    checked = check_document(doc)
    if client is not None:
        config = current_app.config
        limits.take(f"create:{client}", config["EVENT_CREATE_LIMIT"],
                    config["EVENT_CREATE_WINDOW_SECONDS"],
                    "Too many events and clubs were made from this network lately.")
    off = _offsets()
    club_id = None
    people: dict = {}
    made: dict = {"scope": checked["scope"]}
    try:
        if checked["scope"] == "club":
            fields = checked["club"]
            club = Club(**{k: v for k, v in fields.items()}, slug=_slug(slug))
            db.session.add(club)
            db.session.flush()
            club_id = club.id
            _, made["key"] = issue_club_key(club_id, label="club")
            people = _mover((p["id"] for p in checked["people"]), off["people"])
            _insert("people", [{**p, "id": people[p["id"]], "club_id": club_id}
                               for p in checked["people"]])
            made.update(club_id=club_id, slug=club.slug)
        codes: set[str] = set()
        events = {}
        for n, night in enumerate(checked["nights"]):
            events[night["event"]["id"]] = _store_night(night, f"nights[{n}]", off, club_id,
                                                        people, codes)
        made["event_ids"] = list(events.values())
        if checked["scope"] == "event":
            made["event_id"] = made["event_ids"][0]
            _, made["key"] = issue_key(made["event_id"], ORGANIZER, label="organizer")
        for row in checked["series"]:
            members = row.pop("nights")
            series_id = row["id"] + off["series"]
            _insert("series", [{**row, "id": series_id, "club_id": club_id}])
            _insert(SeriesEvent.__tablename__, [{"series_id": series_id, "event_id": events[e]}
                                                for e in members])
        _fix_sequences()
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise Invalid("The file cannot be imported: it contradicts itself (two rows where "
                      f"one is allowed): {str(error.orig).splitlines()[0][:200]}",
                      code="bad-portable-file") from None
    except BaseException:
        db.session.rollback()
        raise
    forget_everything()
    return made



