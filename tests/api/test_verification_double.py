"""Double entry (RULES.md section 7): each side enters every hand on its own phone without
seeing the other's; equal entries are stored at once, unequal ones are a mismatch shown side
by side and settled by the table or the organizer; later hands wait behind it."""

from __future__ import annotations

from .client import all_at_once
from .scripts import fixed_hands_game, to_target_game
from .verification_helpers import enter, new_id, night, read, stored_hands, totals


def _game(round_, table: int = 0) -> int:
    return round_["tables"][table]["games"][0]["id"]


def test_a_whole_game_entered_by_both_sides_stores_what_one_runner_would(api):
    script = fixed_hands_game(5, 3, 8)
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    for number, hand in enumerate(script, start=1):
        first, second = ("A", "B") if number % 2 else ("B", "A")
        waiting = enter(api, key, game, first, hand).get_json()
        assert waiting["hands_played"] == number - 1 and waiting["waiting"] == 1
        assert f"waits for side {second}'s own entry" in waiting["waiting_for"]
        done = enter(api, key, game, second, hand).get_json()
        assert done["hands_played"] == number and done["waiting"] == 0
    both = read(api, game)
    # The same night under sign-off, one runner entering every hand.
    plain, plain_key, plain_round = night(api, "sign_off")
    plain_game = _game(plain_round)
    for hand in script:
        api.post(f"/api/games/{plain_game}/hands", key=plain_key,
                 json={"id": new_id(), **hand}, expect=201)
    alone = read(api, plain_game)
    assert stored_hands(both) == stored_hands(alone)
    assert both["points"] == alone["points"] == {"A": 5, "B": 3}
    assert totals(api, event) == totals(api, plain)


def test_neither_side_sees_the_others_entry_before_its_own_is_in(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    enter(api, key, game, "A", {"maker": "A", "tricks": 4})
    for reader in (read(api, game, "B"), read(api, game)):
        (entry,) = reader["entries"]
        assert entry["hidden"] and entry["hand"] is None and entry["state"] == "pending"
    assert read(api, game, "A")["entries"][0]["hand"]["tricks"] == 4
    assert read(api, game, key=key)["entries"][0]["hand"]["tricks"] == 4  # the organizer
    # B's own answer when it enters shows nothing of A's before the two are compared.
    answer = enter(api, key, game, "B", {"maker": "A", "tricks": 4}).get_json()
    assert answer["hands_played"] == 1 and answer["entries"] == []


def test_a_mismatch_shows_both_entries_and_the_table_settles_it_in_one_choice(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    view = enter(api, key, game, "B", {"maker": "A", "tricks": 4, "trump": "spades"}).get_json()
    assert view["hands_played"] == 0 and view["waiting"] == 2
    (mismatch,) = view["mismatches"]
    assert mismatch["number"] == 1 and mismatch["differ"] == ["tricks", "trump"]
    assert mismatch["entries"]["A"]["hand"]["tricks"] == 3
    assert mismatch["entries"]["B"]["hand"]["tricks"] == 4
    assert {e["state"] for e in view["entries"]} == {"mismatch"}
    assert "mismatch" in view["waiting_for"] and "later hands wait" in view["waiting_for"]
    assert totals(api, event) == [0] * 8
    # Later hands wait behind it, with the reason.
    refused = enter(api, key, game, "A", {"maker": "B", "tricks": 3}, expect=409)
    assert refused.get_json()["code"] == "mismatch-waiting"
    assert "Hand 1 is a mismatch" in refused.get_json()["detail"]
    settled = api.post(f"/api/games/{game}/mismatches/1/settle", key=key,
                       json={"take": "B"}, expect=200).get_json()
    assert settled["hands_played"] == 1 and settled["points"] == {"A": 1, "B": 0}
    assert settled["hands"][0]["tricks"] == 4 and settled["hands"][0]["trump"] == "spades"
    assert settled["mismatches"] == [] and settled["waiting"] == 0
    # Sent again (a lost answer): settled once.
    again = api.post(f"/api/games/{game}/mismatches/1/settle", key=key,
                     json={"take": "B"}, expect=200).get_json()
    assert again["version"] == settled["version"] and again["hands_played"] == 1
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    rows = audit["entries"] if isinstance(audit, dict) else audit
    assert any(a["action"] == "settle-mismatch" for a in rows)
    assert any(a["action"] == "hand-mismatch" for a in rows)
    # Play goes on.
    enter(api, key, game, "A", {"maker": "B", "tricks": 3})
    assert enter(api, key, game, "B", {"maker": "B", "tricks": 3}).get_json()[
        "hands_played"] == 2


def test_the_organizer_settles_a_mismatch_with_the_corrected_hand(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    runner = api.post(f"/api/events/{event['id']}/keys", key=key,
                      json={"table": 1, "label": "table 1"}, expect=201).get_json()["key"]
    enter(api, runner, game, "A", {"maker": "B", "tricks": 5})
    enter(api, runner, game, "B", {"maker": "B", "tricks": 5, "alone": True, "loner_seat": 2})
    fixed = api.post(f"/api/games/{game}/mismatches/1/settle", key=key, json={
        "hand": {"id": "corrected-1", "maker": "B", "tricks": 4, "alone": True,
                 "loner_seat": 2}}, expect=200).get_json()
    assert [h["id"] for h in fixed["hands"]] == ["corrected-1"]
    assert fixed["points"] == {"A": 0, "B": 1}
    again = api.post(f"/api/games/{game}/mismatches/1/settle", key=key, json={
        "hand": {"id": "corrected-1", "maker": "B", "tricks": 4, "alone": True,
                 "loner_seat": 2}}, expect=200).get_json()
    assert again["version"] == fixed["version"] and again["hands_played"] == 1
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    rows = audit["entries"] if isinstance(audit, dict) else audit
    (settle,) = [a for a in rows if a["action"] == "settle-mismatch"]
    assert settle["after"]["settled_by"] == "the organizer" and settle["after"]["corrected"]


def test_refusals_store_nothing(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    before = read(api, game, key=key)
    # Settling what is not a mismatch.
    refused = api.post(f"/api/games/{game}/mismatches/1/settle", key=key,
                       json={"take": "A"}, expect=409)
    assert refused.mimetype == "application/problem+json"
    assert refused.get_json()["code"] == "not-a-mismatch"
    # A hand without its side; a side that is not A or B.
    assert api.post(f"/api/games/{game}/hands", key=key, json={
        "id": new_id(), "maker": "A", "tricks": 3}, expect=422).get_json()["code"] == \
        "side-required"
    api.post(f"/api/games/{game}/hands", key=key, json={
        "id": new_id(), "side": "C", "maker": "A", "tricks": 3}, expect=422)
    # A hand that cannot have happened is refused before it is kept.
    api.post(f"/api/games/{game}/hands", key=key, json={
        "id": new_id(), "side": "A", "maker": "A", "tricks": 7}, expect=422)
    # Confirming is not how double entry agrees.
    entry_id = new_id()
    enter(api, key, game, "A", {"maker": "A", "tricks": 3}, entry_id=entry_id)
    refused = api.post(f"/api/games/{game}/entries/{entry_id}/confirm", key=key,
                       json={"side": "B"}, expect=409).get_json()
    assert refused["code"] == "not-confirm-mode"
    # The same id with another hand.
    clash = enter(api, key, game, "A", {"maker": "A", "tricks": 5}, entry_id=entry_id,
                  expect=409).get_json()
    assert clash["code"] == "id-conflict"
    # The game's final points instead of its hands.
    after = read(api, game, key=key)
    assert after["hands"] == before["hands"] == [] and after["waiting"] == 1
    assert after["version"] == before["version"]


def test_the_mode_is_not_changed_while_entries_wait(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    refused = api.patch(f"/api/events/{event['id']}", key=key,
                        json={"verification": "sign_off"}, expect=409).get_json()
    assert refused["code"] == "entries-waiting" and "1 entry waits" in refused["detail"]
    assert api.get(f"/api/events/{event['id']}").get_json()["format"]["parameters"][
        "verification"] == "double_entry"
    enter(api, key, game, "B", {"maker": "A", "tricks": 3})
    changed = api.patch(f"/api/events/{event['id']}", key=key,
                        json={"verification": "confirm_each_hand"}, expect=200).get_json()
    assert changed["format"]["parameters"]["verification"] == "confirm_each_hand"
    assert read(api, game)["verification"] == "confirm_each_hand"


def test_under_sign_off_the_side_is_ignored_and_nothing_waits(api):
    event, key, round_ = night(api, "sign_off")
    game = _game(round_)
    view = enter(api, key, game, "B", {"maker": "A", "tricks": 3}).get_json()
    assert view["hands_played"] == 1 and "entries" not in view
    assert "waiting" not in read(api, game)


def _at_once(app, work, count=2):
    return all_at_once(app, work, count)


def test_both_phones_entering_one_hand_at_once_store_it_once(app, api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    for number in (1, 2, 3):
        hand = {"maker": "A" if number % 2 else "B", "tricks": 3 + number % 3}
        ids = [new_id(), new_id()]

        def send(client, index, hand=hand, ids=ids):
            return client.post(f"/api/games/{game}/hands", key=key, json={
                "id": ids[index], "side": "AB"[index], **hand}).status_code

        assert _at_once(app, send) == [201, 201]
        view = read(api, game, key=key)
        assert view["hands_played"] == number and view["waiting"] == 0
        # Each phone's outbox sending its entry again: the same game, nothing twice.
        for index in (0, 1):
            again = api.post(f"/api/games/{game}/hands", key=key, json={
                "id": ids[index], "side": "AB"[index], **hand}, expect=200).get_json()
            assert again["hands_played"] == number


def test_the_same_entry_sent_from_several_tries_at_once_is_kept_once(app, api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    body = {"id": "the-one-entry", "side": "A", "maker": "B", "tricks": 5}
    answers = _at_once(app, lambda c, i: c.post(f"/api/games/{game}/hands", key=key,
                                                 json=body).status_code, count=4)
    assert sorted(answers) == [200, 200, 200, 201]
    assert [e["id"] for e in read(api, game, key=key)["entries"]] == ["the-one-entry"]


def test_a_round_does_not_close_while_an_entry_waits(api):
    event, key, round_ = night(api, "double_entry")
    games = [t["games"][0]["id"] for t in round_["tables"]]
    script = fixed_hands_game(5, 3, 8)
    for game in games:
        for hand in script[:-1]:
            enter(api, key, game, "A", hand)
            enter(api, key, game, "B", hand)
        enter(api, key, game, "A", script[-1])
    enter(api, key, games[0], "B", script[-1])
    refused = api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=409).get_json()
    assert "has 1 entry waiting to be confirmed or settled" in refused["detail"]
    assert "table 2" in refused["detail"]
    enter(api, key, games[1], "B", script[-1])
    api.close_round(event, round_["id"])


def test_an_unknown_way_of_checking_scores_is_refused_at_creation(api):
    refused = api.post("/api/events", json={"name": "Odd", "preset": "progressive",
                                            "overrides": {"verification": "honour"}},
                       expect=422).get_json()
    assert "verification" in refused["detail"]
    refused = api.patch(f"/api/events/{night(api, 'sign_off')[0]['id']}",
                        key=None, json={"verification": "honour"})
    assert refused.status_code in (401, 422)


def test_a_league_match_of_three_games_under_double_entry(api):
    event, key, _teams = api.league(teams=("North", "South"), verification="double_entry")
    round_ = api.seat_round(event, 1)
    games = round_["tables"][0]["games"]
    first = games[0]["id"]
    for hand in to_target_game("A", 4):
        enter(api, key, first, "A", hand)
        view = enter(api, key, first, "B", hand).get_json()
    assert view["over"] and view["winner"] == "A" and view["points"] == {"A": 10, "B": 4}
    assert view["match"]["games_won"] == {"A": 1, "B": 0}


def test_settling_a_hand_both_sides_agreed_is_refused(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})
    enter(api, key, game, "B", {"maker": "A", "tricks": 3})
    before = read(api, game, key=key)
    for body in ({"take": "A"}, {"hand": {"id": new_id(), "maker": "B", "tricks": 3}}):
        refused = api.post(f"/api/games/{game}/mismatches/1/settle", key=key, json=body,
                           expect=409).get_json()
        assert refused["code"] == "not-a-mismatch"
    assert read(api, game, key=key) == before
