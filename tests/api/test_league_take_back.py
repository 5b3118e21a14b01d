"""A forfeit announced ahead, taken back (DELETE .../teams/<team>/advance-forfeits/<week>): the
team that said "we'll miss week 8" found a substitute. Until the week starts nothing of the
forfeit has counted, so taking it back leaves the week as if it had never been announced: the
team plays it, its offences are counted without it, the opponent's schedule and calendar show
the match again. Once the week has started the forfeit stands (409). The captain's team key or
the organizer's; sent again, the same answer; audited."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.conftest import require_or_skip

from .ical_reader import by_uid, read, unescape
from .test_audit_log_words import ROOT
from .test_league_absences_ahead import (
    TEAMS,
    _finish,
    _offence,
    _play_week,
    _problem,
    _season,
    _stored,
    _west_games,
    _west_match,
)

HOOK = {"url": "https://hooks.example.org/euchre", "kinds": ["standings.changed"]}


def _captain(api, eid, key, team_id) -> str:
    return api.post(f"/api/events/{eid}/teams/{team_id}/key", key=key,
                    expect=201).get_json()["key"]


def _url(eid, team_id, week=None) -> str:
    return f"/api/events/{eid}/teams/{team_id}/advance-forfeits" + \
        ("" if week is None else f"/{week}")


def _opponent_feed(api, eid, opponent, west) -> tuple[int, str, str]:
    """The opponent's calendar entry for its match against West: SEQUENCE, STATUS and
    DESCRIPTION."""
    feed = read(api.get(f"/api/events/{eid}/teams/{opponent}/calendar.ics",
                        expect=200).get_data())
    (event,) = [e for e in by_uid(feed).values() if "Week 2:" in unescape(e.one("SUMMARY"))]
    assert "West" in unescape(event.one("SUMMARY"))
    return int(event.one("SEQUENCE")), event.one("STATUS"), unescape(event.one("DESCRIPTION"))


def test_a_forfeit_taken_back_before_its_week_leaves_the_team_playing_with_no_offence(api):
    event = api.create_event("league")
    key = event["organizer_key"]
    teams = {name: api.add_team(event, name, [f"{name} 1", f"{name} 2"]) for name in TEAMS}
    api.post(f"/api/events/{event['id']}/season", key=key, expect=201,
             json={"weeks": 3, "first_night": "2027-01-05", "start_time": "19:00"})
    eid, west = event["id"], teams["West"]["id"]
    api.post(f"/api/events/{eid}/webhooks", key=key, json=HOOK, expect=201)
    captain = _captain(api, eid, key, west)
    match = _west_match(api, eid, west, 2)
    opponent = next(t for t in (match["home"], match["away"]) if t["id"] != west)
    api.post(_url(eid, west), key=captain, json={"week": 2, "note": "Night shift"},
             expect=201)
    theirs = api.get(f"/api/events/{eid}/teams/{opponent['id']}/schedule",
                     expect=200).get_json()
    assert [f["team_id"] for f in theirs["weeks"][1]["forfeits"]] == [west]
    assert _opponent_feed(api, eid, opponent["id"], west)[:2] == (1, "CANCELLED")

    done = api.delete(_url(eid, west, 2), key=captain, expect=200).get_json()
    assert (done["taken_back"], done["week"], done["team_id"], done["match_id"]) == \
        (True, 2, west, match["match_id"])
    assert (done["offences"], done["status"], done["ahead"]) == (0, "ok", [])
    assert done["message"] == (f"West play Week 2 after all: the forfeit announced for it is "
                               f"taken back, and {opponent['name']} see the match on their "
                               "schedule again. No other week is forfeited ahead.")

    # The opponent's schedule and calendar show the match to be played again; the calendar's
    # entry changed once more (SEQUENCE up), never back.
    theirs = api.get(f"/api/events/{eid}/teams/{opponent['id']}/schedule",
                     expect=200).get_json()
    assert theirs["weeks"][1]["forfeits"] == []
    sequence, status, description = _opponent_feed(api, eid, opponent["id"], west)
    assert (sequence, status) == (2, "CONFIRMED")
    assert "Not played" not in description
    assert _offence(api, eid, west)["ahead"] == []
    assert _west_match(api, eid, west, 2)["forfeit_details"] == []

    # The log says who took it back and what it was; the forfeit's own entry says the
    # offence it would have become.
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    taken, announced = log[0], log[1]
    assert (taken["action"], taken["role"], taken["round_number"]) == \
        ("withdraw-forfeit", "team", 2)
    assert (taken["before"]["reason"], taken["before"]["offence"], taken["after"]["week"]) == \
        ("no-show", 1, "Week 2")
    assert (announced["action"], announced["after"]["offence"],
            announced["after"]["offences"]) == ("forfeit", 1, 0)

    # Sent again (the answer was lost): the same answer, nothing changes.
    stored = _stored(api, event, key)
    assert api.delete(_url(eid, west, 2), key=captain, expect=200).get_json() == done
    assert _stored(api, event, key) == stored
    # Neither announcing it nor taking it back changed the standings: no webhook news.
    assert api.get(f"/api/events/{eid}/webhook-deliveries", key=key,
                   expect=200).get_json() == []

    # Week 2 starts: West plays it as any team, and it is no offence.
    _play_week(api, event, key, 1)
    api.seat_round(event, 2)
    assert all(end is None for end, _ in _west_games(api, eid, west, 2)), "nothing forfeited"
    _finish(api, event, key, 2)
    assert all(end != "forfeit" for end, _ in _west_games(api, eid, west, 2))
    offence = _offence(api, eid, west)
    assert (offence["offences"], offence["status"], offence["ahead"]) == (0, "ok", [])


def test_the_organizer_takes_one_back_and_the_team_may_announce_the_week_again(api):
    event, key, teams = api.league(TEAMS, weeks=3)
    eid, west = event["id"], teams["West"]["id"]
    match = _west_match(api, eid, west, 3)
    api.post(f"/api/matches/{match['match_id']}/forfeits", key=key,
             json={"team_id": west, "reason": "one-player"}, expect=201)
    done = api.delete(_url(eid, west, 3), key=key, expect=200).get_json()
    assert done["taken_back"] and done["ahead"] == []
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert (log[0]["action"], log[0]["role"], log[0]["before"]["reason"]) == \
        ("withdraw-forfeit", "organizer", "one-player")
    # Announced again, it stands as any forfeit ahead (and can be taken back again).
    again = api.post(_url(eid, west), key=_captain(api, eid, key, west), json={"week": 3},
                     expect=201).get_json()
    assert (again["offence"], again["counted"]) == (1, False)
    assert _offence(api, eid, west)["ahead"] == [3]


def test_taking_back_is_refused_once_the_week_has_started_and_nothing_changes(api):
    event, key, teams = api.league(TEAMS, weeks=3)
    eid, west = event["id"], teams["West"]["id"]
    captain = _captain(api, eid, key, west)
    api.post(_url(eid, west), key=captain, json={"week": 2}, expect=201)
    _play_week(api, event, key, 1)
    week2 = api.seat_round(event, 2)
    table = next(t for t in week2["tables"] if west in (t["team_a"]["id"], t["team_b"]["id"]))
    stored = _stored(api, event, key)
    for who in (captain, key):
        problem = _problem(api.delete(_url(eid, west, 2), key=who), 409, "forfeit-stands")
        assert problem["detail"].startswith("Week 2 has started, so West's forfeit of it "
                                            "stands: its games are forfeited and it is the "
                                            "team's offence 1.")
        assert "Only the organizer's ruling on a game can change its result" in \
            problem["detail"]
        assert problem["rulings"] == [f"/api/games/{g['id']}/rulings" for g in table["games"]]
    assert _stored(api, event, key) == stored
    assert _west_games(api, eid, west, 2) == [("forfeit", False)] * 3

    # A forfeit recorded at the night (late) is no forfeit ahead: it stands too.
    other = next(t for t in week2["tables"] if t is not table)
    api.post(f"/api/matches/{other['match_id']}/forfeits", key=key, expect=201,
             json={"team_id": other["team_a"]["id"], "reason": "late", "minutes_late": 10})
    stored = _stored(api, event, key)
    _problem(api.delete(_url(eid, other["team_a"]["id"], 2), key=key), 409, "forfeit-stands")
    assert _stored(api, event, key) == stored


def test_an_unknown_forfeit_is_404_and_the_wrong_key_is_refused(api):
    event, key, teams = api.league(TEAMS, weeks=3)
    eid, west, north = event["id"], teams["West"]["id"], teams["North"]["id"]
    captain = _captain(api, eid, key, west)
    north_captain = _captain(api, eid, key, north)
    api.post(_url(eid, west), key=captain, json={"week": 2}, expect=201)
    runner = api.post(f"/api/events/{eid}/keys", key=key, json={"table": None},
                      expect=201).get_json()["key"]
    other = api.create_event("league", name="Another league")["organizer_key"]
    stored = _stored(api, event, key)

    problem = _problem(api.delete(_url(eid, west, 3), key=captain), 404, "no-forfeit-ahead")
    assert problem["detail"] == "West has no forfeit announced for Week 3: there is nothing " \
                                "to take back."
    _problem(api.delete(_url(eid, north, 2), key=key), 404, "no-forfeit-ahead")
    _problem(api.delete(_url(eid, west, 9), key=key), 404, "no-such-week")
    _problem(api.delete(_url(eid, west, 0), key=key), 404, "no-such-week")
    _problem(api.delete(_url(eid, 987654, 2), key=key), 404)
    _problem(api.delete(_url(eid, west, 2)), 401, "no-key")
    _problem(api.delete(_url(eid, west, 2), key="euk_" + "A" * 43), 401, "bad-key")
    _problem(api.delete(_url(eid, west, 2), key=north_captain), 403, "wrong-team")
    _problem(api.delete(_url(eid, west, 2), key=runner), 403, "team-only")
    _problem(api.delete(_url(eid, west, 2), key=other), 403, "wrong-event")
    assert _stored(api, event, key) == stored, "nothing changed by a refusal"
    assert _offence(api, eid, west)["ahead"] == [2]

    teams_night = api.create_event("teams", name="Fixed teams")
    team = api.add_team(teams_night, "Solo", ["Solo 1", "Solo 2"])
    _problem(api.delete(_url(teams_night["id"], team["id"], 1),
                        key=teams_night["organizer_key"]), 409, "not-league")


def test_a_removed_team_and_a_bye_have_nothing_to_take_back(api):
    event, key, teams = api.league(TEAMS, weeks=5)
    eid, west = event["id"], teams["West"]["id"]
    captain = _captain(api, eid, key, west)
    for week in (2, 3, 4, 5):
        api.post(_url(eid, west), key=captain, json={"week": week}, expect=201)
    for week in (1, 2, 3):
        _play_week(api, event, key, week)
    api.seat_round(event, 4)  # West's third offence: removed from the league
    assert _offence(api, eid, west)["removed"]
    stored = _stored(api, event, key)
    problem = _problem(api.delete(_url(eid, west, 5), key=captain), 409, "team-removed")
    assert "its matches from now on are forfeit wins for its opponents" in problem["detail"]
    assert _stored(api, event, key) == stored

    odd, odd_key, three = api.league(("North", "South", "East"), weeks=3)
    schedule = api.get(f"/api/events/{odd['id']}/teams/{three['East']['id']}/schedule",
                       expect=200).get_json()
    bye = next(w["week"] for w in schedule["weeks"] if w["bye"])
    _problem(api.delete(_url(odd["id"], three["East"]["id"], bye), key=odd_key), 404,
             "no-forfeit-ahead")


def test_three_weeks_announced_one_taken_back_the_team_stays_with_two_offences(api):
    """Weeks 5, 8 and 11 announced in week 2, then week 8 taken back (a substitute found):
    week 11 becomes the second offence, so the team is flagged when it starts, not removed,
    and plays week 12 as any team."""
    event, key, teams = api.league(TEAMS, weeks=12)
    eid, west = event["id"], teams["West"]["id"]
    captain = _captain(api, eid, key, west)
    _play_week(api, event, key, 1)
    api.seat_round(event, 2)
    for week in (5, 8, 11):
        api.post(_url(eid, west), key=captain, json={"week": week}, expect=201)
    done = api.delete(_url(eid, west, 8), key=captain, expect=200).get_json()
    assert done["ahead"] == [5, 11]
    assert done["message"].endswith(
        "Week 5 (forfeited ahead) becomes offence 1 when it starts: loss of the games. "
        "Week 11 (forfeited ahead) becomes offence 2 when it starts: loss of the games, and "
        "the team may be removed from the playoffs (the organizer decides).")
    _finish(api, event, key, 2)
    for week in range(3, 13):
        _play_week(api, event, key, week)
        forfeited = week in (5, 11)
        assert (_west_games(api, eid, west, week) == [("forfeit", False)] * 3) == forfeited, \
            f"week {week}"
    offence = _offence(api, eid, west)
    assert (offence["offences"], offence["status"], offence["removed"]) == \
        (2, "may-be-removed-from-playoffs", False)
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    assert not [e for e in log if e["action"] == "remove-team"]
    board = {r["entrant_id"]: r for r in api.leaderboard(event)["rows"]}
    assert not board[west]["removed"] and board[west]["place"] is not None
    assert [w["week"] for w in _season(api, eid)["weeks"]
            if any(f["team_id"] == west for m in w["matches"] for f in m["forfeit_details"])
            ] == [5, 11]


def test_the_log_reads_the_offence_a_forfeit_ahead_becomes_and_its_taking_back(api):
    require_or_skip(shutil.which("node") is not None, "Node.js (node), to run the PWA's words")
    event, key, teams = api.league(TEAMS, weeks=4)
    eid, west = event["id"], teams["West"]["id"]
    captain = _captain(api, eid, key, west)
    for week in (2, 4):
        api.post(_url(eid, west), key=captain, json={"week": week}, expect=201)
    api.delete(_url(eid, west, 4), key=captain, expect=200)
    log = api.get(f"/api/events/{eid}/audit", key=key, expect=200).get_json()
    script = ("const m = await import(process.argv[1]);"
              "const side = {A: {name: 'Home'}, B: {name: 'Away'}};"
              "console.log(JSON.stringify(JSON.parse(process.argv[2]).map((e) =>"
              " m.entryWords(e, side, 'Week', 1).filter(Boolean))));")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, "--",
         ROOT.joinpath("pwa/js/audit-words.js").as_uri(), json.dumps(log[:3])],
        capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    taken, fourth, second = json.loads(done.stdout)
    assert taken == ["West's forfeit of Week 4 taken back",
                     "did not show · it would have become offence 2",
                     "the team plays that week: nothing of the forfeit counts"]
    ahead = "recorded before the night: the games and the offence count when the week starts"
    assert fourth == ["West forfeited games 1, 2, 3", "did not show · offence 2", ahead]
    assert second == ["West forfeited games 1, 2, 3", "did not show · offence 1", ahead]
