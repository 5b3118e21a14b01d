"""The leaderboard and the projector say what waits for agreement (RULES.md section 7, issue
29): under double entry a pair's hands count once the other pair has entered them alike, so a
row whose table has hands still waiting (or a mismatch) says so in plain words, and the
projector names those tables; the note goes once the hands are agreed, without a reload."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .test_quality import serious_violations

pytestmark = pytest.mark.browser

WAITING_TWO = "2 hands waiting to be agreed (not in the total yet)"
DIFFER = "scores differ: waiting to be settled (not in the total yet)"
# The board and the projector poll every 3 s. After a change made behind their back, a poll
# that set off just before it answers with the old board and the next one comes 3 s later; on a
# loaded CI machine each answer can take a second or two more, so wait across two polls.
TWO_POLLS = 12_000


def _entry(event: EventSetup, game_id: int, side: str, maker: str, tricks: int) -> None:
    event.api.call("POST", f"/api/games/{game_id}/hands",
                   {"id": f"w-{uuid.uuid4().hex[:12]}", "side": side, "maker": maker,
                    "tricks": tricks}, key=event.organizer_key, expect=201)


def _night(api) -> tuple[EventSetup, dict, dict]:
    """Two tables under double entry: table 1 has hand 1 agreed (side A +1) and side A's
    hands 2 and 3 waiting for side B; table 2's pairs entered hand 1 differently. Returns the
    event and each table's players' names by side."""
    event = EventSetup(api, overrides={"verification": "double_entry"})
    first, second = event.game_id(0), event.game_id(1)
    _entry(event, first, "A", "A", 3)
    _entry(event, first, "B", "A", 3)
    _entry(event, first, "A", "B", 5)
    _entry(event, first, "A", "A", 3)
    _entry(event, second, "A", "A", 3)
    _entry(event, second, "B", "A", 4)
    names = [{side: [p["name"] for p in event.game(g)["sides"][side]["players"]]
              for side in "AB"} for g in (first, second)]
    return event, names[0], names[1]


def _row(page, name):
    return page.locator("ol.board:not(.pinned ol) > li.board-row").filter(
        has=page.locator(".name", has_text=re.compile(f"^{name}$")))


@pytest.mark.browser_context_args(bypass_csp=True)  # axe is injected as a script
def test_a_rows_note_says_its_hands_wait_and_goes_once_they_are_agreed(page, api, shot):
    event, table_1, table_2 = _night(api)
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("ol.board > li.board-row")).to_have_count(8)
    for name in table_1["A"] + table_1["B"]:
        expect(_row(page, name).locator(".waiting-note")).to_have_text(WAITING_TWO)
    for name in table_2["A"] + table_2["B"]:
        expect(_row(page, name).locator(".waiting-note")).to_have_text(DIFFER)
    for name in table_1["A"]:
        expect(_row(page, name).locator(".total")).to_have_text(re.compile(r"^1"))
    for name in table_1["B"]:
        expect(_row(page, name).locator(".total")).to_have_text(re.compile(r"^0"))
    follow = table_1["B"][0]
    page.get_by_role("button", name=f"Follow {follow}").click()
    expect(page.locator(".pinned li.board-row .waiting-note")).to_have_text(WAITING_TWO)
    fits = page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert fits, "the notes make the board scroll sideways"
    assert serious_violations(page) == []
    shot(page, "leaderboard-waiting")

    # Side B enters hands 2 and 3 alike: agreed, counted, and the note goes, without a reload.
    page.evaluate("window.stillTheSamePage = true")
    _entry(event, event.game_id(0), "B", "B", 5)
    _entry(event, event.game_id(0), "B", "A", 3)
    for name in table_1["A"] + table_1["B"]:
        expect(_row(page, name).locator(".waiting-note")).to_have_count(0, timeout=TWO_POLLS)
        expect(_row(page, name).locator(".total")).to_have_text(re.compile(r"^2"))
    expect(page.locator(".pinned li.board-row .waiting-note")).to_have_count(0)
    expect(_row(page, table_2["A"][0]).locator(".waiting-note")).to_have_text(DIFFER)
    assert page.evaluate("window.stillTheSamePage") is True
    shot(page, "leaderboard-waiting-agreed")


@pytest.mark.browser_context_args(viewport={"width": 1280, "height": 720}, is_mobile=False,
                                  has_touch=False, device_scale_factor=1)
def test_the_projector_names_the_tables_whose_hands_wait(page, api, shot):
    event, _table_1, _table_2 = _night(api)
    page.goto(f"/e/{event.id}/projector")
    expect(page.locator(".proj-title")).to_have_text("Standings")
    line = page.locator(".proj-waiting")
    expect(line).to_have_text("Not in the totals yet · table 1: 2 hands waiting to be agreed · "
                              "table 2: scores differ: waiting to be settled")
    expect(page.locator(".proj-row")).to_have_count(8)
    assert line.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1"), "the line is cut"
    box, screen = line.bounding_box(), page.viewport_size
    assert box["y"] + box["height"] <= screen["height"] and box["x"] >= 0
    last = page.locator(".proj-row").last.bounding_box()
    assert last["y"] + last["height"] <= screen["height"], "the line pushed a row off"
    shot(page, "projector-waiting", full_page=False)

    # The table settles its mismatch; table 1's pair B enters its hands: the line goes.
    event.api.call("POST", f"/api/games/{event.game_id(1)}/mismatches/1/settle",
                   {"take": "B"}, key=event.organizer_key, expect=200)
    expect(line).to_have_text("Not in the totals yet · table 1: 2 hands waiting to be agreed",
                              timeout=TWO_POLLS)
    _entry(event, event.game_id(0), "B", "B", 5)
    _entry(event, event.game_id(0), "B", "A", 3)
    expect(line).to_be_hidden(timeout=TWO_POLLS)


@pytest.mark.browser_context_args(viewport={"width": 1280, "height": 720}, is_mobile=False,
                                  has_touch=False, device_scale_factor=1)
def test_the_projector_leaves_the_seating_once_hands_wait(page, api, shot):
    """Under double entry the first hands of a round count only once both pairs entered them:
    while every table's hand 1 still waits for its other pair, play has begun all the same.
    The room sees the standings and the line naming the waiting tables, not the seating."""
    event = EventSetup(api, overrides={"verification": "double_entry"})
    page.goto(f"/e/{event.id}/projector")
    title = page.locator(".proj-title")
    expect(title).to_have_text(f"{event.round['label']}: where everyone sits")

    for index in range(len(event.tables)):  # pair A enters hand 1 at every table; B not yet
        _entry(event, event.game_id(index), "A", "A", 3)
    assert all(event.game(event.game_id(i))["hands_played"] == 0
               for i in range(len(event.tables))), "nothing counted yet"
    expect(title).to_have_text("Standings", timeout=TWO_POLLS)
    line = page.locator(".proj-waiting")
    expect(line).to_have_text("Not in the totals yet · table 1: 1 hand waiting to be agreed · "
                              "table 2: 1 hand waiting to be agreed")
    expect(page.locator(".proj-row")).to_have_count(8)
    expect(page.locator(".proj-row .total").first).to_have_text("0")
    expect(page.locator(".proj-range")).to_be_hidden()
    shot(page, "projector-first-hands-waiting", full_page=False)


@pytest.mark.browser_context_args(viewport={"width": 1280, "height": 720}, is_mobile=False,
                                  has_touch=False, device_scale_factor=1)
def test_the_seating_pages_say_what_waits_too(page, api):
    """Whatever page shows, the line saying what waits does: here the round cannot be read
    again (the network drops those reads), so the seating stays up after hands came in."""
    event = EventSetup(api, overrides={"verification": "double_entry"})
    page.goto(f"/e/{event.id}/projector")
    title = page.locator(".proj-title")
    expect(title).to_have_text(f"{event.round['label']}: where everyone sits")
    page.route(re.compile(r"/api/rounds/\d+$"), lambda route: route.abort())
    _entry(event, event.game_id(0), "A", "A", 3)
    line = page.locator(".proj-waiting")
    expect(line).to_have_text("Not in the totals yet · table 1: 1 hand waiting to be agreed",
                              timeout=TWO_POLLS)
    expect(title).to_have_text(f"{event.round['label']}: where everyone sits")
    last = page.locator(".proj-row").last.bounding_box()
    assert last["y"] + last["height"] <= page.viewport_size["height"], "a seat pushed off"


def test_a_followed_player_is_told_now_once_hands_wait(page, api):
    """The leaderboard's line for a followed player turns from "Next:" to "Now:" when a hand
    is entered at the tables, though it still waits for the other pair."""
    event = EventSetup(api, overrides={"verification": "double_entry"})
    player = event.tables[1]["seats"][2]
    page.goto(f"/e/{event.id}/board")
    page.get_by_role("button", name=f"Follow {player['name']}").click()
    line = page.locator(".next-seat")
    expect(line).to_have_text(f"Next: table 2, seat 3 — {event.round['label']}")
    _entry(event, event.game_id(1), "A", "A", 3)
    expect(line).to_have_text(f"Now: table 2, seat 3 — {event.round['label']}",
                              timeout=TWO_POLLS)


def test_under_sign_off_the_board_has_no_note(page, api):
    event = EventSetup(api)
    event.hand(event.game_id(0), "A", 3)
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("ol.board > li.board-row")).to_have_count(8)
    expect(page.locator(".board-row .total").first).to_have_text(re.compile(r"^1"))
    expect(page.locator(".waiting-note")).to_have_count(0)
