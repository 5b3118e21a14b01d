"""A whole progressive night under double entry (RULES.md section 7, issue 29), short: two
tables, two rounds of two hands. At table 1 each pair enters every hand on its own phone (one
phone loses the network for a hand and sends it once it is back); table 2's pairs enter
through the API as phones elsewhere would. Each round closes on agreed hands only, round 2
is seated from them, and the leaderboard counts every agreed hand once. Once round 1 closed,
its game still offers "Change" with the time left in the correction window."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import join_with_pin, open_game, pick_side, side_names, tap_hand, wait_for_hands

pytestmark = pytest.mark.browser

# (maker, tricks) of each table's two hands, the same in both rounds.
TABLE_1 = [("A", 3), ("B", 5)]
TABLE_2 = [("B", 3), ("A", 5)]


def _both_sides_enter(api, key: str, game_id: int, hands) -> None:
    """Table 2's two phones, elsewhere: each side enters every hand itself."""
    for maker, tricks in hands:
        for side in "AB":
            api.call("POST", f"/api/games/{game_id}/hands",
                     {"id": f"t2-{uuid.uuid4().hex[:10]}", "side": side, "maker": maker,
                      "tricks": tricks}, key=key, expect=201)


def test_two_rounds_of_two_tables_entered_by_both_pairs_phones(site):
    api = site.api
    event = EventSetup(api, overrides={"verification": "double_entry", "hands_per_game": 2})
    key = event.organizer_key
    runner = event.runner_key()["key"]
    _, page = site.phone()
    other, phone_b = site.phone()
    join_with_pin(page, event)
    join_with_pin(phone_b, event)
    round_ = event.round
    games = []
    for number in (1, 2):
        first, second = (t["games"][0]["id"] for t in round_["tables"])
        games += [first, second]
        names = side_names(event.game(first))
        open_game(page, event, first)
        pick_side(page, names["A"])
        open_game(phone_b, event, first)
        pick_side(phone_b, names["B"])
        (maker_1, tricks_1), (maker_2, tricks_2) = TABLE_1
        tap_hand(page, names[maker_1], tricks_1)
        tap_hand(phone_b, names[maker_1], tricks_1)
        wait_for_hands(event, first, 1)
        if number == 1:  # pair B's phone loses the network for the second hand
            other.set_offline(True)
        tap_hand(phone_b, names[maker_2], tricks_2)
        if number == 1:
            expect(phone_b.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
        tap_hand(page, names[maker_2], tricks_2)
        if number == 1:
            expect(page.locator(".entries li")).to_contain_text(
                f"waiting for {names['B']}'s own entry")
            other.set_offline(False)
            expect(phone_b.locator("#outbox-badge")).to_be_hidden(timeout=20000)
        game = wait_for_hands(event, first, 2)
        assert [(h["maker"], h["tricks"]) for h in game["hands"]] == TABLE_1
        assert game["over"] and game["waiting"] == 0
        _both_sides_enter(api, runner, second, TABLE_2)
        api.call("POST", f"/api/rounds/{round_['id']}/close", key=key, expect=200)
        if number == 1:
            # Round 1 closed: its game can still be changed by the table, for a while.
            window = page.locator(".hands .window-open")
            expect(window).to_contain_text("You can still change a hand until",
                                           timeout=10000)
            expect(window).to_contain_text("minutes left")
            expect(page.get_by_role("button", name="Change hand 1")).to_be_visible()
            _, round_, _ = api.call("POST", f"/api/events/{event.id}/rounds",
                                    {"number": 2}, key=key, expect=201)
    played = [event.game(g) for g in games]
    assert all(g["over"] and g["waiting"] == 0 for g in played)
    board = api.get(f"/api/events/{event.id}/leaderboard")
    # Every agreed point counts once for each of the two players who earned it.
    assert sum(r["total"] for r in board["rows"]) == \
        2 * sum(g["points"]["A"] + g["points"]["B"] for g in played)
