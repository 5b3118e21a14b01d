"""No network at the table: hands wait on the phone and reach the server once, in order."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import SERVICE_WORKER
from .steps import (
    join_with_pin,
    open_game,
    side_names,
    tap_hand,
    wait_for_hands,
    wait_for_service_worker,
)

# Offline is what these tests are about: their pages keep the service worker.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(**SERVICE_WORKER)]


def test_hands_entered_offline_survive_a_reload_and_reach_the_server_once_in_order(
        page, context, event, shot):
    game_id = event.game_id(0)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    names = side_names(event.game(game_id))

    context.set_offline(True)
    typed = [("A", 3), ("B", 5), ("A", 0), ("B", 4), ("A", 5)]
    for maker, tricks in typed:
        tap_hand(page, names[maker], tricks)
    badge = page.locator("#outbox-badge")
    expect(badge).to_have_text("⟳ 5 not sent")
    expect(page.locator(".hand.pending")).to_have_count(5)
    expect(page.locator(".hand.pending .tag").first).to_have_text("not sent yet")
    shot(page, "game-offline")

    # The shell comes from the service worker; the hands from IndexedDB.
    page.reload()
    expect(page.locator(".scores")).to_be_visible()
    expect(badge).to_have_text("⟳ 5 not sent")
    expect(page.locator(".hand.pending")).to_have_count(5)
    expect(page.locator(".note").first).to_contain_text("No network")
    assert event.game(game_id)["hands_played"] == 0

    page.get_by_role("link", name=re.compile("5 not sent")).click()
    expect(page.locator(".outbox-list > li")).to_have_count(5)
    shot(page, "outbox")
    page.go_back()
    expect(page.locator(".scores")).to_be_visible()

    context.set_offline(False)
    expect(badge).to_be_hidden(timeout=20000)
    game = wait_for_hands(event, game_id, 5)
    assert [(h["maker"], h["tricks"]) for h in game["hands"]] == typed
    assert [h["number"] for h in game["hands"]] == [1, 2, 3, 4, 5]
    assert len({h["id"] for h in game["hands"]}) == 5
    expect(page.locator(".hand.pending")).to_have_count(0)
    expect(page.locator(".hand-list > li")).to_have_count(5)
    # Nothing is sent twice: a later flush finds nothing to send.
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(500)
    assert event.game(game_id)["hands_played"] == 5


def test_a_hand_the_server_refuses_is_shown_with_its_reason_and_kept(page, context, event,
                                                                     shot):
    game_id = event.game_id(0)
    for maker in "ABABABA":
        event.hand(game_id, maker, 3)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    names = side_names(event.game(game_id))

    context.set_offline(True)
    tap_hand(page, names["A"], 4)
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    # Meanwhile the last hand reaches the server from another phone: the game is over.
    event.hand(game_id, "B", 5)
    context.set_offline(False)

    badge = page.locator("#outbox-badge")
    expect(badge).to_have_text("⟳ 1 refused", timeout=20000)
    refused = page.locator(".hand.refused")
    expect(refused).to_contain_text("refused")
    expect(refused.locator(".reason")).to_contain_text("is over")
    page.reload()
    expect(page.locator(".hand.refused .reason")).to_contain_text("is over")

    badge.click()
    item = page.locator(".refused-list > li")
    expect(item).to_have_count(1)
    expect(item.locator(".error")).to_contain_text("all 8 hands are played")
    shot(page, "outbox-refused")
    # Trying again asks the server again (same hand id) and is refused again, still kept.
    item.get_by_role("button", name="Try again").click()
    # The retry has come back once the button offers it again.
    expect(page.get_by_role("button", name="Try again")).to_be_enabled(timeout=20000)
    expect(page.locator(".refused-list > li")).to_have_count(1)
    expect(page.locator(".refused-list .error")).to_contain_text("is over")
    page.get_by_role("button", name="Discard").click()
    page.get_by_role("button", name="Yes, discard it").click()
    expect(page.locator(".refused-list > li")).to_have_count(0)
    expect(badge).to_be_hidden()
    assert event.game(game_id)["hands_played"] == 8


def test_a_hand_kept_through_a_revoked_key_is_sent_after_joining_again(page, event, api):
    game_id = event.game_id(0)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    names = side_names(event.game(game_id))
    keys = api.get(f"/api/events/{event.id}/keys", key=event.organizer_key)
    runner = next(k for k in keys if k["role"] == "runner" and not k["revoked"])
    api.call("DELETE", f"/api/events/{event.id}/keys/{runner['id']}", key=event.organizer_key,
             expect=200)

    tap_hand(page, names["B"], 3)
    banner = page.locator("#banner")
    expect(banner).to_contain_text("not valid")
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    assert event.game(game_id)["hands_played"] == 0

    banner.get_by_role("link", name="Join again").click()
    page.fill("#join-code", event.code)
    page.fill("#join-pin", event.pin)
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#outbox-badge")).to_be_hidden(timeout=10000)
    game = wait_for_hands(event, game_id, 1)
    assert (game["hands"][0]["maker"], game["hands"][0]["tricks"]) == ("B", 3)


def test_a_page_the_service_worker_does_not_serve_yet_asks_to_be_served(page, context, event):
    """A page can start without the service worker while one is active: it began loading
    during the first visit's install, just as the worker took over (a timing race seen one run
    in ten when a runner changes screen at once), or it was force-reloaded. Left so, its next
    offline reload would be the browser's "no internet" page. Such a page asks the worker to
    claim it. A forced reload (which always skips the worker) makes the case every time."""
    join_with_pin(page, event)
    open_game(page, event, event.game_id(0))
    wait_for_service_worker(page)
    context.new_cdp_session(page).send("Page.reload", {"ignoreCache": True})
    expect(page.locator(".scores")).to_be_visible()
    wait_for_service_worker(page)
    context.set_offline(True)
    page.reload()
    expect(page.locator(".scores")).to_be_visible()
