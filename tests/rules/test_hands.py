"""One hand: RULES.md's points table, its renege table per preset, bumps, and illegal hands."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules.errors import IllegalHand
from api.rules.hands import (
    PENALTY,
    RESULT_WORDS,
    A,
    B,
    Hand,
    HandScore,
    Renege,
    outcome_table,
    score_hand,
)
from api.rules.presets import PRESETS

LEAGUE = PRESETS["league"]
PROGRESSIVE = PRESETS["progressive"]
TEAMS = PRESETS["teams"]
WEC_SINGLES = PRESETS["wec-singles"]
WEC_DOUBLES = PRESETS["wec-doubles"]
ALL_PRESETS = list(PRESETS.values())
BUMP_PRESETS = [WEC_SINGLES, WEC_DOUBLES]

# RULES.md section 1: (alone, maker tricks, result, makers' points, defenders' points)
POINTS_TABLE = [
    (False, 3, "made", 1, 0),
    (False, 4, "made", 1, 0),
    (False, 5, "march", 2, 0),
    (False, 0, "euchred", 0, 2),
    (False, 1, "euchred", 0, 2),
    (False, 2, "euchred", 0, 2),
    (True, 5, "loner-march", 4, 0),
    (True, 3, "loner-made", 1, 0),
    (True, 4, "loner-made", 1, 0),
    (True, 0, "euchred", 0, 2),
    (True, 1, "euchred", 0, 2),
    (True, 2, "euchred", 0, 2),
]
LONER_SEAT = {A: 3, B: 2}


def other(side):
    return B if side == A else A


# --- section 1: the points table, identical in every preset -------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS, ids=lambda p: p.key)
@pytest.mark.parametrize("maker", [A, B])
@pytest.mark.parametrize(("alone", "tricks", "result", "makers", "defenders"), POINTS_TABLE)
def test_every_preset_scores_a_hand_by_the_points_table(
        preset, maker, alone, tricks, result, makers, defenders):
    hand = Hand(maker=maker, tricks=tricks, alone=alone,
                loner_seat=LONER_SEAT[maker] if alone else None)
    score = score_hand(hand, preset)
    assert score.result == result
    assert score.points(maker) == makers
    assert score.points(other(maker)) == defenders
    assert score.counts


def test_a_partnership_march_scores_two_for_the_makers():
    score = score_hand(Hand(maker=B, tricks=5), LEAGUE)
    assert (score.points_a, score.points_b) == (0, 2)
    assert score.scoring_side == B
    assert score.outcome == "B marched: B +2"


def test_a_loner_march_scores_four_for_the_makers():
    score = score_hand(Hand(maker=A, tricks=5, alone=True), TEAMS)
    assert (score.points_a, score.points_b) == (4, 0)
    assert score.outcome == "A marched alone: A +4"


def test_euchred_makers_give_the_defenders_two():
    score = score_hand(Hand(maker=A, tricks=2), PROGRESSIVE)
    assert (score.points_a, score.points_b) == (0, 2)
    assert score.scoring_side == B
    assert score.outcome == "A euchred: B +2"


def test_outside_the_bump_presets_a_euchred_loner_needs_no_seat():
    score = score_hand(Hand(maker=A, tricks=1, alone=True), TEAMS)
    assert (score.points_a, score.points_b) == (0, 2)
    assert score.bumps == {}
    assert score.outcome == "A euchred on a loner: B +2"


@pytest.mark.parametrize("preset", ALL_PRESETS, ids=lambda p: p.key)
def test_the_outcome_table_rows_match_the_points_table(preset):
    rows = outcome_table(preset)
    expected = {(alone, tricks): (result, makers, defenders)
                for alone, tricks, result, makers, defenders in POINTS_TABLE}
    assert len(rows) == len(expected) == 12
    for row in rows:
        result, makers, defenders = expected[(row["alone"], row["tricks"])]
        assert row["result"] == result
        assert row["label"] == RESULT_WORDS[result]
        assert (row["makers_score"], row["defenders_score"]) == (makers, defenders)


# --- section 2: reneges, preset by preset ------------------------------------------------

# (preset, maker, alone, offender, points A, points B)
UPHELD_RENEGES = [
    # league: the other side +2, also against a loner
    (LEAGUE, A, False, B, 2, 0),
    (LEAGUE, A, True, B, 2, 0),
    (LEAGUE, A, False, A, 0, 2),
    (LEAGUE, B, True, A, 0, 2),
    # progressive: the offender's opponents +2
    (PROGRESSIVE, A, False, B, 2, 0),
    (PROGRESSIVE, A, True, B, 2, 0),
    (PROGRESSIVE, B, False, B, 2, 0),
    # teams: the wronged side +2, +4 when the wronged side declared a loner
    (TEAMS, A, False, B, 2, 0),
    (TEAMS, A, True, B, 4, 0),
    (TEAMS, B, True, A, 0, 4),
    (TEAMS, A, True, A, 0, 2),  # the loner's own side reneged: the defenders get the plain 2
    (TEAMS, B, False, A, 0, 2),
    # WEC: the same as teams
    (WEC_SINGLES, A, False, B, 2, 0),
    (WEC_SINGLES, A, True, B, 4, 0),
    (WEC_DOUBLES, B, True, A, 0, 4),
    (WEC_DOUBLES, B, True, B, 2, 0),
]


@pytest.mark.parametrize(("preset", "maker", "alone", "offender", "points_a", "points_b"),
                         UPHELD_RENEGES,
                         ids=lambda v: v.key if hasattr(v, "key") else repr(v))
def test_an_upheld_renege_scores_only_the_penalty_for_the_wronged_side(
        preset, maker, alone, offender, points_a, points_b):
    hand = Hand(maker=maker, tricks=5, alone=alone,
                loner_seat=LONER_SEAT[maker] if alone else None,
                renege=Renege(by=offender, upheld=True))
    score = score_hand(hand, preset)
    assert (score.points_a, score.points_b) == (points_a, points_b)
    assert score.result == "renege"
    assert score.counts


def test_an_upheld_renege_needs_no_trick_count_because_the_tricks_are_ignored():
    score = score_hand(Hand(maker=A, renege=Renege(by=A, upheld=True)), TEAMS)
    assert (score.points_a, score.points_b) == (0, 2)
    assert score.outcome == "renege by A: B +2"


def test_a_league_renege_against_a_loner_is_still_worth_only_two():
    hand = Hand(maker=B, tricks=5, alone=True, renege=Renege(by=A, upheld=True))
    assert score_hand(hand, LEAGUE).points_b == 2


def test_a_teams_renege_against_a_declared_loner_is_worth_four():
    hand = Hand(maker=B, tricks=1, alone=True, renege=Renege(by=A, upheld=True))
    score = score_hand(hand, TEAMS)
    assert (score.points_a, score.points_b) == (0, 4)
    assert score.outcome == "renege by A: B +4"


def test_a_wrong_progressive_claim_pays_the_accused_side_two_and_the_hand_stands():
    # B claims A reneged; the claim is wrong. A (the claimant's opponents) get 2, and A's
    # three tricks as makers still score 1.
    hand = Hand(maker=A, tricks=3, renege=Renege(by=A, upheld=False))
    score = score_hand(hand, PROGRESSIVE)
    assert (score.points_a, score.points_b) == (3, 0)
    assert score.result == "made"
    assert score.outcome == "A made it: A +1; wrong renege claim: A +2"


def test_a_wrong_progressive_claim_against_the_defenders_gives_both_sides_points():
    # A made it (+1); A wrongly claimed B reneged, so B gets 2.
    hand = Hand(maker=A, tricks=4, renege=Renege(by=B, upheld=False))
    score = score_hand(hand, PROGRESSIVE)
    assert (score.points_a, score.points_b) == (1, 2)
    assert score.scoring_side is None


def test_a_wrong_progressive_claim_still_needs_the_hands_tricks():
    with pytest.raises(IllegalHand, match="how many tricks"):
        score_hand(Hand(maker=A, renege=Renege(by=B, upheld=False)), PROGRESSIVE)


@pytest.mark.parametrize("preset", [LEAGUE, TEAMS, WEC_SINGLES, WEC_DOUBLES],
                         ids=lambda p: p.key)
def test_a_wrong_claim_costs_nothing_outside_the_progressive(preset):
    hand = Hand(maker=B, tricks=5, renege=Renege(by=A, upheld=False))
    score = score_hand(hand, preset)
    assert (score.points_a, score.points_b) == (0, 2)
    assert score.result == "march"
    assert score.bumps == {}


# --- bumps (WEC only) ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", BUMP_PRESETS, ids=lambda p: p.key)
def test_a_euchred_partnership_costs_each_maker_a_dollar(preset):
    assert score_hand(Hand(maker=A, tricks=2), preset).bumps == {1: 1, 3: 1}
    assert score_hand(Hand(maker=B, tricks=0), preset).bumps == {2: 1, 4: 1}


@pytest.mark.parametrize("preset", BUMP_PRESETS, ids=lambda p: p.key)
def test_a_euchred_loner_costs_the_lone_player_two_dollars(preset):
    score = score_hand(Hand(maker=B, tricks=1, alone=True, loner_seat=4), preset)
    assert score.bumps == {4: 2}
    assert score.points_a == 2


def test_a_euchred_loner_in_a_bump_preset_must_say_who_went_alone():
    with pytest.raises(IllegalHand, match="say which seat went alone"):
        score_hand(Hand(maker=A, tricks=2, alone=True), WEC_SINGLES)


def test_a_loner_that_makes_it_needs_no_seat_even_in_a_bump_preset():
    score = score_hand(Hand(maker=A, tricks=4, alone=True), WEC_DOUBLES)
    assert score.points_a == 1
    assert score.bumps == {}


@pytest.mark.parametrize("tricks", [3, 4, 5])
def test_made_hands_cost_nobody_a_bump(tricks):
    assert score_hand(Hand(maker=A, tricks=tricks), WEC_SINGLES).bumps == {}


def test_an_upheld_wec_renege_costs_each_player_of_the_offending_side_a_dollar():
    hand = Hand(maker=A, tricks=5, alone=True, loner_seat=1, renege=Renege(by=B, upheld=True))
    score = score_hand(hand, WEC_SINGLES)
    assert (score.points_a, score.points_b) == (4, 0)
    assert score.bumps == {2: 1, 4: 1}


@pytest.mark.parametrize("preset", [LEAGUE, PROGRESSIVE, TEAMS], ids=lambda p: p.key)
def test_presets_without_a_bump_cup_never_give_bumps(preset):
    assert score_hand(Hand(maker=A, tricks=0), preset).bumps == {}
    assert score_hand(Hand(maker=A, renege=Renege(by=A, upheld=True)), preset).bumps == {}


def test_thrown_in_cards_cost_a_dollar_a_seat_with_no_points_and_are_not_a_hand():
    score = score_hand(Hand(kind=PENALTY, surrendered=(4, 2)), WEC_DOUBLES)
    assert score.bumps == {2: 1, 4: 1}
    assert (score.points_a, score.points_b) == (0, 0)
    assert not score.counts
    assert score.result == "penalty"
    assert score.outcome == "cards thrown in (seat 2, 4): a bump each"
    assert score.scoring_side is None


# --- hands that cannot have happened -------------------------------------------------------


@pytest.mark.parametrize(("hand", "preset", "words"), [
    (Hand(maker=A, tricks=6), LEAGUE, "took 6 tricks\\? A hand has 5 tricks"),
    (Hand(maker=A, tricks=-1), LEAGUE, "took -1 tricks"),
    (Hand(maker=A, tricks="3"), LEAGUE, "enter 0 to 5"),
    (Hand(maker=A, tricks=True), LEAGUE, "enter 0 to 5"),
    (Hand(maker=A), LEAGUE, "how many tricks the makers took"),
    (Hand(maker=A, renege=Renege(by=B, upheld=False)), LEAGUE, "how many tricks"),
    (Hand(maker="C", tricks=3), LEAGUE, "which side called trump: A or B"),
    (Hand(tricks=3), TEAMS, "which side called trump"),
    (Hand(maker=A, tricks=3, alone=True, loner_seat=2), TEAMS,
     "Seat 2 is not on the makers' side \\(A\\); only a maker can go alone"),
    (Hand(maker=B, tricks=3, alone=True, loner_seat=5), TEAMS, "Seat 5 is not on the makers'"),
    (Hand(maker=A, tricks=3, loner_seat=1), WEC_SINGLES, "not played alone"),
    (Hand(maker=A, tricks=3, renege=Renege(by="C", upheld=True)), TEAMS,
     "accused of reneging: A or B"),
    (Hand(maker=A, tricks=3, surrendered=(1,)), WEC_SINGLES, "separate penalty entry"),
    (Hand(kind="misdeal"), LEAGUE, "Unknown kind of entry 'misdeal'"),
    (Hand(kind=PENALTY, surrendered=(1,)), PROGRESSIVE, "keeps no bump cup"),
    (Hand(kind=PENALTY, surrendered=(1,)), LEAGUE, "keeps no bump cup"),
    (Hand(kind=PENALTY), WEC_SINGLES, "which seats threw in"),
    (Hand(kind=PENALTY, surrendered=(3, 3)), WEC_SINGLES, "only once per entry"),
    (Hand(kind=PENALTY, surrendered=(0,)), WEC_SINGLES, "numbered 1 to 4"),
    (Hand(kind=PENALTY, surrendered=(5,)), WEC_DOUBLES, "numbered 1 to 4"),
    (Hand(kind=PENALTY, surrendered=(1,), maker=A), WEC_SINGLES, "carries only the seats"),
    (Hand(kind=PENALTY, surrendered=(1,), tricks=2), WEC_SINGLES, "carries only the seats"),
    (Hand(kind=PENALTY, surrendered=(1,), alone=True), WEC_SINGLES, "carries only the seats"),
    (Hand(kind=PENALTY, surrendered=(1,), renege=Renege(by=A, upheld=True)), WEC_SINGLES,
     "carries only the seats"),
], ids=lambda v: v.key if hasattr(v, "key") else None)
def test_a_hand_that_cannot_have_happened_is_refused_with_the_reason(hand, preset, words):
    with pytest.raises(IllegalHand, match=words) as refused:
        score_hand(hand, preset)
    assert refused.value.code == "illegal-hand"
    assert refused.value.kind == "invalid"


def test_a_hand_score_reports_each_sides_points_by_name():
    score = HandScore(1, 2, "made", "test")
    assert (score.points(A), score.points(B)) == (1, 2)
    assert score.scoring_side is None


# --- properties over every legal hand -------------------------------------------------------


@st.composite
def legal_hands(draw):
    maker = draw(st.sampled_from([A, B]))
    alone = draw(st.booleans())
    loner_seat = draw(st.sampled_from((1, 3) if maker == A else (2, 4))) if alone else None
    renege = draw(st.none() | st.builds(Renege, st.sampled_from([A, B]), st.booleans()))
    tricks = draw(st.integers(0, 5))
    if renege is not None and renege.upheld and draw(st.booleans()):
        tricks = None
    return Hand(maker=maker, tricks=tricks, alone=alone, loner_seat=loner_seat, renege=renege)


@settings(max_examples=100, deadline=None)
@given(hand=legal_hands(), preset=st.sampled_from(ALL_PRESETS))
def test_every_scored_hand_pays_exactly_one_side_unless_a_false_claim_penalty_applies(
        hand, preset):
    score = score_hand(hand, preset)
    false_claim = (hand.renege is not None and not hand.renege.upheld
                   and preset.false_claim_points > 0)
    if not false_claim:
        assert score.scoring_side in (A, B)
        assert min(score.points_a, score.points_b) == 0
    assert score.points_a >= 0 and score.points_b >= 0
    assert score.counts


@settings(max_examples=100, deadline=None)
@given(hand=legal_hands(), preset=st.sampled_from(ALL_PRESETS))
def test_a_plain_hand_is_always_worth_one_two_or_four(hand, preset):
    plain = Hand(maker=hand.maker, tricks=hand.tricks if hand.tricks is not None else 3,
                 alone=hand.alone, loner_seat=hand.loner_seat)
    score = score_hand(plain, preset)
    assert score.points_a + score.points_b in (1, 2, 4)


@settings(max_examples=100, deadline=None)
@given(hand=legal_hands() | st.builds(Hand, kind=st.just(PENALTY),
                                      surrendered=st.lists(st.integers(1, 4), min_size=1,
                                                           max_size=4, unique=True)
                                      .map(tuple)),
       preset=st.sampled_from(ALL_PRESETS))
def test_bumps_are_only_ever_given_in_the_bump_presets(hand, preset):
    try:
        score = score_hand(hand, preset)
    except IllegalHand:
        assert hand.kind == PENALTY and not preset.bumps
        return
    if not preset.bumps:
        assert score.bumps == {}
    assert all(dollars in (1, 2) for dollars in score.bumps.values())


ANY_HAND = st.builds(
    Hand,
    maker=st.sampled_from([A, B, "C", None]),
    tricks=st.one_of(st.integers(-2, 7), st.none(), st.just("3"), st.booleans()),
    alone=st.booleans(),
    loner_seat=st.one_of(st.none(), st.integers(0, 5)),
    renege=st.one_of(st.none(), st.builds(Renege, st.sampled_from([A, B, "X"]), st.booleans())),
    kind=st.sampled_from(["play", "penalty", "misdeal"]),
    surrendered=st.lists(st.integers(0, 5), max_size=4).map(tuple),
)


@settings(max_examples=100, deadline=None)
@given(hand=ANY_HAND, preset=st.sampled_from(ALL_PRESETS))
def test_any_entry_is_either_scored_or_refused_in_words_never_crashes(hand, preset):
    try:
        score = score_hand(hand, preset)
    except IllegalHand as refused:
        assert refused.message
        return
    assert score.result in RESULT_WORDS
