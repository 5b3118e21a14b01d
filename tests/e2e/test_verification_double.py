"""Double entry (RULES.md section 7, issue 29) on two phones, one per pair: each enters every
hand without seeing the other's until its own is in; equal entries count at once; a mismatch
shows both entries side by side with the differing fields marked and stops entry until the
table settles it in one choice (theirs, ours, or the hand entered again); a phone with no
network keeps its entry and sends it once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import (
    Taps,
    join_with_pin,
    open_game,
    pair_a_phone,
    pick_side,
    second_phone,
    side_names,
    tap_hand,
    tap_sheet_row,
    wait_for_hands,
    wait_until,
)

pytestmark = pytest.mark.browser


def test_two_phones_enter_each_hand_and_settle_a_mismatch_in_one_choice(
        page, api, browser, base_url, shot):
    event, game_id, names = pair_a_phone(page, api, "double_entry")
    other, phone_b = second_phone(browser, base_url, event, game_id, names["B"])
    try:
        # Pair A's entry is hidden from pair B until B's own is in; equal, it counts at once.
        tap_hand(page, names["A"], 3)
        expect(page.locator(".entries li")).to_contain_text(f"waiting for {names['B']}'s own entry")
        b_line = phone_b.locator(".entries li")
        expect(b_line).to_contain_text("entered by them; it shows once yours is in")
        expect(b_line).not_to_contain_text("3 tricks")
        shot(phone_b, "verify-double-hidden", full_page=False)
        tap_hand(phone_b, names["A"], 3)
        game = wait_for_hands(event, game_id, 1)
        assert game["hands"][0]["tricks"] == 3
        expect(page.locator(".entries")).to_have_count(0)
        expect(page.locator('.side-points[data-side="A"]')).to_contain_text(
            str(game["points"]["A"]))

        # The two differ on who called: both phones show it side by side, entry waits.
        tap_hand(page, names["A"], 4)
        tap_hand(phone_b, names["B"], 4)
        for phone in (page, phone_b):
            table = phone.locator("table.mismatch")
            expect(table).to_be_visible()
            expect(table.locator("tr.differ")).to_have_count(1)
            expect(table.locator('tr[data-field="maker"]')).to_have_class("differ")
            expect(phone.locator("section.entry-pad")).to_have_count(0)
            expect(phone.locator(".verify")).to_contain_text("New hands wait until")
        shot(phone_b, "verify-double-mismatch", full_page=False)
        phone_b.get_by_role("button", name="Theirs is right").click()
        game = wait_for_hands(event, game_id, 2)
        assert game["hands"][1]["maker"] == "A" and game["mismatches"] == []
        expect(page.locator("table.mismatch")).to_have_count(0)
        expect(page.locator("section.entry-pad")).to_be_visible()
    finally:
        other.close()


def test_a_loner_missed_is_entered_again_and_an_entry_made_offline_goes_once(
        page, api, browser, base_url):
    event, game_id, names = pair_a_phone(page, api, "double_entry")
    other, phone_b = second_phone(browser, base_url, event, game_id, names["B"])
    try:
        # A loner missed on one phone: pair A enters the hand again, as it was played.
        tap_hand(page, names["A"], 5, alone=True)
        tap_hand(phone_b, names["A"], 5)
        expect(page.locator('table.mismatch tr[data-field="alone"]')).to_have_class("differ")
        page.get_by_role("button", name="Enter the hand again").click()
        expect(page.locator(".verify")).to_contain_text("Enter hand 1 again")
        tap_hand(page, names["A"], 5, alone=True)
        game = wait_for_hands(event, game_id, 1)
        assert game["hands"][0]["alone"] is True and game["waiting"] == 0

        # Pair B's phone sees the hand settled, then loses the network: its entry waits on the
        # phone and goes once, then agrees.
        expect(phone_b.locator("section.entry-pad")).to_be_visible()
        expect(phone_b.locator(".verify [role=alert]")).to_have_count(0)
        other.set_offline(True)
        tap_hand(phone_b, names["B"], 3)
        expect(phone_b.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
        # Not provisional either: a hand kept here counts only once both pairs agree.
        expect(phone_b.locator(".provisional-mark")).to_have_count(0)
        expect(phone_b.locator(".game-notes")).to_contain_text("1 hand not sent yet")
        tap_hand(page, names["B"], 3)
        expect(page.locator(".entries li")).to_contain_text(f"waiting for {names['B']}'s own entry")
        other.set_offline(False)
        expect(phone_b.locator("#outbox-badge")).to_be_hidden(timeout=20000)
        game = wait_for_hands(event, game_id, 2)
        assert [h["maker"] for h in game["hands"]] == ["A", "B"]
        assert game["waiting"] == 0
    finally:
        other.close()


def test_a_mismatch_settled_with_no_network_is_sent_once_back_online(
        page, api, context, shot):
    event = EventSetup(api, overrides={"verification": "double_entry"})
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    key = event.runner_key()["key"]
    join_with_pin(page, event)
    open_game(page, event, game_id)
    pick_side(page, names["A"])
    # Pair B's phone is elsewhere: its entry of hand 1 comes through the API.
    tap_hand(page, names["A"], 3)
    api.call("POST", f"/api/games/{game_id}/hands", {"id": "b-1", "side": "B", "maker": "A",
                                                     "tricks": 4}, key=key, expect=201)
    expect(page.locator('table.mismatch tr[data-field="tricks"]')).to_have_class("differ")
    context.set_offline(True)
    page.get_by_role("button", name="Ours is right").click()
    expect(page.locator(".verify")).to_contain_text("goes when the network is back")
    assert event.game(game_id)["hands_played"] == 0
    context.set_offline(False)
    expect(page.locator("#outbox-badge")).to_be_hidden(timeout=20000)
    game = wait_for_hands(event, game_id, 1)
    assert game["hands"][0]["tricks"] == 3 and game["waiting"] == 0
    expect(page.locator("table.mismatch")).to_have_count(0)


def test_a_paper_sheet_from_the_phone_goes_as_its_pairs_entry_and_a_differing_row_shows(
        page, api):
    event = EventSetup(api, overrides={"verification": "double_entry"})
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    join_with_pin(page, event)
    open_game(page, event, game_id)
    pick_side(page, names["B"])
    page.get_by_role("link", name="Enter from a paper sheet").click()
    expect(page.locator("li.paper-row")).to_have_count(8)
    rows = [("A", 3), ("B", 4), ("A", 5), ("B", 0), ("A", 3), ("B", 3), ("A", 4), ("B", 5)]
    taps = Taps(page)
    for n, (maker, tricks) in enumerate(rows, start=1):
        tap_sheet_row(page, taps, n, names[maker], tricks)
    page.get_by_role("button", name="Send the sheet").tap()
    wait_until(page, "!location.pathname.endsWith('/sheet')")
    expect(page.locator(".toast")).to_contain_text("count once the other pair agrees")
    entries = event.game(game_id)["entries"]
    assert [(e["side"], e["kind"]) for e in entries] == [("B", "sheet")]
    # Pair A's sheet differs in hand 3's tricks: the phone shows that row, and one tap settles.
    key = event.runner_key()["key"]
    theirs = [{"maker": m, "tricks": t} for m, t in rows]
    theirs[2]["tricks"] = 4
    api.call("POST", f"/api/games/{game_id}/paper-sheet",
             {"id": "sheet-a", "side": "A", "hands": theirs}, key=key, expect=201)
    differ = page.locator('table.mismatch tr[data-field="hands[2].tricks"]')
    expect(differ).to_have_class("differ")
    expect(differ).to_contain_text("Hand 3: tricks ≠54")
    page.get_by_role("button", name="Ours is right").click()
    game = wait_for_hands(event, game_id, 8)
    assert game["waiting"] == 0 and game["hands"][2]["tricks"] == 5
    expect(page.locator(".game-progress")).to_contain_text("8 played")
