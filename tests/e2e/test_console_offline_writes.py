"""A console write with no network: "Saving…" is what a screen reader hears, a failure shows no
invented error line, and the same tap works once the network is back.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_write_with_no_network_says_saving_to_screen_readers_and_no_invented_line(
        page, context, event):
    name = event.players[0]["name"]
    api = event.api
    api.call("PATCH", f"/api/events/{event.id}/players/{event.players[0]['id']}",
             {"checked_in": False}, key=event.organizer_key, expect=200)
    page.goto(f"/e/{event.id}/organize/players#key={event.organizer_key}")
    row = page.locator(f'.person[data-name="{name}"]')
    expect(row.locator(".badge")).to_have_text(re.compile("^not here"))
    context.set_offline(True)
    button = row.get_by_role("button", name=f"Check in: {name}")
    button.click()
    expect(button).to_have_text("Saving…")
    expect(button).to_have_attribute("aria-busy", "true")
    expect(button).to_have_accessible_name(f"Saving… Check in: {name}")
    expect(page.locator("#console-voice")).to_have_text(f"Saving… Check in: {name}")
    error = row.locator(".msg-error")
    expect(error).to_contain_text("Not saved", timeout=20000)
    # A network failure has no field errors: no list under it, no ": undefined".
    expect(error.locator(".problem-lines")).to_have_count(0)
    assert "undefined" not in error.inner_text()
    expect(button).not_to_have_attribute("aria-busy", "true")
    expect(button).to_have_accessible_name(f"Check in: {name}")
    context.set_offline(False)
    button.click()
    expect(row.locator(".badge")).to_have_text(re.compile("^here"))
    expect(page.locator("#console-voice")).to_have_text(f"Check in: {name}: done.")
