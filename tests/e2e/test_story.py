"""The night's story on the finished board (issue 30, point 4): told once the organizer
finishes the night, every sentence the server's, and printable on its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Side B is 0-8 down after three hands and wins 11-8.
COMEBACK = [("A", 5, {}), ("A", 5, {}), ("A", 5, {"alone": True, "loner_seat": 1}),
            ("B", 5, {"alone": True, "loner_seat": 2}), ("B", 5, {}), ("B", 5, {}),
            ("B", 3, {}), ("A", 1, {})]
QUIET = [("A", 3, {}), ("B", 3, {}), ("A", 3, {}), ("B", 3, {}), ("A", 3, {}), ("A", 3, {}),
         ("B", 3, {}), ("A", 3, {})]


def test_the_finished_board_tells_the_nights_story(page: Page, api, shot):
    from .conftest import EventSetup

    event = EventSetup(api, players=8, name="Closing night")
    for index, hands in enumerate((COMEBACK, QUIET)):
        for maker, tricks, extra in hands:
            event.hand(event.game_id(index), maker, tricks, **extra)
    page.goto(f"/e/{event.id}/board")
    expect(page.locator(".board-tools .clock")).to_contain_text("Round 1")
    assert page.locator(".recap").count() == 0, "no story before the night is finished"
    api.call("PATCH", f"/api/events/{event.id}", {"status": "finished"},
             key=event.organizer_key, expect=200)
    story = page.locator(".recap")
    expect(story).to_contain_text("shared first place with 11 points", timeout=10000)
    expect(story).to_contain_text("were 0-8 down (Round 1, table 1) and won 11-8")
    told = api.get(f"/api/events/{event.id}/recap")
    assert story.locator("li").all_inner_texts() == [s["text"] for s in told["sentences"]]
    expect(story.get_by_role("button", name="Print the story")).to_be_visible()
    shot(page, "board-final-story")
    # Printed, the story is the page: the standings above it are not printed.
    page.evaluate("document.body.classList.add('print-story');"
                  "document.querySelector('.recap').classList.add('printing')")
    page.emulate_media(media="print")
    visible = page.evaluate("[getComputedStyle(document.querySelector('.board')).visibility,"
                            " getComputedStyle(document.querySelector('.recap li')).visibility]")
    assert visible == ["hidden", "visible"]
    shot(page, "board-final-story-print")
