"""Ratings (RULES.md section 8): the update against the openskill package's own figures, the
order properties a re-rating relies on, what is not rated, and whether a simulated club's
ratings find its players' true skills."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from openskill.models import ThurstoneMostellerFull

from api.rules import rating_check as rc
from api.rules import ratings as rr

people = st.integers(min_value=1, max_value=9)


@st.composite
def scores(draw, winner):
    """A game's score (side A's, side B's) that `winner` won, level (won on its playoff
    hand) or not, or None (a score not known)."""
    if draw(st.booleans()):
        return None
    lost = draw(st.integers(min_value=0, max_value=12))
    won = draw(st.integers(min_value=lost, max_value=16))
    return (won, lost) if winner == "A" else (lost, won)


@st.composite
def games(draw, max_size=12):
    found = []
    for order in range(draw(st.integers(min_value=0, max_value=max_size))):
        four = draw(st.lists(people, min_size=4, max_size=4, unique=True))
        winner = draw(st.sampled_from("AB"))
        found.append(rr.RatedGame(order, order, (four[0], four[1]), (four[2], four[3]),
                                  winner, None, draw(scores(winner))))
    return found


skill = st.tuples(st.floats(min_value=0, max_value=50), st.floats(min_value=0.5, max_value=9))


@settings(max_examples=50, deadline=None)
@given(skill, skill, skill, skill)
def test_the_update_is_openskills_thurstone_mosteller(w1, w2, l1, l2):
    """OpenSkill's ThurstoneMostellerFull with the three settings api/rules/ratings.py
    gives (beta, gamma = 1, no draw margin). Beyond an upset the model put at less than one
    in 30,000 the package's normal curve (from erf) loses digits that ours (erfc) keeps."""
    c = math.sqrt(sum(s * s + rr.TAU ** 2 for _, s in (w1, w2, l1, l2)) + 2 * rr.BETA ** 2)
    assume((w1[0] + w2[0] - l1[0] - l2[0]) / c > -4)
    model = ThurstoneMostellerFull(beta=rr.BETA, tau=rr.TAU, epsilon=0.0,
                                   gamma=lambda *_: 1.0)
    (a, b), (c, d) = model.rate([[model.rating(*w1), model.rating(*w2)],
                                 [model.rating(*l1), model.rating(*l2)]])
    ours = rr.update((w1, w2), (l1, l2))
    theirs = (((a.mu, a.sigma), (b.mu, b.sigma)), ((c.mu, c.sigma), (d.mu, d.sigma)))
    for side_ours, side_theirs in zip(ours, theirs, strict=True):
        for one, other in zip(side_ours, side_theirs, strict=True):
            assert math.isclose(one[0], other[0], rel_tol=1e-9, abs_tol=1e-9)
            assert math.isclose(one[1], other[1], rel_tol=1e-9, abs_tol=1e-9)
    # The prediction is the package's own for this model.
    sides = [[model.rating(*w1), model.rating(*w2)], [model.rating(*l1), model.rating(*l2)]]
    assert math.isclose(rr.win_probability((w1, w2), (l1, l2)), model.predict_win(sides)[0],
                        abs_tol=1e-9)


def test_an_upset_far_past_a_floats_reach_still_moves_sensibly():
    strong, weak = ((200.0, 1.0), (200.0, 1.0)), ((0.0, 1.0), (0.0, 1.0))
    (w1, _), (l1, _) = rr.update(weak, strong)
    assert w1[0] > 0.0 and l1[0] < 200.0 and all(map(math.isfinite, (*w1, *l1)))


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
    flipped[k] = game._replace(winner="B" if game.winner == "A" else "A",
                               points=game.points and game.points[::-1])
    _, steps = rr.rate(played)
    _, corrected = rr.rate(flipped)
    assert corrected[:4 * k] == steps[:4 * k]
    assert corrected[4 * k:4 * k + 4] != steps[4 * k:4 * k + 4]


@settings(max_examples=25, deadline=None)
@given(games().filter(lambda g: len(g) > 1), st.data())
def test_a_corrected_score_with_the_same_winner_changes_only_from_that_game_on(played, data):
    """A correction that leaves the winner but changes the margin re-rates too: from that
    game on, and not before."""
    k = data.draw(st.integers(min_value=0, max_value=len(played) - 1))
    game = played[k]
    if game.points is None:
        before = 1.0
    else:  # the weight is read from the winners' side
        before = rr.weight(*(game.points if game.winner == "A" else game.points[::-1]))
    won = 12 if before < 2.5 else 7  # a shutout now, or a closer game than a shutout
    changed = list(played)
    changed[k] = game._replace(points=(won, 0) if game.winner == "A" else (0, won))
    if before == 2.5:
        changed[k] = game._replace(points=(7, 5) if game.winner == "A" else (5, 7))
    _, steps = rr.rate(played)
    _, corrected = rr.rate(changed)
    assert corrected[:4 * k] == steps[:4 * k]
    assert [s.after for s in corrected[4 * k:4 * k + 4]] != \
        [s.after for s in steps[4 * k:4 * k + 4]]
    assert [s.won for s in corrected] == [s.won for s in steps]


def test_a_games_weight_grows_with_its_margin():
    assert rr.weight(6, 6) == 0.5  # level, won on its playoff hand
    assert rr.weight(10, 0) == 2.5  # a shutout
    assert rr.weight(6, 4) == 0.9 and rr.weight(10, 5) == 0.5 + 2 * 5 / 15
    assert rr.weight(0, 0) == 1.0  # a score that says nothing counts as one game
    assert rr.weight(4, 7) == 0.5  # a ruling gave the game to the side behind
    assert rr.weight(5, -2) == 2.5  # points below zero (penalties) count as none


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-4, max_value=20), st.integers(min_value=-4, max_value=20),
       st.integers(min_value=1, max_value=6))
def test_weight_is_between_a_half_and_two_and_a_half_and_a_wider_margin_weighs_more(
        won, lost, more):
    w = rr.weight(won, lost)
    assert 0.5 <= w <= 2.5
    if won > lost >= more:  # the same points played, the margin wider
        assert rr.weight(won + more, lost - more) > w


@settings(max_examples=100, deadline=None)
@given(skill, skill, skill, skill, st.floats(min_value=0.5, max_value=2.5))
def test_at_any_weight_winners_rise_losers_fall_and_a_heavier_game_moves_more(
        w1, w2, l1, l2, weight):
    (a, b), (c, d) = rr.update((w1, w2), (l1, l2), weight)
    assert a[0] >= w1[0] and b[0] >= w2[0] and c[0] <= l1[0] and d[0] <= l2[0]
    for new, old in ((a, w1), (b, w2), (c, l1), (d, l2)):
        assert 0 < new[1] <= math.sqrt(old[1] ** 2 + rr.TAU ** 2)
    (a1, _), (c1, _) = rr.update((w1, w2), (l1, l2), 1.0)
    rise, fall, rise1, fall1 = a[0] - w1[0], l1[0] - c[0], a1[0] - w1[0], l1[0] - c1[0]
    heavier = weight >= 1.0
    assert (rise >= rise1 - 1e-12) == heavier or math.isclose(rise, rise1, abs_tol=1e-12)
    assert (fall >= fall1 - 1e-12) == heavier or math.isclose(fall, fall1, abs_tol=1e-12)
    assert rr.update((w1, w2), (l1, l2)) == rr.update((w1, w2), (l1, l2), 1.0)


def test_a_rout_moves_the_ratings_more_than_a_squeaker():
    four = ((1, 2), (3, 4))
    rout = rr.rate([rr.RatedGame(1, 1, *four, "A", points=(10, 1))])[0]
    squeak = rr.rate([rr.RatedGame(1, 1, *four, "A", points=(10, 9))])[0]
    unknown = rr.rate([rr.RatedGame(1, 1, *four, "A")])[0]
    assert rout[1][0] > unknown[1][0] > squeak[1][0] > rr.MU > squeak[3][0]
    assert rout[3][0] < squeak[3][0]
    # The score is read from the winners' side whichever side won.
    mirrored = rr.rate([rr.RatedGame(1, 1, four[1], four[0], "B", points=(1, 10))])[0]
    assert mirrored == rout


def test_not_rated():
    four = [1, 2, 3, 4]
    assert rr.rateable(four, "A", forfeited=False, settled_by_card_draw=False)
    assert not rr.rateable([1, 2, None, 4], "A", False, False)  # a ghost seat
    assert not rr.rateable([1, 2, 3, 3], "A", False, False)
    assert not rr.rateable(four, None, False, False)  # not finished
    assert not rr.rateable(four, "A", True, False)  # forfeited
    assert not rr.rateable(four, "A", False, True)  # settled by a card draw


def test_a_long_history_rates_alike_by_game_and_by_night_and_leaves_the_collector_on():
    """Past 10,000 games the cyclic garbage collector waits while they are rated: the
    ratings are the same by game and by night, and it is on again after."""
    import gc

    games = [rr.RatedGame(n, n, (n % 7, 7 + n % 5), (12 + n % 3, 15 + n % 4), "AB"[n % 3 % 2],
                          n // 50) for n in range(10_001)]
    assert gc.isenabled()
    whole, steps = rr.rate(games)
    assert gc.isenabled() and len(steps) == 4 * len(games)
    by_night, rows = rr.rate_nights(games)
    assert gc.isenabled() and by_night == whole
    assert sum(r.games for r in rows) == 4 * len(games)


def test_rating_into_a_given_dict_from_a_start_is_rating_on_from_there():
    games = [rr.RatedGame(n, n, (n % 5, 5 + n % 3), (8 + n % 2, 10 + n % 4), "AB"[n % 3 % 2],
                          n // 10) for n in range(60)]
    kept: dict = {}
    rr.rate(games[:30], ratings=kept)
    into: dict = {}
    assert rr.rate(games[30:], start=kept, ratings=into)[0] is into
    assert into == rr.rate(games)[0]


def test_win_probability_is_even_for_equals_and_favours_the_stronger():
    even = rr.win_probability((rr.START, rr.START), (rr.START, rr.START))
    assert even == 0.5
    strong, weak = ((30, 2), (30, 2)), ((20, 2), (20, 2))
    assert rr.win_probability(strong, weak) > 0.75
    assert rr.win_probability(strong, weak, steepness=2) > rr.win_probability(strong, weak)
    assert math.isclose(rr.win_probability(strong, weak) + rr.win_probability(weak, strong), 1)


def test_the_learned_steepness_finds_the_curve_the_games_follow():
    """Games won with the chance normal(0.6 d): the steepness learned from them comes near
    0.6, and the chance it gives is the curve at that steepness; before any game, 1."""
    import random

    curve = rc.Calibrated(rr.normal_cdf, 1.0, 0.25, 4.0)
    assert curve.steepness == 1.0 and curve.chance(0.0) == 0.5
    rng = random.Random(5)
    for _ in range(4000):
        d = rng.uniform(-3, 3)
        curve.learn(d, rng.random() < rr.normal_cdf(0.6 * d))
    assert 0.5 < curve.steepness < 0.72
    assert math.isclose(curve.chance(1.0), rr.normal_cdf(curve.steepness))


def test_the_backtest_scores_each_game_before_it_is_rated():
    """Two games of the same four: the first is even for everybody (nothing known), the
    second is predicted from the first's result only."""
    one = rc.PlayedGame(1, (1, 2), (3, 4), "A", 8, 2, 8)
    two = rc.PlayedGame(2, (1, 2), (3, 4), "A", 8, 2, 8)
    first = rc.backtest([one])
    assert first["ratings"]["brier"] == first["coin"]["brier"] == 0.25
    assert first["points_per_hand"]["brier"] == 0.25
    both = rc.backtest([two, one])  # handed in out of order: played in order
    assert both["ratings"]["games"] == 2 and both["ratings"]["brier"] < 0.25
    assert both["points_per_hand"]["brier"] < 0.25


def test_spearman():
    assert math.isclose(rc.spearman([1, 2, 3], [10, 20, 30]), 1.0)
    assert math.isclose(rc.spearman([1, 2, 3], [3, 2, 1]), -1.0)
    # Ties share their average rank; a constant list says nothing (0, not a division by 0).
    assert math.isclose(rc.spearman([1, 2, 2, 3], [1, 2, 3, 4]), 0.9486832980505138)
    assert rc.spearman([5, 5, 5], [1, 2, 3]) == 0.0


def test_a_simulated_club_plays_as_described_and_repeats_from_its_seed():
    club = rc.simulate_club(people=20, nights=3, seed=4, rounds=2, hands_per_game=8)
    assert len(club.skills) == 20 and len(club.nights) == 3
    assert club.games == [g for night in club.nights for g in night]
    assert [g.order for g in club.games] == list(range(1, len(club.games) + 1))
    for night in club.nights:
        per_round = len(night) // 2
        assert len(night) == 2 * per_round
        for start in (0, per_round):  # each round seats everybody who came once
            seated = [p for g in night[start:start + per_round] for p in g.side_a + g.side_b]
            assert len(seated) == len(set(seated)) == 4 * per_round
    for game in club.games:
        assert game.hands == 8 and game.winner in "AB"
        if game.points_a != game.points_b:  # a level game goes to a playoff hand's winner
            assert game.winner == ("A" if game.points_a > game.points_b else "B")
    assert club == rc.simulate_club(people=20, nights=3, seed=4, rounds=2, hands_per_game=8)

    to_ten = rc.simulate_club(people=8, nights=2, seed=2, rounds=1, to_points=10)
    assert to_ten.games and all(10 <= max(g.points_a, g.points_b) <= 13  # 9 + a loner march
                                and min(g.points_a, g.points_b) < 10 for g in to_ten.games)
    # Stronger pairs win more often: the backtest's ratings beat the coin on a longer run.
    found = rc.backtest(rc.simulate_club(people=24, nights=8, seed=1, rounds=4).games)
    assert found["ratings"]["brier"] < found["coin"]["brier"]


@st.composite
def nights(draw, max_nights=5):
    """Games over a few nights (each night's games contiguous in play order, as a club's
    are), among nine people, so people miss nights and come back."""
    found, order = [], 0
    for night in range(draw(st.integers(min_value=0, max_value=max_nights))):
        for _ in range(draw(st.integers(min_value=1, max_value=4))):
            four = draw(st.lists(people, min_size=4, max_size=4, unique=True))
            winner = draw(st.sampled_from("AB"))
            found.append(rr.RatedGame(order, order, (four[0], four[1]), (four[2], four[3]),
                                      winner, night, draw(scores(winner))))
            order += 1
    return found


@settings(max_examples=40, deadline=None)
@given(nights(), st.data())
def test_rating_by_night_resumes_from_any_night_as_from_scratch(played, data):
    """What the club keeps: re-rating from night k on, starting from each person's rating
    after the nights before, gives the same rows and ratings as rating everything; and each
    row is its night's steps summed (first before, last after, games, wins)."""
    everything, rows = rr.rate_nights(played)
    k = data.draw(st.integers(min_value=0, max_value=len({g.night for g in played})))
    before, first_rows = rr.rate_nights([g for g in played if g.night < k])
    resumed, later_rows = rr.rate_nights([g for g in played if g.night >= k], before)
    assert resumed == everything
    assert first_rows + later_rows == rows
    steps_now, steps = rr.rate(played)
    assert steps_now == everything
    for row in rows:
        mine = [s for s in steps if s.person == row.person and
                played[s.order].night == row.night]
        assert (row.before, row.after, row.games, row.wins) == (
            mine[0].before, mine[-1].after, len(mine), sum(s.won for s in mine))
    assert sum(r.games for r in rows) == len(steps)
