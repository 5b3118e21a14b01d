"""Absences announced ahead and the third offence (RULES.md §3 league: "each week a team
forfeits anything is one offence: 1st, loss of the games; 2nd, flagged; 3rd, the team is
removed from the league and its later matches are forfeit wins for its opponents").

A captain who says in week 2 "we will miss weeks 5, 8 and 11" has announced three forfeits,
but none of them has happened yet: each week is an offence once it starts. So the team plays
weeks 3-4, 6-7 and 9-10 as any team, is flagged when week 8 starts, and is removed when week
11 starts; only its matches after that are forfeit wins for its opponents."""

from __future__ import annotations

from .client import play_sheet
from .scripts import to_target_game

TEAMS = ("North", "South", "East", "West")
WEEKS = 13
AHEAD = (5, 8, 11)


def _season(api, eid) -> dict:
    return api.get(f"/api/events/{eid}/season", expect=200).get_json()


def _west_match(api, eid, west, week) -> dict:
    matches = _season(api, eid)["weeks"][week - 1]["matches"]
    return next(m for m in matches if west in (m["home"]["id"], m["away"]["id"]))


def _offence(api, eid, west) -> dict:
    return next(o for o in _season(api, eid)["offences"] if o["team_id"] == west)


def _west_games(api, eid, west, week) -> list[dict]:
    """West's games that week, each as (end, whether West won it)."""
    match = _west_match(api, eid, west, week)
    rounds = api.get(f"/api/events/{eid}/rounds", expect=200).get_json()
    table = next(t for r in rounds if r["number"] == week for t in r["tables"]
                 if t["match_id"] == match["match_id"])
    side = "A" if table["team_a"]["id"] == west else "B"
    return [(g["end"], g["winner"] == side) for g in table["games"]]


def _play_week(api, event, key, week) -> None:
    """Open the week, play every game not forfeited (side A wins each) and close it."""
    api.seat_round(event, week)
    _finish(api, event, key, week)


def _finish(api, event, key, week) -> None:
    """Play what is left of a week under way and close it."""
    rounds = api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json()
    round_ = next(r for r in rounds if r["number"] == week)
    for table in round_["tables"]:
        for game in table["games"]:
            if game["end"] is None:
                play_sheet(api, key, game["id"], to_target_game("A", 4))
    api.close_round(event, round_["id"])


def _problem(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["detail"], "a sentence a person can act on"
    assert code is None or body["code"] == code, body
    return body


def _stored(api, event, key) -> tuple:
    """What a refused or repeated request must leave as it was."""
    eid = event["id"]
    return (_season(api, eid), api.get(f"/api/events/{eid}/audit", key=key,
                                       expect=200).get_json(),
            api.get(f"/api/events/{eid}", expect=200).get_json()["revision"],
            api.leaderboard(event)["rows"])


def test_three_absences_announced_ahead_remove_the_team_only_when_the_third_week_starts(api):
    event, key, teams = api.league(TEAMS, weeks=WEEKS)
    eid, west = event["id"], teams["West"]["id"]
    captain = api.post(f"/api/events/{eid}/teams/{west}/key", key=key,
                       expect=201).get_json()["key"]
    url = f"/api/events/{eid}/teams/{west}/advance-forfeits"
    _play_week(api, event, key, 1)
    api.seat_round(event, 2)  # week 2 under way: the captain calls ahead

    answers = [api.post(url, key=captain, json={"week": week, "note": "Night shifts"},
                        expect=201).get_json() for week in AHEAD]
    for offence, (week, answer) in enumerate(zip(AHEAD, answers, strict=True), start=1):
        assert (answer["games"], answer["advance"]) == ([1, 2, 3], True)
        assert (answer["offences"], answer["status"]) == (0, "ok"), "none has happened yet"
        assert (answer["offence"], answer["counted"]) == (offence, False)
        assert f"Week {week} (forfeited ahead) becomes offence {offence} when it starts" in \
            answer["message"]
    assert "removed from the league" in answers[2]["message"]

    # The same request sent again (a lost answer retried): the same answer, nothing stored.
    stored = _stored(api, event, key)
    again = api.post(url, key=captain, json={"week": 11, "note": "Night shifts"}, expect=201)
    assert again.get_json() == answers[2]
    assert _stored(api, event, key) == stored

    offence = _offence(api, eid, west)
    assert (offence["offences"], offence["status"], offence["removed"]) == (0, "ok", False)
    assert offence["ahead"] == list(AHEAD)
    assert offence["ahead_message"].startswith(
        "Week 5 (forfeited ahead) becomes offence 1 when it starts: loss of the games.")
    page = api.get(f"/api/events/{eid}/teams/{west}/schedule", expect=200).get_json()
    assert page["offences"]["offences"] == 0 and page["offences"]["ahead"] == list(AHEAD)
    assert [f["offence"] for w in page["weeks"] for f in w["forfeits"]] == [1, 2, 3]
    west_row = next(r for r in api.leaderboard(event)["rows"] if r["entrant_id"] == west)
    assert not west_row["removed"]

    _finish(api, event, key, 2)
    for week in range(3, WEEKS + 1):
        _play_week(api, event, key, week)
        games = _west_games(api, eid, west, week)
        offence = _offence(api, eid, west)
        if week in AHEAD or week > 11:
            assert games == [("forfeit", False)] * 3, f"week {week} is forfeited"
        else:
            assert all(end != "forfeit" for end, _ in games), f"West plays week {week}"
        counted = sum(1 for w in AHEAD if w <= week)
        status = {0: "ok", 1: "loss-of-games", 2: "may-be-removed-from-playoffs"}.get(
            counted, "removed")
        assert (offence["offences"], offence["status"], offence["removed"]) == \
            (counted, status, week >= 11), f"after week {week} started"
        assert offence["ahead"] == [w for w in AHEAD if w > week]

    # The flag came with week 8, the removal with week 11: the log says when, by the app.
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    (removal,) = [e for e in log if e["action"] == "remove-team"]
    assert (removal["role"], removal["round_number"], removal["entity_id"]) == \
        ("system", 11, str(west))
    assert removal["after"]["offence"] == 3
    opened = log[log.index(removal) - 1]  # the log is newest first
    assert (opened["action"], opened["round_number"]) == ("seat-round", 11), \
        "written as week 11 opened"

    # Its opponents won weeks 12 and 13 by forfeit; West's standings hold the weeks it played.
    board = {r["entrant_id"]: r for r in api.leaderboard(event)["rows"]}
    assert board[west]["removed"] and board[west]["place"] is None
    assert board[west]["games_played"] == 3 * WEEKS
    page = api.get(f"/api/events/{eid}/teams/{west}/schedule", expect=200).get_json()
    assert [(w["week"], w["games_won"]["them"]) for w in page["weeks"]
            if w["week"] in (*AHEAD, 12, 13)] == [(w, 3) for w in (*AHEAD, 12, 13)]
    assert page["offences"]["message"].startswith("Offence 3: removed from the league")
    assert all(f["counted"] for w in page["weeks"] for f in w["forfeits"])


def test_announcing_ahead_is_refused_for_a_week_started_an_unknown_week_or_a_removed_team(api):
    event, key, teams = api.league(TEAMS, weeks=8)
    eid, west = event["id"], teams["West"]["id"]
    captain = api.post(f"/api/events/{eid}/teams/{west}/key", key=key,
                       expect=201).get_json()["key"]
    url = f"/api/events/{eid}/teams/{west}/advance-forfeits"
    for week in (2, 3, 4):
        api.post(url, key=captain, json={"week": week}, expect=201)
    _play_week(api, event, key, 1)
    stored = _stored(api, event, key)
    _problem(api.post(url, key=captain, json={"week": 1}), 409, "week-started")
    _problem(api.post(url, key=captain, json={"week": 9}), 422, "no-such-week")
    for body in ({"week": 0}, {"week": "four"}, {}):
        _problem(api.post(url, key=captain, json=body), 422)
    assert _stored(api, event, key) == stored, "nothing stored by a refusal"
    assert not _offence(api, eid, west)["removed"], "three weeks announced, none started"

    for week in (2, 3):
        _play_week(api, event, key, week)
    api.seat_round(event, 4)
    offence = _offence(api, eid, west)
    assert (offence["offences"], offence["status"], offence["removed"]) == \
        (3, "removed", True)
    # The forfeit that removed it, sent again by the organizer, is answered as recorded.
    stored = _stored(api, event, key)
    match = _west_match(api, eid, west, 4)
    again = api.post(f"/api/matches/{match['match_id']}/forfeits", key=key,
                     json={"team_id": west, "reason": "no-show"}, expect=201).get_json()
    assert (again["offences"], again["offence"], again["counted"], again["status"]) == \
        (3, 3, True, "removed")
    # Removed now: no further week is announced (its match is a forfeit win already).
    refused = _problem(api.post(url, key=captain, json={"week": 6}), 409, "team-removed")
    assert "removed from the league after 3 weeks with a forfeit" in refused["detail"]
    assert _stored(api, event, key) == stored
    _finish(api, event, key, 4)
    _play_week(api, event, key, 5)
    assert _west_games(api, eid, west, 5) == [("forfeit", False)] * 3


def test_a_week_made_up_later_is_an_offence_in_the_order_the_weeks_are_played(api):
    """Week 2 cancelled and made up after the last week: a forfeit announced for it becomes
    an offence when that make-up week starts, after week 3's."""
    event = api.create_event("league")
    key, eid = event["organizer_key"], event["id"]
    made = {name: api.add_team(event, name, [f"{name} 1", f"{name} 2"]) for name in TEAMS}
    west = made["West"]["id"]
    api.post(f"/api/events/{eid}/season", key=key, expect=201,
             json={"weeks": 4, "first_night": "2027-01-05", "start_time": "19:00"})
    api.post(f"/api/events/{eid}/season/postpone", key=key, expect=200,
             json={"week": 2, "reason": "Snow"})
    url = f"/api/events/{eid}/teams/{west}/advance-forfeits"
    captain = api.post(f"/api/events/{eid}/teams/{west}/key", key=key,
                       expect=201).get_json()["key"]
    two, three = (api.post(url, key=captain, json={"week": week}, expect=201).get_json()
                  for week in (2, 3))
    assert two["offence"] == 1, "the only week announced so far"
    assert three["offence"] == 1, "week 3 is played before week 2 now"
    assert _offence(api, eid, west)["ahead"] == [3, 2]
    rows = _west_match(api, eid, west, 2)["forfeit_details"]
    assert [(f["offence"], f["counted"]) for f in rows] == [(2, False)], "one after week 3"
    _play_week(api, event, key, 1)
    _play_week(api, event, key, 3)
    offence = _offence(api, eid, west)
    assert (offence["offences"], offence["ahead"]) == (1, [2])
    rows = _west_match(api, eid, west, 2)["forfeit_details"]
    assert [(f["offence"], f["counted"]) for f in rows] == [(2, False)]
    assert rows[0]["offence_message"].startswith("Week 2 (forfeited ahead) becomes offence 2")
