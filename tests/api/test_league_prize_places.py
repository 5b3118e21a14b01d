"""A league's prize flags follow its format's prize places: the preset rewards first place only,
a custom league every prize place it names."""

from __future__ import annotations

from .client import play_sheet
from .scripts import to_target_game


def test_a_custom_league_marks_every_prize_place_of_its_format(api):
    event, key, teams = api.league(("North", "South", "East", "West"),
                                prize_places=[[1, 1], [4, 3]])
    round_ = api.seat_round(event, 1)
    for t in round_["tables"]:
        for game in t["games"]:
            play_sheet(api, key, game["id"], to_target_game("A", 5))
    rows = sorted(api.leaderboard(event)["rows"], key=lambda r: r["place"])
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    assert [r["prize"] for r in rows] == [True, True, True, False]


def test_the_league_preset_marks_only_first_place(api):
    event, key, _ = api.league(("North", "South", "East", "West"))
    rows = sorted(api.leaderboard(event)["rows"], key=lambda r: r["place"])
    assert [r["prize"] for r in rows] == [True, False, False, False]
