"""The night's story from plain data (api/rules/recap.py, recap_words.py): its hand facts
count what the profile counts, its comeback is the largest deficit a winner overcame, a game
without hands tells none of them, and every number a sentence says is in its fact."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from api.rules import recap, stats
from api.rules.recap_words import sentences
from api.rules.seats import SIDE_OF_SEAT

hands_st = st.lists(st.tuples(st.sampled_from("AB"), st.integers(0, 5), st.booleans(),
                              st.sampled_from([None, 1, 2, 3, 4]), st.integers(0, 4),
                              st.integers(0, 4)), min_size=1, max_size=10)


@st.composite
def nights(draw):
    games = []
    for number in range(draw(st.integers(1, 4))):
        rows = draw(hands_st)
        hands = tuple(recap.HandRow(f"g{number}h{i}", i + 1, pa, pb, maker, alone, seat,
                                    tricks)
                      for i, (maker, tricks, alone, seat, pa, pb) in enumerate(rows))
        a, b = sum(h.points_a for h in hands), sum(h.points_b for h in hands)
        sheet = draw(st.booleans()) and number == 0
        seats = tuple(range(number * 4 + 1, number * 4 + 5))
        games.append(recap.GameRow(number + 1, 1, number + 1, seats, a, b,
                                   "A" if a >= b else "B", () if sheet else hands,
                                   from_sheet=sheet))
    names = {p: f"P{p}" for g in games for p in g.seats}
    placings = [recap.Placing(p, None, 0) for p in names]
    return recap.Night(games=games, placings=placings, names=names, player_names=names)


# A number as a sentence says it: "-1.5" is signed, the 8 of "0-8" is not.
NUMBER = r"(?<!\d)-?\d+(?:\.\d)?"


def _numbers(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(set(), *(_numbers(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(set(), *(_numbers(v) for v in value))
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (int, float)):
        return {f"{value:g}", f"{value:.1f}"}
    return set(re.findall(NUMBER, str(value)))


@settings(max_examples=60, deadline=None)
@given(nights())
def test_the_facts_are_the_hands_and_the_words_say_only_the_facts(night):
    found = recap.facts(night)
    by_kind = {f["kind"]: f for f in found}
    # Loners made and euchres: the profile's own count of the same hands (stats.py).
    tallies = {}
    for game in night.games:
        for hand in game.hands:
            for seat, player in enumerate(game.seats, 1):
                side = SIDE_OF_SEAT[seat]
                tallies.setdefault(player, []).append(stats.PlayedHand(
                    side=side, seat=seat, maker=hand.maker, alone=hand.alone,
                    loner_seat=hand.loner_seat, tricks=hand.tricks, renege_by=None,
                    renege_upheld=None, side_points=0))
    counted = {p: stats.player_stats(h)["overall"] for p, h in tallies.items()}
    for kind, field in (("most-loners", "loners_made"), ("most-euchres", "euchres")):
        most = max((c[field] for c in counted.values()), default=0)
        if kind in by_kind:
            fact = by_kind[kind]
            assert fact["value"] == most
            assert all(counted[p][field] == most for p in fact["players"])
        else:
            assert most == 0 or sum(c[field] == most for c in counted.values()) > 3
    # The comeback: the largest deficit overcome in a game with hands, or none under 3.
    deficits = [(recap.deficit_overcome(g)[0], g.id) for g in night.games if g.hands]
    best = max((d for d, _ in deficits), default=0)
    if "comeback" in by_kind:
        assert by_kind["comeback"]["value"] == best >= recap.SMALLEST_COMEBACK
        assert by_kind["comeback"]["games"][0] in [g for d, g in deficits if d == best]
    else:
        assert best < recap.SMALLEST_COMEBACK
    # A sheet's game has no hands: no fact names a hand of it, none is made up.
    hand_ids = {h.id for g in night.games for h in g.hands}
    assert all(set(f["hands"]) <= hand_ids for f in found)
    for sentence in sentences(night, found):
        fact = found[sentence["fact"]]
        said = re.findall(NUMBER, sentence["text"])
        assert set(said) <= _numbers(fact), (sentence["text"], fact)


def test_money_a_record_and_a_rating_jump_are_told_only_when_the_night_has_them():
    game = recap.GameRow(1, 1, 1, (1, 2, 3, 4), 10, 4, "A")
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    night = recap.Night(games=[game], names=names, player_names=names, placings=[
        recap.Placing(1, 1, 10, (1,)), recap.Placing(3, 1, 10, (1,)),
        recap.Placing(2, 3, 4, (1,)), recap.Placing(4, 3, 4, (1,))])
    assert [f["kind"] for f in recap.facts(night)] == ["winner", "high-game", "low-score"]
    night.payouts, night.pool, night.currency = [(1, 1, 15), (3, 1, 15)], 30, "€"
    night.earlier_best = (9, "9 October 2026")
    night.rating_changes = {1: (0.0, 2.5), 2: (1.0, 0.5)}
    found = recap.facts(night)
    text = [s["text"] for s in sentences(night, found)]
    assert text == [
        "Ann and Cy shared first place with 10 points.",
        "The prize pool of €30 paid Ann €15 (1st) and Cy €15 (1st).",
        "The best game was Ann and Cy's 10 points (Round 1, table 1).",
        "The low score of the night was 4 points, by Bob and Dee.",
        "Ann and Cy's 10 points is the club's best night total, above the 9 of "
        "9 October 2026.",
        "Ann's rating rose the most: from 0.0 to 2.5 (+2.5)."]
    # Ann is private: her rise is not told, and Bob (who fell) is not said to rise the most;
    # with Cy rising as much as Ann, Cy is named.
    night.private = frozenset({1})
    assert "rating-jump" not in [f["kind"] for f in recap.facts(night)]
    night.rating_changes = {1: (0.0, 2.5), 3: (1.0, 3.5), 2: (1.0, 0.5)}
    jump = recap.facts(night)[-1]
    assert (jump["kind"], jump["players"]) == ("rating-jump", [3])


def test_a_rating_jump_adds_up_as_it_is_shown():
    names = {1: "Ann", 2: "Bob"}
    night = recap.Night(games=[], names=names, player_names=names, placings=[],
                        rating_changes={1: (0.04, 2.46), 2: (1.0, 3.3)})
    found = recap.facts(night)
    assert sentences(night, found) == [{"text": "Ann's rating rose the most: from 0.0 to 2.5 "
                                                "(+2.5).", "fact": 0}]


def test_a_comeback_to_a_level_game_says_how_it_was_won():
    hands = (recap.HandRow("h1", 1, 4, 0), recap.HandRow("h2", 2, 0, 2),
             recap.HandRow("h3", 3, 0, 2))
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    for settled, how in (("playoff-hand", "the playoff hand"), ("card-draw", "the card draw")):
        game = recap.GameRow(1, 1, 1, (1, 2, 3, 4), 4, 4, "B", hands, settled_by=settled)
        night = recap.Night(games=[game], names=names, player_names=names, placings=[])
        found = recap.facts(night)
        assert sentences(night, found)[-1]["text"] == (
            "The biggest comeback: Bob and Dee were 0-4 down (Round 1, table 1), drew level "
            f"at 4-4 and won {how}.")
