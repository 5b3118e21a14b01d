"""Webhooks (issue 31, docs/webhooks.md): a registered URL is told of an event's news, each
delivery signed per Standard Webhooks and carrying an id stable across retries; the delivery
row is written in the hand's own transaction (committed with it, or not at all), sent by the
deliverer off the request, retried with back-off, marked failed at the last attempt and
retried at once on request; private addresses are refused unless the server allows them."""

from __future__ import annotations

import json
import threading

import pytest
from standardwebhooks.webhooks import Webhook as Verifier

from api.core.db import db
from api.core.errors import Invalid
from api.core.hooks import NEWS
from api.core.models import Hand, WebhookDelivery
from api.webhooks import deliver, registry, sending
from tests.webhook_receiver import Receiver

from .verification_helpers import enter, night


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


def _night(api, **event):
    made = api.create_event("progressive", name="Hook night", **event)
    api.add_players(made, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"])
    games = [t["games"][0]["id"] for t in api.seat_round(made, 1)["tables"]]
    return made, made["organizer_key"], games


def _log(api, event, key, **query):
    return api.get(f"/api/events/{event['id']}/webhook-deliveries", key=key,
                   query_string=query, expect=200).get_json()


def _verified(secret: str, delivery: tuple[dict, str]) -> dict:
    headers, body = delivery
    return Verifier(secret).verify(body, headers)


def test_a_stored_hand_reaches_the_receiver_signed_with_its_id(allowed, api, receiver):
    event, key, (game, _other) = _night(api)
    made = api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
                    json={"url": receiver.url, "kinds": ["hand.stored"]}).get_json()
    assert made["secret"].startswith("whsec_") and made["kinds"] == ["hand.stored"]
    listed = api.get(f"/api/events/{event['id']}/webhooks", key=key, expect=200).get_json()
    assert [w["id"] for w in listed] == [made["id"]] and "secret" not in listed[0]

    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": "hook-h1", "maker": "A", "tricks": 5})
    pending = _log(api, event, key)
    assert [(d["kind"], d["status"], d["attempts"]) for d in pending] == [
        ("hand.stored", "pending", 0)]
    assert receiver.received == [], "nothing is sent on the hand's request"

    assert deliver.deliver_due(allowed) == 1
    (got,) = receiver.wait_for(1)
    payload = _verified(made["secret"], got)
    assert payload["type"] == "hand.stored"
    assert payload["data"]["hands"] == [{"id": "hook-h1", "number": 1}]
    assert payload["data"]["points"] == {"A": 2, "B": 0}
    assert got[0]["webhook-id"] == pending[0]["msg_id"]
    with pytest.raises(Exception, match="signature"):
        Verifier("whsec_" + "A" * 32).verify(got[1], got[0])
    done = _log(api, event, key)[0]
    assert (done["status"], done["attempts"], done["last_status"]) == ("delivered", 1, 200)
    assert deliver.deliver_due(allowed) == 0, "a delivered message is not sent again"


def test_the_delivery_row_commits_with_the_hand_or_not_at_all(allowed, api, receiver):
    event, key, (game, _other) = _night(api)
    api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
             json={"url": receiver.url})

    def fail_after_the_outbox(event_id, news):
        raise RuntimeError("the change fails after its delivery row was written")

    NEWS.listen(fail_after_the_outbox)
    try:
        with pytest.raises(RuntimeError):
            api.post(f"/api/games/{game}/hands", key=key,
                     json={"id": "rolled-back", "maker": "A", "tricks": 3})
    finally:
        NEWS.listeners.remove(fail_after_the_outbox)
    with allowed.app_context():
        assert db.session.query(Hand).count() == 0
        assert db.session.query(WebhookDelivery).count() == 0, "no row for a hand not stored"
        db.session.remove()
    # A refused hand writes nothing either; a stored one has its row.
    api.post(f"/api/games/{game}/hands", key=key, expect=422,
             json={"id": "bad", "maker": "A", "tricks": 9})
    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": "kept", "maker": "A", "tricks": 3})
    assert [d["kind"] for d in _log(api, event, key)] == ["hand.stored"]


def test_a_failing_receiver_is_retried_then_marked_failed_and_retried_on_request(
        allowed, api, receiver):
    event, key, (game, _other) = _night(api)
    made = api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
                    json={"url": receiver.url, "kinds": ["call"]}).get_json()
    receiver.status = 500
    api.post(f"/api/games/{game}/call", key=key, expect=201)
    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": "not-asked-for", "maker": "A", "tricks": 3})
    for attempt in (1, 2, 3):
        assert deliver.deliver_due(allowed) == 1
        (row,) = _log(api, event, key)
        assert (row["kind"], row["attempts"], row["last_status"]) == ("call", attempt, 500)
        assert row["status"] == ("failed" if attempt == 3 else "pending")
    assert deliver.deliver_due(allowed) == 0, "no attempt after the last"
    ids = {headers["webhook-id"] for headers, _ in receiver.wait_for(3)}
    assert ids == {row["msg_id"]}, "every attempt carries the same id"
    assert _log(api, event, key, status="failed")[0]["id"] == row["id"]

    receiver.status = 204
    again = api.post(f"/api/webhook-deliveries/{row['id']}/redeliver", key=key,
                     expect=200).get_json()
    assert again["status"] == "pending"
    assert deliver.deliver_due(allowed) == 1
    latest = receiver.wait_for(4)[-1]
    assert _verified(made["secret"], latest)["data"]["game_id"] == game
    assert latest[0]["webhook-id"] == row["msg_id"]
    assert _log(api, event, key)[0]["status"] == "delivered"


def test_back_off_doubles_with_jitter_up_to_its_cap():
    for attempts, full in ((1, 10), (2, 20), (4, 80), (30, 3600)):
        waits = [deliver.back_off(attempts, 10, 3600) for _ in range(50)]
        assert all(full / 2 <= w <= full for w in waits)
        assert len(set(waits)) > 1, "jitter: not all the same"


NOT_PUBLIC_HTTP = [
    ("ftp://example.org/hook", "webhook-url"),
    ("example.org/hook", "webhook-url"),
    ("https://user:pw@example.org/hook", "webhook-url"),
    ("http://localhost:8000/hook", "webhook-private-address"),
    ("http://127.0.0.1/hook", "webhook-private-address"),
    ("http://10.1.2.3/hook", "webhook-private-address"),
    ("http://192.168.0.10/hook", "webhook-private-address"),
    ("http://169.254.169.254/latest", "webhook-private-address"),
    ("http://[::1]/hook", "webhook-private-address"),
    ("http://[::ffff:127.0.0.1]/hook", "webhook-private-address"),
    ("http://printer.local/hook", "webhook-private-address"),
    ("http://[::1/hook", "webhook-url"),
    ("http://example.org:99999/hook", "webhook-url"),
]


def test_a_url_that_is_not_public_http_is_refused_and_nothing_stored(api):
    for url, code in NOT_PUBLIC_HTTP:
        with pytest.raises(Invalid) as refused:
            registry.check_url(url, allow_private=False)
        assert refused.value.code == code, url
    assert registry.check_url(" https://example.org/h ", False) == "https://example.org/h"
    assert registry.check_url("http://127.0.0.1:8080/h", True) == "http://127.0.0.1:8080/h"
    event = api.create_event("progressive", name="Hook night")
    key, base = event["organizer_key"], f"/api/events/{event['id']}/webhooks"
    refused = api.post(base, key=key, expect=422, json={"url": "http://10.0.0.1/x"})
    assert refused.get_json()["code"] == "webhook-private-address"
    assert refused.headers["Content-Type"] == "application/problem+json"
    bad = api.post(base, key=key, expect=422,
                   json={"url": "https://example.org/h", "kinds": ["hand.eaten"]})
    assert "kinds" in json.dumps(bad.get_json())
    assert api.get(base, key=key, expect=200).get_json() == []
    # A public-looking name that resolves inside the network is not sent to either.
    ok, status, error = sending.send("http://localhost:9/hook", "whsec_" + "A" * 32, "msg_1",
                                     "{}", 1, allow_private=False)
    assert (ok, status) == (False, None) and "private address" in error


def test_a_club_webhook_hears_its_events_kinds_asked_for_and_stops_when_deleted(
        allowed, api, receiver):
    club = api.post("/api/clubs", json={"name": "Hook club"}, expect=201).get_json()
    ckey = club["club_key"]
    made = api.post(f"/api/clubs/{club['id']}/webhooks", key=ckey, expect=201,
                    json={"url": receiver.url, "kinds": ["call", "round.closed"]}).get_json()
    event = api.post(f"/api/clubs/{club['id']}/events", key=ckey, expect=201,
                     json={"name": "Club night", "preset": "progressive"}).get_json()
    key = event["organizer_key"]
    assert api.get(f"/api/events/{event['id']}/webhooks", key=key,
                   expect=200).get_json() == [], "the club's are not the event's"
    api.add_players(event, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": "club-h1", "maker": "A", "tricks": 3})
    api.post(f"/api/games/{game}/call", key=key, expect=201)
    log = api.get(f"/api/clubs/{club['id']}/webhook-deliveries", key=ckey,
                  expect=200).get_json()
    assert [d["kind"] for d in log] == ["call"], "only the kinds asked for"
    # Rotated: signed with the new secret from now on.
    rotated = api.post(f"/api/webhooks/{made['id']}/secret", key=ckey, expect=200).get_json()
    assert rotated["secret"] != made["secret"]
    assert api.post(f"/api/webhooks/{made['id']}/secret", key=key).status_code == 403
    deliver.deliver_due(allowed)
    (got,) = receiver.wait_for(1)
    assert _verified(rotated["secret"], got)["type"] == "call"
    with pytest.raises(Exception, match="signature"):
        _verified(made["secret"], got)

    api.delete(f"/api/webhooks/{made['id']}", key=ckey, expect=204)
    call = api.get(f"/api/events/{event['id']}/calls", key=key, expect=200).get_json()
    api.post(f"/api/events/{event['id']}/calls/{call['calls'][0]['id']}/answer", key=key,
             expect=200)
    api.post(f"/api/games/{game}/call", key=key, expect=201)  # a new call: nobody told
    assert api.get(f"/api/clubs/{club['id']}/webhooks", key=ckey, expect=200).get_json() == []
    with allowed.app_context():
        assert db.session.query(WebhookDelivery).count() == 1
        db.session.remove()
    assert api.delete(f"/api/webhooks/{made['id']}", key=ckey).status_code == 404


def test_a_slow_receiver_never_holds_up_a_hand(allowed, api, receiver):
    """The receiver holds every answer while the deliverer runs beside the requests: each
    hand is answered all the same, and its deliveries arrive once the receiver lets go."""
    event, key, (game, _other) = _night(api)
    api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
             json={"url": receiver.url, "kinds": ["hand.stored"]})
    receiver.hold.clear()
    stop = threading.Event()
    thread = threading.Thread(target=deliver.run, args=(allowed, stop, 0.05))
    thread.start()
    try:
        api.post(f"/api/games/{game}/hands", key=key, expect=201,
                 json={"id": "slow-1", "maker": "A", "tricks": 3})
        receiver.wait_for(1)  # the deliverer is now stuck on the receiver
        for n in range(2, 6):
            api.post(f"/api/games/{game}/hands", key=key, expect=201,
                     json={"id": f"slow-{n}", "maker": "B", "tricks": 3})
        assert len(receiver.received) == 1, "the receiver still holds the first"
        receiver.hold.set()
        got = receiver.wait_for(5)
        assert sorted(json.loads(body)["data"]["hands"][0]["id"] for _, body in got) == [
            f"slow-{n}" for n in range(1, 6)]
    finally:
        receiver.hold.set()
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_every_change_to_a_result_tells_standings_changed(allowed, api, receiver):
    """A club site refreshes its standings on `standings.changed`: a corrected or deleted
    hand, time called and a tie settled change them as surely as a game ending."""
    event, key, (game, other) = _night(api)
    made = api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
                    json={"url": receiver.url, "kinds": ["standings.changed"]}).get_json()
    stored = api.hand(key, game, "A", 3)
    version = api.game(game)["version"]
    fixed = api.put(f"/api/games/{game}/hands/{stored['hands'][-1]['id']}", key=key,
                    headers={"If-Match": f'"{version}"'}, expect=200,
                    json={"maker": "B", "tricks": 5}).get_json()
    api.delete(f"/api/games/{game}/hands/{fixed['hands'][-1]['id']}", key=key,
               headers={"If-Match": f'"{fixed["version"]}"'}, expect=200)
    api.hand(key, other, "A", 5)
    round_id = api.game(game)["round"]["id"]
    api.post(f"/api/rounds/{round_id}/time", key=key, expect=200)  # game ends level 0-0
    api.post(f"/api/games/{game}/settlement", key=key, expect=200,
             json={"method": "card-draw", "winner": "B"})
    while deliver.deliver_due(allowed):
        pass
    whys = [_verified(made["secret"], got)["data"]["why"] for got in receiver.wait_for(4)]
    assert whys == ["hand corrected", "hand deleted", "time called", "tie settled"]


def test_a_league_forfeit_tells_standings_changed(allowed, api, receiver):
    event, key, _ = api.league()
    api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
             json={"url": receiver.url, "kinds": ["standings.changed"]})
    table = api.seat_round(event, 1)["tables"][0]
    api.post(f"/api/matches/{table['match_id']}/forfeits", key=key, expect=201,
             json={"team_id": table["team_b"]["id"], "reason": "no-show"})
    assert deliver.deliver_due(allowed) == 1
    (got,) = receiver.wait_for(1)
    data = json.loads(got[1])["data"]
    assert (data["why"], data["match_id"], data["games"]) == ("forfeit", table["match_id"],
                                                             [1, 2, 3])


def test_under_double_entry_a_mismatch_and_an_agreed_hand_are_told_with_the_points_after(
        allowed, api, receiver):
    event, key, seated = night(api, "double_entry")
    game = seated["tables"][0]["games"][0]["id"]
    made = api.post(f"/api/events/{event['id']}/webhooks", key=key, expect=201,
                    json={"url": receiver.url, "kinds": ["game.agreed", "mismatch"]}).get_json()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    enter(api, key, game, "B", {"maker": "A", "tricks": 3})  # alike: agreed, A 1 point
    enter(api, key, game, "A", {"maker": "B", "tricks": 5})
    enter(api, key, game, "B", {"maker": "B", "tricks": 4})  # not alike: a mismatch
    while deliver.deliver_due(allowed):
        pass
    news = [_verified(made["secret"], got) for got in receiver.wait_for(2)]
    assert [(n["type"], n["data"].get("how"), n["data"]["points"]) for n in news] == [
        ("game.agreed", "entries agreed", {"A": 1, "B": 0}), ("mismatch", None, {"A": 1, "B": 0})]
    assert news[1]["data"]["number"] == 2
