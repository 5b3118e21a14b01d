"""A table calls the organizer from its phone (RULES.md §7): the console's Rounds tab lists the
waiting call with its table and a badge, until the organizer answers it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .steps import join_with_pin, open_game

pytestmark = pytest.mark.browser


def test_a_runner_calls_and_the_console_answers(page, browser, event, base_url):
    join_with_pin(page, event, table=1)
    game_id = event.game_id(0)
    open_game(page, event, game_id)
    page.get_by_role("button", name="Call the organizer").click()
    expect(page.get_by_role("status").filter(has_text="Called to table 1.")).to_be_visible()
    page.get_by_role("button", name="Call the organizer").click()  # the same call again
    waiting = event.api.get(f"/api/events/{event.id}/calls", key=event.organizer_key)
    assert (waiting["waiting"], waiting["total"]) == (1, 1), "a second tap is the same call"

    console = browser.new_context(base_url=base_url).new_page()
    console.goto(f"/e/{event.id}/organize/rounds#key={event.organizer_key}")
    expect(console.locator(".calls-badge")).to_have_text("1 waiting")
    call = console.locator(".call-waiting")
    expect(call).to_contain_text("Table 1")
    expect(call).to_contain_text("waiting")
    console.get_by_role("button", name="Answer table 1").click()
    expect(console.locator(".table-calls")).to_contain_text("No table is calling. 1 call "
                                                            "tonight, 1 answered.")
    expect(console.locator(".calls-badge")).to_have_text("")
    after = event.api.get(f"/api/events/{event.id}/calls", key=event.organizer_key)
    assert after["waiting"] == 0 and after["calls"][0]["answered_by"] is not None
