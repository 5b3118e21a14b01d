"""What a phone at a table does twice or by mistake under the two ways of agreeing a score: a
rejection or withdrawal sent again, the wrong side withdrawing, a change that changes nothing,
a sheet changed row by row, a settlement that says neither side. Each answer is the one the
first call got, or a refusal that says what to do, with nothing stored."""

from __future__ import annotations

from .verification_helpers import enter, new_id, night, read, sheet


def _entries(api, game):
    return [(e["side"], e["state"], e["hand"]) for e in read(api, game)["entries"]]


def test_a_rejection_sent_again_is_answered_as_the_first_and_the_entering_side_cannot_reject(
        api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    entry = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 4}, entry_id=entry)
    own = api.post(f"/api/games/{game}/entries/{entry}/reject", key=key,
                   json={"side": "A", "reason": "typo"}, expect=409)
    assert own.mimetype == "application/problem+json" and own.get_json()["code"] == "own-entry"
    assert "withdraw it or change it" in own.get_json()["detail"]
    assert read(api, game)["waiting"] == 1
    first = api.post(f"/api/games/{game}/entries/{entry}/reject", key=key,
                     json={"side": "B", "reason": "it was 3"}, expect=200).get_json()
    again = api.post(f"/api/games/{game}/entries/{entry}/reject", key=key,
                     json={"side": "B", "reason": "it was 3"}, expect=200).get_json()
    assert first["waiting"] == again["waiting"] == 0 and again["hands"] == []


def test_only_the_entering_side_withdraws_and_a_withdrawal_sent_again_changes_nothing(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    entry = new_id()
    enter(api, key, game, "B", {"maker": "B", "tricks": 5}, entry_id=entry)
    theirs = api.post(f"/api/games/{game}/entries/{entry}/withdraw", key=key,
                      json={"side": "A"}, expect=409)
    assert theirs.get_json()["code"] == "not-own-entry"
    assert "only the side that entered it may withdraw it" in theirs.get_json()["detail"]
    for _ in range(2):
        answer = api.post(f"/api/games/{game}/entries/{entry}/withdraw", key=key,
                          json={"side": "B"}, expect=200).get_json()
        assert answer["waiting"] == 0 and answer["hands"] == []


def test_a_change_to_the_same_hand_stores_nothing_new(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = round_["tables"][0]["games"][0]["id"]
    entry = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry)
    api.put(f"/api/games/{game}/entries/{entry}", key=key,
            json={"side": "A", "maker": "A", "tricks": 4}, expect=200)
    before = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    api.put(f"/api/games/{game}/entries/{entry}", key=key,
            json={"side": "A", "maker": "A", "tricks": 4}, expect=200)
    after = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert after == before, "a change sent again is not a second change"
    assert _entries(api, game)[0][2]["tricks"] == 4


def test_a_sheets_entry_is_not_changed_row_by_row(api):
    event, key, round_ = night(api, "confirm_each_hand", preset="wec-singles", players=12)
    game = round_["tables"][0]["games"][0]["id"]
    rows = [{"maker": "A", "tricks": 3}] * 12
    waiting = sheet(api, key, game, "A", rows).get_json()
    entry = waiting["entries"][0]["id"]
    refused = api.put(f"/api/games/{game}/entries/{entry}", key=key,
                      json={"side": "A", "maker": "B", "tricks": 3}, expect=409)
    assert refused.get_json()["code"] == "sheet-entry"
    assert "withdraw it and enter the sheet again" in refused.get_json()["detail"]
    assert read(api, game)["waiting"] == 1


def test_a_settlement_that_names_no_side_and_no_hand_is_refused(api):
    event, key, round_ = night(api, "double_entry")
    game = round_["tables"][0]["games"][0]["id"]
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    enter(api, key, game, "B", {"maker": "A", "tricks": 4}, expect=201)
    refused = api.post(f"/api/games/{game}/mismatches/1/settle", key=key, json={}, expect=422)
    assert refused.mimetype == "application/problem+json"
    assert refused.get_json()["code"] == "settle-how"
    assert read(api, game)["mismatches"], "the mismatch still waits"
