"""Creating an event in the console: every preset created through the page is exactly that
preset (a "yes" was once sent as "no"); a yes/no setting changed under Custom format is stored,
both ways; the create page reads on a 360 px phone (settings in words, labels above values,
other formats' settings folded).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}
SMALL = {"viewport": {"width": 360, "height": 740}}


def create_in_console(page: Page, name: str, preset: str, change=None) -> tuple[int, dict]:
    """Create an event on /organize/new; `change(page)` may open Custom format first. Returns the
    event's id and the body the page sent."""
    page.goto("/organize/new")
    page.fill("#event-name", name)
    page.get_by_role("radio", name=preset, exact=True).check()
    expect(page.locator(".format-detail .summary")).to_be_visible()
    if change:
        change(page)
    posted = lambda r: r.url.endswith("/api/events") and r.method == "POST"  # noqa: E731
    with page.expect_request(posted) as sent:
        page.get_by_role("button", name="Create the event").click()
    once = page.locator("section.once")
    expect(once).to_contain_text("shown only this once")
    link = once.locator("input.link-field").input_value()
    return int(re.search(r"/e/(\d+)/organize#key=", link).group(1)), sent.value.post_data_json


# --- creating an event ------------------------------------------------------------------------

@pytest.mark.browser_context_args(**LAPTOP)
def test_every_preset_created_through_the_console_is_exactly_that_preset(page: Page, api):
    presets = api.get("/api/presets")
    assert len(presets) >= 5
    for preset in presets:
        event_id, sent = create_in_console(page, f"Untouched {preset['key']}", preset["name"])
        assert "overrides" not in sent, (preset["key"], sent)
        stored = api.get(f"/api/events/{event_id}")
        assert stored["preset"] == preset["key"]
        assert stored["format"]["parameters"] == preset["parameters"], preset["key"]
        assert stored["format"]["name"] == preset["name"], "not marked custom"
        assert stored["format"]["based_on"] is None


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_yes_no_setting_changed_under_custom_format_is_stored_both_ways(page: Page, api):
    presets = {p["key"]: p for p in api.get("/api/presets")}

    def switch(value: str, back: str | None = None, name: str = "bumps"):
        def change(page: Page):
            page.get_by_text("Custom format: change its numbers").click()
            page.select_option(f"#p-{name}", value)
            if back is not None:
                page.select_option(f"#p-{name}", back)
        return change

    # WEC singles keeps a bump cup: "no" turns it off, and only that.
    wec = presets["wec-singles"]
    event_id, sent = create_in_console(page, "No cup tonight", wec["name"], switch("false"))
    assert sent["overrides"] == {"bumps": False}
    stored = api.get(f"/api/events/{event_id}")["format"]
    assert stored["parameters"] == {**wec["parameters"], "bumps": False}
    assert stored["parameters"]["game_sheet"] is True
    assert stored["name"] == f"{wec['name']} (custom)" and stored["based_on"] == "wec-singles"

    # A progressive night has none: "yes" turns it on.
    progressive = presets["progressive"]
    page.goto("/organize/new")
    event_id, sent = create_in_console(page, "Cup night", progressive["name"], switch("true"))
    assert sent["overrides"] == {"bumps": True}
    stored = api.get(f"/api/events/{event_id}")["format"]
    assert stored["parameters"] == {**progressive["parameters"], "bumps": True}

    # Changed and changed back: the preset itself, and the page said so before Create.
    def there_and_back(page: Page):
        switch("false", "true", "sign_off_required")(page)
        expect(page.locator(".custom-state")).to_contain_text("Exactly the")

    teams = presets["teams"]
    event_id, sent = create_in_console(page, "Pairs cup", teams["name"], there_and_back)
    assert "overrides" not in sent
    stored = api.get(f"/api/events/{event_id}")["format"]
    assert stored["parameters"]["sign_off_required"] is True and stored["based_on"] is None


@pytest.mark.browser_context_args(**SMALL)
def test_the_create_page_reads_on_a_360_px_phone(page: Page, shot):
    page.goto("/organize/new")
    page.get_by_role("radio", name="Progressive (individual) tournament", exact=True).check()
    params = page.locator("dl.params")
    # Values in words, each under its meaning.
    expect(params.locator('[data-param="entry"] dd')).to_have_text(
        "single players (partners change)")
    expect(params.locator('[data-param="movement"] dd')).not_to_have_text("progressive")
    expect(params.locator('[data-param="rounds"] dd')).to_have_text("5")
    first = params.locator(".param").first
    dt, dd = first.locator("dt").bounding_box(), first.locator("dd").bounding_box()
    assert dd["y"] >= dt["y"] + dt["height"] - 1, "the label sits above its value"
    # League-only settings are folded away for a progressive night, not listed with its own.
    expect(params).not_to_contain_text("League")
    other = page.locator("details.other-params")
    expect(other.locator("dl.params-other")).to_be_hidden()
    other.locator("summary").click()
    expect(other.locator("dl.params-other")).to_contain_text(
        "League: a team this many minutes late")
    assert page.locator("#p-forfeit_minutes").count() == 0, "no input for what the format ignores"
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    other.locator("summary").click()
    height = page.evaluate("document.documentElement.scrollHeight")
    # 3,600 before issue 29 added who confirms a score and the correction window (+2 settings).
    assert height < 3800, f"{height} px tall"
    shot(page, "console-create-360")


