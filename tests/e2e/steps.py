"""What a runner does on the phone, and the hands and events set up through the API around it,
as reusable steps for the browser tests."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .conftest import PHONE, EventSetup


def join_with_pin(page: Page, event: EventSetup, table: int | None = None) -> None:
    page.goto("/")
    page.fill("#join-code", event.code)
    page.fill("#join-pin", event.pin)
    if table is not None:
        page.fill("#join-table", str(table))
    page.get_by_role("button", name="Join").click()
    expect(page).to_have_url(re.compile(rf"/e/{event.id}/run$"))


def open_game(page: Page, event: EventSetup, game_id: int) -> None:
    page.goto(f"/e/{event.id}/games/{game_id}")
    expect(page.locator(".scores")).to_be_visible()


def wait_until(page: Page, expression: str, timeout: float = 15) -> None:
    """Poll a JavaScript expression until it is true. (page.wait_for_function would evaluate it
    with eval inside the page, which the app's CSP forbids, so it fails whenever the first try
    is not already true.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(100)


def wait_for_service_worker(page: Page) -> None:
    """Wait until the service worker controls the page (so a reload works with no network)."""
    wait_until(page, "!!navigator.serviceWorker && navigator.serviceWorker.controller !== null"
               " && navigator.serviceWorker.controller.state === 'activated'")


def side_names(game: dict) -> dict:
    return {side: game["sides"][side]["name"] for side in "AB"}


def in_words(outcome: str, game: dict) -> str:
    """The server's outcome with side letters as names: what the screen must say."""
    names = side_names(game)
    return re.sub(r"\b([AB])\b", lambda m: names[m.group(1)], outcome)


def tap_hand(page: Page, maker_name: str, tricks: int, alone: bool = False) -> None:
    """The common hand: tap the maker side, (alone), then the makers' tricks."""
    entry = page.locator("section.entry")
    entry.get_by_role("button", name=maker_name, exact=True).click()
    if alone:
        entry.get_by_role("button", name="Alone", exact=True).click()
    entry.locator(f'[data-k="tricks-{tricks}"]').click()


def tap_renege(page: Page, maker_name: str, by_name: str, upheld: bool,
               tricks: int | None = None) -> None:
    """The guided renege: maker, who reneged, upheld or rejected, then tricks if rejected."""
    page.get_by_role("button", name="Renege…").click()
    flow = page.locator("section.renege")
    flow.locator('[data-k^="rmaker-"]', has_text=maker_name).click()
    flow.locator('[data-k^="rby-"]', has_text=by_name).click()
    flow.get_by_role("button", name="Upheld" if upheld else "Rejected", exact=True).click()
    if upheld:
        flow.get_by_role("button", name="Save the renege").click()
    else:
        flow.locator(f'[data-k="rtricks-{tricks}"]').click()


def wait_for_hands(event: EventSetup, game_id: int, count: int, timeout: float = 10) -> dict:
    """Poll the API until the game has `count` hands (the phone sends in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        game = event.game(game_id)
        if game["hands_played"] == count or time.monotonic() > deadline:
            assert game["hands_played"] == count, f"{game['hands_played']} hands, not {count}"
            return game
        time.sleep(0.1)


def expect_score(page: Page, points: dict) -> None:
    for side in "AB":
        expect(page.locator(f'.side-points[data-side="{side}"]')).to_have_text(
            re.compile(rf":\s*{points[side]} points$"))


def play(event: EventSetup, game_id: int, pattern: list[tuple[str, int]]) -> dict:
    """Enter `(maker, tricks)` hands through the API; the game as it then is."""
    for maker, tricks in pattern:
        event.hand(game_id, maker, tricks)
    return event.game(game_id)


def wec_event(api) -> EventSetup:
    """A 12-player WEC singles event whose first game has bumps: a euchred loner, euchred makers."""
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC singles")
    first = event.game_id(0)
    game = event.game(first)
    loner = game["sides"]["A"]["players"][0]
    event.hand(first, "A", 1, alone=True, loner_seat=loner["seat"])  # euchred: a $2 bump
    event.hand(first, "B", 0)  # the makers euchred: a bump each
    for maker in "ABAB":
        event.hand(first, maker, 3)
    return event


class Taps:
    """A finger on the phone: taps what it is given, counting every tap."""

    def __init__(self, page: Page):
        self.page = page
        self.count = 0

    def __call__(self, locator) -> None:
        locator.tap()
        self.count += 1


def tap_sheet_row(page: Page, taps: Taps, n: int, maker_name: str | None, tricks: int | None,
                  alone: bool = False) -> None:
    """One hand of a paper sheet on the phone: who called (which fills in 3 tricks), Alone, and
    the tricks when they are not 3."""
    if maker_name:
        taps(page.get_by_label(f"Hand {n}: {maker_name} called trump", exact=True))
    if alone:
        taps(page.get_by_label(f"Hand {n}: alone", exact=True))
    if tricks is not None and not (maker_name and tricks == 3):
        taps(page.get_by_label(f"Hand {n}: {tricks} trick{'' if tricks == 1 else 's'}",
                               exact=True))


# --- a table whose pairs agree each hand (issue 29) ------------------------------------------

def pick_side(page: Page, name: str) -> None:
    expect(page.locator("section.verify")).to_contain_text("Which pair does this phone enter for?")
    page.locator("section.verify").get_by_role("button", name=name, exact=True).click()
    expect(page.locator(".verify-side")).to_contain_text(f"{name}'s phone")


def pair_a_phone(page: Page, api, mode: str) -> tuple[EventSetup, int, dict]:
    """An event checking scores by `mode`; `page` joined, on its first game, as pair A's
    phone. Returns the event, the game's id and the pairs' names by side."""
    event = EventSetup(api, overrides={"verification": mode})
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    join_with_pin(page, event)
    open_game(page, event, game_id)
    pick_side(page, names["A"])
    return event, game_id, names


def second_phone(browser, base_url, event: EventSetup, game_id: int, side_name: str):
    """Another phone at the table (its own browser context and outbox), as `side_name`'s."""
    context = browser.new_context(base_url=base_url, **PHONE)
    page = context.new_page()
    join_with_pin(page, event)
    open_game(page, event, game_id)
    pick_side(page, side_name)
    return context, page
