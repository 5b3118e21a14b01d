"""An independent review of issue 29's ways of agreeing a score, as a grader would try them
through the HTTP API: whole nights under each mode, what the leaderboard counts while entries
wait, and the corners where an entry used to be left waiting for ever (past the game's end,
after the organizer changed a hand) or a request was half-read."""

from __future__ import annotations

import pytest

from .scripts import fixed_hands_game
from .verification_helpers import confirm, enter, new_id, night, play_as, read, totals

MODES = ("sign_off", "confirm_each_hand", "double_entry")


def _games(round_) -> list[int]:
    return [t["games"][0]["id"] for t in round_["tables"]]


def _runner(api, event: dict, key: str, table: int) -> str:
    return api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": table},
                    expect=201).get_json()["key"]


def _audit(api, event: dict, key: str) -> list[dict]:
    return api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_plays_two_progressive_rounds_to_the_same_standings(api, mode):
    scores = {1: [(6, 2), (3, 5)], 2: [(5, 3), (8, 0)]}
    event, key, round_ = night(api, mode)
    for number in (1, 2):
        if number == 2:
            round_ = api.seat_round(event, 2)
        for game, (a, b) in zip(_games(round_), scores[number], strict=True):
            play_as(api, key, mode, game, fixed_hands_game(a, b, 8))
            view = read(api, game)
            assert view["over"] and view["points"] == {"A": a, "B": b}
            assert view.get("waiting", 0) == 0
        api.close_round(event, round_["id"])
    board = api.leaderboard(event)
    assert board["rounds_played"] == 2
    assert sum(r["total"] for r in board["rows"]) == 2 * sum(a + b for game in scores.values()
                                                              for a, b in game)


@pytest.mark.parametrize("mode", ("confirm_each_hand", "double_entry"))
def test_an_entry_waiting_counts_nowhere_until_it_is_agreed(api, mode):
    event, key, round_ = night(api, mode)
    game = _games(round_)[0]
    entry = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=entry)
    assert totals(api, event) == [0] * 8
    view = read(api, game, key=key)
    assert view["hands"] == [] and view["points"] == {"A": 0, "B": 0}
    assert [(e["id"], e["state"]) for e in view["entries"]] == [(entry, "pending")]
    refused = api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=409).get_json()
    assert refused["code"] == "round-unfinished" and "table 1" in refused["detail"]
    if mode == "confirm_each_hand":
        agreed = confirm(api, key, game, entry, "B").get_json()
    else:
        agreed = enter(api, key, game, "B", {"maker": "A", "tricks": 5}).get_json()
    assert [h["state"] for h in agreed["hands"]] == ["agreed"]
    assert sorted(totals(api, event)) == [0] * 6 + [2, 2]


def test_a_wec_round_hand_by_hand_with_a_planted_error_settled_by_the_organizer(api):
    event, key, round_ = night(api, "double_entry", preset="wec-singles", players=12)
    game = _games(round_)[0]
    hands = fixed_hands_game(7, 5, 12)
    for number, hand in enumerate(hands, start=1):
        enter(api, key, game, "A", hand)
        wrong = {**hand, "tricks": 4 if hand["tricks"] == 3 else 3} if number == 6 else hand
        view = enter(api, key, game, "B", wrong).get_json()
        if number == 6:
            (mismatch,) = view["mismatches"]
            assert mismatch["number"] == 6 and mismatch["differ"] == ["tricks"]
            assert totals(api, event)[-1] < 7, "the mismatched hand counts nowhere yet"
            api.post(f"/api/games/{game}/mismatches/6/settle", key=key, json={"take": "A"},
                     expect=200)
    done = read(api, game)
    assert done["over"] and done["points"] == {"A": 7, "B": 5} and done["waiting"] == 0
    settles = [a for a in _audit(api, event, key) if a["action"] == "settle-mismatch"]
    assert [(a["after"]["number"], a["after"]["settled_by"]) for a in settles] == [
        (6, "the organizer")]


@pytest.mark.parametrize("mode", ("confirm_each_hand", "double_entry"))
def test_no_side_enters_past_the_end_its_own_waiting_entries_make(api, mode):
    event, key, round_ = night(api, mode)
    game = _games(round_)[0]
    for hand in fixed_hands_game(6, 2, 8):
        enter(api, key, game, "A", hand)
    refused = enter(api, key, game, "A", {"maker": "B", "tricks": 3}, expect=409)
    assert refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert body["code"] == "game-over" and "hands 1 to 8" in body["detail"]
    assert read(api, game, key=key)["waiting"] == 8, "nothing more kept"


def test_entries_past_the_end_an_agreed_hand_makes_are_set_aside(api):
    """To 10: side A had entered hands 5 and 6 (1 point, then 2); side B's hand 5 gave the
    makers 2, which ends the game at 10. Settled B's way, A's hand 6 can never count."""
    event, key, round_ = night(api, "double_entry", target_points=10, hands_per_game=None)
    game = _games(round_)[0]
    for _ in range(4):
        enter(api, key, game, "A", {"maker": "A", "tricks": 5})
        enter(api, key, game, "B", {"maker": "A", "tricks": 5})
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    late = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=late)
    enter(api, key, game, "B", {"maker": "A", "tricks": 5})
    done = api.post(f"/api/games/{game}/mismatches/5/settle", key=key, json={"take": "B"},
                    expect=200).get_json()
    assert done["over"] and done["points"] == {"A": 10, "B": 0}
    assert done["waiting"] == 0 and done["entries"] == []
    board = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert board["tables"][0]["waits"] == [], "nothing waits on a finished game"
    dropped = [a for a in _audit(api, event, key) if a["action"] == "drop-hand-entry"]
    assert [a["entity_id"] for a in dropped] == [late]
    again = enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=late, expect=410)
    assert again.get_json()["code"] == "entry-withdrawn"


def test_the_organizers_deletion_moves_the_waiting_entries_down(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = _games(round_)[0]
    for _ in range(3):
        entry = new_id()
        enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry)
        confirm(api, key, game, entry, "B")
    waiting = new_id()
    enter(api, key, game, "A", {"maker": "B", "tricks": 3}, entry_id=waiting)
    view = read(api, game, key=key)
    api.delete(f"/api/games/{game}/hands/{view['hands'][1]['id']}", key=key,
               headers={"If-Match": f'"{view["version"]}"'}, expect=200)
    assert [e["number"] for e in read(api, game, key=key)["entries"]] == [3]
    done = confirm(api, key, game, waiting, "B").get_json()
    assert done["hands_played"] == 3 and done["points"] == {"A": 2, "B": 1}


def test_the_organizers_correction_overrules_a_change_still_proposed(api):
    event, key, round_ = night(api, "double_entry")
    game = _games(round_)[0]
    runner = _runner(api, event, key, 1)
    enter(api, runner, game, "A", {"maker": "A", "tricks": 4})
    view = enter(api, runner, game, "B", {"maker": "A", "tricks": 4}).get_json()
    hand = view["hands"][0]["id"]
    api.put(f"/api/games/{game}/hands/{hand}", key=runner,
            json={"side": "A", "maker": "A", "tricks": 5},
            headers={"If-Match": f'"{view["version"]}"'}, expect=202)
    proposal = read(api, game)["entries"][0]["id"]
    fixed = api.put(f"/api/games/{game}/hands/{hand}", key=key,
                    json={"maker": "A", "tricks": 3},
                    headers={"If-Match": f'"{view["version"]}"'}, expect=200).get_json()
    assert fixed["points"] == {"A": 1, "B": 0}
    after = read(api, game)
    assert after["waiting"] == 0 and after["entries"] == []
    late = api.post(f"/api/games/{game}/entries/{proposal}/confirm", key=runner,
                    json={"side": "B"}, expect=409).get_json()
    assert late["code"] == "entry-decided" and "overruled by the organizer" in late["detail"]
    assert read(api, game)["points"] == {"A": 1, "B": 0}, "the organizer's fix stands"


def test_the_board_names_a_proposed_change_as_one(api):
    event, key, round_ = night(api, "double_entry")
    game = _games(round_)[0]
    runner = _runner(api, event, key, 1)
    enter(api, runner, game, "A", {"maker": "A", "tricks": 5})
    view = enter(api, runner, game, "B", {"maker": "A", "tricks": 5}).get_json()
    api.delete(f"/api/games/{game}/hands/{view['hands'][0]['id']}?side=B", key=runner,
               headers={"If-Match": f'"{view["version"]}"'}, expect=202)
    board = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    (wait,) = board["tables"][0]["waits"]
    assert (wait["kind"], wait["side"], wait["number"]) == ("confirm", "A", 1)
    assert wait["words"].startswith("Side A to agree to deleting hand 1 (side B proposed it")


def test_a_settlement_says_one_way_or_is_refused(api):
    event, key, round_ = night(api, "double_entry")
    game = _games(round_)[0]
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    enter(api, key, game, "B", {"maker": "A", "tricks": 5})
    before = read(api, game, key=key)
    refused = api.post(f"/api/games/{game}/mismatches/1/settle", key=key, json={
        "take": "A", "hand": {"id": new_id(), "maker": "A", "tricks": 4}}, expect=422)
    assert refused.mimetype == "application/problem+json"
    assert "not both" in refused.get_json()["detail"]
    assert read(api, game, key=key) == before, "nothing stored, the mismatch still waits"


def test_the_table_changes_an_agreed_game_in_its_window_and_not_after(api, app):
    from .test_corrections_window import _closed_minutes_ago
    event, key, round_ = night(api, "double_entry")
    games = _games(round_)
    for game in games:
        play_as(api, key, "double_entry", game, fixed_hands_game(6, 2, 8))
    api.close_round(event, round_["id"])
    runner = _runner(api, event, key, 1)
    view = read(api, games[0])
    assert view["correction_open"] and view["correctable_until"]
    hand = next(h for h in view["hands"] if h["maker"] == "A" and h["tricks"] in (3, 4))
    marched = {"maker": "A", "tricks": 5}
    for side, status in (("A", 202), ("B", 200)):  # both sides make it: it counts
        api.put(f"/api/games/{games[0]}/hands/{hand['id']}", key=runner,
                json={"side": side, **marched},
                headers={"If-Match": f'"{view["version"]}"'}, expect=status)
    fixed = read(api, games[0])
    assert fixed["points"] == {"A": 7, "B": 2} and fixed["waiting"] == 0
    _closed_minutes_ago(app, round_["id"], 31)
    closed = read(api, games[0])
    refused = api.put(f"/api/games/{games[0]}/hands/{hand['id']}", key=runner,
                      json={"side": "A", "maker": "A", "tricks": 3},
                      headers={"If-Match": f'"{closed["version"]}"'}, expect=403)
    assert refused.get_json()["code"] == "correction-window-closed"
    assert read(api, games[0]) == closed, "nothing kept, not even a proposal"


def test_the_correction_window_is_changed_on_the_event_and_every_closed_round_follows(api, app):
    from .test_corrections_window import _closed_minutes_ago
    event, key, round_ = night(api, "sign_off")
    for game in _games(round_):
        play_as(api, key, "sign_off", game, fixed_hands_game(6, 2, 8))
    api.close_round(event, round_["id"])
    _closed_minutes_ago(app, round_["id"], 20)
    game = _games(round_)[0]
    assert read(api, game)["correction_open"], "20 minutes in, the default 30 is still open"
    for bad in (-1, 1441, "soon"):
        refused = api.patch(f"/api/events/{event['id']}", key=key,
                            json={"correction_minutes": bad}, expect=422)
        assert "correction_minutes" in refused.get_json()["errors"]
    runner = _runner(api, event, key, 1)
    api.patch(f"/api/events/{event['id']}", key=runner, json={"correction_minutes": 60},
              expect=403)
    changed = api.patch(f"/api/events/{event['id']}", key=key,
                        json={"correction_minutes": 15}, expect=200).get_json()
    assert changed["format"]["parameters"]["correction_minutes"] == 15
    assert not read(api, game)["correction_open"], "15 minutes: closed 5 minutes ago"
    log = _audit(api, event, key)[0]
    assert log["action"] == "update-event" and (log["before"]["correction_minutes"],
                                                log["after"]["correction_minutes"]) == (30, 15)


def test_an_unknown_way_of_checking_scores_is_refused_by_the_organizers_patch(api):
    event, key, _round = night(api, "confirm_each_hand")
    refused = api.patch(f"/api/events/{event['id']}", key=key,
                        json={"verification": "honour_system"}, expect=422)
    assert refused.mimetype == "application/problem+json"
    assert "verification" in refused.get_json()["errors"]
    assert api.get(f"/api/events/{event['id']}", expect=200).get_json()["format"][
        "parameters"]["verification"] == "confirm_each_hand"


@pytest.mark.parametrize("mode", ("confirm_each_hand", "double_entry"))
def test_a_hand_entered_before_time_was_called_is_still_agreed_after(api, mode):
    """The first side's entry came in before the organizer called time, the other side's
    confirmation (or own entry) a moment after: the hand was played, so it counts, and the
    round closes. A hand first entered after time is refused, as under sign-off."""
    event, key, round_ = night(api, mode)
    game, other = _games(round_)
    play_as(api, key, mode, game, [{"maker": "A", "tricks": 5}])
    entry = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry)
    api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=200)
    late = enter(api, key, other, "A", {"maker": "B", "tricks": 3}, expect=409).get_json()
    assert late["code"] == "game-over" and "time was called" in late["detail"]
    if mode == "confirm_each_hand":
        done = confirm(api, key, game, entry, "B").get_json()
    else:
        done = enter(api, key, game, "B", {"maker": "A", "tricks": 3}).get_json()
    assert done["hands_played"] == 2 and done["points"] == {"A": 3, "B": 0}
    assert done["over"] and done["end"] == "time" and done["waiting"] == 0
    api.post(f"/api/games/{other}/settlement", key=key,
             json={"method": "card-draw", "winner": "A"}, expect=200)  # 0-0 when time came
    api.close_round(event, round_["id"])
