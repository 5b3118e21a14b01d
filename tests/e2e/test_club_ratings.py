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


def test_the_club_page_shows_a_page_of_ratings_and_shows_more(page: Page, api, shot):
    """A club of 108 rated people (one night of 27 tables, seeded through the API): the page
    shows the first 100, "Show more" the other 8, in the whole table's places."""
    _, club, _ = api.call("POST", "/api/clubs", {"name": "Big Club",
                                                 "slug": f"rp-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key, slug = club["club_key"], club["slug"]
    _, night, _ = api.call("POST", f"/api/clubs/{club['id']}/events",
                           {"name": "January", "preset": "progressive"}, key=key, expect=201)
    players = "\n".join(["name,checked_in"] + [f"Player {n:03d},yes" for n in range(1, 109)])
    api.call("POST", f"/api/events/{night['id']}/import", {"csv": players}, key=key,
             expect=201)
    _, round_, _ = api.call("POST", f"/api/events/{night['id']}/rounds", {"number": 1},
                            key=key, expect=201)
    assert len(round_["tables"]) == 27
    for n, table in enumerate(round_["tables"]):
        lost = n % 4  # won 8-0, 7-1, 6-2 or 5-3: four margins, so four ratings each side
        hands = [{"maker": "A", "tricks": 3}] * (8 - lost) + [{"maker": "B", "tricks": 3}] * lost
        api.call("POST", f"/api/games/{table['games'][0]['id']}/paper-sheet",
                 {"id": uuid.uuid4().hex[:12], "hands": hands}, key=key, expect=201)
    api.call("PATCH", f"/api/events/{night['id']}", {"status": "finished"}, key=key,
             expect=200)
    second = api.get(f"/api/clubs/{club['id']}/ratings?offset=100")
    assert second["total_rows"] == 108 and len(second["rows"]) == 8

    page.goto(f"/c/{slug}")
    table = page.locator(".club-ratings")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(100)
    more = table.get_by_role("button", name="Show more (100 of 108)")
    expect(more).to_be_visible()
    more.scroll_into_view_if_needed()
    shot(page, "club-ratings-page", full_page=False)
    more.click()
    expect(rows).to_have_count(108)
    expect(table.get_by_role("button", name="Show more")).to_have_count(0)
    # The rows added are the second page, in the whole table's places: the fourteen who
    # lost 8-0 share the 95th, on both sides of the page's end.
    added = [(rows.nth(100 + i).locator("td").first.inner_text(),
              rows.nth(100 + i).locator("th").inner_text()) for i in range(8)]
    assert added == [(str(r["place"]), r["name"]) for r in second["rows"]]
    assert added[0][0] == rows.nth(99).locator("td").first.inner_text() == "95"
    assert len({name for _, name in added}) == 8
    rows.nth(107).scroll_into_view_if_needed()
    shot(page, "club-ratings-more", full_page=False)
