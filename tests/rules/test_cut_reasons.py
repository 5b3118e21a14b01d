"""The championship cut says why each team goes through, is out, or plays off again: the rule
that decided, in words (RULES.md §3 `teams`: games won in the round robin, then its points)."""

from __future__ import annotations

from api.rules.standings import (
    LEVEL,
    OUT,
    THROUGH,
    Cut,
    PlayoffGame,
    Standing,
    championship_cut,
    resolve_cut,
)


def _totals(*pairs):
    return [Standing(team, 0, total) for team, total in pairs]


def _status(cut: Cut) -> dict:
    return {team: status for team, status, _ in cut.reasons}


def test_the_cut_says_who_is_in_the_top_two_who_plays_off_and_who_is_below():
    cut = championship_cut(
        _totals(("A", 40), ("B", 33), ("C", 33), ("D", 33), ("E", 20), ("W", 50)),
        ineligible=["W"])
    assert _status(cut) == {"W": OUT, "A": THROUGH, "B": LEVEL, "C": LEVEL, "D": LEVEL,
                            "E": OUT}
    assert cut.reason("A") == (THROUGH, "40 points: in the top 2")
    assert cut.reason("C") == (LEVEL, "level at the cut on 33 points: plays off for the "
                               "championship")
    assert cut.reason("E") == (OUT, "20 points: below the cut (33 points)")
    assert cut.reason("W") == (OUT, "withdrawn: not in the cut")


def test_a_round_robin_level_on_wins_is_decided_by_points_and_each_team_is_told_why():
    three = championship_cut(_totals(("A", 40), ("B", 33), ("C", 33), ("D", 33)))
    games = [PlayoffGame("B", "C", 4, 1, "B"), PlayoffGame("B", "D", 3, 5, "D"),
             PlayoffGame("C", "D", 5, 1, "C")]
    # Each wins once; points B 7, C 6, D 6: B goes through on points, C and D are out.
    resolved = resolve_cut(three, games)
    assert resolved == Cut(("A", "B"))
    assert resolved.reason("B") == (THROUGH, "won 1 of 2 playoff games, level with another "
                                    "team; 7 points in the playoff: through on points")
    assert resolved.reason("C")[0] == OUT and "out on points" in resolved.reason("C")[1]
    assert resolved.reason("A") == (THROUGH, "40 points: in the top 2"), "kept from the cut"


def test_teams_still_level_after_the_round_robin_play_off_again_and_the_rest_are_told_why():
    three = championship_cut(_totals(("A", 40), ("B", 33), ("C", 33), ("D", 33)))
    games = [PlayoffGame("B", "C", 4, 1, "B"), PlayoffGame("B", "D", 3, 5, "D"),
             PlayoffGame("C", "D", 5, 2, "C")]
    # Points B 7, C 6, D 7: B and D level on wins and points play a two-team playoff.
    resolved = resolve_cut(three, games)
    assert resolved.contenders == ("B", "D")
    assert _status(resolved)["B"] == _status(resolved)["D"] == LEVEL
    assert resolved.reason("C")[0] == OUT
    final = resolve_cut(resolved, [PlayoffGame("D", "B", 4, 2, "D")])
    assert final.reason("D") == (THROUGH, "won the playoff at the cut")
    assert final.reason("B") == (OUT, "lost the playoff at the cut")
    assert final.reason("C")[0] == OUT, "earlier reasons are kept"


def test_a_round_robin_won_outright_is_decided_on_games_won():
    three = championship_cut(_totals(("A", 40), ("B", 33), ("C", 33), ("D", 33)))
    games = [PlayoffGame("B", "C", 4, 1, "B"), PlayoffGame("B", "D", 3, 2, "B"),
             PlayoffGame("D", "C", 5, 1, "D")]
    resolved = resolve_cut(three, games)
    assert resolved.reason("B") == (THROUGH, "won 2 of 2 playoff games: through on games won")
    assert resolved.reason("C") == (OUT, "won 0 of 2 playoff games: out on games won")
