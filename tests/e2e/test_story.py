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


LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}


@pytest.mark.browser_context_args(**LAPTOP)
def test_the_rounds_preview_offers_round_1_balanced_and_seats_it_so(page: Page, api, shot):
    _, made, _ = api.call("POST", "/api/events", {"name": "Balanced night",
                                                  "preset": "progressive"}, expect=201)
    event_id, key = made["id"], made["organizer_key"]
    for name in ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]:
        api.call("POST", f"/api/events/{event_id}/players", {"name": name, "checked_in": True},
                 key=key, expect=201)
    page.goto(f"/e/{event_id}/organize/rounds#key={key}")
    box = page.get_by_label("Balance partners by rating")
    expect(box).to_be_visible(timeout=10000)
    expect(page.locator(".console-body .hint", has_text="in the random draw")).to_contain_text(
        "0 of 8 players rated")
    box.check()
    shot(page, "console-round-1-balanced")
    page.get_by_role("button", name="Seat Round 1").click()
    expect(page.locator(".console-body")).not_to_contain_text("Round 1: preview", timeout=10000)
    _, log, _ = api.call("GET", f"/api/events/{event_id}/audit", key=key)
    seated = next(e for e in log if e["action"] == "seat-round")
    assert seated["after"]["balance"] == {"spread": 0, "drawn_spread": 0, "rated": 0,
                                          "players": 8}
