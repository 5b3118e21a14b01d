"""Migrations: head matches the models (alembic check), and down to nothing and back up."""

from __future__ import annotations

import pytest
from flask_migrate import check, downgrade, upgrade
from sqlalchemy import inspect

from api.core.db import db


@pytest.fixture
def migrating_app(app):
    """The per-test database is already at head (the fixtures migrate it)."""
    with app.app_context():
        yield app
        db.session.remove()


def _tables() -> set[str]:
    return set(inspect(db.engine).get_table_names()) - {"alembic_version"}


def test_the_schema_at_head_matches_the_models(migrating_app):
    upgrade()
    check()  # raises when autogenerate would write a migration
    assert _tables() == set(db.metadata.tables)


def test_downgrading_to_nothing_and_upgrading_again_gives_the_same_schema(migrating_app):
    before = {t: sorted(c["name"] for c in inspect(db.engine).get_columns(t))
              for t in _tables()}
    downgrade(revision="base")
    db.engine.dispose()
    assert _tables() == set()
    upgrade()
    db.engine.dispose()
    after = {t: sorted(c["name"] for c in inspect(db.engine).get_columns(t))
             for t in _tables()}
    assert after == before
    check()


def _counts() -> dict[str, int]:
    with db.engine.connect() as conn:
        return {t: conn.exec_driver_sql(f'SELECT count(*) FROM "{t}"').scalar()
                for t in sorted(_tables())}


def test_migrating_a_database_with_a_clubs_nights_keeps_every_row(migrating_app, api):
    """A table rebuilt by a migration (SQLite rebuilds it: copy, drop, rename) must not take
    the rows that refer to it along: with foreign keys enforced, dropping the old `events`
    emptied players, games and hands (ON DELETE CASCADE) of a database being upgraded."""
    club = api.post("/api/clubs", json={"name": "Old club"}, expect=201).get_json()
    key = club["club_key"]
    event = api.post(f"/api/clubs/{club['id']}/events", key=key,
                     json={"name": "March", "preset": "progressive"}, expect=201).get_json()
    for n in range(8):
        api.post(f"/api/events/{event['id']}/players", key=key,
                 json={"name": f"Player {n}", "checked_in": True}, expect=201)
    seated = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    game = seated["tables"][0]["games"][0]["id"]
    api.post(f"/api/games/{game}/hands", key=key, json={"id": "h1", "maker": "A", "tricks": 3},
             expect=201)
    db.session.remove()
    before = _counts()
    assert before["players"] == 8 and before["people"] == 8 and before["hands"] == 1
    downgrade(revision="9e4b6d8f0a12")  # before this round's migrations
    db.engine.dispose()
    down = _counts()
    # Tables made by later migrations (rulings, protests, calls) are gone, and were empty;
    # every other table keeps its rows.
    assert {t: n for t, n in before.items() if t in down} == down
    assert all(before[t] == 0 for t in before.keys() - down.keys())
    upgrade()
    db.engine.dispose()
    assert _counts() == before
