"""The night around the games over HTTP (issue 16): entry fees and payouts, a shared place, a
disqualification, named awards, categories and door-prize draws."""

from __future__ import annotations

import csv
import io

from .client import play_sheet
from .scripts import fixed_hands_game

NAMES = [f"Player {n:02d}" for n in range(1, 28)]  # 27: seven tables, one ghost


def _night(api):
    """A 27-player progressive night, round 1 played: table 1's side A 10-2, table 2's side A
    9-3, every other table 6-2 (the ghost table's players score 7, its minimum); each game
    from its paper sheet."""
    event = api.create_event("progressive", name="Loner Seekers, December")
    key = event["organizer_key"]
    players = api.add_players(event, NAMES)
    round_ = api.seat_round(event, 1)
    scores = {1: (10, 2), 2: (9, 3)}
    for table in round_["tables"]:
        a, b = scores.get(table["table"], (6, 2))
        play_sheet(api, key, table["games"][0]["id"], fixed_hands_game(a, b, 8))
    seats = {t["table"]: [s["player_id"] for s in t["seats"]] for t in round_["tables"]}
    return event, key, {p["name"]: p["id"] for p in players}, seats


def _patch(api, event, key, player_id, expect=200, **body):
    return api.patch(f"/api/events/{event['id']}/players/{player_id}", key=key, json=body,
                     expect=expect).get_json()


def test_fees_a_maintenance_fee_a_shared_second_and_a_disqualification(api):
    event, key, ids, seats = _night(api)
    unpaid = set(list(ids.values())[:2])
    for player_id in ids.values():
        if player_id not in unpaid:
            _patch(api, event, key, player_id, paid=True)
    money = api.put(f"/api/events/{event['id']}/money", key=key,
                    json={"entry_fee": 10, "maintenance_amount": 20}, expect=200).get_json()
    assert (money["paid"], money["unpaid"], money["collected"], money["maintenance"],
            money["pool"]) == (25, 2, 250, 20, 230)
    assert [(p["place"], p["percent"], p["amount"]) for p in money["places"]] == [
        (1, 50, 115), (2, 30, 69), (3, 20, 46)]

    first_a, first_b = seats[1][0], seats[1][2]  # table 1's side A: seats 1 and 3
    second_a, second_b = seats[2][0], seats[2][2]
    # Two share 1st: they share 1st's and 2nd's money; two share 3rd (3rd's money alone).
    board = api.leaderboard(event)
    payout = {r["entrant_id"]: r["payout"] for r in board["rows"]}
    assert payout[first_a] == payout[first_b] == (115 + 69) // 2
    assert payout[second_a] == payout[second_b] == 46 // 2
    assert board["money"] == {"currency": "$", "pool": 230, "paid_places": 3, "remainder": 0}

    # One of the winners is disqualified: struck from places and prizes, the places close up,
    # and 2nd is now shared by table 2's side A, who split 2nd's and 3rd's money.
    dq = _patch(api, event, key, first_b, disqualified="Played with a phone at the table")
    assert dq["disqualified"] == "Played with a phone at the table"
    board = api.leaderboard(event)
    rows = {r["entrant_id"]: r for r in board["rows"]}
    assert rows[first_b]["place"] is None and rows[first_b]["payout"] == 0
    assert rows[first_b]["disqualified"] == "Played with a phone at the table"
    assert rows[first_b]["total"] == 10, "their results stand"
    assert board["rows"][-1]["entrant_id"] == first_b
    assert (rows[first_a]["place"], rows[first_a]["shared"], rows[first_a]["payout"]) == \
        (1, False, 115)
    assert rows[second_a]["place"] == rows[second_b]["place"] == 2
    assert rows[second_a]["payout"] == rows[second_b]["payout"] == (69 + 46) // 2
    money = api.get(f"/api/events/{event['id']}/money", expect=200).get_json()
    assert money["remainder"] == 1 and money["kept_by_organizer"] == 21
    assert sorted((p["place"], p["amount"]) for p in money["payouts"]) == [
        (1, 115), (2, 57), (2, 57)]

    text = api.get(f"/api/events/{event['id']}/export/standings.csv", key=key,
                   expect=200).get_data(as_text=True)
    table = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    by_name = {r["name"]: r for r in table}
    names = {v: k for k, v in ids.items()}
    assert by_name[names[first_a]]["payout"] == "115"
    assert by_name[names[first_b]]["disqualified"] == "Played with a phone at the table"
    assert by_name[names[first_b]]["place"] == ""

    # Undone: back in the places, with the money as before.
    _patch(api, event, key, first_b, disqualified=None)
    board = api.leaderboard(event)
    assert {r["entrant_id"]: r["payout"] for r in board["rows"]}[first_b] == 92
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert any(e["action"] == "update-player" and "disqualified" in e["changed"] for e in audit)
    assert any(e["action"] == "set-money" for e in audit)


def test_a_percentage_maintenance_fee_and_an_event_split(api):
    event, key, ids, _ = _night(api)
    for player_id in ids.values():
        _patch(api, event, key, player_id, paid=True)
    money = api.put(f"/api/events/{event['id']}/money", key=key, json={
        "entry_fee": 5, "maintenance_percent": 10, "currency": "EUR",
        "split": [{"from_field": 1, "percentages": [70, 30]}]}, expect=200).get_json()
    assert (money["collected"], money["maintenance"], money["pool"]) == (135, 14, 121)
    assert money["custom_split"] and [p["amount"] for p in money["places"]] == [84, 36]
    assert api.leaderboard(event)["money"]["currency"] == "EUR"

    cleared = api.delete(f"/api/events/{event['id']}/money", key=key, expect=200).get_json()
    assert not cleared["set"]
    assert all(r["payout"] is None for r in api.leaderboard(event)["rows"])


def test_bad_money_is_refused_with_the_reason_and_nothing_changes(api):
    event = api.create_event("progressive")
    key = event["organizer_key"]
    url = f"/api/events/{event['id']}/money"
    for body, words in [
        ({"entry_fee": 10, "split": [{"from_field": 1, "percentages": [60, 30]}]}, "90%"),
        ({"entry_fee": 10, "split": [{"from_field": 2, "percentages": [100]}]}, "field of 1"),
        ({"entry_fee": 10, "maintenance_amount": 5, "maintenance_percent": 5}, "not both"),
        ({"entry_fee": -1}, "entry_fee"),
        ({"entry_fee": 10, "currency": "dollars"}, "currency"),
    ]:
        problem = api.put(url, key=key, json=body, expect=422).get_json()
        assert words in problem["detail"] or words in str(problem.get("errors")), problem
    assert not api.get(url, expect=200).get_json()["set"]
    api.put(url, json={"entry_fee": 10}, expect=401)


def test_named_awards_are_shown_with_the_automatic_ones(api):
    event, key, ids, _ = _night(api)
    url = f"/api/events/{event['id']}/named-awards"
    awards = api.put(url, key=key, json={"awards": [
        {"name": "Farthest Traveler", "winners": [ids["Player 05"]], "note": "Came from Ohio"},
        {"name": "Sportsmanship", "winners": [ids["Player 07"], ids["Player 08"]],
         "note": "Round 1, table 2"},
        {"name": "Best Dressed", "winners": [ids["Player 09"]]},
    ]}, expect=200).get_json()
    assert [a["name"] for a in awards] == ["Farthest Traveler", "Sportsmanship", "Best Dressed"]
    shown = api.get(f"/api/events/{event['id']}/awards", expect=200).get_json()["named"]
    assert shown[0] == {"name": "Farthest Traveler", "note": "Came from Ohio",
                        "winners": [{"id": ids["Player 05"], "name": "Player 05"}]}
    assert [w["name"] for w in shown[1]["winners"]] == ["Player 07", "Player 08"]

    problem = api.put(url, key=key, json={"awards": [{"name": "Best", "winners": [999999]}]},
                      expect=422).get_json()
    assert "999999 is not an entrant" in problem["detail"]
    api.put(url, key=key, json={"awards": [{"name": "X", "winners": [ids["Player 01"]]},
                                           {"name": "x", "winners": [ids["Player 02"]]}]},
            expect=422)
    assert len(api.get(url, expect=200).get_json()) == 3, "a refused list changes nothing"


def test_categories_have_their_own_place_lists(api):
    event, key, ids, seats = _night(api)
    url = f"/api/events/{event['id']}/categories"
    api.put(url, key=key, json={"categories": [{"name": "High lady", "prize_places": 1},
                                               {"name": "High man", "prize_places": 2}]},
            expect=200)
    ladies = [seats[2][0], seats[3][0], seats[4][0]]  # 9, 6 and 6 points
    for player_id in ladies:
        _patch(api, event, key, player_id, categories=["high lady"])  # any letter case
    board = api.leaderboard(event)
    lady = next(c for c in board["categories"] if c["name"] == "High lady")
    assert [r["entrant_id"] for r in lady["rows"]] == ladies[:1] + sorted(
        ladies[1:], key=lambda e: [r["entrant_id"] for r in board["rows"]].index(e))
    assert [(r["place"], r["prize"]) for r in lady["rows"]] == [
        (1, True), (2, False), (2, False)]
    assert next(c for c in board["categories"] if c["name"] == "High man")["rows"] == []

    problem = _patch(api, event, key, ladies[0], expect=422, categories=["Seniors"])
    assert "No category 'Seniors'" in problem["detail"] and "High lady" in problem["detail"]
    problem = api.put(url, key=key, json={"categories": [{"name": "High man"}]},
                      expect=409).get_json()
    assert "High lady" in problem["detail"]


def test_door_prize_draws_repeat_from_their_seed_and_leave_out_who_they_should(api):
    event, key, ids, seats = _night(api)
    url = f"/api/events/{event['id']}/draws"
    board = api.leaderboard(event)
    prize_winners = {r["entrant_id"] for r in board["rows"] if r["prize"]}
    first = api.post(url, key=key, json={"count": 3}, expect=201).get_json()
    drawn = {w["id"] for w in first["winners"]}
    assert len(drawn) == 3 and not drawn & prize_winners
    assert first["candidates"] == 27 - len(prize_winners)

    second = api.post(url, key=key, json={"count": 2}, expect=201).get_json()
    assert not {w["id"] for w in second["winners"]} & drawn, "earlier winners are left out"

    again = api.post(url, key=key, json={"count": 3, "seed": first["seed"],
                                         "leave_out_drawn": False}, expect=201).get_json()
    assert len(again["winners"]) == 3, "an organizer's seed makes a new draw"
    assert api.leaderboard(event)["draw"]["number"] == 3
    assert [d["number"] for d in api.get(url, expect=200).get_json()] == [1, 2, 3]
    plain = api.post(url, key=key, expect=201).get_json()  # no body: one winner, the defaults
    assert plain["count"] == 1 and plain["leave_out_drawn"] and plain["leave_out_prize_winners"]

    problem = api.post(url, key=key, json={"count": 50, "leave_out_prize_winners": False,
                                           "leave_out_drawn": False}, expect=409).get_json()
    assert "Only 27 can be drawn from" in problem["detail"]
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert sum(e["action"] == "door-prize-draw" for e in audit) == 4


def _draw(api, event, key, **body) -> dict:
    return api.post(f"/api/events/{event['id']}/draws", key=key, json=body,
                    expect=201).get_json()


def test_every_draw_keeps_its_candidates_and_each_repeats_to_the_same_winners(api):
    """Issue 26: draw 3 left out draw 1's and 2's winners; its candidates must be kept, or
    repeating it from its seed draws other names. A repeat is a check, not a new draw."""
    event, key, ids, _ = _night(api)
    url = f"/api/events/{event['id']}/draws"
    made = [_draw(api, event, key, count=3, leave_out_prize_winners=False),
            _draw(api, event, key, count=2, leave_out_prize_winners=False),
            _draw(api, event, key, count=4, leave_out_prize_winners=False)]
    # The field changes afterwards: a late arrival, a disqualification, a withdrawal.
    api.post(f"/api/events/{event['id']}/players", key=key,
             json={"name": "Late Larry", "checked_in": True}, expect=201)
    _patch(api, event, key, made[0]["winners"][0]["id"], disqualified="Left early")
    _patch(api, event, key, ids["Player 27"], withdrawn=True)

    listed = api.get(url, expect=200).get_json()
    assert [d["candidates"] for d in listed] == [27, 24, 22]
    earlier: set[int] = set()
    for draw in listed:
        pool = [c["id"] for c in draw["candidate_list"]]
        assert pool == sorted(pool) and len(pool) == draw["candidates"]
        assert not set(pool) & earlier, "earlier winners were left out of this draw"
        assert {w["id"] for w in draw["winners"]} <= set(pool)
        earlier |= {w["id"] for w in draw["winners"]}

    for draw in made:
        check = api.get(f"{url}/{draw['number']}/repeat", expect=200).get_json()
        assert check["same"] is True, draw["number"]
        assert check["winners"] == check["recorded"] == draw["winners"]
        assert (check["number"], check["seed"]) == (draw["number"], draw["seed"])
    # Repeating stores nothing: still three draws, three in the audit log.
    assert [d["number"] for d in api.get(url, expect=200).get_json()] == [1, 2, 3]
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert sum(e["action"] == "door-prize-draw" for e in audit) == 3
    # The leaderboard carries the latest draw without its (long) candidate list.
    assert "candidate_list" not in api.leaderboard(event)["draw"]

    for number in (0, 4, 99):
        missing = api.get(f"{url}/{number}/repeat", expect=404)
        assert missing.mimetype == "application/problem+json"
        assert f"draw {number} does not exist" in missing.get_json()["detail"]


def test_a_disqualified_player_is_not_in_the_door_prize_draw(api):
    event, key, ids, _ = _night(api)
    struck = ids["Player 04"]
    _patch(api, event, key, struck, disqualified="A phone at the table")
    everyone = _draw(api, event, key, count=26, leave_out_prize_winners=False)
    assert everyone["candidates"] == 26
    assert struck not in {c["id"] for c in everyone["candidate_list"]}
    assert struck not in {w["id"] for w in everyone["winners"]}
    problem = api.post(f"/api/events/{event['id']}/draws", key=key, json={
        "count": 27, "leave_out_prize_winners": False, "leave_out_drawn": False},
        expect=409).get_json()
    assert "Only 26 can be drawn from" in problem["detail"]


def test_a_followed_players_phone_gets_every_draw_they_won(api):
    event, key, ids, _ = _night(api)
    first = _draw(api, event, key, count=1, leave_out_prize_winners=False)
    lucky = first["winners"][0]["id"]
    second = _draw(api, event, key, count=2, leave_out_prize_winners=False)
    _draw(api, event, key, count=27, leave_out_prize_winners=False, leave_out_drawn=False)
    board = api.leaderboard(event)
    assert board["draw"]["number"] == 3
    won = {w["entrant_id"]: w["draws"] for w in board["door_prizes"]}
    assert won[lucky] == [1, 3], "the phone is told of draw 1, not only the latest"
    for winner in second["winners"]:
        assert won[winner["id"]] == [2, 3]
    assert len(won) == 27
    fresh = api.create_event("progressive")
    assert "door_prizes" not in api.leaderboard(fresh)


def test_unpaid_counts_checked_in_entrants_and_an_unpaid_winner_is_flagged(api):
    event = api.create_event("progressive", name="Who owes")
    key = event["organizer_key"]
    api.add_players(event, [f"Here {n}" for n in range(1, 9)])
    no_show, paid_no_show = api.add_players(event, ["No Show", "Paid Ahead"], checked_in=False)
    round_ = api.seat_round(event, 1)
    table = round_["tables"][0]
    play_sheet(api, key, table["games"][0]["id"], fixed_hands_game(10, 2, 8))
    winners = [s["player_id"] for s in table["seats"] if s["side"] == "A"]
    loser = next(s["player_id"] for s in table["seats"] if s["side"] == "B")
    unpaid = {winners[0], loser}
    seated = [s["player_id"] for t in round_["tables"] for s in t["seats"] if s["player_id"]]
    for player_id in [*seated, paid_no_show["id"]]:
        if player_id not in unpaid:
            _patch(api, event, key, player_id, paid=True)
    money = api.put(f"/api/events/{event['id']}/money", key=key, json={"entry_fee": 10},
                    expect=200).get_json()
    assert (money["paid"], money["unpaid"]) == (7, 2), "the registered no-show owes nothing"
    flags = {p["entrant_id"]: p["paid"] for p in money["payouts"]}
    assert flags == {winners[0]: False, winners[1]: True}, money["payouts"]
    assert money["unpaid_winners"] == 1
    # The no-show arrives after all: now they owe.
    _patch(api, event, key, no_show["id"], checked_in=True)
    money = api.get(f"/api/events/{event['id']}/money", expect=200).get_json()
    assert (money["paid"], money["unpaid"]) == (7, 3)


def test_a_draw_recorded_before_draws_kept_their_list_says_it_cannot_be_repeated(app, api):
    from api.core.db import db
    from api.core.models import Event

    event = api.create_event("progressive", name="Old draws")
    key = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Cy", "Dee"])
    made = _draw(api, event, key, count=1, leave_out_prize_winners=False)
    with app.app_context():  # a draw stored by the version before lists were kept
        stored = db.session.get(Event, event["id"])
        stored.draws = [{k: v for k, v in d.items() if k != "candidate_ids"}
                        for d in stored.draws]
        db.session.commit()
    listed = api.get(f"/api/events/{event['id']}/draws", expect=200).get_json()
    assert "candidate_list" not in listed[0] and listed[0]["winners"] == made["winners"]
    refused = api.get(f"/api/events/{event['id']}/draws/1/repeat", expect=409)
    assert refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "draw-not-repeatable"
    assert "Draw 1 was made before each draw kept its list of candidates" in problem["detail"]
