"""A runner copying a paper sheet on a 390x844 phone: what was tapped stays on the phone until
the server has the sheet (through reloads with no network), every target is at least 44 px
square, the makers' names are shown whole, the words speak of taps (not keys), and a clean
8-hand sheet takes fewer taps than the game screen's 17."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import SERVICE_WORKER, EventSetup
from .steps import (
    Taps,
    join_with_pin,
    side_names,
    tap_sheet_row,
    wait_for_service_worker,
    wait_until,
)
from .test_runner_phone_layout import LONG_NAMES, NamedEvent

pytestmark = pytest.mark.browser

# Every visible thing a finger can aim at, in the sheet's form, with its size.
TARGETS = """() => [...document.querySelectorAll(
        '.paper-form button, .paper-form input, .paper-form select, .paper-form label,'
        + ' .paper-form a, .paper-form [role="button"]')]
    .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
        && getComputedStyle(el).visibility !== 'hidden'; })
    .map((el) => { const r = el.getBoundingClientRect();
        return {what: el.getAttribute('aria-label') || el.textContent.trim(),
                width: r.width, height: r.height}; })"""


def open_sheet(page: Page, event: EventSetup, game_id: int) -> None:
    page.goto(f"/e/{event.id}/games/{game_id}")
    page.get_by_role("link", name="Enter from a paper sheet").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/sheet$"))
    expect(page.locator("li.paper-row")).to_have_count(8)


def pressed(page: Page, label: str):
    return expect(page.get_by_label(label, exact=True)).to_have_attribute("aria-pressed", "true")


@pytest.mark.browser_context_args(**SERVICE_WORKER)
def test_the_draft_stays_on_the_phone_through_offline_reloads_until_the_server_has_it(
        page: Page, context, event, shot):
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    join_with_pin(page, event, table=1)
    open_sheet(page, event, game_id)
    wait_for_service_worker(page)
    taps = Taps(page)

    context.set_offline(True)
    half = [("A", False, 3), ("B", False, 5), ("A", True, 4), ("B", False, 0)]
    for n, (maker, alone, tricks) in enumerate(half, start=1):
        tap_sheet_row(page, taps, n, names[maker], tricks, alone)
    page.get_by_role("button", name="Hand 2: renege").tap()
    page.get_by_label(f"Hand 2: renege by {names['A']}", exact=True).tap()
    total = page.locator("li.paper-row").nth(3).locator(".grid-total")
    expect(total).to_have_text(re.compile(r"^\d+–\d+$"))
    before = total.text_content()

    # A reload with no network: the shell from the service worker, the sheet as it was.
    page.reload()
    expect(page.locator("li.paper-row")).to_have_count(8)
    expect(page.locator(".paper-restored")).to_contain_text("kept on this phone")
    for n, (maker, alone, tricks) in enumerate(half, start=1):
        pressed(page, f"Hand {n}: {names[maker]} called trump")
        pressed(page, f"Hand {n}: {tricks} trick{'' if tricks == 1 else 's'}")
        expect(page.get_by_label(f"Hand {n}: alone", exact=True)).to_have_attribute(
            "aria-pressed", str(alone).lower())
    pressed(page, f"Hand 2: renege by {names['A']}")
    expect(total).to_have_text(before)
    shot(page, "paper-sheet-restored-offline")

    # The rest of the sheet, then Send with no network: said plainly, and kept again.
    page.get_by_label("Hand 2: no renege", exact=True).tap()
    rest = [("A", False, 3), ("A", False, 3), ("B", False, 4), ("A", False, 5)]
    for n, (maker, alone, tricks) in enumerate(rest, start=5):
        tap_sheet_row(page, taps, n, names[maker], tricks, alone)
    last = page.locator("li.paper-row").nth(7).locator(".grid-total").text_content()
    page.get_by_role("button", name="Send the sheet").tap()
    problem = page.locator(".paper-form > .error")
    expect(problem).to_contain_text("kept on this phone")
    expect(problem).not_to_contain_text("Nothing is lost")
    shot(page, "paper-sheet-offline-send", full_page=False)
    page.reload()
    pressed(page, f"Hand 8: {names['A']} called trump")
    pressed(page, "Hand 8: 5 tricks")
    pressed(page, "Hand 2: no renege")
    assert event.game(game_id)["hands_played"] == 0

    # Back online: sent once, stored whole, and the draft is gone from the phone.
    context.set_offline(False)
    page.get_by_role("button", name="Send the sheet").tap()
    expect(page).to_have_url(re.compile(rf"/e/{event.id}/games/{game_id}$"))
    stored = event.game(game_id)
    assert [(h["maker"], h["alone"], h["tricks"]) for h in stored["hands"]] == half + rest
    assert f"{stored['points']['A']}–{stored['points']['B']}" == last
    wait_until(page, f"localStorage.getItem('euchre-paper-sheet:{game_id}') === null")


def test_a_draft_is_per_game_and_goes_once_stored(page: Page, event):
    one, two = event.game_id(0), event.game_id(1)
    names_one, names_two = side_names(event.game(one)), side_names(event.game(two))
    join_with_pin(page, event)  # a key for every table
    open_sheet(page, event, one)
    page.get_by_label(f"Hand 1: {names_one['B']} called trump", exact=True).tap()
    open_sheet(page, event, two)
    expect(page.locator(".paper-restored")).to_have_count(0)
    expect(page.locator('.paper-maker[aria-pressed="true"]')).to_have_count(0)
    page.get_by_label(f"Hand 3: {names_two['A']} called trump", exact=True).tap()
    open_sheet(page, event, one)
    pressed(page, f"Hand 1: {names_one['B']} called trump")
    expect(page.locator('.paper-maker[aria-pressed="true"]')).to_have_count(1)
    # A second tap on who called takes the row back, with the 3 tricks it filled in.
    page.get_by_label(f"Hand 1: {names_one['B']} called trump", exact=True).tap()
    expect(page.locator('.paper-row [aria-pressed="true"]:visible')).to_have_count(0)
    page.reload()
    expect(page.locator(".paper-restored")).to_have_count(0)
    open_sheet(page, event, two)
    pressed(page, f"Hand 3: {names_two['A']} called trump")
    pressed(page, "Hand 3: 3 tricks")


@pytest.mark.parametrize("kind", ["wec-bumps", "long-names"])
def test_every_target_is_44_px_the_names_are_whole_and_the_words_are_for_taps(
        page: Page, api, kind, shot):
    # A format with bumps (who went alone is asked too), and the runner's layout tests' long
    # names.
    if kind == "wec-bumps":
        event, hands = EventSetup(api, preset="wec-singles", players=12, name="WEC on paper"), 12
    else:
        event, hands = NamedEvent(api, LONG_NAMES), 8
    game_id = event.game_id(0)
    game = event.game(game_id)
    join_with_pin(page, event, table=1)
    page.goto(f"/e/{event.id}/games/{game_id}/sheet")
    expect(page.locator("li.paper-row")).to_have_count(hands)
    names = side_names(game)
    page.get_by_label(f"Hand 1: {names['A']} called trump", exact=True).tap()
    page.get_by_label("Hand 1: alone", exact=True).tap()  # with bumps: who went alone
    page.get_by_role("button", name=re.compile(r"^Hand 2: renege")).tap()
    page.get_by_label(f"Hand 2: renege by {names['B']}", exact=True).tap()
    expect(page.get_by_label("Hand 2: renege upheld", exact=True)).to_be_visible()
    if kind == "wec-bumps":
        expect(page.get_by_label("Hand 1: who went alone", exact=True)).to_be_visible()

    found = page.evaluate(TARGETS)
    assert len(found) > hands * 9, len(found)
    small = [t for t in found if t["width"] < 44 or t["height"] < 44]
    assert not small, f"targets under 44x44 px: {small}"
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the sheet scrolls sideways: {width}"

    # Each maker button shows its side's names whole: no "A: Jac…".
    cut = page.evaluate("""() => [...document.querySelectorAll('.paper-maker')]
        .flatMap((b) => [...b.querySelectorAll('span')])
        .filter((s) => s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1)
        .map((s) => s.textContent)""")
    assert not cut, f"names cut short: {cut}"
    first = page.locator(".paper-maker").first
    for player in game["sides"]["A"]["players"]:
        expect(first).to_contain_text(player["name"])
    # The words are a phone's: nothing about keys a phone has not got.
    hint = page.locator(".paper-form .hint").first
    expect(hint).to_contain_text("tap")
    for word in ("Enter", "Tab", "Keys", "key"):
        expect(page.locator(".paper-form")).not_to_contain_text(word)
    shot(page, f"paper-sheet-targets-{kind}", full_page=False)


def test_a_clean_8_hand_sheet_takes_fewer_taps_than_the_game_screen(page: Page, event, shot):
    """A sheet of made hands (the commonest: +1) is one tap a hand; the game screen takes two a
    hand, 16 for 8 hands and a tap to go on (17)."""
    game_id = event.game_id(0)
    names = side_names(event.game(game_id))
    join_with_pin(page, event, table=1)
    open_sheet(page, event, game_id)
    taps = Taps(page)
    clean = [("A", False, 3), ("B", False, 3), ("A", False, 3), ("B", False, 4),
             ("A", False, 3), ("B", False, 3), ("A", False, 5), ("B", False, 3)]
    for n, (maker, alone, tricks) in enumerate(clean, start=1):
        tap_sheet_row(page, taps, n, names[maker], tricks, alone)
    expect(page.locator("li.paper-row").nth(7).locator(".grid-total")).to_have_text("5–4")
    shot(page, "paper-sheet-clean")
    taps(page.get_by_role("button", name="Send the sheet"))
    expect(page).to_have_url(re.compile(rf"/e/{event.id}/games/{game_id}$"))
    stored = event.game(game_id)
    assert [(h["maker"], h["alone"], h["tricks"]) for h in stored["hands"]] == clean
    print(f"\nclean 8-hand paper sheet on a phone: {taps.count} taps")
    assert taps.count == 11  # 8 hands, a 4 and a 5, and Send
