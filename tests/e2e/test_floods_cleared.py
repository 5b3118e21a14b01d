"""Clearing what strangers flooded, in one step each on a phone: a walk-in queue full of made-up
names (the door card's Decline waiting requests) and a league filled through its registration
link (Remove teams registered through the link), the organizer's own teams kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_a_flood_of_walk_in_requests_is_declined_in_one_step(page: Page, api, shot):
    _, made, _ = api.call("POST", "/api/events", {"name": "Door night", "preset": "progressive"},
                          expect=201)
    eid, key = made["id"], made["organizer_key"]
    api.call("PUT", f"/api/events/{eid}/check-in-window", key=key, expect=200,
             body={"opens": "2000-01-01T00:00", "closes": "2100-01-01T00:00"})
    _, door, _ = api.call("POST", f"/api/events/{eid}/door-token", key=key, expect=200)
    for i in range(5):
        api.call("POST", f"/api/door/{made['code']}/requests", expect=201,
                 body={"token": door["token"], "name": f"Made Up {i}"})
    page.goto(f"/e/{eid}/organize/players#key={key}")
    expect(page.locator(".door-request")).to_have_count(5)
    decline = page.get_by_role("button", name="Decline waiting requests")
    decline.click()
    expect(page.get_by_role("button", name="Tap again to decline them")).to_be_visible()
    page.get_by_role("button", name="Tap again to decline them").click()
    expect(page.locator(".door-flood")).to_contain_text("5 requests declined.")
    expect(page.locator(".door-request")).to_have_count(0)  # the queue's next poll
    shot(page, "console-door-flood-declined")
    _, waiting, _ = api.call("GET", f"/api/events/{eid}/door-requests", key=key, expect=200)
    assert [r["status"] for r in waiting] == ["declined"] * 5


def test_teams_a_squatter_registered_through_the_link_are_removed_at_once(page: Page, api, shot):
    _, league, _ = api.call("POST", "/api/events", {"name": "Tuesday league", "preset": "league"},
                            expect=201)
    eid, key = league["id"], league["organizer_key"]
    api.call("POST", f"/api/events/{eid}/teams", {"name": "Our Own", "players": ["O 1", "O 2"]},
             key=key, expect=201)
    _, reg, _ = api.call("PUT", f"/api/events/{eid}/registration", {}, key=key, expect=200)
    for i in range(3):
        api.call("POST", f"/api/register/{league['code']}", expect=201, body={
            "token": reg["token"], "name": f"Squat {i}", "players": [f"S{i} 1", f"S{i} 2"]})
    page.goto(f"/e/{eid}/organize/league#key={key}")
    remove = page.get_by_role("button", name="Remove teams registered through the link")
    remove.click()
    page.get_by_role("button", name="Tap again: remove them all").click()
    expect(page.get_by_text("3 teams removed: Squat 0, Squat 1, Squat 2.")).to_be_visible()
    shot(page, "console-league-squatters-removed")
    _, teams, _ = api.call("GET", f"/api/events/{eid}/teams", expect=200)
    assert [t["name"] for t in teams] == ["Our Own"]
