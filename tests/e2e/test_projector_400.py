"""The projector at a 400-player event, on a 1920x1080 screen: where everyone sits while the
round waits to start, then the standings, each in columns over the whole screen, at least 30
rows a page in type readable from the back of the hall, the pages cycling. And between a WEC
event's games, the next game's seats."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Api, EventSetup

pytestmark = pytest.mark.browser

PROJECTOR = {"viewport": {"width": 1920, "height": 1080}, "is_mobile": False,
             "has_touch": False, "device_scale_factor": 1}
FIRST = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal", "Ivy", "Jack", "Kim",
         "Lou", "Max", "Ned", "Ola", "Pat", "Quinn", "Rosa", "Sam", "Tess"]
LAST = ["Abbott", "Baker", "Chen", "Dubois", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
        "Jones", "Kowalski", "Lopez", "Murphy", "Nguyen", "Olsen", "Patel", "Quint", "Rossi",
        "Smith", "Tanaka"]


def big_event(api: Api, players: int = 400) -> tuple[dict, dict]:
    """A progressive event with `players` checked in (one CSV import) and round 1 seated."""
    _, event, _ = api.call("POST", "/api/events", {"name": "Provincial open",
                                                   "preset": "progressive"}, expect=201)
    key = event["organizer_key"]
    names = [f"{first} {last}" for last in LAST for first in FIRST][:players]
    csv = "name,checked_in\n" + "\n".join(f"{n},yes" for n in names)
    api.call("POST", f"/api/events/{event['id']}/import", {"csv": csv}, key=key, expect=201)
    _, round_one, _ = api.call("POST", f"/api/events/{event['id']}/rounds", {"number": 1},
                               key=key, expect=201)
    return event, round_one


def layout(page: Page) -> dict:
    """What the screen shows: rows on the page, the grid's rows and columns, the type size,
    the rows' distinct left edges, and whether everything is inside the screen."""
    return page.evaluate("""() => {
        const list = document.querySelector('.proj-rows');
        const rows = [...list.querySelectorAll('.proj-row')];
        const boxes = rows.map((r) => r.getBoundingClientRect());
        return {
            count: rows.length,
            rows: Number(list.style.getPropertyValue('--rows')),
            cols: Number(list.style.getPropertyValue('--cols')),
            font: parseFloat(getComputedStyle(rows[0]).fontSize),
            // The smallest type of any words shown in a row.
            smallest: Math.min(...rows.flatMap((r) => [...r.querySelectorAll('span')])
                .filter((el) => el.textContent.trim() && !el.closest('.sr-only'))
                .map((el) => parseFloat(getComputedStyle(el).fontSize))),
            lefts: [...new Set(boxes.map((b) => Math.round(b.left)))].length,
            inside: boxes.every((b) => b.bottom <= innerHeight && b.right <= innerWidth
                                && b.top >= 0 && b.left >= 0),
            lowest: Math.max(...boxes.map((b) => b.bottom)),
            names: rows.map((r) => r.querySelector('.name').textContent),
            // A name the screen cuts (its text wider than its box).
            cut: rows.map((r) => r.querySelector('.name'))
                .filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent),
            texts: rows.map((r) => r.textContent),
        };
    }""")


@pytest.mark.browser_context_args(**PROJECTOR)
def test_a_400_player_event_on_the_projector_fills_the_screen_in_columns(page, api, shot):
    event, round_one = big_event(api)
    eid, key = event["id"], event["organizer_key"]
    page.clock.install()  # the page's own timers, run on so the test need not sit through them
    page.goto(f"/e/{eid}/projector")

    # Round 1 is seated and no hand is in: where everyone sits, alphabetically.
    title = page.locator(".proj-title")
    expect(title).to_have_text(re.compile(r"where everyone sits$"))
    seen = layout(page)
    assert seen["count"] >= 30 and seen["count"] == seen["rows"] * seen["cols"], seen
    # Two or three columns of whole names: the seating's columns are as wide as its widest
    # row, which depends on the draw (a long name at table 100 makes it wider; three columns
    # of the standings below always fit).
    assert seen["cols"] >= 2 and seen["lefts"] == seen["cols"], "rows stand in columns"
    assert seen["cut"] == [], "every name whole"
    assert seen["font"] >= 28 and seen["smallest"] >= 28, seen
    assert seen["inside"] and seen["lowest"] > 1080 * 0.85, {k: seen[k] for k in (
        "inside", "lowest", "lefts")}
    assert seen["names"] == sorted(seen["names"], key=str.lower), "alphabetical"
    per_page = seen["count"]
    pages = math.ceil(400 / per_page)
    expect(page.locator(".proj-page")).to_have_text(f"Page 1 of {pages}")
    seat_of = {s["name"]: (t["table"], s["seat"]) for t in round_one["tables"]
               for s in t["seats"] if s["player_id"] is not None}
    first = seen["names"][0]
    table, seat = seat_of[first]
    assert seen["texts"][0] == f"{first}: table {table}, seat {seat}", seen["texts"][0]
    shot(page, "projector-400-seating", full_page=False)

    # A hand comes in: the round has started, the standings take over, in pages that cycle.
    game = round_one["tables"][0]["games"][0]["id"]
    api.call("POST", f"/api/games/{game}/hands", {"id": "proj-400-1", "maker": "A",
                                                  "tricks": 5}, key=key, expect=(200, 201))
    expect(title).to_have_text("Standings", timeout=10000)
    seen = layout(page)
    # (The seating pages may set whole names a little smaller, so hold a few more rows.)
    per_page = seen["count"]
    assert per_page >= 30 and seen["cols"] >= 3 and per_page == seen["rows"] * seen["cols"], seen
    assert seen["font"] >= 28 and seen["smallest"] >= 28 and seen["inside"], seen
    pages = math.ceil(400 / per_page)
    expect(page.locator(".proj-page")).to_have_text(f"Page 1 of {pages}")
    top = page.locator(".proj-row").first
    expect(top.locator(".total")).to_have_text("2")
    shot(page, "projector-400-standings", full_page=False)
    page.clock.fast_forward(10_000)  # a page stays up 10 s
    expect(page.locator(".proj-page")).to_have_text(f"Page 2 of {pages}")
    assert layout(page)["count"] == per_page


@pytest.mark.browser_context_args(**PROJECTOR)
def test_between_wec_games_the_projector_shows_where_everyone_sits_for_the_next(page, api,
                                                                                 shot):
    event = EventSetup(api, preset="wec-singles", players=12, name="WEC singles")
    for table in event.tables:
        for n in range(12):
            event.hand(table["games"][0]["id"], "A" if n < 7 else "B", 3)
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=event.organizer_key,
             expect=200)
    page.goto(f"/e/{event.id}/projector")
    title = page.locator(".proj-title")
    expect(title).to_have_text("Standings")
    # The next game is seated (its tables come from the schedule made at check-in).
    _, following, _ = api.call("POST", f"/api/events/{event.id}/rounds", {"number": 2},
                               key=event.organizer_key, expect=201)
    expect(title).to_have_text(f"{following['label']}: where everyone sits", timeout=10000)
    expected = sorted(((s["name"], t["table"], s["seat"]) for t in following["tables"]
                       for s in t["seats"] if s["player_id"] is not None),
                      key=lambda x: x[0].lower())
    rows = page.locator(".proj-row")
    expect(rows).to_have_count(12)
    assert rows.all_text_contents() == [f"{n}: table {t}, seat {s}" for n, t, s in expected]
    shot(page, "projector-wec-next-seats", full_page=False)


# Longer names, as a real field has them: the longest is 28 characters.
LONG_FIRST = ["Annabelle", "Bartholomew", "Christopher", "Dominique", "Evangeline", "Florence",
              "Gwendolyn", "Harrison", "Isabella", "Jonathan", "Katherine", "Leopold",
              "Maximilian", "Nathaniel", "Octavia", "Penelope", "Quentin", "Rosalind",
              "Sebastian", "Theodora"]
LONG_LAST = ["Abernathy", "Underwood", "Vanderbilt-Jones", "Kowalczyk", "Montgomery",
             "Fitzgerald", "Castellanos", "Drummond", "Ellingsworth", "Hawthorne",
             "Jablonski", "Lindqvist", "Macpherson", "Okonkwo-Smith", "Pemberton", "Quigley",
             "Rutherford", "Szczepanski", "Thorvaldsen", "Whitfield"]


def seating_page(page: Page) -> dict:
    """What one seating page shows: each row's name cut or not, the page's name range, the
    type size, and whether every row is inside the screen."""
    return page.evaluate("""() => {
        const rows = [...document.querySelectorAll('.proj-row')];
        return {
            names: rows.map((r) => r.querySelector('.name').textContent),
            // A name the screen cuts (its text wider than its box).
            cut: rows.map((r) => r.querySelector('.name'))
                .filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent),
            cut: rows.map((r) => r.querySelector('.name'))
                .filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent),
            rowsCut: rows.filter((r) => r.scrollWidth > r.clientWidth).length,
            range: document.querySelector('.proj-range').textContent,
            rangeShown: !document.querySelector('.proj-range').hidden,
            font: parseFloat(getComputedStyle(rows[0]).fontSize),
            cols: Number(document.querySelector('.proj-rows').style.getPropertyValue('--cols')),
            inside: rows.every((r) => {
                const b = r.getBoundingClientRect();
                return b.bottom <= innerHeight && b.right <= innerWidth;
            }),
            page: document.querySelector('.proj-page').textContent,
        };
    }""")


@pytest.mark.browser_context_args(**PROJECTOR)
def test_the_seating_board_shows_whole_names_and_each_pages_name_range(page, api, shot):
    """At 400 players with real-length names, no name is cut ("Annabelle Under…"), and every
    page says whose names it holds, so a player knows which page to wait for."""
    _, event, _ = api.call("POST", "/api/events", {"name": "Provincial open",
                                                   "preset": "progressive"}, expect=201)
    key = event["organizer_key"]
    names = [f"{first} {last}" for last in LONG_LAST for first in LONG_FIRST]
    assert max(map(len, names)) >= 28
    csv = "name,checked_in\n" + "\n".join(f"{n},yes" for n in names)
    api.call("POST", f"/api/events/{event['id']}/import", {"csv": csv}, key=key, expect=201)
    api.call("POST", f"/api/events/{event['id']}/rounds", {"number": 1}, key=key, expect=201)
    page.clock.install()
    page.goto(f"/e/{event['id']}/projector")
    expect(page.locator(".proj-title")).to_have_text(re.compile(r"where everyone sits$"))
    everyone = sorted(names, key=str.lower)

    first = seating_page(page)
    assert first["cut"] == [] and first["rowsCut"] == 0, first["cut"][:5]
    assert first["font"] >= 28 and first["inside"] and first["cols"] >= 2, first
    assert first["rangeShown"]
    assert first["range"] == f"{first['names'][0]} – {first['names'][-1]}", first["range"]
    assert first["names"] == everyone[:len(first["names"])]
    pages = math.ceil(400 / len(first["names"]))
    assert first["page"] == f"Page 1 of {pages}"
    shot(page, "projector-400-seating-long-names", full_page=False)

    # The next page (a page stays up 10 s): the names after, whole, under their own range.
    page.clock.fast_forward(10_000)
    expect(page.locator(".proj-page")).to_have_text(f"Page 2 of {pages}")
    second = seating_page(page)
    assert second["cut"] == [] and second["rowsCut"] == 0 and second["inside"], second["cut"]
    count = len(first["names"])
    assert second["names"] == everyone[count:2 * count]
    assert second["range"] == f"{everyone[count]} – {everyone[2 * count - 1]}"
    shot(page, "projector-400-seating-page-2", full_page=False)


@pytest.mark.browser_context_args(**PROJECTOR)
def test_a_finished_events_projector_shows_final_results_and_no_clock(page, api, shot):
    event = EventSetup(api, players=16, name="Finished night")
    api.call("POST", f"/api/rounds/{event.round['id']}/clock", {}, key=event.organizer_key,
             expect=200)
    event.hand(event.game_id(0), "A", 3)
    page.goto(f"/e/{event.id}/projector")
    expect(page.locator(".proj-clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    api.call("PATCH", f"/api/events/{event.id}", {"status": "finished"},
             key=event.organizer_key, expect=200)
    expect(page.locator(".proj-title")).to_have_text("Final results", timeout=10000)
    expect(page.locator(".proj-round")).to_have_text("Results are final")
    expect(page.locator(".proj-clock")).to_have_text("")
    expect(page.locator(".proj-row")).to_have_count(16)
    shot(page, "projector-final", full_page=False)
