"""Whole walks under each way of agreeing a score (RULES.md section 7, issue 29), from the
table's phones, on both databases: a progressive night of two tables and two rounds, and a WEC
singles round of three tables. At table 1 each pair has a phone of its own: under double entry
both phones enter every hand, under confirm each hand one enters and the other confirms with
one tap. Pair B's phone does its part of a hand with no network, and it goes once it is back.
The other tables' phones are elsewhere (the API). Each round closes on agreed hands only, the
phone then shows the correction window, and the standings count every agreed hand once."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import join_with_pin, open_game, pick_side, side_names, tap_hand, wait_for_hands

pytestmark = pytest.mark.browser

MODES = ["double_entry", "confirm_each_hand"]


def _other_part(mode: str, phone, names: dict, maker: str, tricks: int) -> None:
    """The other pair's part of a hand their opponents' phone entered."""
    if mode == "double_entry":
        tap_hand(phone, names[maker], tricks)
        return
    line = phone.locator(".entries li").first
    expect(line).to_contain_text(f"{names[maker]} called")
    line.get_by_role("button", name="Confirm").click()


def _agreed(api, key: str, mode: str, game_id: int, hands) -> None:
    """A table whose phones are elsewhere: pair A enters each hand; pair B enters it too
    (double entry) or confirms it."""
    for maker, tricks in hands:
        entry = f"w-{uuid.uuid4().hex[:10]}"
        hand = {"maker": maker, "tricks": tricks}
        api.call("POST", f"/api/games/{game_id}/hands", {"id": entry, "side": "A", **hand},
                 key=key, expect=201)
        if mode == "double_entry":
            api.call("POST", f"/api/games/{game_id}/hands",
                     {"id": f"{entry}-b", "side": "B", **hand}, key=key, expect=201)
        else:
            api.call("POST", f"/api/games/{game_id}/entries/{entry}/confirm", {"side": "B"},
                     key=key, expect=200)


def _table_one(site, event: EventSetup, mode: str, game_id: int, phones, offline: bool):
    """Table 1's two hands from its two phones, pair B's part of the second one offline."""
    (_, phone_a), (context_b, phone_b) = phones
    names = side_names(event.game(game_id))
    for phone, side in ((phone_a, "A"), (phone_b, "B")):
        open_game(phone, event, game_id)
        pick_side(phone, names[side])
    tap_hand(phone_a, names["A"], 3)
    assert event.game(game_id)["hands_played"] == 0  # not agreed yet: it counts nowhere
    _other_part(mode, phone_b, names, "A", 3)
    wait_for_hands(event, game_id, 1)
    tap_hand(phone_a, names["B"], 5)
    if offline:
        if mode == "confirm_each_hand":  # the entry is on pair B's screen before it goes off
            expect(phone_b.locator(".entries li").first).to_contain_text(f"{names['B']} called")
        context_b.set_offline(True)
    _other_part(mode, phone_b, names, "B", 5)
    if offline:
        expect(phone_b.locator("#outbox-badge")).to_have_text("⟳ 1 not sent")
        assert event.game(game_id)["hands_played"] == 1
        context_b.set_offline(False)
        expect(phone_b.locator("#outbox-badge")).to_be_hidden(timeout=20000)
    game = wait_for_hands(event, game_id, 2)
    assert [(h["maker"], h["tricks"]) for h in game["hands"]] == [("A", 3), ("B", 5)]
    assert game["over"] and game["waiting"] == 0
    return phone_a


def _counted_once(api, event: EventSetup, games: list[int]) -> None:
    played = [event.game(g) for g in games]
    assert all(g["over"] and g["waiting"] == 0 for g in played)
    board = api.get(f"/api/events/{event.id}/leaderboard")
    # Every agreed point counts once for each of the two players who earned it.
    assert sum(r["total"] for r in board["rows"]) == \
        2 * sum(g["points"]["A"] + g["points"]["B"] for g in played)


@pytest.mark.parametrize("mode", MODES)
def test_a_progressive_night_of_two_rounds_from_the_phones(site, mode):
    api = site.api
    event = EventSetup(api, overrides={"verification": mode, "hands_per_game": 2})
    key, runner = event.organizer_key, event.runner_key()["key"]
    phones = [site.phone(), site.phone()]
    for _, phone in phones:
        join_with_pin(phone, event)
    round_, games = event.round, []
    for number in (1, 2):
        first, second = (t["games"][0]["id"] for t in round_["tables"])
        games += [first, second]
        phone_a = _table_one(site, event, mode, first, phones, offline=number == 1)
        _agreed(api, runner, mode, second, [("B", 3), ("A", 5)])
        api.call("POST", f"/api/rounds/{round_['id']}/close", key=key, expect=200)
        if number == 1:
            # Round 1 closed: its game can still be changed by the table, for a while (the
            # phone sees it at its next look at the game, every few seconds).
            window = phone_a.locator(".hands .window-open")
            expect(window).to_contain_text("You can still change a hand until", timeout=10000)
            expect(window).to_contain_text("minutes left")
            expect(phone_a.get_by_role("button", name="Change hand 1")).to_be_visible()
            _, round_, _ = api.call("POST", f"/api/events/{event.id}/rounds", {"number": 2},
                                    key=key, expect=201)
    _counted_once(api, event, games)


@pytest.mark.parametrize("mode", MODES)
def test_a_wec_round_from_the_phones(site, mode):
    api = site.api
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC, agreed",
                       overrides={"verification": mode, "hands_per_game": 2})
    key, runner = event.organizer_key, event.runner_key()["key"]
    phones = [site.phone(), site.phone()]
    for _, phone in phones:
        join_with_pin(phone, event)
    first = event.game_id(0)
    _table_one(site, event, mode, first, phones, offline=True)
    others = [t["games"][0]["id"] for t in event.tables[1:]]
    for game_id in others:
        _agreed(api, runner, mode, game_id, [("A", 4), ("B", 0)])
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=key, expect=200)
    _counted_once(api, event, [first, *others])
