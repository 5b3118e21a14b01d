"""A league playoff protest on the team pages (RULES.md §6): lodged by a captain before the
game, then shown waiting, and with the organizer's ruling once made."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.api.scripts import to_target_game

pytestmark = pytest.mark.browser


def _sheet(api, key, game_id, winner):
    api.call("POST", f"/api/games/{game_id}/paper-sheet", {
        "id": f"s-{uuid.uuid4().hex[:8]}", "hands": to_target_game(winner, 4)}, key=key,
        expect=201)


def test_both_teams_pages_show_a_protest_and_its_ruling(page: Page, api):
    _, event, _ = api.call("POST", "/api/events", {"name": "Protest league",
                                                   "preset": "league"}, expect=201)
    eid, key = event["id"], event["organizer_key"]
    teams = {name: api.post(f"/api/events/{eid}/teams", {
        "name": name, "players": [f"{name} 1", f"{name} 2"], "checked_in": True}, key=key)
        for name in ("North", "South")}
    api.call("POST", f"/api/events/{eid}/season", {"weeks": 1}, key=key, expect=201)
    week = api.post(f"/api/events/{eid}/rounds", {}, key=key)
    while True:
        view = api.get(f"/api/rounds/{week['id']}")
        open_games = [g["id"] for t in view["tables"] for g in t["games"]
                      if api.get(f"/api/games/{g['id']}")["end"] is None]
        if not open_games:
            break
        for game in open_games:
            _sheet(api, key, game, "A")
    api.call("POST", f"/api/rounds/{week['id']}/close", key=key, expect=200)
    final = api.post(f"/api/events/{eid}/rounds", {}, key=key)
    game = final["tables"][0]["games"][0]["id"]
    captain = api.post(f"/api/events/{eid}/teams/{teams['North']['id']}/key", key=key)["key"]
    ringer = teams["South"]["members"][0]
    protest = api.post(f"/api/games/{game}/protests", {"player_id": ringer["id"],
                                                      "grounds": "Not on the roster"},
                       key=captain)

    page.goto(f"/e/{eid}/team/{teams['South']['id']}")
    listed = page.locator(".team-protests")
    expect(listed).to_contain_text(f"North protested {ringer['name']} (South): Not on the "
                                   "roster")
    expect(listed).to_contain_text("waiting for a ruling")
    api.post(f"/api/events/{eid}/protests/{protest['id']}/ruling",
             {"upheld": False, "reason": "Registered in week 1"}, key=key)
    page.goto(f"/e/{eid}/team/{teams['North']['id']}")
    expect(page.locator(".team-protests")).to_contain_text("rejected: Registered in week 1")
