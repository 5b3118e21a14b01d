"""Concurrent writes: the same hand from several phones, many hands at one game, two edits of
one hand, a round seated twice. Real threads against one app, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.api.client import all_at_once as at_once

THREADS = 8


@pytest.fixture
def game(api):
    event = api.create_event("wec-singles", hands_per_game=40)
    api.add_players(event, [f"P{i}" for i in range(12)])
    round_ = api.seat_round(event, 1)
    return {"event": event, "key": event["organizer_key"], "round": round_,
            "id": round_["tables"][0]["games"][0]["id"]}


def all_at_once(app, work, count=THREADS):
    """Run work(client, index) from `count` threads released together; return the answers."""
    return at_once(app, work, count)


def test_the_same_hand_sent_from_several_phones_at_once_is_stored_once(app, api, game):
    body = {"id": "the-one-hand", "maker": "A", "tricks": 5}
    answers = all_at_once(app, lambda c, i: c.post(f"/api/games/{game['id']}/hands",
                                                   key=game["key"], json=body).status_code)
    assert sorted(answers) == [200] * (THREADS - 1) + [201]
    state = api.game(game["id"])
    assert [h["id"] for h in state["hands"]] == ["the-one-hand"]
    assert state["points"] == {"A": 2, "B": 0}


def test_different_hands_sent_to_one_game_at_once_are_all_stored_without_gaps(app, api, game):
    def send(client, index):
        return client.post(f"/api/games/{game['id']}/hands", key=game["key"],
                           json={"id": f"hand-{index}", "maker": "B", "tricks": 3}).status_code

    assert all_at_once(app, send) == [201] * THREADS
    state = api.game(game["id"])
    assert sorted(h["id"] for h in state["hands"]) == sorted(f"hand-{i}" for i in range(THREADS))
    assert [h["number"] for h in state["hands"]] == list(range(1, THREADS + 1))
    assert state["points"] == {"A": 0, "B": THREADS}


def test_two_edits_of_one_hand_at_once_one_wins_and_the_other_is_told_it_is_stale(
        app, api, game):
    api.hand(game["key"], game["id"], "A", 3)
    state = api.game(game["id"])
    hand, version = state["hands"][0]["id"], state["version"]

    def edit(client, index):
        return client.put(f"/api/games/{game['id']}/hands/{hand}", key=game["key"],
                          json={"maker": "B" if index else "A", "tricks": 5},
                          headers={"If-Match": f'"{version}"'}).status_code

    answers = all_at_once(app, edit, count=2)
    assert sorted(answers) == [200, 412]
    state = api.game(game["id"])
    assert state["version"] == version + 1
    assert state["hands"][0]["tricks"] == 5


def test_a_round_seated_twice_at_once_is_one_round(app, api):
    event = api.create_event("progressive")
    api.add_players(event, [f"P{i}" for i in range(16)])

    def seat(client, index):
        return client.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                           json={"number": 1}).status_code

    assert sorted(all_at_once(app, seat, count=4)) == [201, 409, 409, 409]
    rounds = api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json()
    assert len(rounds) == 1 and len(rounds[0]["tables"]) == 4


def test_hands_at_different_tables_at_once_all_land_and_the_totals_add_up(app, api, game):
    games = [t["games"][0]["id"] for t in game["round"]["tables"]]

    def send(client, index):
        target = games[index % len(games)]
        return client.post(f"/api/games/{target}/hands", key=game["key"],
                           json={"id": f"t-{index}", "maker": "A", "tricks": 3}).status_code

    assert all_at_once(app, send, count=12) == [201] * 12
    board = api.leaderboard(game["event"])
    assert sum(r["total"] for r in board["rows"]) == 12 * 2, "each hand: +1 for two players"
