"""Seat changes (RULES.md §4): the organizer swaps two seated entrants before a table's first
hand, and corrects players who sat in each other's seats after hands were played."""

from __future__ import annotations

from .client import play, signer
from .scripts import fixed_hands_game

NAMES = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"]


def _night(api, name: str):
    event = api.create_event("progressive", name=name)
    api.add_players(event, NAMES)
    round_ = api.seat_round(event, 1)
    return event, event["organizer_key"], round_


def _seats(round_: dict) -> dict[int, tuple[int, int]]:
    """Each player's (table, seat)."""
    return {s["player_id"]: (t["table"], s["seat"]) for t in round_["tables"]
            for s in t["seats"] if s["player_id"]}


def _audit(api, event, action: str) -> list[dict]:
    entries = api.get(f"/api/events/{event['id']}/audit", key=event["organizer_key"],
                      expect=200).get_json()
    return [e for e in entries if e["action"] == action]


def test_two_players_at_different_tables_swap_before_the_first_hand(api):
    event, key, round_ = _night(api, "Swap night")
    one = round_["tables"][0]["seats"][1]
    two = round_["tables"][1]["seats"][2]
    before = _seats(round_)
    swapped = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": one["player_id"], "b": two["player_id"]},
                       expect=200).get_json()
    after = _seats(swapped)
    assert after[one["player_id"]] == before[two["player_id"]] == (2, 3)
    assert after[two["player_id"]] == before[one["player_id"]] == (1, 2)
    assert swapped["tables"][0]["seats"][1]["name"] == two["name"]
    # The runner's screen shows the new names, under a new version.
    game = api.game(round_["tables"][0]["games"][0]["id"])
    assert two["name"] in game["sides"]["B"]["name"]
    assert game["version"] > round_["tables"][0]["games"][0]["version"]
    [entry] = _audit(api, event, "swap-seats")
    assert entry["before"]["a"] == {"entrant": one["player_id"], "table": 1, "seat": 2}
    assert entry["after"]["a"] == {"entrant": one["player_id"], "table": 2, "seat": 3}


def test_two_players_at_one_table_swap_seats(api):
    event, key, round_ = _night(api, "Same table night")
    seats = round_["tables"][1]["seats"]
    swapped = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": seats[0]["player_id"], "b": seats[1]["player_id"]},
                       expect=200).get_json()
    now = swapped["tables"][1]["seats"]
    assert (now[0]["player_id"], now[1]["player_id"]) == (seats[1]["player_id"],
                                                          seats[0]["player_id"])
    # Later hands score for the new sides: the swapped-in player has side A's points.
    play(api, key, swapped["tables"][1]["games"][0]["id"], fixed_hands_game(6, 2, 8))
    totals = {r["entrant_id"]: r["total"] for r in api.leaderboard(event)["rows"]}
    assert totals[seats[1]["player_id"]] == 6 and totals[seats[0]["player_id"]] == 2


def test_a_swap_is_refused_once_a_hand_is_recorded_at_either_table(api):
    event, key, round_ = _night(api, "Too late night")
    api.hand(key, round_["tables"][1]["games"][0]["id"], "A", 3)
    one = round_["tables"][0]["seats"][0]["player_id"]
    two = round_["tables"][1]["seats"][0]["player_id"]
    refused = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": one, "b": two}, expect=409)
    assert refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "hands-recorded"
    assert "Hands are already recorded at table 2" in problem["detail"]
    current = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert _seats(current) == _seats(round_), "nothing changed"
    assert _audit(api, event, "swap-seats") == []


def test_a_swap_names_two_seated_entrants(api):
    event, key, round_ = _night(api, "Who night")
    one = round_["tables"][0]["seats"][0]["player_id"]
    same = api.post(f"/api/rounds/{round_['id']}/swap", key=key, json={"a": one, "b": one},
                    expect=422).get_json()
    assert "two different" in same["detail"]
    missing = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": one, "b": 999999}, expect=422).get_json()
    assert missing["detail"] == "Player 999999 is not seated in Round 1."
    api.post(f"/api/rounds/{round_['id']}/swap", key=key, json={"a": one}, expect=422)
    api.post(f"/api/rounds/{round_['id']}/swap", key=key, json={"a": one, "b": "x"},
             expect=422)
    api.post(f"/api/rounds/{round_['id']}/swap", key=key,
             json={"a": one, "b": 2, "extra": 1}, expect=422)
    api.post("/api/rounds/999999/swap", key=key, json={"a": 1, "b": 2}, expect=(401, 403, 404))


def _teams_event(api, name: str, preset: str = "teams"):
    event = api.create_event(preset, name=name)
    teams = [api.add_team(event, n, [f"{n} 1", f"{n} 2"])
             for n in ("Hearts", "Spades", "Clubs", "Diamonds")]
    return event, event["organizer_key"], teams, api.seat_round(event, 1)


def test_two_teams_swap_tables_with_their_players(api):
    event, key, teams, round_ = _teams_event(api, "Team swap night")
    one, two = round_["tables"]
    swapped = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": one["team_a"]["id"], "b": two["team_b"]["id"]},
                       expect=200).get_json()
    first, second = swapped["tables"]
    assert first["team_a"] == two["team_b"] and second["team_b"] == one["team_a"]
    assert [first["seats"][0]["name"], first["seats"][2]["name"]] == \
        [two["seats"][1]["name"], two["seats"][3]["name"]]
    # Within a table: the two teams change sides.
    sides = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                     json={"a": first["team_a"]["id"], "b": first["team_b"]["id"]},
                     expect=200).get_json()["tables"][0]
    assert sides["team_a"] == first["team_b"] and sides["team_b"] == first["team_a"]
    assert sides["seats"][0]["name"] == first["seats"][1]["name"]


def test_league_matches_are_not_swapped(api):
    event, key, teams = api.league(("North", "South", "East", "West"))
    round_ = api.seat_round(event, 1)
    refused = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": teams["North"]["id"], "b": teams["East"]["id"]},
                       expect=409).get_json()
    assert refused["code"] == "league-schedule"


# --- the wrong-seat correction ---------------------------------------------------------------

def _correct(api, key, game: dict, seats, expect=200, **headers):
    return api.post(f"/api/games/{game['id']}/seats/swap", key=key, json={"seats": seats},
                    headers={"If-Match": f'"{game["version"]}"', **headers}, expect=expect)


def test_players_in_each_others_seats_get_the_points_they_really_earned(api):
    event, key, round_ = _night(api, "Wrong seat night")
    table = round_["tables"][0]
    ids = {s["seat"]: s["player_id"] for s in table["seats"]}
    game = play(api, key, table["games"][0]["id"], fixed_hands_game(6, 3, 5))
    totals = {r["entrant_id"]: r["total"] for r in api.leaderboard(event)["rows"]}
    assert (totals[ids[1]], totals[ids[2]]) == (6, 3)

    # The players booked in seats 1 and 2 really sat in each other's places.
    fixed = _correct(api, key, game, [1, 2]).get_json()
    assert fixed["points"] == game["points"] and len(fixed["hands"]) == 5, "hands kept"
    assert [h["id"] for h in fixed["hands"]] == [h["id"] for h in game["hands"]]
    assert fixed["version"] > game["version"]
    assert [p["player_id"] for p in fixed["sides"]["A"]["players"]] == [ids[2], ids[3]]
    totals = {r["entrant_id"]: r["total"] for r in api.leaderboard(event)["rows"]}
    assert (totals[ids[1]], totals[ids[2]]) == (3, 6), "the points follow the real seats"
    assert totals[ids[3]] == 6 and totals[ids[4]] == 3
    # The rest of the game is entered for the right players too.
    final = play(api, key, game["id"], fixed_hands_game(2, 1, 3))
    totals = {r["entrant_id"]: r["total"] for r in api.leaderboard(event)["rows"]}
    assert final["points"] == {"A": 8, "B": 4}
    assert (totals[ids[2]], totals[ids[1]]) == (8, 4)
    sheet = api.get(f"/api/events/{event['id']}/players/{ids[2]}/scoresheet",
                    expect=200).get_json()
    assert sheet["total"] == 8
    [entry] = _audit(api, event, "correct-seats")
    assert entry["table"] == 1 and entry["after"]["hands_kept"] == 5
    names = {s["seat"]: s["name"] for s in table["seats"]}
    assert entry["before"]["seats"] == {"1": names[1], "2": names[2]}
    assert entry["after"]["seats"] == {"1": names[2], "2": names[1]}


def test_a_wrong_seat_correction_needs_the_games_version_and_two_players(api):
    event, key, round_ = _night(api, "Careful night")
    game = api.hand(key, round_["tables"][0]["games"][0]["id"], "A", 3)
    missing = api.post(f"/api/games/{game['id']}/seats/swap", key=key,
                       json={"seats": [1, 2]}, expect=428).get_json()
    assert "If-Match" in missing["detail"]
    stale = _correct(api, key, {**game, "version": game["version"] - 1}, [1, 2], expect=412)
    assert "changed on another phone" in stale.get_json()["detail"]
    same = _correct(api, key, game, [2, 2], expect=422).get_json()
    assert "two different seats" in same["detail"]
    for bad in ([1], [1, 2, 3], [0, 5], ["1", 2]):
        _correct(api, key, game, bad, expect=422)
    assert api.game(game["id"])["version"] == game["version"], "nothing changed"
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": None},
                      expect=201).get_json()["key"]
    _correct(api, runner, game, [1, 2], expect=403)


def test_a_ghost_seat_is_not_swapped(api):
    event = api.create_event("progressive", name="Ghost night")
    api.add_players(event, NAMES[:7])
    round_ = api.seat_round(event, 1)
    ghost_table = next(t for t in round_["tables"]
                       if any(s["player_id"] is None for s in t["seats"]))
    game = api.game(ghost_table["games"][0]["id"])
    refused = _correct(api, event["organizer_key"], game, [1, 4], expect=409).get_json()
    assert "is the ghost's" in refused["detail"]


def test_players_changing_sides_after_the_next_round_was_seated_from_the_result_is_refused(api):
    event, key, round_ = _night(api, "Used result night")
    for table in round_["tables"]:
        play(api, key, table["games"][0]["id"], fixed_hands_game(5, 3, 8))
    api.close_round(event, round_["id"])
    api.seat_round(event, 2)
    game = api.game(round_["tables"][0]["games"][0]["id"])
    refused = _correct(api, key, game, [1, 2], expect=409).get_json()
    assert refused["code"] == "winner-used" and "Round 2 was seated" in refused["detail"]
    # Partners on one side may still be corrected: who won does not change.
    fixed = _correct(api, key, game, [1, 3]).get_json()
    assert fixed["sides"]["A"]["players"][0]["player_id"] == \
        game["sides"]["A"]["players"][1]["player_id"]


def test_teams_that_sat_on_each_others_sides_swap_sides_and_points(api):
    event, key, teams, round_ = _teams_event(api, "Team sides night")
    table = round_["tables"][0]
    game = play(api, key, table["games"][0]["id"], fixed_hands_game(9, 4, 12))
    api.post(f"/api/games/{game['id']}/sign-off", key=key, json={"by": signer(game)},
             expect=200)
    game = api.game(game["id"])
    totals = {r["entrant_id"]: r["total"] for r in api.leaderboard(event)["rows"]}
    assert (totals[table["team_a"]["id"]], totals[table["team_b"]["id"]]) == (9, 4)
    fixed = _correct(api, key, game, [1, 2]).get_json()
    assert fixed["sides"]["A"]["team_id"] == table["team_b"]["id"]
    assert [p["seat"] for p in fixed["sides"]["A"]["players"]] == [1, 3]
    assert {p["name"] for p in fixed["sides"]["A"]["players"]} == \
        {table["seats"][1]["name"], table["seats"][3]["name"]}
    totals = {r["entrant_id"]: r["total"] for r in api.leaderboard(event)["rows"]}
    assert (totals[table["team_a"]["id"]], totals[table["team_b"]["id"]]) == (4, 9)


def _stay(api, event, player_id: int, table: int | None) -> None:
    api.patch(f"/api/events/{event['id']}/players/{player_id}", key=event["organizer_key"],
              json={"stays_at": table}, expect=200)


def test_a_swap_that_would_move_a_player_who_stays_off_their_table_is_refused(api):
    """Issue 26: an accommodation (RULES.md §4) holds in a swap too: the stayer keeps the
    table; the refusal names them and the table, and nothing changes."""
    event = api.create_event("progressive", name="Stayer night")
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES)}
    key = event["organizer_key"]
    _stay(api, event, ids["Ann"], 1)
    _stay(api, event, ids["Bob"], 0)  # stays where first seated
    round_ = api.seat_round(event, 1)
    where = _seats(round_)
    assert where[ids["Ann"]][0] == 1
    bob_table = where[ids["Bob"]][0]
    url = f"/api/rounds/{round_['id']}/swap"
    for stayer, name, table in ((ids["Ann"], "Ann", 1), (ids["Bob"], "Bob", bob_table)):
        other = next(p for p, (t, _) in where.items() if t != table and p not in
                     (ids["Ann"], ids["Bob"]))
        for body in ({"a": stayer, "b": other}, {"a": other, "b": stayer}):
            refused = api.post(url, key=key, json=body, expect=409)
            assert refused.mimetype == "application/problem+json"
            problem = refused.get_json()
            assert problem["code"] == "stays-at-table"
            assert problem["detail"].startswith(f"{name} stays at table {table}")
            assert (problem["entrant_id"], problem["stays_at"]) == (stayer, table)
    current = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert _seats(current) == where, "nothing changed"
    assert _audit(api, event, "swap-seats") == []

    # Within the table the stayer may change seats.
    mate = next(p for p, (t, _) in where.items() if t == 1 and p != ids["Ann"])
    api.post(url, key=key, json={"a": ids["Ann"], "b": mate}, expect=200)
    # Moves as usual again: the swap is made.
    _stay(api, event, ids["Ann"], None)
    other = next(p for p, (t, _) in where.items() if t != 1 and p != ids["Bob"])
    swapped = api.post(url, key=key, json={"a": ids["Ann"], "b": other}, expect=200).get_json()
    assert _seats(swapped)[ids["Ann"]][0] != 1


def test_a_team_that_stays_is_not_swapped_off_its_table(api):
    event, key, teams, round_ = _teams_event(api, "Team stayer night")
    one, two = round_["tables"][0], round_["tables"][1]
    stayer = one["team_a"]["id"]
    api.patch(f"/api/events/{event['id']}/teams/{stayer}", key=key, json={"stays_at": 0},
              expect=200)
    problem = api.post(f"/api/rounds/{round_['id']}/swap", key=key,
                       json={"a": stayer, "b": two["team_b"]["id"]}, expect=409).get_json()
    assert problem["code"] == "stays-at-table"
    assert f"{one['team_a']['name']} stays at table {one['table']}" in problem["detail"]
    # Changing sides at its own table is fine.
    api.post(f"/api/rounds/{round_['id']}/swap", key=key,
             json={"a": stayer, "b": one["team_b"]["id"]}, expect=200)
