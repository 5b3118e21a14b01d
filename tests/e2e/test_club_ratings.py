"""Ratings in the browser: the club page's ratings table, best first, and a profile's rating
"mu - 3 sigma (±sigma)" with its chart over the nights."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]


def test_the_club_page_ranks_by_rating_and_the_profile_charts_it(page: Page, api, shot):
    _, club, _ = api.call("POST", "/api/clubs", {"name": "Loner Seekers",
                                                 "slug": f"rt-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key, slug = club["club_key"], club["slug"]
    for name in ("January", "February"):
        _, night, _ = api.call("POST", f"/api/clubs/{club['id']}/events",
                               {"name": name, "preset": "progressive"}, key=key, expect=201)
        for player in NAMES:
            api.call("POST", f"/api/events/{night['id']}/players",
                     {"name": player, "checked_in": True}, key=key, expect=201)
        _, round_, _ = api.call("POST", f"/api/events/{night['id']}/rounds", {"number": 1},
                                key=key, expect=201)
        for table, maker in zip(round_["tables"], "AB", strict=True):
            api.call("POST", f"/api/games/{table['games'][0]['id']}/paper-sheet",
                     {"id": uuid.uuid4().hex[:12], "hands": [{"maker": maker, "tricks": 3}] * 8},
                     key=key, expect=201)
        api.call("PATCH", f"/api/events/{night['id']}", {"status": "finished"}, key=key,
                 expect=200)

    page.goto(f"/c/{slug}")
    table = page.locator(".club-ratings")
    expect(table.locator("tbody tr")).to_have_count(8)
    expect(table.get_by_role("link", name="Download the ratings (CSV)")).to_be_visible()
    top = table.locator("tbody tr").first
    expect(top.locator("td").first).to_have_text("1")
    name = top.locator("th").inner_text()
    shot(page, "club-ratings")
    top.get_by_role("link").click()
    card = page.locator(".rating-card")
    expect(page.locator("h1")).to_have_text(name)
    expect(card.locator(".rating-now")).to_contain_text("(±")
    expect(card.locator(".rating-now")).to_contain_text("after 2 rated games")
    expect(card.locator("svg.rating-chart circle")).to_have_count(2)
    shot(page, "profile-rating")
