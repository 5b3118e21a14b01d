"""Corrections in the console: the audit log follows every change, in words with the table's
names; Fix shows that table's log; an edit that undoes a sign-off says so; the page stays where
it was; where a table plays several games each entry names the game.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.api.client import signer

from .steps import in_words, play, side_names

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}


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
    # The finder beside the editor shows the corrected score, not the one before.
    expect(page.locator('.progress-table[data-table="2"] .game-score')).to_have_text(
        f"{after['points']['A']}–{after['points']['B']}")
    assert after["points"] != before["points"]
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
    # A key is named by its last four characters ("organizer link …_k6o"), which may hold
    # any of a key's characters, "_" too: the words are checked without them.
    text = re.sub(r"…\S{4}", "…", log.inner_text())
    assert not re.search(r"\b[AB]\b", text), text
    for word in ("signed_by", "signed_off_by", "sign_off", "checked_in", "playoff-hand", "_"):
        assert word not in text, word

    # All tables: the table 1 change too, with its own table's names.
    page.select_option("#audit-table", "0")
    other = log.locator(".audit-entry", has_text="table 1")
    expect(other).to_contain_text(in_words(event.game(one)["hands"][0]["outcome"],
                                           event.game(one)))

    # A refused change says why right under Save, in view, whatever the page's length.
    api.call("PATCH", f"/api/events/{event.id}", {"status": "finished"}, key=key, expect=200)
    editor.get_by_role("button", name="Edit hand 2").click()
    editor.locator('[data-k="tricks-4"]').click()
    save = editor.get_by_role("button", name="Save the change")
    save.click()
    refusal = editor.locator(".edit-form .msg-error")
    expect(refusal).to_contain_text("finished")
    expect(refusal).to_be_in_viewport()
    below, under = save.bounding_box(), refusal.bounding_box()
    assert 0 <= under["y"] - (below["y"] + below["height"]) < 120, (below, under)
    assert event.game(two)["hands"][1]["tricks"] == 3, "nothing was stored"


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


def test_a_level_game_that_blocks_closing_is_settled_where_the_message_is(page: Page, event,
                                                                         shot):
    """Time called on a level game: closing the round is refused until it is settled, and
    Fix offers the playoff hand and the card draw in the editor, without leaving the console."""
    api, key = event.api, event.organizer_key
    level, other = event.game_id(0), event.game_id(1)
    play(event, level, [("A", 3), ("B", 3)])  # 1-1
    play(event, other, [("A", 3)])
    api.call("POST", f"/api/rounds/{event.round['id']}/time", key=key, expect=200)
    page.goto(f"/e/{event.id}/organize/rounds#key={key}")
    page.get_by_role("button", name="Close the round").click()
    expect(page.locator(".msg-error")).to_contain_text("card draw")
    page.locator(f'.progress-board a[href$="corrections?game={level}"]').click()
    editor = page.locator("section.editor")
    names = side_names(event.game(level))
    panel = editor.locator(".settle")
    expect(panel).to_contain_text("Level at 1–1")
    shot(page, "console-settle-in-editor", full_page=False)
    panel.get_by_role("button", name=f"Card draw won by {names['B']}").click()
    expect(editor.locator(".note")).to_contain_text(f"Settled: {names['B']} won the card draw.")
    expect(panel).to_have_count(0)
    settled = event.game(level)
    assert settled["winner"] == "B" and settled["tie"] == {"method": "card-draw", "winner": "B"}
    expect(page.locator(".audit-list")).to_contain_text("card draw")
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=key, expect=200)
