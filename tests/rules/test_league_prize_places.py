"""A league's prize flags follow its prize places: first place only in the preset, the top three
or a number by field size in a custom league."""

from api.rules.presets import PRESETS, build_preset
from api.rules.standings import Result, league_standings


def _week(round_, a, b, a_wins):
    """One league week of three games to 10; `a` wins `a_wins` of them."""
    results = []
    for game in range(3):
        won = game < a_wins
        results += [Result(a, round_, 10 if won else 6, 6 if won else 10, won, opponent=b),
                    Result(b, round_, 6 if won else 10, 10 if won else 6, not won, opponent=a)]
    return results


SEASON = [*_week(1, "North", "South", 3), *_week(1, "East", "West", 2),
          *_week(2, "North", "East", 2), *_week(2, "South", "West", 1)]
TEAMS = ["North", "South", "East", "West"]


def _prizes(standings):
    return {s.entrant: s.prize for s in standings}


def test_the_league_preset_gives_a_prize_to_first_place_only():
    assert PRESETS["league"].prize_places == ((1, 1),)
    prizes = _prizes(league_standings(PRESETS["league"], SEASON, TEAMS))
    assert sum(prizes.values()) == 1


def test_a_custom_league_with_three_prize_places_marks_the_top_three():
    preset = build_preset("league", {"prize_places": [[1, 3]]})
    board = sorted(league_standings(preset, SEASON, TEAMS), key=lambda s: s.place)
    assert [s.prize for s in board] == [True, True, True, False]


def test_a_league_prize_places_by_field_size_count_the_teams():
    preset = build_preset("league", {"prize_places": [[1, 1], [4, 2], [8, 3]]})
    board = sorted(league_standings(preset, SEASON, TEAMS), key=lambda s: s.place)
    assert [s.prize for s in board] == [True, True, False, False]
    smaller = league_standings(preset, [r for r in SEASON if r.entrant != "West"
                                        and r.opponent != "West"], TEAMS[:3])
    assert sum(s.prize for s in smaller) == 1
