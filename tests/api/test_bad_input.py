"""Bad input gets a clear 4xx problem+json and changes nothing: every case checks the status,
the error's shape and that the event (its revision and the game) is as it was."""

from __future__ import annotations

import io
import json

import pytest

from .client import play
from .scripts import to_target_game


@pytest.fixture
def table(api):
    """A league week in play: one game with one hand, and the keys that can reach it. (The
    teams come in as one CSV import: this is set up for each of some 60 tests.)"""
    event = api.create_event("league")
    key = event["organizer_key"]
    api.import_field(event, ["North", "South", "East", "West"], teams=True)
    api.post(f"/api/events/{event['id']}/season", key=key, json={}, expect=201)
    round_ = api.seat_round(event, 1)
    game = round_["tables"][0]["games"][0]["id"]
    api.hand(key, game, "A", 3)
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1},
                      expect=201).get_json()["key"]
    return {"event": event, "key": key, "game": game, "runner": runner, "round": round_}


def snapshot(api, t):
    event = api.get(f"/api/events/{t['event']['id']}", expect=200).get_json()
    return event["revision"], api.game(t["game"])


def assert_problem(response, status: int, *words: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["title"] and body["detail"]
    for word in words:
        assert word in body["detail"], body["detail"]
    return body


def hand_body(**fields):
    return {"id": "hand-x1", "maker": "A", "tricks": 3, **fields}


@pytest.mark.parametrize("body, words", [
    (hand_body(tricks=3.5), ["tricks", "integer"]),
    (hand_body(tricks="3"), ["tricks", "integer"]),
    (hand_body(tricks=6), ["6 tricks", "0 to 5"]),
    (hand_body(tricks=-1), ["0 to 5"]),
    (hand_body(maker="C"), ["maker"]),
    (hand_body(maker=None), ["which side called trump"]),
    (hand_body(tricks=None), ["how many tricks"]),
    (hand_body(alone="yes"), ["alone"]),
    (hand_body(color="red"), ["color", "Unknown field"]),
    (hand_body(loner_seat=2, alone=True), ["only a maker can go alone"]),
    (hand_body(loner_seat=1), ["not played alone"]),
    (hand_body(renege={"by": "B"}), ["upheld"]),
    (hand_body(id="has spaces"), ["hand id"]),
    ({"maker": "A", "tricks": 3}, ["id"]),
    (hand_body(kind="penalty", maker=None, tricks=None, surrendered=[1]), ["bump cup"]),
])
def test_a_bad_hand_is_refused_with_a_reason_and_nothing_is_stored(api, table, body, words):
    before = snapshot(api, table)
    response = api.post(f"/api/games/{table['game']}/hands", key=table["key"], json=body)
    assert_problem(response, 422, *words)
    assert snapshot(api, table) == before


def test_malformed_json_is_a_400_problem(api, table):
    before = snapshot(api, table)
    response = api.post(f"/api/games/{table['game']}/hands", key=table["key"],
                        data="{not json", headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422)
    assert response.mimetype == "application/problem+json"
    assert snapshot(api, table) == before


@pytest.mark.parametrize("content_type", [
    "application/x-www-form-urlencoded",  # what curl -d sends without -H
    "text/plain",
    None,
])
def test_a_json_body_sent_as_something_else_is_a_415_that_says_how_to_send_it(
        api, table, content_type):
    before = snapshot(api, table)
    headers = {"Authorization": f"Bearer {table['key']}"}
    if content_type:
        headers["Content-Type"] = content_type
    response = api.client.post(f"/api/games/{table['game']}/hands", headers=headers,
                               data=json.dumps(hand_body()))
    assert_problem(response, 415, "Content-Type: application/json")
    # An optional-fields body is not silently ignored either.
    response = api.client.patch(f"/api/events/{table['event']['id']}", headers=headers,
                                data=json.dumps({"name": "Renamed"}))
    assert_problem(response, 415)
    assert snapshot(api, table) == before


def test_a_body_that_is_not_an_object_is_refused(api, table):
    response = api.post(f"/api/games/{table['game']}/hands", key=table["key"],
                        data=json.dumps([1, 2]), headers={"Content-Type": "application/json"})
    assert_problem(response, 422)


def test_a_repeated_hand_is_stored_once_and_a_different_hand_with_its_id_is_a_conflict(
        api, table):
    body = hand_body(id="same-id-1", maker="B", tricks=5)
    first = api.post(f"/api/games/{table['game']}/hands", key=table["key"], json=body,
                     expect=201).get_json()
    again = api.post(f"/api/games/{table['game']}/hands", key=table["key"], json=body,
                     expect=200).get_json()
    assert again == first and len(again["hands"]) == 2
    before = snapshot(api, table)
    clash = api.post(f"/api/games/{table['game']}/hands", key=table["key"],
                     json={**body, "tricks": 4})
    assert_problem(clash, 409, "same-id-1", "new id")
    assert snapshot(api, table) == before


def test_a_hand_after_the_game_is_over_is_refused_with_the_reason(api, table):
    play(api, table["key"], table["game"], to_target_game("B", 1)[1:])
    before = snapshot(api, table)
    assert before[1]["over"] and before[1]["winner"] == "B"
    response = api.post(f"/api/games/{table['game']}/hands", key=table["key"],
                        json=hand_body(id="late-hand"))
    assert_problem(response, 409, "Game 1 at table 1 is over: side B reached 10")
    assert snapshot(api, table) == before


def test_an_edit_without_if_match_or_with_a_stale_version_changes_nothing(api, table):
    game = api.game(table["game"])
    hand_id = game["hands"][0]["id"]
    url = f"/api/games/{table['game']}/hands/{hand_id}"
    before = snapshot(api, table)
    assert_problem(api.put(url, key=table["key"], json={"maker": "B", "tricks": 4}), 428,
                   "If-Match")
    stale = api.put(url, key=table["key"], json={"maker": "B", "tricks": 4},
                    headers={"If-Match": f'"{game["version"] - 1}"'})
    body = assert_problem(stale, 412, "changed on another phone")
    assert body["current_version"] == game["version"]
    assert_problem(api.delete(url, key=table["key"], headers={"If-Match": '"999"'}), 412)
    assert snapshot(api, table) == before
    edited = api.put(url, key=table["key"], json={"maker": "B", "tricks": 4},
                     headers={"If-Match": f'"{game["version"]}"'}, expect=200)
    assert edited.get_json()["points"] == {"A": 0, "B": 1}
    assert edited.headers["ETag"] == f'"{edited.get_json()["version"]}"'


def test_an_edit_that_would_end_the_game_before_its_last_hand_is_refused(api, table):
    # Side A has 1; add eight more single points (9), then a hand for B.
    for _ in range(8):
        api.hand(table["key"], table["game"], "A", 3)
    api.hand(table["key"], table["game"], "B", 3)
    game = api.game(table["game"])
    second = game["hands"][1]["id"]
    before = snapshot(api, table)
    response = api.put(f"/api/games/{table['game']}/hands/{second}", key=table["key"],
                       json={"maker": "A", "tricks": 5},
                       headers={"If-Match": f'"{game["version"]}"'})
    assert_problem(response, 409, "reached 10", "Hand 10 cannot be added")
    assert snapshot(api, table) == before


@pytest.mark.parametrize("auth, status, words", [
    (None, 401, ["needs a key"]),
    ("Basic abc", 401, ["Bearer"]),
    ("Bearer not-a-key", 401, ["not valid"]),
    ("Bearer euk_" + "x" * 43, 401, ["not valid"]),
])
def test_missing_or_malformed_keys_are_refused(api, table, auth, status, words):
    before = snapshot(api, table)
    headers = {"Authorization": auth} if auth else {}
    response = api.post(f"/api/games/{table['game']}/hands", json=hand_body(),
                        headers=headers)
    assert_problem(response, status, *words)
    assert "WWW-Authenticate" in response.headers
    assert snapshot(api, table) == before


def test_another_events_key_a_revoked_key_and_the_wrong_table_are_refused(api, table):
    other = api.create_event("league", name="Another league")
    before = snapshot(api, table)
    assert_problem(api.post(f"/api/games/{table['game']}/hands", key=other["organizer_key"],
                            json=hand_body()), 403, "another event")
    second_table_game = table["round"]["tables"][1]["games"][0]["id"]
    assert_problem(api.post(f"/api/games/{second_table_game}/hands", key=table["runner"],
                            json=hand_body()), 403, "table 1, not table 2")
    assert_problem(api.post(f"/api/events/{table['event']['id']}/players", key=table["runner"],
                            json={"name": "Zed"}), 403, "Only the organizer")
    keys = api.get(f"/api/events/{table['event']['id']}/keys", key=table["key"],
                   expect=200).get_json()
    runner_id = next(k["id"] for k in keys if k["role"] == "runner")
    api.delete(f"/api/events/{table['event']['id']}/keys/{runner_id}", key=table["key"],
               expect=200)
    assert_problem(api.post(f"/api/games/{table['game']}/hands", key=table["runner"],
                            json=hand_body()), 401, "revoked")
    assert snapshot(api, table)[1] == before[1]


def test_a_runner_key_for_one_table_enters_hands_there(api, table):
    state = api.hand(table["runner"], table["game"], "B", 5)
    assert state["points"] == {"A": 1, "B": 2}


def test_unknown_resources_are_404_problems(api, table):
    assert_problem(api.get("/api/games/99999"), 404, "Game 99999")
    assert_problem(api.get("/api/events/99999/leaderboard"), 404)
    assert_problem(api.post("/api/games/99999/hands", key=table["key"], json=hand_body()),
                   404)
    assert_problem(api.get("/api/nothing-here"), 404)


def test_a_wrong_method_is_a_405_that_says_what_is_allowed(api):
    response = api.delete("/api/presets")
    assert_problem(response, 405)
    assert "GET" in response.headers["Allow"]


@pytest.mark.parametrize("body, words", [
    ({"name": "x", "preset": "poker"}, ["no preset called 'poker'"]),
    ({"name": "x", "preset": "league", "overrides": {"target_points": 0}}, ["between 1"]),
    ({"name": "x", "preset": "league", "overrides": {"target_points": "11"}},
     ["whole number"]),
    ({"name": "x", "preset": "league", "overrides": {"wild_jokers": True}},
     ["Unknown parameter 'wild_jokers'"]),
    ({"name": "x", "preset": "progressive", "overrides": {"entry": "team"}},
     ["individual entry"]),
    ({"name": "", "preset": "league"}, ["name"]),
    ({"preset": "league"}, ["name"]),
])
def test_an_event_with_a_nonsense_format_is_refused(api, body, words):
    assert_problem(api.post("/api/events", json=body), 422, *words)


def test_a_custom_format_is_accepted_and_described(api):
    event = api.create_event("progressive", hands_per_game=10, rounds=4)
    assert event["format"]["parameters"]["hands_per_game"] == 10
    assert event["format"]["based_on"] == "progressive"
    assert "(custom)" in event["format"]["name"]


def test_a_csv_import_with_a_bad_row_names_the_line_and_stores_nothing(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    text = "name,checked_in\nAnn,yes\nBob,yes\n,yes\nAnn,no\n"
    body = assert_problem(api.post(f"/api/events/{event['id']}/import", key=key,
                                   json={"csv": text}), 422, "Line 4")
    assert set(body["errors"]) == {"line 4", "line 5"}
    assert "already registered" in body["errors"]["line 5"][0]
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []
    ok = api.post(f"/api/events/{event['id']}/import", key=key,
                  data="name\nAnn\nBob\n", headers={"Content-Type": "text/csv"},
                  expect=201).get_json()
    assert ok == {"players": 2, "teams": 0}


def test_a_team_csv_needs_its_header(api):
    event = api.create_event("teams")
    assert_problem(api.post(f"/api/events/{event['id']}/import", key=event["organizer_key"],
                            json={"csv": "name\nAnn\n"}), 422, "player1")


def test_the_join_pin_gives_a_runner_key_and_wrong_guesses_are_limited_per_address(
        api, app, monkeypatch):
    from api.core import limits
    moment = limits.utcnow()
    monkeypatch.setattr(limits, "utcnow", lambda: moment)  # the wait never runs out here
    event = api.create_event("progressive")
    access = api.get(f"/api/events/{event['id']}/access", key=event["organizer_key"],
                     expect=200).get_json()
    joined = api.post("/api/join", json={"code": access["code"], "pin": access["join_pin"],
                                         "table": 3}, expect=201).get_json()
    me = api.get("/api/me", key=joined["key"], expect=200).get_json()
    assert me["role"] == "runner" and me["table"] == 3 and me["event_id"] == event["id"]
    wrong = "000000" if access["join_pin"] != "000000" else "111111"
    guesser = {"REMOTE_ADDR": "198.51.100.7"}
    for _ in range(app.config["PIN_CLIENT_ATTEMPTS"]):
        assert_problem(api.post("/api/join", json={"code": access["code"], "pin": wrong},
                                environ_base=guesser), 403, "PIN is not right")
    limited = api.post("/api/join", json={"code": access["code"], "pin": access["join_pin"]},
                       environ_base=guesser)
    assert_problem(limited, 429, "wrong PINs", "Try again in")
    assert int(limited.headers["Retry-After"]) > 0
    elsewhere = api.post("/api/join", json={"code": access["code"], "pin": access["join_pin"],
                                            "table": 2})
    assert elsewhere.status_code == 201, "the limit is the guessing address's, nobody else's"
    assert_problem(api.post("/api/join", json={"code": "NOPE99", "pin": "1"}), 404)


def test_a_round_cannot_be_seated_twice_or_closed_before_its_games_end(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    round_ = api.seat_round(event, 1)
    assert_problem(api.post(f"/api/events/{event['id']}/rounds", key=key,
                            json={"number": 1}), 409, "already seated")
    assert_problem(api.post(f"/api/events/{event['id']}/rounds", key=key,
                            json={"number": 2}), 409, "still being played")
    body = assert_problem(api.post(f"/api/rounds/{round_['id']}/close", key=key), 409,
                          "cannot close yet")
    assert len(body["errors"]["tables"]) == 2


def test_get_on_a_post_only_resource_is_a_405_that_allows_only_post(api):
    # The PWA's catch-all GET route used to match /api/qr: a 404, and GET in the Allow header.
    response = api.get("/api/qr")
    assert_problem(response, 405)
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    options = api.request("OPTIONS", "/api/events/1/pin")
    assert set(options.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_unknown_api_addresses_are_404_problems_not_the_app_shell(api):
    for path in ("/api", "/api/", "/api/nothing-here", "/api/events/1/nothing"):
        assert_problem(api.get(path), 404)


def test_a_json_import_without_its_csv_is_a_422_naming_the_field(api):
    event = api.create_event("progressive")
    url, key = f"/api/events/{event['id']}/import", event["organizer_key"]
    for body in ({}, {"csv": None}):
        problem = assert_problem(api.post(url, key=key, json=body), 422, "csv")
        assert "csv" in problem["errors"]
    assert_problem(api.post(url, key=key, data="name\nAnn\n",
                            headers={"Content-Type": "text/plain"}), 415)


def test_a_boolean_field_takes_only_true_or_false(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    player = api.add_players(event, ["Ann"])[0]
    url = f"/api/events/{event['id']}/players/{player['id']}"
    for value in (0, 1, "yes", "true", None):
        # 0 and 1 used to pass as false and true: 1 == True, so 1 was in truthy={True}.
        assert_problem(api.patch(url, key=key, json={"withdrawn": value}), 422, "withdrawn")
    assert api.patch(url, key=key, json={"withdrawn": True}, expect=200).get_json()["withdrawn"]


def test_text_with_a_nul_character_is_refused_not_a_server_error(api):
    # PostgreSQL cannot store or even compare text holding NUL: POST /api/join with code
    # "\x00" was a 500 there (found by the fuzzer); a file name with one was a 500 anywhere.
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    refused = [
        api.post("/api/join", json={"code": "\x00", "pin": "0"}),
        api.post("/api/join", json={"code": event["code"], "pin": "1\x002"}),
        api.post(f"/api/games/{game}/hands", key=key,
                 json={"id": "nul-note", "maker": "A", "tricks": 3, "note": "a\x00b"}),
        api.post(f"/api/events/{event['id']}/keys", key=key, json={"label": "\x00"}),
        api.post(f"/api/events/{event['id']}/import", key=key, json={"csv": "name\nA\x00n\n"}),
        api.post("/api/events", json={"name": "x", "preset": "league",
                                      "overrides": {"\x00": 1}}),
    ]
    for response in refused:
        assert_problem(response, 422, "NUL")
    for path in ("/api/events/by-code/%00", f"/api/games/{game}/hands/%00", "/%00",
                 "/js/%00.js", "/e/%00/board"):
        assert_problem(api.get(path), 404)
    assert api.game(game)["hands_played"] == 0


def test_a_chunked_body_past_the_limit_is_a_413_not_a_shorter_file(api, app):
    # Without a Content-Length, werkzeug read the body up to the limit and stopped as if it
    # had ended: the CSV import stored the first 2 MB of players and a cut-off name.
    event = api.create_event("progressive")
    rows = "name\n" + "".join(f"Player {i:07d}\n" for i in range(
        app.config["MAX_CONTENT_LENGTH"] // 15 + 10))
    response = api.client.post(
        f"/api/events/{event['id']}/import", input_stream=io.BytesIO(rows.encode()),
        headers={"Authorization": f"Bearer {event['organizer_key']}",
                 "Content-Type": "text/csv", "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True})  # as gunicorn sets it
    assert_problem(response, 413)
    assert api.get(f"/api/events/{event['id']}/players", expect=200).get_json() == []
