"""A club's past seasons from a spreadsheet (issue 31 point 3): CSV of night, name, place,
points, previewed (nights, names matched, new people, each line's error) and then stored as
finished results-only nights that count in series and profiles, and in no hand statistic."""

from __future__ import annotations

import uuid

import pytest

from api.portable.history import read_lines

GOOD = """Date,Player,Place,Points
2025-01-07,ann baker,1,42
2025-01-07,Bo Diaz,2,35
1/14/2025,Ann Baker,2,30
"Jan 14, 2025",Bo Diaz,1,38
14 January 2025,Cal New,3,12
"""


def _club_with_ann(api) -> tuple[int, str, int]:
    club = api.post("/api/clubs", json={"name": "Old Timers",
                                        "slug": f"ot-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    cid, key = club["id"], club["club_key"]
    night = api.post(f"/api/clubs/{cid}/events", key=key,
                     json={"name": "Now", "preset": "progressive"}, expect=201).get_json()
    api.post(f"/api/events/{night['id']}/players", key=key,
             json={"name": "Ann Baker", "people": {"Ann Baker": "new"}}, expect=201)
    ann = next(p["id"] for p in api.get(f"/api/clubs/{cid}/people", key=key).get_json())
    return cid, key, ann


def _history(api, cid, key, text, preview=False, expect=201, **more):
    return api.post(f"/api/clubs/{cid}/history", key=key, expect=expect,
                    json={"csv": text, "preview": preview, **more}).get_json()


def test_a_preview_says_what_would_be_made_and_stores_nothing(api):
    cid, key, ann = _club_with_ann(api)
    bad = GOOD + "2025-13-40,Dee,1,5\n2025-01-21,Eve,first,5\n2025-01-21,Fay,1,5.5\n" \
        "2025-01-07,Bo Diaz,4,1\n"
    seen = _history(api, cid, key, bad, preview=True, expect=200)
    assert [n["date"] for n in seen["nights"]] == ["2025-01-07", "2025-01-14"]
    people = {p["name"]: p for p in seen["people"]}
    assert people["ann baker"]["person_id"] == ann and people["Ann Baker"]["person_id"] == ann
    assert people["Bo Diaz"]["new"] and people["Cal New"]["new"]
    assert [e["line"] for e in seen["errors"]] == [7, 8, 9, 10]
    assert "not a date" in seen["errors"][0]["error"]
    assert "twice" in seen["errors"][3]["error"]
    # The commit of a file with errors stores nothing, and says which line.
    refused = _history(api, cid, key, bad, expect=422)
    assert refused["code"] == "bad-history-file" and "line 7" in refused["errors"]
    events = api.get(f"/api/clubs/{cid}/events", key=key, expect=200).get_json()
    assert len(events) == 1


def test_imported_nights_count_in_series_and_profiles_but_not_in_hand_statistics(api):
    cid, key, ann = _club_with_ann(api)
    stats_before = api.get(f"/api/clubs/{cid}/people/{ann}", key=key).get_json()["stats"]
    made = _history(api, cid, key, GOOD)
    assert [(n["date"], n["players"]) for n in made["nights"]] == [("2025-01-07", 2),
                                                                    ("2025-01-14", 3)]
    nights = [n["id"] for n in made["nights"]]
    series = api.post(f"/api/clubs/{cid}/series", key=key,
                      json={"name": "2025", "event_ids": nights}, expect=201).get_json()
    rows = {r["name"]: r for r in api.get(f"/api/clubs/{cid}/series/{series['id']}",
                                          expect=200).get_json()["rows"]}
    assert rows["Ann Baker"]["total"] == 72 and rows["Bo Diaz"]["total"] == 73
    assert rows["Cal New"]["total"] == 12
    profile = api.get(f"/api/clubs/{cid}/people/{ann}", key=key, expect=200).get_json()
    imported = [e for e in profile["events"] if e["event_id"] in nights]
    assert sorted((e["date"], e["place"], e["total"]) for e in imported) == [
        ("2025-01-07", 1, 42), ("2025-01-14", 2, 30)]
    assert all(e["status"] == "finished" for e in imported)
    assert profile["stats"] == stats_before and profile["hands_counted"] == 0
    people = {p["name"] for p in api.get(f"/api/clubs/{cid}/people", key=key).get_json()}
    assert people == {"Ann Baker", "Bo Diaz", "Cal New"}


def test_a_near_name_waits_for_the_clubs_decision(api):
    cid, key, ann = _club_with_ann(api)
    text = "2025-02-04,Ann B.,1,20\n2025-02-04,Gus Hill,2,10\n"
    seen = _history(api, cid, key, text, preview=True, expect=200)
    assert [c["id"] for c in seen["to_decide"][0]["candidates"]] == [ann]
    asked = _history(api, cid, key, text, expect=409)
    assert asked["code"] == "people-to-decide"
    made = _history(api, cid, key, text, decisions={"Ann B.": ann})
    profile = api.get(f"/api/clubs/{cid}/people/{ann}", key=key).get_json()
    assert made["nights"][0]["id"] in {e["event_id"] for e in profile["events"]}


def test_the_history_is_the_clubs_to_bring_in(api):
    cid, key, _ = _club_with_ann(api)
    assert api.post(f"/api/clubs/{cid}/history", json={"csv": GOOD}).status_code == 401
    api.post(f"/api/clubs/{cid}/history", key=key, data="2025-01-07,Al,1,3\n",
             headers={"Content-Type": "text/csv"}, expect=201)


MESSY = [  # (what a spreadsheet saved, what is read: (date, name, place, points) each)
    ("\ufeffDate;Player Name;Pos;Pts\r\n07.01.2025;Zoë Ames;1st;42,0\r\n07.01.2025;Bo;T2;30\r\n"
     "\r\n;;;\r\n", [("2025-01-07", "Zoë Ames", 1, 42), ("2025-01-07", "Bo", 2, 30)]),
    ('night\tname\tplace\tpoints\r"Jan 7, 2025"\t"Baker, Ann"\t=2\t35\r',
     [("2025-01-07", "Baker, Ann", 2, 35)]),
    ("night,name,place,points\n07/01/2025 0:00,Ann,1,42\n13/01/2025,Bo,1,40\n",  # day first
     [("2025-01-07", "Ann", 1, 42), ("2025-01-13", "Bo", 1, 40)]),
    ("night,name,place,points\n07/01/2025,Ann,1,42\n1/7/25 12:00 AM,Bo,1,40\n"  # month first
     "2025-01-09T19:00:00,Cy,1,3\n07-Jan-2025,Dee,2,1\n",
     [("2025-07-01", "Ann", 1, 42), ("2025-01-07", "Bo", 1, 40), ("2025-01-09", "Cy", 1, 3),
      ("2025-01-07", "Dee", 2, 1)]),
]


@pytest.mark.parametrize(("text", "read"), MESSY)
def test_a_spreadsheet_is_read_as_clubs_save_it(text, read):
    lines, errors = read_lines(text)
    assert errors == []
    assert [(str(n["night"]), n["name"], n["place"], n["points"]) for n in lines] == read


def test_a_date_that_reads_neither_way_is_a_line_in_error_saying_why():
    lines, errors = read_lines("13/01/2025,Ann,1,42\n1/13/2025,Bo,1,40\n2025-02-30,Cy,1,1\n")
    assert [e["line"] for e in errors] == [2, 3] and len(lines) == 1
    assert "day first" in errors[0]["error"]


def test_a_windows_spreadsheet_sent_as_text_csv_keeps_its_accents(api):
    cid, key, _ = _club_with_ann(api)
    body = "night;name;place;points\r\n07.01.2025;Zoë Ames;1;42\r\n".encode("cp1252")
    made = api.post(f"/api/clubs/{cid}/history", key=key, data=body,
                    headers={"Content-Type": "text/csv"}, expect=201).get_json()
    assert made["nights"][0]["date"] == "2025-01-07"
    people = {p["name"] for p in api.get(f"/api/clubs/{cid}/people", key=key).get_json()}
    assert "Zoë Ames" in people


def test_each_bad_line_says_what_is_wrong_with_it():
    long_name = "x" * 121
    lines, errors = read_lines(f"2025-01-07,,1,42\n2025-01-07,{long_name},1,42\n"
                               "2025-01-07,Bo,1,forty\n2025-01-07,Cy,1,40\n")
    assert [(e["line"], e["error"]) for e in errors] == [
        (1, "The name is missing or too long."), (2, "The name is missing or too long."),
        (3, "'forty' is not a whole number of points.")]
    assert [n["name"] for n in lines] == ["Cy"]
    assert read_lines("\n,,,\n") == ([], [{"line": 0, "error": "The file holds no lines."}])


def test_a_file_too_long_or_unreadable_is_refused_whole(monkeypatch):
    import csv

    from api.core.errors import Invalid
    from api.portable import history

    monkeypatch.setattr(history, "MAX_LINES", 2)
    with pytest.raises(Invalid, match="at most 2 are read at once") as refused:
        read_lines("2025-01-07,Ann,1,42\n2025-01-07,Bo,2,40\n2025-01-07,Cy,3,30\n")
    assert refused.value.code == "too-many-lines"
    with pytest.raises(Invalid, match="cannot be read as CSV") as refused:
        read_lines("2025-01-07,Ann,1,42\n" + "x" * (csv.field_size_limit() + 1) + "\n")
    assert refused.value.code == "bad-history-file"
