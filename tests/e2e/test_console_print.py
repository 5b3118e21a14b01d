"""Printed scoresheets from the console: headers over their numbers, "–" for a round being played,
and a WEC singles player's games still to come.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup
from .steps import play

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 860}, "is_mobile": False, "has_touch": False,
          "device_scale_factor": 1}


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


def _pdf_pages(pdf: bytes) -> int:
    """Pages in a PDF chromium printed: its page objects (not the /Pages tree)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.browser_context_args(**LAPTOP)
def test_the_scoresheets_print_one_page_a_player_and_no_blank_page(page: Page, api):
    night = EventSetup(api, "progressive", players=12, name="Print night")
    play(night, night.game_id(0), [("A", 3), ("B", 1)])
    page.goto(f"/e/{night.id}/organize/print/sheets?order=table#key={night.organizer_key}")
    expect(page.locator(".sheet-page")).to_have_count(12)
    # Table order: the players of table 1 first, seat by seat.
    first = [s["name"] for s in sorted(night.tables[0]["seats"], key=lambda s: s["seat"])]
    expect(page.locator(".sheet-page h2").first).to_have_text(first[0])
    assert page.locator(".sheet-page h2").all_inner_texts()[:4] == first
    assert _pdf_pages(page.pdf(format="Letter")) == 12

    page.goto(f"/e/{night.id}/organize/print/seating#key={night.organizer_key}")
    expect(page.locator(".seating-page")).to_have_count(1)
    expect(page.locator(".seating-list li")).to_have_count(12)
    assert _pdf_pages(page.pdf(format="Letter")) == 1
