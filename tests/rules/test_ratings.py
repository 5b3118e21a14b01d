"""Ratings (RULES.md section 8): the update against the openskill package's own figures, the
order properties a re-rating relies on, what is not rated, and whether a simulated club's
ratings find its players' true skills."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from api.rules import rating_check as rc
from api.rules import ratings as rr

people = st.integers(min_value=1, max_value=9)


@st.composite
def games(draw, max_size=12):
    found = []
    for order in range(draw(st.integers(min_value=0, max_value=max_size))):
        four = draw(st.lists(people, min_size=4, max_size=4, unique=True))
        found.append(rr.RatedGame(order, order, (four[0], four[1]), (four[2], four[3]),
                                  draw(st.sampled_from("AB"))))
    return found


skill = st.tuples(st.floats(min_value=0, max_value=50), st.floats(min_value=0.5, max_value=9))


@settings(max_examples=25, deadline=None)
@given(skill, skill, skill, skill)
def test_the_update_is_openskills_plackett_luce(w1, w2, l1, l2):
    model = PlackettLuce()
    (a, b), (c, d) = model.rate([[model.rating(*w1), model.rating(*w2)],
                                 [model.rating(*l1), model.rating(*l2)]])
    ours = rr.update((w1, w2), (l1, l2))
    theirs = (((a.mu, a.sigma), (b.mu, b.sigma)), ((c.mu, c.sigma), (d.mu, d.sigma)))
    for side_ours, side_theirs in zip(ours, theirs, strict=True):
        for one, other in zip(side_ours, side_theirs, strict=True):
            assert math.isclose(one[0], other[0], rel_tol=1e-9, abs_tol=1e-9)
            assert math.isclose(one[1], other[1], rel_tol=1e-9, abs_tol=1e-9)


def test_a_win_raises_the_winners_and_lowers_the_losers():
    (w1, w2), (l1, l2) = rr.update((rr.START, rr.START), (rr.START, rr.START))
    assert w1[0] > rr.MU > l1[0] and w1 == w2 and l1 == l2
    assert w1[1] < rr.SIGMA and rr.display(w1) > rr.display(rr.START) == 0.0
    # An upset moves more than the expected result.
    strong, weak = ((30.0, 3.0), (30.0, 3.0)), ((20.0, 3.0), (20.0, 3.0))
    expected = rr.update(strong, weak)[0][0][0] - 30.0
    upset = rr.update(weak, strong)[0][0][0] - 20.0
    assert upset > expected > 0


@settings(max_examples=25, deadline=None)
@given(games())
def test_the_same_games_in_the_same_order_rate_alike(played):
    assert rr.rate(played) == rr.rate(list(played))
    # However they are handed in: the play order decides.
    assert rr.rate(played)[0] == rr.rate(list(reversed(played)))[0]


@settings(max_examples=25, deadline=None)
@given(games(), st.data())
def test_rerating_from_game_k_equals_rating_everything(played, data):
    k = data.draw(st.integers(min_value=0, max_value=len(played)))
    everything, all_steps = rr.rate(played)
    before, first_steps = rr.rate(played[:k])
    resumed, later_steps = rr.rate(played[k:], before)
    assert resumed == everything
    assert first_steps + later_steps == all_steps


@settings(max_examples=25, deadline=None)
@given(games().filter(lambda g: len(g) > 1), st.data())
def test_a_correction_changes_only_from_that_game_on(played, data):
    k = data.draw(st.integers(min_value=0, max_value=len(played) - 1))
    flipped = list(played)
    game = played[k]
    flipped[k] = rr.RatedGame(game.order, game.key, game.side_a, game.side_b,
                              "B" if game.winner == "A" else "A")
    _, steps = rr.rate(played)
    _, corrected = rr.rate(flipped)
    assert corrected[:4 * k] == steps[:4 * k]
    assert corrected[4 * k:4 * k + 4] != steps[4 * k:4 * k + 4]


def test_not_rated():
    four = [1, 2, 3, 4]
    assert rr.rateable(four, "A", forfeited=False, settled_by_card_draw=False)
    assert not rr.rateable([1, 2, None, 4], "A", False, False)  # a ghost seat
    assert not rr.rateable([1, 2, 3, 3], "A", False, False)
    assert not rr.rateable(four, None, False, False)  # not finished
    assert not rr.rateable(four, "A", True, False)  # forfeited
    assert not rr.rateable(four, "A", False, True)  # settled by a card draw


def test_win_probability_is_even_for_equals_and_favours_the_stronger():
    even = rr.win_probability((rr.START, rr.START), (rr.START, rr.START))
    assert even == 0.5
    assert rr.win_probability(((30, 2), (30, 2)), ((20, 2), (20, 2))) > 0.8


def test_a_simulated_club_is_ranked_by_true_skill_and_predicted_better_than_a_coin():
    club = rc.simulate_club(people=60, nights=20, seed=7)
    result = rc.backtest(club.games)
    ranked = [p for p in club.skills if p in result["final"]]
    assert len(ranked) >= 55
    rho = rc.spearman([club.skills[p] for p in ranked],
                      [rr.display(result["final"][p]) for p in ranked])
    assert rho >= 0.8
    assert result["ratings"]["brier"] < result["coin"]["brier"] - 0.03
    assert result["ratings"]["log_loss"] < result["coin"]["log_loss"]
    assert result["ratings"]["accuracy"] > 0.6


def test_spearman():
    assert math.isclose(rc.spearman([1, 2, 3], [10, 20, 30]), 1.0)
    assert math.isclose(rc.spearman([1, 2, 3], [3, 2, 1]), -1.0)
