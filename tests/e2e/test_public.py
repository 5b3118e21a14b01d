"""Players and the venue: the live leaderboard, a scoresheet, and projector mode."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .steps import (
    join_with_pin,
    open_game,
    side_names,
    tap_hand,
    wait_for_hands,
    wait_until,
    wec_event,
)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}}


def row(page, name):
    return page.locator("ol.board:not(.pinned ol) > li.board-row").filter(
        has=page.locator(".name", has_text=re.compile(f"^{name}$")))


def _server_board_shows(event, name: str, total: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        rows = event.api.get(f"/api/events/{event.id}/leaderboard")["rows"]
        if any(r["name"] == name and r["total"] == total for r in rows):
            return
        assert time.monotonic() < deadline, f"the server's board never showed {name} {total}"
        time.sleep(0.1)


def test_a_second_phones_leaderboard_changes_within_5_seconds_without_a_reload(
        page, browser, base_url, event, shot):
    game_id = event.game_id(0)
    game = event.game(game_id)
    maker_player = game["sides"]["A"]["players"][0]["name"]

    viewer_context = browser.new_context(**PHONE, base_url=base_url)
    viewer = viewer_context.new_page()
    viewer.goto(f"/e/{event.id}/board")
    expect(viewer.locator("ol.board > li.board-row")).to_have_count(8)
    expect(viewer.locator(".updated")).to_contain_text("updated")
    viewer.evaluate("window.stillTheSamePage = true")
    expect(row(viewer, maker_player).locator(".total")).to_have_text(re.compile(r"^0"))

    join_with_pin(page, event)
    open_game(page, event, game_id)
    tap_hand(page, side_names(game)["A"], 5)
    wait_for_hands(event, game_id, 1)
    # The phone's part of the promise: once the server's board counts the hand (its build
    # time is the benchmarks' to measure, bench/), the open page shows it on its next ask,
    # without a reload, and it asks 3 s after each answer, so a change shows within about
    # 5 s. Timed by the test's clock, the CI machine's own slowness failed it (from the tap,
    # and once from the server's board, when an answer on the loaded two cores took longer):
    # so the update is awaited across two asks, and the 3 s is read from the page's own clock.
    _server_board_shows(event, maker_player, 2)
    expect(row(viewer, maker_player).locator(".total")).to_have_text(re.compile(r"^2"),
                                                                     timeout=12_000)
    assert viewer.evaluate("window.stillTheSamePage") is True
    # Between an answer and the next ask, the page's own timing (Resource Timing): 3 s.
    waits = viewer.evaluate("""() => {
        const asks = performance.getEntriesByType('resource')
            .filter((e) => e.name.includes('/leaderboard'));
        return asks.slice(1).map((e, i) => e.startTime - asks[i].responseEnd);
    }""")
    assert waits, "the page asked for the board only once"
    assert 2900 <= sorted(waits)[len(waits) // 2] <= 4500, waits  # (a loaded CPU fires timers late)
    shot(viewer, "leaderboard")
    viewer_context.close()


def test_the_leaderboard_searches_follows_and_links_the_scoresheet(page, event, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 5), ("A", 4)]:
        event.hand(game_id, maker, tricks)
    game = event.game(game_id)
    player = game["sides"]["B"]["players"][1]
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("ol.board > li.board-row")).to_have_count(8)
    expect(page.locator(".rounds").first).to_contain_text("R1")

    page.fill("#board-search", player["name"][:3].lower())
    expect(page.locator("ol.board > li.board-row")).to_have_count(1)
    page.get_by_role("button", name=f"Follow {player['name']}").click()
    page.fill("#board-search", "")
    pinned = page.locator(".pinned li.board-row")
    expect(pinned).to_have_count(1)
    expect(pinned.locator(".name")).to_have_text(player["name"])
    shot(page, "leaderboard-following")
    page.reload()
    expect(page.locator(".pinned li.board-row .name")).to_have_text(player["name"])

    pinned.get_by_role("link", name=re.compile("Scoresheet")).click()
    expect(page).to_have_url(re.compile(rf"/e/{event.id}/players/{player['player_id']}$"))
    sheet = event.api.get(f"/api/events/{event.id}/players/{player['player_id']}/scoresheet")
    expect(page.locator(".sheet-table tbody tr")).to_have_count(len(sheet["rounds"]))
    expect(page.locator(".sheet-table tbody tr").first).to_contain_text(
        sheet["rounds"][0]["partner"])
    expect(page.locator(".sheet-total")).to_contain_text(str(sheet["total"]))
    shot(page, "scoresheet")


@pytest.mark.browser_context_args(viewport={"width": 1920, "height": 1080}, is_mobile=False,
                                  has_touch=False, device_scale_factor=1)
def test_projector_mode_shows_large_standings_the_clock_and_a_qr_code(page, api, shot):
    from .conftest import EventSetup

    event = EventSetup(api, players=16, name="Saturday progressive")
    event.hand(event.game_id(0), "A", 3)  # the round has started: the standings show
    page.goto(f"/e/{event.id}/projector")
    expect(page.locator(".proj-title")).to_have_text("Standings")
    rows = page.locator(".proj-row")
    expect(rows).to_have_count(16)  # one page: the screen holds them all
    expect(page.locator(".proj-name")).to_have_text("Saturday progressive")
    expect(page.locator(".proj-clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator(".proj-page")).to_have_text("")
    qr = page.locator(".proj-qr img")
    expect(qr).to_be_visible()
    wait_until(page, "document.querySelector('.proj-qr img').naturalWidth > 0")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.proj-row'))"
                         ".fontSize)")
    assert size >= 30
    scroll = page.evaluate("[document.documentElement.scrollWidth, document.documentElement"
                           ".scrollHeight, innerWidth, innerHeight]")
    assert scroll[0] <= scroll[2] and scroll[1] <= scroll[3], scroll
    shot(page, "projector", full_page=False)


def test_a_team_events_leaderboard_links_each_members_scoresheet(page, api):
    _, event, _ = api.call("POST", "/api/events", {"name": "Teams night", "preset": "teams"},
                           expect=201)
    key = event["organizer_key"]
    for n in range(4):
        api.call("POST", f"/api/events/{event['id']}/teams",
                 {"name": f"Team {n + 1}", "players": [f"P{n}a", f"P{n}b"],
                  "checked_in": True}, key=key, expect=201)
    api.call("POST", f"/api/events/{event['id']}/rounds", {"number": 1}, key=key, expect=201)
    page.goto(f"/e/{event['id']}/board")
    first = page.locator("ol.board > li.board-row").first
    expect(first.locator(".members")).to_contain_text(" & ")
    expect(first.locator(".links a")).to_have_count(2)
    first.locator(".links a").first.click()
    expect(page.locator(".page-title")).to_have_text(re.compile(r"^P\da$"))


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
    expect(section.locator(".cup-total")).to_have_text("$6 in the cup", timeout=12_000)
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


def test_a_finished_nights_board_says_its_results_are_final_and_runs_no_clock(page, api, shot):
    from .conftest import EventSetup

    event = EventSetup(api, players=8, name="Closing night")
    api.call("POST", f"/api/rounds/{event.round['id']}/clock", {}, key=event.organizer_key,
             expect=200)
    event.hand(event.game_id(0), "A", 3)
    page.goto(f"/e/{event.id}/board")
    clock = page.locator(".board-tools .clock")
    expect(clock).to_have_text(re.compile(r"^Round 1 · \d+:\d\d left$"))
    api.call("PATCH", f"/api/events/{event.id}", {"status": "finished"},
             key=event.organizer_key, expect=200)
    expect(clock).to_have_text("Final results", timeout=10000)
    # It stays so: no countdown comes back with the screen's next redraw (the "updated" line
    # changes with it).
    before = page.locator(".updated").inner_text()
    wait_until(page, f"document.querySelector('.updated').textContent !== {before!r}")
    expect(clock).to_have_text("Final results")
    assert "left" not in page.locator("main").inner_text()
    shot(page, "leaderboard-final")


def _club_night(api, names: list[str]) -> tuple[dict, str, dict]:
    """A club's night of `names`, round 1 seated; the club (with its key) and the people."""
    import uuid

    _, club, _ = api.call("POST", "/api/clubs", {"name": "Link club",
                                                 "slug": f"lk-{uuid.uuid4().hex[:8]}"},
                          expect=201)
    key = club["club_key"]
    _, night, _ = api.call("POST", f"/api/clubs/{club['id']}/events",
                           {"name": "April", "preset": "progressive"}, key=key, expect=201)
    for name in names:
        api.call("POST", f"/api/events/{night['id']}/players",
                 {"name": name, "checked_in": True}, key=key, expect=201)
    api.call("POST", f"/api/events/{night['id']}/rounds", {"number": 1}, key=key, expect=201)
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club['id']}/people")}
    return club, night, people


def test_each_name_on_the_board_opens_the_profile_or_else_the_scoresheet(page, api, shot):
    names = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss",
             "Gus Hill", "Hal Ford"]
    club, night, people = _club_night(api, names)
    api.call("PATCH", f"/api/clubs/{club['id']}/people/{people['Cy Young']}",
             {"private": True}, key=club["club_key"], expect=200)
    players = {p["name"]: p["id"] for p in api.get(f"/api/events/{night['id']}/players")}
    page.goto(f"/e/{night['id']}/board")
    expect(page.locator("ol.board > li.board-row")).to_have_count(8)
    hrefs = dict(page.eval_on_selector_all(
        "ol.board > li.board-row .name", "els => els.map((a) => [a.textContent, "
        "a.getAttribute('href')])"))
    slug = club["slug"]
    assert hrefs == {n: (f"/e/{night['id']}/players/{players[n]}" if n == "Cy Young"
                         else f"/c/{slug}/people/{people[n]}") for n in names}, hrefs
    # One tap from the board to the profile.
    row(page, "Ann Baker").locator("a.name").click()
    expect(page).to_have_url(re.compile(rf"/c/{slug}/people/{people['Ann Baker']}$"))
    expect(page.locator("h1.page-title")).to_have_text("Ann Baker")
    # A private person's name opens their scoresheet instead.
    page.go_back()
    row(page, "Cy Young").locator("a.name").click()
    expect(page).to_have_url(re.compile(rf"/e/{night['id']}/players/{players['Cy Young']}$"))
    expect(page.locator(".page-title")).to_have_text("Cy Young")


def test_outside_a_club_each_name_opens_the_scoresheet(page, event):
    page.goto(f"/e/{event.id}/board")
    links = page.locator("ol.board > li.board-row a.name")
    expect(links).to_have_count(8)
    hrefs = links.evaluate_all("els => els.map((a) => a.getAttribute('href'))")
    assert sorted(hrefs) == sorted(f"/e/{event.id}/players/{p['id']}" for p in event.players)


def test_low_score_at_a_400_player_wec_says_not_yet_then_sums_up_a_long_tie(page, api, shot):
    """Before the first game is over nobody has earned Low Score: one line, not 400 names;
    after it, the 398 level on nothing (its losers scored none either) are summed up in one
    line too."""
    _, made, _ = api.call("POST", "/api/events", {"name": "WEC 400", "preset": "wec-singles"},
                          expect=201)
    key = made["organizer_key"]
    csv = "name,checked_in\n" + "\n".join(f"Player {n:03d},yes" for n in range(400))
    api.call("POST", f"/api/events/{made['id']}/import", {"csv": csv}, key=key, expect=201)
    _, first, _ = api.call("POST", f"/api/events/{made['id']}/rounds", {"number": 1},
                           key=key, expect=201)
    page.goto(f"/e/{made['id']}/board")
    low = page.locator(".award-list dd").first
    expect(low).to_have_text("Not yet: no game is over.", timeout=15000)
    line = low.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || "
                        "parseFloat(getComputedStyle(el).fontSize) * 1.5")
    assert low.bounding_box()["height"] <= 1.5 * line
    low.scroll_into_view_if_needed()
    shot(page, "leaderboard-wec-400-low-score-not-yet", full_page=False)

    game = first["tables"][0]["games"][0]["id"]
    for n in range(12):
        api.call("POST", f"/api/games/{game}/hands", {"id": f"low-400-{n}", "maker": "A",
                                                      "tricks": 3}, key=key, expect=(200, 201))
    expect(low).to_have_text(re.compile(r"^398 tied: Player \d{3}, Player \d{3}, Player \d{3} "
                                        r"and 395 more · 0 points$"), timeout=15000)
    assert low.bounding_box()["height"] <= 3 * line  # a line or two on a phone, not 400 names
    low.scroll_into_view_if_needed()
    shot(page, "leaderboard-wec-400-low-score-tie", full_page=False)


def test_a_board_kept_since_earlier_counts_down_from_the_rounds_end_not_its_old_seconds(page,
                                                                                        event):
    """A board is served from the cache until something changes, so its seconds_left can be
    minutes old: the phone never counts more time than until the round's end (ends_at)."""
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("ol.board > li.board-row")).to_have_count(8)
    left = page.evaluate("""async () => {
        const {roundClock} = await import('/js/screens/clock.js');
        const clock = roundClock();
        const ends = new Date(Date.now() + 60 * 1000).toISOString();
        // Built 24 minutes ago, when 25 minutes were left: one minute is left now.
        clock.update({minutes: 25, seconds_left: 25 * 60, ends_at: ends});
        const bounded = clock.secondsLeft();
        clock.update({minutes: 25, seconds_left: 30, ends_at: ends});  // fresh, and sooner
        return [bounded, clock.secondsLeft()];
    }""")
    assert 55 <= left[0] <= 60 and left[1] == 30, left
