"""A club's nights in the browser, on a phone west of Greenwich: a night typed in late gets the
day it was played on the manage page, and the profile's chart and events list show that day
(not today, and not the day before: a date is a day, not a UTC midnight); a night made by
mistake is deleted while nothing was scored in it; one with results is refused with the
reason, archived instead, and leaves the public page."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from .conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]


def _night(api, club: dict, key: str, name: str, played: bool) -> dict:
    _, night, _ = api.call("POST", f"/api/clubs/{club['id']}/events",
                           {"name": name, "preset": "progressive"}, key=key, expect=201)
    if not played:
        return night
    for player in NAMES:
        api.call("POST", f"/api/events/{night['id']}/players",
                 {"name": player, "checked_in": True}, key=key, expect=201)
    _, round_, _ = api.call("POST", f"/api/events/{night['id']}/rounds", {"number": 1},
                            key=key, expect=201)
    for table in round_["tables"]:
        for maker, tricks in [("A", 3), ("B", 3), ("A", 5), ("B", 4)]:
            api.call("POST", f"/api/games/{table['games'][0]['id']}/hands",
                     {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": tricks},
                     key=key, expect=201)
    return night


@pytest.mark.browser_context_args(timezone_id="America/Los_Angeles", locale="en-US")
def test_a_late_night_gets_its_day_and_a_mistake_is_deleted_or_archived(page: Page, api,
                                                                        shot):
    _, club, _ = api.call("POST", "/api/clubs", {"name": "Loner Seekers",
                                                 "slug": f"ln-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key, slug = club["club_key"], club["slug"]
    january = _night(api, club, key, "January", played=True)
    empty = _night(api, club, key, "Made twice", played=False)
    tested = _night(api, club, key, "Trying it out", played=True)

    page.goto(f"/c/{slug}/manage#key={key}")
    nights = page.locator(".club-admin-nights")
    expect(nights.locator("li")).to_have_count(3)
    row = nights.locator(f"li[data-event='{january['id']}']")
    row.locator(f"#night-date-{january['id']}").fill("2026-01-09")
    row.get_by_role("button", name="Save the date of January").click()
    expect(nights.locator(f"li[data-event='{january['id']}']")).to_contain_text("Jan 9, 2026")

    # Nothing scored: deleted, after asking once more.
    nights.get_by_role("button", name="Delete Made twice").click()
    nights.get_by_role("button", name="Yes, delete it").click()
    expect(nights.locator("li")).to_have_count(2)
    expect(nights).not_to_contain_text("Made twice")

    # Results: refused with the reason, then archived.
    nights.get_by_role("button", name="Delete Trying it out").click()
    nights.get_by_role("button", name="Yes, delete it").click()
    refused = nights.locator(f"li[data-event='{tested['id']}'] .msg-error")
    expect(refused).to_contain_text("archive it instead")
    shot(page, "club-night-delete-refused")
    card = page.locator("section.card", has=nights)
    card.screenshot(path=str(SCREENSHOTS / "club-night-delete-refused-card.png"))
    nights.get_by_role("button", name="Keep it").click()
    nights.get_by_role("button", name="Archive: Trying it out").click()
    expect(nights.locator(f"li[data-event='{tested['id']}']")).to_contain_text("archived")
    expect(nights.get_by_role("button", name="Bring back: Trying it out")).to_be_visible()
    nights.scroll_into_view_if_needed()
    shot(page, "club-nights")
    card.screenshot(path=str(SCREENSHOTS / "club-nights-card.png"))
    _, log, _ = api.call("GET", f"/api/clubs/{club['id']}/audit", key=key)
    assert [e["action"] for e in log[:3]] == ["update-night", "delete-event", "update-night"]
    api.call("GET", f"/api/events/{empty['id']}", expect=404)

    # The public page: January on its day; the archived night and the deleted one are gone.
    page.goto(f"/c/{slug}")
    expect(page.get_by_role("link", name="January")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Jan 9, 2026")
    expect(page.get_by_role("link", name="Trying it out")).to_have_count(0)
    expect(page.get_by_role("link", name="Made twice")).to_have_count(0)

    # Ann's profile: one night, dated the day it was played, in the chart and the list.
    _, page_data, _ = api.call("GET", f"/api/clubs/by-slug/{slug}")
    ann = next(p for p in page_data["people"] if p["name"] == "Ann Baker")
    assert ann["events"] == 1
    page.goto(f"/c/{slug}/people/{ann['id']}")
    expect(page.locator(".profile-events tbody tr")).to_have_count(1)
    expect(page.locator(".profile-events tbody tr")).to_contain_text("Jan 9, 2026")
    labels = page.locator("svg.chart").first.locator("text.chart-label")
    expect(labels.last).to_have_text(re.compile(r"^Jan 9$"))
    page.locator("svg.chart").first.screenshot(path=str(SCREENSHOTS / "club-chart-night-date.png"))
    shot(page, "club-profile-night-date")
