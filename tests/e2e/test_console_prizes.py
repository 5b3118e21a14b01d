"""The Prizes section on a phone, and the door prize on the projector: an entry fee and a
maintenance fee, who paid, the pool and the payouts (a shared 1st), a disqualification, an
award of the organizer's own, and a door-prize draw that fills the projector; the followed
player's phone says what they won."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup
from .steps import play

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}}


@pytest.mark.browser_context_args(**PHONE)
def test_money_a_disqualification_an_award_and_a_door_prize(page: Page, api, shot):
    night = EventSetup(api, "progressive", players=12, name="Loner Seekers, prizes")
    table = night.tables[0]
    play(night, night.game_id(0), [("A", 5), ("B", 3)] * 4)  # side A 8, side B 4
    side_a = [s["name"] for s in table["seats"] if s["side"] == "A"]
    side_b = [s["name"] for s in table["seats"] if s["side"] == "B"]
    winner, struck = side_a

    projector = page.context.new_page()
    projector.set_viewport_size({"width": 1280, "height": 720})
    projector.goto(f"/e/{night.id}/projector")
    expect(projector.locator(".proj-rows li").first).to_be_visible()

    page.goto(f"/e/{night.id}/organize/prizes#key={night.organizer_key}")
    money = page.locator(".money-card")
    expect(money).to_contain_text("No entry fee at this event")
    page.get_by_label("Entry fee").fill("10")
    page.get_by_label("Maintenance fee, as").fill("20")
    page.get_by_role("button", name="Save the money").click()
    expect(money.locator(".msg")).to_contain_text("Saved: $10 a player")

    money.get_by_text(re.compile(r"Who paid \(0 of 12\)")).click()
    boxes = money.locator(".paid-list input[type=checkbox]")
    expect(boxes).to_have_count(12)
    for index in range(10):  # two have not paid yet
        boxes.nth(index).check()
        expect(boxes.nth(index)).to_be_enabled()
        expect(money.locator(".msg")).to_contain_text(": paid.")
    # 10 paid x $10 = $100, less $20: $80; 12 players split 60/40; two share 1st.
    expect(money.locator(".pool")).to_contain_text("$80 to pay out", timeout=10000)
    expect(money.locator(".money-places")).to_contain_text("1st: 60% = $48")
    expect(money.locator(".payouts tbody tr")).to_have_count(2)
    expect(money.locator(".payouts")).to_contain_text(f"{winner}")
    expect(money.locator(".payouts")).to_contain_text("$40")
    money.locator(".pool").scroll_into_view_if_needed()
    shot(page, "console-prizes-money", full_page=False)

    page.get_by_label("Player to disqualify").fill(struck)
    page.get_by_label("Reason").fill("A phone at the table (rule 17)")
    page.get_by_role("button", name="Disqualify").click()
    expect(page.locator(".struck-list")).to_contain_text(
        f"{struck} · A phone at the table (rule 17)", timeout=15000)
    # The places close up: the winner alone takes 1st's money, 2nd is shared by side B.
    expect(money.locator(".payouts tbody tr").first).to_contain_text(
        re.compile(rf"1\s*{re.escape(winner)}\s*\$48"), timeout=15000)

    page.get_by_label("Award", exact=True).fill("Best Dressed")
    page.get_by_label("Winner", exact=True).fill(side_b[0])
    page.get_by_role("button", name="Give the award").click()
    expect(page.locator(".named-awards")).to_contain_text(f"Best Dressed: {side_b[0]}")

    page.get_by_role("button", name="Draw", exact=True).click()
    drawn = page.locator(".draw-winners strong")
    expect(drawn).to_have_count(1)
    name = drawn.first.inner_text()
    assert name not in (winner, *side_b), "prize winners are left out by default"
    overlay = projector.locator(".proj-draw")
    expect(overlay).to_be_visible(timeout=15000)
    expect(overlay.locator(".proj-draw-names")).to_have_text(name)
    shot(projector, "projector-door-prize", full_page=False)
    overlay.get_by_role("button", name="Back to the standings").click()
    expect(overlay).to_be_hidden()
    projector.close()

    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], "the Prizes section fits a phone"

    # The winner's phone: follow them on the public board; their prize money is theirs to see.
    page.goto(f"/e/{night.id}/board")
    page.get_by_role("button", name=f"Follow {winner}").click()
    expect(page.locator(".their-night")).to_contain_text("Prize money: $48")
    page.get_by_role("button", name=f"Stop following {winner}").first.click()
    page.get_by_role("button", name=f"Follow {side_b[0]}").first.click()
    expect(page.locator(".their-night")).to_contain_text("Award: Best Dressed")
    expect(page.locator(".board-row", has_text=struck).first).to_contain_text(
        "disqualified: A phone at the table (rule 17)")
    shot(page, "board-followed-award", full_page=False)
