"""After the table's correction window (RULES.md §7) the console's Corrections editor asks for
the organizer's reason with a change, and records rulings on a game (here points to a side),
each with its reason, which the score and the audit log show at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup
from .steps import play

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}
# 8 hands: side A makes 3 tricks five times (+5), side B three times (+3).
HANDS = [("A", 3), ("B", 3)] * 3 + [("A", 3), ("A", 3)]


@pytest.mark.browser_context_args(**LAPTOP)
def test_a_late_change_needs_a_reason_and_a_ruling_changes_the_score(page: Page, api):
    event = EventSetup(api, overrides={"correction_minutes": 0})
    key = event.organizer_key
    game_id = event.game_id(0)
    for index in range(len(event.tables)):
        play(event, event.game_id(index), HANDS)
    api.call("POST", f"/api/rounds/{event.round['id']}/close", key=key, expect=200)

    page.goto(f"/e/{event.id}/organize/corrections?game={game_id}#key={key}")
    editor = page.locator("section.editor")
    expect(editor.locator(".late")).to_contain_text("correction window closed")
    editor.get_by_role("button", name="Edit hand 1").click()
    editor.locator('[data-k="tricks-5"]').click()
    editor.get_by_role("button", name="Save the change").click()
    expect(editor.locator(".msg-error")).to_contain_text("say why you change it")
    assert event.game(game_id)["points"] == {"A": 5, "B": 3}, "refused: nothing stored"

    editor.get_by_label("Reason for the change").fill("Scorer missed a march")
    editor.get_by_role("button", name="Save the change").click()
    expect(editor.locator(".note")).to_contain_text("Hand 1 now:")
    game = event.game(game_id)
    assert game["points"] == {"A": 6, "B": 3}
    assert [c["reason"] for c in game["corrections"]] == ["Scorer missed a march"]
    expect(page.locator(".audit-list")).to_contain_text("Changed after the correction window")
    expect(page.locator(".audit-list")).to_contain_text("Reason: Scorer missed a march")

    editor.locator("details.rulings summary").click()
    editor.get_by_label("Ruling", exact=True).select_option("adjust")
    editor.get_by_label("Side").select_option("B")
    editor.get_by_label("Points (adjustments; negative takes away)").fill("2")
    editor.get_by_label("Reason", exact=True).fill("Renege seen by the desk")
    editor.get_by_role("button", name="Record the ruling").click()
    b_name = game["sides"]["B"]["name"]
    expect(editor.locator(".note")).to_contain_text(f"Ruling recorded: +2 to {b_name}.")
    expect(editor.locator(".editor-score")).to_contain_text("6 – 5")
    ruled = event.game(game_id)
    assert ruled["ruled"] and ruled["points"] == {"A": 6, "B": 5}
    expect(page.locator(".audit-list")).to_contain_text(f"Ruling: +2 points to {b_name}")

    # Players in the wrong seats, found after the window: the swap asks for the reason too
    # and sends it (X-Reason); without one nothing is sent.
    editor.get_by_label("Reason for the change").fill("")
    fix = editor.locator("details.wrong-seats")
    fix.locator("summary").click()
    fix.get_by_label("The player booked in").select_option(index=1)
    fix.get_by_label("really sat in the seat of").select_option(index=2)
    fix.get_by_role("button", name="Swap the seats").click()
    fix.get_by_role("button", name="Tap again: the seats change in every game of this table") \
        .click()
    expect(fix.locator(".msg-error")).to_contain_text("write your reason for the change first")
    assert len(event.game(game_id)["corrections"]) == 1, "refused: nothing sent"
    editor.get_by_label("Reason for the change").fill("Seats 1 and 2 sat swapped all game")
    fix.get_by_role("button", name="Swap the seats").click()
    fix.get_by_role("button", name="Tap again: the seats change in every game of this table") \
        .click()
    expect(editor.locator(".editor-note")).to_contain_text("Seats swapped")
    assert [c["reason"] for c in event.game(game_id)["corrections"]][-1] == \
        "Seats 1 and 2 sat swapped all game"
