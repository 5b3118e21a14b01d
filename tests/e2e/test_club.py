"""A club's year in the browser, on a phone: the club made at /clubs/new (its key shown once,
kept on this device), two nights made from the club page, a near name decided in the
console ("Ann B." is Ann Baker), a series over the nights, its live standings, and a player's
profile with its charts; then the series on a projector."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]


def _play(api, event: dict, key: str) -> None:
    """Seat round 1 and play 8 hands at each table (side A wins 5-3 everywhere)."""
    _, round_, _ = api.call("POST", f"/api/events/{event['id']}/rounds", {"number": 1},
                            key=key, expect=201)
    for table in round_["tables"]:
        for maker, tricks in [("A", 3), ("B", 3), ("A", 5), ("B", 1), ("A", 3), ("B", 3),
                              ("A", 1), ("B", 4)]:
            api.call("POST", f"/api/games/{table['games'][0]['id']}/hands",
                     {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": tricks},
                     key=key, expect=201)


def test_a_club_runs_two_nights_a_series_and_shows_a_profile(page: Page, api, shot):
    slug = f"club-{uuid.uuid4().hex[:6]}"
    page.goto("/clubs/new")
    page.fill("#club-name", "Loner Seekers")
    page.fill("#club-slug", slug)
    page.get_by_role("button", name="Create the club").click()
    expect(page.locator(".created")).to_contain_text("shown only now")
    expect(page.locator(".created .secret")).to_contain_text(f"/c/{slug}/manage#key=euk_")
    club_key = page.locator(".created .secret").inner_text().split("#key=")[1]
    page.get_by_role("link", name="Manage the club").click()

    # The first night, made from the club page, opens its console with the event's key.
    page.fill("#club-event-name", "January")
    page.select_option("#club-event-preset", "progressive")
    page.get_by_role("button", name="Create the event").click()
    expect(page.locator("h1.page-title")).to_have_text("Event")
    january = int(page.url.split("/e/")[1].split("/")[0])
    _, jan, _ = api.call("GET", f"/api/events/{january}")
    _, keys, _ = api.call("GET", f"/api/events/{january}/keys", key=club_key)
    org = next(k for k in keys if k["role"] == "organizer")
    assert org and jan["name"] == "January"
    for name in NAMES:
        api.call("POST", f"/api/events/{january}/players", {"name": name, "checked_in": True},
                 key=club_key, expect=201)
    _play(api, jan, club_key)

    # February: "Ann B." is near Ann Baker; the console asks, the organizer says who.
    page.goto(f"/c/{slug}/manage")
    page.fill("#club-event-name", "February")
    page.select_option("#club-event-preset", "progressive")
    page.get_by_role("button", name="Create the event").click()
    expect(page.locator("h1.page-title")).to_have_text("Event")
    february = int(page.url.split("/e/")[1].split("/")[0])
    page.goto(f"/e/{february}/organize/players")
    page.fill("#paste-list", "\n".join(["Ann B.", *NAMES[1:]]))
    page.locator("#paste-here").check()
    page.get_by_role("button", name="Add the list").click()
    decide = page.locator(".decide")
    expect(decide).to_contain_text("Ann B.")
    expect(page.locator(".person")).to_have_count(0)  # nobody was registered on a guess
    shot(page, "club-decide-who")
    decide.get_by_label("Same person as Ann Baker").check()
    decide.get_by_role("button", name="Register with these choices").click()
    expect(page.locator(".counts")).to_have_text("8 registered · 8 checked in · 0 withdrawn")
    _, feb, _ = api.call("GET", f"/api/events/{february}")
    _play(api, feb, club_key)
    _, club, _ = api.call("GET", f"/api/clubs/by-slug/{slug}")
    ann = next(p for p in club["people"] if p["name"] == "Ann Baker")
    assert ann["events"] == 2 and len(club["people"]) == 8

    # A series over both nights, made on the manage page.
    page.goto(f"/c/{slug}/manage")
    page.fill("#series-name", "2027")
    page.check(f"#series-event-{january}")
    page.check(f"#series-event-{february}")
    page.get_by_role("button", name="Create the series").click()
    page.get_by_role("link", name="2027").click()
    rows = page.locator(".series-row")
    expect(rows).to_have_count(8)
    _, club, _ = api.call("GET", f"/api/clubs/by-slug/{slug}")
    _, table, _ = api.call("GET", f"/api/clubs/{club['id']}/series/{club['series'][0]['id']}")
    first = table["rows"][0]
    expect(rows.first.locator(".name")).to_have_text(first["name"])
    total = first["total"]
    expect(rows.first.locator(".total")).to_have_text(
        str(int(total)) if total == int(total) else f"{total:.1f}")
    rows.first.locator(".series-line").click()
    expect(rows.first.locator(".series-results li")).to_have_count(3)  # two nights + Profile
    shot(page, "club-series")

    # Ann's profile: her two nights, the statistics the hands give, and the charts.
    page.goto(f"/c/{slug}/people/{ann['id']}")
    expect(page.locator("h1.page-title")).to_have_text("Ann Baker")
    _, profile, _ = api.call("GET", f"/api/clubs/{club['id']}/people/{ann['id']}")
    assert profile["hands_counted"] == 16
    expect(page.locator(".card:not(.rating-card)").first).to_contain_text(
        "From 16 hands entered hand by hand")  # the rating card may come first, loaded later
    expect(page.locator(".figure", has_text="make %").locator(".figure-value")).to_have_text(
        f"{round(profile['stats']['make_pct'])}%")
    # Her points and hands by night, and (loaded after them) her rating over the nights.
    expect(page.locator("svg.chart:not(.rating-chart)")).to_have_count(2)
    expect(page.locator("svg.rating-chart")).to_have_count(1)
    expect(page.locator(".profile-events tbody tr")).to_have_count(2)
    prizes = sum(e["prize"] for e in profile["events"])
    expect(page.locator(".profile-events .prize-mark")).to_have_count(prizes)
    box = page.locator("svg.chart").first.bounding_box()
    assert box["width"] <= 390 and box["height"] > 80
    shot(page, "club-profile")

    # From a night's scoresheet, one tap to the profile.
    ann_feb = next(p for p in api.get(f"/api/events/{february}/players")
                   if p["person_id"] == ann["id"])
    page.goto(f"/e/{february}/players/{ann_feb['id']}")
    page.get_by_role("link", name="Profile and statistics").click()
    expect(page.locator("h1.page-title")).to_have_text("Ann Baker")

    # The public club page lists the nights, the series and the players.
    page.goto(f"/c/{slug}")
    expect(page.locator(".club-people li")).to_have_count(8)
    expect(page.get_by_role("link", name="2027")).to_be_visible()


@pytest.mark.browser_context_args(viewport={"width": 1920, "height": 1080}, is_mobile=False,
                                  has_touch=False, device_scale_factor=1)
def test_the_series_on_a_projector_uses_the_screen(page: Page, api, shot):
    _, made, _ = api.call("POST", "/api/clubs", {"name": "Big Club",
                                                 "slug": f"big-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key = made["club_key"]
    _, event, _ = api.call("POST", f"/api/clubs/{made['id']}/events",
                           {"name": "Night", "preset": "progressive"}, key=key, expect=201)
    api.call("POST", f"/api/events/{event['id']}/import",
             {"csv": "name,checked_in\n" + "\n".join(f"Player {n:03d},yes" for n in range(60))},
             key=key, expect=201)
    _, series, _ = api.call("POST", f"/api/clubs/{made['id']}/series",
                            {"name": "Season", "event_ids": [event["id"]]}, key=key,
                            expect=201)
    page.goto(f"/c/{made['slug']}/series/{series['id']}/projector")
    rows = page.locator(".series-projector-row")
    expect(rows).to_have_count(36)
    expect(page.locator(".series-projector-page")).to_have_text("Page 1 of 2")
    size = rows.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 28
    last = rows.last.bounding_box()
    assert last["y"] + last["height"] <= 1080
    shot(page, "club-series-projector", full_page=False)


def test_the_organizer_chooses_awards_from_the_hands(page: Page, event, shot):
    """Most loners made, most marches, best make %: ticked on Standings, won from the hands."""
    table = event.tables[0]
    game = table["games"][0]["id"]
    for maker, tricks, alone in [("A", 5, True), ("A", 3, False), ("B", 5, False),
                                 ("A", 4, False), ("A", 3, False), ("A", 3, False)]:
        body = {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": tricks, "alone": alone}
        if alone:
            body["loner_seat"] = 1
        event.api.call("POST", f"/api/games/{game}/hands", body, key=event.organizer_key,
                       expect=201)
    page.goto(f"/e/{event.id}/organize/standings#key={event.organizer_key}")
    page.get_by_label("Most loners made").check()
    page.get_by_label("Best make % (at least 5 calls)").check()
    winners = page.locator(".hand-awards")
    seat1 = next(s["name"] for s in table["seats"] if s["seat"] == 1)
    expect(winners).to_contain_text(f"Most loners made1: {seat1}")
    expect(winners).to_contain_text("Best make %100%")
    _, saved, _ = event.api.call("GET", f"/api/events/{event.id}")
    assert saved["hand_awards"] == ["most-loners", "best-make-pct"]
    page.reload()
    expect(page.get_by_label("Most loners made")).to_be_checked()
    expect(page.get_by_label("Most marches")).not_to_be_checked()
    shot(page, "console-hand-awards")


def test_a_profile_and_a_series_read_well_on_a_390px_phone(page: Page, api, shot):
    """Long night names do not push the profile's events table past the screen; the series
    has its columns' headings; the charts' words are at least 12 px."""
    _, made, _ = api.call("POST", "/api/clubs", {"name": "Long Names Club",
                                                 "slug": f"ln-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    key, slug = made["club_key"], made["slug"]
    nights = []
    for name in ["The Loner Seekers' Annual Christmas Charity Euchre Tournament",
                 "Midsummer Progressive Euchre Championship Qualifier (Round Two)",
                 "Tuesday"]:
        _, night, _ = api.call("POST", f"/api/clubs/{made['id']}/events",
                               {"name": name, "preset": "progressive"}, key=key, expect=201)
        for player in NAMES:
            api.call("POST", f"/api/events/{night['id']}/players",
                     {"name": player, "checked_in": True}, key=key, expect=201)
        _play(api, night, key)
        nights.append(night["id"])
    _, series, _ = api.call("POST", f"/api/clubs/{made['id']}/series",
                            {"name": "Season", "event_ids": nights}, key=key, expect=201)
    _, club, _ = api.call("GET", f"/api/clubs/by-slug/{slug}")
    ann = next(p for p in club["people"] if p["name"] == "Ann Baker")

    page.goto(f"/c/{slug}/people/{ann['id']}")
    expect(page.locator(".profile-events tbody tr")).to_have_count(3)
    widths = page.evaluate("""() => {
        const table = document.querySelector('.profile-events');
        const card = table.closest('.card');
        return {page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
                table: [table.scrollWidth, table.clientWidth, table.getBoundingClientRect().right],
                card: [card.scrollWidth, card.clientWidth]};
    }""")
    assert widths["page"][0] <= widths["page"][1] == 390, widths
    assert widths["card"][0] <= widths["card"][1], widths
    assert widths["table"][2] <= 390, widths
    # The chart's words: 12 px or more as drawn (the picture is scaled to the phone).
    sizes = page.eval_on_selector_all("svg.chart text", """texts => texts.map((t) => {
        const svg = t.ownerSVGElement;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [t.textContent, parseFloat(getComputedStyle(t).fontSize),
                parseFloat(getComputedStyle(t).fontSize) * scale];
    })""")
    assert sizes and all(css >= 12 and drawn >= 12 for _, css, drawn in sizes), sizes
    page.locator(".profile-events").scroll_into_view_if_needed()
    shot(page, "club-profile-390")

    page.goto(f"/c/{slug}/series/{series['id']}")
    rows = page.locator(".series-row")
    expect(rows).to_have_count(8)
    head = page.locator(".series-head")
    expect(head).to_be_visible()
    expect(head.locator("span")).to_have_text(["Place", "Player", "Events", "Points"])
    # Each heading stands over its column.
    lines = page.evaluate("""() => ['place', 'name', 'events', 'total'].map((c) => [
        document.querySelector(`.series-head .${c}`).getBoundingClientRect(),
        document.querySelector(`.series-row .series-line .${c}`).getBoundingClientRect()])
        .map(([a, b]) => [Math.round(a.left), Math.round(b.left), Math.round(a.right),
                          Math.round(b.right)])""")
    for head_left, row_left, _, _ in lines[:2]:  # place, player: left-aligned
        assert abs(head_left - row_left) <= 1, lines
    for _, _, head_right, row_right in lines[2:]:  # events, points: right-aligned
        assert abs(head_right - row_right) <= 1, lines
    expect(rows.first.locator(".events")).to_have_text("3")
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    shot(page, "club-series-390")
