"""A WEC singles round under confirm each hand (RULES.md section 7, issue 29), from the phones,
on both databases: at table 1 each pair has its own phone, one enters a hand and the other
confirms it with one tap; one confirmation is made with no network and goes once it is back.
The other tables' phones are elsewhere (the API: one pair enters, the other confirms). The
round closes on agreed hands only and the standings count each hand once."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import join_with_pin, open_game, pick_side, side_names, tap_hand, wait_for_hands

pytestmark = pytest.mark.browser


def _entered_and_confirmed(api, key: str, game_id: int, hands) -> None:
    for maker, tricks in hands:
        entry = f"w-{uuid.uuid4().hex[:10]}"
        api.call("POST", f"/api/games/{game_id}/hands",
                 {"id": entry, "side": "A", "maker": maker, "tricks": tricks}, key=key,
                 expect=201)
        api.call("POST", f"/api/games/{game_id}/entries/{entry}/confirm", {"side": "B"},
                 key=key, expect=200)


def test_a_wec_round_confirmed_hand_by_hand_from_the_phones(site):
    api = site.api
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC, confirmed",
                       overrides={"verification": "confirm_each_hand", "hands_per_game": 2})
    key, runner = event.organizer_key, event.runner_key()["key"]
    first = event.game_id(0)
    names = side_names(event.game(first))
    phone_a_context, phone_a = site.phone()
    _, phone_b = site.phone()
    for phone, side in ((phone_a, "A"), (phone_b, "B")):
        join_with_pin(phone, event)
        open_game(phone, event, first)
        pick_side(phone, names[side])

    # Hand 1: pair A enters it; it counts only once pair B's phone confirms it.
    tap_hand(phone_a, names["A"], 3)
    line = phone_b.locator(".entries li").first
    expect(line).to_contain_text(f"{names['A']} called")
    assert event.game(first)["hands_played"] == 0
    line.get_by_role("button", name="Confirm").click()
    wait_for_hands(event, first, 1)

    # Hand 2: pair B enters a march; pair A confirms it with no network, and it goes once.
    tap_hand(phone_b, names["B"], 5)
    line = phone_a.locator(".entries li").first
    expect(line).to_contain_text(f"{names['B']} called")
    phone_a_context.set_offline(True)
    line.get_by_role("button", name="Confirm").click()
    expect(phone_a.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    assert event.game(first)["hands_played"] == 1
    phone_a_context.set_offline(False)
    expect(phone_a.locator("#outbox-badge")).to_be_hidden(timeout=20000)
    game = wait_for_hands(event, first, 2)
    assert [(h["maker"], h["tricks"]) for h in game["hands"]] == [("A", 3), ("B", 5)]
    assert game["over"] and game["waiting"] == 0 and game["points"] == {"A": 1, "B": 2}

    # The other tables, from phones elsewhere.
    others = [t["games"][0]["id"] for t in event.tables[1:]]
    for game_id in others:
        _entered_and_confirmed(api, runner, game_id, [("A", 4), ("B", 0)])
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=key, expect=200)

    played = [event.game(g) for g in [first, *others]]
    assert all(g["over"] and g["waiting"] == 0 for g in played)
    board = api.get(f"/api/events/{event.id}/leaderboard")
    assert sum(r["total"] for r in board["rows"]) == \
        2 * sum(g["points"]["A"] + g["points"]["B"] for g in played)
