"""What a real-browser audit of the organizer's screens found, each checked as an organizer of a
big charity night would meet it.

- Every preset created through the console page is exactly that preset (a "yes" was sent as
  "no"); a yes/no setting changed under Custom format is stored, both ways.
- The create page reads on a 360 px phone: settings in words, labels above values, other
  formats' settings folded.
- Forget on the home screen takes a second tap, and an organizer key says what is lost; Your
  events fits 360 px and names what the phone holds.
- Corrections: the audit log follows every change, in words with the table's names; Fix shows
  that table's log; an edit that undoes a sign-off says so; the page stays where it was.
- Printed scoresheets: headers over their numbers, "–" for a round being played, and a WEC
  singles player's games still to come.
- No console page asks for the next round when the rounds say there is none (the refused
  request was logged as an error on every page).
- WEC awards and the bump cup under Standings.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.api.client import signer

from .conftest import EventSetup
from .steps import in_words

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}
SMALL = {"viewport": {"width": 360, "height": 740}}


def create_in_console(page: Page, name: str, preset: str, change=None) -> tuple[int, dict]:
    """Create an event on /organize/new; `change(page)` may open Custom format first. Returns the
    event's id and the body the page sent."""
    page.goto("/organize/new")
    page.fill("#event-name", name)
    page.get_by_role("radio", name=preset, exact=True).check()
    expect(page.locator(".format-detail .summary")).to_be_visible()
    if change:
        change(page)
    posted = lambda r: r.url.endswith("/api/events") and r.method == "POST"  # noqa: E731
    with page.expect_request(posted) as sent:
        page.get_by_role("button", name="Create the event").click()
    once = page.locator("section.once")
    expect(once).to_contain_text("shown only this once")
    link = once.locator("input.link-field").input_value()
    return int(re.search(r"/e/(\d+)/organize#key=", link).group(1)), sent.value.post_data_json


def play(event: EventSetup, game_id: int, pattern: list[tuple[str, int]]) -> dict:
    for maker, tricks in pattern:
        event.hand(game_id, maker, tricks)
    return event.game(game_id)


# --- creating an event ------------------------------------------------------------------------

@pytest.mark.browser_context_args(**LAPTOP)
def test_every_preset_created_through_the_console_is_exactly_that_preset(page: Page, api):
    presets = api.get("/api/presets")
    assert len(presets) >= 5
    for preset in presets:
        event_id, sent = create_in_console(page, f"Untouched {preset['key']}", preset["name"])
        assert "overrides" not in sent, (preset["key"], sent)
        stored = api.get(f"/api/events/{event_id}")
        assert stored["preset"] == preset["key"]
        assert stored["format"]["parameters"] == preset["parameters"], preset["key"]
        assert stored["format"]["name"] == preset["name"], "not marked custom"
        assert stored["format"]["based_on"] is None


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_yes_no_setting_changed_under_custom_format_is_stored_both_ways(page: Page, api):
    presets = {p["key"]: p for p in api.get("/api/presets")}

    def switch(value: str, back: str | None = None, name: str = "bumps"):
        def change(page: Page):
            page.get_by_text("Custom format: change its numbers").click()
            page.select_option(f"#p-{name}", value)
            if back is not None:
                page.select_option(f"#p-{name}", back)
        return change

    # WEC singles keeps a bump cup: "no" turns it off, and only that.
    wec = presets["wec-singles"]
    event_id, sent = create_in_console(page, "No cup tonight", wec["name"], switch("false"))
    assert sent["overrides"] == {"bumps": False}
    stored = api.get(f"/api/events/{event_id}")["format"]
    assert stored["parameters"] == {**wec["parameters"], "bumps": False}
    assert stored["parameters"]["game_sheet"] is True
    assert stored["name"] == f"{wec['name']} (custom)" and stored["based_on"] == "wec-singles"

    # A progressive night has none: "yes" turns it on.
    progressive = presets["progressive"]
    page.goto("/organize/new")
    event_id, sent = create_in_console(page, "Cup night", progressive["name"], switch("true"))
    assert sent["overrides"] == {"bumps": True}
    stored = api.get(f"/api/events/{event_id}")["format"]
    assert stored["parameters"] == {**progressive["parameters"], "bumps": True}

    # Changed and changed back: the preset itself, and the page said so before Create.
    def there_and_back(page: Page):
        switch("false", "true", "sign_off_required")(page)
        expect(page.locator(".custom-state")).to_contain_text("Exactly the")

    teams = presets["teams"]
    event_id, sent = create_in_console(page, "Pairs cup", teams["name"], there_and_back)
    assert "overrides" not in sent
    stored = api.get(f"/api/events/{event_id}")["format"]
    assert stored["parameters"]["sign_off_required"] is True and stored["based_on"] is None


@pytest.mark.browser_context_args(**SMALL)
def test_the_create_page_reads_on_a_360_px_phone(page: Page, shot):
    page.goto("/organize/new")
    page.get_by_role("radio", name="Progressive (individual) tournament", exact=True).check()
    params = page.locator("dl.params")
    # Values in words, each under its meaning.
    expect(params.locator('[data-param="entry"] dd')).to_have_text(
        "single players (partners change)")
    expect(params.locator('[data-param="movement"] dd')).not_to_have_text("progressive")
    expect(params.locator('[data-param="rounds"] dd')).to_have_text("5")
    first = params.locator(".param").first
    dt, dd = first.locator("dt").bounding_box(), first.locator("dd").bounding_box()
    assert dd["y"] >= dt["y"] + dt["height"] - 1, "the label sits above its value"
    # League-only settings are folded away for a progressive night, not listed with its own.
    expect(params).not_to_contain_text("League")
    other = page.locator("details.other-params")
    expect(other.locator("dl.params-other")).to_be_hidden()
    other.locator("summary").click()
    expect(other.locator("dl.params-other")).to_contain_text(
        "League: a team this many minutes late")
    assert page.locator("#p-forfeit_minutes").count() == 0, "no input for what the format ignores"
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    other.locator("summary").click()
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3600, f"{height} px tall"
    shot(page, "console-create-360")


# --- home ---------------------------------------------------------------------------------------

@pytest.mark.browser_context_args(**SMALL)
def test_forget_takes_a_second_tap_and_an_organizer_key_says_what_is_lost(page: Page, api, shot):
    _, mine, _ = api.call("POST", "/api/events", {"name": "Saturday charity progressive night "
                                                           "for the food bank",
                                                   "preset": "progressive"}, expect=201)
    _, theirs, _ = api.call("POST", "/api/events", {"name": "Friday progressive",
                                                     "preset": "progressive"}, expect=201)
    runner = api.call("POST", f"/api/events/{theirs['id']}/keys", {"table": 3, "label": "t"},
                      key=theirs["organizer_key"], expect=201)[1]
    page.goto(f"/e/{mine['id']}/organize#key={mine['organizer_key']}")
    expect(page.locator(".console-event")).to_contain_text(mine["code"])
    page.goto("/" + runner["link"].split("/", 3)[3])
    expect(page).to_have_url(re.compile(rf"/e/{theirs['id']}/run$"))

    # Your events: what this phone holds, in words, nothing cut off at 360 px.
    page.goto("/")
    held = page.locator(".my-event", has_text=mine["name"])
    expect(held.get_by_role("link", name="Organizer console")).to_be_visible()
    expect(held.get_by_role("link", name="Enter hands at any table")).to_be_visible()
    ran = page.locator(".my-event", has_text=theirs["name"])
    expect(ran.get_by_role("link", name="Enter hands: table 3")).to_be_visible()
    expect(ran.get_by_role("link", name="Organizer console")).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text("your tables")
    clipped = page.evaluate("""[...document.querySelectorAll('.my-event a')]
        .filter((a) => a.scrollWidth > a.clientWidth + 1
                       || a.getBoundingClientRect().right > innerWidth)
        .map((a) => a.textContent)""")
    assert clipped == []
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    shot(page, "home-your-events-360", full_page=False)

    # One tap arms Forget and says what is lost; the key is still here.
    forget = page.get_by_role("button", name=f"Forget the key for {mine['name']}")
    forget.click()
    armed = page.get_by_role("button", name=f"Tap again to forget the key for {mine['name']}")
    expect(armed).to_have_text("Tap again to forget")
    warning = page.locator(".forget-warning").first
    expect(warning).to_contain_text("the console for")
    expect(warning).to_contain_text("can't be opened again on this phone")
    expect(warning.locator("input")).to_have_value(
        re.compile(rf"/e/{mine['id']}/organize#key={re.escape(mine['organizer_key'])}$"))
    warning.scroll_into_view_if_needed()
    shot(page, "home-forget-organizer-key", full_page=False)
    page.get_by_role("button", name=f"Keep the key for {mine['name']}").click()
    expect(warning).to_be_hidden()
    expect(forget).to_have_text("Forget")
    expect(page.locator(".my-event")).to_have_count(2)

    # Two taps forget it: the console no longer opens on this phone.
    forget.click()
    armed.click()
    expect(page.locator(".my-event")).to_have_count(1)
    page.goto(f"/e/{mine['id']}/organize")
    expect(page.locator("main")).to_contain_text("This device has no organizer key")


# --- corrections ------------------------------------------------------------------------------

def test_corrections_follow_every_change_in_words_for_the_table_fixed(page: Page, event, shot):
    api, key = event.api, event.organizer_key
    # Table 1: a hand changed through the API (an entry the table 2 log must not show).
    one = event.game_id(0)
    first = play(event, one, [("A", 3)])["hands"][0]
    api.call("PUT", f"/api/games/{one}/hands/{first['id']}", {"maker": "B", "tricks": 3},
             key=key, headers={"If-Match": f'"{event.game(one)["version"]}"'}, expect=200)
    # Table 2 finishes and is signed off.
    two = event.game_id(1)
    game = play(event, two, [("A", 3), ("B", 3)] * 3 + [("A", 3), ("A", 3)])
    by = signer(game)
    api.call("POST", f"/api/games/{two}/sign-off", {"by": by}, key=key, expect=200)

    page.goto(f"/e/{event.id}/organize/corrections#key={key}")
    page.locator(f'.progress-board a[href$="corrections?game={two}"]').click()
    editor = page.locator("section.editor")
    expect(editor).to_contain_text(f"signed off by {by}")
    # Fix opened table 2's log: its sign-off, in words; nothing from table 1.
    expect(page.locator("#audit-table")).to_have_value("2")
    log = page.locator(".audit-list")
    expect(log.locator(".audit-entry")).to_have_count(1)
    expect(log).to_contain_text(f"Signed off by {by}")
    expect(log).to_contain_text("table 2")

    # An edit that changes the result: the sign-off is undone, and the screen says so.
    editor.get_by_role("button", name="Edit hand 1").click()
    editor.locator('[data-k="tricks-5"]').click()
    before = event.game(two)
    editor.get_by_role("button", name="Save the change").click()
    note = editor.locator(".note")
    expect(note).to_contain_text("Hand 1 now:")
    expect(note).to_contain_text("The sign-off was undone: the result changed; the opponents "
                                 "sign again.")
    after = event.game(two)
    assert after["signed_off"] is False
    # The page stayed on the change: the answer is in view.
    box = note.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    # The log follows without a reload, with names, not side letters or software words.
    changed = log.locator(".audit-entry", has_text="Hand 1 changed")
    expect(changed).to_have_count(1)
    expect(changed).to_contain_text(f"{in_words(before['hands'][0]['outcome'], after)} → "
                                    f"{in_words(after['hands'][0]['outcome'], after)}")
    expect(changed.locator(".audit-note")).to_have_text("The sign-off was undone: the result "
                                                        "changed.")
    shot(page, "console-corrections-unsigned", full_page=False)

    # Signed again, then reopened from here: the log has it at once.
    api.call("POST", f"/api/games/{two}/sign-off", {"by": signer(after)}, key=key, expect=200)
    editor.get_by_role("button", name="Reload").click()
    editor.get_by_role("button", name="Reopen the game").click()
    editor.get_by_role("button", name="Tap again: the sign-off is undone").click()
    expect(editor.locator(".note")).to_contain_text("Reopened")
    expect(log.locator(".audit-entry").first).to_contain_text("Sign-off undone")
    expect(log.locator(".audit-entry")).to_have_count(4)
    text = log.inner_text()
    assert not re.search(r"\b[AB]\b", text), text
    for word in ("signed_by", "signed_off_by", "sign_off", "checked_in", "playoff-hand", "_"):
        assert word not in text, word

    # All tables: the table 1 change too, with its own table's names.
    page.select_option("#audit-table", "0")
    other = log.locator(".audit-entry", has_text="table 1")
    expect(other).to_contain_text(in_words(event.game(one)["hands"][0]["outcome"],
                                           event.game(one)))


# --- printed scoresheets ------------------------------------------------------------------------

@pytest.mark.browser_context_args(**LAPTOP)
def test_printed_wec_singles_sheets_line_up_show_a_round_in_play_and_the_games_to_come(
        page: Page, api):
    wec = EventSetup(api, "wec-singles", players=12, name="WEC night")
    done, going = wec.game_id(0), wec.game_id(1)
    play(wec, done, [("A", 3), ("B", 1), ("A", 5)] * 4)
    play(wec, going, [("A", 3)])
    sheets = api.get(f"/api/events/{wec.id}/scoresheets", key=wec.organizer_key)
    page.emulate_media(media="print")
    page.goto(f"/e/{wec.id}/organize/print/sheets#key={wec.organizer_key}")
    expect(page.locator(".sheet-page")).to_have_count(12)
    seated = {s["player_id"] for t in wec.tables[:1] for s in t["seats"]}
    playing = {s["player_id"] for s in wec.tables[1]["seats"]}
    for sheet in sheets:
        page_ = page.locator(".sheet-page", has=page.locator("h2", has_text=re.compile(
            rf"^{re.escape(sheet['name'])}$")))
        played = page_.locator("tbody:not(.to-come) tr")
        expect(played).to_have_count(1)
        cells = played.locator("td.num")
        if sheet["player_id"] in playing:
            expect(cells).to_have_text(["–", "–"])
        elif sheet["player_id"] in seated:
            row = sheet["rounds"][0]
            assert row["finished"] is True
            expect(cells).to_have_text([str(row["score"]), str(row["running_total"])])
        # Games 2 to 8: table, seat, partner and opponents from the fixed schedule.
        come = page_.locator("tbody.to-come tr:has(td)")
        expect(come).to_have_count(len(sheet["upcoming"]))
        assert len(sheet["upcoming"]) == 7
        for row, game in zip(come.all(), sheet["upcoming"], strict=True):
            expect(row.locator("td")).to_have_text([game["label"], str(game["table"]),
                                                    str(game["seat"]), game["partner"],
                                                    " & ".join(game["opponents"]), "", ""])
    # Score and Total headers stand over their numbers.
    edges = page.evaluate("""() => {
        const t = document.querySelector('.sheet-page .sheet-table');
        const right = (el) => Math.round(el.getBoundingClientRect().right);
        const heads = [...t.querySelectorAll('thead th.num')].map(right);
        const cells = [...t.querySelectorAll('tbody tr')][0].querySelectorAll('td.num');
        const aligned = (el) => getComputedStyle(el).textAlign;
        return {heads, cells: [...cells].map(right),
                align: [...t.querySelectorAll('thead th.num, tbody td.num')].map(aligned)};
    }""")
    assert edges["heads"] == edges["cells"] and len(edges["heads"]) == 2, edges
    assert set(edges["align"]) == {"right"}, edges


# --- the next round's preview: the server says why there is none, and nothing is an error ------

@pytest.mark.browser_context_args(**LAPTOP)
def test_every_console_page_says_why_no_next_round_can_be_seated_without_an_error(page: Page,
                                                                                  api):
    _, made, _ = api.call("POST", "/api/events", {"name": "One-round night", "preset":
                                                  "progressive", "overrides": {"rounds": 1}},
                          expect=201)
    event_id, key = made["id"], made["organizer_key"]
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    sections = ["", "/players", "/rounds", "/standings", "/ties", "/corrections", "/print"]

    # Nobody registered yet: the server's reason, on Players and Rounds.
    page.goto(f"/e/{event_id}/organize/players#key={key}")
    expect(page.locator(".ghosts")).to_have_text(
        "Next round: No players are checked in: add 6 players (6 is the smallest progressive "
        "field).")
    page.goto(f"/e/{event_id}/organize/rounds")
    expect(page.locator(".console-body .error")).to_contain_text("No players are checked in")
    assert errors == [], errors

    # Before round 1 the preview shows its ghost seats.
    for name in ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"]:
        api.call("POST", f"/api/events/{event_id}/players", {"name": name, "checked_in": True},
                 key=key, expect=201)
    page.goto(f"/e/{event_id}/organize/players")
    expect(page.locator(".ghosts")).to_contain_text("Round 1: no ghost seats")
    round1 = api.call("POST", f"/api/events/{event_id}/rounds", {"number": 1}, key=key,
                      expect=201)[1]

    def visit_all(ready: str) -> None:
        for path in sections:
            page.goto(f"/e/{event_id}/organize{path}")
            expect(page.locator(".console-body > *:not(.loading)").first).to_be_visible()
            page.wait_for_timeout(400)
        page.goto(f"/e/{event_id}/organize/players")
        expect(page.locator(".ghosts")).to_contain_text(ready)
        assert errors == [], errors

    # Round 1 being played: every page opens cleanly; Players says why there is no preview.
    visit_all("Next round: Round 1 is still being played: close it before seating the next round.")
    # Every round played: the same.
    for table in round1["tables"]:
        for maker in "ABABABAA":
            api.call("POST", f"/api/games/{table['games'][0]['id']}/hands",
                     {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": 3}, key=key,
                     expect=201)
    api.call("POST", f"/api/rounds/{round1['id']}/close", key=key, expect=200)
    visit_all("Next round: All 1 rounds have been played; the event is complete.")
    page.goto(f"/e/{event_id}/organize/rounds")
    expect(page.locator(".complete")).to_contain_text("All 1 rounds have been played")
    assert errors == []


# --- WEC awards -----------------------------------------------------------------------------------

@pytest.mark.browser_context_args(**SMALL)
def test_standings_show_the_wec_awards_and_the_bump_cup(page: Page, api, shot):
    wec = EventSetup(api, "wec-singles", players=12, name="WEC awards")
    for index in range(3):
        play(wec, wec.game_id(index), [("A", 3), ("B", 1), ("A", 5), ("B", 0)] * 3)
    awards = api.get(f"/api/events/{wec.id}/awards")
    cup = awards["bump_cup"]
    assert cup["total"] > 0 and awards["high_game"]["points"] is not None
    page.goto(f"/e/{wec.id}/organize/standings#key={wec.organizer_key}")
    card = page.locator(".awards-card")
    expect(card.locator(".cup-total")).to_have_text(f"${cup['total']} in all")
    expect(card).to_contain_text(f"{awards['low_score']['total']} points: "
                                 + ", ".join(e["name"] for e in awards["low_score"]["entrants"]))
    high = awards["high_game"]
    expect(card).to_contain_text(f"{high['points']} points: {high['games'][0]['name']} (Game 1)")
    card.get_by_text(f"By player ({len(cup['players'])})").click()
    rows = card.locator(".awards-more").first.locator("tbody tr")
    expect(rows).to_have_count(len(cup["players"]))
    expect(rows.first).to_have_text(re.compile(
        rf"{re.escape(cup['players'][0]['name'])}\s*\${cup['players'][0]['dollars']}"))
    card.get_by_text(f"By table ({len(cup['tables'])})").click()
    expect(card.locator(".awards-more").nth(1).locator("tbody tr").first).to_contain_text(
        f"Game 1 · table {cup['tables'][0]['table']}")
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    card.scroll_into_view_if_needed()
    shot(page, "console-standings-awards", full_page=False)

    # A progressive night has no bump cup: no awards card.
    progressive = EventSetup(api, "progressive", players=8, name="No cup")
    page.goto(f"/e/{progressive.id}/organize/standings#key={progressive.organizer_key}")
    expect(page.locator("table.standings")).to_be_visible()
    expect(page.locator(".awards-card")).to_have_count(0)


@pytest.mark.browser_context_args(**LAPTOP)
def test_the_audit_log_names_the_game_of_a_three_game_match(page: Page, api):
    """A league week is three games a table: "Hand 1 changed" alone would not say which."""
    _, event, _ = api.call("POST", "/api/events", {"name": "Tuesday league", "preset": "league"},
                           expect=201)
    key = event["organizer_key"]
    for name in ("Aces", "Bowers"):
        api.post(f"/api/events/{event['id']}/teams",
                 {"name": name, "players": [f"{name} one", f"{name} two"]}, key=key)
    api.post(f"/api/events/{event['id']}/season", {"weeks": 1}, key=key)
    week = api.post(f"/api/events/{event['id']}/rounds", {"number": 1}, key=key)
    second = week["tables"][0]["games"][1]["id"]
    state = api.post(f"/api/games/{second}/hands",
                     {"id": f"e2e-{uuid.uuid4().hex[:8]}", "maker": "A", "tricks": 3}, key=key)
    api.call("PUT", f"/api/games/{second}/hands/{state['hands'][0]['id']}",
             {"maker": "A", "tricks": 5}, key=key,
             headers={"If-Match": f'"{state["version"]}"'}, expect=200)
    page.goto(f"/e/{event['id']}/organize/corrections#key={key}")
    entry = page.locator(".audit-list .audit-entry").first
    expect(entry.locator(".audit-what")).to_contain_text("Game 2 · Hand 1 changed")
    expect(entry.locator(".audit-what")).to_contain_text("table 1")
