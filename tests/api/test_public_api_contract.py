"""The public read API is a contract (docs/api.md, "The public read API"): the leaderboard,
the club's page, series, people and profiles, ratings, and the calendars. Their documented
answers are kept in a snapshot (tests/api/contract/public_api.json: each field's path and
type, whether it is always there and whether it may be null; for a CSV, the columns of its
example's header row); a field removed, renamed or changed in type fails here. A field added
fails too, with a gentler message: additions are allowed, but recorded on purpose. Every
public operation carries an example, and each example matches its schema.

To record a deliberate change: `.venv/bin/python -m tests.api.test_public_api_contract`
rewrites the snapshot; commit it with the change, and say in docs/api.md's changelog whether it
was additive (a minor version) or breaking (a major one)."""

from __future__ import annotations

import csv
import io
import json
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from api import create_app

from .ical_reader import by_uid, read
from .portable_helpers import club_year

SNAPSHOT = Path(__file__).parent / "contract" / "public_api.json"
# The public reads the contract covers: GET, no key needed.
PUBLIC_READS = [
    "/api/events/{event_id}/leaderboard",
    "/api/clubs/{club_id}",
    "/api/clubs/by-slug/{slug}",
    "/api/clubs/{club_id}/people",
    "/api/clubs/{club_id}/people/{person_id}",
    "/api/clubs/{club_id}/series",
    "/api/clubs/{club_id}/series/{series_id}",
    "/api/events/{event_id}/calendar",
    "/api/events/{event_id}/calendar.ics",
    "/api/events/{event_id}/teams/{team_id}/calendar.ics",
    "/api/calendars/{token}.ics",
    "/api/clubs/{club_id}/calendar.ics",
    "/api/clubs/{club_id}/ratings",
    "/api/clubs/{club_id}/ratings.csv",
    "/api/clubs/{club_id}/people/{person_id}/rating",
]
HOW = "Run `.venv/bin/python -m tests.api.test_public_api_contract` to record it"


@lru_cache(maxsize=1)
def _document() -> str:
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client().get("/api/openapi.json").get_data(as_text=True)


def document() -> dict:
    """The generated document, a fresh copy each time (a test may change its copy)."""
    return json.loads(_document())


def _resolve(schema: dict, doc: dict) -> dict:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = {**doc["components"]["schemas"][name],
                  **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _kind(schema: dict, doc: dict) -> tuple[str, dict]:
    """A schema's type in words ("integer", "object|null") and the schema to go into."""
    schema = _resolve(schema, doc)
    nullable = False
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [_resolve(s, doc) for s in schema[key]]
            nullable = any(o.get("type") == "null" for o in options)
            rest = [o for o in options if o.get("type") != "null"]
            schema = rest[0] if len(rest) == 1 else {"type": "|".join(
                sorted(str(o.get("type")) for o in rest))}
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        nullable = nullable or "null" in kind
        kind = "|".join(sorted(k for k in kind if k != "null"))
    return kind + ("|null" if nullable else ""), schema


def fields_of(schema: dict, doc: dict, path: str = "$", seen: tuple = ()) -> dict[str, str]:
    """Every field under `schema`: path -> type, with "?" where it may be left out."""
    kind, inner = _kind(schema, doc)
    found = {path: kind}
    ref = schema.get("$ref") or (inner.get("title") if "properties" in inner else None)
    if ref and ref in seen:  # a schema inside itself: its fields are listed once
        return found
    seen = (*seen, ref) if ref else seen
    required = set(inner.get("required", []))
    for name, field in inner.get("properties", {}).items():
        sub = fields_of(field, doc, f"{path}.{name}", seen)
        if name not in required:
            sub[f"{path}.{name}"] += "?"
        found.update(sub)
    if isinstance(inner.get("additionalProperties"), dict):
        found.update(fields_of(inner["additionalProperties"], doc, f"{path}{{}}", seen))
    if "items" in inner:
        found.update(fields_of(inner["items"], doc, f"{path}[]", seen))
    return found


def csv_rows(text: str) -> list[list[str]]:
    """A CSV answer's rows, the header first (the byte order mark every CSV starts with
    left out)."""
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


def contract(doc: dict) -> dict:
    out = {}
    for path in PUBLIC_READS:
        answer = doc["paths"][path]["get"]["responses"]["200"]
        [(media, content)] = answer["content"].items()
        fields = fields_of(content["schema"], doc)
        if media == "text/csv":  # the document types it as text: its columns are the fields
            fields.update({f"$[].{column}": "column"
                           for column in csv_rows(content["example"])[0]})
        out[path] = {"media": media, "fields": fields}
    return out


def conforms(value, schema: dict, doc: dict, path: str = "$") -> list[str]:
    """Where `value` (an example) breaks `schema`: a wrong type, a required field missing, a
    field the schema does not have."""
    kind, inner = _kind(schema, doc)
    if kind == "any":
        return []
    if value is None:
        return [] if kind.endswith("|null") else [f"{path}: null"]
    types = {"object": dict, "array": list, "string": str, "boolean": bool,
             "integer": int, "number": (int, float)}
    wanted = [types[k] for k in kind.split("|") if k in types]
    if wanted and not isinstance(value, tuple(wanted)) or \
            (isinstance(value, bool) and bool not in wanted):
        return [f"{path}: {type(value).__name__}, documented {kind}"]
    wrong = []
    if isinstance(value, dict):
        properties = inner.get("properties", {})
        extra = inner.get("additionalProperties")
        wrong += [f"{path}.{k}: missing" for k in inner.get("required", []) if k not in value]
        for key, item in value.items():
            if key in properties:
                wrong += conforms(item, properties[key], doc, f"{path}.{key}")
            elif isinstance(extra, dict):
                wrong += conforms(item, extra, doc, f"{path}{{{key}}}")
            elif properties:
                wrong.append(f"{path}.{key}: not documented")
    if isinstance(value, list) and "items" in inner:
        for index, item in enumerate(value):
            wrong += conforms(item, inner["items"], doc, f"{path}[{index}]")
    return wrong


def test_the_public_read_api_keeps_its_fields():
    doc = document()
    now, kept = contract(doc), json.loads(SNAPSHOT.read_text())
    broken, added = [], []
    for path in sorted(set(kept) | set(now)):
        if path not in now:
            broken.append(f"{path}: the operation is gone")
            continue
        if path not in kept:
            added.append(f"{path}: a new public operation")
            continue
        before, after = kept[path], now[path]
        if before["media"] != after["media"]:
            broken.append(f"{path}: answers {after['media']}, was {before['media']}")
        for field, kind in before["fields"].items():
            if field not in after["fields"]:
                broken.append(f"{path} {field}: removed or renamed")
            elif after["fields"][field] != kind:
                broken.append(f"{path} {field}: {kind} became {after['fields'][field]}")
        added += [f"{path} {f}" for f in after["fields"].keys() - before["fields"].keys()]
    assert not broken, (
        "A public field changed: clients of the public read API break. Keep the field (add a "
        "new one beside it), or make it a major version on purpose. " + HOW + ".\n  "
        + "\n  ".join(broken))
    assert not added, ("New public fields (allowed: additive). " + HOW + ".\n  "
                       + "\n  ".join(sorted(added)))


def test_every_public_read_has_an_example_that_matches_its_schema():
    doc = document()
    for path in PUBLIC_READS:
        answer = doc["paths"][path]["get"]["responses"]["200"]
        [(media, content)] = answer["content"].items()
        assert "example" in content or "examples" in content, f"{path}: no example"
        if media == "application/json":
            assert conforms(content["example"], content["schema"], doc) == [], path
        elif media == "text/csv":  # a header row, then rows of as many cells
            header, *rows = csv_rows(content["example"])
            assert rows and all(len(row) == len(header) for row in rows), path
        else:  # a calendar: read as strictly as a feed (tests/api/ical_reader.py)
            assert by_uid(read(content["example"].encode())), path


def test_the_contract_check_sees_a_field_removed_and_a_type_changed():
    """The comparison itself, on a copy of the document: a check that could not fail would
    keep nothing."""
    doc = document()
    board = doc["components"]["schemas"]["StandingRow"]["properties"]
    board.pop("total")
    board["place"] = {"type": "string"}
    now = contract(doc)["/api/events/{event_id}/leaderboard"]["fields"]
    kept = json.loads(SNAPSHOT.read_text())["/api/events/{event_id}/leaderboard"]["fields"]
    assert "$.rows[].total" in kept and "$.rows[].total" not in now
    assert kept["$.rows[].place"] != now["$.rows[].place"]
    assert conforms({"event_id": "1"}, doc["paths"]["/api/events/{event_id}/leaderboard"][
        "get"]["responses"]["200"]["content"]["application/json"]["schema"], doc)


if __name__ == "__main__":
    SNAPSHOT.parent.mkdir(exist_ok=True)
    SNAPSHOT.write_text(json.dumps(contract(document()), indent=1, sort_keys=True) + "\n")
    print(f"wrote {SNAPSHOT}", file=sys.stderr)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the DB does not matter
def test_what_the_public_reads_answer_is_what_the_document_says(api):
    """The snapshot holds the document; this holds the answers to it: each public read of a
    club's year and a league, anonymous and with the club key, has exactly the documented
    fields and types (a field the code adds or retypes without the document fails here); a
    read documented with a 304 answers one to its own ETag; the ratings CSV has its
    example's columns."""
    made = club_year(api)
    cid, key = made["club_id"], made["key"]
    league = api.post(f"/api/clubs/{cid}/events", key=key, expect=201,
                      json={"name": "League", "preset": "league"}).get_json()
    for name in ("North", "South"):
        api.post(f"/api/events/{league['id']}/teams", key=key, expect=201,
                 json={"name": name, "players": [f"{name} 1", f"{name} 2"]})
    api.post(f"/api/events/{league['id']}/season", key=key, expect=201,
             json={"first_night": "2027-01-05", "start_time": "19:00"})
    club = api.get(f"/api/clubs/{cid}", expect=200).get_json()
    people = api.get(f"/api/clubs/{cid}/people", key=key, expect=200).get_json()
    series = api.get(f"/api/clubs/{cid}/series", expect=200).get_json()
    events = [*made["event_ids"], league["id"]]
    reads = {
        "/api/events/{event_id}/leaderboard": [f"/api/events/{e}/leaderboard" for e in events],
        "/api/clubs/{club_id}": [f"/api/clubs/{cid}"],
        "/api/clubs/by-slug/{slug}": [f"/api/clubs/by-slug/{club['slug']}"],
        "/api/clubs/{club_id}/people": [f"/api/clubs/{cid}/people"],
        "/api/clubs/{club_id}/people/{person_id}": [f"/api/clubs/{cid}/people/{p['id']}"
                                                    for p in people],
        "/api/clubs/{club_id}/series": [f"/api/clubs/{cid}/series"],
        "/api/clubs/{club_id}/series/{series_id}": [f"/api/clubs/{cid}/series/{s['id']}"
                                                    for s in series],
        "/api/events/{event_id}/calendar": [f"/api/events/{e}/calendar" for e in events],
        "/api/clubs/{club_id}/ratings": [f"/api/clubs/{cid}/ratings",
                                         f"/api/clubs/{cid}/ratings?offset=2&limit=3"],
        "/api/clubs/{club_id}/people/{person_id}/rating": [
            f"/api/clubs/{cid}/people/{p['id']}/rating" for p in people],
    }
    assert set(reads) == {p for p in PUBLIC_READS if not p.endswith((".ics", ".csv"))}
    doc, read, unchanged = document(), 0, 0
    for path, urls in reads.items():
        documented = doc["paths"][path]["get"]["responses"]
        schema = documented["200"]["content"]["application/json"]["schema"]
        for url in urls:
            for who in (None, key):
                answer = api.get(url, key=who)
                if answer.status_code == 403 and who is None:
                    continue  # a private person's profile and rating: the club key reads them
                assert answer.status_code == 200, (url, answer.get_json())
                assert conforms(answer.get_json(), schema, doc) == [], (url, who)
                read += 1
                if "304" in documented:
                    api.get(url, key=who, headers={"If-None-Match": answer.headers["ETag"]},
                            expect=304)
                    unchanged += 1
    assert read >= 60 and unchanged >= 12

    columns = csv_rows(doc["paths"]["/api/clubs/{club_id}/ratings.csv"]["get"]["responses"][
        "200"]["content"]["text/csv"]["example"])[0]
    sizes = {}
    for who in (None, key):
        answer = api.get(f"/api/clubs/{cid}/ratings.csv", key=who, expect=200)
        assert answer.mimetype == "text/csv"
        header, *rows = csv_rows(answer.get_data(as_text=True))
        assert header == columns and all(len(row) == len(columns) for row in rows), who
        sizes[who] = len(rows)
    assert 0 < sizes[None] < sizes[key], "the club key's CSV has the private person too"
