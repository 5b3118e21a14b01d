"""Hostile text anyone can send without a key gets a 4xx that says what is wrong, and nothing
is stored: deeply nested JSON, lone UTF-16 surrogates, names that read backwards or are
blank, control characters, and a hand id with a line break after it."""

from __future__ import annotations

import json

import pytest

SURROGATE = "x\ud800y"


def _raw(api, path, text: str, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return api.client.open(path, method="POST", data=text.encode("utf-8", "surrogatepass"),
                           headers=headers)


@pytest.mark.parametrize("depth", [33, 500, 5000])
def test_json_nested_deeper_than_the_api_takes_is_a_422_not_a_500(api, depth):
    body = "[" * depth + "]" * depth
    answer = _raw(api, "/api/events", body)
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["code"] == "too-deep" and f"{depth} levels" in problem["detail"]


def test_json_nesting_inside_strings_does_not_count(api):
    event = api.post("/api/events", json={"name": "[[[[" * 30, "preset": "progressive"},
                     expect=201).get_json()
    assert event["name"] == "[" * 120, "brackets in a string are text, not nesting"


@pytest.mark.parametrize("field", ["name", "overrides"])
def test_a_lone_surrogate_in_an_event_is_a_422_and_nothing_is_stored(api, field):
    body = {"name": "Night", "preset": "progressive"}
    body[field] = SURROGATE if field == "name" else {SURROGATE: 1}
    answer = _raw(api, "/api/events", json.dumps(body))
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert "surrogate" in answer.get_json()["detail"]


def test_a_lone_surrogate_anywhere_is_refused_with_a_422(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    cases = [
        (f"/api/games/{game}/hands", {"id": "h1", "maker": "A", "tricks": 3, "note": SURROGATE}),
        (f"/api/events/{event['id']}/keys", {"label": SURROGATE}),
        ("/api/qr", {"text": SURROGATE}),
        ("/api/join", {"code": SURROGATE, "pin": "123456"}),
        ("/api/join", {"code": event["code"], "pin": SURROGATE}),
    ]
    for path, body in cases:
        answer = _raw(api, path, json.dumps(body), key=key)
        assert answer.status_code == 422, (path, answer.get_data(as_text=True))
    assert api.game(game)["hands_played"] == 0


@pytest.mark.parametrize(("name", "why"), [
    ("   ", "empty"), ("\u202eAnn", "invisible"), ("Ann\x07", "control"),
    ("two\nlines", None), ("  Spaced   out  ", None)])
def test_an_event_name_is_cleaned_as_player_names_are(api, name, why):
    answer = api.post("/api/events", json={"name": name, "preset": "progressive"})
    if why:
        assert answer.status_code == 422 and why in answer.get_json()["detail"]
    else:
        assert answer.status_code == 201
        assert answer.get_json()["name"] == " ".join(name.split())


def test_a_note_and_a_key_label_are_cleaned_on_one_line(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    label = api.post(f"/api/events/{event['id']}/keys", key=key,
                     json={"label": " Desk\t2\n"}, expect=201).get_json()
    assert label["label"] == "Desk 2"
    refused = api.post(f"/api/events/{event['id']}/keys", key=key, json={"label": "a\u200fb"})
    assert refused.status_code == 422


def test_a_hand_id_with_a_line_break_after_it_is_refused(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    api.post(f"/api/games/{game}/hands", key=key, json={"id": "h1", "maker": "A", "tricks": 3},
             expect=201)
    again = api.post(f"/api/games/{game}/hands", key=key,
                     json={"id": "h1\n", "maker": "A", "tricks": 3})
    assert again.status_code == 422 and "hand id" in again.get_json()["detail"]
    assert api.game(game)["hands_played"] == 1


def test_text_that_cannot_be_stored_or_is_no_name_says_why():
    from api.core.text import bad_character, clean_name

    assert "NUL" in bad_character("Ann\x00")
    assert "lone surrogate" in bad_character("Ann\ud800")
    assert bad_character("Ann Baker") is None
    with pytest.raises(ValueError, match="must be text"):
        clean_name(42)
