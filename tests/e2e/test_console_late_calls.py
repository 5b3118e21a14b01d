"""A table calls the organizer after its round closed (about a correction, say), on a phone-sized
console: between rounds the Rounds tab's calls card shows it with its table, its round and how
long it has waited, the badge counts it and a tone sounds, as for any call; once the next round
is played its progress board lists it first; a tap opens that game's Corrections, whose log has
the call; answered, it waits nowhere."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import EventSetup
from .steps import play, wait_until

pytestmark = pytest.mark.browser

# The console's tone, counted instead of played (a new call's chime, table-calls.js).
COUNT_CHIMES = """
window.__chimes = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return {frequency: {}, connect() {}, start() { window.__chimes += 1; }, stop() {}};
  }
};
"""


def test_a_call_after_its_round_closed_waits_where_the_organizer_looks(page, api, shot):
    event = EventSetup(api)
    key = event.organizer_key
    for index in range(len(event.tables)):
        play(event, event.game_id(index), [("A", 3), ("B", 3)] * 3 + [("A", 3), ("A", 3)])
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=key, expect=200)
    game = event.game_id(0)

    page.add_init_script(COUNT_CHIMES)
    page.goto(f"/e/{event.id}/organize/rounds#key={key}")
    calls = page.locator(".table-calls")
    expect(calls).to_contain_text("No table is calling. 0 calls tonight")

    # Table 1's phone calls about its round 1 game, the round closed already.
    runner = event.runner_key(1)["key"]
    api.call("POST", f"/api/games/{game}/call", key=runner, expect=201)
    line = calls.locator(".call-waiting")
    expect(line).to_contain_text("Table 1 · about Round 1 (closed) · waiting", timeout=10000)
    expect(page.locator(".calls-badge")).to_have_text("1 waiting")
    wait_until(page, "window.__chimes === 1")
    shot(page, "console-late-call-between-rounds", full_page=False)

    # Round 2 is played: its board lists the late call first, above every table.
    api.call("POST", f"/api/events/{event.id}/rounds", {"number": 2}, key=key, expect=201)
    page.goto(f"/e/{event.id}/organize/rounds#key={key}")
    board = page.locator(".progress-board")
    late = board.locator(".late-call")
    expect(late).to_contain_text("Table 1")
    expect(late).to_contain_text(re.compile(
        r"Called the organizer (just now|\d+ min ago), about its game in Round 1 \(closed\)\."))
    expect(page.locator(".calls-badge")).to_have_text("1 waiting")
    tops = [item.bounding_box()["y"] for item in board.locator(".progress-table").all()]
    assert tops.index(min(tops)) == 0, "the late call comes first on the board"
    late.scroll_into_view_if_needed()
    shot(page, "console-late-call-on-the-board", full_page=False)

    # A tap opens that game's Corrections; its table's log has the call.
    late.locator(".wait").click()
    expect(page).to_have_url(re.compile(rf"/organize/corrections\?game={game}$"))
    log = page.locator(".audit-list")
    expect(log.locator(".audit-entry", has_text="The table called the organizer")) \
        .to_contain_text("Round 1 · table 1")

    # Answered on the Rounds tab, it waits nowhere, and the log says so.
    page.goto(f"/e/{event.id}/organize/rounds#key={key}")
    page.get_by_role("button", name="Answer table 1").click()
    expect(calls).to_contain_text("No table is calling. 1 call tonight, 1 answered.")
    expect(page.locator(".calls-badge")).to_have_text("")
    expect(board.locator(".late-call")).to_have_count(0, timeout=10000)
    page.goto(f"/e/{event.id}/organize/corrections?game={game}#key={key}")
    expect(page.locator(".audit-list .audit-entry", has_text="Call answered")) \
        .to_contain_text("Round 1 · table 1")
