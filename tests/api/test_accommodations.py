"""Accommodations (RULES.md §4): an entrant marked "stays" never changes table, in every
movement, and the next round's preview says what that changed."""

from __future__ import annotations

from collections import Counter

from .client import play_sheet, signer
from .scripts import fixed_hands_game

NAMES = ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"]


def _stay(api, event, path: str, table: int | None) -> None:
    api.patch(f"/api/events/{event['id']}/{path}", key=event["organizer_key"],
              json={"stays_at": table}, expect=200)


def _where(round_: dict, entrant: int, *, team: bool = False) -> tuple[int, str]:
    """The table and side of a player (or a team) in a round."""
    for table in round_["tables"]:
        if team:
            for side in ("a", "b"):
                if table[f"team_{side}"]["id"] == entrant:
                    return table["table"], side.upper()
            continue
        for seat in table["seats"]:
            if seat["player_id"] == entrant:
                return table["table"], seat["side"]
    raise AssertionError(f"{entrant} is not seated")


def _play_round(api, event, round_: dict, winner, *, hands: int = 8, sign: bool = False):
    """Play every table's game to a result, each from its paper sheet: `winner(table)` names
    the side that wins."""
    key = event["organizer_key"]
    for table in round_["tables"]:
        won = winner(table)
        points = (9, 7) if won == "A" else (7, 9)
        state = play_sheet(api, key, table["games"][0]["id"], fixed_hands_game(*points, hands))
        assert state["winner"] == won
        if sign:
            api.post(f"/api/games/{state['id']}/sign-off", key=key,
                     json={"by": signer(state)}, expect=200)
    api.close_round(event, round_["id"])


def _preview(api, event) -> dict:
    return api.get(f"/api/events/{event['id']}/rounds/next", key=event["organizer_key"],
                   expect=200).get_json()


def test_a_progressive_player_who_stays_keeps_the_table_though_their_side_loses(api):
    event = api.create_event("progressive", name="Stay night")
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES)}
    names = {v: k for k, v in ids.items()}
    _stay(api, event, f"players/{ids['Ann']}", 2)

    preview = _preview(api, event)
    assert preview["ready"]
    assert "Ann stays at table 2 (accommodation)." in preview["notes"]
    round_ = api.seat_round(event, 1)
    assert _where(round_, ids["Ann"])[0] == 2
    for number in range(2, 6):
        table, side = _where(round_, ids["Ann"])
        ann_loses = "B" if side == "A" else "A"
        ann_table = next(t for t in round_["tables"] if t["table"] == 2)
        winners = [names[s["player_id"]] for s in ann_table["seats"]
                   if s["side"] == ann_loses]
        _play_round(api, event, round_, lambda t, s=ann_loses: s if t["table"] == 2 else "A")

        preview = _preview(api, event)
        [change] = [a for a in preview["accommodations"] if a["table"] == 2]
        assert change["stays"] == ["Ann"]
        [mover] = change["moves"]
        assert mover in winners, "one of the winners moves on in Ann's place"
        assert change["to"] == 1
        assert change["note"] == (f"Ann stays at table 2 (accommodation): {mover} moves to "
                                  "table 1 instead.")
        assert change["note"] in preview["notes"]

        round_ = api.seat_round(event, number)
        assert _where(round_, ids["Ann"])[0] == 2, f"round {number}"
        assert _where(round_, ids[mover])[0] == 1
        staying = [w for w in winners if w != mover]
        assert _where(round_, ids[staying[0]])[0] == 2, "the other winner stays"
        assert sorted(s["player_id"] for t in round_["tables"] for s in t["seats"]) == \
            sorted(ids.values())


def test_where_seated_in_round_one_is_kept_all_night(api):
    event = api.create_event("progressive", name="First seat night")
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES + ["Ivy", "Jack"])}
    _stay(api, event, f"players/{ids['Bob']}", 0)
    round_ = api.seat_round(event, 1)
    home, _ = _where(round_, ids["Bob"])
    for number in range(2, 5):
        _, side = _where(round_, ids["Bob"])
        _play_round(api, event, round_, lambda t, s=side: "B" if s == "A" else "A")
        round_ = api.seat_round(event, number)
        assert _where(round_, ids["Bob"])[0] == home


def test_a_stay_set_mid_event_brings_the_player_to_the_table(api):
    event = api.create_event("progressive", name="Late stay night")
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES + ["Ivy", "Jack", "Kim",
                                                                       "Lou"])}
    round_ = api.seat_round(event, 1)
    carol_table, side = _where(round_, ids["Carol"])
    target = 3 if carol_table != 3 else 1
    _stay(api, event, f"players/{ids['Carol']}", target)
    # Carol's side wins, so the movement alone would keep her where she is.
    _play_round(api, event, round_, lambda t: side)
    preview = _preview(api, event)
    [change] = [a for a in preview["accommodations"] if "Carol" in a["stays"]]
    assert change["table"] == target and len(change["moves"]) == 1
    round_ = api.seat_round(event, 2)
    assert _where(round_, ids["Carol"])[0] == target


def test_a_stay_at_a_table_the_round_does_not_have_is_refused_with_the_reason(api):
    event = api.create_event("progressive", name="Too far night")
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES)}
    _stay(api, event, f"players/{ids['Dave']}", 5)
    preview = _preview(api, event)
    assert not preview["ready"]
    assert preview["code"] == "accommodation"
    assert "Dave stays at table 5, but this round has only 2 tables" in preview["reason"]
    refused = api.post(f"/api/events/{event['id']}/rounds", key=event["organizer_key"],
                       json={"number": 1}, expect=409)
    assert refused.mimetype == "application/problem+json"
    assert "Dave stays at table 5" in refused.get_json()["detail"]
    assert api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json() == []


def test_three_players_who_stay_at_one_table_are_refused_before_seating(api):
    event = api.create_event("progressive", name="Crowded night")
    ids = {p["name"]: p["id"] for p in api.add_players(event, NAMES)}
    for name in ("Ann", "Bob", "Carol"):
        _stay(api, event, f"players/{ids[name]}", 1)
    preview = _preview(api, event)
    assert not preview["ready"]
    assert "3 players stay at table 1 (Ann, Bob, Carol)" in preview["reason"]


def _teams(api, event, count: int) -> dict[str, dict]:
    names = ["Hearts", "Spades", "Clubs", "Diamonds", "Bowers", "Aces", "Kings", "Queens"]
    return {n: api.add_team(event, n, [f"{n} 1", f"{n} 2"]) for n in names[:count]}


def test_a_team_that_stays_keeps_its_table_and_the_winners_move_instead(api):
    event = api.create_event("teams", name="Teams stay night")
    teams = _teams(api, event, 6)
    # A player of the team who cannot move keeps the whole team at the table.
    _stay(api, event, f"players/{teams['Hearts']['members'][0]['id']}", 3)
    round_ = api.seat_round(event, 1)
    assert _where(round_, teams["Hearts"]["id"], team=True)[0] == 3
    for number in (2, 3):
        _, side = _where(round_, teams["Hearts"]["id"], team=True)
        table3 = next(t for t in round_["tables"] if t["table"] == 3)
        other = table3["team_b" if side == "A" else "team_a"]["name"]
        _play_round(api, event, round_, lambda t, s=side: ("B" if s == "A" else "A")
                    if t["table"] == 3 else "A", hands=12, sign=True)
        preview = _preview(api, event)
        [change] = [a for a in preview["accommodations"] if a["table"] == 3]
        assert change["note"] == (f"Hearts stays at table 3 (accommodation): {other} moves "
                                  "to table 1 instead.")
        round_ = api.seat_round(event, number)
        assert _where(round_, teams["Hearts"]["id"], team=True)[0] == 3
        assert _where(round_, teams[other]["id"], team=True)[0] == 1


def test_wec_doubles_a_team_that_stays_is_at_home_though_it_lost_game_one(api):
    event = api.create_event("wec-doubles", name="Doubles stay night")
    teams = _teams(api, event, 8)
    _stay(api, event, f"teams/{teams['Spades']['id']}", 2)
    round_ = api.seat_round(event, 1)
    _, side = _where(round_, teams["Spades"]["id"], team=True)
    table2 = next(t for t in round_["tables"] if t["table"] == 2)
    winner = table2["team_b" if side == "A" else "team_a"]
    _play_round(api, event, round_, lambda t, s=side: ("B" if s == "A" else "A")
                if t["table"] == 2 else "A", hands=12)
    visited = Counter()
    for number in range(2, 5):
        round_ = api.seat_round(event, number)
        assert _where(round_, teams["Spades"]["id"], team=True)[0] == 2
        visited[_where(round_, winner["id"], team=True)[0]] += 1
        _play_round(api, event, round_, lambda t: "A", hands=12)
    assert visited == Counter({3: 1, 4: 1, 1: 1}), "the winners visit instead, a table a game"


def test_wec_singles_a_player_who_stays_has_one_table_for_all_games(api):
    event = api.create_event("wec-singles", name="Singles stay night")
    players = api.add_players(event, [f"Singles {i}" for i in range(1, 17)])
    stayer = players[5]
    _stay(api, event, f"players/{stayer['id']}", 3)
    preview = _preview(api, event)
    assert preview["ready"]
    assert any("nobody partners anyone twice" in n and "repeated meeting" in n
               for n in preview["notes"])
    assert f"{stayer['name']} stays at table 3 (accommodation)." in preview["notes"]
    key = event["organizer_key"]
    partners = Counter()
    for number in range(1, 9):
        round_ = api.seat_round(event, number)
        assert _where(round_, stayer["id"])[0] == 3, f"game {number}"
        for table in round_["tables"]:
            seats = {s["seat"]: s["player_id"] for s in table["seats"]}
            partners[frozenset((seats[1], seats[3]))] += 1
            partners[frozenset((seats[2], seats[4]))] += 1
            api.put(f"/api/games/{table['games'][0]['id']}/sheet", key=key,
                    json={"points": {"A": 9, "B": 7}, "hands_played": 12}, expect=200)
        api.close_round(event, round_["id"])
    assert max(partners.values()) == 1, "nobody partners anyone twice"


def test_a_27_player_night_keeps_its_stayer_through_late_arrivals_and_withdrawals(api):
    event = api.create_event("progressive", name="Loner Seekers night")
    key = event["organizer_key"]
    names = [f"Player {i}" for i in range(1, 28)]
    ids = {p["name"]: p["id"] for p in api.add_players(event, names)}
    stayer = ids["Player 7"]
    _stay(api, event, f"players/{stayer}", 4)
    round_ = api.seat_round(event, 1)
    assert len(round_["tables"]) == 7
    for number in range(2, 6):
        assert _where(round_, stayer)[0] == 4
        # The stayer's side loses every time; elsewhere the sides take turns.
        _, side = _where(round_, stayer)
        _play_round(api, event, round_, lambda t, s=side, n=number: (
            ("B" if s == "A" else "A") if t["table"] == 4 else "AB"[(t["table"] + n) % 2]))
        if number == 3:
            late = api.add_players(event, ["Late Lou"])[0]
            api.patch(f"/api/events/{event['id']}/players/{ids['Player 1']}", key=key,
                      json={"withdrawn": True}, expect=200)
        preview = _preview(api, event)
        assert preview["ready"], preview["reason"]
        assert any(a["table"] == 4 and a["stays"] == ["Player 7"]
                   for a in preview["accommodations"])
        round_ = api.seat_round(event, number)
        seated = [s["player_id"] for t in round_["tables"] for s in t["seats"] if s["player_id"]]
        assert len(seated) == len(set(seated)) == 27
        if number >= 3:
            assert late["id"] in seated and ids["Player 1"] not in seated
    assert _where(round_, stayer)[0] == 4
