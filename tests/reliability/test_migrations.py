"""Migrations: head matches the models (alembic check), and down to nothing and back up."""

from __future__ import annotations

import pytest
from flask_migrate import check, downgrade, upgrade
from sqlalchemy import inspect

from api.db import db


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
