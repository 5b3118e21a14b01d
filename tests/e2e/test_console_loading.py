"""The console is loaded on first use, and kept for use with no network.

- A runner's game screen fetches nothing from /js/console/; the console still opens with no
  network once the app has been opened online (the service worker precaches it), even a section
  not opened yet.
- A page a newer service worker took over reloads at the next change of screen, and not while a
  write is waiting for its answer.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import SERVICE_WORKER
from .steps import join_with_pin, open_game, wait_for_service_worker

# Offline is what these tests are about: their pages keep the service worker.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(**SERVICE_WORKER)]

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


@pytest.mark.browser_context_args(**LAPTOP, **SERVICE_WORKER)
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


@pytest.mark.browser_context_args(**LAPTOP, **SERVICE_WORKER)
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
    page.get_by_role("button", name=f"More for {name}").click()  # Withdraw is behind More
    page.get_by_role("button", name=f"Withdraw: {name}").click()  # asks to be sure
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
