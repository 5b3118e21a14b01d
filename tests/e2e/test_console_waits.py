"""The console's progress board says what waits on whom (issue 29, point 5), on a phone: a
hand waiting for the other pair, a mismatch and a call, each at its own table and those tables
first; the organizer settles the mismatch from the board, both entries side by side."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup

pytestmark = pytest.mark.browser


def _enter(event: EventSetup, table: int, side: str, tricks: int) -> None:
    event.hand(event.game_id(table - 1), "A", tricks, side=side)


def test_the_board_shows_each_wait_and_the_organizer_settles_a_mismatch(page, api):
    event = EventSetup(api, players=16, overrides={"verification": "double_entry"})
    _enter(event, 1, "A", 3)  # pair B's own entry of hand 1 still to come
    _enter(event, 3, "A", 3)  # the pairs disagree on hand 1: 3 tricks or 4
    _enter(event, 3, "B", 4)
    api.call("POST", f"/api/games/{event.game_id(3)}/call", key=event.organizer_key,
             expect=201)

    page.goto(f"/e/{event.id}/organize/rounds#key={event.organizer_key}")
    one, two, three, four = (page.locator(f".progress-table[data-table='{n}']")
                             for n in (1, 2, 3, 4))
    expect(one.locator(".wait")).to_contain_text("Side B to enter hand 1")
    expect(three.locator(".wait")).to_contain_text("Hand 1: the pairs disagree")
    expect(four.locator(".wait")).to_contain_text("Called the organizer")
    expect(two.locator(".wait")).to_have_count(0)
    # The tables with something waiting come before the quiet one on the screen.
    assert two.bounding_box()["y"] > max(t.bounding_box()["y"] for t in (one, three, four))

    # A tap on the mismatch: both entries side by side, the differing field marked.
    three.locator(".wait").click()
    expect(page).to_have_url(re.compile(
        rf"/e/{event.id}/organize/corrections\?game={event.game_id(2)}$"))
    table = page.locator("table.mismatch")
    expect(table.locator("thead")).to_contain_text("Side A")
    expect(table.locator("thead")).to_contain_text("Side B")
    expect(table.locator("tr.differ")).to_have_count(1)
    expect(table.locator("tr.differ")).to_contain_text("Tricks ≠")
    expect(table.locator("tr.differ td")).to_have_text(["3", "4"])
    expect(page.locator(".progress-table[data-table='3'] .wait")).to_have_count(1)
    page.get_by_role("button", name="Side B's is right").click()
    expect(page.locator(".editor-note")).to_contain_text("Hand 1 settled.")
    expect(page.locator("table.mismatch")).to_have_count(0)
    game = event.game(event.game_id(2))
    assert game["hands_played"] == 1 and game["mismatches"] == []
    assert game["hands"][0]["tricks"] == 4, "pair B's entry is the hand stored"
    # The board beside it no longer shows the mismatch at table 3.
    expect(page.locator(".progress-table[data-table='3'] .wait")).to_have_count(0)


def test_a_hand_waiting_for_confirmation_names_the_pair_to_confirm(page, api):
    event = EventSetup(api, overrides={"verification": "confirm_each_hand"})
    _enter(event, 2, "B", 3)
    page.goto(f"/e/{event.id}/organize/rounds#key={event.organizer_key}")
    wait = page.locator(".progress-table[data-table='2'] .wait")
    expect(wait).to_contain_text("Side A to confirm hand 1 (side B entered it just now)")
    expect(page.locator(".progress-table[data-table='1'] .wait")).to_have_count(0)
