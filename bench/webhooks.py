"""A hand's time with a dead webhook receiver registered, against none: `python -m
bench.webhooks [--db sqlite|postgres] [--games 30]`.

Two events alike, each with `--games` tables of 8 hands; the second has a webhook for every
kind of news to a receiver that accepts the connection and never answers (the worst dead
receiver: each attempt waits its whole timeout), with the deliverer thread running in the
same process, as in a gunicorn worker. Every hand is posted through the app's full WSGI stack
and timed; the figures are each event's median, p90 and max, and the outbox rows written.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import tempfile
import time
import uuid
from pathlib import Path


def _app(url: str):
    from flask_migrate import upgrade

    from api import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EVENT_CREATE_LIMIT": 10_000,
                      "WEBHOOKS_ALLOW_PRIVATE": True, "WEBHOOKS_TIMEOUT_SECONDS": 5,
                      "POLL_BUILD_BEHIND_MS": None})
    with app.app_context():
        upgrade()
    return app


def _event(client, games: int, hook: str | None) -> tuple[list[int], dict]:
    made = client.post("/api/events", json={"name": "Bench", "preset": "progressive"}).get_json()
    key = {"Authorization": f"Bearer {made['organizer_key']}"}
    for n in range(games * 4):
        client.post(f"/api/events/{made['id']}/players",
                    json={"name": f"Player {n}", "checked_in": True}, headers=key)
    seated = client.post(f"/api/events/{made['id']}/rounds", json={"number": 1},
                         headers=key).get_json()
    if hook:
        assert client.post(f"/api/events/{made['id']}/webhooks", json={"url": hook},
                           headers=key).status_code == 201
    return [t["games"][0]["id"] for t in seated["tables"]], key


def _hands(client, *events: tuple[list[int], dict]) -> list[list[float]]:
    """Every game's 8 hands, the events' hands taking turns (a busy machine's drift falls on
    both alike); each event's hand times in ms."""
    times = [[] for _ in events]
    for n in range(8):
        for turn in zip(*(games for games, _ in events), strict=True):
            for k, (game, (_, key)) in enumerate(zip(turn, events, strict=True)):
                body = {"id": uuid.uuid4().hex, "maker": "AB"[n % 2], "tricks": 3}
                start = time.perf_counter()
                answer = client.post(f"/api/games/{game}/hands", json=body, headers=key)
                times[k].append((time.perf_counter() - start) * 1000)
                assert answer.status_code == 201, answer.get_data(as_text=True)
    return times


def _figures(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(len(ordered) * 0.9) - 1]
    return (f"{name}: {len(times)} hands, median {statistics.median(times):.2f} ms, "
            f"p90 {p90:.2f} ms, max {ordered[-1]:.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="sqlite", help="sqlite, or a PostgreSQL URL")
    parser.add_argument("--games", type=int, default=30)
    options = parser.parse_args(argv)
    from api.config import normalise_database_url
    from api.core.db import db
    from api.core.models import WebhookDelivery
    from api.webhooks.deliver import start_thread

    folder = tempfile.TemporaryDirectory()
    url = (f"sqlite:///{Path(folder.name) / 'bench.db'}" if options.db == "sqlite"
           else normalise_database_url(options.db))
    app = _app(url)
    client = app.test_client()
    dead = socket.socket()  # listens, never accepts: each attempt waits for its timeout
    dead.bind(("127.0.0.1", 0))
    dead.listen(64)
    hook = f"http://127.0.0.1:{dead.getsockname()[1]}/hook"
    deliverer = None if os.environ.get("NO_DELIVERER") else start_thread(app)
    try:
        _hands(client, _event(client, 4, None))  # warm up: the first hands build statements
        plain, hooked = _hands(client, _event(client, options.games, None),
                               _event(client, options.games, hook))
        print(_figures("no webhook", plain))
        print(_figures("a dead receiver", hooked))
        with app.app_context():
            rows = db.session.query(WebhookDelivery).count()
            db.session.remove()
        print(f"outbox rows written: {rows} (one a hand, plus standings.changed at each "
              "game's end)")
    finally:
        if deliverer:
            deliverer[1].set()
            deliverer[0].join(10)
        dead.close()
        folder.cleanup()


if __name__ == "__main__":
    main()
