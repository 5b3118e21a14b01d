"""Confirm each hand (RULES.md section 7, issue 29) on the table's phones: each phone says once
which pair it enters for; a hand entered by one pair waits for the other's one tap (on their own
phone, or "Confirm as ..." on the same phone handed across); "Not right" sends it back; the
score counts agreed hands only; a confirmation made with no network goes once it is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import SERVICE_WORKER, EventSetup
from .steps import (
    join_with_pin,
    open_game,
    pair_a_phone,
    pick_side,
    second_phone,
    side_names,
    tap_hand,
    wait_for_hands,
    wait_for_service_worker,
)

pytestmark = pytest.mark.browser



def test_the_other_pair_confirms_or_rejects_each_hand_and_only_agreed_hands_count(
        page, api, browser, base_url, shot):
    event, game_id, names = pair_a_phone(page, api, "confirm_each_hand")
    shot(page, "verify-confirm-pick-side", full_page=False)

    # Pair A enters a hand: it waits, and the score does not count it.
    tap_hand(page, names["A"], 3)
    line = page.locator(".entries li").first
    expect(line).to_contain_text(f"waiting for {names['B']} to confirm")
    expect(page.locator(".verify-side")).to_contain_text("1 entry waits")
    expect(page.locator('.side-points[data-side="A"]')).to_contain_text("0")
    assert event.game(game_id)["hands_played"] == 0

    # Pair B's own phone shows it in words: one tap confirms it, and both phones count it.
    other, phone_b = second_phone(browser, base_url, event, game_id, names["B"])
    try:
        b_line = phone_b.locator(".entries li").first
        expect(b_line).to_contain_text(f"{names['A']} called")
        expect(b_line).to_contain_text("3 tricks")
        shot(phone_b, "verify-confirm-other-phone", full_page=False)
        b_line.get_by_role("button", name="Confirm").click()
        game = wait_for_hands(event, game_id, 1)
        assert game["hands"][0]["maker"] == "A" and game["hands"][0]["state"] == "agreed"
        expect(page.locator('.side-points[data-side="A"]')).to_contain_text(
            str(game["points"]["A"]))
        expect(page.locator(".entries")).to_have_count(0)

        # The same phone handed across the table: "Confirm as <pair B>".
        tap_hand(page, names["B"], 4)
        page.get_by_role("button", name=f"Confirm as {names['B']}").click()
        wait_for_hands(event, game_id, 2)

        # Pair B says a hand is not right: it is set aside and pair A's phone says so.
        tap_hand(page, names["A"], 5)
        expect(phone_b.locator(".entries li")).to_contain_text("5 tricks")
        phone_b.get_by_role("button", name="Not right").click()
        expect(page.locator(".verify [role=alert]")).to_contain_text("not right: enter it again")
        assert event.game(game_id)["hands_played"] == 2
        assert event.game(game_id)["waiting"] == 0

    finally:
        other.close()


def test_a_confirmation_made_with_no_network_is_sent_once_back_online(
        page, api, context, shot):
    event = EventSetup(api, overrides={"verification": "confirm_each_hand"})
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    # Pair A's phone is elsewhere: its entry comes through the API.
    api.call("POST", f"/api/games/{game_id}/hands", {"id": "a-1", "side": "A", "maker": "A",
                                                     "tricks": 1}, key=event.runner_key()["key"],
             expect=201)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    pick_side(page, names["B"])
    expect(page.locator(".entries li")).to_contain_text("1 tricks")
    context.set_offline(True)
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator(".verify-side")).to_contain_text("1 choice not sent yet")
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    expect(page.locator(".entries li")).to_contain_text("your choice is not sent yet")
    shot(page, "verify-confirm-offline", full_page=False)
    assert event.game(game_id)["hands_played"] == 0
    context.set_offline(False)
    expect(page.locator("#outbox-badge")).to_be_hidden(timeout=20000)
    game = wait_for_hands(event, game_id, 1)
    assert [h["tricks"] for h in game["hands"]] == [1] and game["waiting"] == 0
    expect(page.locator(".entries")).to_have_count(0)


def test_a_phone_remembers_its_side_per_game_and_the_side_can_be_changed(page, api, shot):
    """Undo on the pad takes back this pair's waiting entry too."""
    event = EventSetup(api, overrides={"verification": "confirm_each_hand"})
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    join_with_pin(page, event)
    open_game(page, event, game_id)
    # No hand can be entered before the phone says which pair it is.
    expect(page.locator("section.entry-pad")).to_have_count(0)
    expect(page.locator("section.verify")).to_contain_text("Which pair")
    shot(page, "verify-choose-side", full_page=False)
    pick_side(page, names["B"])
    page.reload()
    expect(page.locator(".verify-side")).to_contain_text(f"{names['B']}'s phone")
    page.locator('[data-k="side-change"]').click()
    pick_side(page, names["A"])
    tap_hand(page, names["A"], 3)
    expect(page.locator(".entries li")).to_contain_text(f"waiting for {names['B']}")
    entries = event.game(game_id)["entries"]
    assert [e["side"] for e in entries] == ["A"]
    # "Undo last hand" takes the waiting entry back; it never counted.
    page.locator('[data-k="undo-last"]').click()
    expect(page.locator(".entries")).to_have_count(0)
    expect(page.locator(".verify [role=alert]")).to_have_count(0)
    game = event.game(game_id)
    assert game["waiting"] == 0 and game["hands_played"] == 0


@pytest.mark.browser_context_args(**SERVICE_WORKER)
def test_a_game_that_needs_both_pairs_opens_with_no_network_and_keeps_a_hand_to_send(
        page, api, context):
    event, game_id, names = pair_a_phone(page, api, "confirm_each_hand")
    wait_for_service_worker(page)
    context.set_offline(True)
    page.reload()
    # verify.js comes from the service worker's cache: the phone still knows its pair.
    expect(page.locator(".verify-side")).to_contain_text(f"{names['A']}'s phone")
    tap_hand(page, names["A"], 4)
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    context.set_offline(False)
    expect(page.locator(".entries li")).to_contain_text(f"waiting for {names['B']} to confirm",
                                                        timeout=20000)
    entries = event.game(game_id)["entries"]
    assert [(e["side"], e["hand"]["tricks"]) for e in entries] == [("A", 4)]
