"""The console's Webhooks screen: an organizer registers a URL and sees its secret once, the
webhook listed without it, and the delivery log with a call's delivery waiting and Retry now."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}
URL = "https://hooks.example.org/euchre"
# The receiver's name does not resolve here: the delivery waits for its next attempt, or is
# being tried when the log is read (the log reads itself again until it is not).
WAITING = re.compile(r"pending|sending now")


@pytest.mark.browser_context_args(**LAPTOP)
def test_register_a_webhook_see_its_secret_once_and_its_deliveries(page: Page, api):
    event = EventSetup(api)
    key = event.organizer_key
    page.goto(f"/e/{event.id}/organize/webhooks#key={key}")
    expect(page.get_by_role("link", name="Webhooks")).to_have_attribute("aria-current", "page")
    page.get_by_label("URL", exact=True).fill("http://10.0.0.5/hook")
    page.get_by_role("button", name="Register").click()
    expect(page.locator(".msg-error")).to_contain_text("not on the internet")

    page.get_by_label("URL", exact=True).fill(URL)
    page.get_by_label("a hand stored (hand.stored)").uncheck()
    page.get_by_role("button", name="Register").click()
    once = page.locator(".card.once")
    expect(once).to_contain_text("shown once")
    secret = once.locator("input").input_value()
    assert secret.startswith("whsec_")
    hooks = api.get(f"/api/events/{event.id}/webhooks", key=key)
    assert [(h["url"], "hand.stored" in h["kinds"]) for h in hooks] == [(URL, False)]
    expect(page.locator(".hook-row")).to_contain_text(URL)

    api.call("POST", f"/api/games/{event.game_id(0)}/call", key=key, expect=201)
    event.hand(event.game_id(0), "A", 3)  # not asked for: no delivery
    page.get_by_role("button", name="Refresh").click()
    row = page.locator("table.deliveries tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("call")
    expect(row).to_contain_text(WAITING)
    expect(row).to_contain_text("pending, next")  # the attempt over: its next one, and Retry
    row.get_by_role("button", name="Retry now: call to " + URL).click()
    expect(page.locator("table.deliveries tbody tr")).to_contain_text(WAITING)
    assert "secret" not in str(api.get(f"/api/events/{event.id}/webhooks", key=key))
