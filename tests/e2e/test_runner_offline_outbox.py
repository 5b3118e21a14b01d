"""Hands kept on the runner's phone (the outbox): a phone whose key covers table 1 is told so at
table 3, up front, and a hand kept for a table with no key here never holds up its own table's
hands; offline, the waiting hands are counted and entry stops at the game's hands; a table listed
under "Your tables" opens offline without having been opened before.
"""

from __future__ import annotations

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


def test_a_table_key_at_another_table_is_told_so_and_its_own_tables_hands_still_go(
        page, event, shot):
    own, other = event.game_id(0), event.game_id(1)
    assert event.tables[1]["table"] == 2
    join_with_pin(page, event, table=1)

    # Table 2's game: said up front, and no entry is offered.
    open_game(page, event, other)
    panel = page.locator("section.key-needed")
    expect(panel).to_contain_text("This phone's key covers table 1 only")
    expect(page.locator("section.entry")).to_have_count(0)
    expect(page.locator('[data-k^="tricks-"]')).to_have_count(0)
    shot(page, "fix-wrong-table", full_page=False)

    # A hand for table 2 already kept on the phone (e.g. from before its key was replaced)
    # has no key here: it waits, and holds nothing else back.
    page.evaluate("""async (game) => {
        const api = await import('/js/api.js');
        await api.enterHand(game, {maker: 'A', tricks: 3}, 'Table 2: kept hand');
    }""", event.game(other))
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    open_game(page, event, own)
    tap_hand(page, side_names(event.game(own))["B"], 4)
    wait_for_hands(event, own, 1)
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    expect(page.locator("#banner")).to_be_hidden()
    page.goto("/outbox")
    expect(page.locator(".outbox-list > li")).to_contain_text("covers table 1 only")
    shot(page, "fix-wrong-table-outbox")

    # Joining table 2 with the PIN, from its game: entry appears, the kept hand goes.
    page.locator(".outbox-list").get_by_role("link", name="Open the game").click()
    page.fill("#key-pin", event.pin)
    page.get_by_role("button", name="Join table 2").click()
    expect(page.locator("section.entry")).to_be_visible()
    wait_for_hands(event, other, 1)
    expect(page.locator("#outbox-badge")).to_be_hidden()
    assert event.game(own)["hands_played"] == 1


def test_offline_the_waiting_hands_are_counted_and_entry_stops_at_the_games_hands(
        page, context, event, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 3), ("A", 4), ("B", 0), ("A", 3)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    names = side_names(event.game(game_id))
    progress = page.locator(".game-progress")

    context.set_offline(True)
    tap_hand(page, names["A"], 3)
    expect(progress).to_have_text("8 hands · 5 played · 1 waiting to be sent · 2 to go")
    tap_hand(page, names["B"], 3)
    tap_hand(page, names["A"], 5)
    expect(progress).to_have_text("8 hands · 5 played · 3 waiting to be sent · 0 to go")
    # Eight hands are played or waiting: no ninth is offered.
    expect(page.locator("section.entry-done")).to_contain_text("All 8 hands are entered")
    expect(page.locator('[data-k^="tricks-"]')).to_have_count(0)
    shot(page, "fix-offline-all-entered", full_page=False)

    # Undo the last one (it never left the phone): entry comes back for one hand.
    page.get_by_role("button", name="Undo last hand").click()
    expect(progress).to_have_text("8 hands · 5 played · 2 waiting to be sent · 1 to go")
    tap_hand(page, names["B"], 4)
    expect(page.locator("section.entry-done")).to_be_visible()

    context.set_offline(False)
    game = wait_for_hands(event, game_id, 8, timeout=25)
    assert game["over"]
    expect(page.locator("section.over")).to_contain_text("Game over", timeout=10000)
    expect(progress).to_have_text("8 hands · 8 played · 0 to go")


def test_a_listed_table_opens_offline_without_having_been_opened(page, context, event, shot):
    join_with_pin(page, event)
    expect(page.locator(".table-card")).to_have_count(len(event.tables))
    expect(page.locator(".offline-ready")).to_contain_text("open with no network")
    wait_for_service_worker(page)
    context.set_offline(True)
    second = event.game_id(1)
    page.locator(f'a[href="/e/{event.id}/games/{second}"]').click()
    expect(page.locator(".scores")).to_be_visible()
    expect(page.locator(".game-note")).to_contain_text("No network")
    shot(page, "fix-unvisited-offline", full_page=False)
    tap_hand(page, side_names(event.game(second))["A"], 3)
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    context.set_offline(False)
    wait_for_hands(event, second, 1, timeout=25)


COVERS = """(selectors) => {
    const toast = document.querySelector('.toast');
    if (!toast) return [];
    const t = toast.getBoundingClientRect();
    return selectors.flatMap((sel) => [...document.querySelectorAll(sel)].map((el) => {
        const r = el.getBoundingClientRect();
        const hit = r.top < t.bottom && t.top < r.bottom && r.left < t.right && t.left < r.right;
        return hit ? sel : null;
    })).filter(Boolean);
}"""
GUARDED = [".game-head", ".scores", "section.entry .btn", "section.over"]


def test_the_kept_toast_says_sent_as_soon_as_the_hands_go_and_covers_nothing(
        page, context, event, shot):
    """Hands kept offline: the toast says so, with Undo, under the entry; once the outbox has
    sent them it says they were sent at once (not "not sent yet" for seconds more), and neither
    toast ever covers the table line, the score tiles, the entry buttons or the game-over
    panel."""
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 3), ("A", 4), ("B", 0), ("A", 3), ("B", 4)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    names = side_names(event.game(game_id))
    toast = page.locator(".toast")

    context.set_offline(True)
    tap_hand(page, names["A"], 3)
    # Each hand's "kept" toast is waited for: going online while the second hand is still on its
    # way into the outbox would send it at once, with the ordinary toast (about one run in ten).
    expect(toast).to_contain_text("Saved on this phone, not sent yet")
    toast.get_by_role("button", name="Close message").click()
    expect(toast).to_have_count(0)
    tap_hand(page, names["B"], 5)
    expect(toast).to_contain_text("Saved on this phone, not sent yet")
    expect(toast.get_by_role("button", name="Undo")).to_be_visible()
    assert page.evaluate(COVERS, GUARDED) == []
    shot(page, "fix-toast-kept-offline", full_page=False)

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for_hands(event, game_id, 8)
    # Said as soon as the outbox has sent them, well before the kept toast's 7 s are up.
    expect(toast).to_contain_text("Sent: ", timeout=4000)
    expect(toast).to_contain_text("marched")
    expect(toast).not_to_contain_text("not sent yet")
    expect(toast.get_by_role("button", name="Undo")).to_have_count(0)
    expect(page.locator("section.over")).to_contain_text("Game over")
    assert page.evaluate(COVERS, GUARDED) == []
    shot(page, "fix-toast-sent-game-over", full_page=False)
    expect(toast).to_have_count(0, timeout=6000)
