"""The console's seat changes on a phone: a player marked "stays at table 2" (Players), the
preview saying so, a swap of two players before the first hand (Rounds), and players who sat
in each other's seats corrected after hands were played (Corrections)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import Api

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"]


def _seat_of(round_: dict, name: str) -> tuple[int, int]:
    return next((t["table"], s["seat"]) for t in round_["tables"] for s in t["seats"]
                if s["name"] == name)


def test_a_stay_a_swap_and_a_wrong_seat_fix_from_the_console(page: Page, api: Api, shot):
    _, event, _ = api.call("POST", "/api/events", {"name": "Seats night",
                                                   "preset": "progressive"}, expect=201)
    eid, key = event["id"], event["organizer_key"]
    for name in NAMES:
        api.call("POST", f"/api/events/{eid}/players", {"name": name, "checked_in": True},
                 key=key, expect=201)

    # Players: Ann cannot move tables.
    page.goto(f"/e/{eid}/organize/players#key={key}")
    ann = page.locator('.person[data-name="Ann"]')
    ann.get_by_role("button", name="More for Ann").click()
    ann.get_by_label("Table for Ann").select_option("2")
    ann.get_by_role("button", name="Save where Ann sits").click()
    expect(page.locator(".ghosts")).to_contain_text("Ann stays at table 2 (accommodation).")
    players = api.get(f"/api/events/{eid}/players")
    assert next(p["stays_at"] for p in players if p["name"] == "Ann") == 2

    # Rounds: the preview says so; seat it.
    page.goto(f"/e/{eid}/organize/rounds")
    expect(page.locator(".note", has_text="Ann stays at table 2")).to_be_visible()
    page.get_by_role("button", name="Seat Round 1").click()
    expect(page.locator(".card.swap")).to_be_visible()
    round_ = api.get(f"/api/events/{eid}/rounds")[0]
    assert _seat_of(round_, "Ann")[0] == 2

    # Before the first hand: Bob and Carol change places.
    bob, carol = _seat_of(round_, "Bob"), _seat_of(round_, "Carol")
    swap = page.locator(".card.swap")
    swap.get_by_label("Player").select_option(label=f"Bob · table {bob[0]}, seat {bob[1]}")
    swap.get_by_label("changes places with").select_option(
        label=f"Carol · table {carol[0]}, seat {carol[1]}")
    shot(page, "console-swap-seats")
    swap.get_by_role("button", name="Swap them").click()
    expect(page.locator(".card.swap").get_by_label("Player")).to_contain_text(
        f"Bob · table {carol[0]}, seat {carol[1]}")
    round_ = api.get(f"/api/rounds/{round_['id']}")
    assert _seat_of(round_, "Bob") == carol and _seat_of(round_, "Carol") == bob

    # Ann stays at table 2: a swap taking her to table 1 is refused, and the card says why.
    ann_at = _seat_of(round_, "Ann")
    other = next(s["name"] for t in round_["tables"] if t["table"] != 2 for s in t["seats"])
    other_at = _seat_of(round_, other)
    swap.get_by_label("Player").select_option(label=f"Ann · table {ann_at[0]}, seat {ann_at[1]}")
    swap.get_by_label("changes places with").select_option(
        label=f"{other} · table {other_at[0]}, seat {other_at[1]}")
    swap.get_by_role("button", name="Swap them").click()
    expect(swap.locator(".msg-error")).to_contain_text(
        f"Ann stays at table 2 (an accommodation): this swap would move them to table "
        f"{other_at[0]}.")
    shot(page, "console-swap-stayer-refused")
    assert _seat_of(api.get(f"/api/rounds/{round_['id']}"), "Ann") == ann_at

    # Hands at table 1, then it turns out seats 1 and 2 sat in each other's places.
    table = round_["tables"][0]
    game_id = table["games"][0]["id"]
    for maker in "AAB":
        api.call("POST", f"/api/games/{game_id}/hands",
                 {"id": f"seats-{maker}-{page.evaluate('Math.random()')}", "maker": maker,
                  "tricks": 3}, key=key, expect=201)
    one, two = table["seats"][0]["name"], table["seats"][1]["name"]
    page.goto(f"/e/{eid}/organize/corrections?game={game_id}")
    fix = page.locator("details.wrong-seats")
    fix.locator("summary").click()
    fix.get_by_label("The player booked in").select_option(label=f"Seat 1: {one}")
    fix.get_by_label("really sat in the seat of").select_option(label=f"Seat 2: {two}")
    fix.get_by_role("button", name="Swap the seats").click()
    fix.get_by_role("button",
                    name="Tap again: the seats change in every game of this table").click()
    expect(page.locator(".editor-note")).to_contain_text("Seats swapped")
    expect(page.locator(".audit-entry").first).to_contain_text("Seats corrected")
    shot(page, "console-wrong-seats-fixed")
    game = api.get(f"/api/games/{game_id}")
    assert game["hands_played"] == 3
    assert [p["name"] for p in game["sides"]["A"]["players"]][0] == two
    board = {r["name"]: r["total"] for r in api.get(f"/api/events/{eid}/leaderboard")["rows"]}
    assert (board[two], board[one]) == (2, 1), "the points follow the players"
