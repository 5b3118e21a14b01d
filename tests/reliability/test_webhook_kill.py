"""The webhook deliverer killed mid-send (SIGKILL) and started again: every stored hand's
delivery reaches the receiver at least once, each with its id and a valid signature, none
without an id, and a message received twice is the same message (same id, same body).

The deliverer runs as `flask webhooks-deliver` in a process of its own, so it can be killed
while the receiver holds some of its requests (claimed, in flight, never answered); hands go
on being stored while it is down. Its lease is short here (2 s) so the second process takes
the killed one's rows again soon."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import defaultdict

import pytest
from standardwebhooks.webhooks import Webhook as Verifier

from api.core.db import db
from api.core.models import Hand, WebhookDelivery
from tests.live import ROOT, wait_until
from tests.webhook_receiver import Receiver

TABLES, HANDS_BEFORE, HANDS_DURING = 4, 5, 2


def _deliverer(database_url: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url, "WEBHOOKS_ALLOW_PRIVATE": "1",
           "WEBHOOKS_LEASE_SECONDS": "2", "WEBHOOKS_TIMEOUT_SECONDS": "0.3",
           "WEBHOOKS_RETRY_SECONDS": "0.2", "WEBHOOKS_RETRY_MAX_SECONDS": "0.5",
           "WEBHOOKS_MAX_ATTEMPTS": "50"}
    return subprocess.Popen([sys.executable, "-m", "flask", "--app", "api", "webhooks-deliver",
                             "--idle", "0.1"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _hands(api, key: str, games: list[int], numbers: range) -> None:
    for n in numbers:
        for game in games:
            api.post(f"/api/games/{game}/hands", key=key, expect=201,
                     json={"id": f"g{game}-h{n}", "maker": "AB"[n % 2], "tricks": 3})


@pytest.mark.slow
def test_a_killed_deliverer_loses_nothing_and_sends_nothing_without_its_id(
        app, api, database_url):
    app.config["WEBHOOKS_ALLOW_PRIVATE"] = True
    receiver = Receiver()
    processes = []
    try:
        event = api.create_event("progressive", name="Kill night")
        key = event["organizer_key"]
        api.add_players(event, [f"P{n}" for n in range(TABLES * 4)])
        games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
        hook = api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
                        json={"url": receiver.url, "kinds": ["hand.stored"]}).get_json()
        _hands(api, key, games, range(1, HANDS_BEFORE + 1))

        processes.append(_deliverer(database_url))
        assert receiver.wait_for(6, timeout=60), "the first deliverer sent nothing"
        receiver.hold.clear()  # what it sends from now on stays in flight
        receiver.wait_for(len(receiver.received) + 1, timeout=10)  # one held, at least
        processes[0].send_signal(signal.SIGKILL)
        processes[0].wait(10)
        receiver.hold.set()
        _hands(api, key, games, range(HANDS_BEFORE + 1, HANDS_BEFORE + HANDS_DURING + 1))

        processes.append(_deliverer(database_url))
        with app.app_context():
            stored = set(db.session.scalars(db.select(Hand.id)))
            db.session.remove()
        assert len(stored) == TABLES * (HANDS_BEFORE + HANDS_DURING)

        def received() -> set[str]:
            return {json.loads(body)["data"]["hands"][0]["id"] for _, body in receiver.received}

        assert wait_until(lambda: received() >= stored, 60), \
            f"never came: {sorted(stored - received())}"
        processes[1].send_signal(signal.SIGTERM)
        assert processes[1].wait(15) == 0, processes[1].stderr.read().decode()[-2000:]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)
            process.stderr.close()
        receiver.close()

    bodies: dict[str, set[str]] = defaultdict(set)
    verifier = Verifier(hook["secret"])
    for headers, body in receiver.received:
        assert headers.get("webhook-id"), "a delivery without its id"
        payload = verifier.verify(body, headers)  # raises on a bad signature
        assert payload["type"] == "hand.stored"
        bodies[headers["webhook-id"]].add(body)
    assert all(len(sent) == 1 for sent in bodies.values()), \
        "an id received twice carried another message"
    assert len(bodies) == len(stored), ("one message a hand, whatever the retries",
                                        len(bodies), len(stored))
    with app.app_context():
        statuses = list(db.session.scalars(db.select(WebhookDelivery.status)))
        db.session.remove()
    assert statuses == ["delivered"] * len(stored), statuses
