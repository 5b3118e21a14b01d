"""A league's weeks are seated when the season is scheduled, their games stored with no hands.
Until a week starts, every view says it is still to come ("scheduled": no score), never that
its games are being played: the rounds (each table and game), the season, games.csv."""

from __future__ import annotations

import csv
import io

from .client import play_sheet
from .scripts import to_target_game


def _games_csv(api, eid, key) -> list[dict]:
    text = api.get(f"/api/events/{eid}/export/games.csv", key=key, expect=200)
    return list(csv.DictReader(io.StringIO(text.get_data(as_text=True).lstrip("\ufeff"))))


def _statuses(api, eid, key) -> dict[int, tuple]:
    """Each week: its tables' statuses, its games' statuses, its season matches' statuses,
    and games.csv's ended_by of its games."""
    rounds = {r["number"]: r for r in api.get(f"/api/events/{eid}/rounds", key=key,
                                               expect=200).get_json()}
    season = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    rows = _games_csv(api, eid, key)
    out = {}
    for week in season["weeks"]:
        number = week["week"]
        tables = rounds[number]["tables"]
        out[number] = ({t["status"] for t in tables},
                       {g["status"] for t in tables for g in t["games"]},
                       {m["status"] for m in week["matches"]},
                       {r["ended_by"] for r in rows if r["round"] == str(number)})
    return out


def test_a_week_not_started_is_scheduled_in_every_view_and_playing_once_opened(api):
    event, key, _ = api.league(("North", "South", "East", "West"), weeks=3)
    eid = event["id"]
    scheduled = ({"scheduled"},) * 4
    assert _statuses(api, eid, key) == {1: scheduled, 2: scheduled, 3: scheduled}

    week1 = api.seat_round(event, 1)
    now = _statuses(api, eid, key)
    assert now[1] == ({"playing"},) * 4 and now[2] == now[3] == scheduled

    for table in week1["tables"]:
        for game in table["games"]:
            play_sheet(api, key, game["id"], to_target_game("A", 3))
    now = _statuses(api, eid, key)
    assert now[1] == ({"over"}, {"over"}, {"over"}, {"target"}) and now[2] == scheduled
    first = api.get(f"/api/events/{eid}/rounds", key=key, expect=200).get_json()[0]
    assert {g["points"]["A"] for t in first["tables"] for g in t["games"]} == {10}
