"""The night's story at its edges (issue 30's independent check): a tie for first, a night
without loners or euchres, money that pays no prizes, a hand corrected after the night was
finished, and a private person who did something notable. Each recap is checked against
the hands by test_story.assert_traced, and against the leaderboard."""

from __future__ import annotations

import uuid

from api.ratings.reads import rating_changes_for_event

from .client import play
from .test_story import assert_traced

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]
MADE_A, MADE_B = {"maker": "A", "tricks": 3}, {"maker": "B", "tricks": 3}
# Six hands to side A, two to side B, one point each: no march, no loner, no euchre.
SIX_TWO = [MADE_A, MADE_B, MADE_A, MADE_A, MADE_B, MADE_A, MADE_A, MADE_A]


def _club(api):
    made = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    return made["id"], made["club_key"]


def _night(api, club, key, name, date, tables, names=NAMES):
    """A club's progressive night of eight on `date`, one round, each table's hands posted
    (`tables`: by table number, or a function of the seated table)."""
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": name, "preset": "progressive"}, expect=201).get_json()
    api.patch(f"/api/clubs/{club}/events/{event['id']}", key=key, json={"date": date},
              expect=200)
    api.add_players(event, names)
    round_ = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    for table in round_["tables"]:
        hands = tables(table) if callable(tables) else tables[table["table"]]
        play(api, key, table["games"][0]["id"], hands)
    api.post(f"/api/rounds/{round_['id']}/close", key=key, expect=200)
    return event, round_


def _status(api, key, event, status):
    api.patch(f"/api/events/{event['id']}", key=key, json={"status": status}, expect=200)


def _recap(api, event):
    return api.get(f"/api/events/{event['id']}/recap", expect=200).get_json()


def _by_kind(recap):
    return {f["kind"]: (f, next(s["text"] for s in recap["sentences"]
                                if recap["facts"][s["fact"]] is f))
            for f in recap["facts"]}


def _board_first(api, event):
    rows = api.get(f"/api/events/{event['id']}/leaderboard", expect=200).get_json()["rows"]
    top = [r for r in rows if r["place"] == 1]
    return {r["name"] for r in top}, {r["total"] for r in top}


def test_a_tie_for_first_no_loners_no_prizes_and_a_correction_after_the_night(api):
    club, key = _club(api)
    event, round_ = _night(api, club, key, "Tied", "2026-03-13", {1: SIX_TWO, 2: SIX_TWO})
    # Money set, but the club keeps it all: nothing is paid out.
    api.put(f"/api/events/{event['id']}/money", key=key,
            json={"entry_fee": 5, "maintenance_percent": 100}, expect=200)
    for player in api.get(f"/api/events/{event['id']}/players").get_json():
        api.patch(f"/api/events/{event['id']}/players/{player['id']}", key=key,
                  json={"paid": True}, expect=200)
    _status(api, key, event, "finished")
    recap = _recap(api, event)
    assert_traced(api, recap)
    told = _by_kind(recap)
    assert set(told) == {"winner", "high-game", "low-score", "rating-jump"}, told
    names, totals = _board_first(api, event)
    winner, text = told["winner"]
    assert len(names) == 4 and totals == {6}
    assert text.endswith("shared first place with 6 points.")
    assert all(name in text for name in names)
    assert not any("prize" in s["text"] or "loner" in s["text"] or "euchred" in s["text"]
                   for s in recap["sentences"])
    # A hand corrected after the night was finished (opened again, corrected, finished
    # again): table 1's first hand goes to side B. The story is told again from the hands.
    _status(api, key, event, "open")
    table1 = next(t for t in round_["tables"] if t["table"] == 1)
    game = api.game(table1["games"][0]["id"])
    hand = game["hands"][0]
    api.put(f"/api/games/{game['id']}/hands/{hand['id']}", key=key,
            json={"maker": "B", "tricks": 3}, headers={"If-Match": f'"{game["version"]}"'},
            expect=200)
    _status(api, key, event, "finished")
    again = _recap(api, event)
    assert again["finished"]
    assert_traced(api, again)
    names_now, totals_now = _board_first(api, event)
    assert len(names_now) == 2 and totals_now == {6}
    winner_text = _by_kind(again)["winner"][1]
    assert winner_text.endswith("shared first place with 6 points.")
    assert all(name in winner_text for name in names_now)
    assert not any(name in winner_text for name in names - names_now)


def test_a_private_persons_rating_rise_is_not_told_and_no_one_else_is_said_to_top_it(api, app):
    club, key = _club(api)
    _night(api, club, key, "First", "2026-02-13", {1: SIX_TWO, 2: SIX_TWO})
    # Next month a newcomer sits in (so the rises differ): whoever rose the most asks to be
    # private afterwards.
    event, _ = _night(api, club, key, "Second", "2026-03-13", {1: SIX_TWO, 2: SIX_TWO},
                      names=[*NAMES[:7], "Zed Quinn"])
    _status(api, key, event, "finished")
    players = {p["id"]: p for p in api.get(f"/api/events/{event['id']}/players").get_json()}
    with app.app_context():
        changes = rating_changes_for_event(event["id"])
    rises = {p: round(round(a, 1) - round(b, 1), 1) for p, (b, a) in changes.items()}
    fact, text = _by_kind(_recap(api, event))["rating-jump"]
    top = players[fact["players"][0]]
    assert fact["value"] == rises[top["person_id"]] == max(rises.values())
    assert top["name"] in text
    api.patch(f"/api/clubs/{club}/people/{top['person_id']}", key=key,
              json={"private": True}, expect=200)
    recap = _recap(api, event)
    assert_traced(api, recap)
    assert not any(top["name"] in s["text"] and "rating" in s["text"]
                   for s in recap["sentences"])
    told = _by_kind(recap)
    others = [r for p, r in rises.items() if p != top["person_id"]]
    if max(others) < rises[top["person_id"]]:  # nobody else rose as much: nobody is told
        assert "rating-jump" not in told
    else:  # someone public rose as much: they are told
        assert told["rating-jump"][0]["value"] == rises[top["person_id"]]


def test_an_erased_person_is_never_named_in_the_story(api):
    club, key = _club(api)
    event, _ = _night(api, club, key, "Night", "2026-03-13", {1: SIX_TWO, 2: SIX_TWO})
    _status(api, key, event, "finished")
    before = " ".join(s["text"] for s in _recap(api, event)["sentences"])
    named = next(n for n in NAMES if n in before)
    person = next(p["person_id"] for p in api.get(f"/api/events/{event['id']}/players")
                  .get_json() if p["name"] == named)
    api.post(f"/api/clubs/{club}/people/{person}/erase", key=key, expect=200)
    after = " ".join(s["text"] for s in _recap(api, event)["sentences"])
    assert named not in after and "Former player" in after
