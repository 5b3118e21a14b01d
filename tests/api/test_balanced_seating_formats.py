"""A balanced first round, format by format (issue 30's independent check): refused with a
problem a person can act on wherever the format's rules seat round 1 at random or by a
schedule, whatever else is not ready yet; seated as previewed for the formats that draw
partners, with a ghost table too."""

from __future__ import annotations

import uuid

import pytest

from api.story import ratings_link

NAMES = [f"Player {n:02d}" for n in range(1, 13)]


def _refused(api, event, key, code="balance-not-allowed"):
    path = f"/api/events/{event['id']}/rounds"
    rounds = api.get(path).get_json()
    for answer in (api.get(f"{path}/next?balanced=true", key=key, expect=422),
                   api.post(path, key=key, json={"number": 1, "balanced": True}, expect=422)):
        assert answer.headers["Content-Type"].startswith("application/problem+json")
        problem = answer.get_json()
        assert problem["code"] == code, problem
        assert "progressive" in problem["detail"] and "WEC singles" in problem["detail"]
    assert api.get(path).get_json() == rounds, "nothing seated"


@pytest.mark.parametrize("preset", ["teams", "wec-doubles"])
def test_formats_that_seat_round_1_at_random_refuse_it(api, preset):
    event = api.create_event(preset)
    key = event["organizer_key"]
    for n in range(4):
        api.add_team(event, f"Team {n}", [f"T{n} one", f"T{n} two"])
    _refused(api, event, key)


def test_a_league_refuses_it_before_its_season_is_made_and_after(api):
    event = api.create_event("league")
    key = event["organizer_key"]
    for name in ("North", "South", "East", "West"):
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    _refused(api, event, key)
    api.post(f"/api/events/{event['id']}/season", key=key, json={}, expect=201)
    _refused(api, event, key)


def test_a_team_format_refuses_it_even_when_it_is_not_ready_to_seat(api):
    event = api.create_event("teams")  # no teams yet: the refusal is about balancing
    _refused(api, event, event["organizer_key"])


def test_a_progressive_night_with_a_ghost_table_is_balanced_as_previewed(api, monkeypatch):
    made = api.post("/api/clubs", json={"name": "Balanced club",
                                        "slug": f"bc-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    club, key = made["id"], made["club_key"]
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": "Ten", "preset": "progressive"}, expect=201).get_json()
    api.add_players(event, NAMES[:10])
    players = api.get(f"/api/events/{event['id']}/players").get_json()
    mus = {p["person_id"]: 20.0 + 2 * n for n, p in enumerate(players)}
    monkeypatch.setattr(ratings_link, "ratings_of",
                        lambda club_id, people, fresh: {p: (mus[p], 3.0) for p in people})
    path = f"/api/events/{event['id']}/rounds"
    shown = api.get(f"{path}/next?balanced=1", key=key, expect=200).get_json()
    balance = shown["balance"]
    assert balance["rated"] == 10 == balance["players"]
    assert balance["spread"] <= balance["drawn_spread"]
    note = next(n for n in shown["notes"] if n.startswith("Balanced by rating"))
    assert f"is {balance['spread']:.1f}, against {balance['drawn_spread']:.1f} in the random " \
        "draw" in note
    seated = [s["player_id"] for t in shown["tables"] for s in t["seats"]]
    assert sorted(p for p in seated if p) == sorted(p["id"] for p in players)
    assert seated.count(None) == 2, "two ghost seats"
    by_player = {p["id"]: mus[p["person_id"]] for p in players}
    spread = 0.0
    for table in shown["tables"]:
        seats = {s["seat"]: s["player_id"] for s in table["seats"]}
        if None in seats.values():
            continue
        spread = max(spread, abs(by_player[seats[1]] + by_player[seats[3]]
                                 - by_player[seats[2]] - by_player[seats[4]]))
    assert round(spread, 2) == balance["spread"]
    round_ = api.post(path, key=key, json={"number": 1, "balanced": True},
                      expect=201).get_json()
    assert [[s["player_id"] for s in t["seats"]] for t in round_["tables"]] == \
        [[s["player_id"] for s in t["seats"]] for t in shown["tables"]]
