"""The console's Ties section: a tie at the teams preset's championship cut, its playoff started,
followed and settled from here; and places still shared, ordered by the organizer's taps (the
WEC's rock-paper-scissors). Hands go through the API; screenshots to tests/e2e/screenshots/.
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.api.client import signer
from tests.api.scripts import fixed_hands_game

from .conftest import Api

pytestmark = pytest.mark.browser

# Points each team scores in rounds 1-3, whoever it meets: Bowers and Clubs level at the cut.
PLAN = {"Aces": (13, 13, 13), "Bowers": (12, 11, 10), "Clubs": (11, 12, 10),
        "Diamonds": (10, 10, 12)}


class Event:
    def __init__(self, api: Api, preset: str):
        self.api = api
        _, event, _ = api.call("POST", "/api/events", {"name": "Ties night", "preset": preset},
                               expect=201)
        self.id, self.key = event["id"], event["organizer_key"]

    def post(self, path: str, body=None, expect=(200, 201)):
        return self.api.call("POST", path, body, key=self.key, expect=expect)[1]

    def play(self, game_id: int, points_a: int, points_b: int, hands: int,
             settle: str = "A") -> dict:
        for body in fixed_hands_game(points_a, points_b, hands):
            state = self.post(f"/api/games/{game_id}/hands",
                              {"id": f"t-{uuid.uuid4().hex[:10]}", **body})
        if state["level"] and settle:
            self.post(f"/api/games/{game_id}/settlement",
                      {"method": "playoff-hand", "winner": settle})
        return state

    def sign_off(self, game_id: int) -> None:
        game = self.api.get(f"/api/games/{game_id}")
        self.post(f"/api/games/{game_id}/sign-off",
                  {"by": signer(game)})


def open_ties(page: Page, event: Event) -> None:
    page.goto(f"/e/{event.id}/organize/ties#key={event.key}")
    expect(page.locator("h1.page-title")).to_have_text("Ties")


def test_a_tie_at_the_championship_cut_is_played_off_from_the_ties_section(page: Page, api, shot):
    event = Event(api, "teams")
    names = {}
    for name in PLAN:
        team = event.post(f"/api/events/{event.id}/teams",
                          {"name": name, "players": [f"{name} one", f"{name} two"],
                           "checked_in": True})
        names[team["id"]] = name
    for number in (1, 2, 3):
        round_ = event.post(f"/api/events/{event.id}/rounds", {"number": number})
        for t in round_["tables"]:
            a = PLAN[names[t["team_a"]["id"]]][number - 1]
            b = PLAN[names[t["team_b"]["id"]]][number - 1]
            game = t["games"][0]["id"]
            event.play(game, a, b, 12)
            event.sign_off(game)
        event.post(f"/api/rounds/{round_['id']}/close")

    open_ties(page, event)
    cut = page.locator(".cut")
    expect(cut).to_contain_text("Through: Aces")
    level = cut.locator(".level-cut")
    expect(level).to_contain_text("for 1 place. A 4-hand playoff between the two, then a "
                                  "sudden-death hand while level.")
    expect(level).to_contain_text("Bowers")
    expect(level).to_contain_text("Clubs")
    # Why each team goes through or not, in words.
    why = cut.locator(".cut-reasons li")
    expect(why.filter(has_text="Bowers")).to_contain_text(
        "level at the cut on 33 points: plays off for the championship")
    expect(why.filter(has_text="Diamonds")).to_contain_text("below the cut")
    expect(page.locator('.tie-group[data-place="2"] h3')).to_have_text(
        "Place 2: 2 level · decides a prize")
    shot(page, "ties-cut")
    page.get_by_role("button", name="Start the playoff for the championship").click()
    expect(page.locator(".toast")).to_contain_text("Playoff for the championship: seated.")
    playoff = page.locator('section[data-round="4"]')
    expect(playoff.locator("h2")).to_have_text("Playoff for the championship · round 4")
    expect(playoff.locator(".game-list")).to_contain_text("0 of 4 hands")

    # Level after 4 hands: the sudden-death hand is recorded here.
    table = next(r for r in api.get(f"/api/events/{event.id}/rounds")
                 if r["number"] == 4)["tables"][0]
    game = table["games"][0]["id"]
    event.play(game, 2, 2, 4, settle=None)
    page.get_by_role("button", name="Refresh").click()
    expect(playoff.locator(".warn")).to_have_text("Level: who won the sudden-death hand?")
    shot(page, "ties-sudden-death")
    playoff.locator(".panel").get_by_role("button", name="Clubs", exact=True).click()
    expect(page.locator(".toast")).to_contain_text("Clubs won the sudden-death hand.")
    expect(playoff.locator(".game-list")).to_contain_text("4 of 4 hands · Clubs won")
    event.sign_off(game)
    page.get_by_role("button", name="Close the playoff for the championship").click()
    expect(page.locator(".toast")).to_contain_text("Playoff for the championship: closed.")
    expect(cut).to_contain_text("Through: Aces, Clubs")
    expect(cut.locator(".cut-reasons li").filter(has_text="Clubs")).to_contain_text(
        "won the playoff at the cut")
    expect(cut.locator(".level-cut")).to_have_count(0)
    expect(page.get_by_role("button", name="Start the championship")).to_be_visible()

    # The standings still share second place: the organizer may record an order for it.
    group = page.locator('.tie-group[data-place="2"]')
    group.get_by_role("button", name="Clubs", exact=True).click()
    expect(group.get_by_role("button", name="1. Clubs")).to_have_attribute("aria-pressed", "true")
    group.get_by_role("button", name="Record this order").click()
    expect(page.locator(".toast")).to_contain_text("Place 2: order recorded.")
    expect(page.locator("ol.recorded li")).to_have_text(["Clubs", "Bowers"])
    expect(page.get_by_text("No shared places.")).to_be_visible()
    shot(page, "ties-cut-settled")
    page.get_by_role("button", name="Start the championship").click()
    expect(page.locator(".toast")).to_contain_text("Championship: seated.")
    final = api.get(f"/api/events/{event.id}/rounds")[-1]
    assert final["stage"] == "championship"
    assert {final["tables"][0]["team_a"]["name"], final["tables"][0]["team_b"]["name"]} == \
        {"Aces", "Clubs"}


def test_the_organizer_records_a_wec_tiebreak_by_tapping_the_order(page: Page, api, shot):
    event = Event(api, "wec-singles")
    for n in range(1, 13):
        event.post(f"/api/events/{event.id}/players", {"name": f"P{n}", "checked_in": True})
    round_ = event.post(f"/api/events/{event.id}/rounds", {"number": 1})
    for t in round_["tables"]:
        event.play(t["games"][0]["id"], 7, 5, 12)  # side A wins 7-5 at every table
    open_ties(page, event)
    group = page.locator('.tie-group[data-place="1"]')
    expect(group.locator("h3")).to_have_text("Place 1: 6 level · decides a prize")
    level = [b.text_content() for b in group.locator(".actions").first.get_by_role(
        "button").all()]
    # What to do is said before the first tap, not as an error after it.
    expect(group.locator(".hint")).to_have_text(
        "Tap the level entrants in finishing order (first place first), then record it.")
    group.get_by_role("button", name="Record this order").click()
    expect(group.locator(".msg-error")).to_contain_text(
        "Tap at least 5 of them, in finishing order, first.")
    for name in reversed(level[1:]):  # the last one (level[0]) is implied
        group.get_by_role("button", name=name, exact=True).click()
    shot(page, "ties-wec-order")
    group.get_by_role("button", name="Record this order").click()
    expect(page.locator(".toast")).to_contain_text("Place 1: order recorded.")
    expected = list(reversed(level[1:])) + [level[0]]
    expect(page.locator("ol.recorded li")).to_have_text(expected)
    rows = api.get(f"/api/events/{event.id}/leaderboard")["rows"]
    assert [(r["place"], r["name"]) for r in rows[:6]] == list(enumerate(expected, start=1))
    page.get_by_role("button", name="Clear the recorded order").click()
    expect(page.locator(".toast")).to_contain_text("The recorded order is cleared.")
    expect(page.locator('.tie-group[data-place="1"]')).to_be_visible()
