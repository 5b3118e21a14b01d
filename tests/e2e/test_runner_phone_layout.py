"""The runner's game screen on a small phone in a loud bar: both taps (who called, then the
tricks) sit in view on a 360x640 phone, before the first hand and after it, with long names too,
and the toast never covers them; the edit heading shows below the bar.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Api, EventSetup
from .steps import (
    join_with_pin,
    open_game,
    side_names,
    tap_hand,
    wait_for_hands,
)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}}
BAR = 52  # the sticky bar's height (app.css .bar)
LONG_NAMES = ["Gwendolyn A. Vanderbilt-Smythe", "Konstantin B. Vanderbilt-Smythe",
              "Bartholomew A. Vanderbilt-Smythe", "Christopher D. Vanderbilt-Smythe",
              "Dominique A. Vanderbilt-Smythe", "Maximilian D. Vanderbilt-Smythe",
              "Alexandria B. Vanderbilt-Smythe", "Fitzgerald B. Vanderbilt-Smythe"]


class NamedEvent(EventSetup):
    """An event whose players have the names given (round 1 seated)."""

    def __init__(self, api: Api, names: list[str], preset: str = "progressive"):
        _, event, _ = api.call("POST", "/api/events", {"name": "Long names night",
                                                       "preset": preset}, expect=201)
        self.api, self.event, self.id = api, event, event["id"]
        self.code, self.pin, self.organizer_key = event["code"], event["join_pin"], \
            event["organizer_key"]
        self.players = [api.call("POST", f"/api/events/{self.id}/players",
                                 {"name": name, "checked_in": True}, key=self.organizer_key,
                                 expect=201)[1] for name in names]
        _, self.round, _ = api.call("POST", f"/api/events/{self.id}/rounds", {"number": 1},
                                    key=self.organizer_key, expect=201)


def boxes(page: Page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, """els => els.map((el) => {
        const r = el.getBoundingClientRect();
        return {k: el.dataset.k || el.textContent.trim(), top: r.top, bottom: r.bottom,
                left: r.left, right: r.right};
    })""")


def entry_buttons(page: Page) -> list[dict]:
    found = boxes(page, 'section.entry [data-k^="maker-"], section.entry [data-k^="tricks-"]')
    assert len(found) == 8, found  # two sides, tricks 0 to 5
    return found


def assert_in_view(page: Page, found: list[dict]) -> None:
    height = page.viewport_size["height"]
    outside = [b for b in found if b["top"] < BAR or b["bottom"] > height]
    assert not outside, f"not in view without a scroll: {outside}"


def assert_not_covered(found: list[dict], cover: dict) -> None:
    hit = [b for b in found if b["top"] < cover["bottom"] and cover["top"] < b["bottom"]
           and b["left"] < cover["right"] and cover["left"] < b["right"]]
    assert not hit, f"the toast covers {hit}"


@pytest.mark.browser_context_args(**SMALL_PHONE)
@pytest.mark.parametrize(("names", "scheme"), [("short", "light"), ("long", "light"),
                                               ("long", "dark")])
def test_both_taps_are_in_view_on_a_360_by_640_phone_and_the_toast_covers_neither(
        page, api, names, scheme, shot):
    page.emulate_media(color_scheme=scheme)
    names = f"{names}-dark" if scheme == "dark" else names
    event = NamedEvent(api, LONG_NAMES) if names.startswith("long") else EventSetup(api)
    game_id = event.game_id(0)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    assert page.evaluate("scrollY") == 0
    assert_in_view(page, entry_buttons(page))
    shot(page, f"fix-360-{names}-start", full_page=False)

    sides = side_names(event.game(game_id))
    for hand, (maker, tricks) in enumerate([("A", 3), ("B", 4)], start=1):
        tap_hand(page, sides[maker], tricks)
        expect(page.locator(".toast")).to_be_visible()
        wait_for_hands(event, game_id, hand)
        expect(page.locator(".game-progress")).to_contain_text(f"{hand} played")
        found = entry_buttons(page)
        assert_in_view(page, found)
        assert_not_covered(found, boxes(page, ".toast")[0])
    # The score is still the largest thing on the screen.
    sizes = page.evaluate("""() => {
        const px = (el) => parseFloat(getComputedStyle(el).fontSize);
        const others = [...document.querySelectorAll('main *')]
            .filter((el) => !el.closest('.side-points') && el.childElementCount === 0
                    && el.textContent.trim()).map(px);
        return [px(document.querySelector('.side-points')), Math.max(...others)];
    }""")
    assert sizes[0] > sizes[1], sizes
    shot(page, f"fix-360-{names}-after-hand", full_page=False)
    # The last outcome is said below the entry, where it pushes nothing down.
    expect(page.locator(".last-outcome")).to_be_visible()


@pytest.mark.browser_context_args(**SMALL_PHONE)
def test_the_edit_heading_shows_below_the_bar(page, event, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 5), ("A", 1), ("B", 3)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    page.get_by_role("button", name="Edit hand 4").click()
    heading = page.locator("section.edit h2").first
    expect(heading).to_have_text("Edit hand 4: who called trump?")
    page.wait_for_timeout(300)
    assert heading.bounding_box()["y"] >= BAR
    shot(page, "fix-edit-heading", full_page=False)
