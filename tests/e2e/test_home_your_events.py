"""The home screen's Your events: what this phone holds, in words, fitting 360 px; Forget takes a
second tap, and for an organizer key says what is lost.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SMALL = {"viewport": {"width": 360, "height": 740}}


@pytest.mark.browser_context_args(**SMALL)
def test_forget_takes_a_second_tap_and_an_organizer_key_says_what_is_lost(page: Page, api, shot):
    _, mine, _ = api.call("POST", "/api/events", {"name": "Saturday charity progressive night "
                                                           "for the food bank",
                                                   "preset": "progressive"}, expect=201)
    _, theirs, _ = api.call("POST", "/api/events", {"name": "Friday progressive",
                                                     "preset": "progressive"}, expect=201)
    runner = api.call("POST", f"/api/events/{theirs['id']}/keys", {"table": 3, "label": "t"},
                      key=theirs["organizer_key"], expect=201)[1]
    page.goto(f"/e/{mine['id']}/organize#key={mine['organizer_key']}")
    expect(page.locator(".console-event")).to_contain_text(mine["code"])
    page.goto("/" + runner["link"].split("/", 3)[3])
    expect(page).to_have_url(re.compile(rf"/e/{theirs['id']}/run$"))

    # Your events: what this phone holds, in words, nothing cut off at 360 px.
    page.goto("/")
    held = page.locator(".my-event", has_text=mine["name"])
    expect(held.get_by_role("link", name="Organizer console")).to_be_visible()
    expect(held.get_by_role("link", name="Enter hands at any table")).to_be_visible()
    ran = page.locator(".my-event", has_text=theirs["name"])
    expect(ran.get_by_role("link", name="Enter hands: table 3")).to_be_visible()
    expect(ran.get_by_role("link", name="Organizer console")).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text("your tables")
    clipped = page.evaluate("""[...document.querySelectorAll('.my-event a')]
        .filter((a) => a.scrollWidth > a.clientWidth + 1
                       || a.getBoundingClientRect().right > innerWidth)
        .map((a) => a.textContent)""")
    assert clipped == []
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    shot(page, "home-your-events-360", full_page=False)

    # One tap arms Forget and says what is lost; the key is still here.
    forget = page.get_by_role("button", name=f"Forget the key for {mine['name']}")
    forget.click()
    armed = page.get_by_role("button", name=f"Tap again to forget the key for {mine['name']}")
    expect(armed).to_have_text("Tap again to forget")
    warning = page.locator(".forget-warning").first
    expect(warning).to_contain_text("the console for")
    expect(warning).to_contain_text("can't be opened again on this phone")
    expect(warning.locator("input")).to_have_value(
        re.compile(rf"/e/{mine['id']}/organize#key={re.escape(mine['organizer_key'])}$"))
    warning.scroll_into_view_if_needed()
    shot(page, "home-forget-organizer-key", full_page=False)
    page.get_by_role("button", name=f"Keep the key for {mine['name']}").click()
    expect(warning).to_be_hidden()
    expect(forget).to_have_text("Forget")
    expect(page.locator(".my-event")).to_have_count(2)

    # Two taps forget it: the console no longer opens on this phone.
    forget.click()
    armed.click()
    expect(page.locator(".my-event")).to_have_count(1)
    page.goto(f"/e/{mine['id']}/organize")
    expect(page.locator("main")).to_contain_text("This device has no organizer key")
