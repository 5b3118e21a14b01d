"""The end of a game both pairs agreed hand by hand (RULES.md §7): nobody is asked to sign it
off, while its round is played or after. After the correction window the game screen offers
nothing the server would refuse: a finished game shows its result and says, once, that only
the organizer changes it now, with one Call the organizer below it.

A pair's change of an agreed hand, proposed in the
window and not yet agreed, can still be taken back on the pair's phone: it changes nothing
agreed. The other pair's phone no longer offers to agree to it or turn it down (the server
would refuse); both phones say only the organizer changes the game now."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import expect_score, join_with_pin, open_game, pick_side, second_phone, side_names

pytestmark = pytest.mark.browser
LATE = "only the organizer can change it now"


def _agreed_round(api, mode: str = "double_entry", close: bool = True) -> tuple[EventSetup, int]:
    """A night checking scores by `mode` whose round 1 is played to the end (both pairs
    agreed every hand: entered alike, or entered and confirmed), then closed unless `close`
    is False. Returns the event and table 1's game."""
    event = EventSetup(api, overrides={"verification": mode})
    for index in range(len(event.tables)):
        game = event.game_id(index)
        for number in range(8):
            maker = "A" if number % 3 else "B"
            for side in ("AB" if mode == "double_entry" else "A"):
                entry = f"w-{uuid.uuid4().hex[:10]}"
                api.call("POST", f"/api/games/{game}/hands",
                         {"id": entry, "side": side, "maker": maker, "tricks": 3},
                         key=event.organizer_key, expect=(200, 201))
            if mode == "confirm_each_hand":
                api.call("POST", f"/api/games/{game}/entries/{entry}/confirm", {"side": "B"},
                         key=event.organizer_key, expect=200)
    if close:
        api.call("POST", f"/api/rounds/{event.round['id']}/close", key=event.organizer_key,
                 expect=200)
    return event, event.game_id(0)


def _one_call_below_the_panel(page) -> None:
    """After the window: one Call the organizer, right below the game-over panel that says
    why, and the hands list says nothing of it again."""
    expect(page.get_by_role("button", name="Call the organizer")).to_have_count(1)
    expect(page.locator(".game-over ~ .actions").get_by_role(
        "button", name="Call the organizer")).to_be_visible()
    expect(page.locator(".hands")).not_to_contain_text("correction window")


@pytest.mark.parametrize("mode", ["double_entry", "confirm_each_hand"])
def test_a_game_both_pairs_agreed_to_the_end_asks_nobody_to_sign_it_off(page, api, mode, shot):
    """While the round is played: the pair that lost sees the result, and no sign-off."""
    event, game_id = _agreed_round(api, mode, close=False)
    game = event.game(game_id)
    assert game["over"] and game["correction_open"] and game["waiting"] == 0
    names = side_names(game)
    loser = "B" if game["winner"] == "A" else "A"

    join_with_pin(page, event, table=1)
    open_game(page, event, game_id)
    pick_side(page, names[loser])
    over = page.locator(".game-over")
    expect(over).to_contain_text(f"{names[game['winner']]} win")
    expect(over.get_by_role("link", name="Your tables")).to_be_visible()
    expect(over).not_to_contain_text("Sign-off")
    expect(over.get_by_role("button")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^Sign off as"))).to_have_count(0)
    shot(page, f"verify-game-over-no-sign-off-{mode}", full_page=False)


def test_a_pair_takes_back_its_change_after_the_window_closed(page, api, browser, base_url,
                                                              shot):
    event, game_id = _agreed_round(api)
    names = side_names(event.game(game_id))
    # Pair A proposes, from a phone at the table, to make hand 2 a march (a point more).
    runner = event.runner_key(1)["key"]
    _, game, etag = api.call("GET", f"/api/games/{game_id}")
    hand = game["hands"][1]
    api.call("PUT", f"/api/games/{game_id}/hands/{hand['id']}",
             {"side": "A", "maker": hand["maker"], "tricks": 5}, key=runner,
             headers={"If-Match": etag}, expect=202)
    # The organizer shortens the window to none: it has closed.
    api.call("PATCH", f"/api/events/{event.id}", {"correction_minutes": 0},
             key=event.organizer_key, expect=200)
    assert not event.game(game_id)["correction_open"]

    join_with_pin(page, event, table=1)
    open_game(page, event, game_id)
    pick_side(page, names["A"])
    line = page.locator(".entries li")
    expect(line).to_contain_text("Change hand 2")
    expect(line).to_contain_text("the correction window closed: only the organizer can change "
                                 "the game now; you can take this back")
    expect(page.locator(".game-over")).to_contain_text(
        "This result stands: the correction window closed at ")
    _one_call_below_the_panel(page)
    expect(line.get_by_role("button", name="Take back")).to_be_visible()
    expect(line.get_by_role("button", name=f"Confirm as {names['B']}")).to_have_count(0)

    other, phone_b = second_phone(browser, base_url, event, game_id, names["B"])
    try:
        theirs = phone_b.locator(".entries li")
        expect(theirs).to_contain_text(f"proposed by {names['A']}; the correction window "
                                       "closed")
        expect(theirs.get_by_role("button")).to_have_count(0)  # no Confirm, no Not right
        shot(phone_b, "verify-after-window-other-pair", full_page=False)
        line.scroll_into_view_if_needed()
        shot(page, "verify-after-window-take-back", full_page=False)

        line.get_by_role("button", name="Take back").click()
        expect(page.locator(".entries")).to_have_count(0)
        expect(theirs).to_have_count(0, timeout=10000)
        after = event.game(game_id)
        assert after["waiting"] == 0 and after["hands"][1]["tricks"] == 3, \
            "the agreed hand stands as it was"
        assert after["points"] == game["points"]
        shot(page, "verify-after-window-taken-back", full_page=False)
    finally:
        other.close()


def test_a_finished_game_after_the_window_shows_its_result_and_no_refused_buttons(page, api,
                                                                                   shot):
    """A double-entry game played to the end and not signed off: once the window has closed
    the table can no longer sign it off (the API refuses), so the game-over panel shows the
    result and says the organizer changes the game now, with no sign-off buttons."""
    event, game_id = _agreed_round(api)
    api.call("PATCH", f"/api/events/{event.id}", {"correction_minutes": 0},
             key=event.organizer_key, expect=200)
    game = event.game(game_id)
    assert game["over"] and game["winner"] and not game["signed_off"]
    assert not game["correction_open"] and game["signers"] == [], "agreed: nobody signs"
    names = side_names(game)

    join_with_pin(page, event, table=1)
    open_game(page, event, game_id)
    pick_side(page, names["B"])  # the side that lost: the one a sign-off would ask
    over = page.locator(".game-over")
    expect(over).to_contain_text(f"{names[game['winner']]} win")
    expect(over).to_contain_text("This result stands: the correction window closed at ")
    expect(over).to_contain_text(LATE)
    expect(page.get_by_text("only the organizer can")).to_have_count(1)  # said once
    _one_call_below_the_panel(page)
    expect(over).not_to_contain_text("Sign-off")
    expect(over.get_by_role("button")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^Sign off as"))).to_have_count(0)
    expect(over.get_by_role("link", name="Your tables")).to_be_visible()
    shot(page, "verify-after-window-game-over", full_page=False)


def test_a_sheet_game_after_the_window_offers_no_removal_and_no_sign_off(page, api):
    """Under sign-off, a WEC game entered from its sheet and not signed off: after the window
    neither the sheet's removal nor the sign-off is the table's to do any more."""
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC singles")
    for index in range(len(event.tables)):
        api.call("PUT", f"/api/games/{event.game_id(index)}/sheet",
                 {"points": {"A": 9, "B": 7}, "hands_played": 12}, key=event.organizer_key,
                 expect=200)
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=event.organizer_key,
             expect=200)
    api.call("PATCH", f"/api/events/{event.id}", {"correction_minutes": 0},
             key=event.organizer_key, expect=200)
    game_id = event.game_id(0)
    game = event.game(game_id)
    assert game["from_sheet"] and not game["signed_off"] and game["signers"]
    assert not game["correction_open"]

    join_with_pin(page, event, table=1)
    open_game(page, event, game_id)
    expect_score(page, {"A": 9, "B": 7})
    sheet = page.locator(".sheet")
    expect(sheet).to_contain_text("Entered from the game sheet")
    expect(sheet.get_by_role("button")).to_have_count(0)
    over = page.locator(".game-over")
    expect(over).to_contain_text("Not signed off: the correction window closed at ")
    expect(over).to_contain_text("only the organizer can sign it off or change it now")
    expect(over.get_by_role("button")).to_have_count(0)
    _one_call_below_the_panel(page)
