"""The console's rounds: every page says why no next round can be seated without logging an error;
reopen the latest closed round, restart the clock with typed minutes, follow the standings live
and mark the event finished (and open it again).
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}


@pytest.mark.browser_context_args(**LAPTOP)
def test_every_console_page_says_why_no_next_round_can_be_seated_without_an_error(page: Page,
                                                                                  api):
    _, made, _ = api.call("POST", "/api/events", {"name": "One-round night", "preset":
                                                  "progressive", "overrides": {"rounds": 1}},
                          expect=201)
    event_id, key = made["id"], made["organizer_key"]
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    sections = ["", "/players", "/rounds", "/standings", "/ties", "/corrections", "/print"]

    # Nobody registered yet: the server's reason, on Players and Rounds.
    page.goto(f"/e/{event_id}/organize/players#key={key}")
    expect(page.locator(".ghosts")).to_have_text(
        "Next round: No players are checked in: add 6 players (6 is the smallest progressive "
        "field).")
    page.goto(f"/e/{event_id}/organize/rounds")
    expect(page.locator(".console-body .error")).to_contain_text("No players are checked in")
    assert errors == [], errors

    # Before round 1 the preview shows its ghost seats.
    for name in ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"]:
        api.call("POST", f"/api/events/{event_id}/players", {"name": name, "checked_in": True},
                 key=key, expect=201)
    page.goto(f"/e/{event_id}/organize/players")
    expect(page.locator(".ghosts")).to_contain_text("Round 1: no ghost seats")
    round1 = api.call("POST", f"/api/events/{event_id}/rounds", {"number": 1}, key=key,
                      expect=201)[1]

    def visit_all(ready: str) -> None:
        for path in sections:
            page.goto(f"/e/{event_id}/organize{path}")
            expect(page.locator(".console-body > *:not(.loading)").first).to_be_visible()
            page.wait_for_timeout(400)
        page.goto(f"/e/{event_id}/organize/players")
        expect(page.locator(".ghosts")).to_contain_text(ready)
        assert errors == [], errors

    # Round 1 being played: every page opens cleanly; Players says why there is no preview.
    visit_all("Next round: Round 1 is still being played: close it before seating the next round.")
    # Every round played: the same.
    for table in round1["tables"]:
        for maker in "ABABABAA":
            api.call("POST", f"/api/games/{table['games'][0]['id']}/hands",
                     {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": 3}, key=key,
                     expect=201)
    api.call("POST", f"/api/rounds/{round1['id']}/close", key=key, expect=200)
    visit_all("Next round: All 1 rounds have been played; the event is complete.")
    page.goto(f"/e/{event_id}/organize/rounds")
    expect(page.locator(".complete")).to_contain_text("All 1 rounds have been played")
    # The Event page says so too, and offers the standings, not another round.
    page.goto(f"/e/{event_id}/organize")
    expect(page.locator(".next-step")).to_contain_text("Round 1 is closed. All 1 rounds")
    expect(page.get_by_role("link", name="Standings").first).to_be_visible()
    expect(page.get_by_role("link", name="Next round")).to_have_count(0)
    assert errors == []


def _finish_round(event: EventSetup, round_: dict) -> None:
    for table in round_["tables"]:
        game = table["games"][0]["id"]
        for maker in "ABABABAA":
            event.hand(game, maker, 3)


@pytest.mark.browser_context_args(**LAPTOP)
def test_reopen_a_round_restart_the_clock_standings_and_finish_the_event(
        page: Page, event, api, shot):
    key = event.organizer_key
    page.goto(f"/e/{event.id}/organize/rounds#key={key}")
    expect(page.get_by_role("heading", name="Round 1: being played")).to_be_visible()

    # --- the clock, restarted with a length the organizer types ---------------------------------
    minutes = page.locator("#clock-minutes")
    expect(minutes).to_have_value("25")
    minutes.fill("500")
    page.get_by_role("button", name="Restart the clock").click()
    page.get_by_role("button", name="Tap again: 500 minutes from now").click()
    refusal = page.locator(".msg-error")
    expect(refusal.locator(".problem-lines")).to_contain_text("Minutes: ")
    assert "undefined" not in refusal.inner_text()
    minutes.fill("40")
    page.get_by_role("button", name="Restart the clock").click()
    page.get_by_role("button", name="Tap again: 40 minutes from now").click()
    expect(page.locator(".big-clock")).to_have_text(re.compile(r"^(40:00|39:\d\d) left$"))
    expect(refusal).to_be_hidden()
    assert api.get(f"/api/rounds/{event.round['id']}")["clock"]["minutes"] == 40
    shot(page, "console-clock-restart")

    # --- close round 1, then reopen it for a late correction ------------------------------------
    _finish_round(event, event.round)
    page.get_by_role("button", name="Close the round").click()
    expect(page.get_by_role("heading", name="Round 2: preview")).to_be_visible()
    page.get_by_role("button", name="Reopen Round 1").click()
    page.get_by_role("button", name="Tap again: Round 1 is played again").click()
    expect(page.get_by_role("heading", name="Round 1: being played")).to_be_visible()
    assert api.get(f"/api/rounds/{event.round['id']}")["status"] == "playing"
    page.get_by_role("button", name="Close the round").click()
    expect(page.get_by_role("heading", name="Round 2: preview")).to_be_visible()
    assert api.get(f"/api/rounds/{event.round['id']}")["status"] == "closed"

    # --- Standings: the leaderboard, shared places pointing at Ties, live -----------------------
    page.get_by_role("navigation", name="Console sections").get_by_role(
        "link", name="Standings", exact=True).click()
    expect(page.locator("h1.page-title")).to_have_text("Standings")
    board = api.get(f"/api/events/{event.id}/leaderboard")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(board["rows"]))
    first = board["rows"][0]
    expect(rows.first.locator("th")).to_contain_text(first["name"])
    expect(rows.first.locator(".total")).to_have_text(str(first["total"]))
    expect(page.locator(".console-body")).to_contain_text("1 of 5 rounds closed")
    assert board["ties"], "eight players, two results: places are shared"
    level = page.locator(".level-places")
    expect(level).to_contain_text(f"Place {board['ties'][0]['place']} is shared")
    expect(page.locator("tr.level")).to_have_count(sum(len(g["entrants"]) for g in board["ties"]))
    shot(page, "console-standings")
    level.get_by_role("link", name="Settle shared places under Ties").click()
    expect(page.locator("h1.page-title")).to_have_text("Ties")
    page.go_back()
    expect(page.locator("h1.page-title")).to_have_text("Standings")
    # A hand entered elsewhere shows here without a reload.
    round2 = api.call("POST", f"/api/events/{event.id}/rounds", {"number": 2}, key=key,
                      expect=201)[1]
    event.hand(round2["tables"][0]["games"][0]["id"], "A", 5)
    before = {r["entrant_id"]: r["total"] for r in board["rows"]}
    after = {r["entrant_id"]: r["total"]
             for r in api.get(f"/api/events/{event.id}/leaderboard")["rows"]}
    moved = [e for e in after if after[e] != before[e]]
    assert moved
    expect(page.locator(f'tr[data-entrant="{moved[0]}"] .total')).to_have_text(
        str(after[moved[0]]), timeout=12000)
    expect(page.locator(".console-body")).to_contain_text("Round 2 being played")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the standings (CSV)").click()
    # Saved under the server's name for it, the event's name in it, and the message says so
    # (it said "standings.csv" while the file was "<CODE>-standings.csv").
    saved_as = download.value.suggested_filename
    assert saved_as.endswith("-standings.csv") and event.code not in saved_as
    expect(page.locator(".msg-ok")).to_contain_text(f"{saved_as} saved")

    # --- mark the event finished, then open it again ---------------------------------------------
    page.get_by_role("link", name="Mark the event finished (Event)").click()
    expect(page.locator("h1.page-title")).to_have_text("Event")
    page.get_by_role("button", name="Mark the event finished").click()
    page.get_by_role("button", name="Tap again: it is finished").click()
    expect(page.get_by_role("heading", name="The event is finished")).to_be_visible()
    # Finished: nothing offers to seat another round.
    expect(page.locator(".next-step")).to_have_text(
        "The event is finished: its standings are final.")
    expect(page.get_by_role("link", name="Next round")).to_have_count(0)
    expect(page.locator(".console-event")).to_contain_text("· finished")
    assert api.get(f"/api/events/{event.id}")["status"] == "finished"
    shot(page, "console-event-finished")
    page.get_by_role("button", name="Open the event again").click()
    page.get_by_role("button", name="Tap again to open it").click()
    expect(page.get_by_role("heading", name="When it is over")).to_be_visible()
    assert api.get(f"/api/events/{event.id}")["status"] == "open"
