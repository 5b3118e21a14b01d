"""Webhook deliveries to different receivers are independent (docs/webhooks.md): a receiver
that holds its answers (slow) or never answers in time (dead) delays its own deliveries only;
a delivery in flight shows as sending in the log; and the receiver's name is resolved once
per attempt, at connect time, so a name that points inside the network is refused when the
delivery is sent, whatever it answered when it was registered."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading

import pytest

from api.webhooks import deliver, sending
from tests.conftest import require_or_skip
from tests.live import wait_until
from tests.webhook_receiver import Receiver


@pytest.fixture
def receivers():
    made = [Receiver(), Receiver()]
    yield made
    for receiver in made:
        receiver.close()


def _night(api):
    made = api.create_event("progressive", name="Two hooks night")
    api.add_players(made, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"])
    games = [t["games"][0]["id"] for t in api.seat_round(made, 1)["tables"]]
    return made, made["organizer_key"], games[0]


def _hook(api, event, key, url):
    return api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
                    json={"url": url, "kinds": ["hand.stored"]}).get_json()


def _log(api, event, key):
    return api.get(f"/api/events/{event['id']}/webhook-deliveries", key=key,
                   expect=200).get_json()


def _hands(got) -> list[str]:
    return sorted(json.loads(body)["data"]["hands"][0]["id"] for _, body in got)


def test_a_slow_receiver_does_not_hold_up_another_receivers_deliveries(allowed, api,
                                                                       receivers):
    slow, fast = receivers
    event, key, game = _night(api)
    slow_hook, _fast_hook = _hook(api, event, key, slow.url), _hook(api, event, key, fast.url)
    slow.hold.clear()
    stop = threading.Event()
    thread = threading.Thread(target=deliver.run, args=(allowed, stop, 0.05))
    thread.start()
    try:
        api.post(f"/api/games/{game}/hands", key=key, expect=201,
                 json={"id": "h-1", "maker": "A", "tricks": 3})
        slow.wait_for(1)  # a sender is now stuck on the slow receiver
        held = [d for d in _log(api, event, key) if d["webhook_id"] == slow_hook["id"]]
        assert [(d["status"], d["sending"], d["next_at"]) for d in held] == [
            ("pending", True, None)], "the log says it is being sent, not a time gone by"
        for n in range(2, 7):
            api.post(f"/api/games/{game}/hands", key=key, expect=201,
                     json={"id": f"h-{n}", "maker": "B", "tricks": 3})
        assert _hands(fast.wait_for(6)) == [f"h-{n}" for n in range(1, 7)], \
            "the other receiver has every hand while the slow one still holds the first"
        assert len(slow.received) == 1
        slow.hold.set()
        assert _hands(slow.wait_for(6)) == [f"h-{n}" for n in range(1, 7)]
        assert wait_until(lambda: all(d["status"] == "delivered" and not d["sending"]
                                      for d in _log(api, event, key)), 10)
    finally:
        slow.hold.set()
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    for receiver in receivers:  # each message once: nothing was sent twice
        ids = [headers["webhook-id"] for headers, _ in receiver.received]
        assert len(ids) == len(set(ids)) == 6


def test_a_receiver_that_does_not_answer_costs_one_timeout_not_one_a_message(allowed, api,
                                                                           receivers):
    """Seven messages wait for a receiver that holds its answer past the timeout: one is
    tried; the other four claimed with it are failed attempts without a try; the two left
    wait for the same back-off, no attempt counted. Retried, each arrives with its id."""
    dead, _ = receivers
    allowed.config.update(WEBHOOKS_TIMEOUT_SECONDS=0.3, WEBHOOKS_RETRY_SECONDS=600)
    event, key, game = _night(api)
    _hook(api, event, key, dead.url)
    dead.hold.clear()
    for n in range(1, 8):
        api.post(f"/api/games/{game}/hands", key=key, expect=201,
                 json={"id": f"d-{n}", "maker": "A", "tricks": 3})
    assert deliver.deliver_due(allowed) == deliver.PER_ENDPOINT == 5
    assert len(dead.received) == 1, "after no answer the rest waited"
    log = sorted(_log(api, event, key), key=lambda d: d["id"])
    assert [(d["status"], d["attempts"], d["sending"]) for d in log] == [
        ("pending", 1, False)] * 5 + [("pending", 0, False)] * 2
    assert "timed out" in log[0]["last_error"]
    assert all(d["last_error"].startswith("not sent: the receiver did not answer")
               for d in log[1:5])
    assert len({d["next_at"] for d in log[5:]}) == 1 and log[5]["next_at"] > log[5]["created_at"]
    assert deliver.deliver_due(allowed) == 0, "nothing due before the back-off is over"

    dead.hold.set()
    for row in log:  # Retry now, each
        api.post(f"/api/webhook-deliveries/{row['id']}/redeliver", key=key, expect=200)
    while deliver.deliver_due(allowed):
        pass
    assert {d["status"] for d in _log(api, event, key)} == {"delivered"}
    assert _hands(dead.received) == sorted(["d-1"] + [f"d-{n}" for n in range(1, 8)])
    assert len({headers["webhook-id"] for headers, _ in dead.received}) == 7


def _resolving(monkeypatch, name: str, address: str) -> list[str]:
    """`name` resolves to `address` (other names as usual); returns the names asked for."""
    asked, real = [], sending.resolve

    def resolve(host, port, *args, **kwargs):
        asked.append(host)
        if host == name:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(sending, "resolve", resolve)
    return asked


def test_a_name_resolving_inside_the_network_is_refused_when_sent(app, api, receivers,
                                                                 monkeypatch):
    """Registered while public (no private name), the name later points at 127.0.0.1 (DNS
    rebinding): the delivery is refused at connect time and nothing reaches the address."""
    receiver, _ = receivers
    app.config.update(WEBHOOKS_ALLOW_PRIVATE=False, WEBHOOKS_MAX_ATTEMPTS=1)
    event, key, game = _night(api)
    port = receiver.server.server_port
    _hook(api, event, key, f"http://hooks.example.com:{port}/hook")
    asked = _resolving(monkeypatch, "hooks.example.com", "127.0.0.1")
    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": "r-1", "maker": "A", "tricks": 3})
    assert deliver.deliver_due(app) == 1
    (row,) = _log(api, event, key)
    assert row["status"] == "failed" and "private address (127.0.0.1)" in row["last_error"]
    assert asked == ["hooks.example.com"] and receiver.received == []


def test_the_address_checked_is_the_address_connected_to(allowed, api, receivers,
                                                        monkeypatch):
    """With private addresses allowed (the tests' receiver), a name is resolved once per
    attempt and the connection goes to what that answered, the name sent as Host."""
    receiver, _ = receivers
    event, key, game = _night(api)
    port = receiver.server.server_port
    _hook(api, event, key, f"http://hooks.example.com:{port}/hook")
    asked = _resolving(monkeypatch, "hooks.example.com", "127.0.0.1")
    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": "p-1", "maker": "A", "tricks": 3})
    assert deliver.deliver_due(allowed) == 1
    ((headers, _body),) = receiver.wait_for(1)
    assert headers["host"] == f"hooks.example.com:{port}"
    assert asked == ["hooks.example.com"], "one resolution: the one checked"
    assert _log(api, event, key)[0]["status"] == "delivered"


def test_over_https_the_name_is_checked_against_the_certificate(allowed, api, monkeypatch,
                                                                tmp_path):
    """The connection goes to the checked address, but TLS checks the URL's name: a
    certificate for hooks.example.com is taken for that name, refused for another name that
    resolves to the same address."""
    require_or_skip(shutil.which("openssl") is not None, "openssl (to make a test certificate)")
    cert, key = tmp_path / "hook.pem", tmp_path / "hook-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=hooks.example.com", "-addext",
                    "subjectAltName=DNS:hooks.example.com", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the receiver's certificate trusted
    receiver = Receiver(tls=(str(cert), str(key)))
    try:
        allowed.config["WEBHOOKS_MAX_ATTEMPTS"] = 1
        event, key_, game = _night(api)
        port = receiver.server.server_port
        good = _hook(api, event, key_, f"https://hooks.example.com:{port}/hook")
        _hook(api, event, key_, f"https://other.example.com:{port}/hook")
        real = sending.resolve
        monkeypatch.setattr(sending, "resolve", lambda host, port, *a, **k: (
            [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
            if host.endswith(".example.com") else real(host, port, *a, **k)))
        api.post(f"/api/games/{game}/hands", key=key_, expect=201,
                 json={"id": "t-1", "maker": "A", "tricks": 3})
        while deliver.deliver_due(allowed):
            pass
        log = {d["webhook_id"]: d for d in _log(api, event, key_)}
        assert log[good["id"]]["status"] == "delivered"
        (other,) = [d for hook, d in log.items() if hook != good["id"]]
        assert other["status"] == "failed" and "CERTIFICATE_VERIFY_FAILED" in other["last_error"]
        ((headers, _),) = receiver.received
        assert headers["host"] == f"hooks.example.com:{port}"
    finally:
        receiver.close()
