"""Series: a club's events scored together by a rule that is data (api/rules/series.py),
from each event's finishes (club/finishes.py)."""

from __future__ import annotations

import hashlib

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import load_only

from ..core.caching import Kept
from ..core.common import keep_quietly
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Event, Person, Series, SeriesEvent, SeriesRow
from ..people.people import club_audit
from ..rules import series as rseries
from .finishes import person_finishes


def get_series(club_id: int, series_id: int) -> Series:
    series = db.session.get(Series, series_id)
    if series is None or series.club_id != club_id:
        raise not_found(f"Series {series_id}")
    return series


def _rule(scoring: dict, best_of, min_events) -> rseries.Rule:
    try:
        return rseries.check_rule(scoring.get("method", rseries.TOTAL), scoring.get("points"),
                                  best_of, min_events)
    except rseries.SeriesRuleError as exc:
        raise Invalid(str(exc), code="bad-scoring") from None


def _scoring(rule: rseries.Rule) -> dict:
    if rule.method == rseries.PLACES:
        return {"method": rule.method, "points": [int(p) if p == int(p) else p
                                                  for p in rule.points]}
    return {"method": rule.method}


def create_series(club_id: int, principal: Principal, body: dict) -> Series:
    rule = _rule(body.get("scoring") or {}, body.get("best_of"), body.get("min_events"))
    series = Series(club_id=club_id, name=body["name"].strip(), scoring=_scoring(rule),
                    best_of=rule.best_of, min_events=rule.min_events, revision=1)
    db.session.add(series)
    db.session.flush()
    _set_events(series, body.get("event_ids") or [])
    club_audit(club_id, principal, "create-series", "series", series.id,
               after=series_view(series))
    db.session.commit()
    return series


def update_series(club_id: int, principal: Principal, series_id: int, body: dict) -> Series:
    series = get_series(club_id, series_id)
    before = series_view(series)
    if "name" in body:
        series.name = body["name"].strip()
    scoring = body.get("scoring", series.scoring)
    rule = _rule(scoring, body.get("best_of", series.best_of),
                 body.get("min_events", series.min_events))
    series.scoring, series.best_of, series.min_events = _scoring(rule), rule.best_of, \
        rule.min_events
    if "event_ids" in body:
        _set_events(series, body["event_ids"])
    series.revision += 1
    club_audit(club_id, principal, "update-series", "series", series.id, before=before,
               after=series_view(series))
    db.session.commit()
    return series


def _set_events(series: Series, event_ids: list[int]) -> None:
    wanted = list(dict.fromkeys(event_ids))
    found = {e.id: e for e in db.session.execute(
        select(Event).where(Event.id.in_(wanted))).scalars()} if wanted else {}
    strangers = [i for i in wanted if i not in found or found[i].club_id != series.club_id]
    if strangers:
        raise Invalid(f"Event{'s' if len(strangers) > 1 else ''} "
                      f"{', '.join(map(str, strangers))} {'are' if len(strangers) > 1 else 'is'}"
                      " not this club's: a series holds only its club's events.",
                      code="not-club-event")
    db.session.execute(SeriesEvent.__table__.delete().where(
        SeriesEvent.series_id == series.id))
    db.session.add_all(SeriesEvent(series_id=series.id, event_id=i) for i in wanted)
    db.session.flush()


def add_event(club_id: int, principal: Principal, series_id: int, event_id: int) -> Series:
    series = get_series(club_id, series_id)
    ids = event_ids(series, archived=True)
    if event_id in ids:
        raise Conflict("That event is in the series already.", code="already-in-series")
    return update_series(club_id, principal, series_id, {"event_ids": [*ids, event_id]})


def remove_event(club_id: int, principal: Principal, series_id: int, event_id: int) -> Series:
    series = get_series(club_id, series_id)
    ids = event_ids(series, archived=True)
    if event_id not in ids:
        raise not_found(f"Event {event_id} in this series")
    return update_series(club_id, principal, series_id,
                         {"event_ids": [i for i in ids if i != event_id]})


# A series reads its nights in the order they were played (their own dates), and leaves out
# the nights the club set aside (archived: they stay members, and count again if brought back).
NIGHT_ORDER = (Event.night_date, Event.created_at, Event.id)
SHOWN = Event.archived_at.is_(None)


def event_ids(series: Series, archived: bool = False) -> list[int]:
    """The series' events by date played; with `archived`, those set aside too."""
    query = (select(SeriesEvent.event_id).join(Event, Event.id == SeriesEvent.event_id)
             .where(SeriesEvent.series_id == series.id))
    return list(db.session.execute(
        (query if archived else query.where(SHOWN)).order_by(*NIGHT_ORDER)).scalars())


def series_view(series: Series) -> dict:
    return {"id": series.id, "club_id": series.club_id, "name": series.name,
            "scoring": series.scoring, "best_of": series.best_of,
            "min_events": series.min_events, "event_ids": event_ids(series)}


def club_series(club_id: int) -> list[Series]:
    return list(db.session.execute(select(Series).where(Series.club_id == club_id)
                                   .order_by(Series.id)).scalars())


def series_revision(series: Series) -> str:
    """What the standings depend on: the series' own revision and each event's."""
    # Each event's code too: ids and revisions alone repeat across databases (the tests run
    # SQLite and PostgreSQL in one process), the random codes do not.
    revisions = db.session.execute(
        select(Event.id, Event.code, Event.revision)
        .join(SeriesEvent, SeriesEvent.event_id == Event.id)
        .where(SeriesEvent.series_id == series.id, SHOWN).order_by(Event.id)).all()
    return f"{series.id}.{series.revision}." + ".".join(f"{i}{c}-{r}" for i, c, r in revisions)


# Whole tables by series, and pages of kept rows by (series, offset, limit, viewer), each
# stamped with series_revision (the series' and its events' revisions).
TABLES_KEPT = 64
_TABLES = Kept(TABLES_KEPT)
PAGE = 100  # rows a read answers unless it asks for more (a club of thousands is megabytes)
MAX_PAGE = 1000


def forget_tables() -> None:
    _TABLES.clear()


def standings(series: Series, viewer_is_club: bool, stamp: str | None = None,
              offset: int = 0, limit: int | None = PAGE) -> dict:
    """The series table: place, person, events played, counted results, total, and each
    event's result; rows `offset` to `offset + limit` (all with limit None). A private
    person shows as a name only to the public (no breakdown). Once all its events are
    finished the rows are kept in `series_rows` and a page is read from there; otherwise the
    whole table is kept per process for `stamp` (series_revision: the series' and its
    events' revisions)."""
    stamp = stamp or series_revision(series)
    table = _TABLES.get(series.id, stamp)
    if table is None:
        digest = hashlib.sha256(stamp.encode()).hexdigest()
        if series.standings_stamp == digest:
            # A page of the kept rows, kept per process too: the stamp changes with anything
            # the page shows (a rename bumps the series' revision).
            key = (series.id, offset, limit, viewer_is_club)
            page = _TABLES.get(key, stamp)
            if page is None:
                page = _kept_page(series, _head(series)[0], viewer_is_club, offset, limit)
                _TABLES.put(key, page, stamp)
            return page
        head, events = _head(series)
        table = _whole_table(series, head, events, digest)
        _TABLES.put(series.id, table, stamp)
    end = None if limit is None else offset + limit
    rows = [_row(row, person, viewer_is_club) for row, person in table["rows"][offset:end]]
    return {**table["head"], "rows": rows, "total_rows": len(table["rows"]), "offset": offset}


def keep_after_finish(event_id: int) -> None:
    """A night was marked finished: keep the standings of every series it is in whose nights
    are now all finished, so the first read after a year's last night is as fast as any
    (computing a big club's year takes a second or two: the organizer's tap pays it once,
    not the first person to open the series)."""
    found = db.session.execute(
        select(Series).join(SeriesEvent, SeriesEvent.series_id == Series.id)
        .where(SeriesEvent.event_id == event_id)).scalars().all()
    for series in found:
        statuses = db.session.execute(
            select(Event.status).join(SeriesEvent, SeriesEvent.event_id == Event.id)
            .where(SeriesEvent.series_id == series.id, SHOWN)).scalars().all()
        if statuses and all(status == "finished" for status in statuses):
            standings(series, viewer_is_club=True, limit=0)


def _row(row: dict, person, viewer_is_club: bool) -> dict:
    _, name, private = person
    hidden = private and not viewer_is_club
    return {**row, "name": name, "private": private, "results": [] if hidden else row["results"]}


def _plain(row: rseries.Standing) -> dict:
    """A standings row without its person's name and privacy (added on reading: they change
    without the results changing)."""
    return {"place": row.place, "person_id": row.person, "events_played": row.events_played,
            "counted": len(row.counting), "total": row.total, "ranked": row.ranked,
            "results": [{"event_id": r.event, "place": r.place, "event_total": r.total,
                         "points": r.points, "counted": r.counted} for r in row.results]}


ROW_COLUMNS = ("person_id", "place", "events_played", "counted", "total", "ranked", "results")


def _head(series: Series) -> tuple[dict, list[Event]]:
    """The series and its events, as the standings begin."""
    events = list(db.session.execute(
        select(Event).join(SeriesEvent, SeriesEvent.event_id == Event.id)
        .options(load_only(Event.id, Event.name, Event.code, Event.status, Event.created_at,
                           Event.night_date, Event.revision))
        .where(SeriesEvent.series_id == series.id, SHOWN).order_by(*NIGHT_ORDER))
        .scalars())
    return {**series_view(series), "events": [
        {"id": e.id, "name": e.name, "code": e.code, "status": e.status, "date": e.night_date}
        for e in events]}, events


def _kept_page(series: Series, head: dict, viewer_is_club: bool, offset: int,
               limit: int | None) -> dict:
    """A page of the kept rows, with their people's names (a person no longer in the club's
    registry has no row, as in a computed table)."""
    kept = (select(*(SeriesRow.__table__.c[name] for name in ROW_COLUMNS), Person.name,
                   Person.private)
            .join(Person, Person.id == SeriesRow.person_id)
            .where(SeriesRow.series_id == series.id))
    total = db.session.execute(select(func.count()).select_from(kept.subquery())).scalar()
    found = db.session.connection().execute(
        kept.order_by(SeriesRow.position).offset(offset).limit(limit)).all()
    rows = [_row(dict(zip(ROW_COLUMNS, r[:-2], strict=True)), (r.person_id, r.name, r.private),
                 viewer_is_club) for r in found]
    return {**head, "rows": rows, "total_rows": total, "offset": offset}


def _whole_table(series: Series, head: dict, events: list[Event], digest: str) -> dict:
    """The series computed whole from its events' finishes: its head and every row with its
    person (id, name, private); kept in `series_rows` when all its events are finished."""
    people = {row[0]: tuple(row) for row in db.session.execute(
        select(Person.id, Person.name, Person.private)
        .where(Person.club_id == series.club_id)).all()}
    rows = _computed_rows(series, [e.id for e in events])
    if events and all(e.status == "finished" for e in events):
        # So the next worker reads a page, not every night again.
        # The rows go in as one Core executemany: through the ORM's bulk insert 20,000 rows
        # took a second longer.
        keep_quietly(
            delete(SeriesRow).where(SeriesRow.series_id == series.id),
            *([(SeriesRow.__table__.insert(), [{"series_id": series.id, "position": n, **row}
                                               for n, row in enumerate(rows)])] if rows else []),
            update(Series).where(Series.id == series.id).values(standings_stamp=digest))
    return {"head": head,
            "rows": [(row, people[row["person_id"]]) for row in rows
                     if row["person_id"] in people]}


def _computed_rows(series: Series, ids: list[int]) -> list[dict]:
    # Only what the table reads (an open event's board loads the rest when it is built).
    events = list(db.session.execute(
        select(Event).options(load_only(Event.id, Event.code, Event.status, Event.revision,
                                        Event.finishes))
        .where(Event.id.in_(ids))).scalars()) if ids else []
    order = {event_id: n for n, event_id in enumerate(ids)}
    events.sort(key=lambda e: order[e.id])
    rule = _rule(series.scoring, series.best_of, series.min_events)
    finishes = person_finishes(events)
    table = rseries.standings(rule, [rseries.EventResult(e.id, finishes[e.id]) for e in events])
    return [_plain(row) for row in table]
