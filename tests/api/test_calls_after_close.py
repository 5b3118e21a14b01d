"""A table calls the organizer after its round closed (about a correction, say): the call
waits where the organizer looks until answered, like any other call. The calls list says it is
about a closed round; the closed round's board shows it at its table; the board of the round
being played lists it first among the late calls (with table, round and age); the night's log
has the call and its answer."""

from __future__ import annotations

from .scripts import fixed_hands_game, played_round, runner_key
from .test_corrections_window import _closed_minutes_ago
from .verification_helpers import enter, night, other, read


def _night(api):
    """Round 1 of 8 players played out and closed; runner keys for tables 1 and 2."""
    event, key, round_, games = played_round(api, "Late calls")
    return event, key, [runner_key(api, event, table) for table in (1, 2)], round_, games


def _tables(api, round_id: int) -> dict[int, dict]:
    view = api.get(f"/api/rounds/{round_id}", expect=200).get_json()
    return {t["table"]: t for t in view["tables"]}


def test_a_call_after_the_round_closed_waits_where_the_organizer_looks(api):
    event, key, (table1, table2), round1, (game1, _game2) = _night(api)
    base = f"/api/events/{event['id']}/calls"
    call = api.post(f"/api/games/{game1}/call", key=table1, expect=201).get_json()
    assert call["waiting"] and (call["table"], call["round_number"]) == (1, 1)
    assert call["round_closed"] and call["round_label"] == "Round 1"

    listed = api.get(base, key=key, expect=200).get_json()
    assert (listed["waiting"], listed["total"]) == (1, 1)
    (shown,) = listed["calls"]
    assert shown["id"] == call["id"] and shown["round_closed"] and shown["age_seconds"] >= 0

    # Round 1's board (Corrections shows it) has the call at table 1, said to be late.
    (wait,) = _tables(api, round1["id"])[1]["waits"]
    assert (wait["kind"], wait["call_id"], wait["round_number"]) == ("call", call["id"], 1)
    assert wait["words"].startswith("Called the organizer") and \
        "after the round closed" in wait["words"]
    assert _tables(api, round1["id"])[2]["waits"] == []

    # Round 2 is played: its board lists the late call first, with its table and round, and
    # not at round 2's own table 1 (other players sit there now).
    round2 = api.seat_round(event, 2)
    assert api.get(base, key=key, expect=200).get_json()["waiting"] == 1
    now = api.get(f"/api/rounds/{round2['id']}", expect=200).get_json()
    (late,) = now["late_calls"]
    assert (late["kind"], late["call_id"], late["table"], late["round_number"]) == \
        ("call", call["id"], 1, 1)
    assert late["game_id"] == game1 and late["age_seconds"] >= 0
    assert "about its game in Round 1 (closed)" in late["words"]
    assert all(t["waits"] == [] for t in now["tables"])
    listed_rounds = api.get(f"/api/events/{event['id']}/rounds", key=key,
                            expect=200).get_json()
    assert [len(r["late_calls"]) for r in listed_rounds] == [0, 1], \
        "only the round being played lists other rounds' calls"
    # A call about a round 2 game shows at its own table, not among the late ones.
    game_now = now["tables"][1]["games"][0]["id"]
    api.post(f"/api/games/{game_now}/call", key=table2, expect=201)
    now = api.get(f"/api/rounds/{round2['id']}", expect=200).get_json()
    assert [c["call_id"] for c in now["late_calls"]] == [call["id"]]
    assert [w["kind"] for w in now["tables"][1]["waits"]] == ["call"]
    assert "after the round closed" not in now["tables"][1]["waits"][0]["words"]

    # Answered, it waits nowhere; the night's log has the call and the answer.
    api.post(f"{base}/{call['id']}/answer", key=key, expect=200)
    assert api.get(f"/api/rounds/{round2['id']}", expect=200).get_json()["late_calls"] == []
    assert _tables(api, round1["id"])[1]["waits"] == []
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    late_log = [(e["action"], e["round_number"], e["table"]) for e in log
                if e["entity"] == "call" and e["entity_id"] == str(call["id"])]
    assert late_log == [("answer-call", 1, 1), ("call", 1, 1)]
    table_log = api.get(f"/api/events/{event['id']}/audit?table=1", key=key,
                        expect=200).get_json()
    assert {"call", "answer-call"} <= {e["action"] for e in table_log}


def test_a_call_while_its_round_is_played_is_not_late(api):
    event = api.create_event("progressive", name="On time")
    key = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"])
    round_ = api.seat_round(event, 1)
    game = round_["tables"][0]["games"][0]["id"]
    call = api.post(f"/api/games/{game}/call", key=key, expect=201).get_json()
    assert not call["round_closed"] and call["round_label"] == "Round 1"
    view = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert view["late_calls"] == []
    (wait,) = view["tables"][0]["waits"]
    assert wait["words"] == "Called the organizer just now."


def test_a_change_proposed_in_the_window_shows_on_the_closed_rounds_board(api, app):
    """Under double entry a side's proposal made after the round closed waits on the other
    side, on the closed round's board; once the window closes the board says who can still
    act on it."""
    event, key, round_ = night(api, "double_entry")
    game = round_["tables"][0]["games"][0]["id"]
    for number, hand in enumerate(fixed_hands_game(6, 2, 8), start=1):
        first = "A" if number % 2 else "B"
        enter(api, key, game, first, hand)
        enter(api, key, game, other(first), hand)
    for t in round_["tables"][1:]:
        later = t["games"][0]["id"]
        for hand in fixed_hands_game(6, 2, 8):
            enter(api, key, later, "A", hand)
            enter(api, key, later, "B", hand)
    api.close_round(event, round_["id"])
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1},
                      expect=201).get_json()["key"]
    view = read(api, game)
    hand = next(h for h in view["hands"] if h["maker"] == "A" and h["tricks"] in (3, 4))
    api.put(f"/api/games/{game}/hands/{hand['id']}", key=runner,
            json={"side": "A", "maker": "A", "tricks": 5},
            headers={"If-Match": f'"{view["version"]}"'}, expect=202)
    (wait,) = _tables(api, round_["id"])[1]["waits"]
    assert (wait["kind"], wait["side"], wait["number"]) == ("confirm", "B", hand["number"])
    assert wait["words"].startswith(f"Side B to agree to the change of hand {hand['number']}")

    _closed_minutes_ago(app, round_["id"], 31)
    (wait,) = _tables(api, round_["id"])[1]["waits"]
    assert "the correction window has closed" in wait["words"]
    assert "side A takes it back, or you change the game" in wait["words"]
