"""The console's Standings: the WEC awards (Low Score, High Game) and the bump cup by player and by
table; no awards card for a format without a cup.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import EventSetup
from .steps import play

pytestmark = pytest.mark.browser

SMALL = {"viewport": {"width": 360, "height": 740}}


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
