"""The scorekeepers' desk typed as a trained scorekeeper types it (issue 26): a round's sheets as
one stream of keys at 30 keys a second, with 150 ms of network latency and no waits, and every
stored sheet compared with what was typed. A sheet the server refuses, or a level game without
its playoff, comes back after the others with what was typed; the Desk tab is a few Tab presses
away and Save is on screen at 1366x768."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup

pytestmark = pytest.mark.browser

DESK = {"viewport": {"width": 1366, "height": 768}, "is_mobile": False, "has_touch": False,
        "device_scale_factor": 1}
RATE = 30  # keys a second
LATENCY = 150  # ms, each way


def slow_network(page: Page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": LATENCY,
                                                  "downloadThroughput": -1,
                                                  "uploadThroughput": -1})


def stream(page: Page, keys: list[str]) -> None:
    """Press the keys on a fixed schedule, RATE a second, never waiting for the page."""
    start = time.monotonic()
    for n, key in enumerate(keys):
        delay = start + n / RATE - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # the schedule, not a wait for the page
        page.keyboard.press(key)


def split(*parts: str) -> list[str]:
    """'12' is two key presses; 'Tab', 'Enter', 'Shift+Tab', 'Control+a' are one each."""
    out = []
    for part in parts:
        out.extend([part] if len(part) > 1 and (part[0].isupper() or "+" in part) else list(part))
    return out


def wec_keys(a, b, bumps=(), tie=None):
    """A WEC sheet: points A, Tab, points B, each seat's bumps (Tab to reach them), the level
    game's playoff (winner, Tab, P or C), Enter."""
    keys = split(str(a), "Tab", str(b))
    fields = list(bumps) + ([""] * (4 - len(bumps)) if tie else [])
    for dollars in fields:
        keys += split("Tab", *([str(dollars)] if dollars != "" else []))
    if tie:
        keys += split("Tab", tie[0].lower(), "Tab", "p" if tie[1] == "playoff-hand" else "c")
    return keys + ["Enter"]


@pytest.mark.browser_context_args(**DESK)
def test_ten_wec_sheets_typed_ahead_at_30_keys_a_second_with_latency_are_stored_as_typed(
        page: Page, api, shot):
    event = EventSetup(api, preset="wec-singles", players=40, name="WEC desk at speed")
    slow_network(page)
    page.goto(f"/e/{event.id}/organize/desk#key={event.organizer_key}")
    expect(page.locator(".desk-queue li")).to_have_count(10)
    expect(page.locator("#desk-a")).to_be_focused()

    # (points A, points B, bumps of seats 1-4, playoff). Table 4 is typed 3-2 (a slip the
    # server refuses: 12 hands give more); table 7 is level and typed without its playoff.
    sheets = [(10, 8, (1,), None), (7, 11, (), None), (9, 7, (0, 2), None), (3, 2, (), None),
              (12, 5, (1, 0, 2, 1), None), (8, 8, (), ("B", "card-draw")), (8, 8, (), None),
              (11, 6, (), None), (6, 10, (0, 0, 0, 3), None), (13, 4, (2,), None)]
    keys = [k for a, b, bumps, tie in sheets for k in wec_keys(a, b, bumps, tie)]
    stream(page, keys)

    # Table 4 comes back first, as typed, with the reason; the cursor where Enter was pressed.
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 4 "), timeout=15000)
    expect(page.locator(".desk-sheet .msg")).to_contain_text("cannot come out of 12 hands")
    expect(page.locator("#desk-a")).to_have_value("3")
    shot(page, "desk-fast-refused-comes-back", full_page=False)
    fix = split("Shift+Tab", "Control+a", "10", "Tab", "Control+a", "6", "Enter")
    # Then table 7, level: the cursor waits on who won its playoff.
    fix += split("a", "Tab", "p", "Enter")
    stream(page, fix)
    expect(page.locator(".desk-open h2")).to_have_text("Every game is entered", timeout=15000)

    typed = {4: (10, 6, (), None), 7: (8, 8, (), ("A", "playoff-hand"))}
    for n, table in enumerate(event.tables, start=1):
        a, b, bumps, tie = typed.get(n, sheets[n - 1])
        game = event.game(table["games"][0]["id"])
        want = {str(seat): d for seat, d in enumerate(bumps, start=1) if d}
        got = (game["points"]["A"], game["points"]["B"], game["bumps"], game["tie"])
        assert got == (a, b, want, tie and {"winner": tie[0], "method": tie[1]}), f"table {n}"
        assert game["from_sheet"] and game["over"] and game["winner"] and not game["attention"]
    shot(page, "desk-fast-done", full_page=False)


# Progressive sheets: (maker, alone, tricks) per hand.
ONE = [("A", False, 3), ("B", False, 5), ("A", False, 1), ("B", True, 5),
       ("A", False, 4), ("A", False, 3), ("B", False, 3), ("A", False, 5)]  # 5-9
TWO = [("B", False, 3), ("B", False, 4), ("A", False, 5), ("A", False, 3),
       ("B", False, 1), ("A", False, 3), ("B", False, 5), ("B", False, 3)]  # 6-5
THREE = [("A", False, 5), ("B", False, 0), ("A", True, 5), ("B", False, 3),
         ("A", False, 3), ("B", False, 4), ("A", False, 4), ("B", False, 5)]


def grid_keys(rows, slip=None):
    """A's and B's and digits: the maker, L for a loner, the tricks; `slip`: (row, digit) typed
    instead of that row's tricks."""
    keys = []
    for n, (maker, alone, tricks) in enumerate(rows):
        keys += [maker.lower(), *(["l"] if alone else []),
                 str(slip[1] if slip and slip[0] == n else tricks)]
    return keys + ["Enter"]


@pytest.mark.browser_context_args(**DESK)
def test_progressive_sheets_typed_ahead_with_a_slip_keep_every_row_in_place(page: Page, api,
                                                                           shot):
    event = EventSetup(api, players=12, name="Progressive desk at speed")
    slow_network(page)
    page.goto(f"/e/{event.id}/organize/desk#key={event.organizer_key}")
    expect(page.locator(".desk-queue li")).to_have_count(3)
    expect(page.get_by_label("Hand 1: maker")).to_be_focused()

    # Table 2's hand 3 is typed 7 (a slip for 5): refused on row 3, and rows 4 to 8 stay put.
    stream(page, grid_keys(ONE) + grid_keys(TWO, slip=(2, 7)) + grid_keys(THREE))
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 2 "), timeout=15000)
    wrong = page.locator("tr.grid-bad:not([hidden])")
    expect(wrong).to_have_count(1)
    expect(wrong).to_contain_text("Hand 3")
    expect(page.get_by_label("Hand 3: tricks the makers took (0 to 5)")).to_have_value("7")
    for n, (maker, _alone, tricks) in enumerate(TWO, start=1):
        if n != 3:
            expect(page.get_by_label(f"Hand {n}: maker")).to_have_value(maker)
            expect(page.get_by_label(f"Hand {n}: tricks the makers took (0 to 5)")).to_have_value(
                str(tricks))
    expect(page.get_by_label("Hand 3: maker")).to_be_focused()
    shot(page, "desk-fast-grid-slip", full_page=False)
    stream(page, ["a", "5", "Enter"])
    expect(page.locator(".desk-open h2")).to_have_text("Every game is entered", timeout=15000)

    for table, rows in zip(event.tables, (ONE, TWO, THREE), strict=True):
        game = event.game(table["games"][0]["id"])
        assert game["hands_played"] == 8 and game["over"]
        got = [(h["maker"], h["alone"], h["tricks"]) for h in game["hands"]]
        assert got == rows, f"table {table['table']}"


@pytest.mark.browser_context_args(**DESK)
def test_the_desk_tab_is_a_few_tabs_away_and_save_is_on_screen_at_1366x768(page: Page, api,
                                                                          shot):
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC desk reach")
    page.goto(f"/e/{event.id}/organize#key={event.organizer_key}")
    expect(page.locator(".console-tabs")).to_be_visible()
    presses = 0
    while presses < 30:
        page.keyboard.press("Tab")
        presses += 1
        if page.evaluate("document.activeElement.textContent") == "Desk":
            break
    print(f"\nTab presses from the console's top to the Desk tab: {presses}")
    assert presses <= 4
    page.keyboard.press("Enter")
    expect(page.locator("#desk-a")).to_be_focused()
    save = page.get_by_role("button", name="Save and open the next")
    expect(save).to_be_in_viewport(ratio=1)
    shot(page, "desk-wec-1366x768", full_page=False)

    # A refused sheet: the desk says so in view and goes on to table 2; picked in the list,
    # table 1 comes back with its heading, the reason and Save in view.
    for key in split("3", "Tab", "2", "Enter"):
        page.keyboard.press(key)
    note = page.locator(".desk-note")
    expect(note).to_contain_text("Table 1 is not finished: 3-2 cannot come out of 12 hands")
    expect(note).to_be_in_viewport(ratio=1)
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 2 "))
    page.keyboard.press("Escape")
    expect(page.locator(".desk-queue button[aria-current]")).to_be_focused()
    page.locator(".desk-queue button", has_text="Table 1").click()
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 1 "))
    for where in (page.locator(".desk-open h2"), page.locator(".desk-sheet .msg"), save):
        expect(where).to_be_in_viewport(ratio=1)
    expect(page.locator("#desk-b")).to_be_focused()
    shot(page, "desk-refused-1366x768", full_page=False)

    # From any console section, Alt+K opens the desk.
    page.goto(f"/e/{event.id}/organize/players")
    expect(page.get_by_role("link", name="Desk")).to_have_attribute("aria-keyshortcuts", "Alt+K")
    page.keyboard.press("Alt+k")
    expect(page).to_have_url(re.compile(r"/organize/desk$"))

    grid = EventSetup(api, players=8, name="Progressive desk reach")
    page.goto(f"/e/{grid.id}/organize/desk#key={grid.organizer_key}")
    expect(page.get_by_label("Hand 1: maker")).to_be_focused()
    expect(page.get_by_role("button", name="Save and open the next")).to_be_in_viewport(ratio=1)
    expect(page.locator(".desk-open h2")).to_be_in_viewport(ratio=1)
    shot(page, "desk-grid-1366x768", full_page=False)


@pytest.mark.browser_context_args(**DESK)
def test_a_short_sheet_after_time_was_called_is_stored_only_when_asked_again(page: Page, api):
    event = EventSetup(api, players=8, name="Progressive desk, time called")
    api.call("POST", f"/api/rounds/{event.round['id']}/time", key=event.organizer_key,
             expect=200)
    page.goto(f"/e/{event.id}/organize/desk#key={event.organizer_key}")
    expect(page.get_by_label("Hand 1: maker")).to_be_focused()
    # Table 1: six hands were played before time was called; table 2 is typed right after.
    stream(page, grid_keys(ONE[:6]) + grid_keys(TWO))
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 1 "))
    expect(page.locator(".desk-open .msg")).to_contain_text(
        "Time was called: this sheet has 6 of the game's 8 hands")
    one = event.game(event.game_id(0))
    assert one["hands_played"] == 0, "nothing stored before the scorekeeper says so"
    stream(page, ["Enter"])
    expect(page.locator(".desk-open h2")).to_have_text("Every game is entered")
    one, two = (event.game(event.game_id(n)) for n in (0, 1))
    assert one["hands_played"] == 6 and one["end"] == "time"
    assert [(h["maker"], h["alone"], h["tricks"]) for h in one["hands"]] == ONE[:6]
    assert two["hands_played"] == 8
