"""A small world of real data for the hostile-input tests: events of three presets with
players or teams, a seated round, games with hands, and keys of every kind.

Everything is made over HTTP with the same client the PWA's calls are modelled on, so the ids
are real and the keys work exactly as a phone's would.

The events are in the states the writes need to succeed (the access matrix proves each route
with a call that is allowed and changes something):

- progressive: round 1 in play, hands at tables 1 and 2;
- ended: a progressive event whose round 1 is played out (table 1 won, table 2 level after time
  was called and settled by a card draw) but not yet closed;
- league: the season scheduled, week 1 seated on 3 tables, the match at table 3 not started;
- preseason: a league with its teams and no season yet;
- wec: WEC singles, round 1 seated on 3 tables, the game at table 3 not started.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.api.client import ApiClient, play, signer
from tests.api.scripts import fixed_hands_game


@dataclass
class Seeded:
    """One seeded event: its ids (named as the URL parameters are) and its keys."""

    preset: str
    event: dict
    organizer: str  # the organizer key
    ids: dict = field(default_factory=dict)  # URL parameter name (or a variant) -> a real id
    keys: dict = field(default_factory=dict)  # kind -> secret
    other_table_game: int | None = None  # a game at table 2 (for table-limited runner keys)
    signer: str | None = None  # a player at table 1, who may sign its game off

    @property
    def id(self) -> int:
        return self.event["id"]


def _runner_key(api: ApiClient, seeded: Seeded, table: int | None) -> dict:
    return api.post(f"/api/events/{seeded.id}/keys", key=seeded.organizer,
                    json={"table": table, "label": f"runner {table or 'all'}"},
                    expect=201).get_json()


def _finish_seeding(api: ApiClient, seeded: Seeded, round_: dict, *,
                    hands: bool = True) -> Seeded:
    key = seeded.organizer
    table1, table2 = round_["tables"][0], round_["tables"][1]
    game = table1["games"][0]["id"]
    seeded.ids.update(round_id=round_["id"], match_id=table1["match_id"], game_id=game)
    seeded.other_table_game = table2["games"][0]["id"]
    seeded.ids["other_game_id"] = seeded.other_table_game
    if len(round_["tables"]) > 2:
        table3 = round_["tables"][2]
        seeded.ids.update(quiet_game_id=table3["games"][0]["id"],
                          quiet_match_id=table3["match_id"],
                          quiet_players=[s["player_id"] for s in table3["seats"]])
        if table3.get("team_a"):
            seeded.ids["quiet_team_id"] = table3["team_a"]["id"]
    if hands:
        api.hand(key, game, "A", 3)
        state = api.hand(key, game, "B", 4)
        seeded.ids["hand_id"] = state["hands"][0]["id"]
        other = api.hand(key, seeded.other_table_game, "A", 5)
        seeded.ids["other_hand_id"] = other["hands"][0]["id"]
    return _issue_keys(api, seeded)


def _issue_keys(api: ApiClient, seeded: Seeded) -> Seeded:
    key = seeded.organizer
    # Runner keys: one for every table, one for table 1, and a spare that is revoked.
    every = _runner_key(api, seeded, None)
    table = _runner_key(api, seeded, 1)
    spare = _runner_key(api, seeded, None)
    seeded.keys.update(runner=every["key"], runner_table1=table["key"])
    seeded.ids["key_id"] = spare["id"]
    # A second organizer key, revoked: a key that once could do everything must do nothing.
    revoked_org = api.post(f"/api/events/{seeded.id}/organizer-key", key=key,
                           expect=201).get_json()["organizer_key"]
    keys = api.get(f"/api/events/{seeded.id}/keys", key=key, expect=200).get_json()
    revoked_id = max(k["id"] for k in keys if k["role"] == "organizer")
    api.delete(f"/api/events/{seeded.id}/keys/{revoked_id}", key=key, expect=200)
    revoked_runner = _runner_key(api, seeded, None)
    api.delete(f"/api/events/{seeded.id}/keys/{revoked_runner['id']}", key=key, expect=200)
    seeded.keys.update(revoked_organizer=revoked_org, revoked_runner=revoked_runner["key"])
    access = api.get(f"/api/events/{seeded.id}/access", key=key, expect=200).get_json()
    seeded.ids.update(code=access["code"])
    seeded.keys["pin"] = access["join_pin"]
    return seeded


def seed_progressive(api: ApiClient, name: str = "Friday progressive") -> Seeded:
    event = api.create_event("progressive", name=name)
    seeded = Seeded("progressive", event, event["organizer_key"])
    players = api.add_players(event, [f"Player {i}" for i in range(1, 9)])
    seeded.ids["player_id"] = players[0]["id"]
    return _finish_seeding(api, seeded, api.seat_round(event, 1))


def seed_ended(api: ApiClient, name: str = "Saturday progressive") -> Seeded:
    """Round 1 played out but not closed: a won game to sign off, a level one settled (and
    settled again as a correction), a round that can close and then seat round 2."""
    event = api.create_event("progressive", name=name)
    key = event["organizer_key"]
    seeded = Seeded("progressive", event, key)
    players = api.add_players(event, [f"Late {i}" for i in range(1, 9)])
    seeded.ids["player_id"] = players[0]["id"]
    round_ = api.seat_round(event, 1)
    seeded = _finish_seeding(api, seeded, round_, hands=False)
    won = play(api, key, seeded.ids["game_id"], fixed_hands_game(5, 3, 8))
    seeded.ids["hand_id"] = won["hands"][0]["id"]
    seeded.signer = signer(won)
    level = play(api, key, seeded.other_table_game, [{"maker": "A", "tricks": 3},
                                                     {"maker": "B", "tricks": 3}])
    seeded.ids["other_hand_id"] = level["hands"][0]["id"]
    api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=200)
    api.post(f"/api/games/{seeded.other_table_game}/settlement", key=key,
             json={"method": "card-draw", "winner": "A"}, expect=200)
    return seeded


def seed_league(api: ApiClient, name: str = "Tuesday league") -> Seeded:
    event = api.create_event("league", name=name)
    seeded = Seeded("league", event, event["organizer_key"])
    teams = [api.add_team(event, team, [f"{team} 1", f"{team} 2"],
                          substitutes=[f"{team} sub"])
             for team in ("North", "South", "East", "West", "Hearts", "Spades")]
    seeded.ids["team_id"] = teams[0]["id"]
    seeded.ids["player_id"] = teams[0]["members"][0]["id"]
    seeded.ids["substitute_id"] = next(m["id"] for m in teams[0]["members"]
                                       if m["role"] == "substitute")
    api.post(f"/api/events/{event['id']}/season", key=event["organizer_key"],
             json={"first_night": "2027-01-05", "start_time": "19:00"},
             expect=201)
    # Team keys (a league captain's): the first team's, and another team's.
    for kind, team in (("team", teams[0]), ("other_team", teams[1])):
        seeded.keys[kind] = api.post(f"/api/events/{event['id']}/teams/{team['id']}/key",
                                     key=event["organizer_key"], expect=201).get_json()["key"]
    return _finish_seeding(api, seeded, api.seat_round(event, 1))


def seed_preseason(api: ApiClient, name: str = "Thursday league") -> Seeded:
    """A league with its teams but no season yet (the one state that can schedule one)."""
    event = api.create_event("league", name=name)
    seeded = Seeded("league", event, event["organizer_key"])
    teams = [api.add_team(event, team, [f"{team} 1", f"{team} 2"])
             for team in ("Bowers", "Aces", "Kings", "Queens")]
    seeded.ids["team_id"] = teams[0]["id"]
    return _issue_keys(api, seeded)


def seed_wec(api: ApiClient, name: str = "WEC singles") -> Seeded:
    event = api.create_event("wec-singles", name=name)
    seeded = Seeded("wec-singles", event, event["organizer_key"])
    players = api.add_players(event, [f"Singles {i}" for i in range(1, 13)])
    seeded.ids["player_id"] = players[0]["id"]
    return _finish_seeding(api, seeded, api.seat_round(event, 1))


def seed_world(api: ApiClient) -> dict[str, Seeded]:
    return {"progressive": seed_progressive(api), "ended": seed_ended(api),
            "league": seed_league(api), "preseason": seed_preseason(api),
            "wec": seed_wec(api)}
