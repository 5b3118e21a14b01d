"""The club's webhooks on its manage page, on a phone: the console's Webhooks panel with the
club key. A URL registered for the club (its secret shown once), told of a call in one of the
club's nights, the delivery in the club's log with Retry now."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

URL = "https://hooks.example.org/club-euchre"
WAITING = re.compile(r"pending|sending now")  # the receiver's name does not resolve here


def test_a_club_registers_a_webhook_and_sees_its_events_deliveries(page: Page, api):
    _, club, _ = api.call("POST", "/api/clubs", {"name": "Hook Club",
                                                 "slug": f"hk-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key = club["club_key"]
    _, night, _ = api.call("POST", f"/api/clubs/{club['id']}/events",
                           {"name": "Hook night", "preset": "progressive"}, key=key, expect=201)
    for player in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"]:
        api.call("POST", f"/api/events/{night['id']}/players",
                 {"name": player, "checked_in": True}, key=key, expect=201)
    _, round_, _ = api.call("POST", f"/api/events/{night['id']}/rounds", {"number": 1},
                            key=key, expect=201)

    page.goto(f"/c/{club['slug']}/manage#key={key}")
    page.get_by_role("button", name="Open the webhooks").click()
    page.get_by_label("URL", exact=True).fill("http://192.168.1.9/hook")
    page.get_by_role("button", name="Register").click()
    expect(page.locator(".msg-error")).to_contain_text("not on the internet")

    page.get_by_label("URL", exact=True).fill(URL)
    page.get_by_role("button", name="Register").click()
    once = page.locator(".card.once")
    expect(once).to_contain_text("shown once")
    assert once.locator("input").input_value().startswith("whsec_")
    expect(page.locator(".hook-row")).to_contain_text(URL)
    hooks = api.get(f"/api/clubs/{club['id']}/webhooks", key=key)
    assert [(h["url"], h["club_id"]) for h in hooks] == [(URL, club["id"])]
    assert "secret" not in str(hooks)

    api.call("POST", f"/api/games/{round_['tables'][0]['games'][0]['id']}/call", key=key,
             expect=201)
    page.get_by_role("button", name="Refresh").click()
    row = page.locator("table.deliveries tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("call")
    expect(row).to_contain_text(WAITING)
    # Once the attempt is over (the log reads itself again while one is being sent): its next
    # attempt's time, and Retry now.
    expect(row).to_contain_text("pending, next")
    # On the phone each delivery is a block that fits the screen: nothing cut off at the side.
    box = row.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    row.get_by_role("button", name=f"Retry now: call to {URL}").click()
    expect(page.locator("table.deliveries tbody tr")).to_contain_text(WAITING)
