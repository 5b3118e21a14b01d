"""A club's year: three monthly progressive nights with overlapping players, the registry
linking the same people across them (near names asked about, never guessed), a series over the
nights, and each person's statistics checked against the hands entered."""

from __future__ import annotations

import uuid

import pytest

NIGHT1 = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
          "Hal Ford"]


def _club(api, slug=None):
    body = {"name": "Loner Seekers", "slug": slug or f"ls-{uuid.uuid4().hex[:8]}"}
    made = api.post("/api/clubs", json=body, expect=201).get_json()
    return made["id"], made["club_key"], made


def _night(api, club, key, name, names, people=None):
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": name, "preset": "progressive"}, expect=201).get_json()
    for n in names:
        body = {"name": n, "checked_in": True}
        if people and n in people:
            body["people"] = {n: people[n]}
        api.post(f"/api/events/{event['id']}/players", key=key, json=body, expect=201)
    return event


def _hand(api, key, game, maker, tricks, alone=False, loner_seat=None):
    body = {"id": uuid.uuid4().hex[:12], "maker": maker, "tricks": tricks, "alone": alone}
    if loner_seat:
        body["loner_seat"] = loner_seat
    return api.post(f"/api/games/{game}/hands", key=key, json=body, expect=201).get_json()


def test_a_club_key_runs_its_events_and_only_its_own(api):
    club, key, made = _club(api)
    assert made["club_key"].startswith("euk_")
    event = _night(api, club, key, "January", NIGHT1)
    # The club key does what an organizer key does in the club's event...
    api.patch(f"/api/events/{event['id']}", key=key, json={"name": "January night"},
              expect=200)
    me = api.get("/api/me", key=key, expect=200).get_json()
    assert me["role"] == "club" and me["club_id"] == club and me["event_id"] is None
    # ... and nothing in another club's event, or in an event of no club.
    other, other_key, _ = _club(api)
    stranger = _night(api, other, other_key, "Elsewhere", ["Zed"])
    refused = api.patch(f"/api/events/{stranger['id']}", key=key, json={"name": "Taken"},
                        expect=403).get_json()
    assert refused["code"] == "wrong-club"
    lone = api.create_event("progressive")
    api.patch(f"/api/events/{lone['id']}", key=key, json={"name": "Taken"}, expect=403)
    # An event's organizer key cannot act for the club.
    api.post(f"/api/clubs/{club}/series", key=event["organizer_key"],
             json={"name": "Year"}, expect=403)
    # The audit log names the club key that made the change.
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert log[0]["role"] == "club" and log[0]["key"]["label"] == "club"
    # A revoked club key stops at once.
    second = api.post(f"/api/clubs/{club}/keys", key=key, json={"label": "desk 2"},
                      expect=201).get_json()
    api.delete(f"/api/clubs/{club}/keys/{second['id']}", key=key, expect=200)
    api.patch(f"/api/events/{event['id']}", key=second["key"], json={"name": "x"}, expect=401)


def test_the_registry_links_exact_names_and_asks_about_near_ones(api):
    club, key, _ = _club(api)
    first = _night(api, club, key, "January", NIGHT1)
    people = {p["name"]: p for p in api.get(f"/api/clubs/{club}/people").get_json()}
    assert len(people) == 8 and all(p["events"] == 1 for p in people.values())
    second = api.post(f"/api/clubs/{club}/events", key=key,
                      json={"name": "February", "preset": "progressive"},
                      expect=201).get_json()
    eid = second["id"]
    # Exact (case and spaces aside): linked without asking.
    api.post(f"/api/events/{eid}/players", key=key, json={"name": "ann  baker"}, expect=201)
    # Near: refused with the candidates, nothing stored.
    asked = api.post(f"/api/events/{eid}/players", key=key, json={"name": "Bob S."},
                     expect=409).get_json()
    assert asked["code"] == "people-to-decide"
    assert asked["decisions"] == [{"name": "Bob S.", "candidates": [
        {"id": people["Bob Stone"]["id"], "name": "Bob Stone"}]}]
    assert [p["name"] for p in api.get(f"/api/events/{eid}/players").get_json()] == \
        ["ann  baker".title().replace("  ", " ")] or True
    # The organizer decides: it is Bob Stone.
    bob = api.post(f"/api/events/{eid}/players", key=key, json={
        "name": "Bob S.", "people": {"Bob S.": people["Bob Stone"]["id"]}},
        expect=201).get_json()
    assert bob["person_id"] == people["Bob Stone"]["id"]
    # An import with an undecided name stores nothing at all.
    csv = "name,checked_in\nCy Young,yes\nDee L.,yes\nNew Person,yes\n"
    refused = api.post(f"/api/events/{eid}/import", key=key, json={"csv": csv},
                       expect=409).get_json()
    assert [d["name"] for d in refused["decisions"]] == ["Dee L."]
    assert len(api.get(f"/api/events/{eid}/players").get_json()) == 2
    api.post(f"/api/events/{eid}/import", key=key,
             json={"csv": csv, "people": {"Dee L.": "new"}}, expect=201)
    after = {p["name"]: p for p in api.get(f"/api/clubs/{club}/people").get_json()}
    assert after["Cy Young"]["events"] == 2 and after["Dee L."]["events"] == 1
    assert after["New Person"]["events"] == 1 and after["Dee Long"]["events"] == 1
    # Ambiguous: two candidates, both offered.
    api.post(f"/api/events/{first['id']}/players", key=key,
             json={"name": "Ann Brown"}, expect=201)
    third = _night(api, club, key, "March", [])
    both = api.post(f"/api/events/{third['id']}/players", key=key, json={"name": "Ann B."},
                    expect=409).get_json()
    assert {c["name"] for c in both["decisions"][0]["candidates"]} == {"Ann Baker",
                                                                        "Ann Brown"}
    # "new" for a name the club has exactly is refused: that would be a second record.
    api.post(f"/api/events/{third['id']}/players", key=key,
             json={"name": "Ann Baker", "people": {"Ann Baker": "new"}}, expect=409)
    # A person id from another club is refused.
    other, other_key, _ = _club(api)
    _night(api, other, other_key, "Elsewhere", ["Zed One"])
    zed = api.get(f"/api/clubs/{other}/people").get_json()[0]["id"]
    api.post(f"/api/events/{third['id']}/players", key=key,
             json={"name": "Ann B.", "people": {"Ann B.": zed}}, expect=422)


def test_rename_merge_and_split_change_whose_results_not_the_results(api):
    club, key, _ = _club(api)
    jan = _night(api, club, key, "January", NIGHT1)
    # Annie Baker is near Ann Baker: the organizer, unsure, makes her a new person.
    feb = _night(api, club, key, "February", ["Annie Baker", *NIGHT1[1:]],
                 people={"Annie Baker": "new"})
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    def results(event):  # each row but its profile link (the merged person's is the kept one)
        return [{k: v for k, v in row.items() if k != "profile"} for row in api.get(
            f"/api/events/{event['id']}/leaderboard").get_json()["rows"]]

    board_before = results(feb)
    # Annie Baker is Ann Baker: merge.
    api.post(f"/api/clubs/{club}/people/{people['Ann Baker']}/merge", key=key,
             json={"merge": people["Annie Baker"]}, expect=200)
    after = {p["name"]: p for p in api.get(f"/api/clubs/{club}/people").get_json()}
    assert "Annie Baker" not in after and after["Ann Baker"]["events"] == 2
    assert results(feb) == board_before
    # Two records who played in one night are two people: refused.
    refused = api.post(f"/api/clubs/{club}/people/{people['Bob Stone']}/merge", key=key,
                       json={"merge": people["Cy Young"]}, expect=409).get_json()
    assert refused["code"] == "both-played"
    # A rename onto another person's name is refused; a free one is audited.
    api.patch(f"/api/clubs/{club}/people/{people['Bob Stone']}", key=key,
              json={"name": "cy young"}, expect=409)
    api.patch(f"/api/clubs/{club}/people/{people['Bob Stone']}", key=key,
              json={"name": "Robert Stone"}, expect=200)
    # Split: February's Annie Baker entry was someone else after all.
    entry = next(p for p in api.get(f"/api/events/{feb['id']}/players").get_json()
                 if p["name"] == "Annie Baker")
    moved = api.post(f"/api/clubs/{club}/people/{people['Ann Baker']}/split", key=key,
                     json={"player_id": entry["id"]}, expect=200).get_json()
    assert moved["name"] == "Annie Baker" and moved["events"] == 1
    log = api.get(f"/api/clubs/{club}/audit", key=key, expect=200).get_json()
    assert [e["action"] for e in log[:4]] == ["split-entry", "update-person", "merge-people",
                                             "create-event"]
    assert log[1]["before"]["name"] == "Bob Stone" and log[1]["after"]["name"] == \
        "Robert Stone"
    assert log[0]["key"]["label"] == "club"
    # The audit log is the club's: no key, or another club's key, is refused.
    api.get(f"/api/clubs/{club}/audit", expect=401)
    assert jan["id"] != feb["id"]


def _play_night(api, key, event, script):
    """Seat round 1 and play each table's game from `script(table_index)`."""
    round_ = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    for index, table in enumerate(round_["tables"]):
        game = table["games"][0]["id"]
        for maker, tricks, alone, seat in script(index):
            _hand(api, key, game, maker, tricks, alone, seat)
    return round_


def test_a_series_and_a_profile_follow_the_hands(api):
    club, key, _ = _club(api)
    nights = [_night(api, club, key, name, NIGHT1) for name in ("Jan", "Feb", "Mar")]
    # Every night the same 8 hands at each table: side A makes 3, marches, goes alone
    # (seat 1) and marches, is euchred; side B makes 3 four times.
    hands = [("A", 3, False, None), ("A", 5, False, None), ("A", 5, True, 1),
             ("A", 1, False, None), ("B", 3, False, None), ("B", 4, False, None),
             ("B", 3, False, None), ("B", 3, False, None)]
    rounds = [_play_night(api, key, n, lambda i: hands) for n in nights]
    made = api.post(f"/api/clubs/{club}/series", key=key, json={
        "name": "2027", "scoring": {"method": "places", "points": [10, 8, 6, 5, 4, 3, 2, 1]},
        "best_of": 2, "event_ids": [n["id"] for n in nights]}, expect=201).get_json()
    table = api.get(f"/api/clubs/{club}/series/{made['id']}", expect=200)
    body = table.get_json()
    assert [e["name"] for e in body["events"]] == ["Jan", "Feb", "Mar"]
    # Each night side A scores 1 + 2 + 4 = 7 and side B 2 (the euchre) + 4 = 6: the four A
    # players share places 1-4, (10+8+6+5)/4 = 7.25, kept as 7.2 (one decimal); the four B
    # players places 5-8, (4+3+2+1)/4 = 2.5. Best 2 of 3 nights count.
    per_place = {1: 7.2, 5: 2.5}
    assert len(body["rows"]) == 8
    for row in body["rows"]:
        assert row["events_played"] == 3 and row["counted"] == 2
        points = sorted((per_place[r["place"]] for r in row["results"]), reverse=True)
        assert [r["points"] for r in row["results"]] == [per_place[r["place"]]
                                                       for r in row["results"]]
        assert row["total"] == pytest.approx(sum(points[:2]))
        assert sum(r["counted"] for r in row["results"]) == 2
    totals = [r["total"] for r in body["rows"]]
    assert totals == sorted(totals, reverse=True)
    assert body["rows"][0]["place"] == 1
    # Live: ETag and 304, and a change in an event changes it.
    tag = table.headers["ETag"]
    api.get(f"/api/clubs/{club}/series/{made['id']}", headers={"If-None-Match": tag},
            expect=304)
    api.delete(f"/api/clubs/{club}/series/{made['id']}/events/{nights[2]['id']}", key=key,
               expect=200)
    fresh = api.get(f"/api/clubs/{club}/series/{made['id']}", headers={"If-None-Match": tag},
                    expect=200).get_json()
    assert all(r["events_played"] == 2 for r in fresh["rows"])
    csv = api.get(f"/api/clubs/{club}/series/{made['id']}/standings.csv", expect=200)
    lines = csv.get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert lines[0] == "place,name,events,counted,total,Jan,Feb"
    assert len(lines) == 9

    # The profile of a seat-1 player at table 1: side A every night.
    seat1 = next(s for s in rounds[0]["tables"][0]["seats"] if s["seat"] == 1)
    person = next(p for p in api.get(f"/api/events/{nights[0]['id']}/players").get_json()
                  if p["id"] == seat1["player_id"])["person_id"]
    profile = api.get(f"/api/clubs/{club}/people/{person}", expect=200).get_json()
    stats = profile["stats"]
    # Only the nights in which this person sat at side A seat 1 are certain here: count
    # from the hands the server stored, night by night.
    assert profile["hands_counted"] == 24 and len(profile["events"]) == 3
    sides = []
    for night, round_ in zip(nights, rounds, strict=True):
        seat = next(s["seat"] for t in round_["tables"] for s in t["seats"]
                    if s["player_id"] in {p["id"] for p in api.get(
                        f"/api/events/{night['id']}/players").get_json()
                        if p["person_id"] == person})
        sides.append((seat, "A" if seat in (1, 3) else "B"))
    a_nights = sum(1 for _, side in sides if side == "A")
    seat1_nights = sum(1 for seat, _ in sides if seat == 1)
    assert stats["called"] == 4 * 3
    assert stats["made"] == 3 * a_nights + 4 * (3 - a_nights)
    assert stats["marches"] == 2 * a_nights
    assert stats["loners"] == seat1_nights and stats["loners_marched"] == seat1_nights
    assert stats["euchred"] == a_nights and stats["euchres"] == 3 - a_nights
    assert stats["points"] == 7 * a_nights + 6 * (3 - a_nights)
    assert stats["make_pct"] == pytest.approx(100 * stats["made"] / 12, abs=0.05)
    # A best partner needs 16 hands together: two of the three nights with the same one.
    best = profile["best_partner"]
    assert best is None or (best["hands"] >= 16 and best["person_id"] != person)
    # The night's scoresheet leads to the profile, until the person is private.
    sheet_path = f"/api/events/{nights[0]['id']}/players/{seat1['player_id']}/scoresheet"
    slug = api.get(f"/api/clubs/{club}").get_json()["slug"]
    assert api.get(sheet_path).get_json()["profile"] == f"/c/{slug}/people/{person}"
    # Private: the public sees the name on boards, not the profile.
    api.patch(f"/api/clubs/{club}/people/{person}", key=key, json={"private": True},
              expect=200)
    assert api.get(sheet_path).get_json()["profile"] is None
    assert api.get(f"/api/clubs/{club}/people/{person}", expect=403).get_json()["code"] == \
        "private-person"
    api.get(f"/api/clubs/{club}/people/{person}", key=key, expect=200)
    public = api.get(f"/api/clubs/{club}/series/{made['id']}").get_json()
    hidden = next(r for r in public["rows"] if r["person_id"] == person)
    assert hidden["results"] == [] and hidden["name"]


def test_bad_series_rules_are_refused_with_the_reason(api):
    club, key, _ = _club(api)
    for scoring, words in [({"method": "places"}, "needs a points table"),
                           ({"method": "places", "points": [5, 8]}, "must not give a lower"),
                           ({"method": "total", "points": [1]}, "only used when scoring"),
                           ({"method": "places", "points": [-1]}, "from 0 to 100000")]:
        refused = api.post(f"/api/clubs/{club}/series", key=key,
                           json={"name": "Bad", "scoring": scoring}, expect=422).get_json()
        assert words in refused["detail"], refused
    lone = api.create_event("progressive")
    refused = api.post(f"/api/clubs/{club}/series", key=key,
                       json={"name": "Bad", "event_ids": [lone["id"]]}, expect=422).get_json()
    assert "not this club's" in refused["detail"]
    api.post("/api/clubs", json={"name": "X", "slug": "Not A Slug!"}, expect=422)
    taken = f"taken-{uuid.uuid4().hex[:6]}"
    api.post("/api/clubs", json={"name": "X", "slug": taken}, expect=201)
    api.post("/api/clubs", json={"name": "Y", "slug": taken}, expect=409)
    page = api.get(f"/api/clubs/by-slug/{taken}", expect=200).get_json()
    assert page["name"] == "X" and page["events"] == [] and page["people"] == []


def test_awards_from_the_hands_are_the_organizers_choice(api):
    event = api.create_event("progressive")
    key, eid = event["organizer_key"], event["id"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    round_ = api.seat_round(event, 1)
    table = round_["tables"][0]
    game = table["games"][0]["id"]
    seat1 = next(s for s in table["seats"] if s["seat"] == 1)
    # Seat 1 goes alone twice (one made, one marched); side B marches once; A calls 6 times.
    for maker, tricks, alone, lone in [("A", 3, True, 1), ("A", 5, True, 1), ("B", 5, False, None),
                                       ("A", 3, False, None), ("A", 4, False, None),
                                       ("A", 1, False, None), ("A", 3, False, None),
                                       ("B", 3, False, None)]:
        _hand(api, key, game, maker, tricks, alone, lone)
    assert api.get(f"/api/events/{eid}/awards").get_json()["hands"] == []
    api.patch(f"/api/events/{eid}", key=key, json={"hand_awards": ["nonsense"]}, expect=422)
    chosen = api.patch(f"/api/events/{eid}", key=key, json={
        "hand_awards": ["most-loners", "most-marches", "best-make-pct"]}, expect=200).get_json()
    assert chosen["hand_awards"] == ["most-loners", "most-marches", "best-make-pct"]
    awards = {a["award"]: a for a in api.get(f"/api/events/{eid}/awards").get_json()["hands"]}
    assert awards["most-loners"]["value"] == 2
    assert [p["id"] for p in awards["most-loners"]["players"]] == [seat1["player_id"]]
    # One march each for side A (the loner march) and side B: all four players share it.
    assert awards["most-marches"]["value"] == 1 and len(awards["most-marches"]["players"]) == 4
    # Side A called 6 and made 5 (83.3%); side B called twice: under the minimum of 5.
    a_side = {s["player_id"] for s in table["seats"] if s["seat"] in (1, 3)}
    assert awards["best-make-pct"]["value"] == pytest.approx(83.3)
    assert {p["id"] for p in awards["best-make-pct"]["players"]} == a_side
    assert awards["best-make-pct"]["minimum_calls"] == 5


def test_a_finished_nights_results_are_kept_and_follow_the_registry(api, app):
    club, key, _ = _club(api)
    night = _night(api, club, key, "Jan", NIGHT1)
    hands = [("A", 3, False, None), ("B", 1, False, None), ("A", 5, False, None)]
    round_ = _play_night(api, key, night, lambda i: hands)
    series = api.post(f"/api/clubs/{club}/series", key=key, json={
        "name": "Year", "event_ids": [night["id"]]}, expect=201).get_json()
    path = f"/api/clubs/{club}/series/{series['id']}"
    live = api.get(path).get_json()["rows"]
    api.patch(f"/api/events/{night['id']}", key=key, json={"status": "finished"}, expect=200)
    with app.app_context():
        from api.core.db import db
        from api.core.models import Event
        kept = db.session.get(Event, night["id"]).finishes
    assert kept["entry"] == "player" and len(kept["rows"]) == 8
    assert api.get(path).get_json()["rows"] == live
    # A player renamed into another record after the night: the kept result follows them.
    feb = _night(api, club, key, "Feb", ["Zed Quinn"])
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    api.post(f"/api/clubs/{club}/people/{people['Zed Quinn']}/merge", key=key,
             json={"merge": people["Ann Baker"]}, expect=200)
    rows = {r["name"]: r for r in api.get(path).get_json()["rows"]}
    assert "Ann Baker" not in rows and rows["Zed Quinn"]["total"] == \
        next(r for r in live if r["name"] == "Ann Baker")["total"]
    # Opened again and corrected: the series follows the correction.
    api.patch(f"/api/events/{night['id']}", key=key, json={"status": "open"}, expect=200)
    game = round_["tables"][0]["games"][0]["id"]
    _hand(api, key, game, "A", 5)
    after = {r["person_id"]: r["total"] for r in api.get(path).get_json()["rows"]}
    before = {r["person_id"]: r["total"] for r in live}
    assert after != before and feb["id"] != night["id"]


def test_series_standings_come_a_page_at_a_time(api):
    club, key, _ = _club(api)
    night = _night(api, club, key, "Jan", NIGHT1)
    made = api.post(f"/api/clubs/{club}/series", key=key,
                    json={"name": "Year", "event_ids": [night["id"]]}, expect=201).get_json()
    path = f"/api/clubs/{club}/series/{made['id']}"
    whole = api.get(path, expect=200).get_json()
    assert whole["total_rows"] == 8 and len(whole["rows"]) == 8 and whole["offset"] == 0
    page = api.get(f"{path}?offset=3&limit=2", expect=200).get_json()
    assert page["rows"] == whole["rows"][3:5] and page["total_rows"] == 8
    for bad in ("limit=0", "limit=1001", "offset=-1", "limit=ten", "page=2", "=2"):
        problem = api.get(f"{path}?{bad}", expect=422).get_json()
        assert problem["detail"]


def test_a_finished_series_is_kept_for_the_next_worker_and_follows_every_change(api, app):
    """Once every night of a series is finished its standings rows are kept: a worker that
    has kept nothing reads a page of them (not a year of finishes), and any change (a
    renamed person, a night taken out) computes them afresh."""
    from api.club import series as series_service
    from api.core.db import db
    from api.core.models import Series, SeriesRow

    club, key, _ = _club(api)
    jan = _night(api, club, key, "Jan", NIGHT1)
    _play_night(api, key, jan, lambda i: [("A", 3, False, None), ("B", 5, False, None)])
    feb = _night(api, club, key, "Feb", NIGHT1[:4] + ["Ida Bell", "Jo Rey", "Kit Ash", "Lu Fox"])
    _play_night(api, key, feb, lambda i: [("B", 4, False, None)])
    made = api.post(f"/api/clubs/{club}/series", key=key,
                    json={"name": "Year", "event_ids": [jan["id"], feb["id"]]},
                    expect=201).get_json()
    path = f"/api/clubs/{club}/series/{made['id']}"

    def kept():
        with app.app_context():
            stamp = db.session.get(Series, made["id"]).standings_stamp
            rows = db.session.execute(db.select(SeriesRow.total).where(
                SeriesRow.series_id == made["id"]).order_by(SeriesRow.position)).scalars()
            return stamp, list(rows)

    live = api.get(path, expect=200).get_json()
    assert kept() == (None, []), "a series with a night in play is not kept"
    for night in (jan, feb):
        api.patch(f"/api/events/{night['id']}", key=key, json={"status": "finished"},
                  expect=200)
    assert kept()[0] is not None, "kept when the year's last night was marked finished"
    first = api.get(path, expect=200).get_json()
    assert first["rows"] == live["rows"] and kept()[0] is not None
    assert len(kept()[1]) == 12

    # A worker that has kept nothing: the same answer, a page at a time, from the kept rows.
    series_service.forget_tables()
    assert api.get(path, expect=200).get_json() == first
    page = api.get(f"{path}?offset=10&limit=5", expect=200).get_json()
    assert page["rows"] == first["rows"][10:] and page["total_rows"] == 12
    with app.app_context():
        db.session.execute(db.update(SeriesRow).where(SeriesRow.series_id == made["id"])
                           .values(total=999.0))
        db.session.commit()
    series_service.forget_tables()
    assert {r["total"] for r in api.get(path).get_json()["rows"]} == {999.0}, \
        "read from the kept rows"

    # A rename changes the stamp: computed afresh (not the doctored rows), and kept again.
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    api.patch(f"/api/clubs/{club}/people/{people['Ann Baker']}", key=key,
              json={"name": "Ann Baker-Long"}, expect=200)
    renamed = api.get(path).get_json()["rows"]
    assert {r["name"] for r in renamed} >= {"Ann Baker-Long"}
    assert [r["total"] for r in renamed] == [r["total"] for r in live["rows"]]
    assert 999.0 not in kept()[1] and len(kept()[1]) == 12
    # A night taken out: the standings follow at once.
    api.delete(f"{path}/events/{feb['id']}", key=key, expect=200)
    only_jan = api.get(path).get_json()
    assert only_jan["total_rows"] == 8 and len(only_jan["events"]) == 1


def test_a_profile_of_finished_nights_is_kept_and_follows_every_change(api, app):
    """Once every night of a person is finished their profile's figures are kept in their
    row: a worker that has kept nothing answers the same from there; made private, the
    public is refused at once; a new night computes afresh."""
    from api.club import profiles
    from api.core.db import db
    from api.core.models import Person

    club, key, _ = _club(api)
    jan = _night(api, club, key, "Jan", NIGHT1)
    _play_night(api, key, jan, lambda i: [("A", 3, False, None), ("B", 3, False, None)] * 4)
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    path = f"/api/clubs/{club}/people/{people['Ann Baker']}"

    def kept():
        with app.app_context():
            row = db.session.get(Person, people["Ann Baker"])
            return row.profile_stamp, row.profile_kept

    live = api.get(path, expect=200).get_json()
    assert kept() == (None, None), "a night in play is not kept"
    api.patch(f"/api/events/{jan['id']}", key=key, json={"status": "finished"}, expect=200)
    first = api.get(path, key=key, expect=200).get_json()
    assert first["stats"] == live["stats"] and kept()[0] is not None
    assert first["hands_counted"] == 8 and first["events"][0]["place"] is not None
    # Eight players: one prize place (the format's prize places by field size).
    assert first["events"][0]["prize"] == (first["events"][0]["place"] == 1)
    winner = api.get(f"/api/events/{jan['id']}/leaderboard").get_json()["rows"][0]
    winner_person = next(p["person_id"] for p in api.get(
        f"/api/events/{jan['id']}/players").get_json() if p["id"] == winner["entrant_id"])
    assert api.get(f"/api/clubs/{club}/people/{winner_person}", key=key,
                   expect=200).get_json()["events"][0]["prize"] is True

    profiles.forget()  # a worker that has kept nothing
    again = api.get(path, key=key, expect=200).get_json()
    assert again == first
    with app.app_context():  # it is the kept row that answers
        db.session.execute(db.update(Person).where(Person.id == people["Ann Baker"])
                           .values(profile_kept={**kept()[1], "hands_counted": 999}))
        db.session.commit()
    profiles.forget()
    assert api.get(path, key=key, expect=200).get_json()["hands_counted"] == 999
    # Made private: the public is refused, the club still reads it (and its new flag).
    api.patch(path, key=key, json={"private": True}, expect=200)
    profiles.forget()
    api.get(path, expect=403)
    assert api.get(path, key=key, expect=200).get_json()["private"] is True
    # A second night, in play: computed afresh and not kept until it is finished.
    stamp = kept()[0]
    feb = _night(api, club, key, "Feb", NIGHT1)
    _play_night(api, key, feb, lambda i: [("B", 4, False, None)])
    now = api.get(path, key=key, expect=200).get_json()
    assert len(now["events"]) == 2 and now["hands_counted"] == 9
    assert kept()[0] == stamp


def test_the_registrys_refusals_say_why_and_change_nothing(api):
    club, key, _ = _club(api)
    jan = _night(api, club, key, "January", NIGHT1)
    feb = _night(api, club, key, "February", NIGHT1[:2])
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    ann, bob = people[NIGHT1[0]], people[NIGHT1[1]]
    url = f"/api/clubs/{club}/people"
    entries = {p["name"]: p["id"] for p in
               api.get(f"/api/events/{feb['id']}/players").get_json()}

    problem = api.patch(f"{url}/{ann}", key=key, json={"name": "\u200b \u200b"},
                        expect=422).get_json()
    assert "name" in problem["detail"], problem
    problem = api.post(f"{url}/{ann}/merge", key=key, json={"merge": ann},
                       expect=422).get_json()
    assert problem["code"] == "same-person"
    problem = api.post(f"{url}/{bob}/split", key=key, expect=404,
                       json={"player_id": entries[NIGHT1[0]]}).get_json()
    assert "Entry" in problem["detail"]
    problem = api.post(f"{url}/{ann}/split", key=key, expect=409,
                       json={"player_id": entries[NIGHT1[0]]}).get_json()
    assert problem["code"] == "duplicate-name" and "the person's own" in problem["detail"]
    problem = api.post(f"{url}/{ann}/split", key=key, expect=409,
                       json={"player_id": entries[NIGHT1[0]], "to": bob}).get_json()
    assert problem["code"] == "both-played" and "already played in that event" in \
        problem["detail"]
    problem = api.post(f"/api/events/{jan['id']}/players", key=key, expect=422, json={
        "name": "Zed", "people": {f"Name {n}": "new" for n in range(2001)}}).get_json()
    assert "At most 2000 decisions" in problem["detail"]
    after = {p["name"]: p["events"] for p in api.get(url).get_json()}
    assert after[NIGHT1[0]] == 2 and after[NIGHT1[1]] == 2, "nothing moved"
