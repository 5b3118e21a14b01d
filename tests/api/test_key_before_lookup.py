"""A write with no key is a 401 before anything it names is looked up: a stranger cannot
learn which matches, rounds or games exist by their 404s."""

from __future__ import annotations

import pytest

UNKNOWN = 999_999

WRITES = [
    ("POST", f"/api/matches/{UNKNOWN}/forfeits", {"team_id": 1, "reason": "no-show"}),
    ("PUT", f"/api/matches/{UNKNOWN}/seats", {"seat": 1, "player_id": 1}),
    ("POST", f"/api/rounds/{UNKNOWN}/close", None),
    ("POST", f"/api/rounds/{UNKNOWN}/time", None),
    ("POST", f"/api/rounds/{UNKNOWN}/reopen", None),
    ("POST", f"/api/rounds/{UNKNOWN}/clock", {}),
    ("POST", f"/api/games/{UNKNOWN}/hands", {"id": "h1", "maker": "A", "tricks": 3}),
    ("POST", f"/api/games/{UNKNOWN}/reopen", None),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_an_unknown_id_without_a_key_is_a_401_not_a_404(api, method, path, body):
    answer = api.request(method, path, json=body)
    assert answer.status_code == 401, answer.get_data(as_text=True)
    assert answer.get_json()["code"] == "no-key"


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_an_unknown_id_with_a_key_is_a_404(api, method, path, body):
    event = api.create_event("league")
    answer = api.request(method, path, json=body, key=event["organizer_key"])
    assert answer.status_code == 404, answer.get_data(as_text=True)
