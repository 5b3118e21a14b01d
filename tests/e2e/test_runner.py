"""A table runner on a phone: joining, entering a whole game by taps, fixing hands, finishing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import (
    expect_score,
    in_words,
    join_with_pin,
    open_game,
    side_names,
    tap_hand,
    tap_renege,
    wait_for_hands,
)

pytestmark = pytest.mark.browser


def test_a_runner_joins_with_code_and_pin_and_enters_a_whole_game_by_taps(page, event, shot):
    join_with_pin(page, event)
    expect(page.locator(".table-card")).to_have_count(len(event.tables))
    shot(page, "tables")
    game_id = event.game_id(0)
    page.locator(f'a[href="/e/{event.id}/games/{game_id}"]').click()
    expect(page.locator(".scores")).to_be_visible()
    names = side_names(event.game(game_id))
    # The buttons' words come from the preset's points table, not from the page's code.
    expect(page.locator('[data-k="tricks-5"]')).to_have_accessible_name("5 · marched +2")
    expect(page.locator('[data-k="tricks-0"]')).to_have_accessible_name("0 · euchred")
    shot(page, "game")

    def check_screen_matches_server(hands: int):
        game = wait_for_hands(event, game_id, hands)
        expect_score(page, game["points"])
        expect(page.locator(".last-outcome")).to_have_text(in_words(game["hands"][-1]["outcome"],
                                                                    game))
        return game

    tap_hand(page, names["A"], 3)
    game = check_screen_matches_server(1)
    assert game["hands_played"] == 1
    expect(page.locator(".game-progress")).to_contain_text("1 played · 7 to go")

    tap_hand(page, names["B"], 5)
    check_screen_matches_server(2)
    tap_hand(page, names["A"], 1)
    check_screen_matches_server(3)
    tap_hand(page, names["A"], 5, alone=True)
    game = check_screen_matches_server(4)
    assert game["hands"][-1]["alone"] is True

    tap_renege(page, names["B"], by_name=names["A"], upheld=True)
    game = check_screen_matches_server(5)
    assert game["hands"][-1]["renege"] == {"by": "A", "upheld": True}
    assert game["hands"][-1]["tricks"] is None

    # A mistaken hand undone from the toast never counts.
    tap_hand(page, names["B"], 0)
    check_screen_matches_server(6)
    page.locator(".toast").get_by_role("button", name="Undo").click()
    expect(page.locator(".toast")).to_contain_text("Undone")
    assert event.game(game_id)["hands_played"] == 5

    tap_hand(page, names["B"], 4)
    check_screen_matches_server(6)
    tap_renege(page, names["A"], by_name=names["B"], upheld=False, tricks=3)
    game = check_screen_matches_server(7)
    assert game["hands"][-1]["renege"] == {"by": "B", "upheld": False}
    shot(page, "game-hands")

    tap_hand(page, names["A"], 4)
    game = check_screen_matches_server(8)
    assert game["over"] and game["hands_played"] == 8
    over = page.locator("section.over")
    expect(over).to_contain_text("Game over")
    if game["winner"]:
        expect(over.locator(".winner-line")).to_contain_text(f"{names[game['winner']]} win")
    else:  # level: settle by a card draw first
        over.get_by_role("button", name="Card draw").click()
        over.get_by_role("button", name=names["A"]).click()
        expect(over.locator(".winner-line")).to_contain_text(f"{names['A']} win")
        game = event.game(game_id)
    shot(page, "game-over")

    loser = "B" if game["winner"] == "A" else "A"
    signer = game["sides"][loser]["players"][0]["name"]
    over.get_by_role("button", name=f"Sign off as {signer}").click()
    expect(page.locator(".signed")).to_contain_text(f"Signed off by {signer}")
    final = event.game(game_id)
    assert final["signed_off"] and final["signed_off_by"] == signer
    assert [h["number"] for h in final["hands"]] == list(range(1, 9))
    # Once signed off, the hands can no longer be changed from the phone.
    expect(page.locator(".hand-list").get_by_role("button", name=re.compile("^Edit"))) \
        .to_have_count(0)
    shot(page, "game-signed-off")


def test_a_runner_joins_by_the_qr_link_and_the_key_stays_out_of_the_address(page, event, shot):
    issued = event.runner_key(table=2)
    link = issued["link"]
    assert "#key=" in link
    page.goto(link)
    expect(page).to_have_url(re.compile(rf"/e/{event.id}/run$"))
    assert "key=" not in page.url
    # A key for table 2 shows that table only.
    expect(page.locator(".table-card")).to_have_count(1)
    expect(page.locator(".table-card .table-no")).to_have_text("Table 2")
    shot(page, "tables-one-table")
    page.locator(".table-card").click()
    names = side_names(event.game(event.game_id(1)))
    tap_hand(page, names["B"], 3)
    expect(page.locator(".last-outcome")).to_contain_text(f"{names['B']} made it")
    assert event.game(event.game_id(1))["hands_played"] == 1


def test_a_level_game_is_settled_by_a_card_draw_then_signed_off(page, event):
    game_id = event.game_id(0)
    for maker in "ABABABA":
        event.hand(game_id, maker, 3)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    names = side_names(event.game(game_id))
    tap_hand(page, names["B"], 3)
    over = page.locator("section.over")
    expect(over).to_contain_text("Level at 4–4")
    over.get_by_role("button", name="Card draw").click()
    over.get_by_role("button", name=names["B"]).click()
    expect(over.locator(".winner-line")).to_contain_text(f"{names['B']} win")
    expect(over.locator(".winner-line")).to_contain_text("card draw")
    game = event.game(game_id)
    assert game["tie"] == {"method": "card-draw", "winner": "B"}
    assert game["points"] == {"A": 4, "B": 4}


def test_a_hand_of_an_unconfirmed_game_can_be_edited_and_deleted(page, event):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 5), ("A", 0)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    names = side_names(event.game(game_id))
    page.get_by_role("button", name="Edit hand 2").click()
    edit = page.locator("section.edit")
    edit.locator('[data-k="emaker-A"]').click()
    edit.locator('[data-k="etricks-4"]').click()
    edit.get_by_role("button", name="Save the change").click()
    expect(page.locator(".last-outcome")).to_contain_text(f"Hand 2 now: {names['A']} made it")
    game = event.game(game_id)
    assert game["hands"][1]["maker"] == "A" and game["hands"][1]["tricks"] == 4
    expect_score(page, game["points"])

    page.get_by_role("button", name="Delete hand 1").click()
    page.get_by_role("button", name="Yes, delete hand 1").click()
    expect(page.locator(".toast")).to_contain_text("Hand 1 deleted")
    game = event.game(game_id)
    assert game["hands_played"] == 2
    expect_score(page, game["points"])


def test_a_stale_edit_is_explained_and_the_runners_change_is_kept(page, event, api, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 3)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    page.get_by_role("button", name="Edit hand 1").click()
    edit = page.locator("section.edit")
    edit.locator('[data-k="etricks-5"]').click()
    # Meanwhile another phone changes the game.
    event.hand(game_id, "A", 4)
    edit.get_by_role("button", name="Save the change").click()
    notice = page.get_by_role("alert").filter(has_text="another phone")
    expect(notice).to_contain_text("your edit is still here")
    # The runner's change is still on screen; the game underneath is the new one.
    expect(edit.locator('[data-k="etricks-5"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".game-progress")).to_contain_text("3 played")
    shot(page, "game-stale-edit")
    edit.get_by_role("button", name="Save the change").click()
    expect(page.locator("section.edit")).to_have_count(0)
    game = event.game(game_id)
    assert game["hands"][0]["tricks"] == 5 and game["hands_played"] == 3


def test_wec_games_take_the_game_sheet_and_name_a_euchred_loner(page, api, shot):
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC singles")
    join_with_pin(page, event)

    # A loner in a bump format: one more tap says who went alone, so the bump is theirs.
    first = event.game_id(0)
    open_game(page, event, first)
    game = event.game(first)
    names = side_names(game)
    loner = game["sides"]["A"]["players"][1]
    entry = page.locator("section.entry")
    entry.get_by_role("button", name=names["A"], exact=True).click()
    entry.get_by_role("button", name="Alone", exact=True).click()
    expect(page.locator('[data-k="tricks-1"]')).to_be_disabled()
    entry.get_by_role("button", name=loner["name"], exact=True).click()
    page.locator('[data-k="tricks-1"]').click()
    game = wait_for_hands(event, first, 1)
    assert game["hands"][0]["loner_seat"] == loner["seat"]
    assert game["hands"][0]["bumps"] == {str(loner["seat"]): 2}
    expect(page.locator(".last-outcome")).to_have_text(in_words(game["hands"][0]["outcome"],
                                                                game))

    # Who deals: after the first hand it is asked as who dealt hand 1; recorded once, then
    # the screen follows the deal.
    page.get_by_role("button", name="Who dealt hand 1?").click()
    dealer = game["sides"]["B"]["players"][0]
    page.locator(f'[data-k="dealer-{dealer["seat"]}"]').click()
    expect(page.locator(".deal")).to_have_text(re.compile(r"^Deal: \w+"))
    assert event.game(first)["first_dealer"] == dealer["seat"]

    # The WEC game sheet: final points and bumps per player instead of hand by hand.
    second = event.game_id(1)
    open_game(page, event, second)
    sheet_game = event.game(second)
    page.get_by_text("Enter from the game sheet").click()
    page.fill("#sheet-a", "9")
    page.fill("#sheet-b", "6")
    page.fill("#sheet-bump-2", "1")
    shot(page, "game-sheet")
    page.get_by_role("button", name="Save the game sheet").click()
    expect(page.locator(".sheet")).to_contain_text("Entered from the game sheet")
    expect_score(page, {"A": 9, "B": 6})
    stored = event.game(second)
    assert stored["from_sheet"] and stored["points"] == {"A": 9, "B": 6}
    assert stored["bumps"] == {"2": 1}
    expect(page.locator(".winner-line")).to_contain_text(
        f"{side_names(sheet_game)['A']} win")


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
    expect(over).to_contain_text("Game over", timeout=8000)
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
