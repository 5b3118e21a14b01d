"""The console loaded on first use, and what came back once it had its own budget.

- A runner's game screen fetches nothing from /js/console/; the console still opens with no
  network once the app has been opened online (the service worker precaches it).
- A page a newer service worker took over reloads at the next change of screen, and not while a
  write is waiting for its answer.
- Reopen the latest closed round, restart the clock with typed minutes, the Standings section,
  mark the event finished (and open it again).
- A write that fails shows no invented error line, and "Saving…" is what a screen reader hears.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup
from .steps import join_with_pin, open_game, wait_for_service_worker

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}


def console_requests(page: Page) -> list[str]:
    """Every request the page makes for a console module (served by the network or the
    service worker alike)."""
    seen: list[str] = []
    page.on("request", lambda r: "/js/console/" in r.url and seen.append(r.url))
    return seen


def test_a_runners_game_screen_loads_no_console_module(page, context, event):
    seen = console_requests(page)
    join_with_pin(page, event)
    open_game(page, event, event.game_id(0))
    wait_for_service_worker(page)
    page.reload()
    expect(page.locator(".scores")).to_be_visible()
    assert seen == [], seen
    preloaded = page.eval_on_selector_all('link[rel="modulepreload"]', "ls => ls.map(l => l.href)")
    assert preloaded and not [u for u in preloaded if "/js/console/" in u]

    # The service worker precached the console all the same: it opens with no network (this
    # phone holds no organizer key, so it says how to get one).
    context.set_offline(True)
    page.goto(f"/e/{event.id}/organize")
    expect(page.locator("h1.page-title")).to_have_text("Event")
    expect(page.locator("main")).to_contain_text("This device has no organizer key")
    assert any(u.endswith("/js/console/event.js") for u in seen)
    context.set_offline(False)


@pytest.mark.browser_context_args(**LAPTOP)
def test_the_console_opens_offline_once_visited_online_even_a_section_not_opened_yet(
        page, context, event):
    seen = console_requests(page)
    page.goto(f"/e/{event.id}/organize#key={event.organizer_key}")
    expect(page.locator(".next-step")).to_contain_text("Round 1 is being played")
    assert any(u.endswith("/js/console/event.js") for u in seen)
    assert not any(u.endswith("/js/console/rounds.js") for u in seen)
    wait_for_service_worker(page)

    context.set_offline(True)
    page.reload()
    expect(page.locator("h1.page-title")).to_have_text("Event")
    expect(page.locator(".console-event")).to_contain_text(event.code)
    expect(page.locator("main .note").first).to_contain_text("No network")
    # Rounds was never opened on this device: its module comes from the precache.
    page.get_by_role("navigation", name="Console sections").get_by_role(
        "link", name="Rounds", exact=True).click()
    expect(page.locator("h1.page-title")).to_have_text("Rounds")
    expect(page.locator(".console-body")).to_contain_text("Check the connection")
    assert any(u.endswith("/js/console/rounds.js") for u in seen)
    context.set_offline(False)
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("heading", name="Round 1: being played")).to_be_visible()


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_newer_version_takes_over_at_the_next_screen_once_no_write_is_waiting(
        page, event, api):
    seen = console_requests(page)
    page.goto(f"/e/{event.id}/organize/players#key={event.organizer_key}")
    wait_for_service_worker(page)
    expect(page.locator(".person").first).to_be_visible()
    name = event.players[0]["name"]
    held = []
    page.route(re.compile(r"/api/events/\d+/players/\d+$"),
               lambda route: held.append(route) if route.request.method == "PATCH"
               else route.continue_())
    page.get_by_role("button", name=f"Withdraw: {name}").click()
    expect(page.get_by_role("button", name=f"Withdraw: {name}")).to_have_text("Saving…")
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the withdrawal did not go out"

    # What app.js hears when a newer service worker claims the page.
    page.evaluate("window.sameLoad = true;"
                  "navigator.serviceWorker.dispatchEvent(new Event('controllerchange'))")
    page.get_by_role("navigation", name="Console sections").get_by_role(
        "link", name="Rounds", exact=True).click()
    page.wait_for_timeout(1000)
    assert page.evaluate("window.sameLoad") is True, "reloaded while a write was waiting"
    assert not any(u.endswith("/rounds.js") for u in seen), "a module imported into the old page"

    with page.expect_event("load"):
        held[0].continue_()
    expect(page.get_by_role("heading", name="Round 1: being played")).to_be_visible()
    assert page.evaluate("window.sameLoad") is None, "the new screen is a fresh page"
    assert page.url.endswith(f"/e/{event.id}/organize/rounds")
    assert any(u.endswith("/rounds.js") for u in seen)
    players = api.get(f"/api/events/{event.id}/players")
    assert next(p for p in players if p["name"] == name)["withdrawn"] is True


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
    assert download.value.suggested_filename == f"{event.code}-standings.csv"

    # --- mark the event finished, then open it again ---------------------------------------------
    page.get_by_role("link", name="Mark the event finished (Event)").click()
    expect(page.locator("h1.page-title")).to_have_text("Event")
    page.get_by_role("button", name="Mark the event finished").click()
    page.get_by_role("button", name="Tap again: it is finished").click()
    expect(page.get_by_role("heading", name="The event is finished")).to_be_visible()
    expect(page.locator(".console-event")).to_contain_text("· finished")
    assert api.get(f"/api/events/{event.id}")["status"] == "finished"
    shot(page, "console-event-finished")
    page.get_by_role("button", name="Open the event again").click()
    page.get_by_role("button", name="Tap again to open it").click()
    expect(page.get_by_role("heading", name="When it is over")).to_be_visible()
    assert api.get(f"/api/events/{event.id}")["status"] == "open"


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
