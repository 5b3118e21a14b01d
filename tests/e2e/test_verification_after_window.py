"""After the correction window (RULES.md §7) a pair's change of an agreed hand, proposed in the
window and not yet agreed, can still be taken back on the pair's phone: it changes nothing
agreed. The other pair's phone no longer offers to agree to it or turn it down (the server
would refuse); both phones say only the organizer changes the game now."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import join_with_pin, open_game, pick_side, second_phone, side_names

pytestmark = pytest.mark.browser


def _agreed_round(api) -> tuple[EventSetup, int]:
    """A double-entry night whose round 1 is played (both pairs entered every hand alike)
    and closed. Returns the event and table 1's game."""
    event = EventSetup(api, overrides={"verification": "double_entry"})
    for index in range(len(event.tables)):
        game = event.game_id(index)
        for number in range(8):
            maker = "A" if number % 3 else "B"
            for side in "AB":
                api.call("POST", f"/api/games/{game}/hands",
                         {"id": f"w-{uuid.uuid4().hex[:10]}", "side": side, "maker": maker,
                          "tricks": 3}, key=event.organizer_key, expect=(200, 201))
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=event.organizer_key,
             expect=200)
    return event, event.game_id(0)


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
    expect(page.locator(".window-closed")).to_contain_text("The correction window closed")
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
