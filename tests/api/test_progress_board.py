"""The organizer's progress board: how far each table is and which tables went quiet."""

from __future__ import annotations

from datetime import timedelta

from api.core.db import db
from api.core.models import Game, utcnow

from .client import play


def test_each_table_says_its_hands_and_how_long_since_its_last_entry(api, app):
    event = api.create_event("progressive", name="Board night")
    api.add_players(event, ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"])
    round_ = api.seat_round(event, 1)
    key = event["organizer_key"]
    first, second = (t["games"][0] for t in round_["tables"])
    assert first["hands_per_game"] == 8 and first["target_points"] is None
    assert 0 <= first["idle_seconds"] < 60

    play(api, key, first["id"], [{"maker": "A", "tricks": 3}] * 8)
    play(api, key, second["id"], [{"maker": "B", "tricks": 5}])
    with app.app_context():
        # A table whose last hand came in 10 minutes ago has gone quiet.
        game = db.session.get(Game, second["id"])
        game.last_entry_at = utcnow() - timedelta(minutes=10)
        db.session.commit()
    tables = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()["tables"]
    finished, quiet = (t["games"][0] for t in tables)
    assert finished["over"] and finished["idle_seconds"] is None
    assert finished["hands_played"] == 8
    assert 600 <= quiet["idle_seconds"] < 660

    api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=200)
    api.close_round(event, round_["id"])
    closed = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert all(t["games"][0]["idle_seconds"] is None for t in closed["tables"])
