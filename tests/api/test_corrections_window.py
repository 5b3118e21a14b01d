"""The correction window (RULES.md §7): after its round closes, the table may still change a
game for `correction_minutes` (an event setting, 30 by default); then only the organizer, with
a reason (the X-Reason header) that the audit log, the game, its scoresheet and the exports
keep. The clock is moved by setting the round's closed_at in the past."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from urllib.parse import quote

from sqlalchemy import update

from api.core.db import db
from api.core.models import Round, utcnow

from .scripts import played_round, runner_key


def _closed_minutes_ago(app, round_id: int, minutes: int) -> None:
    with app.app_context():
        db.session.execute(update(Round).where(Round.id == round_id)
                           .values(closed_at=utcnow() - timedelta(minutes=minutes)))
        db.session.commit()


def _night(api, **overrides):
    """A progressive night of 8 whose round 1 is played out (6-2 at both tables) and closed;
    a runner key for table 1."""
    event, key, round_, games = played_round(api, "Window night", **overrides)
    return event, key, runner_key(api, event, 1), round_["id"], games[0]


def _march(state: dict) -> tuple[str, dict]:
    """A hand of side A made with 3 or 4 tricks, and the same hand marched (one point more
    for A: the game keeps its winner)."""
    hand = next(h for h in state["hands"] if h["maker"] == "A" and h["tricks"] in (3, 4))
    return hand["id"], {"maker": "A", "tricks": 5}


def _problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code
    return body


def test_the_table_corrects_within_the_window_and_is_sent_to_the_organizer_after(api, app):
    event, key, runner, round_id, game = _night(api)
    state = api.game(game)
    until = datetime.fromisoformat(state["correctable_until"])
    assert timedelta(minutes=29) < until - utcnow() <= timedelta(minutes=30)
    assert state["correction_open"]
    hand, marched = _march(state)
    fixed = api.put(f"/api/games/{game}/hands/{hand}", key=runner, json=marched,
                    headers={"If-Match": f'"{state["version"]}"'}, expect=200).get_json()
    assert fixed["points"] == {"A": 7, "B": 2}, "the table may still correct it"

    _closed_minutes_ago(app, round_id, 31)
    closed = api.game(game)
    assert not closed["correction_open"]
    refused = api.put(f"/api/games/{game}/hands/{hand}", key=runner,
                      json={"maker": "A", "tricks": 3},
                      headers={"If-Match": f'"{closed["version"]}"'})
    body = _problem(refused, 403, "correction-window-closed")
    assert "Call the organizer" in body["detail"]
    assert datetime.fromisoformat(body["correctable_until"]) == datetime.fromisoformat(
        closed["correctable_until"])
    again = api.game(game)
    assert again["version"] == closed["version"] and again["points"] == {"A": 7, "B": 2}
    # Every kind of table write is refused alike: a new hand, a deletion, a settlement.
    for response in (
            api.delete(f"/api/games/{game}/hands/{hand}", key=runner,
                       headers={"If-Match": f'"{closed["version"]}"'}),
            api.post(f"/api/games/{game}/hands", key=runner,
                     json={"id": "late-one", "maker": "A", "tricks": 3})):
        _problem(response, 403, "correction-window-closed")
    assert api.game(game)["version"] == closed["version"], "nothing half-stored"


def test_after_the_window_the_organizer_needs_a_reason_which_every_reader_shows(api, app):
    event, key, runner, round_id, game = _night(api)
    _closed_minutes_ago(app, round_id, 45)
    state = api.game(game)
    hand, marched = _march(state)
    before_log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    for reason in (None, "   "):
        headers = {"If-Match": f'"{state["version"]}"'}
        if reason is not None:
            headers["X-Reason"] = reason
        refused = api.put(f"/api/games/{game}/hands/{hand}", key=key, json=marched,
                          headers=headers)
        body = _problem(refused, 422, "reason-required")
        assert "X-Reason" in body["detail"]
    assert api.game(game)["version"] == state["version"]
    assert api.get(f"/api/events/{event['id']}/audit", key=key,
                   expect=200).get_json() == before_log, "nothing stored, not even the log"

    words = "Scorer missed a march – Ann's call"
    fixed = api.put(f"/api/games/{game}/hands/{hand}", key=key, json=marched,
                    headers={"If-Match": f'"{state["version"]}"', "X-Reason": quote(words)},
                    expect=200).get_json()
    assert fixed["points"] == {"A": 7, "B": 2}
    assert [c["reason"] for c in fixed["corrections"]] == [words]
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert [e["action"] for e in log[:2]] == ["edit-hand", "late-correction"]
    assert log[1]["after"]["reason"] == words and log[1]["table"] == 1

    sheets = api.get(f"/api/events/{event['id']}/scoresheets", expect=200).get_json()
    noted = [n for s in sheets for r in s["rounds"] for n in r["notes"]]
    assert noted == [f"Corrected after the correction window: {words}"] * 4, \
        "the four players of table 1"
    games_csv = api.get(f"/api/events/{event['id']}/export/games.csv", key=key,
                        expect=200).get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(games_csv)))
    assert words in rows[0]["rulings_and_corrections"] and rows[1][
        "rulings_and_corrections"] == ""


def test_the_window_is_an_event_setting(api, app):
    refused = api.post("/api/events", json={"name": "Bad", "preset": "progressive",
                                            "overrides": {"correction_minutes": -5}})
    assert refused.status_code == 422
    event, key, runner, round_id, game = _night(api, correction_minutes=0)
    state = api.game(game)
    assert state["correctable_until"] is not None and not state["correction_open"]
    hand, marched = _march(state)
    _problem(api.put(f"/api/games/{game}/hands/{hand}", key=runner, json=marched,
                     headers={"If-Match": f'"{state["version"]}"'}),
             403, "correction-window-closed")
    # A round opened again is in play: the table may change its games again.
    api.post(f"/api/rounds/{round_id}/reopen", key=key, expect=200)
    reopened = api.game(game)
    assert reopened["correctable_until"] is None and reopened["correction_open"]
    api.put(f"/api/games/{game}/hands/{hand}", key=runner, json=marched,
            headers={"If-Match": f'"{reopened["version"]}"'}, expect=200)


def test_a_round_in_play_is_always_open_to_the_table(api):
    event = api.create_event("progressive", name="Open night")
    key = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    state = api.hand(key, game, "A", 3)
    assert state["correction_open"] and state["correctable_until"] is None
    assert state["ruled"] is False and state["rulings"] == [] and state["corrections"] == []
