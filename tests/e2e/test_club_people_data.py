"""People's data in the club's console, on a phone: a person's file downloaded, the person
erased after asking twice (their name gone from the club's pages, their results kept), and
the club's privacy settings saved."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .test_club import NAMES, _play

pytestmark = pytest.mark.browser


def test_the_club_hands_over_a_persons_data_and_erases_them(page: Page, api, shot):
    _, made, _ = api.call("POST", "/api/clubs", {"name": "Data Club",
                                                 "slug": f"dc-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key, slug = made["club_key"], made["slug"]
    _, night, _ = api.call("POST", f"/api/clubs/{made['id']}/events",
                           {"name": "January", "preset": "progressive"}, key=key, expect=201)
    for player in NAMES:
        api.call("POST", f"/api/events/{night['id']}/players",
                 {"name": player, "checked_in": True}, key=key, expect=201)
    _play(api, night, key)
    board_before = api.get(f"/api/events/{night['id']}/leaderboard")

    page.goto(f"/c/{slug}/manage#key={key}")
    expect(page.get_by_role("heading", name="People's data")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="The data of Ann Baker, as a file").click()
    data = json.loads(Path(download.value.path()).read_text())
    assert data["person"]["name"] == "Ann Baker" and len(data["hands"]) == 8

    page.get_by_role("button", name="Erase Ann Baker").click()
    expect(page.get_by_text("Erase Ann Baker for good?")).to_be_visible()
    shot(page, "club-erase-asks")
    page.get_by_role("button", name="Yes, erase").click()
    expect(page.locator(".club-admin-people")).to_contain_text("Former player 1")
    expect(page.locator(".club-admin-people")).not_to_contain_text("Ann Baker")

    page.get_by_label("New people start private").check()
    # The club is read back once the server has answered the save, not when the box is ticked.
    with page.expect_response(lambda r: r.request.method == "PATCH"
                              and r.url.endswith(f"/api/clubs/{made['id']}")) as saved:
        page.get_by_role("button", name="Save").last.click()
    assert saved.value.ok, saved.value.status
    expect(page.get_by_label("New people start private")).to_be_checked()
    _, club, _ = api.call("GET", f"/api/clubs/{made['id']}", key=key)
    assert club["people_private_by_default"] is True and club["indexable"] is False

    page.goto(f"/e/{night['id']}/board")
    expect(page.get_by_text("Former player 1").first).to_be_visible()
    assert "Ann Baker" not in page.content()
    board_after = api.get(f"/api/events/{night['id']}/leaderboard")
    totals = [sorted(str(r.get("total")) for r in b.get("rows", []))
              for b in (board_before, board_after)]
    assert totals[0] == totals[1]
