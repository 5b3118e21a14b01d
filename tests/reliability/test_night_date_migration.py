"""The migration that gives each night its own date (e26c0c000003): a night made before it
gets the day it was created in its own time zone (a Detroit night made at 03:00 UTC on
1 March was played on 28 February), and the profiles kept in people's rows are forgotten so
they are read afresh with the dates (and lone marches counted as loners made)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from api.core.db import db

BEFORE, AFTER = "e26b0e000002", "e26c0c000003"


def test_existing_nights_get_the_day_they_were_made_in_their_time_zone(app, api):
    club = api.post("/api/clubs", json={"name": "Old club"}, expect=201).get_json()
    made = {}
    for name, zone in (("Detroit", "America/Detroit"), ("Berlin", "Europe/Berlin")):
        made[name] = api.post(f"/api/clubs/{club['id']}/events", key=club["club_key"], json={
            "name": name, "preset": "progressive", "time_zone": zone}, expect=201).get_json()
    api.post(f"/api/events/{made['Detroit']['id']}/players", key=club["club_key"],
             json={"name": "Ann"}, expect=201)
    with app.app_context():
        downgrade(revision=BEFORE)
        db.engine.dispose()
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE events SET created_at = :at"),
                         {"at": datetime(2026, 3, 1, 3, 0, tzinfo=UTC)})
            conn.execute(text("UPDATE people SET profile_stamp = 'old'"))
        upgrade(revision=AFTER)
        db.engine.dispose()
        with db.engine.connect() as conn:
            days = dict(conn.execute(text("SELECT name, night_date FROM events")).all())
            stamps = conn.execute(text("SELECT profile_stamp FROM people")).scalars().all()
        upgrade()
        db.engine.dispose()
    days = {k: v if isinstance(v, date) else date.fromisoformat(v) for k, v in days.items()}
    assert days == {"Detroit": date(2026, 2, 28), "Berlin": date(2026, 3, 1)}
    assert stamps == [None]
