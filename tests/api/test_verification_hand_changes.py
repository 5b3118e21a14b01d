"""A change to an agreed hand under confirm_each_hand or double_entry (RULES.md section 7): a
runner's key does not change or delete it alone; the change waits as the side's proposal
until the other side confirms it (or, under double entry, makes the same change), and the
other side may reject it. The organizer changes it at once. Every change sent again counts
once."""

from __future__ import annotations

from .verification_helpers import confirm, enter, new_id, night, read, totals


def _agreed_hands(api, mode: str, hands: list[dict]):
    """A night under `mode` whose first game has these hands agreed, entered with a runner's
    key: (event, the runner's key, game)."""
    event, organizer, round_ = night(api, mode)
    key = api.post(f"/api/events/{event['id']}/keys", key=organizer, json={"label": "Phone"},
                   expect=201).get_json()["key"]
    game = round_["tables"][0]["games"][0]["id"]
    for hand in hands:
        entry_id = new_id()
        enter(api, key, game, "A", hand, entry_id=entry_id)
        if mode == "double_entry":
            enter(api, key, game, "B", hand)
        else:
            confirm(api, key, game, entry_id, "B")
    return event, key, game


def _put(api, key, game, hand_id, body, version, expect):
    return api.put(f"/api/games/{game}/hands/{hand_id}", key=key, json=body,
                   headers={"If-Match": f'"{version}"'}, expect=expect)


def _actions(api, event, key):
    return [a["action"] for a in api.get(f"/api/events/{event['id']}/audit",
                                         key=event["organizer_key"], expect=200).get_json()]


def test_a_runners_change_waits_for_the_other_side_and_counts_once(api):
    event, key, game = _agreed_hands(api, "confirm_each_hand", [{"maker": "A", "tricks": 3}])
    before = read(api, game)
    hand = before["hands"][0]
    totals_before = totals(api, event)
    body = {"side": "A", "maker": "A", "tricks": 5}
    waits = _put(api, key, game, hand["id"], body, before["version"], 202).get_json()
    assert waits["hands"][0]["tricks"] == 3 and waits["points"] == {"A": 1, "B": 0}
    change = waits["entries"][0]
    assert (change["kind"], change["hand_id"], change["state"], change["side"]) == \
        ("edit", hand["id"], "pending", "A")
    assert change["hand"]["tricks"] == 5
    assert "The change of hand 1 waits for side B" in waits["waiting_for"]
    assert totals(api, event) == totals_before, "a proposal counts in no total"
    again = _put(api, key, game, hand["id"], body, before["version"], 202).get_json()
    assert [e["id"] for e in again["entries"]] == [change["id"]], "sent again: kept once"

    done = confirm(api, key, game, change["id"], "B").get_json()
    assert done["hands"][0]["tricks"] == 5 and done["points"] == {"A": 2, "B": 0}
    assert done["waiting"] == 0
    replay = _put(api, key, game, hand["id"], body, before["version"], 200).get_json()
    assert replay["points"] == {"A": 2, "B": 0} and replay["waiting"] == 0
    assert confirm(api, key, game, change["id"], "B").get_json()["points"] == {"A": 2, "B": 0}
    actions = _actions(api, event, key)
    assert actions.count("propose-hand-change") == 1 and actions.count("edit-hand") == 1


def test_the_same_side_cannot_agree_to_its_own_change_and_a_side_is_needed(api):
    _event, key, game = _agreed_hands(api, "confirm_each_hand", [{"maker": "B", "tricks": 4}])
    view = read(api, game)
    hand_id = view["hands"][0]["id"]
    refused = _put(api, key, game, hand_id, {"maker": "B", "tricks": 5}, view["version"], 422)
    assert refused.get_json()["code"] == "side-required"
    assert read(api, game)["waiting"] == 0
    waits = _put(api, key, game, hand_id, {"side": "B", "maker": "B", "tricks": 5},
                 view["version"], 202).get_json()
    own = confirm(api, key, game, waits["entries"][0]["id"], "B", expect=409)
    assert own.get_json()["code"] == "own-entry"
    assert read(api, game)["hands"][0]["tricks"] == 4


def test_a_deletion_the_other_side_rejects_leaves_the_hand(api):
    event, key, game = _agreed_hands(api, "confirm_each_hand",
                                     [{"maker": "A", "tricks": 3}, {"maker": "B", "tricks": 3}])
    view = read(api, game)
    path = f"/api/games/{game}/hands/{view['hands'][0]['id']}?side=B"
    version = {"If-Match": f'"{view["version"]}"'}
    waits = api.delete(path, key=key, headers=version, expect=202).get_json()
    entry = waits["entries"][0]
    assert entry["kind"] == "delete" and waits["hands_played"] == 2
    api.post(f"/api/games/{game}/entries/{entry['id']}/reject", key=key,
             json={"side": "A", "reason": "We did make three"}, expect=200)
    after = read(api, game)
    assert after["hands_played"] == 2 and after["waiting"] == 0
    assert api.delete(path, key=key, headers=version, expect=200).get_json()[
        "hands_played"] == 2, "the rejected deletion sent again is not kept again"
    assert "reject-hand-entry" in _actions(api, event, key)


def test_under_double_entry_both_sides_making_the_change_stores_it(api):
    _event, key, game = _agreed_hands(api, "double_entry", [{"maker": "A", "tricks": 3}])
    view = read(api, game)
    hand_id = view["hands"][0]["id"]
    fixed = {"maker": "A", "tricks": 4}
    waits = _put(api, key, game, hand_id, {"side": "A", **fixed}, view["version"],
                 202).get_json()
    seen_by_b = read(api, game, side="B")["entries"][0]
    assert not seen_by_b["hidden"] and seen_by_b["hand"]["tricks"] == 4
    other = _put(api, key, game, hand_id, {"side": "B", "maker": "A", "tricks": 5},
                 view["version"], 409).get_json()
    assert other["code"] == "change-waiting"
    done = _put(api, key, game, hand_id, {"side": "B", **fixed}, view["version"],
                200).get_json()
    assert done["hands"][0]["tricks"] == 4 and done["waiting"] == 0
    assert waits["entries"][0]["state"] == "pending"


def test_an_agreed_deletion_moves_the_waiting_entries_after_it_down(api):
    _event, key, game = _agreed_hands(api, "double_entry",
                                      [{"maker": "A", "tricks": 3}, {"maker": "B", "tricks": 3}])
    enter(api, key, game, "A", {"maker": "A", "tricks": 4})  # hand 3, waiting for B
    view = read(api, game)
    first = view["hands"][0]["id"]
    version = {"If-Match": f'"{view["version"]}"'}
    waits = api.delete(f"/api/games/{game}/hands/{first}?side=A", key=key, headers=version,
                       expect=202).get_json()
    change = next(e for e in waits["entries"] if e["kind"] == "delete")
    done = confirm(api, key, game, change["id"], "B").get_json()
    assert done["hands_played"] == 1
    assert [e["number"] for e in done["entries"]] == [2], "hand 3's entry is hand 2 now"
    stored = enter(api, key, game, "B", {"maker": "A", "tricks": 4}).get_json()
    assert stored["hands_played"] == 2 and stored["waiting"] == 0


def test_the_organizer_changes_an_agreed_hand_at_once(api):
    event, _key, game = _agreed_hands(api, "confirm_each_hand", [{"maker": "A", "tricks": 3}])
    view = read(api, game)
    changed = _put(api, event["organizer_key"], game, view["hands"][0]["id"],
                   {"maker": "A", "tricks": 5}, view["version"], 200).get_json()
    assert changed["hands"][0]["tricks"] == 5 and read(api, game)["waiting"] == 0
