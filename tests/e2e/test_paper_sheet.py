"""Games entered from paper: a Loner Seekers game's sheet in the grid on a phone (a mistake shown
on its row), the scorekeepers' desk by keyboard alone (a WEC round's game sheets one after
another, and a progressive round's 8-hand sheets, the key presses counted for BENCHMARKS.md),
and a followed player's next table on the leaderboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup
from .steps import Taps, join_with_pin, play, side_names, tap_sheet_row, wait_until

pytestmark = pytest.mark.browser

DESK = {"viewport": {"width": 1366, "height": 768}, "is_mobile": False, "has_touch": False,
        "device_scale_factor": 1}

# A Loner Seekers game from its paper sheet: (maker, alone, tricks). A: 1+1+1+2 = 5;
# B: 2+2+4+1 = 9.
SHEET = [("A", False, 3), ("B", False, 5), ("A", False, 1), ("B", True, 5),
         ("A", False, 4), ("A", False, 3), ("B", False, 3), ("A", False, 5)]


class Keys:
    """The keyboard, counting every key press a test sends (one character typed is one)."""

    def __init__(self, page: Page):
        self.page = page
        self.count = 0

    def __call__(self, *keys: str) -> None:
        for key in keys:
            if len(key) > 1 and key[0].isupper() or "+" in key:
                self.page.keyboard.press(key)  # Tab, Enter, Control+a
                self.count += 1
            else:
                for ch in key:
                    self.page.keyboard.press(ch)
                    self.count += 1


def test_a_loner_seekers_game_from_its_paper_sheet_on_a_phone(page: Page, event, shot):
    game_id = event.game_id(0)
    game = event.game(game_id)
    names = side_names(game)
    join_with_pin(page, event, table=1)
    page.goto(f"/e/{event.id}/games/{game_id}")
    page.get_by_role("link", name="Enter from a paper sheet").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/sheet$"))
    rows = page.locator("li.paper-row")
    expect(rows).to_have_count(8)
    taps = Taps(page)
    for n, (maker, alone, tricks) in enumerate(SHEET, start=1):
        # The sheet's mistake: nobody wrote who called trump on hand 5.
        tap_sheet_row(page, taps, n, None if n == 5 else names[maker], tricks, alone)
    # The running score, from the points table the server serves.
    expect(rows.nth(3).locator(".grid-total")).to_have_text("1–8")
    taps(page.get_by_role("button", name="Send the sheet"))
    wrong = page.locator(".paper-bad:not([hidden])")
    expect(wrong).to_have_count(1)
    expect(wrong).to_contain_text("Hand 5: Say which side called trump")
    expect(rows.nth(4)).to_have_class(re.compile("paper-wrong"))
    shot(page, "paper-sheet-mistake-on-row-5", full_page=False)
    assert event.game(game_id)["hands_played"] == 0, "nothing stored"

    # Hand 5's tricks (4) stay as typed when its maker is tapped.
    taps(page.get_by_label(f"Hand 5: {names['A']} called trump", exact=True))
    expect(page.get_by_label("Hand 5: 4 tricks", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    expect(rows.nth(7).locator(".grid-total")).to_have_text("5–9")
    taps(page.get_by_role("button", name="Send the sheet"))
    expect(page).to_have_url(re.compile(rf"/e/{event.id}/games/{game_id}$"))
    expect(page.locator(".toast")).to_contain_text(f"Sheet saved: 8 hands, {names['A']} 5 – 9")
    stored = event.game(game_id)
    assert stored["hands_played"] == 8 and stored["points"] == {"A": 5, "B": 9}
    assert stored["hands"][3]["result"] == "loner-march"
    assert [(h["maker"], h["alone"], h["tricks"]) for h in stored["hands"]] == SHEET
    shot(page, "paper-sheet-saved", full_page=False)
    # The hands as copied (13 taps: 3 tricks need no tap), the fix and both sends.
    assert taps.count == 16, taps.count


@pytest.mark.browser_context_args(**DESK)
def test_the_desk_enters_a_wec_rounds_game_sheets_by_keyboard_alone(page: Page, api, shot):
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC desk")
    page.goto(f"/e/{event.id}/organize/desk#key={event.organizer_key}")
    queue = page.locator(".desk-queue li")
    expect(queue).to_have_count(3)
    keys = Keys(page)

    def opened(table: int) -> None:
        """The next game's sheet is open, the cursor on its first field."""
        expect(page.locator(".desk-open h2")).to_have_text(re.compile(rf"^Table {table} "))
        expect(page.locator("#desk-a")).to_be_focused()

    opened(1)
    sheets = {}

    # A typical sheet: both sides' points and one player's bump; blanks are no bumps.
    keys("9", "Tab", "7", "Tab", "1", "Enter")
    sheets["typical"] = keys.count
    expect(queue).to_have_count(2)
    opened(2)

    # Every field typed: both points, then the four players' bumps.
    before = keys.count
    keys("12", "Tab", "5", "Tab", "1", "Tab", "0", "Tab", "2", "Tab", "1", "Enter")
    sheets["every field"] = keys.count - before
    expect(queue).to_have_count(1)
    opened(3)

    # A mistake is said in place, and nothing moves on until it is right.
    keys("3", "Tab", "2", "Enter")
    error = page.locator(".desk-sheet .msg")
    expect(error).to_contain_text("cannot come out of 12 hands")
    expect(queue).to_have_count(1)
    shot(page, "desk-wec-mistake", full_page=False)
    keys("Shift+Tab", "Control+a", "10", "Tab", "Control+a", "6", "Enter")
    expect(page.locator(".desk-open h2")).to_have_text("Every game is entered")

    games = [event.game(t["games"][0]["id"]) for t in event.tables]
    assert [(g["points"]["A"], g["points"]["B"]) for g in games] == [(9, 7), (12, 5), (10, 6)]
    assert games[0]["bumps"] == {"1": 1} and games[1]["bumps"] == {"1": 1, "3": 2, "4": 1}
    assert all(g["from_sheet"] and g["over"] for g in games)
    shot(page, "desk-wec-done", full_page=False)
    print(f"\nWEC game sheet key presses: {sheets}")
    assert sheets == {"typical": 6, "every field": 13}


@pytest.mark.browser_context_args(**DESK)
def test_the_desk_enters_progressive_8_hand_sheets_in_the_grid_by_keyboard(page: Page, api,
                                                                          shot):
    event = EventSetup(api, players=8, name="Loner Seekers desk")
    page.goto(f"/e/{event.id}/organize/desk#key={event.organizer_key}")
    expect(page.locator(".desk-queue li")).to_have_count(2)
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 1 "))
    expect(page.get_by_label("Hand 1: maker")).to_be_focused()
    keys = Keys(page)
    for maker, alone, tricks in SHEET:
        keys(maker.lower(), *(["l"] if alone else []), str(tricks))
    expect(page.locator("tr.grid-row").nth(7).locator(".grid-total")).to_have_text("5–9")
    keys("Enter")
    first = keys.count
    expect(page.locator(".desk-queue li")).to_have_count(1)
    expect(page.locator(".desk-open h2")).to_have_text(re.compile(r"^Table 2 "))
    expect(page.get_by_label("Hand 1: maker")).to_be_focused()

    # The second table's sheet lacks hand 5's maker (tabbed past it): the server's refusal is
    # shown on row 5, the cursor waits there, and one key and Enter fix it.
    for n, (maker, alone, tricks) in enumerate(SHEET, start=1):
        keys(*(["Tab", "Tab"] if n == 5 else [maker.lower()]), *(["l"] if alone else []),
             str(tricks))
    keys("Enter")
    expect(page.locator("tr.grid-bad:not([hidden])")).to_contain_text("Hand 5")
    expect(page.get_by_label("Hand 5: maker")).to_be_focused()
    shot(page, "desk-grid-mistake", full_page=False)
    keys("b", "Enter")
    expect(page.locator(".desk-open h2")).to_have_text("Every game is entered")

    one, two = (event.game(t["games"][0]["id"]) for t in event.tables)
    assert one["points"] == {"A": 5, "B": 9} and one["hands_played"] == 8
    assert two["points"] == {"A": 4, "B": 10} and two["hands_played"] == 8
    print(f"\n8-hand progressive sheet key presses: {first}")
    assert first == 18


def test_a_followed_player_sees_their_next_table(page: Page, event, shot):
    player = event.tables[1]["seats"][2]
    name = player["name"]
    page.goto(f"/e/{event.id}/board")
    page.get_by_role("button", name=f"Follow {name}").click()
    line = page.locator(".next-seat")
    expect(line).to_have_text(f"Next: table 2, seat 3 — {event.round['label']}")
    shot(page, "next-table-round-1", full_page=False)

    for table in event.tables:  # round 1 played out, closed, round 2 seated
        play(event, table["games"][0]["id"], [("A", 3)] * 8)
    expect(line).to_have_text(re.compile(r"^Now: table 2, seat 3 — "), timeout=12000)
    api = event.api
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=event.organizer_key,
             expect=200)
    round2 = api.call("POST", f"/api/events/{event.id}/rounds", {"number": 2},
                      key=event.organizer_key, expect=201)[1]
    where = next((t["table"], s["seat"]) for t in round2["tables"] for s in t["seats"]
                 if s["player_id"] == player["player_id"])
    expect(line).to_have_text(f"Next: table {where[0]}, seat {where[1]} — {round2['label']}",
                              timeout=12000)
    wait_until(page, "!document.querySelector('.next-seat').hidden")
    shot(page, "next-table-round-2", full_page=False)


# axe is injected as a script: the app's CSP (script-src 'self') would block it otherwise.
@pytest.mark.browser_context_args(bypass_csp=True, viewport={"width": 360, "height": 640})
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_grid_and_the_desk_fit_a_small_phone_and_axe_finds_nothing_serious(
        page: Page, event, scheme):
    from .test_quality import serious_violations

    page.emulate_media(color_scheme=scheme)
    game_id = event.game_id(0)
    page.goto(f"/e/{event.id}/organize#key={event.organizer_key}")
    expect(page.locator(".console-tabs")).to_be_visible()
    page.goto(f"/e/{event.id}/games/{game_id}/sheet")
    expect(page.locator("li.paper-row")).to_have_count(8)
    names = side_names(event.game(game_id))
    page.get_by_label(f"Hand 2: {names['B']} called trump", exact=True).click()
    page.get_by_role("button", name="Hand 1: renege").click()
    page.get_by_role("button", name="Send the sheet").click()
    expect(page.locator(".paper-bad:not([hidden])")).to_have_count(1)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the grid scrolls sideways: {width}"
    found = {"grid": serious_violations(page)}
    page.goto(f"/e/{event.id}/organize/desk")
    expect(page.get_by_label("Hand 1: maker")).to_be_focused()
    found["desk"] = serious_violations(page)
    assert not any(found.values()), found
