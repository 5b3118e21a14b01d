"""Ratings (RULES.md section 8) through the API: a night's games rated when it finishes, the
public table without private people, erased people under their new name, the CSV, a night
entered late for an earlier date and a ruling re-rating from their games on, and what is not
rated."""

from __future__ import annotations

import csv
import io
import uuid

NAMES = ["Ann Baker", "Bob Stone", "Cy Young", "Dee Long", "Eve Park", "Fay Moss", "Gus Hill",
         "Hal Ford"]
A_WINS = [{"maker": "A", "tricks": 3}] * 8
B_WINS = [{"maker": "B", "tricks": 3}] * 8


def _club(api):
    made = api.post("/api/clubs", json={"name": "Loner Seekers",
                                        "slug": f"ls-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    return made["id"], made["club_key"]


def _night(api, club, key, name, day, sheets=(A_WINS, B_WINS), names=NAMES):
    """A progressive night on `day`, one round, each table's game entered from its sheet."""
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": name, "preset": "progressive"}, expect=201).get_json()
    api.patch(f"/api/clubs/{club}/events/{event['id']}", key=key, json={"date": day},
              expect=200)
    for n in names:
        api.post(f"/api/events/{event['id']}/players", key=key,
                 json={"name": n, "checked_in": True}, expect=201)
    round_ = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    for table, hands in zip(round_["tables"], sheets, strict=False):
        api.post(f"/api/games/{table['games'][0]['id']}/paper-sheet", key=key, expect=201,
                 json={"id": uuid.uuid4().hex[:12], "hands": hands})
    return event, round_


def _finish(api, key, event, status="finished"):
    api.patch(f"/api/events/{event['id']}", key=key, json={"status": status}, expect=200)


def _people_by_side(api, event, table):
    persons = {p["id"]: p["person_id"] for p in
               api.get(f"/api/events/{event['id']}/players").get_json()}
    seats = {s["seat"]: persons[s["player_id"]] for s in table["seats"]}
    return {"A": {seats[1], seats[3]}, "B": {seats[2], seats[4]}}


def _table(api, club, key=None):
    """The whole table (these clubs' tables fit in the first page)."""
    answer = api.get(f"/api/clubs/{club}/ratings", key=key, expect=200).get_json()
    assert answer["offset"] == 0 and answer["total_rows"] == len(answer["rows"])
    return answer["rows"]


def test_a_finished_night_is_rated_and_shown_with_its_uncertainty(api, app):
    club, key = _club(api)
    night, round_ = _night(api, club, key, "Jan", "2026-01-09")
    _finish(api, key, night)
    with app.app_context():
        from api.core.db import db
        from api.core.models import RatingNight
        kept = {r.person_id: (r.games, r.wins) for r in
                db.session.query(RatingNight).filter_by(event_id=night["id"])}
        from api.ratings.reads import rating_changes_for_event, rating_of
        changes = rating_changes_for_event(night["id"])
        table1 = _people_by_side(api, night, round_["tables"][0])
        now = rating_of(club, [*changes, 999_999])
    assert len(kept) == 8, "two games, four people each: a row each for the night"
    rows = _table(api, club)
    assert len(rows) == 8 and [r["place"] for r in rows] == [1] * 4 + [5] * 4
    winners = {r["person_id"] for r in rows[:4]}
    assert table1["A"] <= winners and not table1["B"] & winners
    for row in rows:
        # mu and sigma are shown to three places, the rating to two from the unrounded.
        assert abs(row["rating"] - (row["mu"] - 3 * row["sigma"])) < 0.008
        assert row["games"] == 1 and row["sigma"] < 25 / 3
        assert kept[row["person_id"]] == (1, int(row["person_id"] in winners))
        assert changes[row["person_id"]] == (0.0, row["rating"])
    assert rows[0]["rating"] > 0 > rows[-1]["rating"]
    assert now[999_999] == (25.0, 25 / 3), "nobody rated yet starts at the start"
    person = rows[0]["person_id"]
    assert round(now[person][0], 3) == rows[0]["mu"] and len(now) == 9
    history = api.get(f"/api/clubs/{club}/people/{person}/rating", expect=200).get_json()
    assert history["rated"] and history["rating"] == rows[0]["rating"]
    assert [(n["name"], n["date"], n["games"], n["wins"], n["before"]) for n in
            history["nights"]] == [("Jan", "2026-01-09", 1, 1, 0.0)]
    # The backtest over the club's two games: both predicted before they were rated (even).
    printed = app.test_cli_runner().invoke(args=["ratings-backtest", str(club)]).output
    lines = {line.split()[0]: line.split()[-4:] for line in printed.splitlines()[1:]}
    assert lines["ratings"] == ["2", "0.500", "0.2500", "0.6931"]
    assert lines["coin"] == ["2", "0.500", "0.2500", "0.6931"]


def test_private_people_are_left_out_of_the_public_table_and_erased_ones_renamed(api):
    club, key = _club(api)
    night, _ = _night(api, club, key, "Jan", "2026-01-09")
    _finish(api, key, night)
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    api.patch(f"/api/clubs/{club}/people/{people['Ann Baker']}", key=key,
              json={"private": True}, expect=200)
    api.post(f"/api/clubs/{club}/people/{people['Bob Stone']}/erase", key=key, expect=200)
    public = {r["name"] for r in _table(api, club)}
    assert "Ann Baker" not in public and len(public) == 7
    assert "Bob Stone" not in public and any(n.startswith("Former player") for n in public)
    assert "Ann Baker" in {r["name"] for r in _table(api, club, key)}
    api.get(f"/api/clubs/{club}/people/{people['Ann Baker']}/rating", expect=403)
    api.get(f"/api/clubs/{club}/people/{people['Ann Baker']}/rating", key=key, expect=200)
    text = api.get(f"/api/clubs/{club}/ratings.csv", expect=200).get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0] == ["place", "name", "rating", "sigma", "mu", "games", "wins"]
    assert len(rows) == 8 and "Ann Baker" not in text and "Bob Stone" not in text
    assert {r[1] for r in rows[1:]} == public
    api.get("/api/clubs/2147483000/ratings", expect=404)


def test_a_late_night_and_a_ruling_rerate_from_their_games_on(api, app):
    club, key = _club(api)
    jan, jan_round = _night(api, club, key, "Jan", "2026-01-09")
    feb, _ = _night(api, club, key, "Feb", "2026-02-13", sheets=(B_WINS, A_WINS))
    _finish(api, key, jan)
    _finish(api, key, feb)
    first = {r["person_id"]: r["rating"] for r in _table(api, club)}
    # December, typed in after February: January's games now follow December's.
    dec, _ = _night(api, club, key, "Dec", "2025-12-12")
    _finish(api, key, dec)
    with app.app_context():
        from api.ratings.reads import rating_changes_for_event
        jan_changes = rating_changes_for_event(jan["id"])
    assert any(before != 0.0 for before, _ in jan_changes.values())
    after_dec = {r["person_id"]: r["rating"] for r in _table(api, club)}
    assert after_dec != first
    # A ruling turns January's first game: opened again, adjusted, finished again.
    _finish(api, key, jan, "open")
    game = jan_round["tables"][0]["games"][0]["id"]
    turned = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "adjust", "side": "A", "points": -20, "reason": "Wrong sheet"}).get_json()
    assert turned["game"]["winner"] == "B"
    _finish(api, key, jan)
    ruled = {r["person_id"]: (r["rating"], r["games"]) for r in _table(api, club)}
    assert {p: r for p, (r, _) in ruled.items()} != after_dec
    # The same as rating everything from scratch.
    with app.app_context():
        from api.ratings.rerate import rerate_all
        rerate_all(club)
    assert {r["person_id"]: (r["rating"], r["games"]) for r in _table(api, club)} == ruled
    # A forfeit is not rated: the game's four people have one game fewer.
    _finish(api, key, jan, "open")
    api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "forfeit", "side": "A", "reason": "Left early"})
    games = {r["person_id"]: r["games"] for r in _table(api, club)}
    table1 = _people_by_side(api, jan, jan_round["tables"][0])
    assert all(games[p] == ruled[p][1] - 1 for p in table1["A"] | table1["B"])
    assert sum(games.values()) == sum(g for _, g in ruled.values()) - 4


def test_a_game_with_a_ghost_seat_is_not_rated(api):
    club, key = _club(api)
    night, round_ = _night(api, club, key, "Jan", "2026-01-09", sheets=(A_WINS, B_WINS),
                           names=NAMES[:7])
    assert any(s["player_id"] is None for t in round_["tables"] for s in t["seats"])
    _finish(api, key, night)
    assert len(_table(api, club)) == 4, "only the full table's four people"


def test_a_merge_rerates_the_merged_persons_games_as_one_persons(api):
    club, key = _club(api)
    jan, _ = _night(api, club, key, "Jan", "2026-01-09")
    feb, _ = _night(api, club, key, "Feb", "2026-02-13", names=[*NAMES[1:], "Zed Quinn"])
    _finish(api, key, jan)
    _finish(api, key, feb)
    before = {r["name"]: r for r in _table(api, club, key)}
    assert before["Ann Baker"]["games"] == before["Zed Quinn"]["games"] == 1
    people = {p["name"]: p["id"] for p in api.get(f"/api/clubs/{club}/people").get_json()}
    api.post(f"/api/clubs/{club}/people/{people['Zed Quinn']}/merge", key=key,
             json={"merge": people["Ann Baker"]}, expect=200)
    after = {r["name"]: r for r in _table(api, club, key)}
    assert "Ann Baker" not in after and after["Zed Quinn"]["games"] == 2
    assert len(after) == 8


def test_re_rating_from_any_night_gives_what_rating_from_scratch_gives(api, app):
    """The club keeps a row per person and night; a change in night k re-rates from there,
    starting each person from their first kept night at k or later, else from their rating
    now. Whichever night it starts at, the kept rows and the table are those of rating
    everything afresh (people here miss a night and come back)."""
    from api.core.db import db
    from api.core.models import RatedNight, RatingNight
    from api.ratings.rerate import forget, rerate_all, sync

    club, key = _club(api)
    others = [*NAMES[1:], "Zed Quinn"]
    nights = [_night(api, club, key, name, day, sheets=sheets, names=names)[0]
              for name, day, sheets, names in (
                  ("Jan", "2026-01-09", (A_WINS, B_WINS), NAMES),
                  ("Feb", "2026-02-13", (B_WINS, B_WINS), others),
                  ("Mar", "2026-03-13", (A_WINS, A_WINS), NAMES))]
    for night in nights:
        _finish(api, key, night)

    def kept():
        with app.app_context():
            rows = sorted((r.event_id, r.person_id, round(r.mu, 9), round(r.sigma, 9),
                           r.games, r.wins, round(r.mu_before, 9))
                          for r in db.session.query(RatingNight).filter_by(club_id=club))
        return rows, _table(api, club, key)

    with app.app_context():
        rerate_all(club)
    fresh = kept()
    assert len(fresh[0]) == 24 and len(fresh[1]) == 9
    for night in nights:
        with app.app_context():  # as if this night had changed: re-rated from its start
            db.session.query(RatedNight).filter_by(event_id=night["id"]).delete()
            db.session.commit()
            forget()
            assert sync(club)
        assert kept() == fresh, night["name"]
