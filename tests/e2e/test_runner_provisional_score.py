"""With no network at the table, the runner's phone shows the score the table really has: the
server's last score plus the points of the hands waiting on the phone, taken from the event's
own points table (a standard preset, and a custom format with changed points), marked
provisional, kept through closing and reopening the app offline, and replaced by the server's
score once the hands are sent.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from api.rules.hands import Hand, Renege, score_hand
from api.rules.presets import PRESETS, build_preset

from .conftest import SERVICE_WORKER, EventSetup
from .steps import (
    expect_score,
    join_with_pin,
    open_game,
    side_names,
    tap_hand,
    tap_renege,
    wait_for_hands,
    wait_for_service_worker,
)

# Offline is what these tests are about: their pages keep the service worker.
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(**SERVICE_WORKER)]

# One hand is on the server before the phone goes offline: A made it (+1 under every format
# here). Then, offline: a march by A, an ordinary make by B, a euchre of B.
STANDARD = {
    "overrides": None,
    "offline": [("A", 5, False), ("B", 3, False), ("B", 1, False)],
    # 1 + march 2 + euchre 2; B: make 1
    "expected": {"A": 5, "B": 1},
}
# Regional points: a loner march is worth 5, a euchre 3, an upheld renege 3. The march is a
# loner, and an upheld renege by B (A called) comes last.
CUSTOM = {
    "overrides": {"points_loner_march": 5, "points_euchre": 3, "renege_points": 3},
    "offline": [("A", 5, True), ("B", 4, False), ("B", 0, False), ("renege", "A", "B")],
    # 1 + loner march 5 + euchre 3 + renege 3; B: make 1
    "expected": {"A": 12, "B": 1},
}


@pytest.mark.parametrize("case", [STANDARD, CUSTOM], ids=["standard-preset", "custom-points"])
def test_offline_hands_show_a_provisional_score_from_the_points_table_until_the_server_answers(
        page, context, api, shot, case):
    event = EventSetup(api, overrides=case["overrides"])
    game_id = event.game_id(0)
    event.hand(game_id, "A", 3)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    names = side_names(event.game(game_id))
    expect_score(page, {"A": 1, "B": 0})
    mark = page.locator(".provisional-mark")
    expect(mark).to_have_count(0)

    context.set_offline(True)
    for hand in case["offline"]:
        if hand[0] == "renege":
            tap_renege(page, names[hand[1]], names[hand[2]], upheld=True)
        else:
            maker, tricks, alone = hand
            tap_hand(page, names[maker], tricks, alone=alone)
    waiting = len(case["offline"])
    expect(page.locator("#outbox-badge")).to_have_text(f"⟳ {waiting} not sent")
    expect_score(page, case["expected"])
    expect(mark).to_have_text(f"Provisional: {waiting} hands not sent yet")
    expect(page.locator(".scores")).to_have_class("scores is-provisional")
    expect(mark.get_by_role("link")).to_have_attribute("href", "/outbox")
    shot(page, f"provisional-{'custom' if case['overrides'] else 'standard'}", full_page=False)
    assert event.game(game_id)["points"] == {"A": 1, "B": 0}, "nothing reached the server"

    # The app is closed and opened again, still offline: the shell from the service worker,
    # the hands from IndexedDB, the format with its points table from the kept copy.
    url = page.url
    page.close()
    again = context.new_page()
    again.goto(url)
    expect(again.locator(".scores")).to_be_visible()
    expect_score(again, case["expected"])
    expect(again.locator(".provisional-mark")).to_have_text(
        f"Provisional: {waiting} hands not sent yet")
    expect(again.locator(".game-note")).to_have_text(
        "No network: the score adds the waiting hands up from this event's points table until "
        "the server confirms it.")

    # Back online: the hands go, the server's score replaces the provisional one.
    context.set_offline(False)
    again.evaluate("window.dispatchEvent(new Event('online'))")
    game = wait_for_hands(event, game_id, 1 + waiting, timeout=25)
    assert game["points"] == case["expected"], "the provisional score was the server's score"
    expect(again.locator(".provisional-mark")).to_have_count(0, timeout=10000)
    expect(again.locator(".scores")).to_have_class("scores")
    expect_score(again, game["points"])
    expect(again.locator("#outbox-badge")).to_be_hidden()


def test_a_format_kept_without_an_entry_is_said_to_lack_it_rather_than_guessed(
        page, context, event, shot):
    """A copy of the format that lacks a value (say, kept by an older version of the app) leaves
    the waiting hands out of the score and names what is missing."""
    game_id = event.game_id(0)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    wait_for_service_worker(page)
    # The phone's kept copy of the event loses its march value; offline, it is all there is.
    page.evaluate("""async (id) => {
        const store = await import('/js/outbox.js');
        const kept = await store.get(`event:${id}`);
        delete kept.data.format.points.march;
        await store.set(`event:${id}`, kept);
    }""", event.id)
    context.set_offline(True)
    page.reload()
    expect(page.locator(".scores")).to_be_visible()
    tap_hand(page, side_names(event.game(game_id))["B"], 5)
    expect(page.locator(".game-note")).to_contain_text(
        'the score is the server\'s last one, without them (this event\'s format as kept on '
        'this phone does not say a value for "march" in this event\'s points table')
    expect(page.locator(".provisional-mark")).to_have_count(0)
    expect_score(page, {"A": 0, "B": 0})
    shot(page, "provisional-format-lacking", full_page=False)
    context.set_offline(False)

    fmt = event.api.get(f"/api/events/{event.id}")["format"]
    del fmt["points"]["march"]
    result = page.evaluate("""async (fmt) => {
        const p = await import('/js/provisional.js');
        const waiting = [{handId: 'h1', body: {maker: 'A', tricks: 4, alone: false}},
                         {handId: 'h2', body: {maker: 'B', tricks: 5, alone: false}}];
        const lacking = p.provisionalScore({A: 3, B: 2}, waiting, fmt);
        const full = p.provisionalScore({A: 3, B: 2}, waiting.slice(0, 1), fmt);
        const sent = p.provisionalScore({A: 3, B: 2}, waiting, fmt, ['h2']);
        return {lacking, full, sent};
    }""", fmt)
    assert result["lacking"]["points"] == {"A": 3, "B": 2}
    assert result["lacking"]["missing"] == 'a value for "march" in this event\'s points table'
    assert result["full"]["points"] == {"A": 4, "B": 2} and result["full"]["missing"] is None
    assert result["sent"]["points"] == {"A": 4, "B": 2}, "a hand the server has is not added"


ODD_POINTS = {"points_made": 2, "points_march": 3, "points_loner_made": 4,
              "points_loner_march": 7, "points_euchre": 5, "points_loner_euchred": 6,
              "renege_points": 8, "renege_loner_points": 9, "false_claim_points": 1}


def test_the_phone_adds_up_every_hand_shape_as_the_server_scores_it_for_every_format(page,
                                                                                     api):
    """For each preset the API serves, and a custom format whose every value differs, the
    phone's sum over every hand shape (maker, alone, tricks, renege claim) is the server's
    score for that hand."""
    formats = [(p, PRESETS[p["key"]]) for p in api.get("/api/presets")]
    _, custom, _ = api.call("POST", "/api/events", {"name": "Odd points", "preset": "progressive",
                                                    "overrides": ODD_POINTS}, expect=201)
    served = api.get(f"/api/events/{custom['id']}")["format"]
    formats.append((served, build_preset("progressive", ODD_POINTS)))
    shapes = [{"maker": maker, "tricks": tricks, "alone": alone,
               **({"renege": {"by": by, "upheld": upheld}} if by else {})}
              for maker in "AB" for alone in (False, True) for tricks in range(6)
              for by, upheld in [(None, None), ("A", True), ("A", False), ("B", True),
                                 ("B", False)]]
    page.goto("/")
    for fmt, preset in formats:
        sums = page.evaluate("""async ([fmt, shapes]) => {
            const p = await import('/js/provisional.js');
            return shapes.map((body, i) => p.provisionalScore({A: 0, B: 0},
                [{handId: `h${i}`, body}], fmt));
        }""", [fmt, shapes])
        for body, summed in zip(shapes, sums, strict=True):
            renege = Renege(**body["renege"]) if "renege" in body else None
            seat = 1 if body["maker"] == "A" else 2
            score = score_hand(Hand(maker=body["maker"], tricks=body["tricks"],
                                    alone=body["alone"], loner_seat=seat if body["alone"] else None,
                                    renege=renege), preset)
            assert summed["missing"] is None, (fmt["key"], body, summed)
            assert summed["points"] == {"A": score.points_a, "B": score.points_b}, (
                fmt["key"], body)
    assert len(formats) == 6
