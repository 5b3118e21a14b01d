"""Confirm each hand (RULES.md section 7): one side enters a hand, the other confirms it with
one call and only then is it a hand; a rejection, a change or a withdrawal while it waits."""

from __future__ import annotations

from .client import all_at_once
from .scripts import fixed_hands_game
from .verification_helpers import confirm, enter, new_id, night, other, read, totals


def test_a_whole_progressive_game_is_entered_and_confirmed_hand_by_hand(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    script = fixed_hands_game(5, 3, 8)
    for number, hand in enumerate(script, start=1):
        side = "A" if number % 2 else "B"
        entry_id = new_id()
        waiting = enter(api, key, game, side, hand, entry_id=entry_id).get_json()
        assert waiting["hands_played"] == number - 1
        assert waiting["waiting"] == 1 and waiting["entries"][0]["state"] == "pending"
        assert waiting["entries"][0]["number"] == number
        assert f"waits for side {other(side)} to confirm" in waiting["waiting_for"]
        done = confirm(api, key, game, entry_id, other(side)).get_json()
        assert done["hands_played"] == number and done["waiting"] == 0
        assert done["hands"][-1]["id"] == entry_id
        assert done["hands"][-1]["state"] == "agreed"
    final = read(api, game)
    assert final["over"] and final["points"] == {"A": 5, "B": 3}
    assert final["verification"] == "confirm_each_hand"
    assert totals(api, event)[-1] == 5


def test_a_pending_entry_counts_in_no_total_and_the_read_says_it_waits(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    before = totals(api, event)
    enter(api, key, game, "A", {"maker": "A", "tricks": 5})
    assert totals(api, event) == before == [0] * 8
    view = read(api, game)
    assert view["points"] == {"A": 0, "B": 0} and view["hands"] == []
    assert view["waiting"] == 1
    assert view["entries"][0]["hand"]["tricks"] == 5  # the opponent must see what to confirm


def test_the_side_that_entered_cannot_confirm_its_own_entry(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    entry_id = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry_id)
    refused = confirm(api, key, game, entry_id, "A", expect=409)
    assert refused.mimetype == "application/problem+json"
    assert refused.get_json()["code"] == "own-entry"
    assert "other side confirms" in refused.get_json()["detail"]
    assert read(api, game)["hands"] == [] and read(api, game)["waiting"] == 1


def test_a_hand_without_its_side_is_refused_and_nothing_is_kept(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    refused = api.post(f"/api/games/{game}/hands", key=key,
                       json={"id": new_id(), "maker": "A", "tricks": 3}, expect=422)
    assert refused.get_json()["code"] == "side-required"
    assert "side" in refused.get_json()["errors"]
    assert read(api, game)["waiting"] == 0


def test_rejected_entries_go_with_who_and_why_and_the_next_takes_their_number(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    wrong, right = new_id(), new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=wrong)
    view = api.post(f"/api/games/{game}/entries/{wrong}/reject", key=key,
                    json={"side": "B", "reason": "They took four, not five"},
                    expect=200).get_json()
    assert view["waiting"] == 0
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    rejected = [a for a in audit["entries"] if a["action"] == "reject-hand-entry"] \
        if isinstance(audit, dict) else [a for a in audit if a["action"] == "reject-hand-entry"]
    assert rejected and rejected[0]["after"]["reason"] == "They took four, not five"
    assert rejected[0]["after"]["rejected_by"] == "side B"
    # The phone's outbox sending the rejected entry again is told, not stored twice.
    again = enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=wrong, expect=410)
    assert again.get_json()["code"] == "entry-rejected"
    view = enter(api, key, game, "A", {"maker": "A", "tricks": 4}, entry_id=right).get_json()
    assert view["entries"][0]["number"] == 1
    assert confirm(api, key, game, right, "B").get_json()["points"] == {"A": 1, "B": 0}


def test_the_entering_side_changes_or_withdraws_its_waiting_entry(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    first, second = new_id(), new_id()
    enter(api, key, game, "B", {"maker": "B", "tricks": 3}, entry_id=first)
    enter(api, key, game, "B", {"maker": "A", "tricks": 1}, entry_id=second)
    # Only the side that entered it changes it.
    refused = api.put(f"/api/games/{game}/entries/{first}", key=key,
                      json={"side": "A", "maker": "B", "tricks": 5}, expect=409)
    assert refused.get_json()["code"] == "not-own-entry"
    changed = api.put(f"/api/games/{game}/entries/{first}", key=key,
                      json={"side": "B", "maker": "B", "tricks": 5}, expect=200).get_json()
    assert changed["entries"][0]["hand"]["tricks"] == 5
    # The phone sending the first entry again (its outbox) gets the game, nothing twice.
    enter(api, key, game, "B", {"maker": "B", "tricks": 3}, entry_id=first, expect=200)
    left = api.post(f"/api/games/{game}/entries/{first}/withdraw", key=key,
                    json={"side": "B"}, expect=200).get_json()
    assert [(e["id"], e["number"]) for e in left["entries"]] == [(second, 1)]
    done = confirm(api, key, game, second, "A").get_json()
    assert done["points"] == {"A": 0, "B": 2} and done["hands_played"] == 1


def test_entries_are_confirmed_in_order(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    first, second = new_id(), new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=first)
    enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=second)
    refused = confirm(api, key, game, second, "B", expect=409)
    assert refused.get_json()["code"] == "confirm-in-order"
    confirm(api, key, game, first, "B")
    assert confirm(api, key, game, second, "B").get_json()["points"] == {"A": 3, "B": 0}


def test_a_confirmation_sent_again_stores_the_hand_once(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    entry_id = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry_id)
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry_id, expect=200)
    once = confirm(api, key, game, entry_id, "B").get_json()
    twice = confirm(api, key, game, entry_id, "B").get_json()
    assert once["hands_played"] == twice["hands_played"] == 1
    assert once["version"] == twice["version"]
    # The entry sent again after it became a hand: the same game, nothing stored twice.
    replay = enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry_id,
                   expect=200).get_json()
    assert replay["hands_played"] == 1


def _at_once(app, work, count=2):
    return all_at_once(app, work, count)


def test_a_confirmation_and_a_withdrawal_at_once_are_decided_once(app, api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    calls = [("confirm", "B"), ("withdraw", "A")]
    for _ in range(3):
        entry_id = new_id()
        enter(api, key, game, "A", {"maker": "B", "tricks": 3}, entry_id=entry_id)
        before = read(api, game)["hands_played"]

        def send(client, index, entry_id=entry_id):
            action, side = calls[index]
            return client.post(f"/api/games/{game}/entries/{entry_id}/{action}", key=key,
                               json={"side": side}).status_code

        answers = _at_once(app, send)
        after = read(api, game)
        assert after["waiting"] == 0
        if answers[0] == 200:  # confirmed first: the withdrawal is told it no longer waits
            assert answers[1] == 409 and after["hands_played"] == before + 1
        else:
            assert answers == [409, 200] and after["hands_played"] == before


def test_two_phones_confirming_at_once_store_the_hand_once(app, api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    entry_id = new_id()
    enter(api, key, game, "B", {"maker": "A", "tricks": 5}, entry_id=entry_id)
    answers = _at_once(app, lambda c, i: c.post(
        f"/api/games/{game}/entries/{entry_id}/confirm", key=key,
        json={"side": "A"}).status_code, count=3)
    assert answers == [200, 200, 200]
    view = read(api, game)
    assert [h["id"] for h in view["hands"]] == [entry_id] and view["points"] == {"A": 2, "B": 0}
