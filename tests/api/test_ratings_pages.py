"""The ratings table a page at a time (docs/club.md, "Ratings"), as the series' standings
come: `offset` and `limit` (100 unless asked), the whole table's places on every page, the
count of rows, bad arguments refused with a reason, and an ETag that a read with
If-None-Match answers with 304 until the table changes."""

from __future__ import annotations

import csv
import io
import uuid

from sqlalchemy import insert, select

from .test_ratings import A_WINS, _club, _finish, _night

PATH = "/api/clubs/{}/ratings"
# A group of five who share a rating, across the first page's end (rows 99 to 103), with
# names whose case would sort them otherwise.
TIED = ["zed Tie", "Amy Tie", "bob Tie", "Cat Tie", "dan Tie"]


def _seed_table(app, club: int, people: int = 250) -> dict[str, float]:
    """`people` rated people of the club, straight into its tables (a club of hundreds
    through the API is minutes of nights): person i's rating (mu - 3 sigma) is 300 - i,
    but for TIED at rows 99 to 103, who all have 201.5. Their names to their ratings."""
    from api.core.db import db
    from api.core.models import Person, Rating
    from api.people.people import name_key

    shown = {}
    for i in range(people):
        if 98 <= i < 98 + len(TIED):
            shown[TIED[i - 98]] = 201.5
        else:
            shown[f"Player {i:03d}"] = 300.0 - i
    with app.app_context():
        db.session.execute(insert(Person.__table__), [
            {"club_id": club, "name": name, "name_key": name_key(name), "private": False}
            for name in shown])
        ids = dict(db.session.execute(select(Person.name, Person.id)
                                      .where(Person.club_id == club)).all())
        db.session.execute(insert(Rating.__table__), [
            {"club_id": club, "person_id": ids[name], "mu": rating + 3.0, "sigma": 1.0,
             "games": 3, "wins": 2} for name, rating in shown.items()])
        db.session.commit()
    return shown


def _expected(shown: dict[str, float], ids: dict[str, int]) -> list[tuple[int, str]]:
    """(place, name) best first: a place is one more than the people rated higher."""
    order = sorted(shown, key=lambda n: (-shown[n], n.casefold(), ids[n]))
    return [(1 + sum(r > shown[n] for r in shown.values()), n) for n in order]


def _page(api, club, query="", key=None, **kw):
    return api.get(PATH.format(club) + query, key=key, **kw)


def _ids(api, club, key):
    return {p["name"]: p["id"] for p in
            api.get(f"/api/clubs/{club}/people", key=key, expect=200).get_json()}


def test_pages_keep_the_whole_tables_places_and_the_csv_stays_whole(api, app):
    club, key = _club(api)
    shown = _seed_table(app, club)
    expected = _expected(shown, _ids(api, club, key))

    first = _page(api, club, expect=200).get_json()
    assert (first["total_rows"], first["offset"], len(first["rows"])) == (250, 0, 100)
    second = _page(api, club, "?offset=100", expect=200).get_json()
    third = _page(api, club, "?offset=200&limit=100", expect=200).get_json()
    assert (second["offset"], len(second["rows"]), len(third["rows"])) == (100, 100, 50)
    rows = first["rows"] + second["rows"] + third["rows"]
    assert [(r["place"], r["name"]) for r in rows] == expected
    # The tie runs over the page's end: the same place on both pages, A to Z in any case.
    assert [(r["place"], r["name"]) for r in first["rows"][98:]] == \
        [(99, "Amy Tie"), (99, "bob Tie")]
    assert [(r["place"], r["name"]) for r in second["rows"][:4]] == \
        [(99, "Cat Tie"), (99, "dan Tie"), (99, "zed Tie"), (104, "Player 103")]
    assert (second["rows"][49]["place"], second["rows"][49]["name"]) == (150, "Player 149")
    assert second["rows"][0]["rating"] == 201.5 and second["rows"][0]["sigma"] == 1.0
    # A page past the end is empty, and a bigger page is the same rows.
    past = _page(api, club, "?offset=250", expect=200).get_json()
    assert past["rows"] == [] and past["total_rows"] == 250
    assert _page(api, club, "?limit=1000", expect=200).get_json()["rows"] == rows
    assert _page(api, club, "?offset=97&limit=3", expect=200).get_json()["rows"] == rows[97:100]

    text = api.get(f"/api/clubs/{club}/ratings.csv", expect=200).get_data(as_text=True)
    lines = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert len(lines) == 251, "the CSV is the whole table, not a page"
    assert [(int(line[0]), line[1]) for line in lines[1:]] == expected


def test_private_people_leave_the_public_pages_and_their_places_close_up(api, app):
    club, key = _club(api)
    shown = _seed_table(app, club, people=150)
    ids = _ids(api, club, key)
    for name in ("Player 000", "bob Tie"):
        api.patch(f"/api/clubs/{club}/people/{ids[name]}", key=key, json={"private": True},
                  expect=200)

    public = _page(api, club, expect=200).get_json()
    rest = _page(api, club, "?offset=100", expect=200).get_json()
    assert public["total_rows"] == 148 and len(public["rows"]) == 100
    everyone = public["rows"] + rest["rows"]
    assert {r["name"] for r in everyone}.isdisjoint({"Player 000", "bob Tie"})
    seen = {n: r for n, r in shown.items() if n not in ("Player 000", "bob Tie")}
    assert [(r["place"], r["name"]) for r in everyone] == _expected(seen, ids)
    assert everyone[0]["name"] == "Player 001" and everyone[0]["place"] == 1
    assert [r["place"] for r in everyone[97:101]] == [98] * 4, "the four left of the tie"

    # The club key sees everybody, in the places of the whole club.
    club_view = _page(api, club, "?offset=98&limit=5", key=key, expect=200).get_json()
    assert club_view["total_rows"] == 150
    assert [(r["place"], r["name"]) for r in club_view["rows"]] == \
        [(99, n) for n in ("Amy Tie", "bob Tie", "Cat Tie", "dan Tie", "zed Tie")]
    text = api.get(f"/api/clubs/{club}/ratings.csv", expect=200).get_data(as_text=True)
    assert "bob Tie" not in text and len(text.strip().splitlines()) == 149


def test_bad_page_arguments_are_refused_with_what_to_send(api):
    club, _ = _club(api)
    for query, field in (("limit=0", "limit"), ("limit=1001", "limit"),
                         ("offset=-1", "offset"), ("limit=ten", "limit"),
                         ("offset=1.5", "offset"), ("offset=", "offset"),
                         ("offset=1000001", "offset")):
        answer = _page(api, club, f"?{query}", expect=422)
        assert answer.mimetype == "application/problem+json", query
        problem = answer.get_json()
        assert problem["status"] == 422 and problem["detail"], query
        assert field in str(problem["errors"]), (query, problem)
    problem = _page(api, club, "?page=2", expect=422).get_json()
    assert "page" in str(problem["errors"]), problem
    # Past the last row is not an error: an empty page says how many there are.
    assert _page(api, club, "?offset=1000000", expect=200).get_json() == \
        {"rows": [], "total_rows": 0, "offset": 1000000}
    api.get("/api/clubs/2147483000/ratings?limit=5", expect=404)


def test_the_etag_answers_304_until_the_table_changes(api):
    club, key = _club(api)
    jan, _ = _night(api, club, key, "Jan", "2026-01-09")
    _finish(api, key, jan)

    def read(query="", tag=None, who=None, expect=200):
        headers = {"If-None-Match": tag} if tag else {}
        answer = _page(api, club, query, key=who, headers=headers, expect=expect)
        return answer.headers.get("ETag"), answer

    tag, answer = read()
    rows = answer.get_json()["rows"]
    assert tag and len(rows) == 8
    again, unchanged = read(tag=tag, expect=304)
    assert again == tag and unchanged.get_data() == b""
    # Each page, and the club key's view, has its own tag.
    tags = {tag, read("?limit=4")[0], read("?offset=4")[0], read(who=key)[0]}
    assert len(tags) == 4
    read(tag=tag, who=key, expect=200)

    # What cannot change the table keeps the tag: a new night, a hand in a game being
    # played (and, below, a night marked finished whose finished games were rated already).
    feb, feb_round = _night(api, club, key, "Feb", "2026-02-13", sheets=())
    read(tag=tag, expect=304)
    game = feb_round["tables"][0]["games"][0]["id"]
    api.post(f"/api/games/{game}/hands", key=key, expect=201,
             json={"id": uuid.uuid4().hex[:12], "maker": "A", "tricks": 3})
    read(tag=tag, expect=304)

    # The game's other seven hands: it is over and rated, the table changes, so does the tag.
    api.post(f"/api/games/{game}/paper-sheet", key=key, expect=201,
             json={"id": uuid.uuid4().hex[:12], "hands": A_WINS[1:]})
    tag2, answer = read(tag=tag)
    assert tag2 != tag and {r["games"] for r in answer.get_json()["rows"]} == {1, 2}
    read(tag=tag2, expect=304)
    _finish(api, key, feb)
    read(tag=tag2, expect=304)

    # The registry: a rename, a person made private (gone from the public table).
    ids = _ids(api, club, key)
    api.patch(f"/api/clubs/{club}/people/{ids['Ann Baker']}", key=key,
              json={"name": "Ann Baker-Long"}, expect=200)
    tag3, answer = read(tag=tag2)
    assert tag3 != tag2 and "Ann Baker-Long" in {r["name"] for r in answer.get_json()["rows"]}
    api.patch(f"/api/clubs/{club}/people/{ids['Ann Baker']}", key=key,
              json={"private": True}, expect=200)
    tag4, answer = read(tag=tag3)
    assert tag4 != tag3 and len(answer.get_json()["rows"]) == 7
