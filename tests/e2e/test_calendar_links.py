"""'Add to calendar' on a league team's page (issue 31): the public feed's webcal:// link; once
the league's calendars are private, the captain makes the team's secret link there, and the
feed it points at answers."""

from __future__ import annotations

import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_a_captain_subscribes_and_makes_a_private_link(page: Page, api, base_url):
    _, event, _ = api.call("POST", "/api/events", {"name": "Calendar league",
                                                   "preset": "league"}, expect=201)
    eid, key = event["id"], event["organizer_key"]
    teams = [api.post(f"/api/events/{eid}/teams", {
        "name": name, "players": [f"{name} 1", f"{name} 2"]}, key=key)["id"]
        for name in ("North", "South")]
    api.call("POST", f"/api/events/{eid}/season", {"first_night": "2027-01-05",
                                                   "start_time": "19:00"}, key=key, expect=201)
    page.goto(f"/e/{eid}/team/{teams[0]}")
    subscribe = page.locator(".team-calendar .calendar-subscribe")
    expect(subscribe).to_have_attribute(
        "href", f"webcal://{base_url.split('://', 1)[1]}/api/events/{eid}/teams/{teams[0]}"
        "/calendar.ics")

    api.call("PUT", f"/api/events/{eid}/calendar", {"private": True}, key=key, expect=200)
    captain = api.post(f"/api/events/{eid}/teams/{teams[0]}/key", key=key)["key"]
    page.goto(f"/e/{eid}/team/{teams[0]}#key={captain}")
    page.locator(".team-calendar .calendar-new").click()
    ics = page.locator(".team-calendar .calendar-ics")
    expect(ics).to_have_attribute("href", re.compile(rf"^{re.escape(base_url)}/api/calendars/"))
    with urllib.request.urlopen(ics.get_attribute("href"), timeout=10) as answer:
        feed = answer.read().decode()
    assert feed.startswith("BEGIN:VCALENDAR") and "SUMMARY:Week 1: North v South" in feed
