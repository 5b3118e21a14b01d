"""The night's story (issue 30, point 4) and a balanced first round (point 3), over HTTP.

The recap test checks every sentence against the hands: each fact is recomputed from the
games and hands it names (read back through the games API), and every number a sentence
says is one its fact holds."""

from __future__ import annotations

import itertools
import re
import uuid

import pytest

from api.ratings.reads import rating_changes_for_event, rating_of
from api.story import ratings_link

from .client import play
from .scripts import fixed_hands_game

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]
# Table 1's side B is 0-8 down after three hands, and wins 11-8: the comeback. Seat 1 makes a
# lone march, seat 2 too; B euchres A's makers in the last hand.
COMEBACK = [{"maker": "A", "tricks": 5}, {"maker": "A", "tricks": 5},
            {"maker": "A", "tricks": 5, "alone": True, "loner_seat": 1},
            {"maker": "B", "tricks": 5, "alone": True, "loner_seat": 2},
            {"maker": "B", "tricks": 5}, {"maker": "B", "tricks": 5},
            {"maker": "B", "tricks": 3}, {"maker": "A", "tricks": 1}]


def _club(api):
    made = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    return made["id"], made["club_key"]


def _club_night(api, club, key, name, date):
    """A club's progressive night of eight players, played on `date`."""
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": name, "preset": "progressive"}, expect=201).get_json()
    api.patch(f"/api/clubs/{club}/events/{event['id']}", key=key, json={"date": date},
              expect=200)
    api.add_players(event, NAMES)
    return event


def _play_round(api, key, event, tables, **seat):
    round_ = api.post(f"/api/events/{event['id']}/rounds", key=key,
                      json={"number": 1, **seat}, expect=201).get_json()
    for table in round_["tables"]:
        play(api, key, table["games"][0]["id"], tables[table["table"]])
    api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=200)
    return round_


def _finish(api, key, event):
    api.patch(f"/api/events/{event['id']}", key=key, json={"status": "finished"}, expect=200)


def _side_points(game: dict, side: str) -> int:
    return sum(h["points"][side] for h in game["hands"])


def _players_of(game: dict) -> list[int]:
    return [p["player_id"] for s in "AB" for p in game["sides"][s]["players"]]


def _side_of(game: dict, player: int) -> str:
    return next(s for s in "AB" if player in [p["player_id"] for p in game["sides"][s]["players"]])


def _recomputed(api, fact: dict) -> object:
    """The fact's figure, worked out again from the games and hands it names."""
    games = {g: api.game(g) for g in fact["games"]}
    hands = {h["id"]: (g, h) for g in games.values() for h in g["hands"]}
    kind = fact["kind"]
    if kind in ("winner", "low-score", "record"):
        totals = {sum(_side_points(g, _side_of(g, e)) for g in games.values()
                      if e in _players_of(g))
                  for e in fact["entrants"]}
        assert len(totals) == 1
        return totals.pop()
    if kind == "high-game":
        (game,) = games.values()
        return _side_points(game, fact["side"])
    if kind in ("most-loners", "most-euchres"):
        counts = set()
        for player in fact["players"]:
            mine = 0
            for hand_id in fact["hands"]:
                game, hand = hands[hand_id]
                if player not in _players_of(game):
                    continue
                side = _side_of(game, player)
                if kind == "most-loners":
                    seat = next(p["seat"] for p in game["sides"][side]["players"]
                                if p["player_id"] == player)
                    mine += (hand["alone"] and hand["maker"] == side and hand["tricks"] >= 3
                             and hand["loner_seat"] in (None, seat))
                else:
                    mine += hand["maker"] not in (side, None) and hand["tricks"] < 3
            counts.add(mine)
        assert len(counts) == 1
        return counts.pop()
    if kind == "comeback":
        (game,) = games.values()
        a = b = worst = 0
        for hand in game["hands"]:
            a, b = a + hand["points"]["A"], b + hand["points"]["B"]
            worst = max(worst, (b - a) if fact["side"] == "A" else (a - b))
        assert game["winner"] == fact["side"]
        return worst
    if kind == "money":
        assert sum(p["amount"] for p in fact["payouts"]) <= fact["value"]
        return fact["value"]
    return fact["value"]  # a rating jump: the ratings' own figure


# A number as a sentence says it: "-1.5" is signed, the 8 of "0-8" is not.
NUMBER = r"(?<!\d)-?\d+(?:\.\d)?"


def _numbers(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (int, float)):
        return {f"{value:g}", f"{value:.1f}", str(value)}
    return set(re.findall(NUMBER, str(value)))


def assert_traced(api, recap: dict) -> None:
    """Every fact recomputes from its games and hands; every number a sentence says is in
    its fact."""
    for fact in recap["facts"]:
        assert _recomputed(api, fact) == fact["value"], fact
    for sentence in recap["sentences"]:
        fact = recap["facts"][sentence["fact"]]
        said = re.findall(NUMBER, sentence["text"])
        unknown = [n for n in said if n not in _numbers(fact)]
        assert not unknown, (sentence["text"], fact)


def test_a_finished_night_tells_its_story_from_its_hands(api, app):
    club, key = _club(api)
    # An earlier night (one table played) whose best total is 6: tonight's 11 beats it.
    earlier = _club_night(api, club, key, "October", "2026-10-09")
    first = api.post(f"/api/events/{earlier['id']}/rounds", key=key, json={"number": 1},
                     expect=201).get_json()
    play(api, key, first["tables"][0]["games"][0]["id"], fixed_hands_game(6, 2, 8))
    _finish(api, key, earlier)
    event = _club_night(api, club, key, "November", "2026-11-13")
    api.put(f"/api/events/{event['id']}/money", key=key, json={"entry_fee": 10}, expect=200)
    for player in api.get(f"/api/events/{event['id']}/players").get_json()[:2]:
        api.patch(f"/api/events/{event['id']}/players/{player['id']}", key=key,
                  json={"paid": True}, expect=200)
    path = f"/api/events/{event['id']}/recap"
    round_ = _play_round(api, key, event, {1: COMEBACK, 2: fixed_hands_game(5, 3, 8)})
    before = api.get(path, expect=200).get_json()
    assert before["finished"] is False and before["sentences"] == []
    _finish(api, key, event)
    recap = api.get(path, expect=200).get_json()
    kinds = [f["kind"] for f in recap["facts"]]
    assert kinds == ["winner", "money", "high-game", "low-score", "most-loners",
                     "most-euchres", "comeback", "record", "rating-jump"], kinds
    text = " ".join(s["text"] for s in recap["sentences"])
    table1 = {s["seat"]: s["name"] for s in round_["tables"][0]["seats"]}
    winners = f"{table1[2]} and {table1[4]}"
    assert f"{winners} shared first place with 11 points." in text or \
        f"{table1[4]} and {table1[2]} shared first place with 11 points." in text
    assert "The prize pool of $20 paid" in text
    assert f"The biggest comeback: {winners} were 0-8 down (Round 1, table 1) and won 11-8." \
        in text
    assert "is the club's best night total for a progressive (individual) tournament, above " \
        "the 6 of 9 October 2026." in text
    # The rating jump is the largest rise the club's ratings give for the night.
    with app.app_context():
        changes = rating_changes_for_event(event["id"])
    players = {p["id"]: p["person_id"] for p in
               api.get(f"/api/events/{event['id']}/players").get_json()}
    jump = recap["facts"][-1]
    before, after = changes[players[jump["players"][0]]]
    assert (jump["before"], jump["after"]) == (round(before, 1), round(after, 1))
    assert jump["value"] == max(round(round(a, 1) - round(b, 1), 1)
                                for b, a in changes.values()) > 0
    assert_traced(api, recap)
    # The next night's first round can be balanced by those ratings: everyone is rated now.
    december = api.post(f"/api/clubs/{club}/events", key=key,
                        json={"name": "December", "preset": "progressive"},
                        expect=201).get_json()
    api.add_players(december, NAMES)
    shown = api.get(f"/api/events/{december['id']}/rounds/next?balanced=1", key=key,
                    expect=200).get_json()
    assert shown["balance"]["rated"] == 8
    # The random draw may already be as level as can be (it was, in one CI run), so the
    # check is against the best seating there is, not against the draw.
    assert shown["balance"]["spread"] <= shown["balance"]["drawn_spread"]
    with app.app_context():
        club_players = api.get(f"/api/events/{december['id']}/players").get_json()
        rated = rating_of(club, [p["person_id"] for p in club_players])
    mus = [mu for mu, _sigma in rated.values()]
    assert shown["balance"]["spread"] == round(_best_spread(mus), 2)


def test_the_story_leaves_out_what_the_night_does_not_have(api):
    # WEC doubles entered from its game sheets (no hands: no comeback, loners or euchres), no
    # club (no record, no ratings), no money.
    event = api.create_event("wec-doubles")
    key = event["organizer_key"]
    for n in range(4):
        api.add_team(event, f"Team {n}", [f"T{n} one", f"T{n} two"])
    round_ = api.seat_round(event, 1)
    for table, points in zip(round_["tables"], ({"A": 9, "B": 3}, {"A": 4, "B": 8}),
                             strict=True):
        api.put(f"/api/games/{table['games'][0]['id']}/sheet", key=key,
                json={"points": points, "bumps": {}}, expect=200)
    path = f"/api/events/{event['id']}/recap"
    assert api.get(path, expect=200).get_json()["sentences"] == [], "not finished yet"
    _finish(api, key, event)
    recap = api.get(path, expect=200).get_json()
    assert [f["kind"] for f in recap["facts"]] == ["winner", "high-game", "low-score"]
    best = next(t for t in round_["tables"] if t["table"] == 1)["team_a"]["name"]
    assert recap["sentences"][0]["text"] == f"{best} won the night with 9 points."
    assert recap["sentences"][1]["text"] == f"The best game was {best}'s 9 points " \
        "(Game 1, table 1)."
    assert all(f["hands"] == [] for f in recap["facts"])
    assert api.get("/api/events/999999/recap").status_code == 404


def _spread(tables, ratings):
    worst = 0.0
    for table in tables:
        seats = {s["seat"]: s["player_id"] for s in table["seats"]}
        if None in seats.values():
            continue
        side_a = ratings.get(seats[1], 25) + ratings.get(seats[3], 25)
        side_b = ratings.get(seats[2], 25) + ratings.get(seats[4], 25)
        worst = max(worst, abs(side_a - side_b))
    return worst


@pytest.mark.parametrize("preset", ["progressive", "wec-singles"])
def test_a_balanced_first_round_seats_what_its_preview_showed(api, monkeypatch, preset):
    club, key = _club(api)
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": "Balanced", "preset": preset}, expect=201).get_json()
    api.add_players(event, NAMES + ["Ivy Cole", "Jo Dunn", "Kit Frey", "Lou Gray"])
    players = api.get(f"/api/events/{event['id']}/players").get_json()
    # Four strong players and four new ones (no rating: the start, 25).
    strong = {p["person_id"]: (40.0, 2.0) for p in players[:4]}
    monkeypatch.setattr(ratings_link, "ratings_of",
                        lambda club_id, people, fresh: {p: strong[p] for p in people
                                                        if p in strong})
    by_player = {p["id"]: 40.0 for p in players[:4]}
    path = f"/api/events/{event['id']}/rounds/next"
    shown = api.get(f"{path}?balanced=true", key=key, expect=200).get_json()
    assert shown["ready"], shown
    assert shown["balance"]["rated"] == 4 and shown["balance"]["players"] == 12
    assert shown["balance"]["spread"] == 0 == _spread(shown["tables"], by_player)
    assert shown["balance"]["spread"] <= shown["balance"]["drawn_spread"]
    assert any("Balanced by rating" in n for n in shown["notes"])
    plain = api.get(path, key=key, expect=200).get_json()
    assert plain["balance"] is None
    seated = api.post(f"/api/events/{event['id']}/rounds", key=key,
                      json={"number": 1, "balanced": True}, expect=201).get_json()
    assert [[s["player_id"] for s in t["seats"]] for t in seated["tables"]] == \
        [[s["player_id"] for s in t["seats"]] for t in shown["tables"]]
    if preset == "wec-singles":  # the schedule renumbered as game 1 was: no partner twice
        for player in players:
            sheet = api.get(f"/api/events/{event['id']}/players/{player['id']}/scoresheet",
                            expect=200).get_json()
            partners = [sheet["rounds"][0]["partner"]] + [u["partner"] for u in
                                                          sheet["upcoming"]]
            assert len(partners) == 8 == len(set(partners))


def test_balanced_seating_is_refused_where_the_rules_draw_at_random(api):
    event = api.create_event("teams")
    key = event["organizer_key"]
    for n in range(4):
        api.add_team(event, f"Team {n}", [f"T{n} one", f"T{n} two"])
    path = f"/api/events/{event['id']}/rounds"
    refused = api.get(f"{path}/next?balanced=true", key=key, expect=422).get_json()
    assert refused["code"] == "balance-not-allowed" and "random draw" in refused["detail"]
    api.post(path, key=key, json={"number": 1, "balanced": True}, expect=422)
    assert api.get(path).get_json() == [], "nothing seated"
    # A progressive night's second round is seated by its movement, not balanced.
    night = api.create_event("progressive")
    api.add_players(night, NAMES)
    _play_round(api, night["organizer_key"], night,
                {1: fixed_hands_game(6, 2, 8), 2: fixed_hands_game(5, 3, 8)})
    later = api.get(f"/api/events/{night['id']}/rounds/next?balanced=true",
                    key=night["organizer_key"], expect=422).get_json()
    assert later["code"] == "balance-first-round-only"
    api.get(f"/api/events/{night['id']}/rounds/next?balanced=maybe",
            key=night["organizer_key"], expect=422)


def _best_spread(mus: list[float]) -> float:
    """The smallest largest-difference between two sides' ratings that any seating of eight
    players at two tables has (every way of pairing them up, every way of meeting)."""
    assert len(mus) == 8
    best = float("inf")
    for first in itertools.combinations(range(1, 8), 3):  # who sits at player 0's table
        table1 = (0, *first)
        table2 = tuple(i for i in range(8) if i not in table1)
        best = min(best, max(_level(table1, mus), _level(table2, mus)))
    return best


def _level(table: tuple, mus: list[float]) -> float:
    """The most level split of one table's four players into two sides."""
    a, b, c, d = (mus[i] for i in table)
    return min(abs(a + b - c - d), abs(a + c - b - d), abs(a + d - b - c))
