"""The organizer's console runs a 12-player progressive event from the door to the export.

Everything the organizer does is clicked in the console on a laptop; the hands themselves are
entered on a runner's phone for one table and through the API elsewhere (the console is not the
point there). Screenshots of every console screen go to tests/e2e/screenshots/.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import uuid
from contextlib import closing

import pytest
from playwright.sync_api import Page, expect

from tests.api.client import signer

from .conftest import PHONE, Api
from .steps import side_names, tap_hand, wait_for_hands

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}
# The console's progress board reads the round every 5 s: two refreshes and a slow answer.
BOARD_REFRESH = 12_000
NAMES = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal", "Ivy"]


class Organizer:
    """The organizer's laptop: the console's sections, and the API for the hands."""

    def __init__(self, page: Page, api: Api, shot):
        self.page, self.api, self.take = page, api, shot
        self.id = None
        self.key = None

    def shot(self, name: str, phone_view=None) -> None:
        """The whole screen at laptop size; with `phone_view` (a locator) also that part of it
        on a phone, for the README."""
        self.page.evaluate("scrollTo(0, 0)")
        self.take(self.page, name)
        if phone_view is not None:
            self.page.set_viewport_size({"width": 390, "height": 844})
            phone_view.scroll_into_view_if_needed()
            self.page.wait_for_timeout(150)
            self.take(self.page, f"{name}-phone", full_page=False)
            self.page.set_viewport_size(LAPTOP["viewport"])

    def open(self, section: str = "") -> None:
        self.page.get_by_role("navigation", name="Console sections").get_by_role(
            "link", name=section, exact=True).click()
        expect(self.page.locator("h1.page-title")).to_have_text(section)

    def rounds(self) -> list[dict]:
        return self.api.get(f"/api/events/{self.id}/rounds")

    def playing(self) -> dict:
        return next(r for r in self.rounds() if r["status"] == "playing")

    def hand(self, game_id: int, maker: str, tricks: int) -> dict:
        return self.api.call("POST", f"/api/games/{game_id}/hands",
                             {"id": f"t-{uuid.uuid4().hex[:10]}", "maker": maker,
                              "tricks": tricks}, key=self.key, expect=(200, 201))[1]

    def play(self, game_id: int, count: int, maker: str = "A") -> None:
        for _ in range(count):
            self.hand(game_id, maker, 3)

    def seat(self, label: str) -> dict:
        page = self.page
        expect(page.get_by_role("heading", name=f"{label}: preview")).to_be_visible()
        page.get_by_role("button", name=f"Seat {label}").click()
        expect(page.get_by_role("heading", name=f"{label}: being played")).to_be_visible()
        return self.playing()

    def close(self, label: str) -> None:
        self.page.get_by_role("button", name="Close the round").click()
        expect(self.page.get_by_role("heading", name=f"{label}: being played")).to_be_hidden()
        assert next(r for r in self.rounds() if r["label"] == label)["status"] == "closed"


@pytest.mark.browser_context_args(**LAPTOP)
def test_an_organizer_runs_a_12_player_progressive_event_from_the_console(
        page: Page, browser, base_url, api, shot, tmp_path, live_server):
    org = Organizer(page, api, shot)

    # --- create the event from a preset, its parameters in plain words -------------------------
    page.goto("/")
    page.get_by_role("link", name="Create an event").click()
    expect(page.get_by_role("heading", name="Create an event")).to_be_visible()
    page.fill("#event-name", "Thursday progressive")
    page.get_by_role("radio", name=re.compile("^Progressive")).check()
    params = page.locator("dl.params")
    expect(params).to_contain_text("A game is this many hands, whatever the score.")
    expect(params).to_contain_text("Rounds (or league weeks) in the event")
    org.shot("console-create", page.locator("dl.params"))
    page.get_by_role("button", name="Create the event").click()
    once = page.locator("section.once")
    expect(once).to_contain_text("shown only this once")
    link = once.locator("input.link-field").input_value()
    assert "#key=euk_" in link
    expect(once.locator("img.qr")).to_be_visible()
    org.id = int(re.search(r"/e/(\d+)/organize", link).group(1))
    org.key = link.split("#key=")[1]
    org.shot("console-created", once)

    # --- players: one, a pasted list, a CSV with a bad line, check-in at the door -------------
    page.get_by_role("link", name="Add players").click()
    expect(page.locator("h1.page-title")).to_have_text("Players")
    page.fill("#add-name", NAMES[0])
    page.get_by_role("button", name="Add the player").click()
    expect(page.locator(".people")).to_contain_text(NAMES[0])
    page.fill("#paste-list", "\n".join(NAMES[1:]))
    page.get_by_label("They are all here now (check in)").check()
    page.get_by_role("button", name="Add the list").click()
    expect(page.locator(".counts")).to_have_text("9 registered · 9 checked in · 0 withdrawn")

    bad = tmp_path / "late-list.csv"
    bad.write_text("name,checked_in\nJack,yes\n,yes\nKim,no\n")
    page.set_input_files("#csv-file", str(bad))
    page.get_by_role("button", name="Import the file").click()
    refusal = page.locator(".msg-error")
    expect(refusal).to_contain_text("Line 3: The name is empty.")
    # Said once: the message names the line, so the list under it does not repeat it (it
    # printed the same line twice).
    assert refusal.inner_text().count("Line 3: The name is empty.") == 1
    assert len(api.get(f"/api/events/{org.id}/players")) == 9, "a bad file stores nothing"
    org.shot("console-players-csv-refused")
    good = tmp_path / "late-list-fixed.csv"
    good.write_text("name,checked_in\nJack,yes\nKim,no\nLou,no\n")
    page.set_input_files("#csv-file", str(good))
    page.get_by_role("button", name="Import the file").click()
    expect(page.locator(".counts")).to_have_text("12 registered · 10 checked in · 0 withdrawn")

    # Kim arrives: found by search and checked in; 11 here means a ghost seat in round 1.
    page.fill("#people-search", "ki")
    expect(page.locator(".person")).to_have_count(1)
    page.get_by_role("button", name="Check in: Kim").click()
    expect(page.locator('.person[data-name="Kim"] .badge')).to_have_text("here")
    expect(page.locator(".ghosts")).to_contain_text("Round 1: 1 ghost seat at table 3.")
    page.fill("#people-search", "")
    org.shot("console-players", page.locator(".ghosts"))

    # --- access: code and PIN, a runner link with its QR code, revoking it ----------------------
    org.open("Access")
    access = api.get(f"/api/events/{org.id}/access", key=org.key)
    expect(page.locator('[data-k="pin"]')).to_have_text(access["join_pin"])
    page.fill("#runner-table", "1")
    page.get_by_role("button", name="Make a runner link").click()
    issued = page.locator(".issued .link-box")
    expect(issued.locator("img.qr")).to_be_visible()
    runner_link = issued.locator("input").input_value()
    assert f"/join/{access['code']}#key=" in runner_link
    org.shot("console-access")
    revoke = page.get_by_role("button", name=re.compile(r"^Revoke: Runner, table 1"))
    revoke.click()
    revoke.click()  # the second tap confirms
    expect(page.locator(".key-row.revoked")).to_have_count(1)
    me = api.call("GET", "/api/me", key=runner_link.split("#key=")[1])
    assert me[0] == 401

    # --- round 1: preview (with the ghost), then seat it: a double tap seats one round ---------
    org.open("Rounds")
    expect(page.locator(".note")).to_contain_text("1 ghost seat at table 3.")
    expect(page.locator(".map-seat.ghost")).to_have_count(1)
    org.shot("console-round-preview", page.locator(".table-map"))
    page.get_by_role("button", name="Seat Round 1").dblclick()
    expect(page.get_by_role("heading", name="Round 1: being played")).to_be_visible()
    assert len(org.rounds()) == 1
    round1 = org.playing()
    assert [t["seats"][3]["player_id"] for t in round1["tables"]][2] is None

    # Table 1's hands come from a runner's phone with a fresh runner link for that table.
    phone = browser.new_context(**PHONE, base_url=base_url)
    runner = phone.new_page()
    link = api.call("POST", f"/api/events/{org.id}/keys", {"table": 1, "label": "phone"},
                    key=org.key, expect=201)[1]["link"]
    runner.goto(link.replace(base_url, ""))
    expect(runner).to_have_url(re.compile(rf"/e/{org.id}/run$"))
    first = round1["tables"][0]["games"][0]["id"]
    runner.goto(f"/e/{org.id}/games/{first}")
    names = side_names(api.get(f"/api/games/{first}"))
    for maker, tricks in [("A", 3), ("B", 5), ("A", 3), ("A", 4)]:
        tap_hand(runner, names[maker], tricks)
        runner.wait_for_timeout(150)
    wait_for_hands(_Event(api), first, 4)
    for game in (t["games"][0]["id"] for t in round1["tables"][1:]):
        org.play(game, 2)
    board = page.locator(".progress-board")
    expect(board.locator('[data-table="1"]')).to_contain_text("4 of 8 hands",
                                                             timeout=BOARD_REFRESH)
    # Table 3's hands may have come just after the refresh that showed table 1's.
    expect(board.locator('[data-table="3"]')).to_contain_text("2 of 8 hands",
                                                             timeout=BOARD_REFRESH)
    # Table 3 goes quiet: its last entry is put 10 minutes back, and the board flags it.
    quiet = round1["tables"][2]["games"][0]["id"]
    database = live_server.env["DATABASE_URL"].removeprefix("sqlite:///")
    with closing(sqlite3.connect(database, timeout=10)) as db, db:
        db.execute("UPDATE games SET last_entry_at = datetime(last_entry_at, '-10 minutes') "
                   "WHERE id = ?", (quiet,))
    expect(board.locator('[data-table="3"] .is-quiet')).to_contain_text("no entry for 10 min",
                                                                      timeout=BOARD_REFRESH)
    org.shot("console-round-progress", board.locator('[data-table="3"]'))
    for maker, tricks in [("B", 0), ("A", 3), ("A", 5), ("B", 3)]:
        tap_hand(runner, names[maker], tricks)
        runner.wait_for_timeout(150)
    wait_for_hands(_Event(api), first, 8)
    phone.close()
    for game in (t["games"][0]["id"] for t in round1["tables"][1:]):
        org.play(game, 6)
    expect(board.locator('[data-table="1"]')).to_contain_text("8 of 8 hands · finished",
                                                             timeout=BOARD_REFRESH)
    org.close("Round 1")

    # --- a late arrival before round 2 takes the ghost seat -----------------------------------
    org.open("Players")
    page.get_by_role("button", name="Check in: Lou").click()
    expect(page.locator('.person[data-name="Lou"] .badge')).to_have_text("here · late arrival")
    expect(page.locator(".ghosts")).to_contain_text("Round 2: no ghost seats")

    # --- round 2: time is called on unfinished games, then the round closes --------------------
    org.open("Rounds")
    round2 = org.seat("Round 2")
    assert all(s["player_id"] for t in round2["tables"] for s in t["seats"])
    for table in round2["tables"]:
        org.play(table["games"][0]["id"], 3)
    call_time = page.get_by_role("button", name="Call time")
    call_time.click()
    page.get_by_role("button", name="Tap again: unfinished games end now").click()
    expect(page.locator(".big-clock")).to_have_text("Time called")
    expect(board.locator('[data-table="2"]')).to_contain_text(
        "3 of 8 hands · finished (time called)")
    org.shot("console-round-time-called")
    org.close("Round 2")

    # --- a withdrawal before round 3 leaves a ghost seat again --------------------------------
    org.open("Players")
    page.get_by_role("button", name="More for Bob").click()  # Withdraw is behind More
    page.get_by_role("button", name="Withdraw: Bob").click()
    expect(page.get_by_role("button", name="Withdraw: Bob")).to_have_text("Withdraw Bob? Tap again")
    page.get_by_role("button", name="Withdraw: Bob").click()
    expect(page.locator('.person[data-name="Bob"] .badge')).to_have_text("withdrawn")
    expect(page.locator(".ghosts")).to_contain_text("Round 3: 1 ghost seat")
    org.open("Rounds")
    round3 = org.seat("Round 3")
    for table in round3["tables"]:
        org.play(table["games"][0]["id"], 8)

    # --- a correction through the console, with a stale version explained and kept ------------
    game3 = round3["tables"][0]["games"][0]["id"]
    page.locator(f'.progress-board a[href$="corrections?game={game3}"]').click()
    editor = page.locator("section.editor")
    expect(editor).to_contain_text("8 hands")
    editor.get_by_role("button", name="Edit hand 1").click()
    editor.locator('[data-k="tricks-5"]').click()
    # Meanwhile a runner's phone changes hand 2 of the same game: the console's version is old.
    before = api.get(f"/api/games/{game3}")
    second = before["hands"][1]
    api.call("PUT", f"/api/games/{game3}/hands/{second['id']}", {"maker": "B", "tricks": 3},
             key=org.key, headers={"If-Match": f'"{before["version"]}"'}, expect=200)
    editor.get_by_role("button", name="Save the change").click()
    expect(editor.locator('[role="alert"]')).to_contain_text("Someone changed this game")
    expect(editor.locator('[data-k="tricks-5"]')).to_have_attribute("aria-pressed", "true")
    org.shot("console-correction-412", editor.locator('[role="alert"]'))
    editor.get_by_role("button", name="Save the change").click()
    expect(editor.locator(".note")).to_contain_text("Hand 1 now:")
    fixed = api.get(f"/api/games/{game3}")
    assert fixed["hands"][0]["tricks"] == 5 and fixed["hands"][1]["maker"] == "B"
    # The audit log, filtered by the table (Fix opened it there), shows both changes.
    expect(page.locator("#audit-table")).to_have_value("1")
    audit = page.locator(".audit-list")
    expect(audit.locator(".audit-what", has_text=re.compile(r"^Hand \d+ changed"))).to_have_count(2)
    org.shot("console-corrections")
    # A signed-off game is reopened from the console.
    by = signer(fixed)
    api.call("POST", f"/api/games/{game3}/sign-off", {"by": by}, key=org.key,
             expect=200)
    editor.get_by_role("button", name="Reload").click()
    expect(editor).to_contain_text(f"signed off by {by}")
    editor.get_by_role("button", name="Reopen the game").click()
    editor.get_by_role("button", name="Tap again: the sign-off is undone").click()
    expect(editor.locator(".note")).to_contain_text("Reopened")
    assert api.get(f"/api/games/{game3}")["signed_off"] is False

    # --- rounds 3 to 5 close and seat from the console -----------------------------------------
    org.open("Rounds")
    org.close("Round 3")
    for label in ("Round 4", "Round 5"):
        seated = org.seat(label)
        for table in seated["tables"]:
            org.play(table["games"][0]["id"], 8, maker="B" if label == "Round 4" else "A")
        org.close(label)
    expect(page.locator(".complete")).to_contain_text("All 5 rounds have been played")
    org.shot("console-rounds-done")

    # --- print: table cards with QR codes and the scoresheets; the CSV export -------------------
    org.open("Print & export")
    page.get_by_role("link", name="Make the table cards").click()
    # Opening (or reloading) the cards page mints no key; making the cards does, once.
    page.reload()
    expect(page.get_by_role("button", name="Make the cards for 3 tables")).to_be_visible()
    cards_before = [k for k in api.get(f"/api/events/{org.id}/keys", key=org.key)
                    if k["label"].startswith("table card") and not k["revoked"]]
    assert cards_before == []
    page.get_by_role("button", name="Make the cards for 3 tables").click()
    expect(page.locator(".table-card-print")).to_have_count(3)
    expect(page.locator(".table-card-print img.card-qr").first).to_be_visible()
    org.shot("console-table-cards", page.locator(".table-card-print").first)
    page.emulate_media(media="print")
    assert page.locator("nav.console-tabs").is_hidden()
    page.emulate_media(media="screen")
    page.get_by_role("link", name="← Back").click()
    page.get_by_role("link", name="In name order").click()
    expect(page.locator(".sheet-page")).to_have_count(12)
    names = page.locator(".sheet-page h2").all_inner_texts()
    assert names == sorted(names, key=str.casefold), "A to Z, as players look for their own"
    org.shot("console-scoresheets")
    page.get_by_role("link", name="← Back").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Standings (standings.csv)").click()
    saved = download.value
    assert saved.suggested_filename.endswith("standings.csv")
    raw = saved.path().read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf"), "the byte-order mark spreadsheets look for"
    text = raw.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 12
    board = api.get(f"/api/events/{org.id}/leaderboard")
    assert [r["name"] for r in rows] == [r["name"] for r in board["rows"]]
    expect(page.locator(".msg-ok")).to_contain_text("standings.csv saved")
    org.shot("console-print")

    # --- the event screen, on a phone-sized window ----------------------------------------------
    page.set_viewport_size({"width": 360, "height": 740})
    org.open("Event")
    expect(page.locator(".next-step")).to_contain_text("Round 5 is closed.")
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    org.shot("console-event-phone")


class _Event:
    """Just enough of EventSetup for steps.wait_for_hands."""

    def __init__(self, api: Api):
        self.api = api

    def game(self, game_id: int) -> dict:
        return self.api.get(f"/api/games/{game_id}")


AXE_AND_SIZES = """() => {
    const small = [...document.querySelectorAll('main button, main .btn, main summary, main select,'
        + ' main input:not([type=checkbox]):not([type=radio]), main .inline-link, .console-tab')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({text: el.textContent.trim() || el.id,
                       ...el.getBoundingClientRect().toJSON()}))
        .filter((b) => b.width < 48 || b.height < 48);
    return {small, width: [document.documentElement.scrollWidth, innerWidth]};
}"""


@pytest.mark.browser_context_args(bypass_csp=True, viewport={"width": 360, "height": 640})
def test_every_console_screen_fits_a_phone_has_48_px_targets_and_passes_axe(page, event, api):
    from .test_quality import serious_violations

    for table in event.tables:
        event.hand(table["games"][0]["id"], "A", 3)
    page.goto(f"/e/{event.id}/organize#key={event.organizer_key}")
    expect(page.locator(".next-step")).to_contain_text("Round 1 is being played")
    found = {}
    game = event.game_id(0)
    for path, ready in [("", ".next-step"), ("/access", ".key-row"), ("/players", ".person"),
                        ("/rounds", ".progress-table"), ("/standings", "table.standings"),
                        (f"/corrections?game={game}", ".hand"),
                        ("/print", "[data-k], .link-list"), ("/print/sheets", ".sheet-page")]:
        page.goto(f"/e/{event.id}/organize{path}")
        expect(page.locator(ready).first).to_be_visible()
        page.wait_for_timeout(200)
        measured = page.evaluate(AXE_AND_SIZES)
        assert measured["width"][0] <= measured["width"][1], f"{path} scrolls sideways"
        assert measured["small"] == [], (path, measured["small"])
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if violations := serious_violations(page):
                found[f"{path} {scheme}"] = violations
    page.goto("/organize/new")
    expect(page.locator("dl.params")).to_be_visible()
    if violations := serious_violations(page):
        found["/organize/new"] = violations
    assert not found, found


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_write_with_no_network_is_shown_as_not_saved_and_works_once_back(page, context, api):
    _, made, _ = api.call("POST", "/api/events", {"name": "Flaky night", "preset": "progressive"},
                          expect=201)
    key = made["organizer_key"]
    api.call("POST", f"/api/events/{made['id']}/players", {"name": "Ann"}, key=key, expect=201)
    page.goto(f"/e/{made['id']}/organize/players#key={key}")
    expect(page.locator('.person[data-name="Ann"] .badge')).to_have_text("not here yet")
    context.set_offline(True)
    row = page.locator('.person[data-name="Ann"]')
    button = row.get_by_role("button", name="Check in: Ann")
    button.click()
    # Pending while the console tries (and retries) a write that is safe to repeat.
    expect(button).to_be_disabled()
    expect(button).to_have_text("Saving…")
    expect(row.locator(".msg-error")).to_contain_text("Not saved", timeout=20000)
    expect(row.locator(".badge")).to_have_text("not here yet")
    context.set_offline(False)
    page.get_by_role("button", name="Check in: Ann").click()
    expect(row.locator(".badge")).to_have_text("here")
    assert api.get(f"/api/events/{made['id']}/players")[0]["checked_in"] is True


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_teams_event_registers_teams_by_form_and_list_and_checks_them_in(page, api):
    _, made, _ = api.call("POST", "/api/events", {"name": "Pairs cup", "preset": "teams"},
                          expect=201)
    page.goto(f"/e/{made['id']}/organize/players#key={made['organizer_key']}")
    page.fill("#add-name", "Aces")
    page.fill("#add-p1", "Ann")
    page.fill("#add-p2", "Bob")
    page.get_by_role("button", name="Add the team").click()
    expect(page.locator('.person[data-name="Aces"]')).to_contain_text("Ann & Bob")
    page.fill("#paste-list", "Kings, Carol, Dave\nQueens, Eve\nJacks, Gina, Hal")
    page.get_by_role("button", name="Add the list").click()
    # The pasted list's own line numbers, not the CSV's (which has a header line).
    refusal = page.locator(".msg-error")
    expect(refusal).to_contain_text("Line 2: A player's name is empty. Nothing was stored.")
    # The message says the line; the list under it no longer repeats it.
    expect(refusal.locator(".problem-lines")).to_have_count(0)
    assert refusal.inner_text().count("Line 2: A player's name is empty.") == 1
    page.fill("#paste-list", "Kings, Carol, Dave\nQueens, Eve, Fay\nJacks, Gina, Hal")
    page.get_by_role("button", name="Add the list").click()
    expect(page.locator(".counts")).to_have_text("4 registered · 1 checked in · 0 withdrawn")
    page.get_by_role("button", name="Check in: Kings").click()
    expect(page.locator('.person[data-name="Kings"] .badge')).to_have_text("here")
    teams = {t["name"]: t for t in api.get(f"/api/events/{made['id']}/teams")}
    assert all(m["checked_in"] for m in teams["Kings"]["members"])
    assert not any(m["checked_in"] for m in teams["Jacks"]["members"])
