"""Every CSV the app serves is inert in a spreadsheet (issue 27.5): no cell of any file, its
header row included, starts with =, +, -, @, a tab or a carriage return, unless it is a plain
number (-2.5 is a number, not a formula) or a name kept as text the app's own way (="007",
a string constant: api/exports.TextCell).

The CSV routes are found in the app's route map (any route ending in .csv, or documented as
answering text/csv), so a new CSV cannot escape: a route this test cannot fill in fails it.
Each is read with hostile event, series, club, team and people names."""

from __future__ import annotations

import csv
import io
import re
import uuid

import pytest

from api import create_app
from api.exports import EXPORTS
from tests.api.client import play
from tests.api.scripts import fixed_hands_game

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
TEXT_CONSTANT = re.compile(r'="(?:[^"]|"")*"')  # ="007": a string, nothing run
HOSTILE = ["=HYPERLINK(\"http://evil.example\",\"click\")", "+SUM(A1:A2)", "-2+3",
           "@SUM(1,1)", "=cmd|' /C calc'!A0", "=1+1"]


def csv_routes() -> list[str]:
    """Every GET route that answers CSV, from the route map and the API's own description."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})
    found = set()
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        view = app.view_functions[rule.endpoint]
        documented = "text/csv" in repr(getattr(getattr(view, "view_class", view), "get",
                                                view).__dict__.get("_apidoc", ""))
        if rule.rule.endswith(".csv") or documented:
            found.add(rule.rule)
    return sorted(found)


ROUTES = csv_routes()


def test_the_route_map_has_the_csv_routes_this_test_knows_how_to_fill():
    assert "/api/clubs/<int:club_id>/series/<int:series_id>/standings.csv" in ROUTES
    assert "/api/events/<int:event_id>/export/<string:name>.csv" in ROUTES


def _dangerous(cells: list[str]) -> list[str]:
    return [c for c in cells if c.startswith(FORMULA_START)
            and not PLAIN_NUMBER.fullmatch(c) and not TEXT_CONSTANT.fullmatch(c)]


def _cells(response) -> list[str]:
    text = response.get_data(as_text=True)
    assert response.status_code == 200, text[:300]
    assert response.mimetype == "text/csv"
    return [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) for cell in row]


def _world(api) -> dict:
    """A club named like a formula, its night and series named so too, people and a private
    one among them; a league whose teams are formulas."""
    club = api.post("/api/clubs", json={"name": HOSTILE[0], "slug": f"x-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    key = club["club_key"]
    night = api.post(f"/api/clubs/{club['id']}/events", key=key,
                     json={"name": HOSTILE[0], "preset": "progressive"}, expect=201).get_json()
    names = [*HOSTILE, "Bob", "Carol"]
    for name in names:
        api.post(f"/api/events/{night['id']}/players", key=key,
                 json={"name": name, "checked_in": True, "people": {name: "new"}}, expect=201)
    round_ = api.post(f"/api/events/{night['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    play(api, key, round_["tables"][0]["games"][0]["id"], fixed_hands_game(5, 3, 8))
    # A ruling's reason is a cell of hands.csv (its own row), games.csv and scoresheets.csv.
    api.post(f"/api/games/{round_['tables'][0]['games'][0]['id']}/rulings", key=key,
             json={"kind": "adjust", "side": "A", "points": -1, "reason": HOSTILE[1]},
             expect=201)
    api.post(f"/api/games/{round_['tables'][1]['games'][0]['id']}/hands", key=key,
             json={"id": "n1", "maker": "A", "tricks": 3, "note": HOSTILE[4]}, expect=201)
    series = api.post(f"/api/clubs/{club['id']}/series", key=key,
                      json={"name": HOSTILE[1], "event_ids": [night["id"]]},
                      expect=201).get_json()
    people = api.get(f"/api/clubs/{club['id']}/people", key=key).get_json()
    api.patch(f"/api/clubs/{club['id']}/people/{people[0]['id']}", key=key,
              json={"private": True}, expect=200)
    league, league_key, _ = api.league(teams=(HOSTILE[2], HOSTILE[3]))
    api.patch(f"/api/events/{league['id']}", key=league_key, json={"name": HOSTILE[5]},
              expect=200)
    return {"club": club, "night": night, "series": series, "league": league,
            "league_key": league_key}


def _urls(rule: str, world: dict):
    """(url, key) for each way to read this CSV route."""
    club, key = world["club"], world["club"]["club_key"]
    if rule == "/api/clubs/<int:club_id>/series/<int:series_id>/standings.csv":
        url = f"/api/clubs/{club['id']}/series/{world['series']['id']}/standings.csv"
        yield url, None
        yield url, key
    elif rule == "/api/clubs/<int:club_id>/ratings.csv":  # the night's finished game is rated
        yield f"/api/clubs/{club['id']}/ratings.csv", None
        yield f"/api/clubs/{club['id']}/ratings.csv", key
    elif rule == "/api/events/<int:event_id>/export/<string:name>.csv":
        for name in EXPORTS:
            yield f"/api/events/{world['night']['id']}/export/{name}.csv", key
            yield f"/api/events/{world['league']['id']}/export/{name}.csv", world["league_key"]
    else:
        pytest.fail(f"{rule} answers CSV: teach this test to read it with hostile names")


@pytest.mark.parametrize("rule", ROUTES)
def test_no_cell_of_any_csv_is_a_formula(api, rule):
    world = _world(api)
    seen = []
    for url, key in _urls(rule, world):
        cells = _cells(api.get(url, key=key))
        assert _dangerous(cells) == [], url
        seen += cells
    # The hostile names are there, neutralised (not merely absent).
    assert any(c.startswith("'") and c[1:] in HOSTILE for c in seen)


def test_the_series_header_holds_event_names_neutralised(api):
    world = _world(api)
    url = f"/api/clubs/{world['club']['id']}/series/{world['series']['id']}/standings.csv"
    header = next(csv.reader(io.StringIO(api.get(url).get_data(as_text=True).lstrip("\ufeff"))))
    assert header[5] == "'" + HOSTILE[0]
