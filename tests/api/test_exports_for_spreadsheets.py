"""Exports a spreadsheet opens as the organizer meant them: names stay text ("007" is not the
number 7, "Mar 5" is not a date), and entry times read as dates and times in the event's own
time zone. (Checked by hand in LibreOffice; here, the bytes that make it so.)"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from api.exports import CHUNK, as_text, local_time, safe_cell, stream_csv


def _rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


@pytest.mark.parametrize("name", ["007", "1-2", "Mar 5", "5 March", "TRUE", "3/4", "10%",
                                  "7:30", "1e5", "1,5"])
def test_a_name_a_spreadsheet_would_turn_into_a_number_or_date_is_written_as_text(name):
    assert safe_cell(as_text(name)) == f'="{name}"'


@pytest.mark.parametrize("name", ["Ann", "Ann & Carol", "May", "12 Angry Men", "Bob 2"])
def test_ordinary_names_are_written_as_they_are(name):
    assert safe_cell(as_text(name)) == name


def test_a_quote_inside_a_kept_name_is_doubled():
    assert safe_cell(as_text('1"2')) == '1"2', "not number-like: left alone"
    assert as_text("12").cell == '="12"'


def test_the_exports_keep_names_as_text_and_time_entries_in_the_events_zone(api):
    event = api.post("/api/events", json={"name": "Bar night", "preset": "progressive",
                                          "time_zone": "America/Detroit"},
                     expect=201).get_json()
    key = event["organizer_key"]
    api.add_players(event, ["007", "Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina"])
    table = api.seat_round(event, 1)["tables"][0]
    state = api.hand(key, table["games"][0]["id"], "A", 3, note="3-4")
    stored = api.game(table["games"][0]["id"])["hands"][0]["created_at"]

    base = f"/api/events/{event['id']}/export"
    standings = _rows(api.get(f"{base}/standings.csv", key=key, expect=200))
    assert '="007"' in [row["name"] for row in standings]
    hands = _rows(api.get(f"{base}/hands.csv", key=key, expect=200))
    assert hands[0]["note"] == '="3-4"'
    local = datetime.fromisoformat(stored).astimezone(ZoneInfo("America/Detroit"))
    assert hands[0]["entered_at"] == local.strftime("%Y-%m-%d %H:%M:%S")
    assert state["points"] == {"A": 1, "B": 0}
    sheets = _rows(api.get(f"{base}/scoresheets.csv", key=key, expect=200))
    assert '="007"' in [row["player"] for row in sheets]
    disposition = api.get(f"{base}/games.csv", key=key, expect=200).headers[
        "Content-Disposition"]
    assert disposition == 'attachment; filename="bar-night-games.csv"', "the event's name"


def test_a_long_export_comes_in_chunks_that_join_to_the_whole_file():
    rows = [[n, f"Player {n}", "=1+1"] for n in range(5000)]
    chunks = list(stream_csv(["id", "name", "note"], rows))
    assert len(chunks) > 1 and all(len(c) >= CHUNK for c in chunks[:-1])
    text = "".join(chunks)
    assert text.startswith("\ufeffid,name,note\r\n")
    read = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert len(read) == 5001 and read[-1][:2] == ["4999", "Player 4999"]
    assert read[1][2] != "=1+1", "a formula stays text in every chunk"


def test_a_moment_reads_in_the_events_zone_and_an_unknown_one_is_blank():
    toronto = ZoneInfo("America/Toronto")
    assert local_time(None, toronto) == ""
    assert local_time(datetime(2026, 11, 24, 0, 5, 33), toronto) == "2026-11-23 19:05:33"
