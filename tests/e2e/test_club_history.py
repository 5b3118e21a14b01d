"""Bringing a club's history in, on the club's console: a spreadsheet picked, its preview
(nights, names, a line to correct), the corrected file imported, the nights on the club's
list."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SHEET = "Date,Player,Place,Points\n2025-01-07,Ann Baker,1,42\n2025-01-07,Bo Diaz,2,35\n"


def test_the_club_previews_and_imports_its_past_nights(page: Page, api):
    _, made, _ = api.call("POST", "/api/clubs", {"name": "History Club",
                                                 "slug": f"hc-{uuid.uuid4().hex[:6]}"},
                          expect=201)
    page.goto(f"/c/{made['slug']}/manage#key={made['club_key']}")
    page.get_by_role("button", name="Open…").click()
    files = page.get_by_label("The spreadsheet")
    files.set_input_files({"name": "past.csv", "mimeType": "text/csv",
                           "buffer": (SHEET + "2025-01-14,Cy,first,3\n").encode()})
    page.get_by_role("button", name="Preview").click()
    expect(page.locator(".history-errors")).to_contain_text("Line 4")
    expect(page.get_by_role("button", name="Import these nights")).to_be_hidden()

    # Saved by a spreadsheet on Windows as plain "CSV" (Windows-1252): the accent is kept.
    files.set_input_files({"name": "past.csv", "mimeType": "text/csv",
                           "buffer": (SHEET + "2025-01-07,Zoë Ames,3,20\n").encode("cp1252")})
    page.get_by_role("button", name="Preview").click()
    expect(page.locator(".history-people")).to_contain_text("Bo Diaz (new)")
    expect(page.locator(".history-people")).to_contain_text("Zoë Ames (new)")
    page.get_by_role("button", name="Import these nights").click()
    expect(page.get_by_role("link", name="Night of 2025-01-07 (imported)")).to_be_visible()
