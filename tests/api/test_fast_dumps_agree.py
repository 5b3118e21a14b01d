"""Answers written out without their schema, for speed, are the schema's dump all the same:
a game's JSON (`routes.games.game_json`, every hand's answer) and the leaderboard's bytes
(`leaderboard.body.board_body`). And the leaderboard ranked from the totals this process
keeps (`board._ranked`) is the leaderboard ranked from all the results afresh, whatever
happened in between: hands, corrections, deletions, rounds closed and seated."""

from __future__ import annotations

import json
import uuid

import pytest
from flask import current_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.core.common import get_event, preset_of
from api.core.db import db
from api.games.game_state import read_game
from api.games.schemas import GameSchema
from api.leaderboard import board as board_module
from api.leaderboard.body import board_body
from api.leaderboard.schemas import LeaderboardSchema
from api.routes.games import _iso, game_json
from api.rules import games as rgames

from .client import ApiClient, play, signer
from .scripts import fixed_hands_game

SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _schema_json(view: dict):
    return json.loads(json.dumps(GameSchema().dump(view), default=_iso))


def _same_as_schema(app, game_id: int) -> dict:
    with app.app_context():
        view = read_game(game_id)
        assert json.loads(game_json(view)) == _schema_json(view), view["label"]
        db.session.rollback()
    return view


def _agrees(app, event_id: int) -> dict:
    """The leaderboard's fast bytes are the schema's, and the kept totals rank as all the
    results do. Returns the board."""
    with app.app_context():
        event = get_event(event_id)
        board = board_module.build_leaderboard(event)
        schema = current_app.json.response(LeaderboardSchema().dump(board)).get_data()
        assert board_body(board) == schema, "the fast dump's bytes differ from the schema's"
        preset = preset_of(event)
        latest = max((r.number for r in event.rounds
                      if r.status != "scheduled" and r.stage == rgames.REGULAR), default=0)
        kept = board_module._ranked(event, preset, latest)[:3]
        assert kept == board_module._ranked_from_results(event, preset, latest), \
            "the kept totals rank differently from all the results"
        db.session.rollback()
    return board


@SQLITE_ONLY
def test_a_games_json_is_its_schemas_dump_in_every_state_it_takes(app):
    """New, in play, over, level waiting for its settlement, settled, signed off, from its
    sheet, a team format's, a league match's, with bumps and a renege claim."""
    api = ApiClient(app.test_client())
    event = api.create_event("wec-singles")
    key = event["organizer_key"]
    api.add_players(event, [f"W{i:02d}" for i in range(12)])
    games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
    _same_as_schema(app, games[0])  # new
    api.hand(key, games[0], "A", 1, renege={"by": "B", "upheld": False}, dealer=2)
    api.hand(key, games[0], "B", 5, alone=True, loner_seat=2)
    _same_as_schema(app, games[0])  # in play, with bumps
    api.put(f"/api/games/{games[1]}/sheet", key=key,
            json={"points": {"A": 10, "B": 6}, "bumps": {"2": 1}}, expect=200)
    _same_as_schema(app, games[1])  # from its sheet
    level = play(api, key, games[2], fixed_hands_game(6, 6, 12))
    assert level["needs_settlement"]
    _same_as_schema(app, games[2])  # level, waiting
    api.post(f"/api/games/{games[2]}/settlement", key=key,
             json={"method": "playoff-hand", "winner": "A"}, expect=200)
    settled = _same_as_schema(app, games[2])
    api.post(f"/api/games/{games[2]}/sign-off", key=key, json={"by": signer(settled)},
             expect=200)
    _same_as_schema(app, games[2])  # signed off

    teams = api.create_event("teams")
    for n in range(4):
        api.add_team(teams, f"Team {n}", [f"A{n}", f"B{n}"])
    game = api.seat_round(teams, 1)["tables"][0]["games"][0]["id"]
    play(api, teams["organizer_key"], game, fixed_hands_game(7, 5, 12))
    _same_as_schema(app, game)  # a team format's, over

    league, league_key, _teams = api.league(teams=("North", "South"))
    game = api.seat_round(league, 1)["tables"][0]["games"][0]["id"]
    api.hand(league_key, game, "A", 4)
    _same_as_schema(app, game)  # one game of a league match


# What may happen to a progressive night between two reads of its leaderboard.
STEPS = st.lists(st.sampled_from(["hand", "hand", "hand", "edit", "delete", "round"]),
                 min_size=1, max_size=10)


@SQLITE_ONLY
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=STEPS, data=st.data())
def test_the_leaderboard_agrees_with_its_schema_and_all_the_results_after_any_change(
        app, steps, data):
    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{n}" for n in range(8)])
    round_ = api.seat_round(event, 1)
    number = 1
    _agrees(app, event["id"])
    for step in steps:
        games = [api.game(t["games"][0]["id"]) for t in round_["tables"]]
        if step == "hand":
            game = data.draw(st.sampled_from(games))
            if not game["over"]:
                api.hand(key, game["id"], data.draw(st.sampled_from("AB")),
                         data.draw(st.integers(0, 5)), expect=201)
        elif step in ("edit", "delete"):
            # A correction, maybe in a round closed before (then it may be refused).
            game = data.draw(st.sampled_from(games))
            if not game["hands"]:
                continue
            hand = data.draw(st.sampled_from(game["hands"]))
            path = f"/api/games/{game['id']}/hands/{hand['id']}"
            headers = {"If-Match": f'"{game["version"]}"'}
            if step == "edit":
                api.put(path, key=key, headers=headers, expect=(200, 409),
                        json={"maker": hand["maker"] or "A",
                              "tricks": data.draw(st.integers(0, 5))})
            else:
                api.delete(path, key=key, headers=headers, expect=(200, 409))
        elif number < 3:  # every game played out, the round closed and the next seated
            for game in games:
                while not game["over"]:
                    game = api.post(f"/api/games/{game['id']}/hands", key=key, expect=201,
                                    json={"id": uuid.uuid4().hex, "maker": "A",
                                          "tricks": 3}).get_json()
            api.close_round(event, round_["id"])
            number += 1
            round_ = api.seat_round(event, number)
        _agrees(app, event["id"])


@SQLITE_ONLY
def test_every_formats_leaderboard_agrees_with_its_schema_and_all_the_results(app):
    """The other formats' boards carry what a progressive night's does not: teams and their
    members, the bump cup, games won, a league's week points."""
    api = ApiClient(app.test_client())
    for preset in ("teams", "wec-singles", "wec-doubles"):
        event = api.create_event(preset)
        key = event["organizer_key"]
        if preset == "wec-singles":
            api.add_players(event, [f"W{i:02d}" for i in range(12)])
        else:
            for n in range(4):
                api.add_team(event, f"Team {n}", [f"A{n}", f"B{n}"])
        games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
        _agrees(app, event["id"])
        api.hand(key, games[0], "A", 1, **({"alone": True, "loner_seat": 1}
                                            if preset.startswith("wec") else {}))
        play(api, key, games[1], fixed_hands_game(7, 5, 12))
        _agrees(app, event["id"])
    league, key, _teams = api.league(teams=("North", "South", "East", "West"))
    game = api.seat_round(league, 1)["tables"][0]["games"][0]["id"]
    play(api, key, game, [{"maker": "A", "tricks": 5}] * 5)
    _agrees(app, league["id"])


@SQLITE_ONLY
def test_a_board_with_hands_waiting_agrees_with_its_schema(app):
    """Under double entry: the tables' waiting entries and each row's note are written out
    as the schema dumps them, before and after the same rows' JSON was kept."""
    api = ApiClient(app.test_client())
    event = api.create_event("progressive", verification="double_entry")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(12)])
    games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
    _agrees(app, event["id"])
    for number, game in enumerate(games):
        api.post(f"/api/games/{game}/hands", key=key, expect=201,
                 json={"id": f"w-{uuid.uuid4().hex}", "side": "A", "maker": "A",
                       "tricks": 3 + number % 2})
    api.post(f"/api/games/{games[0]}/hands", key=key, expect=201,
             json={"id": f"w-{uuid.uuid4().hex}", "side": "B", "maker": "A", "tricks": 5})
    board = _agrees(app, event["id"])
    assert [w["mismatch"] for w in board["waiting"]] == [True, False, False]
    assert all(row["waiting"] for row in board["rows"])
    api.post(f"/api/games/{games[1]}/hands", key=key, expect=201,
             json={"id": f"w-{uuid.uuid4().hex}", "side": "B", "maker": "A", "tricks": 4})
    board = _agrees(app, event["id"])
    assert sum(1 for row in board["rows"] if row["waiting"]) == 8
