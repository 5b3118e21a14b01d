"""The CSV exports and printable scoresheets: UTF-8 CSV with headers, no formulas, a file name any
browser and proxy accepts, and a scoresheet for every player."""

from __future__ import annotations

import csv
import io

from .client import play
from .scripts import fixed_hands_game


def _csv(response) -> list[dict]:
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff"), "a byte-order mark, so spreadsheets read UTF-8"
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


def test_the_exports_are_utf8_csv_with_headers_and_no_formulas(api, progressive):
    key, event = progressive["key"], progressive["event"]
    for t in progressive["round"]["tables"]:
        play(api, key, t["games"][0]["id"], fixed_hands_game(6, 2, 8))
    base = f"/api/events/{event['id']}/export"
    hands = api.get(f"{base}/hands.csv", key=key, expect=200)
    assert hands.mimetype == "text/csv"
    assert 'filename="fix-it-night-hands.csv"' in hands.headers["Content-Disposition"]
    rows = _csv(hands)
    assert len(rows) == 16 and rows[0]["round"] == "1" and rows[0]["hand"] == "1"
    made = next(r for r in rows if r["maker_side"] == "A" and r["tricks"] == "3")
    makers = made["makers"].removeprefix("'")  # a formula-looking name starts with ' here
    assert made["outcome"].removeprefix("'") == f"{makers} made it: {makers} +1", \
        "the table's names, not side letters"
    games = _csv(api.get(f"{base}/games.csv", key=key, expect=200))
    assert [(g["points_a"], g["points_b"], g["winner"]) for g in games] == [("6", "2", "A")] * 2
    standings = _csv(api.get(f"{base}/standings.csv", key=key, expect=200))
    assert len(standings) == 8 and set(standings[0]) >= {"place", "name", "total", "round_1"}
    names = {r["name"] for r in standings}
    assert "'=HYPERLINK(\"x\")" in names, "a formula-looking name is neutralised"
    sheets = _csv(api.get(f"{base}/scoresheets.csv", key=key, expect=200))
    assert len(sheets) == 8 and all(r["round"] == "1" for r in sheets)
    assert api.get(f"{base}/standings.csv").status_code == 401
    assert api.get(f"{base}/secrets.csv", key=key).status_code == 404


def test_every_players_scoresheet_is_readable_for_printing(api, progressive):
    sheets = api.get(f"/api/events/{progressive['event']['id']}/scoresheets",
                     expect=200).get_json()
    assert len(sheets) == 8
    assert all(len(s["rounds"]) == 1 and s["rounds"][0]["table"] in (1, 2) for s in sheets)


def test_an_export_of_an_event_named_in_any_script_has_a_latin1_file_name(api):
    # gunicorn refuses a header that is not Latin-1: "Łódź Турнир" made every export a 500.
    event = api.create_event("progressive", name="Łódź Турнир 東京 night")
    response = api.get(f"/api/events/{event['id']}/export/standings.csv",
                       key=event["organizer_key"], expect=200)
    response.get_data()
    disposition = response.headers["Content-Disposition"]
    disposition.encode("latin-1")
    assert disposition == 'attachment; filename="lodz-night-standings.csv"'
