"""Calendar feeds (issue 31.1, RFC 5545), read with an independent reader (ical_reader.py,
written from the RFC, not the `icalendar` package the feeds are written with): a league
team's matches at their start in the venue's time zone; a postponed week and a moved match
are the same events with a higher SEQUENCE, never a second one; a match forfeited ahead is
STATUS:CANCELLED; a private league's feeds only through each team's secret link; a club's
nights and an event's rounds; an erased player named nowhere in a feed."""

from __future__ import annotations

import uuid

from .ical_reader import by_uid, read, unescape

TEAMS = ("North", "South", "East", "West")
ZONE = "America/Toronto"


def _league(api, **event):
    made = api.post("/api/events", json={"name": "Tuesday league", "preset": "league",
                                         "time_zone": ZONE, **event},
                    expect=201).get_json()
    key, eid = made["organizer_key"], made["id"]
    teams = {n: api.add_team(made, n, [f"{n} 1", f"{n} 2"])["id"] for n in TEAMS}
    api.post(f"/api/events/{eid}/season", key=key,
             json={"first_night": "2027-01-05", "start_time": "19:00"}, expect=201)
    return made, key, eid, teams


def _feed(api, path, key=None):
    answer = api.get(path, key=key, expect=200)
    assert answer.mimetype == "text/calendar"
    return read(answer.get_data())


def _starts(events):
    return {uid: (e.params("DTSTART").get("TZID"), e.one("DTSTART"), int(e.one("SEQUENCE")),
                  e.one("STATUS")) for uid, e in events.items()}


def test_a_postponed_week_a_moved_match_and_a_forfeit_change_the_same_events(api):
    _, key, eid, teams = _league(api)
    path = f"/api/events/{eid}/teams/{teams['North']}/calendar.ics"
    first = by_uid(_feed(api, path))
    assert len(first) == 3  # four teams: three weeks, North plays in each
    weeks = {e.one("SUMMARY").split(":")[0]: uid for uid, e in first.items()}
    assert sorted(weeks) == ["Week 1", "Week 2", "Week 3"]
    assert all(e.one("SUMMARY").split(": ")[1].startswith("North v ") for e in first.values())
    assert _starts(first)[weeks["Week 1"]] == (ZONE, "20270105T190000", 0, "CONFIRMED")
    assert _starts(first)[weeks["Week 2"]] == (ZONE, "20270112T190000", 0, "CONFIRMED")
    assert all(e.one("LOCATION").startswith("Table ") for e in first.values())

    # Week 2 cancelled for snow, the season shifted a week on: the same three events.
    api.post(f"/api/events/{eid}/season/postpone", key=key,
             json={"week": 2, "mode": "shift", "reason": "Snow"}, expect=200)
    second = by_uid(_feed(api, path))
    assert set(second) == set(first)
    now = _starts(second)
    assert now[weeks["Week 1"]] == (ZONE, "20270105T190000", 0, "CONFIRMED")
    assert now[weeks["Week 2"]] == (ZONE, "20270119T190000", 1, "CONFIRMED")
    assert now[weeks["Week 3"]] == (ZONE, "20270126T190000", 1, "CONFIRMED")
    week2 = second[weeks["Week 2"]]
    assert week2.one("LAST-MODIFIED") == week2.one("DTSTAMP") >= \
        first[weeks["Week 2"]].one("LAST-MODIFIED")

    # Then its week-3 match alone moves to a Thursday: that event again, sequence 2.
    season = api.get(f"/api/events/{eid}/season", expect=200).get_json()
    match = next(m for m in season["weeks"][2]["matches"]
                 if teams["North"] in (m["home"]["id"], m["away"]["id"]))
    api.post(f"/api/events/{eid}/season/move-match", key=key,
             json={"match_id": match["match_id"], "date": "2027-01-28", "reason": "Hall"},
             expect=200)
    third = by_uid(_feed(api, path))
    assert set(third) == set(first)
    assert _starts(third)[weeks["Week 3"]] == (ZONE, "20270128T190000", 2, "CONFIRMED")
    assert "Moved: Hall." in unescape(third[weeks["Week 3"]].one("DESCRIPTION"))
    # The opponent's feed has that match under the same UID, moved alike.
    other = match["away"]["id"] if match["home"]["id"] == teams["North"] else \
        match["home"]["id"]
    theirs = by_uid(_feed(api, f"/api/events/{eid}/teams/{other}/calendar.ics"))
    assert _starts(theirs)[weeks["Week 3"]][1:3] == ("20270128T190000", 2)

    # The league's own feed: its weeks, week 2 and 3 moved once each.
    league = _starts(by_uid(_feed(api, f"/api/events/{eid}/calendar.ics")))
    assert sorted((v[1], v[2]) for v in league.values()) == [
        ("20270105T190000", 0), ("20270119T190000", 1), ("20270126T190000", 1)]

    # Unchanged, the feed is a 304; North's week-1 match forfeited ahead: cancelled, one more
    # change, same UID.
    answer = api.get(path, expect=200)
    assert api.get(path, headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    api.post(f"/api/events/{eid}/teams/{teams['North']}/advance-forfeits", key=key,
             json={"week": 1, "note": None}, expect=201)
    changed = api.get(path, headers={"If-None-Match": answer.headers["ETag"]}, expect=200)
    fourth = _starts(by_uid(read(changed.get_data())))
    assert set(fourth) == set(first)
    assert fourth[weeks["Week 1"]] == (ZONE, "20270105T190000", 1, "CANCELLED")
    assert fourth[weeks["Week 3"]] == (ZONE, "20270128T190000", 2, "CONFIRMED")

    # The league's time zone corrected: every match is at another moment, so each changes.
    api.patch(f"/api/events/{eid}", key=key, json={"time_zone": "America/Winnipeg"},
              expect=200)
    fifth = _starts(by_uid(_feed(api, path)))
    assert {u: v[:3] for u, v in fifth.items()} == {
        u: ("America/Winnipeg", start, sequence + 1)
        for u, (_, start, sequence, _) in fourth.items()}


def test_a_private_leagues_feeds_are_read_through_each_teams_secret_link(api):
    event, key, eid, teams = _league(api)
    north = teams["North"]
    public = f"/api/events/{eid}/teams/{north}/calendar.ics"
    assert api.get(f"/api/events/{eid}/calendar", expect=200).get_json() == {
        "event_id": eid, "private": False,
        "ics": f"http://euchre.test/api/events/{eid}/calendar.ics",
        "webcal": f"webcal://euchre.test/api/events/{eid}/calendar.ics"}
    assert api.put(f"/api/events/{eid}/calendar", json={"private": True},
                   expect=401).get_json()["code"] == "no-key"
    assert api.put(f"/api/events/{eid}/calendar", key=key, json={"private": "yes"},
                   expect=422).get_json()["status"] == 422
    made = api.put(f"/api/events/{eid}/calendar", key=key, json={"private": True},
                   expect=200).get_json()
    assert made["private"] is True and made["ics"] is None
    for path in (public, f"/api/events/{eid}/calendar.ics"):
        refused = api.get(path, expect=403)
        assert refused.mimetype == "application/problem+json"
        assert refused.get_json()["code"] == "calendar-private"

    # The captain (team key) makes the team's link; another team's key cannot.
    captain = api.post(f"/api/events/{eid}/teams/{north}/key", key=key,
                       expect=201).get_json()["key"]
    other = api.post(f"/api/events/{eid}/teams/{teams['South']}/key", key=key,
                     expect=201).get_json()["key"]
    link = f"/api/events/{eid}/teams/{north}/calendar"
    assert api.get(link, key=captain, expect=200).get_json()["ics"] is None
    assert api.post(link, key=other, expect=403).get_json()["code"] == "wrong-team"
    made = api.post(link, key=captain, expect=201).get_json()
    assert made["webcal"].startswith("webcal://euchre.test/api/calendars/")
    secret = made["ics"].removeprefix("http://euchre.test")
    assert len(by_uid(_feed(api, secret))) == 3
    assert api.get(link, key=key, expect=200).get_json()["ics"] == made["ics"]

    # A new link revokes the old; revoking leaves none; a made-up token is a 404 too.
    newer = api.post(link, key=key, expect=201).get_json()["ics"]
    gone = api.get(secret, expect=404)
    assert gone.mimetype == "application/problem+json"
    assert gone.get_json()["code"] == "calendar-link-unknown"
    assert len(by_uid(_feed(api, newer.removeprefix("http://euchre.test")))) == 3
    assert api.delete(link, key=captain, expect=200).get_json()["ics"] is None
    api.get(newer.removeprefix("http://euchre.test"), expect=404)
    api.get("/api/calendars/not-a-token.ics", expect=404)
    api.get(f"/api/calendars/{'x' * 200}.ics", expect=404)

    # Public again: the public feed reads, and the team's link is the public one.
    api.put(f"/api/events/{eid}/calendar", key=key, json={"private": False}, expect=200)
    assert api.get(link, key=captain, expect=200).get_json()["ics"].endswith(public)
    assert len(by_uid(_feed(api, public))) == 3
    api.get(f"/api/events/{eid}/teams/999999/calendar.ics", expect=404)


def _club(api):
    made = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    return made["id"], made["club_key"]


def test_a_clubs_nights_and_an_events_rounds(api):
    club, key = _club(api)
    night = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": "March night", "preset": "progressive",
                           "time_zone": "America/Detroit"}, expect=201).get_json()
    for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"):
        api.post(f"/api/events/{night['id']}/players", key=key,
                 json={"name": n, "checked_in": True}, expect=201)
    api.patch(f"/api/clubs/{club}/events/{night['id']}", key=key, json={"date": "2026-03-13"},
              expect=200)
    feed = by_uid(_feed(api, f"/api/clubs/{club}/calendar.ics"))
    [(uid, event)] = feed.items()
    assert (event.one("SUMMARY"), event.params("DTSTART"), event.one("DTSTART"),
            event.one("SEQUENCE")) == ("March night", {"VALUE": "DATE"}, "20260313", "1")
    api.patch(f"/api/clubs/{club}/events/{night['id']}", key=key, json={"date": "2026-03-06"},
              expect=200)
    again = by_uid(_feed(api, f"/api/clubs/{club}/calendar.ics"))
    assert (again[uid].one("DTSTART"), again[uid].one("SEQUENCE")) == ("20260306", "2")

    seated = api.post(f"/api/events/{night['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    api.post(f"/api/rounds/{seated['id']}/clock", key=key, json={"minutes": 20}, expect=200)
    rounds = _feed(api, f"/api/events/{night['id']}/calendar.ics")
    round_ = next(e for e in rounds.events() if e.one("SUMMARY") == "March night: Round 1")
    assert round_.params("DTSTART") == {"TZID": "America/Detroit"}
    start, end = round_.one("DTSTART"), round_.one("DTEND")
    assert int(end[9:13]) - int(start[9:13]) in (20, 60)  # 20 minutes later (hh:mm as digits)
    api.get("/api/clubs/999999/calendar.ics", expect=404)
    # A night's teams have no feed of their own, nor a link to one.
    pairs = api.post("/api/events", json={"name": "Pairs", "preset": "teams"},
                     expect=201).get_json()
    team = api.add_team(pairs, "Aces", ["Ann", "Bob"])["id"]
    for path in ("calendar", "calendar.ics"):
        refused = api.get(f"/api/events/{pairs['id']}/teams/{team}/{path}",
                          key=pairs["organizer_key"], expect=409)
        assert refused.get_json()["code"] == "not-league"


def test_an_erased_player_is_named_nowhere_in_the_team_feeds(api):
    club, key = _club(api)
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": "Club league", "preset": "league"}, expect=201).get_json()
    ids = {}
    others = 'Others; "the, best" \\ ♣ team'  # what iCalendar escapes, read back as typed
    for name, players in (("Ann Baker and Co", ["Ann Baker", "Bob Stone"]),
                          (others, ["Cy Young", "Dee Long"])):
        ids[name] = api.post(f"/api/events/{event['id']}/teams", key=key, json={
            "name": name, "players": players,
            "people": {p: "new" for p in players}}, expect=201).get_json()["id"]
    api.post(f"/api/events/{event['id']}/season", key=key,
             json={"first_night": "2027-01-05"}, expect=201)
    path = f"/api/events/{event['id']}/teams/{ids[others]}/calendar.ics"
    assert "Ann Baker" in unescape(api.get(path, expect=200).get_data(as_text=True))
    ann = next(p for p in api.get(f"/api/clubs/{club}/people", key=key, expect=200).get_json()
               if p["name"] == "Ann Baker")
    api.post(f"/api/clubs/{club}/people/{ann['id']}/erase", key=key, expect=200)
    text = unescape(api.get(path, expect=200).get_data(as_text=True))
    assert "ann baker" not in text.lower() and "Former player 1 and Co" in text
    [only] = read(api.get(path, expect=200).get_data()).events()
    assert unescape(only.one("SUMMARY")) == f"Week 1: {others} v Former player 1 and Co"
    assert only.params("DTSTART") == {"VALUE": "DATE"} and only.one("DTSTART") == "20270105"


def test_a_rounds_sequence_only_goes_up_as_its_clock_restarts_and_it_closes_and_reopens(api):
    night = api.post("/api/events", json={"name": "Friday night", "preset": "progressive",
                                           "time_zone": "America/Detroit"},
                     expect=201).get_json()
    key, eid = night["organizer_key"], night["id"]
    api.add_players(night, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"])
    seated = api.seat_round(night, 1)
    path = f"/api/events/{eid}/calendar.ics"

    def round_one():
        event = by_uid(_feed(api, path))[f"round-{night['code']}-1@euchre-scorekeeper"]
        return int(event.one("SEQUENCE")), event.one("DTSTART"), event.one("LAST-MODIFIED")

    seen = [round_one()]
    steps = [("clock", {"minutes": 20}), ("clock", {"minutes": 30}), ("time", None),
             ("close", None), ("reopen", None), ("close", None)]
    for step, body in steps:
        if step == "time":
            for table in seated["tables"]:
                api.hand(key, table["games"][0]["id"], "A", 3)
        api.post(f"/api/rounds/{seated['id']}/{step}", key=key, json=body, expect=200)
        seen.append(round_one())
    sequences = [s for s, _, _ in seen]
    # Calling time moves nothing in the calendar; every other step raises SEQUENCE by one.
    assert sequences == [0, 1, 2, 2, 3, 4, 5], sequences
    assert [m for _, _, m in seen] == sorted(m for _, _, m in seen)


def test_a_team_withdrawn_and_brought_back_changes_its_matches_twice(api):
    _, key, eid, teams = _league(api)
    path = f"/api/events/{eid}/teams/{teams['North']}/calendar.ics"

    def against_east():
        [(uid, event)] = [(u, e) for u, e in by_uid(_feed(api, path)).items()
                          if "East" in unescape(e.one("SUMMARY"))]
        return uid, int(event.one("SEQUENCE")), event.one("STATUS")

    first = against_east()
    seen = [first]
    for withdrawn in (True, False):
        api.patch(f"/api/events/{eid}/teams/{teams['East']}", key=key,
                  json={"withdrawn": withdrawn}, expect=200)
        seen.append(against_east())
    assert seen == [(first[0], 0, "CONFIRMED"), (first[0], 1, "CANCELLED"),
                    (first[0], 2, "CONFIRMED")]
