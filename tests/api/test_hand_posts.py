"""A new hand and a first game sheet are answered before Flask (api/serving/hands.py) with
exactly Flask's answer; anything out of the ordinary still reaches Flask and gets its worded
refusal, with nothing stored."""

from __future__ import annotations

import uuid

import pytest
from flask import request_started

from api import create_app
from api.core.db import db

from .client import ApiClient

ORIGIN = "https://scores.example"


@pytest.fixture
def cors_app(database_url):
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True,
                      "POLL_BUILD_BEHIND_MS": None, "RAISE_UNEXPECTED": True,
                      "CORS_ORIGINS": ORIGIN})
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def flask_calls(cors_app):
    """The requests Flask itself handled, as (method, path)."""
    calls = []

    def started(sender, **_extra):
        from flask import request

        calls.append((request.method, request.path))

    request_started.connect(started, cors_app)
    yield calls
    request_started.disconnect(started, cors_app)


def _night(app, preset="progressive"):
    api = ApiClient(app.test_client())
    event = api.create_event(preset)
    api.add_players(event, [f"P{i}" for i in range(8)])
    tables = api.seat_round(event, 1)["tables"]
    return api, event, [t["games"][0]["id"] for t in tables]


def _hand(maker="A", tricks=3, **extra):
    return {"id": uuid.uuid4().hex, "maker": maker, "tricks": tricks, **extra}


def _headers(response) -> dict:
    return {k: v for k, v in response.headers.items() if k not in ("ETag", "Content-Length")}


def test_an_ordinary_hand_is_answered_before_flask_exactly_as_flask_answers(cors_app,
                                                                           flask_calls):
    api, event, games = _night(cors_app)
    key = event["organizer_key"]
    path = f"/api/games/{games[0]}/hands"
    for origin in (None, ORIGIN):
        headers = {"Origin": origin} if origin else {}
        flask_calls.clear()
        first = api.post(path, key=key, json=_hand(), headers=headers, expect=201)
        assert flask_calls == [("POST", path)]  # Flask's answer teaches the layer its headers
        flask_calls.clear()
        second = api.post(path, key=key, json=_hand("B", 1), headers=headers, expect=201)
        assert flask_calls == []
        assert _headers(second) == _headers(first)
        assert second.headers["ETag"] == f'"{second.get_json()["version"]}"'
        assert int(second.headers["Content-Length"]) == len(second.data)
        assert second.get_json() == api.game(games[0])
        assert (second.headers.get("Access-Control-Allow-Origin") == ORIGIN) == bool(origin)
    # The same hand sent again: answered before Flask too, nothing stored twice.
    body = _hand("A", 5)
    stored = api.post(path, key=key, json=body, expect=201).get_json()
    flask_calls.clear()
    again = api.post(path, key=key, json=body, expect=(200, 201))
    assert again.get_json() == stored and api.game(games[0])["hands_played"] == 5
    # The leaderboard a poller reads next shows the hand (the layer forgets the revision).
    board = api.get(f"/api/events/{event['id']}/leaderboard").get_json()
    assert max(r["total"] for r in board["rows"]) == max(stored["points"].values())


def test_what_the_layer_does_not_take_reaches_flask_and_nothing_is_stored(cors_app,
                                                                           flask_calls):
    api, event, games = _night(cors_app)
    key = event["organizer_key"]
    path = f"/api/games/{games[0]}/hands"
    runner = api.post(f"/api/events/{event['id']}/keys", key=key,
                      json={"table": 2, "label": "table 2"}, expect=201).get_json()["key"]
    api.post(path, key=key, json=_hand(), expect=201)  # learned
    flask_calls.clear()
    client = cors_app.test_client()
    refused = [
        (api.post(path, key=key, json={"id": "x", "maker": "A"}), 422),  # no tricks
        (api.post(path, json=_hand()), 401),
        (api.post(path, key="euk_not-a-key", json=_hand()), 401),
        (api.post(path, key=runner, json=_hand()), 403),  # another table's runner
        (client.post(path, data='{"id": "y", "maker": "A", "tricks": 3}',
                     headers={"Authorization": f"Bearer {key}",
                              "Content-Type": "text/plain"}), 415),
        (client.post(path, data="{not json", headers={"Authorization": f"Bearer {key}",
                                                      "Content-Type": "application/json"}),
         400),
        (api.post(f"/api/games/{games[0] + 999}/hands", key=key, json=_hand()), 404),
    ]
    for response, status in refused:
        assert response.status_code == status, response.get_data(as_text=True)
        assert response.mimetype == "application/problem+json"
    assert len(flask_calls) == len(refused)
    assert api.game(games[0])["hands_played"] == 1
    # The same id with a different hand: Flask's 409, the stored hand kept.
    body = _hand("A", 4)
    api.post(path, key=key, json=body, expect=201)
    flask_calls.clear()
    conflict = api.post(path, key=key, json={**body, "tricks": 5}, expect=409).get_json()
    assert conflict["code"] == "id-conflict" and flask_calls == [("POST", path)]
    # A query string goes to Flask as well (the layer answers plain paths only).
    flask_calls.clear()
    api.post(path + "?x=1", key=key, json=_hand(), expect=201)
    assert flask_calls == [("POST", path)]
    assert api.game(games[0])["hands_played"] == 3


def test_a_finished_game_is_refused_by_flask_with_its_reason(cors_app, flask_calls):
    api, event, games = _night(cors_app)
    key = event["organizer_key"]
    path = f"/api/games/{games[0]}/hands"
    for _ in range(8):
        last = api.post(path, key=key, json=_hand("A", 5), expect=201).get_json()
    assert last["over"]
    flask_calls.clear()
    refused = api.post(path, key=key, json=_hand(), expect=409).get_json()
    assert refused["code"] == "game-over" and flask_calls == [("POST", path)]


def test_a_first_game_sheet_is_answered_before_flask_and_a_replacement_by_flask(cors_app,
                                                                               flask_calls):
    api = ApiClient(cors_app.test_client())
    event = api.create_event("wec-singles")
    api.add_players(event, [f"W{i:02d}" for i in range(12)])
    key = event["organizer_key"]
    games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
    first = api.put(f"/api/games/{games[0]}/sheet", key=key,
                    json={"points": {"A": 10, "B": 6}}, expect=200)
    flask_calls.clear()
    second = api.put(f"/api/games/{games[1]}/sheet", key=key,
                     json={"points": {"A": 4, "B": 10}}, expect=200)
    assert flask_calls == []
    assert _headers(second) == _headers(first) and second.get_json() == api.game(games[1])
    # Replacing it needs the version: Flask checks it (a stale one is a 412).
    flask_calls.clear()
    path = f"/api/games/{games[1]}/sheet"
    api.put(path, key=key, json={"points": {"A": 10, "B": 2}},
            headers={"If-Match": '"1"'}, expect=412)
    replaced = api.put(path, key=key, json={"points": {"A": 10, "B": 2}},
                       headers={"If-Match": second.headers["ETag"]}, expect=200).get_json()
    assert replaced["points"] == {"A": 10, "B": 2} and len(flask_calls) == 2


def test_an_unexpected_error_before_flask_is_logged_and_flask_answers(cors_app, flask_calls,
                                                                     monkeypatch, caplog):
    from api.serving import hands

    api, event, games = _night(cors_app)
    key = event["organizer_key"]
    path = f"/api/games/{games[0]}/hands"
    api.post(path, key=key, json=_hand(), expect=201)  # Flask teaches the layer its headers

    def broken(*_args, **_kwargs):
        raise RuntimeError("a mistake on the short way")

    monkeypatch.setattr(hands, "enter_ordinary_hand", broken)
    flask_calls.clear()
    with caplog.at_level("ERROR", logger=hands.__name__):
        answer = api.post(path, key=key, json=_hand("B", 4), expect=201)
    assert flask_calls == [("POST", path)]
    assert any(r.exc_info and "a mistake on the short way" in str(r.exc_info[1])
               for r in caplog.records)
    game = api.game(games[0])
    assert answer.get_json() == game
    assert [h["tricks"] for h in game["hands"]] == [3, 4]
