"""Reading an event: the leaderboard's ETag and 304, event details, access management."""

from __future__ import annotations

from .client import play, signer
from .scripts import fixed_hands_game


def test_the_leaderboard_answers_304_until_something_changes(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    game = api.seat_round(event, 1)["tables"][0]["games"][0]["id"]
    url = f"/api/events/{event['id']}/leaderboard"
    first = api.get(url, expect=200)
    tag = first.headers["ETag"]
    again = api.get(url, headers={"If-None-Match": tag}, expect=304)
    assert again.headers["ETag"] == tag and again.get_data() == b""
    api.hand(key, game, "A", 3)
    changed = api.get(url, headers={"If-None-Match": tag}, expect=200)
    assert changed.headers["ETag"] != tag
    assert max(r["total"] for r in changed.get_json()["rows"]) == 1
    refused = api.post(f"/api/games/{game}/hands", key=key,
                       json={"id": "bad", "maker": "A", "tricks": 9})
    assert refused.status_code == 422
    api.get(url, headers={"If-None-Match": changed.headers["ETag"]}, expect=304)


def test_an_event_shows_its_format_in_plain_words_and_can_be_renamed(api):
    event = api.create_event("teams", name="Spring teams")
    assert event["format"]["summary"].startswith("Teams of two")
    assert event["links"]["leaderboard"] == f"http://euchre.test/e/{event['id']}/board"
    assert event["organizer_key"] in event["links"]["organizer"]
    found = api.get(f"/api/events/by-code/{event['code'].lower()}", expect=200).get_json()
    assert found["id"] == event["id"] and "organizer_key" not in found
    renamed = api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
                        json={"name": "Spring teams 2026"}, expect=200).get_json()
    assert renamed["name"] == "Spring teams 2026"
    assert api.patch(f"/api/events/{event['id']}", json={"name": "x"}).status_code == 401


def test_a_new_organizer_key_works_and_the_old_one_can_then_be_revoked(api):
    event = api.create_event("progressive")
    old = event["organizer_key"]
    new = api.post(f"/api/events/{event['id']}/organizer-key", key=old,
                   expect=201).get_json()["organizer_key"]
    keys = api.get(f"/api/events/{event['id']}/keys", key=new, expect=200).get_json()
    assert [k["role"] for k in keys] == ["organizer", "organizer"]
    assert all("key" not in k for k in keys), "secrets are never listed"
    own = api.delete(f"/api/events/{event['id']}/keys/{keys[1]['id']}", key=new)
    assert own.status_code == 409
    api.delete(f"/api/events/{event['id']}/keys/{keys[0]['id']}", key=new, expect=200)
    assert api.get(f"/api/events/{event['id']}/keys", key=old).status_code == 401
    pin = api.post(f"/api/events/{event['id']}/pin", key=new, expect=200).get_json()
    assert len(pin["join_pin"]) == 6


def _settle_and_sign(api, key, game, state):
    if state["level"]:
        api.post(f"/api/games/{game}/settlement", key=key,
                 json={"method": "playoff-hand", "winner": "A"}, expect=200)
    api.post(f"/api/games/{game}/sign-off", key=key,
             json={"by": signer(state)}, expect=200)


def test_three_teams_level_at_the_cut_play_a_round_robin_for_the_last_spot(api):
    event = api.create_event("teams", rounds=1)
    key = event["organizer_key"]
    points = {"Ace": 12, "King": 8, "Queen": 8, "Jack": 8, "Ten": 6, "Nine": 6}
    for name in points:
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    round_ = api.seat_round(event, 1)
    for t in round_["tables"]:
        game = t["games"][0]["id"]
        score = (points[t["team_a"]["name"]], points[t["team_b"]["name"]])
        _settle_and_sign(api, key, game, play(api, key, game, fixed_hands_game(*score, 12)))
    api.close_round(event, round_["id"])
    cut = api.leaderboard(event)["championship"]
    assert [q["name"] for q in cut["qualified"]] == ["Ace"]
    assert sorted(c["name"] for c in cut["contenders"]) == ["Jack", "King", "Queen"]
    assert cut["playoff"] == "round-robin" and cut["spots"] == 1

    # King beats both; Jack beats Queen. Each pair meets once, one game a round (a bye each).
    beats = {("King", "Queen"), ("King", "Jack"), ("Jack", "Queen")}
    met = set()
    for number in (2, 3, 4):
        rr = api.seat_round(event, number)
        assert rr["stage"] == "cut-playoff" and len(rr["tables"]) == 1
        t = rr["tables"][0]
        a, b = t["team_a"]["name"], t["team_b"]["name"]
        met.add(frozenset((a, b)))
        game = t["games"][0]["id"]
        score = (3, 1) if (a, b) in beats else (1, 3)
        _settle_and_sign(api, key, game, play(api, key, game, fixed_hands_game(*score, 4)))
        api.close_round(event, rr["id"])
    assert len(met) == 3
    cut = api.leaderboard(event)["championship"]
    assert sorted(q["name"] for q in cut["qualified"]) == ["Ace", "King"]
    final = api.seat_round(event, 5)
    assert final["stage"] == "championship"
    assert {final["tables"][0]["team_a"]["name"], final["tables"][0]["team_b"]["name"]} == \
        {"Ace", "King"}


def test_the_presets_say_each_parameters_bounds_choices_in_words_and_which_formats_use_it(api):
    presets = {p["key"]: p for p in api.get("/api/presets", expect=200).get_json()}
    assert set(presets) == {"league", "progressive", "teams", "wec-singles", "wec-doubles"}
    info = presets["progressive"]["parameter_info"]
    assert info["ghost_minimum"]["only_for"] == ["progressive"]
    assert info["forfeit_minutes"]["only_for"] == ["league-schedule"]
    assert info["bumps"]["only_for"] == [] and info["bumps"]["type"] == "bool"
    assert info["rounds"]["minimum"] == 1 and info["rounds"]["none_means"]
    movement = {c["value"]: c["words"] for c in info["movement"]["choices"]}
    assert movement["progressive"] == "winners stay, losers move to the next table"
    assert presets["wec-singles"]["parameters"]["bumps"] is True


def test_the_next_round_preview_says_why_none_can_be_seated_and_seating_is_refused_the_same(api):
    event = api.create_event("progressive", name="Not yet")
    key = event["organizer_key"]
    preview = api.get(f"/api/events/{event['id']}/rounds/next", key=key, expect=200).get_json()
    assert preview["ready"] is False and preview["tables"] == []
    assert preview["reason"].startswith("No players are checked in")
    refused = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                       expect=409).get_json()
    assert refused["detail"] == preview["reason"] and refused["code"] == preview["code"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    preview = api.get(f"/api/events/{event['id']}/rounds/next", key=key, expect=200).get_json()
    assert preview["ready"] is True and preview["label"] == "Round 1"
    assert len(preview["tables"]) == 2 and preview["reason"] is None
