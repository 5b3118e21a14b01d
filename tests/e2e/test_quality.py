"""What every screen owes its users: accessibility, phone fit, touch targets, installability."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import SERVICE_WORKER
from .steps import join_with_pin, open_game, wait_for_service_worker, wec_event

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}}

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


def serious_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


# axe is injected as a script: the app's CSP (script-src 'self') would block it otherwise.
@pytest.mark.browser_context_args(bypass_csp=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_the_main_screens(page, event, scheme):
    page.emulate_media(color_scheme=scheme)
    game_id = event.game_id(0)
    event.hand(game_id, "A", 3)
    event.hand(game_id, "B", 0)
    join_with_pin(page, event)
    screens = {}

    def scan(name):
        page.wait_for_timeout(200)  # let the screen settle (toasts, focus)
        screens[name] = serious_violations(page)

    scan("tables")
    open_game(page, event, game_id)
    page.locator('[data-k="maker-A"]').click()
    scan("game")
    page.get_by_role("button", name="Renege…").click()
    scan("renege")
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("li.board-row")).to_have_count(8)
    scan("leaderboard")
    page.goto(f"/e/{event.id}/players/{event.players[0]['id']}")
    expect(page.locator(".sheet-total")).to_be_visible()
    scan("scoresheet")
    page.goto("/outbox")
    scan("outbox")
    page.goto("/")
    scan("home")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/e/{event.id}/projector")
    expect(page.locator(".proj-row").first).to_be_visible()
    scan("projector")
    found = {name: v for name, v in screens.items() if v}
    assert not found, json.dumps(found, indent=1)


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 640})
def test_every_screen_fits_a_360_by_640_phone_without_sideways_scrolling(page, event, shot):
    game_id = event.game_id(0)
    for maker, tricks in [("A", 3), ("B", 5), ("A", 1)]:
        event.hand(game_id, maker, tricks)
    join_with_pin(page, event)

    def fits(name):
        page.wait_for_timeout(150)
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"{name} scrolls sideways: {width}"

    fits("tables")
    open_game(page, event, game_id)
    fits("game")
    shot(page, "game-360x640", full_page=False)
    page.get_by_role("button", name="Renege…").click()
    fits("renege")
    page.get_by_role("button", name="Cancel the renege").click()
    page.get_by_role("button", name="Edit hand 1").click()
    fits("edit")
    for path in [f"/e/{event.id}/board", f"/e/{event.id}/players/{event.players[0]['id']}",
                 "/outbox", "/", f"/join/{event.code}", f"/e/{event.id}/organize"]:
        page.goto(path)
        page.wait_for_selector("main > *:not(.loading)")
        fits(path)


def test_the_score_is_the_biggest_thing_and_every_control_is_at_least_48_px(page, event):
    game_id = event.game_id(0)
    event.hand(game_id, "A", 3)
    join_with_pin(page, event)
    open_game(page, event, game_id)
    page.locator('[data-k="maker-B"]').click()
    sizes = page.evaluate("""() => {
        const px = (el) => parseFloat(getComputedStyle(el).fontSize);
        const score = px(document.querySelector('.side-points'));
        const others = [...document.querySelectorAll('main *')]
            .filter((el) => !el.closest('.side-points') && el.childElementCount === 0
                    && el.textContent.trim())
            .map(px);
        const small = [...document.querySelectorAll('main button, main .btn, main summary,'
                                                   + ' main input, main select')]
            .filter((el) => el.offsetParent !== null)
            .map((el) => {
                const r = el.getBoundingClientRect();
                return {text: el.textContent.trim() || el.id, w: r.width, h: r.height};
            })
            .filter((b) => b.w < 48 || b.h < 48);
        return {score, biggestOther: Math.max(...others), small};
    }""")
    assert sizes["score"] > sizes["biggestOther"], sizes
    assert sizes["small"] == [], sizes["small"]
    # The entry buttons sit in the lower half of the screen, within the thumb's reach.
    tricks = page.locator('[data-k="tricks-3"]').bounding_box()
    assert tricks["y"] > 844 / 2


@pytest.mark.browser_context_args(**SERVICE_WORKER)
def test_the_app_is_installable_and_opens_with_no_network(page, context, event):
    page.goto("/")
    manifest = page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).headers["content-type"] == "image/png"
    wait_for_service_worker(page)
    context.set_offline(True)
    for path in ["/", f"/e/{event.id}/board", "/a/screen/never/seen"]:
        page.goto(path)
        expect(page.locator("header.bar")).to_be_visible()
    context.set_offline(False)


def test_the_words_module_phrases_server_data_without_arithmetic(page):
    """words.js is pure (no DOM, no network): checked here by importing it in the page."""
    page.goto("/")
    result = page.evaluate("""async () => {
        const w = await import('/js/words.js');
        const rows = (await (await fetch('/api/presets/progressive')).json()).hand_values;
        const sides = {A: {name: 'Ann & Carol'}, B: {name: 'Bob & Dave'}};
        return {
            labels: w.tricksRows(rows, false).map(w.tricksLabel),
            alone: w.tricksRows(rows, true).map(w.tricksLabel),
            outcome: w.outcomeWords('B euchred: A +2', sides),
            renege: w.outcomeWords('renege by A: B +2', sides),
            clock: [w.clockText(754), w.clockText(-3), w.clockLevel(301), w.clockLevel(300),
                    w.clockLevel(120)],
            move: [w.movement(2).mark, w.movement(-1).mark, w.movement(0).mark],
            search: w.matchesSearch({name: 'Team', members: ['Zoe Smith']}, 'smi'),
            pages: w.pages([1, 2, 3, 4, 5], 2).length,
        };
    }""")
    assert result["labels"] == ["0 · euchred", "1 · euchred", "2 · euchred", "3 · +1", "4 · +1",
                                "5 · marched +2"]
    assert result["alone"][5] == "5 · marched alone +4"
    assert result["outcome"] == "Bob & Dave euchred: Ann & Carol +2"
    assert result["renege"] == "renege by Ann & Carol: Bob & Dave +2"
    assert result["clock"] == ["12:34", "0:00", "ok", "amber", "red"]
    assert result["move"] == ["▲2", "▼1", ""]
    assert result["search"] is True and result["pages"] == 3


# axe is injected as a script: the app's CSP (script-src 'self') would block it otherwise.
@pytest.mark.browser_context_args(bypass_csp=True, **SMALL_PHONE)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_key_needed_awards_and_games_to_come_panels(
        page, api, scheme):
    page.emulate_media(color_scheme=scheme)
    event = wec_event(api)
    screens = {}

    def scan(name):
        page.wait_for_timeout(200)
        screens[name] = serious_violations(page)

    join_with_pin(page, event, table=1)
    expect(page.locator(".table-card")).to_have_count(1)
    scan("tables")
    open_game(page, event, event.game_id(1))
    expect(page.locator("section.key-needed")).to_be_visible()
    scan("key-needed")
    page.goto(f"/e/{event.id}/board")
    expect(page.locator("section.awards .cup-total")).to_be_visible()
    scan("board-awards")
    page.goto(f"/e/{event.id}/players/{event.players[0]['id']}")
    expect(page.locator(".upcoming-list > li").first).to_be_visible()
    scan("scoresheet-upcoming")
    found = {name: v for name, v in screens.items() if v}
    assert not found, found
