"""Self check-in on a phone (390x844): a player opens the door page from the door QR's link,
finds their name, checks in and sees it confirmed; the organizer's Players screen, open on
another phone, shows them checked in without a reload. Someone not on the list asks to be
added, the organizer accepts, and the asking phone says they are in. After the window closes
the organizer checks a late player in as an exception."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE

pytestmark = pytest.mark.browser

NAMES = ["Ann Lee", "Bob Roy", "Cy Ng", "Dee Fox", "Eve Orr"]
LIVE = 12000  # ms: the Players screen polls every 3 s, the door page every 5 s while waiting


def _night(api):
    _, made, _ = api.call("POST", "/api/events", {"name": "Loner Seekers",
                                                  "preset": "progressive"}, expect=201)
    eid, key = made["id"], made["organizer_key"]
    for name in NAMES:
        api.call("POST", f"/api/events/{eid}/players", {"name": name}, key=key, expect=201)
    api.call("PUT", f"/api/events/{eid}/check-in-window",
             {"opens": "2000-01-01T00:00", "closes": "2100-01-01T00:00"}, key=key, expect=200)
    door = api.post(f"/api/events/{eid}/door-token", key=key, expect=200)
    return made, door["link"]


def test_a_player_checks_in_from_the_door_qr_and_the_organizer_sees_it_live(
        page: Page, browser, base_url, api, shot):
    made, link = _night(api)
    eid, key = made["id"], made["organizer_key"]
    desk = browser.new_context(**PHONE, base_url=base_url).new_page()
    desk.goto(f"/e/{eid}/organize/players#key={key}")
    expect(desk.locator('.person[data-name="Ann Lee"] .badge')).to_have_text("not here yet")
    expect(desk.locator(".door-window")).to_contain_text("Check-in is open")

    # The player's phone, from the QR code's link.
    page.goto(link)
    expect(page.locator("h1")).to_have_text("Check in to Loner Seekers")
    page.locator("#door-search").fill("ann")
    expect(page.locator(".door-name")).to_have_count(1)
    page.get_by_role("button", name="Ann Lee").click()
    page.get_by_role("button", name="Check me in: Ann Lee").click()
    banner = page.locator(".door-done")
    expect(banner).to_contain_text(
        re.compile(r"You're checked in, Ann Lee, at \d{1,2}:\d\d [ap]m\."))
    shot(page, "door-checked-in")
    # A reload still says so (kept on this phone).
    page.reload()
    expect(banner).to_contain_text("You're checked in, Ann Lee")

    # The organizer's screen, not reloaded, follows.
    expect(desk.locator('.person[data-name="Ann Lee"] .badge')).to_have_text("here", timeout=LIVE)
    expect(desk.locator(".counts")).to_contain_text("1 checked in")

    # Not on the list: ask, and the organizer accepts.
    page.get_by_role("button", name="Check in someone else").click()
    page.locator("#door-ask").fill("Newcomer Nell")
    page.get_by_role("button", name="Ask to be added").click()
    # Waiting is news, not an error: amber, said politely, no alert.
    waiting = page.locator(".door-note")
    expect(waiting).to_contain_text("Asked as Newcomer Nell. Waiting for the organizer")
    expect(waiting).to_have_class(re.compile(r"msg-info"))
    expect(waiting).to_have_attribute("role", "status")
    expect(page.get_by_role("alert")).to_be_hidden()
    request = desk.locator(".door-request", has_text="Newcomer Nell")
    expect(request).to_be_visible(timeout=LIVE)
    shot(desk, "console-door-request")
    desk.get_by_role("button", name="Accept: Newcomer Nell").click()
    expect(desk.locator('.person[data-name="Newcomer Nell"] .badge')).to_have_text("here",
                                                                                   timeout=LIVE)
    expect(request).to_have_count(0)
    expect(banner).to_contain_text("You're checked in, Newcomer Nell, at", timeout=LIVE)
    players = {p["name"]: p for p in api.get(f"/api/events/{eid}/players")}
    assert players["Newcomer Nell"]["checked_in"] and players["Ann Lee"]["checked_in"]


@pytest.mark.browser_context_args(timezone_id="America/Detroit")
def test_an_old_door_link_says_to_scan_again_and_a_late_player_needs_the_organizer(
        page: Page, api):
    made, link = _night(api)
    eid, key = made["id"], made["organizer_key"]
    api.post(f"/api/events/{eid}/door-token", key=key, expect=200)  # rotated
    page.goto(link)
    expect(page.get_by_role("alert")).to_contain_text("scan the QR code at the door again")
    expect(page.locator("#door-search")).to_be_hidden()

    # The window closed: the organizer checks Bob in as an exception.
    api.call("PUT", f"/api/events/{eid}/check-in-window",
             {"opens": "2001-01-01T18:30", "closes": "2001-01-01T18:50"}, key=key, expect=200)
    page.goto(f"/e/{eid}/organize/players#key={key}")
    window = page.locator(".door-window")
    expect(window).to_contain_text("Check-in closed at 6:50 pm")
    expect(window).to_contain_text("(UTC)")
    # The event was made in UTC; this phone is in Detroit: one tap puts the event there.
    page.get_by_role("button", name="Use America/Detroit (this device's time zone)").click()
    expect(window).to_contain_text("Check-in closed at 1:50 pm")
    assert api.get(f"/api/events/{eid}")["time_zone"] == "America/Detroit"
    page.get_by_role("button", name="Check in: Bob Roy").click()
    bob = page.locator('.person[data-name="Bob Roy"]')
    expect(bob).to_contain_text("Check-in closed at 1:50 pm")
    page.get_by_role("button", name="Check in anyway").click()
    expect(bob.locator(".badge")).to_have_text("here")


@pytest.mark.browser_context_args(viewport={"width": 1920, "height": 1080}, is_mobile=False,
                                  has_touch=False, device_scale_factor=1)
def test_the_projector_shows_the_door_qr_while_check_in_is_open(page: Page, api):
    made, link = _night(api)
    eid, key = made["id"], made["organizer_key"]
    page.goto(f"/e/{eid}/organize#key={key}")  # the organizer's laptop keeps the key
    expect(page.locator("h1.page-title")).to_have_text("Event")
    page.goto(f"/e/{eid}/projector")
    door = page.locator(".proj-door")
    expect(door).to_be_visible()
    expect(door).to_contain_text("Scan to check in")
    expect(page.locator(".proj-qr img")).to_be_visible()  # the leaderboard's, as before
    # A screen without the organizer's key shows no door code.
    other = page.context.browser.new_context(viewport={"width": 1920, "height": 1080})
    public = other.new_page()
    public.goto(page.url)
    expect(public.locator(".proj-qr img")).to_be_visible()
    expect(public.locator(".proj-door")).to_be_hidden()
    other.close()
