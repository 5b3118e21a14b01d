"""The "standings hash" of a portable round trip, and the data it is taken over.

A canonical hash over what a user reads of an event or a club: every night's leaderboard,
awards, money, scoresheets, season and bracket, the four CSV exports, and for a club its
people, every profile and every series' standings (JSON and CSV). Ids, codes, keys, links and
the moment of reading differ legitimately between two instances and are left out; everything
else must be equal."""

from __future__ import annotations

import hashlib
import json
import re
import uuid

from .client import play
from .scripts import fixed_hands_game, to_target_game

LEFT_OUT = re.compile(r"(^|_)(id|ids|code|slug|key|url|link|links|etag|revision|generated_at|"
                      r"as_of|now|stamp|profile|seconds_left)$")


# Fields that hold an id where they hold a number (a bracket's winner: the team's id; a
# week's forfeits: the teams'), but a side's letter or a name otherwise.
IDS_WHEN_NUMBERS = {"winner", "forfeits", "winners", "champion"}


def _an_id(key: str, value) -> bool:
    if key not in IDS_WHEN_NUMBERS:
        return False
    values = value if isinstance(value, list) else [value]
    return bool(values) and all(isinstance(v, int) and not isinstance(v, bool)
                                for v in values)


def canonical(value):
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in sorted(value.items())
                if not LEFT_OUT.search(k) and not _an_id(k, v)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def _json(api, path, key=None):
    answer = api.get(path, key=key)
    return [answer.status_code, canonical(answer.get_json()) if answer.is_json else None]


def _csv(api, path, key=None):
    return api.get(path, key=key, expect=200).get_data(as_text=True)


def night_reads(api, event_id: int, key: str) -> dict:
    reads = {}
    for path in ("leaderboard", "awards", "money", "named-awards", "categories", "draws",
                 "scoresheets", "season", "bracket", "players", "teams", "protests"):
        reads[path] = _json(api, f"/api/events/{event_id}/{path}")
    for name in ("hands", "games", "standings", "scoresheets"):
        reads[f"{name}.csv"] = _csv(api, f"/api/events/{event_id}/export/{name}.csv", key)
    return reads


def standings_reads(api, *, event_ids: list[int], key: str,
                    club_id: int | None = None) -> dict:
    """Everything read of these nights (with the organizer or club key) and, for a club, of
    its people, profiles, series and ratings, ids and keys left out."""
    reads: dict = {"nights": [night_reads(api, e, key) for e in event_ids]}
    if club_id is not None:
        people = api.get(f"/api/clubs/{club_id}/people", key=key, expect=200).get_json()
        reads["people"] = canonical(people)
        reads["profiles"] = [_json(api, f"/api/clubs/{club_id}/people/{p['id']}", key)
                             for p in people]
        series = api.get(f"/api/clubs/{club_id}/series", key=key, expect=200).get_json()
        reads["series"] = [
            [_json(api, f"/api/clubs/{club_id}/series/{s['id']}", key),
             _json(api, f"/api/clubs/{club_id}/series/{s['id']}"),
             _csv(api, f"/api/clubs/{club_id}/series/{s['id']}/standings.csv", key)]
            for s in series]
        reads["club"] = _json(api, f"/api/clubs/{club_id}")
        reads["ratings"] = [_json(api, f"/api/clubs/{club_id}/ratings", key),
                            _csv(api, f"/api/clubs/{club_id}/ratings.csv", key)]
        reads["ratings"] += [_json(api, f"/api/clubs/{club_id}/people/{p['id']}/rating", key)
                             for p in people]
        assert reads["ratings"][0][0] == 200 and reads["ratings"][2][0] == 200, reads["ratings"]
    return reads


def standings_hash(reads: dict) -> str:
    """The canonical hash of `standings_reads`."""
    text = json.dumps(reads, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# --- the data ------------------------------------------------------------------------------

NAMES = ["Ann Baker", "Bo Diaz", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ito"]


def _games(api, round_id: int) -> list[int]:
    tables = api.get(f"/api/rounds/{round_id}", expect=200).get_json()["tables"]
    return [g["id"] for t in tables for g in t["games"]]


def club_year(api) -> dict:
    """A club with a progressive night (money, paid players, hands hand by hand, finished)
    and a teams night played on paper sheets, a series over both, a private person and an
    erased one."""
    club = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    key, cid = club["club_key"], club["id"]
    night = api.post(f"/api/clubs/{cid}/events", key=key,
                     json={"name": "January", "preset": "progressive"}, expect=201).get_json()
    players = [api.post(f"/api/events/{night['id']}/players", key=key,
                        json={"name": n, "checked_in": True, "people": {n: "new"}},
                        expect=201).get_json() for n in NAMES]
    for player in players[:5]:
        api.patch(f"/api/events/{night['id']}/players/{player['id']}", key=key,
                  json={"paid": True}, expect=200)
    api.put(f"/api/events/{night['id']}/money", key=key, json={"entry_fee": 10}, expect=200)
    seated = api.seat_round({"id": night["id"], "organizer_key": key}, 1)
    for n, game in enumerate(_games(api, seated["id"])):
        play(api, key, game, fixed_hands_game(6 + n, 5 - n, 8))
    api.patch(f"/api/events/{night['id']}", key=key, json={"status": "finished"}, expect=200)

    teams = api.post(f"/api/clubs/{cid}/events", key=key,
                     json={"name": "February pairs", "preset": "teams"}, expect=201).get_json()
    for n in range(4):
        api.post(f"/api/events/{teams['id']}/teams", key=key,
                 json={"name": f"Pair {n + 1}", "players": NAMES[2 * n:2 * n + 2],
                       "checked_in": True}, expect=201)
    seated = api.seat_round({"id": teams["id"], "organizer_key": key}, 1)
    for n, game in enumerate(_games(api, seated["id"])):
        _sheet(api, key, game, fixed_hands_game(7 + n, 5, 12))
    api.post(f"/api/clubs/{cid}/series", key=key,
             json={"name": "Year", "event_ids": [night["id"], teams["id"]]}, expect=201)
    people = {p["name"]: p["id"] for p in
              api.get(f"/api/clubs/{cid}/people", key=key, expect=200).get_json()}
    api.patch(f"/api/clubs/{cid}/people/{people['Bo Diaz']}", key=key, json={"private": True},
              expect=200)
    api.post(f"/api/clubs/{cid}/people/{people['Cy Young']}/erase", key=key, expect=200)
    return {"club_id": cid, "key": key, "event_ids": [night["id"], teams["id"]]}


def _sheet(api, key: str, game: int, hands: list[dict]) -> None:
    api.post(f"/api/games/{game}/paper-sheet", key=key, expect=201,
             json={"id": f"sheet-{uuid.uuid4().hex[:8]}", "hands": hands})


def league_season(api) -> dict:
    """A two-team league: week 1 forfeited by South (a no-show), week 2 played, the playoff
    final played."""
    event, key, made = api.league(teams=("North", "South"), weeks=2)
    week1 = api.seat_round(event)["tables"][0]
    api.post(f"/api/matches/{week1['match_id']}/forfeits", key=key, expect=201,
             json={"team_id": week1["team_b"]["id"], "reason": "no-show"})
    for number in (1, 2):
        rounds = api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json()
        current = [r for r in rounds if r["number"] == number]
        if number == 2:
            current = [api.seat_round(event)]
        round_id = current[0]["id"]
        for game in _games(api, round_id):
            if api.game(game)["end"] is None:
                _sheet(api, key, game, to_target_game("A", 6))
        api.close_round(event, round_id)
    final = api.seat_round(event)
    assert final["stage"] == "playoff", final
    while True:
        open_games = [g for g in _games(api, final["id"]) if api.game(g)["end"] is None]
        if not open_games:
            break
        _sheet(api, key, open_games[0], to_target_game("A", 7))
    return {"event_ids": [event["id"]], "key": key}
