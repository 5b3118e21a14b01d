"""An event, a league season or a club's year as one portable document (format.py).

Read with plain column selects, a table at a time for every night at once (one query per
section, not per night), so a hundred-team league season or a club's year of nights is a
dozen queries."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from sqlalchemy import Date, select

from ..club.clubs import get_club
from ..core.common import get_event
from ..core.db import db
from ..core.models import Event, Person, Series, SeriesEvent, UTCDateTime, utcnow
from .format import CLUB, EVENT, FORMAT, NIGHT, PEOPLE, SERIES, VERSION, Section


def plain(value):
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def _rows(section: Section, where, order, owner=None) -> list[dict]:
    """The section's rows as plain values; `owner`, a column read beside them as "_owner"
    (the night a row is grouped under, when the section itself leaves it out)."""
    columns = section.columns
    names = [c.name for c in columns] + (["_owner"] if owner is not None else [])
    extra = [owner.label("_owner")] if owner is not None else []
    query = select(*columns, *extra).where(where).order_by(*order)
    # Only dates and times need changing (to ISO text): the rest is JSON as read.
    temporal = [c.name for c in columns if isinstance(c.type, UTCDateTime | Date)]
    rows = []
    for row in db.session.connection().execute(query):
        values = dict(zip(names, row, strict=True))
        for name in temporal:
            if values[name] is not None:
                values[name] = values[name].isoformat()
        rows.append(values)
    return rows


def _by_event(rows: list[dict], event_of) -> dict[int, list[dict]]:
    grouped: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[event_of(row)].append(row)
    return grouped


def _nights(event_ids: list[int], keep_people: bool) -> list[dict]:
    """Every night's sections, read a section at a time for all the nights."""
    events = _rows(EVENT, EVENT.table.c.id.in_(event_ids),
                   [EVENT.table.c.night_date, EVENT.table.c.id])
    nights = {e["id"]: {"event": e} for e in events}
    match_event: dict[int, int] = {}
    for section in NIGHT:
        table = section.table
        if section.name == "seats":
            rows = _rows(section, table.c.match_id.in_(list(match_event)),
                         [table.c.match_id, table.c.seat])
            for row in rows:
                row["_owner"] = match_event[row["match_id"]]
        else:
            order = [table.c[c.name] for c in table.primary_key.columns]
            rows = _rows(section, table.c.event_id.in_(event_ids), order,
                         owner=table.c.event_id)
            if section.name == "matches":
                match_event.update((r["id"], r["_owner"]) for r in rows)
        grouped = _by_event(rows, lambda r: r.pop("_owner"))
        for event_id in nights:
            nights[event_id][section.name] = grouped.get(event_id, [])
    if not keep_people:
        for night in nights.values():
            for player in night["players"]:
                player["person_id"] = None
    return [nights[e["id"]] for e in events]


def _play_order(night: dict) -> dict:
    """The night's games in the order they were played (round, table, game): what a rating
    reads, hand by hand (hands are in `hands`, by game and number)."""
    rounds = {r["id"]: r["number"] for r in night["rounds"]}
    matches = {m["id"]: (rounds[m["round_id"]], m["table"]) for m in night["matches"]}
    games = sorted(night["games"], key=lambda g: (*matches[g["match_id"]], g["number"]))
    return {"night": night["event"]["id"], "games": [g["id"] for g in games]}


def _document(scope: str, club: dict | None, people: list, series: list,
              nights: list[dict]) -> dict:
    return {"format": FORMAT, "version": VERSION, "scope": scope,
            "exported_at": utcnow().isoformat(timespec="seconds"),
            "club": club, "people": people, "series": series, "nights": nights,
            "ratings_inputs": [_play_order(n) for n in nights]}


def export_event(event_id: int) -> dict:
    """One event (a night, or a whole league season) as a portable document."""
    get_event(event_id)
    return _document("event", None, [], [], _nights([event_id], keep_people=False))


def export_club(club_id: int) -> dict:
    """A club's year (every night it holds, archived ones too), its people and its series."""
    club = get_club(club_id)
    club_row = {c.name: plain(getattr(club, c.name)) for c in CLUB.columns}
    people = _rows(PEOPLE, Person.club_id == club_id, [Person.id])
    event_ids = list(db.session.execute(
        select(Event.id).where(Event.club_id == club_id)).scalars())
    series = _rows(SERIES, Series.club_id == club_id, [Series.id])
    members = defaultdict(list)
    for series_id, event_id in db.session.execute(
            select(SeriesEvent.series_id, SeriesEvent.event_id)
            .join(Series, Series.id == SeriesEvent.series_id)
            .where(Series.club_id == club_id).order_by(SeriesEvent.event_id)):
        members[series_id].append(event_id)
    for row in series:
        row["nights"] = members[row["id"]]
    return _document("club", club_row, people, series, _nights(event_ids, keep_people=True))

