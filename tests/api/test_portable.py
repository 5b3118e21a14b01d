"""One portable file (issue 31 point 3): an event, a league season or a club's year exported
as one versioned JSON document, valid against docs/portable-format.schema.json, and imported
into an empty instance or beside what an instance holds: every standing, series, statistic,
profile and export reads the same (the standings hash). Bad files are refused with the path
of the bad field, and store nothing."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs  # schemathesis brings it (dev dependencies)
import pytest

from api.core.caching import forget_everything
from api.core.db import db
from api.routes import LARGER_BODIES

from .client import play
from .portable_helpers import club_year, league_season, standings_hash, standings_reads
from .scripts import to_target_game

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" /
                     "portable-format.schema.json").read_text())


def _export(api, made: dict) -> dict:
    if "club_id" in made:
        path = f"/api/clubs/{made['club_id']}/export/portable.json"
    else:
        path = f"/api/events/{made['event_ids'][0]}/export/portable.json"
    answer = api.get(path, key=made["key"], expect=200)
    assert "attachment" in answer.headers["Content-Disposition"]
    return json.loads(answer.get_data(as_text=True))


def _reads(api, made: dict) -> dict:
    return standings_reads(api, event_ids=made["event_ids"], key=made["key"],
                           club_id=made.get("club_id"))


def _differences(one, other, path="") -> list[str]:
    if isinstance(one, dict) and isinstance(other, dict):
        return [d for k in sorted(one.keys() | other.keys())
                for d in _differences(one.get(k), other.get(k), f"{path}.{k}")]
    if isinstance(one, list) and isinstance(other, list) and len(one) == len(other):
        return [d for n, (a, b) in enumerate(zip(one, other, strict=True))
                for d in _differences(a, b, f"{path}[{n}]")]
    return [] if one == other else [f"{path}: {str(one)[:300]} != {str(other)[:300]}"]


def _same(api, made: dict, before: dict) -> None:
    after = _reads(api, made)
    assert standings_hash(after) == standings_hash(before), _differences(before, after)[:5]


def _emptied(app) -> None:
    """Every row gone, as in a new instance, and nothing remembered of it."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    forget_everything()


def _imported(api, document: dict) -> dict:
    made = api.post("/api/import", json=document, expect=201).get_json()
    return {**made, **({"club_id": made["club_id"]} if "club_id" in made else {})}


@pytest.mark.parametrize("build", [club_year, league_season], ids=["club", "league"])
def test_a_round_trip_reads_the_same_in_an_empty_instance_and_beside_others(api, app, build):
    made = build(api)
    before = _reads(api, made)
    document = _export(api, made)
    jsonschema_rs.validate(SCHEMA, document)

    beside = _imported(api, document)  # a new club or event in this instance
    assert set(beside["event_ids"]).isdisjoint(made["event_ids"])
    assert beside["key"] != made["key"]
    _same(api, beside, before)

    _emptied(app)
    again = _imported(api, document)
    _same(api, again, before)
    # And the export of the import is the export (but for when it was made).
    second = _export(api, again)
    for doc in (document, second):
        doc.pop("exported_at")
    if "club_id" not in made:
        for doc in (document, second):
            for night in doc["nights"]:
                night["event"].pop("code")
    assert second == document


def _small_league(api) -> dict:
    """A league scheduled, its first week's first game played."""
    event, key, _ = api.league(weeks=1)
    game = api.seat_round(event)["tables"][0]["games"][0]["id"]
    play(api, key, game, to_target_game("A", 3))
    return {"event_ids": [event["id"]], "key": key}


def test_a_bad_file_names_the_bad_field_and_stores_nothing(api, app):
    document = _export(api, _small_league(api))

    bad = json.loads(json.dumps(document))
    bad["nights"][0]["hands"][2]["tricks"] = "five"
    problem = api.post("/api/import", json=bad, expect=422).get_json()
    assert "nights[0].hands[2].tricks" in problem["errors"]
    assert problem["code"] == "bad-portable-file"

    bad = json.loads(json.dumps(document))
    bad["nights"][0]["seats"][0]["player_id"] = 999_999
    problem = api.post("/api/import", json=bad, expect=422).get_json()
    assert "nights[0].seats[0].player_id" in problem["errors"]

    bad = json.loads(json.dumps(document))
    bad["nights"][0]["event"]["schedule"]["season"][0][0][0] = 999_999
    problem = api.post("/api/import", json=bad, expect=422).get_json()
    assert "nights[0].event.schedule.season[0][0][0]" in problem["errors"]

    # A file that contradicts the rules, or itself, is refused before it is committed: a
    # hand that cannot have happened, points a hand as played does not score, a game's
    # totals or a result row (what the standings add up) that its hands do not make.
    night = document["nights"][0]
    hand, game = night["hands"][2], night["games"][0]
    refusals = {
        ("hands", 2, "tricks", 9): ("nights[0].hands[2]", "breaks the rules"),
        ("hands", 2, "points_a", hand["points_a"] + 4): ("nights[0].hands[2]",
                                                         "not what the hand as played"),
        ("games", 0, "points_b", game["points_b"] + 1): ("nights[0].games[0]",
                                                         "its hands make it"),
        ("results", 0, "points", night["results"][0]["points"] + 2): (
            "nights[0].results[0]", "but its game stands"),
        ("results", 0, "won", not night["results"][0]["won"]): (
            "nights[0].results[0]", "but its game stands"),
        ("event", None, "time_zone", "Mars/Olympus"): ("nights[0].event[0].time_zone",
                                                       "time zone"),
        ("event", None, "status", "exploded"): ("nights[0].event[0].status", "one of"),
        ("seats", 0, "seat", 9): ("nights[0].seats[0].seat", "one of 1, 2, 3, 4"),
        ("hands", 3, "id", hand["id"]): ("nights[0].hands[3].id", "used twice"),
    }
    for (section, n, field, value), (path, words) in refusals.items():
        bad = json.loads(json.dumps(document))
        row = bad["nights"][0][section] if n is None else bad["nights"][0][section][n]
        row[field] = value
        problem = api.post("/api/import", json=bad, expect=422).get_json()
        assert problem["code"] == "bad-portable-file", (field, problem)
        assert words in problem["errors"][path][0], (field, problem["errors"])

    newer = {**document, "version": 99}
    problem = api.post("/api/import", json=newer, expect=422).get_json()
    assert problem["code"] == "portable-version-unsupported" and "version 99" in \
        problem["detail"]

    for other in ({"format": "something else"}, [], {**document, "scope": "world"}):
        api.post("/api/import", json=other, expect=422)
    with app.app_context():
        from api.core.models import Event
        assert db.session.query(Event).count() == 1, "nothing half-stored"


def test_a_file_too_large_to_send_says_how_to_import_it(api, monkeypatch):
    monkeypatch.setitem(LARGER_BODIES, "portable.Import", 1024)
    answer = api.post("/api/import", data=b"{" + b" " * 2048 + b"}",
                      headers={"Content-Type": "application/json"}, expect=413)
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["code"] == "too-large" and "flask import-file" in problem["detail"]


def test_an_export_is_for_its_organizer_only(api):
    event_id = api.create_event("progressive")["id"]
    assert api.get(f"/api/events/{event_id}/export/portable.json").status_code == 401
    other = api.create_event("progressive")
    assert api.get(f"/api/events/{event_id}/export/portable.json",
                   key=other["organizer_key"]).status_code == 403


def test_the_schema_file_is_the_one_the_format_makes():
    """docs/portable-format.schema.json is generated from api/portable/format.py: run
    `python3 scripts/portable_schema.py` after changing a section."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "portable_schema.py"
    spec = importlib.util.spec_from_file_location("portable_schema", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.schema() == SCHEMA


def test_the_commands_export_and_import_a_file(api, app, tmp_path):
    made = _small_league(api)
    before = _reads(api, made)
    target = tmp_path / "season.json"
    runner = app.test_cli_runner()
    wrote = runner.invoke(args=["export-event", str(made["event_ids"][0]), "-o", str(target)])
    assert wrote.exit_code == 0, wrote.output
    jsonschema_rs.validate(SCHEMA, json.loads(target.read_text()))
    done = runner.invoke(args=["import-file", str(target)])
    assert done.exit_code == 0, done.output
    assert "Key (shown once): euk_" in done.output
    new_id = int(done.output.split("Imported event ")[1].split()[0])
    key = done.output.split("Key (shown once): ")[1].strip()
    _same(api, {"event_ids": [new_id], "key": key}, before)
    # Rows stored with their own ids leave the next ids free (PostgreSQL's sequences moved).
    later = api.create_event("progressive")
    api.add_players(later, ["Late Ann", "Late Bo"])
    assert later["id"] > new_id
    target.write_text(json.dumps({"format": "euchre-scorekeeper/portable", "version": 2}))
    refused = runner.invoke(args=["import-file", str(target)])
    assert refused.exit_code != 0 and "version 2" in refused.output
