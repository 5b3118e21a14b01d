"""The night's story against the whole night (issue 30's independent check): random
progressive nights played hand by hand through the API, and every fact the recap tells
worked out again from all of the night's games and the leaderboard, not only from the
games the fact names, so a fact that missed a bigger figure elsewhere is caught; every
name a sentence says is one its fact holds."""

from __future__ import annotations

import random
import uuid
from collections import Counter

import pytest

from .client import play

TRICKS = (0, 1, 2, 3, 4, 5)


def _random_hands(rng: random.Random, count: int = 8) -> list[dict]:
    hands = []
    for _ in range(count):
        maker = rng.choice("AB")
        alone = rng.random() < 0.15
        hand = {"maker": maker, "tricks": rng.choice(TRICKS), "alone": alone}
        if alone and rng.random() < 0.7:
            hand["loner_seat"] = rng.choice((1, 3) if maker == "A" else (2, 4))
        hands.append(hand)
    return hands


def _night(api, rng, players: int, rounds: int):
    made = api.post("/api/clubs", json={"name": "Story club",
                                        "slug": f"sc-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    club, key = made["id"], made["club_key"]
    event = api.post(f"/api/clubs/{club}/events", key=key, expect=201, json={
        "name": "Night", "preset": "progressive", "overrides": {"rounds": rounds}}).get_json()
    api.add_players(event, [f"Player {n:02d}" for n in range(1, players + 1)])
    games = []
    for number in range(1, rounds + 1):
        seated = api.post(f"/api/events/{event['id']}/rounds", key=key,
                          json={"number": number}, expect=201).get_json()
        for table in seated["tables"]:
            game = play(api, key, table["games"][0]["id"], _random_hands(rng))
            if game["winner"] is None:  # level after its hands: the playoff hand
                game = api.post(f"/api/games/{game['id']}/settlement", key=key, expect=200,
                                json={"method": "playoff-hand",
                                      "winner": rng.choice("AB")}).get_json()
            games.append(game["id"])
        api.post(f"/api/rounds/{seated['id']}/close", key=key, expect=200)
    api.patch(f"/api/events/{event['id']}", key=key, json={"status": "finished"},
              expect=200)
    return event, [api.game(g) for g in games]


def _seats(game):
    return {p["player_id"]: (side, p["seat"]) for side in "AB"
            for p in game["sides"][side]["players"] if p["player_id"] is not None}


def _tallies(games):
    """Loners made (the lone player, or both of the side when the seat is not recorded) and
    euchres made as a defender, per player, over every hand of the night; a hand with an
    upheld renege counts for neither."""
    loners, euchres = Counter(), Counter()
    for game in games:
        for hand in game["hands"]:
            if hand.get("renege") or hand["maker"] is None or hand["tricks"] is None:
                continue
            for player, (side, seat) in _seats(game).items():
                if hand["tricks"] < 3 and side != hand["maker"]:
                    euchres[player] += 1
                elif hand["tricks"] >= 3 and hand["alone"] and side == hand["maker"] and \
                        hand["loner_seat"] in (None, seat):
                    loners[player] += 1
    return loners, euchres


def _deficit(game):
    a = b = worst = 0
    for hand in game["hands"]:
        a, b = a + hand["points"]["A"], b + hand["points"]["B"]
        worst = max(worst, (b - a) if game["winner"] == "A" else (a - b))
    return worst


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_fact_is_the_nights_own_figure(api, seed):
    rng = random.Random(seed)
    event, games = _night(api, rng, players=rng.choice((8, 10, 12)), rounds=3)
    board = api.get(f"/api/events/{event['id']}/leaderboard", expect=200).get_json()["rows"]
    recap = api.get(f"/api/events/{event['id']}/recap", expect=200).get_json()
    names = {r["entrant_id"]: r["name"] for r in board}
    facts = {f["kind"]: f for f in recap["facts"]}
    totals = [r["total"] for r in board if r["place"] is not None]
    # The winner and the low score are the leaderboard's.
    assert facts["winner"]["value"] == max(totals)
    assert set(facts["winner"]["entrants"]) == {r["entrant_id"] for r in board
                                                if r["place"] == 1}
    assert facts["low-score"]["value"] == min(totals)
    assert set(facts["low-score"]["entrants"]) == {r["entrant_id"] for r in board
                                                   if r["total"] == min(totals)}
    # The best game is the most points any side scored in any game.
    sides = [(g["points"][s], g, s) for g in games for s in "AB"]
    top = max(points for points, _, _ in sides)
    assert facts["high-game"]["value"] == top
    assert facts["high-game"]["others"] == sum(points == top for points, _, _ in sides) - 1
    # Most loners and euchres, over every hand of the night.
    for kind, tally in zip(("most-loners", "most-euchres"), _tallies(games), strict=True):
        most = max(tally.values(), default=0)
        leaders = sorted(p for p, n in tally.items() if n == most)
        if most == 0 or len(leaders) > 3:
            assert kind not in facts, (kind, tally)
        else:
            assert (facts[kind]["value"], facts[kind]["players"]) == (most, leaders)
    # The biggest comeback, over every game.
    deficits = [_deficit(g) for g in games]
    if max(deficits) >= 3:
        assert facts["comeback"]["value"] == max(deficits)
    else:
        assert "comeback" not in facts
    # Every name a sentence says is one of its fact's, and the winners are all named.
    players = {p: n for g in games for side in "AB" for p, n in
               ((x["player_id"], x["name"]) for x in g["sides"][side]["players"]) if p}
    everyone = {**names, **players}
    for sentence in recap["sentences"]:
        fact = recap["facts"][sentence["fact"]]
        allowed = {everyone[e] for e in fact["entrants"] + fact["players"]}
        said = {n for n in everyone.values() if n in sentence["text"]}
        assert said <= allowed, (sentence["text"], fact)
        if fact["kind"] == "winner":
            assert said == allowed
