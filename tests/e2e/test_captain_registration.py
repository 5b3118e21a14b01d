"""A league team's captain on a phone (390x844): opens the registration link (the QR the
organizer prints), registers the team with a substitute, lands on the team page, changes the
roster, and, once the season is scheduled, says the team cannot come in a week; the opponent's
team page shows that forfeit before the night. The organizer's League section shows the
registration link and the forfeit announced ahead."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE

pytestmark = pytest.mark.browser


def _league(api):
    _, made, _ = api.call("POST", "/api/events", {"name": "Tuesday league", "preset": "league",
                                                  "time_zone": "America/Toronto"}, expect=201)
    eid, key = made["id"], made["organizer_key"]
    for name in ("Aces", "Bowers", "Clubs"):
        api.call("POST", f"/api/events/{eid}/teams",
                 {"name": name, "players": [f"{name} 1", f"{name} 2"]}, key=key, expect=201)
    _, reg, _ = api.call("PUT", f"/api/events/{eid}/registration",
                         {"closes": "2100-01-01T00:00"}, key=key, expect=200)
    return made, reg["link"]


def test_a_captain_registers_a_team_on_a_phone_and_announces_a_forfeit(
        page: Page, browser, base_url, api, shot):
    made, link = _league(api)
    eid, key = made["id"], made["organizer_key"]

    page.goto(link)
    expect(page.locator("h1")).to_have_text("Register a team for Tuesday league")
    expect(page.locator(".reg-state")).to_contain_text("Team registration is open until 2100")
    page.get_by_label("Team name").fill("Dealers")
    page.get_by_label("Player 1").fill("Dee Ames")
    page.get_by_label("Player 2", exact=True).fill("Dan Bly")
    page.get_by_label(re.compile("Substitutes")).fill("Sid Cole")
    shot(page, "captain-register")
    page.get_by_role("button", name="Register the team").click()
    done = page.locator(".reg-done")
    expect(done).to_contain_text("Dealers is registered")
    expect(done.get_by_label("Your team link")).to_have_value(re.compile(r"/team/\d+#key=euk_"))
    shot(page, "captain-registered")

    # The team page: this phone kept the key, so the captain can change the roster.
    page.get_by_role("link", name="Open my team page").click()
    expect(page.locator("h1")).to_have_text("Dealers")
    expect(page.locator(".roster-state")).to_contain_text("until week 2 is over")
    page.get_by_label("Substitutes, one a line").fill("Sid Cole\nSue Dunn")
    page.get_by_role("button", name="Save the roster").click()
    expect(page.get_by_text("Substitutes: Sid Cole, Sue Dunn")).to_be_visible()

    # A registered name twice is refused, with the reason, and nothing changes.
    page.get_by_label("Substitutes, one a line").fill("Aces 1")
    page.get_by_role("button", name="Save the roster").click()
    expect(page.locator(".msg-error")).to_contain_text("already registered")
    expect(page.get_by_text("Substitutes: Sid Cole, Sue Dunn")).to_be_visible()

    # The season is scheduled: the captain says the team cannot come in its first match week.
    api.call("POST", f"/api/events/{eid}/season",
             {"first_night": "2027-01-05", "start_time": "19:00"}, key=key, expect=201)
    page.reload()
    week = page.locator(".team-week", has=page.locator(".cant-come")).first
    number = week.get_attribute("data-week")
    opponent = re.search(r"v (\w+)", week.inner_text()).group(1)
    week.locator(".cant-come").click()
    expect(week.locator(".cant-come")).to_contain_text("Tap again")
    week.locator(".cant-come").click()
    expect(page.locator(".msg-ok")).to_contain_text(f"Week {number}: forfeit announced. "
                                                     f"{opponent} see it now.")
    mine = page.locator(f'.team-week[data-week="{number}"]')
    expect(mine.locator(".forfeit")).to_contain_text(
        "You forfeit games 1, 2, 3, announced before the night")
    # Not an offence before its night: the page says what it becomes when the week starts.
    expect(page.locator(".offences-ahead")).to_have_text(
        f"Week {number} (forfeited ahead) becomes offence 1 when it starts: loss of the games.")
    shot(page, "captain-team-page")

    # The opponent's page shows it before the night.
    teams = api.get(f"/api/events/{eid}/teams")
    theirs = next(t["id"] for t in teams if t["name"] == opponent)
    other = browser.new_context(**PHONE, base_url=base_url).new_page()
    other.goto(f"/e/{eid}/team/{theirs}")
    expect(other.locator(f'.team-week[data-week="{number}"] .forfeit')).to_contain_text(
        "Dealers forfeits games 1, 2, 3, announced before the night")
    expect(other.locator(".cant-come")).to_have_count(0)  # no key on this phone

    # The organizer's League section: the registration link and the forfeit announced ahead.
    desk = browser.new_context(**PHONE, base_url=base_url).new_page()
    desk.goto(f"/e/{eid}/organize/league#key={key}")
    expect(desk.get_by_role("textbox", name="Team registration link (print its QR)")
           ).to_have_value(link)
    desk.locator(f'details.week[data-week="{number}"] summary').click()
    expect(desk.locator(f'details.week[data-week="{number}"] .forfeit')).to_contain_text(
        "Dealers forfeited ahead of the night")
    shot(desk, "league-captains-console")


def test_the_organizer_offers_divisions_and_the_captain_picks_one(page: Page, browser, base_url,
                                                                   api, shot):
    made, link = _league(api)
    eid, key = made["id"], made["organizer_key"]
    desk = browser.new_context(**PHONE, base_url=base_url).new_page()
    desk.goto(f"/e/{eid}/organize/league#key={key}")
    desk.get_by_label("Divisions captains choose from (comma between)").fill("Upper, Lower")
    desk.get_by_role("button", name="Save", exact=True).click()
    expect(desk.get_by_label("Divisions captains choose from (comma between)")
           ).to_have_value("Upper, Lower")
    desk.context.close()

    page.goto(link)
    page.get_by_label("Team name").fill("Dealers")
    page.get_by_label("Player 1").fill("Dee Ames")
    page.get_by_label("Player 2", exact=True).fill("Dan Bly")
    division = page.get_by_label("Division (skill level)")
    expect(division.locator("option")).to_have_text(["Choose…", "Upper", "Lower"])
    # Not chosen: the form does not go (the choice is required), nothing is registered.
    page.get_by_role("button", name="Register the team").click()
    expect(page.locator(".reg-done")).to_have_count(0)
    assert [t["name"] for t in api.get(f"/api/events/{eid}/teams")] == \
        ["Aces", "Bowers", "Clubs"]
    division.select_option("Lower")
    shot(page, "captain-register-division")
    page.get_by_role("button", name="Register the team").click()
    expect(page.locator(".reg-done")).to_contain_text("Dealers is registered in Lower")
    page.get_by_role("link", name="Open my team page").click()
    expect(page.locator("h1")).to_have_text("Dealers")
    expect(page.locator(".hint").first).to_contain_text("Lower")
    team = next(t for t in api.get(f"/api/events/{eid}/teams") if t["name"] == "Dealers")
    assert team["division"] == "Lower"
