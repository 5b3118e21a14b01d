"""Hand points are parameters of a format (RULES.md §4): a made hand, a march, a loner made,
a loner march, a euchre and a loner euchred, so regional variants need no code."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.rules.errors import InvalidPreset
from api.rules.games import sheet_hand_values
from api.rules.hands import Hand, Renege, outcome_table, renege_table, score_hand
from api.rules.presets import PRESETS, build_preset

VARIANT = {"points_loner_march": 5, "points_loner_euchred": 3, "target_points": 11}


def test_the_defaults_are_the_points_every_rule_source_gives():
    for preset in PRESETS.values():
        assert preset.hand_points() == {"made": 1, "march": 2, "loner-made": 1,
                                        "loner-march": 4, "euchred": 2, "loner-euchred": 2}


def test_a_regional_variant_scores_a_loner_march_5_and_a_euchred_loner_3_to_11():
    variant = build_preset("league", VARIANT)
    assert variant.target_points == 11 and variant.based_on == "league"
    march = score_hand(Hand(maker="A", tricks=5, alone=True, loner_seat=1), variant)
    assert (march.points_a, march.points_b) == (5, 0)
    euchred = score_hand(Hand(maker="B", tricks=1, alone=True, loner_seat=2), variant)
    assert (euchred.points_a, euchred.points_b) == (3, 0)
    assert euchred.outcome == "B euchred on a loner: A +3"
    plain = score_hand(Hand(maker="B", tricks=2), variant)
    assert (plain.points_a, plain.points_b) == (2, 0), "a partnership euchre keeps its 2"
    assert "loner march 5" in variant.summary.replace("points ", "")


@pytest.mark.parametrize(("overrides", "words"), [
    ({"points_march": 1, "points_made": 2}, "march"),
    ({"points_loner_march": 1}, "lone march"),
    ({"points_loner_march": 2, "points_march": 3}, "lone march"),
    ({"points_euchre": 0}, "between 1 and 10"),
    ({"points_made": 11}, "between 1 and 10"),
])
def test_a_points_table_no_game_could_be_played_with_is_refused_with_the_reason(overrides,
                                                                                words):
    with pytest.raises(InvalidPreset, match=words):
        build_preset("progressive", overrides)


@given(st.sampled_from(list(PRESETS)), st.booleans(), st.integers(0, 5),
       st.sampled_from(["A", "B"]))
def test_every_played_hand_gives_its_result_the_table_value_and_nothing_else(key, alone,
                                                                            tricks, maker):
    preset = build_preset(key, VARIANT if key == "league" else {"points_march": 3})
    seat = 1 if maker == "A" else 2
    score = score_hand(Hand(maker=maker, tricks=tricks, alone=alone,
                            loner_seat=seat if alone else None), preset)
    name = score.result if not (score.result == "euchred" and alone) else "loner-euchred"
    assert score.points_a + score.points_b == preset.hand_points()[name]
    assert score.scoring_side == (maker if tricks >= 3 else ("B" if maker == "A" else "A"))


def test_a_game_sheet_is_checked_against_the_formats_own_values():
    variant = build_preset("wec-singles", {"points_loner_march": 5})
    assert 5 in sheet_hand_values(variant) and 4 in sheet_hand_values(variant)
    assert 5 not in sheet_hand_values(PRESETS["wec-singles"])


def test_penalties_stay_as_the_format_has_them():
    variant = build_preset("progressive", {"points_euchre": 3})
    upheld = score_hand(Hand(maker="A", tricks=1, renege=Renege("A", True)), variant)
    assert (upheld.points_a, upheld.points_b) == (0, variant.renege_points)


def _summed_from_tables(hand: Hand, preset) -> tuple[int, int]:
    """What a phone adds up offline: table values picked by the served rows, no rules."""
    points = {"made": preset.points_made, "march": preset.points_march,
              "loner-made": preset.points_loner_made, "loner-march": preset.points_loner_march,
              "euchred": preset.points_euchre, "loner-euchred": preset.points_loner_euchred,
              "renege": preset.renege_points, "renege-loner": preset.renege_loner_points,
              "false-claim": preset.false_claim_points}
    total = {"A": 0, "B": 0}
    side = {"makers": hand.maker, "defenders": "B" if hand.maker == "A" else "A"}
    tricks_count = True
    if hand.renege is not None:
        accused = "makers" if hand.renege.by == hand.maker else "defenders"
        row = next(r for r in renege_table() if (r["accused"], r["alone"], r["upheld"])
                   == (accused, hand.alone, hand.renege.upheld))
        total[side[row["scorer"]]] += points[row["points_key"]]
        tricks_count = row["tricks_count"]
    if tricks_count:
        row = next(r for r in outcome_table(preset)
                   if (r["alone"], r["tricks"]) == (hand.alone, hand.tricks))
        total[side[row["scorer"]]] += points[row["points_key"]]
    return total["A"], total["B"]


ODD_POINTS = {"points_made": 2, "points_march": 3, "points_loner_made": 4,
              "points_loner_march": 7, "points_euchre": 5, "points_loner_euchred": 6,
              "renege_points": 8, "renege_loner_points": 9, "false_claim_points": 1}


@pytest.mark.parametrize("preset", [*PRESETS.values(), build_preset("progressive", ODD_POINTS)],
                         ids=lambda p: p.key)
def test_adding_up_the_served_tables_gives_what_the_server_scores_for_every_hand(preset):
    # Each value differs in the odd table, so a row naming the wrong entry would show.
    shapes = 0
    for maker in "AB":
        for alone in (False, True):
            for tricks in range(6):
                claims = [None] + [Renege(by, upheld) for by in "AB" for upheld in (True, False)]
                for renege in claims:
                    hand = Hand(maker=maker, tricks=tricks, alone=alone,
                                loner_seat=(1 if maker == "A" else 2) if alone else None,
                                renege=renege)
                    score = score_hand(hand, preset)
                    scored = (score.points_a, score.points_b)
                    assert _summed_from_tables(hand, preset) == scored, hand
                    shapes += 1
    assert shapes == 2 * 2 * 6 * 5
