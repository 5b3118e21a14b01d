"""The portable file of the largest league season one event holds (40 teams, every week
seated, ten hands a game stored directly): how long the export and the import take, and how
large the file is.

    .venv/bin/python -m bench.portable [--postgres URL]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time


def run(url: str, teams: int = 40, hands_per_game: int = 10) -> dict:
    from flask_migrate import upgrade
    from sqlalchemy import insert, select
    from sqlalchemy.orm import selectinload

    from api import create_app
    from api.core.common import preset_of
    from api.core.db import db
    from api.core.models import Event, Game, Hand
    from api.games.game_state import compute_state, save_game
    from api.portable.exporting import export_event
    from api.portable.importing import import_document

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True,
                      "EVENT_CREATE_LIMIT": 10**6})
    with app.app_context():
        upgrade()
    client = app.test_client()
    event = client.post("/api/events", json={"name": "Big league", "preset": "league"}).get_json()
    headers = {"Authorization": f"Bearer {event['organizer_key']}"}
    for n in range(teams):
        client.post(f"/api/events/{event['id']}/teams", headers=headers,
                    json={"name": f"Team {n}", "players": [f"P{n} a", f"P{n} b"]})
    assert client.post(f"/api/events/{event['id']}/season", headers=headers,
                       json={}).status_code == 201
    with app.app_context():
        games = db.session.execute(select(Game.id).where(Game.event_id == event["id"])).scalars()
        rows = [dict(id=f"h{g}-{k}", event_id=event["id"], game_id=g, number=k, kind="play",
                     maker="A", alone=False, tricks=3, surrendered=[], points_a=1, points_b=0,
                     result="made", outcome="A made it: A +1", bumps={}, fingerprint="x" * 64)
                for g in games for k in range(1, hands_per_game + 1)]
        for start in range(0, len(rows), 5000):
            db.session.execute(insert(Hand.__table__), rows[start:start + 5000])
        # The games' totals and result rows as the hands make them (an import checks them).
        preset = preset_of(db.session.get(Event, event["id"]))
        for game in db.session.execute(select(Game).where(Game.event_id == event["id"])
                                       .options(selectinload(Game.hands))).scalars():
            save_game(game, preset, compute_state(game, preset=preset))
        db.session.commit()
        started = time.perf_counter()
        text = json.dumps(export_event(event["id"]))
        exported = time.perf_counter() - started
        document = json.loads(text)
        started = time.perf_counter()
        import_document(document)
        imported = time.perf_counter() - started
        db.engine.dispose()
    return {"hands": len(rows), "megabytes": round(len(text) / 1e6, 1),
            "export_s": round(exported, 2), "import_s": round(imported, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL database URL to use instead")
    args = parser.parse_args(argv)
    if args.postgres:
        print(run(args.postgres))
        return 0
    folder = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=folder) as where:
        print(run(f"sqlite:///{where}/portable.db"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
