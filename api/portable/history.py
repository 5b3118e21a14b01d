"""A club's past seasons from a spreadsheet (CSV: night, name, place, points), so a club can
bring its history in. Each night becomes a finished, results-only night of the club: its
players linked to the club's people (the registry's own name matching: an exact name links,
a new name makes a person, a near one is for the club to decide), its finishes kept, and no
rounds, games or hands, so it counts in series and profiles (nights, places, totals) and in
no hand statistic or rating.

`preview` says what a commit would make and each line's error, and stores nothing;
`commit` stores it all in one transaction, or nothing when a line has an error."""

from __future__ import annotations

import csv
import re
import secrets
from collections import defaultdict
from datetime import date

from ..core.db import db
from ..core.errors import Invalid
from ..core.keys import Principal
from ..core.models import Event, Player
from ..people.name_match import name_key
from ..people.people import (
    choose_people,
    club_audit,
    lock_club_people,
    match_names,
    read_people,
    store_people,
)
from ..rules.presets import build_preset
from . import sheet_text
from .importing import free_code

MAX_LINES = 20_000
PRESET = "progressive"  # the format a results-only night is recorded under (never played)
# A header cell's words (lower case, letters only) -> the column it names.
HEADER_WORDS = {"night": "night", "date": "night", "day": "night", "nightdate": "night",
                "eventdate": "night", "dateplayed": "night", "name": "name",
                "player": "name", "playername": "name", "fullname": "name", "place": "place",
                "position": "place", "pos": "place", "rank": "place", "finish": "place",
                "points": "points", "score": "points", "total": "points", "pts": "points",
                "totalpoints": "points"}


def _column(cell: str) -> str | None:
    return HEADER_WORDS.get(re.sub(r"[^a-z]", "", cell.lower()))


def read_lines(text: str) -> tuple[list[dict], list[dict]]:
    """The file's lines as {line, night, name, place, points}, and each bad line's error
    ({line, error}). A first row of column names (night/date, name/player, place, points)
    sets their order; without one the order is night, name, place, points."""
    try:
        rows = sheet_text.rows(text)
    except csv.Error as unreadable:
        raise Invalid(f"The file cannot be read as CSV: {unreadable}.", code="bad-history-file",
                      errors={"file": [str(unreadable)]}) from None
    order = ["night", "name", "place", "points"]
    start = 0
    if rows and {_column(c) for c in rows[0]} >= set(order):
        order = [_column(c) for c in rows[0]]
        start = 1
    nights = [dict(zip(order, cells, strict=False)).get("night") or "" for cells in rows[start:]]
    days_first = sheet_text.day_first(nights)
    if len(rows) - start > MAX_LINES:
        raise Invalid(f"The file has {len(rows) - start} lines; at most {MAX_LINES} are read "
                      "at once: split it by season.", code="too-many-lines")
    lines, errors = [], []
    for number, cells in enumerate(rows[start:], start=start + 1):
        if not any(c.strip() for c in cells):
            continue
        values = dict(zip(order, (c.strip() for c in cells), strict=False))
        line = {"line": number}
        try:
            line["night"] = sheet_text.parse_night(values.get("night") or "", days_first)
        except ValueError:
            order_words = " (this file writes its dates day first, as 13/01/2025 on another " \
                "line shows)" if days_first else ""
            errors.append({"line": number, "error": f"'{values.get('night', '')}' is not a "
                           f"date{order_words} (write 2024-03-05, 3/5/2024 or 5 March 2024)."})
            continue
        line["name"] = " ".join((values.get("name") or "").split())
        if not line["name"] or len(line["name"]) > 120:
            errors.append({"line": number, "error": "The name is missing or too long."})
            continue
        try:
            line["place"] = sheet_text.place(values.get("place") or "")
        except ValueError:
            errors.append({"line": number, "error": f"'{values.get('place', '')}' is not a "
                           "place (1, 2, 3, ..., or 1st, T2 for a tie)."})
            continue
        try:
            line["points"] = sheet_text.points(values.get("points") or "")
        except ValueError:
            errors.append({"line": number, "error": f"'{values.get('points', '')}' is not a "
                           "whole number of points."})
            continue
        lines.append(line)
    seen: dict = {}
    for line in lines:
        key = (line["night"], name_key(line["name"]))
        if key in seen:
            errors.append({"line": line["line"], "error": f"{line['name']} is on "
                           f"{line['night']} twice (line {seen[key]} too)."})
        seen.setdefault(key, line["line"])
    if not lines and not errors:
        errors.append({"line": 0, "error": "The file holds no lines."})
    return lines, sorted(errors, key=lambda e: e["line"])


def _nights(lines: list[dict]) -> dict[date, list[dict]]:
    nights: dict[date, list[dict]] = defaultdict(list)
    for line in lines:
        nights[line["night"]].append(line)
    return dict(sorted(nights.items()))


def preview(club_id: int, text: str) -> dict:
    """What `commit` would make of the file: the nights (date, players), each name matched
    (to whom, new, or near names to decide), and each line's error. Stores nothing."""
    lines, errors = read_lines(text)
    prepared = read_people(club_id, [line["name"] for line in lines])
    matches = match_names(prepared.index, sorted({line["name"] for line in lines}),
                          prepared.found)
    people = [{"name": name, "person_id": m.person_id,
               "matched": prepared.index.names[m.person_id][0] if m.person_id else None,
               "new": m.person_id is None and not m.candidates,
               "candidates": [{"id": i, "name": n} for i, n in m.candidates]}
              for name, m in matches.items()]
    return {"nights": [{"date": day.isoformat(), "players": len(rows)}
                       for day, rows in _nights(lines).items()],
            "lines": len(lines), "people": people,
            "new_people": sum(p["new"] for p in people),
            "to_decide": [p for p in people if p["candidates"] and p["person_id"] is None],
            "errors": errors}


def commit(club_id: int, principal: Principal, text: str,
           decisions: dict | None = None) -> dict:
    """Store the file's nights as finished results-only nights of the club; refused whole
    (nothing stored) when a line has an error or a near name is not decided."""
    lines, errors = read_lines(text)
    if errors:
        raise Invalid(f"Line {errors[0]['line']}: {errors[0]['error']} Nothing was stored; "
                      "correct the file and preview it again.", code="bad-history-file",
                      errors={f"line {e['line']}": [e["error"]] for e in errors[:50]})
    lock_club_people(club_id)
    names = [line["name"] for line in lines]
    prepared = read_people(club_id, names)
    ids = store_people(club_id, choose_people(prepared, names, decisions))
    preset = build_preset(PRESET)
    made = []
    for day, rows in _nights(lines).items():
        event = Event(code=free_code(set()), name=f"Night of {day.isoformat()} (imported)",
                      preset_key=preset.key, parameters=preset.parameters(),
                      seed=secrets.randbelow(2**31), join_pin=f"{secrets.randbelow(10**6):06d}",
                      manual_order={}, status="finished", revision=1, club_id=club_id,
                      night_date=day)
        db.session.add(event)
        db.session.flush()
        players = [Player(event_id=event.id, name=line["name"], position=n,
                          person_id=ids[line["name"]], checked_in=True)
                   for n, line in enumerate(sorted(rows, key=lambda r: (r["place"],
                                                                         r["line"])),
                                            start=1)]
        db.session.add_all(players)
        db.session.flush()
        by_name = {p.name: p for p in players}
        event.finishes = {"entry": "player", "results_only": True,
                          "rows": [[by_name[line["name"]].id, line["place"], line["points"]]
                                   for line in sorted(rows, key=lambda r: (r["place"],
                                                                           r["line"]))]}
        made.append({"id": event.id, "date": day.isoformat(), "players": len(players)})
    club_audit(club_id, principal, "import-history", "club", club_id,
               after={"nights": len(made), "lines": len(lines)})
    db.session.commit()
    return {"nights": made, "lines": len(lines),
            "people": len(set(ids.values()))}



