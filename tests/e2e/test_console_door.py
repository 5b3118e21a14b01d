"""The door at a busy night, on a 360 px phone: the check-in list in name order, the search
cleared and ready after each check-in, Undo for a wrong tap, a second tap before a withdrawal,
and every console section reachable from the tab bar without sideways scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 2}
ARRIVALS = ["Zoe", "Mia", "ann", "Bo", "Kai", "Liz", "Dee", "Cy"]  # registration order


def _event(api):
    _, made, _ = api.call("POST", "/api/events", {"name": "Door night", "preset": "progressive"},
                          expect=201)
    for name in ARRIVALS:
        api.call("POST", f"/api/events/{made['id']}/players", {"name": name},
                 key=made["organizer_key"], expect=201)
    return made


@pytest.mark.browser_context_args(**SMALL_PHONE)
def test_checking_in_a_line_of_arrivals_at_the_door(page: Page, api, shot):
    made = _event(api)
    eid, key = made["id"], made["organizer_key"]
    page.goto(f"/e/{eid}/organize/players#key={key}")
    people = page.locator(".person")
    expect(people).to_have_count(8)
    assert people.evaluate_all("els => els.map(e => e.dataset.name)") == \
        sorted(ARRIVALS, key=str.casefold), "A to Z, whatever order they registered in"

    search = page.locator("#people-search")
    search.fill("mi")
    expect(people).to_have_count(1)
    page.get_by_role("button", name="Check in: Mia").click()
    door = page.locator(".door")
    expect(door).to_contain_text("Mia checked in.")
    # Ready for the next name: the search is empty, focused, and the whole list is back.
    expect(search).to_have_value("")
    expect(search).to_be_focused()
    expect(people).to_have_count(8)
    page.keyboard.type("zo")
    expect(people).to_have_count(1)
    page.get_by_role("button", name="Check in: Zoe").click()
    expect(door).to_contain_text("Zoe checked in.")
    shot(page, "console-door-checked-in")

    # A wrong tap: Zoe is not here after all.
    page.get_by_role("button", name="Undo the check-in of Zoe").click()
    expect(door).to_contain_text("Zoe: check-in undone.")
    expect(page.locator('.person[data-name="Zoe"] .badge')).to_have_text("not here yet")
    expect(page.locator(".counts")).to_have_text("8 registered · 1 checked in · 0 withdrawn")
    players = {p["name"]: p for p in api.get(f"/api/events/{eid}/players")}
    assert players["Zoe"]["checked_in"] is False and players["Mia"]["checked_in"] is True
    # A check-in can also be undone from the person's own row.
    page.get_by_role("button", name="Undo check-in: Mia").click()
    expect(page.locator('.person[data-name="Mia"] .badge')).to_have_text("not here yet")

    # Withdraw asks for a second tap; without it nothing changes.
    withdraw = page.get_by_role("button", name="Withdraw: Kai")
    withdraw.click()
    expect(withdraw).to_have_text("Withdraw Kai? Tap again")
    expect(withdraw).to_have_text("Withdraw", timeout=8000)  # not confirmed: it disarms
    assert not {p["name"]: p for p in api.get(f"/api/events/{eid}/players")}["Kai"]["withdrawn"]
    withdraw.click()
    withdraw.click()
    expect(page.locator('.person[data-name="Kai"] .badge')).to_have_text("withdrawn")


@pytest.mark.browser_context_args(**SMALL_PHONE)
def test_every_console_section_is_in_view_on_a_small_phone(page: Page, api, shot):
    made = _event(api)
    page.goto(f"/e/{made['id']}/organize#key={made['organizer_key']}")
    tabs = page.locator("nav.console-tabs .console-tab")
    expect(tabs).to_have_count(10)
    for label in ("Event", "Access", "Players", "Rounds", "Desk", "Standings", "Prizes", "Ties",
                  "Corrections", "Print & export"):
        tab = tabs.filter(has_text=label)
        expect(tab).to_be_in_viewport(ratio=1)
    widths = page.evaluate("""() => {
        const nav = document.querySelector('nav.console-tabs');
        return [nav.scrollWidth, nav.clientWidth, document.documentElement.scrollWidth];
    }""")
    assert widths[0] <= widths[1] and widths[2] <= 360, widths
    shot(page, "console-tabs-360", full_page=False)
    tabs.filter(has_text="Corrections").click()
    expect(page.locator("h1.page-title")).to_have_text("Corrections")
