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

    money.get_by_text(re.compile(r"Who paid \(0 paid · 12 checked in, not paid\)")).click()
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
    # The card repaints as each board poll brings the latest payments: scroll to the pool
    # in one step, whichever paint is on the page.
    page.evaluate("document.querySelector('.money-card .pool').scrollIntoView()")
    shot(page, "console-prizes-money", full_page=False)

    page.get_by_label("Player to disqualify").fill(struck)
    page.get_by_label("Reason").fill("A phone at the table (rule 17)")
    page.get_by_role("button", name="Disqualify").click()
    expect(page.locator(".struck-list")).to_contain_text(
        f"{struck} · A phone at the table (rule 17)", timeout=15000)
    # The places close up: the winner alone takes 1st's money, 2nd is shared by side B.
    # (The winner may be one of the two who have not paid: the row then says so.)
    expect(money.locator(".payouts tbody tr").first).to_contain_text(
        re.compile(rf"1\s*{re.escape(winner)}\s*(unpaid)?\s*\$48"), timeout=15000)

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


@pytest.mark.browser_context_args(**PHONE)
def test_every_draw_repeats_as_a_check_and_the_phone_lists_every_draw_won(page: Page, api, shot):
    """Issue 26: three draws, each leaving out the earlier winners, each repeated from its own
    candidate list to the same winners (a check, not a new draw); a disqualified player is in
    no draw; an unpaid winner is flagged; the followed winner's phone lists every draw won."""
    night = EventSetup(api, "progressive", players=12, name="Loner Seekers, draws")
    table = night.tables[0]
    play(night, night.game_id(0), [("A", 5), ("B", 3)] * 4)  # side A 8, side B 4
    winner = next(s for s in table["seats"] if s["side"] == "A")
    key = night.organizer_key
    struck = next(s for s in night.tables[1]["seats"])
    api.call("PATCH", f"/api/events/{night.id}/players/{struck['player_id']}",
             {"disqualified": "Left with the cards"}, key=key, expect=200)
    for player in night.players:
        if player["id"] != winner["player_id"]:
            api.call("PATCH", f"/api/events/{night.id}/players/{player['id']}", {"paid": True},
                     key=key, expect=200)
    api.call("PUT", f"/api/events/{night.id}/money", {"entry_fee": 10}, key=key, expect=200)

    page.goto(f"/e/{night.id}/organize/prizes#key={key}")
    money = page.locator(".money-card")
    row = money.locator(".payouts tbody tr", has_text=winner["name"])
    expect(row.locator(".badge-unpaid")).to_have_text("unpaid")
    expect(money.locator(".unpaid-winners")).to_contain_text("One winner is not marked paid")
    page.evaluate("document.querySelector('.money-card .payouts').scrollIntoView()")
    shot(page, "console-prizes-unpaid-winner", full_page=False)

    draw = page.get_by_role("button", name="Draw", exact=True)
    for number in (1, 2, 3):
        draw.click()
        expect(page.locator(".draw-latest")).to_contain_text(f"Draw {number} · seed")
    draws = api.get(f"/api/events/{night.id}/draws")
    assert len(draws) == 3
    earlier: set[int] = set()
    for made in draws:
        pool = {c["id"] for c in made["candidate_list"]}
        assert struck["player_id"] not in pool, "the disqualified player is in no draw"
        assert not pool & earlier
        earlier |= {w["id"] for w in made["winners"]}
    for number in (1, 2, 3):
        item = page.locator(f'.draw-item[data-draw="{number}"]')
        item.get_by_role("button", name=f"Repeat draw {number} (a check)").click()
        names = ", ".join(w["name"] for w in draws[number - 1]["winners"])
        expect(item.locator(".draw-check")).to_contain_text(
            f"✓ Check: repeating draw {number} gives the same winners ({names})")
    assert len(api.get(f"/api/events/{night.id}/draws")) == 3, "a repeat is not a new draw"
    page.locator('.draw-item[data-draw="1"]').scroll_into_view_if_needed()
    shot(page, "console-prizes-draw-repeats", full_page=False)

    # Draw 4 takes everyone left: draw 1's winner has won two draws, and their phone says so.
    lucky = draws[0]["winners"][0]
    api.post(f"/api/events/{night.id}/draws", {"count": 11, "leave_out_drawn": False,
                                                "leave_out_prize_winners": False}, key=key)
    page.goto(f"/e/{night.id}/board")
    page.get_by_role("button", name=f"Follow {lucky['name']}").first.click()
    expect(page.locator(".their-night")).to_contain_text("Door prizes: drawn in draws 1, 4")
    shot(page, "board-followed-door-prizes", full_page=False)
