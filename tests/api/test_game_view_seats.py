"""The game's view says who deals next and who may sign off, so no screen works it out again."""

from __future__ import annotations

from .client import play
from .scripts import fixed_hands_game


def _ghost_table(api):
    """A 7-player progressive: table 2 has a ghost in seat 4."""
    event = api.create_event("progressive")
    api.add_players(event, ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina"])
    round_ = api.seat_round(event, 1)
    table = next(t for t in round_["tables"] if any(s["player_id"] is None for s in t["seats"]))
    return event, table


def test_the_ghosts_partner_deals_for_the_ghost(api):
    event, table = _ghost_table(api)
    key = event["organizer_key"]
    game_id = table["games"][0]["id"]
    ghost_seat = next(s["seat"] for s in table["seats"] if s["player_id"] is None)
    partner_seat = {1: 3, 3: 1, 2: 4, 4: 2}[ghost_seat]
    partner = next(s["name"] for s in table["seats"] if s["seat"] == partner_seat)

    assert api.game(game_id)["dealing"] is None, "nobody knows the dealer yet"
    game = api.put(f"/api/games/{game_id}/dealer", key=key, json={"seat": ghost_seat},
                   expect=200).get_json()
    assert game["dealing"] == {"seat": ghost_seat, "for_ghost": True, "name": partner}

    game = api.hand(key, game_id, "A", 3)
    after = ghost_seat % 4 + 1
    dealer = next(s["name"] for s in table["seats"] if s["seat"] == after)
    assert game["dealing"] == {"seat": after, "for_ghost": False, "name": dealer}


def test_only_real_players_of_the_losing_side_may_sign_off(api):
    event, table = _ghost_table(api)
    game_id = table["games"][0]["id"]
    assert api.game(game_id)["signers"] == [], "nobody signs a game still being played"
    game = play(api, event["organizer_key"], game_id, fixed_hands_game(8, 3, 8))
    assert game["winner"] == "A"
    losers = [s for s in table["seats"] if s["seat"] in (2, 4) and s["player_id"] is not None]
    assert [(p["seat"], p["name"], p["side"]) for p in game["signers"]] == \
        [(s["seat"], s["name"], "B") for s in losers]


def test_a_rounds_tables_say_each_seats_side_and_who_forfeited(api):
    event, key, _ = api.league()
    round_ = api.seat_round(event, 1)
    table = round_["tables"][0]
    assert [(s["seat"], s["side"]) for s in table["seats"]] == [(1, "A"), (2, "B"), (3, "A"),
                                                                (4, "B")]
    api.post(f"/api/matches/{table['match_id']}/forfeits", key=key,
             json={"team_id": table["team_b"]["id"], "reason": "no-show"}, expect=201)
    games = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()["tables"][0]["games"]
    assert {g["forfeited_by"] for g in games} == {"B"}
