"""What a runner in a loud bar needs from the game screen, found by a real-phone audit.

- Both taps (who called, then the tricks) sit in view on a 360x640 phone, before the first hand
  and after it, with long names too, and the toast never covers them.
- A phone whose key covers table 1 is told so at table 3, up front; a hand kept for a table
  with no key here never holds up the hands of its own table.
- Offline, the hands waiting on the phone are counted, and entry stops at the game's hands.
- A table listed under "Your tables" opens offline without having been opened before.
- A refusal reads the game again at once; an edit of a hand deleted elsewhere is a choice.
- Sign-off offers only the players of the side that lost (never the ghost).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Api, EventSetup
from .steps import (
    join_with_pin,
    open_game,
    side_names,
    tap_hand,
    wait_for_hands,
    wait_for_service_worker,
)
from .test_quality import serious_violations

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


def test_a_table_key_at_another_table_is_told_so_and_its_own_tables_hands_still_go(
        page, event, shot):
    own, other = event.game_id(0), event.game_id(1)
    assert event.tables[1]["table"] == 2
    join_with_pin(page, event, table=1)

    # Table 2's game: said up front, and no entry is offered.
    open_game(page, event, other)
    panel = page.locator("section.key-needed")
    expect(panel).to_contain_text("This phone's key covers table 1 only")
    expect(page.locator("section.entry")).to_have_count(0)
    expect(page.locator('[data-k^="tricks-"]')).to_have_count(0)
    shot(page, "fix-wrong-table", full_page=False)

    # A hand for table 2 already kept on the phone (e.g. from before its key was replaced)
    # has no key here: it waits, and holds nothing else back.
    page.evaluate("""async (game) => {
        const api = await import('/js/api.js');
        await api.enterHand(game, {maker: 'A', tricks: 3}, 'Table 2: kept hand');
    }""", event.game(other))
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    open_game(page, event, own)
    tap_hand(page, side_names(event.game(own))["B"], 4)
    wait_for_hands(event, own, 1)
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    expect(page.locator("#banner")).to_be_hidden()
    page.goto("/outbox")
    expect(page.locator(".outbox-list > li")).to_contain_text("covers table 1 only")
    shot(page, "fix-wrong-table-outbox")

    # Joining table 2 with the PIN, from its game: entry appears, the kept hand goes.
    page.locator(".outbox-list").get_by_role("link", name="Open the game").click()
    page.fill("#key-pin", event.pin)
    page.get_by_role("button", name="Join table 2").click()
    expect(page.locator("section.entry")).to_be_visible()
    wait_for_hands(event, other, 1)
    expect(page.locator("#outbox-badge")).to_be_hidden()
    assert event.game(own)["hands_played"] == 1


def test_offline_the_waiting_hands_are_counted_and_entry_stops_at_the_games_hands(
        page, context, event, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 3), ("A", 4), ("B", 0), ("A", 3)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    names = side_names(event.game(game_id))
    progress = page.locator(".game-progress")

    context.set_offline(True)
    tap_hand(page, names["A"], 3)
    expect(progress).to_have_text("8 hands · 5 played · 1 waiting to be sent · 2 to go")
    tap_hand(page, names["B"], 3)
    tap_hand(page, names["A"], 5)
    expect(progress).to_have_text("8 hands · 5 played · 3 waiting to be sent · 0 to go")
    # Eight hands are played or waiting: no ninth is offered.
    expect(page.locator("section.entry-done")).to_contain_text("All 8 hands are entered")
    expect(page.locator('[data-k^="tricks-"]')).to_have_count(0)
    shot(page, "fix-offline-all-entered", full_page=False)

    # Undo the last one (it never left the phone): entry comes back for one hand.
    page.get_by_role("button", name="Undo last hand").click()
    expect(progress).to_have_text("8 hands · 5 played · 2 waiting to be sent · 1 to go")
    tap_hand(page, names["B"], 4)
    expect(page.locator("section.entry-done")).to_be_visible()

    context.set_offline(False)
    game = wait_for_hands(event, game_id, 8, timeout=25)
    assert game["over"]
    expect(page.locator("section.over")).to_contain_text("Game over", timeout=10000)
    expect(progress).to_have_text("8 hands · 8 played · 0 to go")


def test_a_listed_table_opens_offline_without_having_been_opened(page, context, event, shot):
    join_with_pin(page, event)
    expect(page.locator(".table-card")).to_have_count(len(event.tables))
    expect(page.locator(".offline-ready")).to_contain_text("open with no network")
    wait_for_service_worker(page)
    context.set_offline(True)
    second = event.game_id(1)
    page.locator(f'a[href="/e/{event.id}/games/{second}"]').click()
    expect(page.locator(".scores")).to_be_visible()
    expect(page.locator(".game-note")).to_contain_text("No network")
    shot(page, "fix-unvisited-offline", full_page=False)
    tap_hand(page, side_names(event.game(second))["A"], 3)
    expect(page.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
    context.set_offline(False)
    wait_for_hands(event, second, 1, timeout=25)


def test_sign_off_offers_only_the_real_players_of_the_side_that_lost(page, api, shot):
    event = EventSetup(api, players=7, name="Seven players")
    ghost_table = next(i for i, t in enumerate(event.tables)
                       if any(s["player_id"] is None for s in t["seats"]))
    game_id = event.game_id(ghost_table)
    game = event.game(game_id)
    ghost_side = next(side for side in "AB"
                      if any(p["player_id"] is None for p in game["sides"][side]["players"]))
    winners = "B" if ghost_side == "A" else "A"
    for _ in range(8):
        event.hand(game_id, winners, 3)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    over = page.locator("section.over")
    expect(over.locator(".winner-line")).to_contain_text("win")
    offered = over.get_by_role("button", name=re.compile("^Sign off as "))
    real = [p["name"] for p in game["sides"][ghost_side]["players"] if p["player_id"]]
    expect(offered).to_have_count(len(real))
    expect(offered).to_have_text(real)
    expect(over).not_to_contain_text("Ghost")
    shot(page, "fix-signoff-losers", full_page=False)
    offered.first.click()
    expect(page.locator(".signed")).to_contain_text(f"Signed off by {real[0]}")
    assert event.game(game_id)["signed_off_by"] == real[0]


def test_a_refused_hand_reads_the_game_again_at_once(page, event, api, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 5), ("A", 4), ("B", 3)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    expect(page.locator(".game-progress")).to_contain_text("4 to go")
    api.call("POST", f"/api/rounds/{event.round['id']}/time", key=event.organizer_key,
             expect=200)
    tap_hand(page, side_names(event.game(game_id))["A"], 3)
    # Well before the 15 s poll: the game as the server now has it.
    over = page.locator("section.over")
    expect(over).to_contain_text("Game over", timeout=4000)
    expect(page.locator(".game-progress")).to_have_text("Time was called after 4 hands")
    expect(page.locator("section.entry")).to_have_count(0)
    shot(page, "fix-refused-reloads", full_page=False)


def test_an_edit_of_a_hand_deleted_on_another_phone_is_a_clear_choice(page, event, api, shot):
    game_id = event.game_id(0)
    hands = [event.hand(game_id, maker, tricks)["hands"][-1]["id"]
             for maker, tricks in [("A", 3), ("B", 3), ("A", 4)]]
    join_with_pin(page, event)
    open_game(page, event, game_id)
    page.get_by_role("button", name="Edit hand 3").click()
    edit = page.locator("section.edit")
    edit.locator('[data-k="emaker-B"]').click()
    edit.locator('[data-k="etricks-5"]').click()
    # Meanwhile the organizer deletes hand 3.
    version = event.game(game_id)["version"]
    api.call("DELETE", f"/api/games/{game_id}/hands/{hands[2]}", key=event.organizer_key,
             headers={"If-Match": f'"{version}"'}, expect=200)
    edit.get_by_role("button", name="Save the change").click()
    orphan = page.locator("section.orphan")
    expect(orphan).to_contain_text("Hand 3 was deleted on another phone")
    expect(page.locator("section.edit")).to_have_count(0)
    expect(page.get_by_text("does not exist")).to_have_count(0)
    shot(page, "fix-edit-deleted", full_page=False)
    orphan.get_by_role("button", name="Enter it as a new hand").click()
    game = wait_for_hands(event, game_id, 3)
    assert (game["hands"][-1]["maker"], game["hands"][-1]["tricks"]) == ("B", 5)
    expect(page.locator("section.orphan")).to_have_count(0)
    expect(page.locator("section.entry")).to_be_visible()


def test_your_tables_says_who_won_a_level_game_and_when_time_was_called(page, event, api,
                                                                        shot):
    level, quiet = event.game_id(0), event.game_id(1)
    for maker in "ABABABAB":
        event.hand(level, maker, 3)
    version = event.game(level)["version"]
    api.call("POST", f"/api/games/{level}/settlement", {"method": "card-draw", "winner": "B"},
             key=event.organizer_key, headers={"If-Match": f'"{version}"'}, expect=200)
    api.call("POST", f"/api/rounds/{event.round['id']}/time", key=event.organizer_key,
             expect=200)
    join_with_pin(page, event)
    names = side_names(event.game(level))
    cards = page.locator(".table-card")
    expect(cards.nth(0).locator(".table-score")).to_have_text("4 – 4")
    expect(cards.nth(0).locator(".table-state")).to_have_text(
        f"level; {names['B']} won the card draw")
    expect(cards.nth(1).locator(".table-state")).to_contain_text("Time was called after 0 hands")
    shot(page, "fix-tables-level-and-time")
    open_game(page, event, quiet)
    expect(page.locator(".game-progress")).to_have_text("Time was called after 0 hands")


def test_the_ghosts_deal_names_the_partner_who_deals_it(page, api):
    event = EventSetup(api, players=7, name="Seven players")
    index = next(i for i, t in enumerate(event.tables)
                 if any(s["player_id"] is None for s in t["seats"]))
    seats = {s["seat"]: s for s in event.tables[index]["seats"]}
    ghost = next(n for n, s in seats.items() if s["player_id"] is None)
    partner = seats[{1: 3, 3: 1, 2: 4, 4: 2}[ghost]]["name"]
    game_id = event.game_id(index)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    page.get_by_role("button", name="Who deals first?").click()
    page.locator(f'[data-k="dealer-{ghost}"]').click()
    expect(page.locator(".deal")).to_have_text(f"Deal: {partner} for the ghost (seat {ghost})")
    # Once the first dealer is known the deal follows on: the question is not asked again.
    expect(page.get_by_role("button", name=re.compile("^Who deal"))).to_have_count(0)


def wec_event(api) -> EventSetup:
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC singles")
    first = event.game_id(0)
    game = event.game(first)
    loner = game["sides"]["A"]["players"][0]
    event.hand(first, "A", 1, alone=True, loner_seat=loner["seat"])  # euchred: a $2 bump
    event.hand(first, "B", 0)  # the makers euchred: a bump each
    for maker in "ABAB":
        event.hand(first, maker, 3)
    return event


def test_a_wec_leaderboard_shows_the_bump_cup_and_the_awards(page, api, shot):
    event = wec_event(api)
    awards = api.get(f"/api/events/{event.id}/awards")
    assert awards["bump_cup"]["total"] == 4
    page.goto(f"/e/{event.id}/board")
    section = page.locator("section.awards")
    expect(section.locator(".cup-total")).to_have_text("$4 in the cup")
    top = awards["bump_cup"]["players"][0]
    expect(section.locator(".cup-list > li").first).to_contain_text(top["name"])
    expect(section.locator(".cup-list > li").first).to_contain_text(f"${top['dollars']}")
    expect(section.locator(".award-list")).to_contain_text("Low Score")
    expect(section.locator(".award-list")).to_contain_text("High Game")
    # Refreshed with the leaderboard: another bump shows without a reload.
    second = event.game_id(1)
    event.hand(second, "A", 2)
    expect(section.locator(".cup-total")).to_have_text("$6 in the cup", timeout=8000)
    section.scroll_into_view_if_needed()
    shot(page, "fix-wec-bump-cup")
    # The scoresheet links are full-size targets.
    link = page.locator(".links a").first
    assert link.bounding_box()["height"] >= 48


@pytest.mark.browser_context_args(**SMALL_PHONE)
def test_a_wec_scoresheet_lists_the_games_to_come_and_a_round_in_play(page, api, shot):
    event = wec_event(api)
    player = event.players[0]
    sheet = api.get(f"/api/events/{event.id}/players/{player['id']}/scoresheet")
    assert sheet["upcoming"] and not sheet["rounds"][0]["finished"]
    page.goto(f"/e/{event.id}/players/{player['id']}")
    row = page.locator(".sheet-table tbody tr").first
    expect(row).to_contain_text(f"with {sheet['rounds'][0]['partner']}")
    expect(row.locator("td.num").first).to_have_text("–still being played")
    upcoming = page.locator(".upcoming-list > li")
    expect(upcoming).to_have_count(len(sheet["upcoming"]))
    nxt = sheet["upcoming"][0]
    expect(upcoming.first).to_have_text(
        f"{nxt['label']}: table {nxt['table']}, seat {nxt['seat']}, with {nxt['partner']} "
        f"against {' & '.join(nxt['opponents'])}")
    # Fits 360 px: no sideways scroll, and every header word on one line.
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    heights = page.eval_on_selector_all(".sheet-table thead th", """ths => ths.map((th) =>
        [th.textContent, th.getBoundingClientRect().height,
         parseFloat(getComputedStyle(th).lineHeight) || 24])""")
    for text, height, line in heights:
        assert height < 2 * line + 16, f"{text} wraps: {height}"
    shot(page, "fix-wec-scoresheet")


# axe is injected as a script: the app's CSP (script-src 'self') would block it otherwise.
@pytest.mark.browser_context_args(bypass_csp=True, **SMALL_PHONE)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_new_panels(page, api, scheme):
    page.emulate_media(color_scheme=scheme)
    event = wec_event(api)
    screens = {}

    def scan(name):
        page.wait_for_timeout(200)
        screens[name] = serious_violations(page)

    join_with_pin(page, event, table=1)
    expect(page.locator(".table-card")).to_have_count(1)
    scan("tables")
    open_game(page, event, event.game_id(1))
    expect(page.locator("section.key-needed")).to_be_visible()
    scan("key-needed")
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("section.awards .cup-total")).to_be_visible()
    scan("board-awards")
    page.goto(f"/e/{event.id}/players/{event.players[0]['id']}")
    expect(page.locator(".upcoming-list > li").first).to_be_visible()
    scan("scoresheet-upcoming")
    found = {name: v for name, v in screens.items() if v}
    assert not found, found
