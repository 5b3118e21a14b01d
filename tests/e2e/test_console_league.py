"""The console's League section runs a short league on a phone: the season scheduled, a week
with a forfeit clicked in (its games, the offence count), the other matches played, the
standings, a substitute in the season and refused in the playoffs, the bracket to a champion.

Teams and the hands themselves go through the API (the console is not where hands are typed);
everything the organizer decides is clicked. Screenshots go to tests/e2e/screenshots/.
"""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.api.scripts import to_target_game

from .conftest import PHONE, SCREENSHOTS, Api
from .test_quality import serious_violations

pytestmark = pytest.mark.browser

TEAMS = {"North": ["Ann", "Bob"], "South": ["Carol", "Dave"], "East": ["Eve", "Frank"],
         "West": ["Gina", "Hal"]}


class League:
    """A league event made over HTTP, and its hands played by script."""

    def __init__(self, api: Api):
        self.api = api
        _, event, _ = api.call("POST", "/api/events", {"name": "Tuesday league",
                                                       "preset": "league"}, expect=201)
        self.id, self.key = event["id"], event["organizer_key"]
        self.teams = {name: api.call("POST", f"/api/events/{self.id}/teams",
                                     {"name": name, "players": players}, key=self.key,
                                     expect=201)[1] for name, players in TEAMS.items()}

    def get(self, path: str):
        return self.api.get(f"/api/events/{self.id}{path}", key=self.key)

    def round(self, number: int) -> dict:
        return next(r for r in self.get("/rounds") if r["number"] == number)

    def win(self, game_id: int, side: str, loser_points: int = 4) -> dict:
        state = None
        for body in to_target_game(side, loser_points):
            state = self.api.call("POST", f"/api/games/{game_id}/hands",
                                  {"id": f"l-{uuid.uuid4().hex[:10]}", **body}, key=self.key,
                                  expect=201)[1]
        return state

    def play_match(self, table: dict, winners: str) -> None:
        """Play a week's games ("AAB": side A wins games 1 and 2), skipping forfeited ones."""
        for game, side in zip(table["games"], winners, strict=True):
            if not game["over"]:
                self.win(game["id"], side)

    def play_best_of(self, table: dict, winners: str) -> None:
        game_id = table["games"][0]["id"]
        for index, side in enumerate(winners):
            state = self.win(game_id, side)
            if index + 1 < len(winners):
                game_id = state["match"]["games"][index + 1]["id"]

    def seat_and_play_week(self, number: int) -> None:
        self.api.call("POST", f"/api/events/{self.id}/rounds", {"number": number}, key=self.key,
                      expect=201)
        round_ = self.round(number)
        for table in round_["tables"]:
            self.play_match(table, "AAB")
        self.api.call("POST", f"/api/rounds/{round_['id']}/close", key=self.key, expect=200)


@pytest.fixture
def league(api) -> League:
    return League(api)


def open_league(page: Page, league: League) -> None:
    page.goto(f"/e/{league.id}/organize/league#key={league.key}")
    expect(page.locator("h1.page-title")).to_have_text("League")


# The next GET of the league's season answers 1.5 s late (and says when it has landed).
SLOW_NEXT_SEASON_READ = """() => {
  const plain = window.fetch;
  let armed = true;
  window.fetch = async (url, options) => {
    const slow = armed && String(url).endsWith('/season') && !(options && options.method
      && options.method !== 'GET');
    if (slow) armed = false;
    const answer = await plain(url, options);
    if (slow) {
      await new Promise((done) => setTimeout(done, 1500));
      setTimeout(() => { window.slowSeasonReadLanded = true; }, 0);
    }
    return answer;
  };
}"""


def lose_first_answer(page: Page, pattern: str) -> list[int]:
    """The first request to `pattern` reaches the server but its answer is lost (the
    connection reset); later ones go through. The list gets the lost answer's status."""
    lost: list[int] = []

    def lose_first(route):
        if not lost:
            lost.append(route.fetch().status)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(pattern, lose_first)
    return lost


def click(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def test_a_league_week_with_a_forfeit_a_substitute_and_the_playoff_bracket(page: Page, league,
                                                                          shot):
    open_league(page, league)
    expect(page.get_by_text("4 teams registered.")).to_be_visible()
    shot(page, "league-schedule")
    click(page, "Schedule the season")
    expect(page.locator("details.week")).to_have_count(3)
    expect(page.get_by_text("Week 1 is ready to start.")).to_be_visible()
    click(page, "Open Week 1")
    week1 = page.locator('details.week[data-week="1"]')
    expect(week1.locator("summary")).to_have_text("Week 1 · being played")

    # West (or whoever is away at the first table) is 20 minutes late: two games are gone.
    first = league.round(1)["tables"][0]
    home, away = first["team_a"]["name"], first["team_b"]["name"]
    row = week1.locator(f'li.match[data-match="{first["match_id"]}"]')
    row.get_by_role("button", name="Forfeit…").click()
    panel = row.locator(".panel")
    panel.get_by_role("button", name=away, exact=True).click()
    panel.get_by_role("button", name="20 minutes late: games 1, 2").click()
    shot(page, "league-forfeit")
    panel.get_by_role("button", name="Record the forfeit").click()
    expect(page.locator(".toast")).to_contain_text("Forfeit recorded: games 1, 2. Offence 1: "
                                                   "loss of the games.")
    expect(row.locator(".match-score")).to_have_text("2–0")
    expect(row.locator(".game-chip").nth(0)).to_have_text(f"Game 1: forfeited by {away}")
    expect(row.locator(".game-chip").nth(1)).to_have_text(f"Game 2: forfeited by {away}")
    expect(row.locator(".forfeit")).to_have_text(f"{away} forfeited: Offence 1: loss of the "
                                                 "games.")
    offence = page.locator(f'li.offence[data-team="{first["team_b"]["id"]}"]')
    expect(offence.locator(".badge")).to_have_text("1 offence")

    # A substitute joins the other table's home team for the week, added and seated here.
    second = league.round(1)["tables"][1]
    row2 = week1.locator(f'li.match[data-match="{second["match_id"]}"]')
    row2.get_by_role("button", name="Substitute…").click()
    panel = row2.locator(".panel")
    panel.get_by_role("button", name=second["team_a"]["name"], exact=True).click()
    panel.get_by_label("Substitute's name").fill("Sam Sub")
    panel.get_by_role("button", name="Add the substitute").click()
    expect(page.locator(".toast")).to_contain_text("Sam Sub is a substitute now")
    panel = row2.locator(".panel")
    panel.get_by_label(f"Seat 3 · {second['team_a']['name']}").select_option(
        label="Sam Sub (substitute)")
    shot(page, "league-substitute")
    panel.get_by_role("button", name="Save the seats").click()
    expect(page.locator(".toast")).to_contain_text(f"Seats at table {second['table']} saved.")
    assert league.round(1)["tables"][1]["seats"][2]["name"] == "Sam Sub"

    # The rest of the week is played at the tables (the API here), then closed from here.
    league.play_match(league.round(1)["tables"][0], "AAB")
    league.play_match(league.round(1)["tables"][1], "ABA")
    click(page, "Refresh")
    expect(row.locator(".match-score")).to_have_text("2–1")
    expect(row.locator(".hint")).to_have_text(f"Week points: {home} 5 · {away} 2")
    expect(row2.locator(".match-score")).to_have_text("2–1")
    click(page, "Close Week 1")
    expect(page.locator(".toast")).to_contain_text("Week 1 is closed.")
    expect(week1.locator("summary")).to_have_text("Week 1 · closed")
    standings = page.locator("table.standings tbody tr")
    expect(standings).to_have_count(4)
    expect(standings.first).to_contain_text("5")
    shot(page, "league-week")
    page.get_by_role("button", name="Close message").click()
    week1.screenshot(path=str(SCREENSHOTS / "league-week-card.png"), scale="css")

    # Weeks 2 and 3 are played; the bracket the standings give is shown before the draw.
    league.seat_and_play_week(2)
    league.seat_and_play_week(3)
    click(page, "Refresh")
    bracket = page.locator(".bracket")
    expect(page.get_by_text("Not drawn yet: the bracket the standings give today.")).to_be_visible()
    expect(bracket.locator(".bracket-round h3")).to_have_text(["Semifinals", "Final"])
    seeds = league.get("/bracket")["seeds"]
    board = league.get("/leaderboard")["rows"]
    assert [s["name"] for s in seeds] == [r["name"] for r in board]
    expect(standings.first.locator("td").last).to_have_text("1")
    click(page, "Draw Semifinals")
    expect(page.locator(".toast")).to_contain_text("Semifinals is under way.")
    expect(page.get_by_text("Not drawn yet")).to_have_count(0)
    semis = bracket.locator(".bracket-round").first.locator(".bracket-match")
    expect(semis).to_have_count(2)
    expect(semis.first.locator(".slot").first).to_contain_text(f"1{seeds[0]['name']}")
    expect(semis.first.locator(".slot").last).to_contain_text(f"4{seeds[3]['name']}")
    expect(bracket.locator(".bracket-round").last.locator(".slot.tbd")).to_have_count(2)
    shot(page, "league-bracket-drawn")

    # A substitute may not play in the playoffs: the server's reason is shown.
    playoff = league.round(4)
    north = next(t for t in playoff["tables"] if "North" in (t["team_a"]["name"],
                                                               t["team_b"]["name"]))
    seat = 3 if north["team_a"]["name"] == "North" else 4
    league.api.call("POST", f"/api/events/{league.id}/teams/{league.teams['North']['id']}"
                    "/substitutes", {"name": "Pat Spare"}, key=league.key, expect=201)
    click(page, "Refresh")
    semis.nth(north["table"] - 1).get_by_role("button", name="Substitute…").click()
    panel = page.locator(".panel")
    panel.get_by_label(f"Seat {seat} · North").select_option(label="Pat Spare (substitute)")
    panel.get_by_role("button", name="Save the seats").click()
    expect(panel.locator(".msg-error")).to_contain_text(
        "Pat Spare is a substitute: only roster players may play playoff matches.")
    shot(page, "league-playoff-substitute-refused")
    click(page, "Cancel")

    # The semifinals (best of 3) and the final are played; the bracket fills in.
    for table in playoff["tables"]:
        league.play_best_of(table, "AA" if table["table"] == 1 else "ABB")
    click(page, "Refresh")
    click(page, "Close Semifinals")
    expect(page.locator(".toast")).to_contain_text("Semifinals is closed.")
    click(page, "Draw Final")
    expect(page.locator(".toast")).to_contain_text("Final is under way.")
    final = league.round(5)["tables"][0]
    league.play_best_of(final, "BAA")
    # Refresh, then Close at once: the Refresh's read is held back until after the close's
    # own read, and must not paint the final as still being played when it lands.
    page.evaluate(SLOW_NEXT_SEASON_READ)
    click(page, "Refresh")
    click(page, "Close Final")
    over = f"The playoffs are over: {final['team_a']['name']} won."
    expect(page.locator(".next-step")).to_contain_text(over)
    page.wait_for_function("() => window.slowSeasonReadLanded === true")
    expect(page.locator(".next-step")).to_contain_text(over)
    rounds = bracket.locator(".bracket-round")
    expect(rounds.first.locator(".bracket-match").first.locator(".games-line")).to_have_text(
        "10–4 · 10–4")
    expect(rounds.first.locator(".bracket-match").last.locator(".games-line")).to_have_text(
        "10–4 · 4–10 · 4–10")
    last = rounds.last.locator(".bracket-match")
    expect(last.locator(".slot.won")).to_contain_text(final["team_a"]["name"])
    expect(last.locator(".slot.won .slot-score")).to_have_text("2")
    expect(last.locator(".games-line")).to_have_text("4–10 · 10–4 · 10–4")
    shot(page, "league-bracket-final")
    page.get_by_role("button", name="Close message").click()
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "league-laptop")
    page.locator("section.card", has=bracket).screenshot(
        path=str(SCREENSHOTS / "league-bracket-card.png"), scale="css")


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 640}, bypass_csp=True)
def test_a_second_offence_flags_the_team_and_a_flaky_network_never_fakes_a_write(page, league,
                                                                                 shot):
    """On a 360 px phone: West's second forfeiting week flags it, the organizer leaves it out
    of the playoffs; a lost request is retried and stored once, and a write that never got
    through is reported as not saved. The screen passes axe and keeps 48 px targets."""
    west = league.teams["West"]["id"]
    league.api.call("POST", f"/api/events/{league.id}/season", {}, key=league.key, expect=201)

    def west_table(number):
        return next(t for t in league.round(number)["tables"]
                    if west in (t["team_a"]["id"], t["team_b"]["id"]))

    league.api.call("POST", f"/api/events/{league.id}/rounds", {"number": 1}, key=league.key,
                    expect=201)
    league.api.call("POST", f"/api/matches/{west_table(1)['match_id']}/forfeits",
                    {"team_id": west, "reason": "no-show"}, key=league.key, expect=201)
    for table in league.round(1)["tables"]:
        league.play_match(table, "AAB")
    league.api.call("POST", f"/api/rounds/{league.round(1)['id']}/close", key=league.key,
                    expect=200)
    league.api.call("POST", f"/api/events/{league.id}/rounds", {"number": 2}, key=league.key,
                    expect=201)
    open_league(page, league)

    # The first try of the forfeit reaches the server but its answer is lost: the page tries
    # again, and the repeat stores nothing twice.
    lost = lose_first_answer(page, "**/api/matches/*/forfeits")
    row = page.locator(f'li.match[data-match="{west_table(2)["match_id"]}"]')
    row.get_by_role("button", name="Forfeit…").click()
    row.get_by_role("button", name="West", exact=True).click()
    row.get_by_role("button", name="10 minutes late: game 1").click()
    row.get_by_role("button", name="Record the forfeit").click()
    expect(page.locator(".toast")).to_contain_text("Forfeit recorded: game 1. Offence 2: loss "
                                                   "of the games, and the team may be removed "
                                                   "from the playoffs (the organizer decides).")
    assert lost == [201], "the first try was stored, its answer lost"
    season = league.get("/season")
    assert next(o for o in season["offences"] if o["team_id"] == west)["offences"] == 2
    game1 = west_table(2)["games"][0]
    assert game1["end"] == "forfeit" and all(not g["over"] for g in west_table(2)["games"][1:])
    offence = page.locator(f'li.offence[data-team="{west}"]')
    expect(offence.locator(".badge")).to_have_text("2 offences")

    # Leaving West out of the playoffs while the network is down is never shown as done.
    page.route("**/api/events/*/teams/*", lambda route: route.abort("internetdisconnected"))
    offence.get_by_role("button", name="Leave out of the playoffs").click()
    expect(offence.locator(".msg-error")).to_contain_text("Not saved:", timeout=10000)
    expect(offence.get_by_text("Left out of the playoffs.")).to_have_count(0)
    assert not next(t for t in league.get("/teams") if t["id"] == west)["playoff_excluded"]
    page.unroute("**/api/events/*/teams/*")
    offence.get_by_role("button", name="Leave out of the playoffs").click()
    expect(page.locator(".toast")).to_contain_text("West: left out of the playoffs.")
    expect(offence.get_by_text("Left out of the playoffs.")).to_be_visible()
    west_row = page.locator("table.standings tbody tr", has_text="West")
    expect(west_row.locator("td").last).to_have_text("—")
    shot(page, "league-offences-360")

    page.locator('details.week[data-week="2"] li.match').first.get_by_role(
        "button", name="Forfeit…").click()
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(100)
        found[scheme] = serious_violations(page)
    assert not any(found.values()), json.dumps(found, indent=1)
    page.emulate_media(color_scheme="light")
    sizes = page.evaluate("""() => ({
        wide: document.documentElement.scrollWidth,
        small: [...document.querySelectorAll('main button, main .btn, main summary, main select,'
                                            + ' main input')]
            .filter((el) => el.offsetParent !== null)
            .map((el) => ({text: el.textContent.trim() || el.id,
                           ...el.getBoundingClientRect().toJSON()}))
            .filter((b) => b.width < 48 || b.height < 48)})""")
    assert sizes["wide"] <= 360, "no sideways scrolling on a 360 px phone"
    assert sizes["small"] == [], sizes["small"]
    shot(page, "league-360", full_page=False)


def test_a_league_in_divisions_on_dated_nights_with_a_cancelled_week(page: Page, api: Api,
                                                                      shot):
    _, event, _ = api.call("POST", "/api/events", {"name": "Two-level league",
                                                   "preset": "league"}, expect=201)
    eid, key = event["id"], event["organizer_key"]
    page.goto(f"/e/{eid}/organize/players#key={key}")
    for name, division in (("Aces", "Upper"), ("Bowers", "Upper"), ("Clubs", "Upper"),
                           ("Diamonds", "Lower"), ("Euchres", "Lower")):
        page.fill("#add-name", name)
        page.fill("#add-p1", f"{name} one")
        page.fill("#add-p2", f"{name} two")
        page.fill("#add-division", division)
        page.get_by_role("button", name="Add the team").click()
        expect(page.locator(f'.person[data-name="{name}"]')).to_contain_text(division)
    page.goto(f"/e/{eid}/organize/league")
    expect(page.get_by_text("in 2 divisions (Upper, Lower)")).to_be_visible()
    page.fill("#season-first", "2027-01-05")
    page.fill("#season-start", "19:30")
    page.get_by_role("button", name="Schedule the season").click()
    weeks = page.locator("details.week")
    expect(weeks).to_have_count(3)  # the three-team division's round robin
    expect(weeks.nth(1).locator("summary")).to_contain_text("Jan 12")
    expect(weeks.nth(1).locator("summary")).to_contain_text("19:30")
    weeks.nth(1).locator("summary").click()
    week2 = weeks.nth(1)
    expect(week2.locator(".match-line").first).to_contain_text("(")
    week2.get_by_label("Why week 2 is cancelled").fill("Snow storm")
    # The default (RULES.md §6, as the league rules say): the other weeks keep their nights
    # and week 2 is made up after the last week.
    cancel = week2.get_by_role("button", name="Cancel week 2: make it up after the last week")
    cancel.click()
    week2.get_by_role("button", name="Tap again: the other weeks keep their nights").click()
    expect(page.locator(".season-changes")).to_contain_text(
        "Week 2 cancelled (Snow storm): made up on 2027-01-26; the other weeks stay on their "
        "nights.")
    # Weeks are listed in the order they are played: the make-up week last.
    expect(weeks.nth(1).locator("summary")).to_contain_text("Week 3")
    expect(weeks.nth(1).locator("summary")).to_contain_text("Jan 19")
    expect(weeks.nth(2).locator("summary")).to_contain_text("Week 2")
    expect(weeks.nth(2).locator("summary")).to_contain_text("Jan 26")
    expect(weeks.nth(2).locator("summary")).to_contain_text("(make-up)")
    _, season, _ = api.call("GET", f"/api/events/{eid}/season")
    assert [w["date"] for w in season["weeks"]] == ["2027-01-05", "2027-01-26", "2027-01-19"]
    # Shifting is the option: week 3's night is cancelled too and the season moves a week on.
    week3 = page.locator('details.week[data-week="3"]')
    week3.locator("summary").click()
    week3.get_by_label("Why week 3 is cancelled").fill("Hall flooded")
    week3.get_by_role("button", name="Or move every later week a night on").click()
    week3.get_by_role("button", name="Tap again: every later night moves").click()
    expect(page.locator(".season-changes")).to_contain_text(
        "Week 3 and the weeks after it moved a week on: Hall flooded.")
    _, season, _ = api.call("GET", f"/api/events/{eid}/season")
    assert [w["date"] for w in season["weeks"]] == ["2027-01-05", "2027-02-02", "2027-01-26"]
    shot(page, "console-league-divisions")


def _paper(api: Api, key: str, game_id: int, side: str) -> None:
    api.call("POST", f"/api/games/{game_id}/paper-sheet",
             {"id": f"e2e-{uuid.uuid4().hex[:10]}", "hands": to_target_game(side, 4)},
             key=key, expect=201)


def _finish(api: Api, eid: int, key: str, round_id: int) -> None:
    """Every match of a seated round played out by side A (a best-of-3 match's next game
    appears once one is over), then the round closed."""
    while True:
        _, view, _ = api.call("GET", f"/api/rounds/{round_id}")
        waiting = [g["id"] for t in view["tables"] for g in t["games"] if not g["over"]]
        if not waiting:
            break
        for game in waiting:
            _paper(api, key, game, "A")
    api.call("POST", f"/api/rounds/{round_id}/close", key=key, expect=200)


def test_divisions_rank_apart_and_the_playoffs_take_the_nights_the_organizer_gives(
        page: Page, browser, base_url, api: Api, shot):
    """RULES.md §6: with divisions the board and the console show places and prizes per
    division (no overall place); two playoff rounds share a night and the final has a date of
    its own; a team page lists its playoff matches with their nights."""
    _, event, _ = api.call("POST", "/api/events", {"name": "Two-level league",
                                                   "preset": "league"}, expect=201)
    eid, key = event["id"], event["organizer_key"]
    for division, names in (("Upper", ("Aces", "Bowers", "Clubs")),
                            ("Lower", ("Deuces", "Euchres", "Farmers"))):
        for name in names:
            api.call("POST", f"/api/events/{eid}/teams", {
                "name": name, "players": [f"{name} 1", f"{name} 2"], "division": division},
                key=key, expect=201)
    api.call("POST", f"/api/events/{eid}/season", {
        "first_night": "2027-01-05", "start_time": "19:00", "division_final": True},
        key=key, expect=201)
    for _ in range(3):
        _, week, _ = api.call("POST", f"/api/events/{eid}/rounds", {}, key=key, expect=201)
        _finish(api, eid, key, week["id"])

    # The public board: each division under its name, places 1-3 in each, a prize in each.
    page.goto(f"/e/{eid}/board")
    heads = page.locator("ol.board .division-head")
    expect(heads).to_have_text(["Lower", "Upper"])
    rows = page.locator("ol.board > li.board-row")
    expect(rows).to_have_count(6)
    expect(rows.locator(".place")).to_have_text(["1", "2", "3", "1", "2", "3"])
    prizes = page.locator("ol.board > li.board-row.prize")
    expect(prizes).to_have_count(2)
    expect(prizes.locator(".prize-mark")).to_have_text(["Lower: a prize place",
                                                        "Upper: a prize place"])
    shot(page, "board-league-divisions")
    # The projector says each row's division beside its division place.
    page.goto(f"/e/{eid}/projector")
    expect(page.locator(".proj-row .proj-division")).to_have_count(6)
    expect(page.locator(".proj-row.prize")).to_have_count(2)

    desk = browser.new_context(**PHONE, base_url=base_url).new_page()
    desk.goto(f"/e/{eid}/organize/league#key={key}")
    expect(desk.locator("h1.page-title")).to_have_text("League")
    table = desk.locator("table.standings")
    expect(table.locator("thead th")).to_contain_text(["Division", "Division place"])
    expect(table.locator("tbody tr.prize")).to_have_count(2)

    # The playoff nights: both division rounds on one Tuesday, the final on a Saturday.
    card = desk.locator("section.card", has=desk.get_by_role("heading", name="Playoff nights"))
    expect(card.locator('input[type="date"]')).to_have_count(3)
    card.locator("#po-night-1").fill("2027-01-26")
    card.locator("#po-night-2").fill("2027-01-26")
    card.locator("#po-night-3").fill("2027-01-30")
    card.get_by_role("button", name="Save the playoff nights").click()
    rounds = desk.locator(".bracket-round h3")
    expect(rounds).to_have_count(3)
    expect(rounds.nth(0)).to_contain_text("Jan 26")
    expect(rounds.nth(1)).to_contain_text("Jan 26")
    expect(rounds.nth(2)).to_contain_text("Jan 30")
    # A night before the season is over is refused, with the reason; nothing changes.
    card = desk.locator("section.card", has=desk.get_by_role("heading", name="Playoff nights"))
    card.locator("#po-night-1").fill("2027-01-12")
    card.get_by_role("button", name="Save the playoff nights").click()
    expect(card.locator(".msg")).to_contain_text("before the season is over")
    expect(rounds.nth(0)).to_contain_text("Jan 26")
    shot(desk, "console-league-playoff-nights")

    # The playoffs played: the finalist's team page lists its playoff matches and nights.
    for _ in range(3):
        _, round_, _ = api.call("POST", f"/api/events/{eid}/rounds", {}, key=key, expect=201)
        _finish(api, eid, key, round_["id"])
    _, bracket, _ = api.call("GET", f"/api/events/{eid}/bracket")
    final = bracket["rounds"][-1]["matches"][0]
    page.goto(f"/e/{eid}/team/{final['a']['id']}")
    playoffs = page.locator(".team-playoff")
    expect(playoffs.last).to_contain_text("Final")
    expect(playoffs.last).to_contain_text("Jan 30")
    expect(playoffs.last).to_contain_text(f"v {final['b']['name']}")
    shot(page, "team-page-playoffs")
    desk.context.close()


def test_a_forfeit_recorded_before_the_night_counts_when_its_week_opens(page: Page, league,
                                                                        shot):
    """Week 2 is still to come: a team has called ahead. The panel offers no lateness (nobody
    is late before the night); the forfeit shows at once with the offence it becomes, the
    standings are untouched, and when week 2 opens its games are the opponent's and it is an
    offence."""
    league.api.call("POST", f"/api/events/{league.id}/season", {}, key=league.key, expect=201)
    open_league(page, league)
    week2 = page.locator('details.week[data-week="2"]')
    week2.locator("summary").click()
    match = league.round(2)["tables"][0]
    home, away = match["team_a"]["name"], match["team_b"]["name"]
    row = week2.locator(f'li.match[data-match="{match["match_id"]}"]')
    row.get_by_role("button", name="Forfeit…").click()
    panel = row.locator(".panel")
    expect(panel.get_by_role("button", name="No show: games 1, 2, 3")).to_be_visible()
    expect(panel.get_by_role("button", name="Only one player: games 1, 2, 3")).to_be_visible()
    expect(panel.get_by_role("button", name="10 minutes late: game 1")).to_have_count(0)
    panel.get_by_role("button", name=away, exact=True).click()
    panel.get_by_role("button", name="No show: games 1, 2, 3").click()
    panel.get_by_role("button", name="Record the forfeit").click()
    expect(page.locator(".toast")).to_contain_text(
        f"Forfeit recorded: games 1, 2, 3. Recorded before the night: {home} see it on their "
        "schedule; its games are forfeited when Week 2 starts.")
    expect(row.locator(".forfeit")).to_have_text(f"{away} forfeited ahead of the night: Week 2 "
                                                 "(forfeited ahead) becomes offence 1 when it "
                                                 "starts: loss of the games.")
    # Not an offence before its night: the card lists it as to come, with no playoff choice.
    offence = page.locator(f'li.offence[data-team="{match["team_b"]["id"]}"]')
    expect(offence.locator(".badge")).to_have_text("0 offences")
    expect(offence.locator(".ahead")).to_have_text("Week 2 (forfeited ahead) becomes offence 1 "
                                                   "when it starts: loss of the games.")
    expect(offence.get_by_role("button", name="Leave out of the playoffs")).to_have_count(0)
    expect(row.locator(".match-score")).to_have_text("v")
    row.scroll_into_view_if_needed()
    shot(page, "league-forfeit-ahead", full_page=False)
    board = league.get("/leaderboard")
    assert {r["total"] for r in board["rows"]} == {0}, "nothing counted before the night"

    league.seat_and_play_week(1)
    after_week_1 = {r["name"]: r["total"] for r in league.get("/leaderboard")["rows"]}
    league.api.call("POST", f"/api/events/{league.id}/rounds", {"number": 2}, key=league.key,
                    expect=201)
    page.reload()
    week2 = page.locator('details.week[data-week="2"]')
    row = week2.locator(f'li.match[data-match="{match["match_id"]}"]')
    expect(row.locator(".match-score")).to_have_text("3–0")
    expect(row.locator(".game-chip")).to_have_text([f"Game {n}: forfeited by {away}"
                                                    for n in (1, 2, 3)])
    expect(row.locator(".forfeit")).to_have_text(f"{away} forfeited ahead of the night: "
                                                 "Offence 1: loss of the games.")
    expect(page.locator(f'li.offence[data-team="{match["team_b"]["id"]}"] .badge')) \
        .to_have_text("1 offence")
    now = {r["name"]: r["total"] for r in league.get("/leaderboard")["rows"]}
    assert now[home] == after_week_1[home] + 7 and now[away] == after_week_1[away], \
        "the forfeit counts from the night of week 2: 7 points to the opponent"


def test_a_week_not_started_shows_its_night_not_a_score_being_played(page: Page, league, shot):
    """Weeks to come are seated ahead, their games stored with no hands: they read as not
    played yet, with their night, never as "0–0 · playing" (what the week being played
    shows until its first hand)."""
    league.api.call("POST", f"/api/events/{league.id}/season",
                    {"first_night": "2027-01-05", "start_time": "19:00"}, key=league.key,
                    expect=201)
    league.api.call("POST", f"/api/events/{league.id}/rounds", {"number": 1}, key=league.key,
                    expect=201)
    open_league(page, league)
    week1 = page.locator('details.week[data-week="1"]')
    first = week1.locator("li.match").first
    expect(first.locator(".game-chip")).to_have_text([f"Game {n}: 0–0 · playing"
                                                      for n in (1, 2, 3)])
    expect(first.locator(".match-score")).to_have_text("0–0")

    week2 = page.locator('details.week[data-week="2"]')
    week2.locator("summary").click()
    expect(week2.locator("summary")).to_have_text("Week 2 · Tue, Jan 12 19:00 · not started")
    matches = week2.locator("li.match")
    expect(matches).to_have_count(2)
    expect(matches.locator(".not-played")).to_have_text(["Not played yet · Tue, Jan 12 19:00"] * 2)
    expect(matches.locator(".match-score")).to_have_text(["v", "v"])
    expect(matches.locator(".game-chip")).to_have_count(0)
    expect(week2).not_to_contain_text("playing")
    expect(week2).not_to_contain_text("0–0")
    week2.scroll_into_view_if_needed()
    shot(page, "league-week-to-come", full_page=False)


def test_a_forfeit_announced_ahead_is_taken_back_until_its_week_starts(page: Page, browser,
                                                                       base_url, league, shot):
    """West called off weeks 2 and 3, then found substitutes. On a phone the organizer takes
    week 2 back (a tap, then a tap to confirm; the first answer is lost and the repeat is
    answered the same), the captain takes week 3 back on the team page and then announces it
    again; once week 3 opens neither screen offers to take it back: the forfeit stands."""
    west = league.teams["West"]["id"]
    league.api.call("POST", f"/api/events/{league.id}/season", {}, key=league.key, expect=201)
    captain = league.api.post(f"/api/events/{league.id}/teams/{west}/key", key=league.key,
                              expect=201)["key"]
    for week in (2, 3):
        league.api.call("POST", f"/api/events/{league.id}/teams/{west}/advance-forfeits",
                        {"week": week}, key=captain, expect=201)

    def west_match(number):
        return next(t["match_id"] for t in league.round(number)["tables"]
                    if west in (t["team_a"]["id"], t["team_b"]["id"]))

    lost = lose_first_answer(page, "**/advance-forfeits/*")
    open_league(page, league)
    week2 = page.locator('details.week[data-week="2"]')
    week2.locator("summary").click()
    row = week2.locator(f'li.match[data-match="{west_match(2)}"]')
    expect(row.locator(".forfeit")).to_contain_text("West forfeited ahead of the night")
    take = row.locator(".take-back button")
    expect(take).to_have_text("Take back")
    expect(take).to_have_accessible_name("Take back West's forfeit of week 2")
    box = take.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 48, box
    row.scroll_into_view_if_needed()
    shot(page, "league-take-back", full_page=False)
    take.click()
    expect(take).to_have_text("Tap again: West play week 2")
    assert lost == [], "nothing sent before the second tap"
    take.click()
    expect(page.locator(".toast")).to_contain_text(
        "West play Week 2 after all: the forfeit announced for it is taken back")
    expect(page.locator(".toast")).to_contain_text(
        "Week 3 (forfeited ahead) becomes offence 1 when it starts: loss of the games.")
    assert lost == [200], "the first try was stored, its answer lost; the repeat said the same"
    expect(row.locator(".forfeit")).to_have_count(0)
    expect(row.locator(".take-back")).to_have_count(0)
    offence = page.locator(f'li.offence[data-team="{west}"]')
    expect(offence.locator(".ahead")).to_have_text(
        "Week 3 (forfeited ahead) becomes offence 1 when it starts: loss of the games.")
    expect(offence.locator(".take-back button")).to_have_text(["Take back week 3"])
    row.scroll_into_view_if_needed()
    shot(page, "league-forfeit-taken-back", full_page=False)

    # The captain's phone: week 3 taken back, then announced again (the substitute fell
    # through).
    phone = browser.new_context(**PHONE, base_url=base_url).new_page()
    phone.goto(f"/e/{league.id}/team/{west}#key={captain}")
    week3 = phone.locator('.team-week[data-week="3"]')
    expect(week3.locator(".forfeit")).to_contain_text(
        "You forfeit games 1, 2, 3, announced before the night")
    expect(phone.locator('.team-week[data-week="2"] .forfeit')).to_have_count(0)
    back = week3.locator(".take-back")
    expect(back).to_have_text("Take back: we can play")
    box = back.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 48, box
    back.click()
    expect(back).to_have_text("Tap again: we play week 3")
    shot(phone, "captain-take-back", full_page=False)
    back.click()
    expect(phone.locator(".msg-ok")).to_contain_text(
        "West play Week 3 after all: the forfeit announced for it is taken back")
    expect(week3.locator(".forfeit")).to_have_count(0)
    cant = week3.locator(".cant-come")
    cant.click()
    expect(cant).to_contain_text("Tap again")
    cant.click()
    expect(week3.locator(".forfeit")).to_contain_text("announced before the night")
    expect(week3.locator(".take-back")).to_be_visible()

    # Weeks 1 and 2 played, week 3 opened: the forfeit stands, nobody can take it back.
    league.seat_and_play_week(1)
    league.seat_and_play_week(2)
    click(page, "Refresh")
    click(page, "Open Week 3")
    week3_desk = page.locator(f'details.week[data-week="3"] li.match[data-match="{west_match(3)}"]')
    expect(week3_desk.locator(".forfeit")).to_have_text(
        "West forfeited ahead of the night: Offence 1: loss of the games.")
    expect(week3_desk.locator(".take-back")).to_have_count(0)
    expect(offence.locator(".take-back")).to_have_count(0)
    phone.reload()
    expect(week3.locator(".forfeit")).to_contain_text("announced before the night")
    expect(week3.locator(".take-back")).to_have_count(0)
    week2_games = [g["end"] for g in league.round(2)["tables"][0]["games"]] + \
        [g["end"] for g in league.round(2)["tables"][1]["games"]]
    assert "forfeit" not in week2_games, "West played week 2"
    phone.context.close()
