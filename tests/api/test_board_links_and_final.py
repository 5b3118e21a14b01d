"""What the public board says about a night beyond its places: that its results are final once
the organizer finishes it, where each name leads (a public club profile, else nothing here and
the scoresheet in the app), and that Low Score is nobody's until a game is over."""

from __future__ import annotations

import uuid

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]


def _club_night(api):
    slug = f"bl-{uuid.uuid4().hex[:8]}"
    made = api.post("/api/clubs", json={"name": "Board club", "slug": slug},
                    expect=201).get_json()
    club, key = made["id"], made["club_key"]
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": "March", "preset": "progressive"}, expect=201).get_json()
    for name in NAMES:
        api.post(f"/api/events/{event['id']}/players", key=key,
                 json={"name": name, "checked_in": True}, expect=201)
    return club, key, slug, event


def test_each_public_players_row_links_their_profile_and_privacy_takes_it_away(api):
    club, key, slug, event = _club_night(api)
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    path = f"/api/events/{event['id']}/leaderboard"
    first = api.get(path, expect=200)
    rows = {r["name"]: r for r in first.get_json()["rows"]}
    assert {n: r["profile"] for n, r in rows.items()} == {
        n: f"/c/{slug}/people/{people[n]}" for n in NAMES}

    # Made private: the board changes (a new ETag), and the name no longer leads there.
    tag = first.headers["ETag"]
    api.patch(f"/api/clubs/{club}/people/{people['Cy Young']}", key=key,
              json={"private": True}, expect=200)
    again = api.get(path, headers={"If-None-Match": tag}, expect=200)
    rows = {r["name"]: r for r in again.get_json()["rows"]}
    assert rows["Cy Young"]["profile"] is None
    assert rows["Ann Baker"]["profile"] == f"/c/{slug}/people/{people['Ann Baker']}"
    # A change that is no change of privacy leaves the board alone.
    tag = again.headers["ETag"]
    api.patch(f"/api/clubs/{club}/people/{people['Cy Young']}", key=key,
              json={"private": True}, expect=200)
    api.get(path, headers={"If-None-Match": tag}, expect=304)
    # Public again: linked again.
    api.patch(f"/api/clubs/{club}/people/{people['Cy Young']}", key=key,
              json={"private": False}, expect=200)
    rows = {r["name"]: r for r in api.get(path, headers={"If-None-Match": tag},
                                          expect=200).get_json()["rows"]}
    assert rows["Cy Young"]["profile"] == f"/c/{slug}/people/{people['Cy Young']}"


def test_an_event_of_no_club_links_no_profile(api, progressive):
    board = api.leaderboard(progressive["event"])
    assert board["rows"] and all(r["profile"] is None for r in board["rows"])
    assert board["finished"] is False


def test_a_finished_night_says_its_results_are_final(api):
    event = api.create_event("progressive", name="Final night")
    api.add_players(event, NAMES)
    round_ = api.seat_round(event, 1)
    api.post(f"/api/rounds/{round_['id']}/clock", key=event["organizer_key"],
             json={}, expect=200)
    board = api.leaderboard(event)
    assert board["finished"] is False
    assert board["current_round"]["clock"]["seconds_left"] > 0
    api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
              json={"status": "finished"}, expect=200)
    assert api.leaderboard(event)["finished"] is True
    api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
              json={"status": "open"}, expect=200)
    assert api.leaderboard(event)["finished"] is False
    # A status that is not one is refused, and nothing changes.
    bad = api.patch(f"/api/events/{event['id']}", key=event["organizer_key"],
                    json={"status": "final"}, expect=422)
    assert bad.content_type.startswith("application/problem+json")
    assert api.leaderboard(event)["finished"] is False


def test_low_score_is_nobodys_until_a_game_is_over(api):
    event = api.create_event("wec-singles", name="WEC low")
    key = event["organizer_key"]
    api.add_players(event, [f"P{n}" for n in range(12)])
    round_ = api.seat_round(event, 1)
    awards = api.get(f"/api/events/{event['id']}/awards", expect=200).get_json()
    assert awards["low_score"]["earned"] is False
    game = round_["tables"][0]["games"][0]["id"]
    for _ in range(11):
        api.hand(key, game, "A", 3)
    assert api.get(f"/api/events/{event['id']}/awards").get_json()["low_score"][
        "earned"] is False  # eleven of twelve hands: no game over yet
    api.hand(key, game, "B", 3)
    low = api.get(f"/api/events/{event['id']}/awards").get_json()["low_score"]
    # The eight players of the two other tables are level on nothing.
    assert low["earned"] is True and low["total"] == 0 and len(low["entrants"]) == 8, low
