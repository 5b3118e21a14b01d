"""A portable document checked before anything is stored: its name and version, every row's
fields by the column they fill (type, length, null), and every reference to a row that the
file holds. Each fault is named by its path in the document (`nights[0].hands[3].tricks`)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import Boolean, Date, Integer, String, Text

from ..core.errors import Invalid
from ..core.models import UTCDateTime
from ..rules import games as rgames
from ..rules.hands import KINDS
from .format import CLUB, EVENT, FORMAT, NIGHT, PEOPLE, SCOPES, SERIES, VERSION, Section

MAX_INT = 2**31 - 1
MAX_FAULTS = 20  # named in one answer
SIDES = ("A", "B")
# The columns that hold one of a few words: anything else would be stored and break every
# page that reads it (a night whose status is neither open nor finished).
CHOICES = {
    ("event", "status"): ("open", "finished"),
    ("rounds", "status"): ("scheduled", "playing", "closed"),
    ("rounds", "stage"): rgames.STAGES, ("games", "stage"): rgames.STAGES,
    ("matches", "status"): ("scheduled", "playing", "over"),
    ("matches", "winner"): SIDES, ("games", "winner"): SIDES,
    ("games", "tie_winner"): SIDES, ("games", "forfeited_by"): SIDES,
    ("games", "tie_method"): rgames.SETTLEMENTS,
    ("hands", "kind"): KINDS, ("hands", "maker"): SIDES, ("hands", "renege_by"): SIDES,
    ("results", "side"): SIDES, ("results", "stage"): rgames.STAGES,
    ("seats", "seat"): (1, 2, 3, 4),
}
# What a night's rows keyed by more than an id hold once (the tables' unique keys).
UNIQUE = {"hands": (("id",), ("game_id", "number")), "seats": (("match_id", "seat"),)}


class Faults:
    def __init__(self):
        self.found: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        if len(self.found) < MAX_FAULTS:
            self.found.setdefault(path, []).append(message)

    def raise_any(self) -> None:
        if self.found:
            first = next(iter(self.found))
            raise Invalid(f"The file cannot be imported: {first}: {self.found[first][0]}"
                          + (f" (and {len(self.found) - 1} more)" if len(self.found) > 1
                             else ""), code="bad-portable-file", errors=self.found)


def check_header(doc) -> None:
    """The document's name, version and scope; a newer version is refused before its content
    is read."""
    if not isinstance(doc, dict):
        raise Invalid("The file is not a portable document: a JSON object is expected.",
                      code="bad-portable-file", errors={"$": ["not an object"]})
    if doc.get("format") != FORMAT:
        raise Invalid(f"The file is not a portable document: 'format' must be '{FORMAT}'.",
                      code="bad-portable-file", errors={"format": [f"must be '{FORMAT}'"]})
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise Invalid("The file's 'version' must be a whole number.",
                      code="bad-portable-file", errors={"version": ["must be an integer"]})
    if version > VERSION:
        raise Invalid(f"The file is in version {version} of the portable format, newer than "
                      f"this instance reads (version {VERSION}): update the app, or export "
                      f"the file again from a version that writes {VERSION}.",
                      code="portable-version-unsupported",
                      errors={"version": [f"at most {VERSION}"]}, readable=VERSION)
    if doc.get("scope") not in SCOPES:
        raise Invalid("The file's 'scope' must be 'event' or 'club'.",
                      code="bad-portable-file", errors={"scope": ["event or club"]})


def parse_time(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError("no time zone")
    return moment


def _parsed(parse, message: str):
    def check(value):
        try:
            return True, parse(value)
        except (TypeError, ValueError):
            return False, message
    return check


def _plain(test, message: str):
    def check(value):
        return (True, value) if test(value) else (False, message)
    return check


def _text(length: int | None):
    def check(value):
        if type(value) is not str:
            return False, "must be text"
        if "\x00" in value:
            return False, "must not hold a NUL character"
        if length and len(value) > length:
            return False, f"must be at most {length} characters"
        return True, value
    return check


def _zone(value):
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        return False, "must be a time zone's name (e.g. America/Toronto)"
    return True, value


def _choice(words: tuple):
    return _plain(lambda v: v in words and type(v) is type(words[0]),
                  f"must be one of {', '.join(str(w) for w in words)}")


def _checker(column, section: str):
    """A check of one column's values, made once a section: (ok, the value as the column
    takes it) or (False, why)."""
    if (section, column.name) in CHOICES:
        return _choice(CHOICES[section, column.name])
    if (section, column.name) == ("event", "time_zone"):
        return _zone
    kind = column.type
    if isinstance(kind, Boolean):
        return _plain(lambda v: type(v) is bool, "must be true or false")
    if isinstance(kind, Integer):
        return _plain(lambda v: type(v) is int and -MAX_INT <= v <= MAX_INT,
                      "must be a whole number")
    if isinstance(kind, UTCDateTime):
        return _parsed(parse_time, "must be a date and time with its offset (ISO 8601)")
    if isinstance(kind, Date):
        return _parsed(date.fromisoformat, "must be a date (YYYY-MM-DD)")
    if isinstance(kind, String | Text):
        return _text(getattr(kind, "length", None))
    return lambda value: (True, value)  # JSON: its shape is checked where read (remap.py)


def check_rows(section: Section, rows, path: str, faults: Faults, extra=()) -> list[dict]:
    """The section's rows with their values as the columns take them."""
    if not isinstance(rows, list):
        faults.add(path, "must be a list")
        return []
    columns = [(c.name, c.nullable, _checker(c, section.name)) for c in section.columns]
    known = {name for name, _, _ in columns} | set(extra)
    checked = []
    for n, row in enumerate(rows):
        if not isinstance(row, dict):
            faults.add(f"{path}[{n}]", "must be an object")
            continue
        if len(row) > len(known) or not known.issuperset(row):
            for name in row.keys() - known:
                faults.add(f"{path}[{n}].{name}", "is not a field of this section")
        values = {}
        for name, nullable, check in columns:
            value = row.get(name)
            if value is None:
                if not nullable:
                    faults.add(f"{path}[{n}].{name}",
                               "is missing" if name not in row else "must not be null")
                values[name] = None
                continue
            ok, values[name] = check(value)
            if not ok:
                faults.add(f"{path}[{n}].{name}", values[name])
        for name in extra:
            values[name] = row.get(name)
        checked.append(values)
    return checked


def _ids(rows: list[dict], path: str, faults: Faults) -> set:
    seen = set()
    for n, row in enumerate(rows):
        if "id" in row and row["id"] in seen:
            faults.add(f"{path}[{n}].id", "is used twice")
        seen.add(row.get("id"))
    return seen


def _unique(rows: list[dict], key: tuple[str, ...], path: str, faults: Faults) -> None:
    seen = set()
    for n, row in enumerate(rows):
        value = tuple(row.get(name) for name in key)
        if value in seen:
            faults.add(f"{path}[{n}].{key[-1]}", f"is used twice ({', '.join(key)})")
        seen.add(value)


def _references(section: Section, rows: list[dict], known: dict[str, set], path: str,
                faults: Faults) -> None:
    for column in section.columns:
        for key in column.foreign_keys:
            target = key.column.table.name
            if target not in known:
                continue
            for n, row in enumerate(rows):
                value = row.get(column.name)
                if value is not None and value not in known[target]:
                    faults.add(f"{path}[{n}].{column.name}",
                               f"names no row of '{target}' in this file")


def check_document(doc: dict) -> dict:
    """The whole document checked, with its values as the tables take them."""
    check_header(doc)
    faults = Faults()
    checked: dict = {"scope": doc["scope"]}
    known: dict[str, set] = {}
    club = doc.get("club")
    if doc["scope"] == "club":
        if not isinstance(club, dict):
            faults.add("club", "must be an object in a club's file")
            club = {}
        checked["club"] = (check_rows(CLUB, [club], "club", faults) or [{}])[0]
    checked["people"] = check_rows(PEOPLE, doc.get("people", []), "people", faults)
    known["people"] = _ids(checked["people"], "people", faults)
    nights = doc.get("nights")
    if not isinstance(nights, list) or not nights and doc["scope"] == "event":
        faults.add("nights", "must be a list" + (" of one night" if doc["scope"] == "event"
                                                 else ""))
        nights = []
    if doc["scope"] == "event" and len(nights) > 1:
        faults.add("nights", "an event's file holds one night")
    checked["nights"] = []
    for i, night in enumerate(nights):
        here = f"nights[{i}]"
        if not isinstance(night, dict):
            faults.add(here, "must be an object")
            continue
        if not isinstance(night.get("event"), dict):
            faults.add(f"{here}.event", "must be an object")
            continue
        done = {"event": check_rows(EVENT, [night["event"]], f"{here}.event", faults)[0]}
        local = dict(known)
        for section in NIGHT:
            rows = check_rows(section, night.get(section.name, []), f"{here}.{section.name}",
                              faults)
            _references(section, rows, local, f"{here}.{section.name}", faults)
            for key in UNIQUE.get(section.name, ()):
                _unique(rows, key, f"{here}.{section.name}", faults)
            if section.name != "seats" and section.name != "hands":
                local[section.table.name] = _ids(rows, f"{here}.{section.name}", faults)
            done[section.name] = rows
        checked["nights"].append(done)
    events = _ids([n["event"] for n in checked["nights"]], "nights", faults)
    checked["series"] = check_rows(SERIES, doc.get("series", []), "series", faults,
                                   extra=("nights",))
    for n, row in enumerate(checked["series"]):
        members = row.get("nights")
        if not isinstance(members, list) or any(e not in events for e in members):
            faults.add(f"series[{n}].nights", "must list ids of nights in this file")
    faults.raise_any()
    return checked
