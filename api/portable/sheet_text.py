"""A spreadsheet's CSV as clubs save it, read leniently where the meaning is plain (the
forms docs/club.md lists): UTF-8 (with or without a byte-order mark) or Windows-1252, any
line ends, commas, semicolons or tabs between the cells, dates in the usual spreadsheet
forms with or without a time, places written 1, 1st or T2 (a tie), points 42, 42.0 or 42,0.
What could mean two things is decided for the whole file, never line by line: 07/01/2025 is
month first (July 1) unless some date of the file only reads day first (13/01/2025)."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime

DELIMITERS = (",", ";", "\t")
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
WORDY = ("%b %d %Y", "%d %b %Y", "%b %d %y", "%d %b %y", "%a %b %d %Y", "%a %d %b %Y")
ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
SLASHED = re.compile(r"^(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})$")
DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})$")  # day first, as in Europe
# A time after the date (a spreadsheet's date cell with its midnight, an ISO time).
TIME = re.compile(r"(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?[AaPp][Mm])?"
                  r"(?:Z|[+-]\d{2}:?\d{2})?)$")
PLACE = re.compile(r"^(?:[Tt]-?|=)?\s*(\d+)\s*(?:st|nd|rd|th)?\.?$", re.IGNORECASE)


def decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8 (its byte-order mark dropped), else Windows-1252 (what
    a spreadsheet on Windows saves as plain "CSV")."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def rows(text: str) -> list[list[str]]:
    """The cells of each line, by the delimiter the first line uses most."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    first = next((line for line in text.split("\n") if line.strip()), "")
    delimiter = max(DELIMITERS, key=lambda d: (first.count(d), d == ","))
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def _year(text: str) -> int:
    year = int(text)
    return year if len(text) == 4 else year + (1900 if year >= 69 else 2000)


def day_first(cells: list[str]) -> bool:
    """Whether the file's slashed dates are day first: some date only reads that way."""
    for cell in cells:
        found = SLASHED.match(TIME.sub("", cell.strip()))
        if found and int(found.group(1)) > 12 >= int(found.group(3)):
            return True
    return False


def parse_night(text: str, days_first: bool = False) -> date:
    """A night's date as spreadsheets write it (the module's docstring); ValueError if not."""
    cleaned = TIME.sub("", re.sub(r"\s+", " ", text).strip())
    numbers = ISO.match(cleaned)
    if numbers:
        return date(int(numbers[1]), int(numbers[2]), int(numbers[3]))
    numbers = SLASHED.match(cleaned)
    if numbers:
        first, second = int(numbers[1]), int(numbers[3])
        month, day = (second, first) if days_first else (first, second)
        return date(_year(numbers[4]), month, day)
    numbers = DOTTED.match(cleaned)
    if numbers:
        return date(_year(numbers[3]), int(numbers[2]), int(numbers[1]))
    wordy = re.sub(r"[,\-]", " ", cleaned)
    wordy = re.sub(r"\b([A-Za-z]{3})[A-Za-z]*\.?", lambda m: m.group(1)
                   if m.group(1).lower() in _MONTHS else m.group(0), wordy)
    wordy = re.sub(r"\s+", " ", wordy).strip()
    for pattern in WORDY:
        try:
            return datetime.strptime(wordy, pattern).date()
        except ValueError:
            continue
    raise ValueError(text)


def place(text: str) -> int:
    """1, 1st, 2nd, T2 or =2 (a tie for second): the number; ValueError if none."""
    found = PLACE.match(text.strip())
    if not found or int(found.group(1)) < 1:
        raise ValueError(text)
    return int(found.group(1))


def points(text: str) -> int:
    """Whole points, as totals are ("30", "30.0", "30,0", "-2")."""
    value = float(re.sub(r",(0+)$", r".\1", text.strip()))
    if not value.is_integer():
        raise ValueError(text)
    return int(value)
