"""What the API accepts as text: names people read on a board, and free text such as notes.

Every string that reaches the database passes one of these: no NUL (PostgreSQL cannot hold
one), no lone UTF-16 surrogate (no database can encode one: a 500 before), and, for names, no
control or invisible formatting characters (a right-to-left override turns "Ann" into a name
that reads backwards on every phone), no line breaks, and never blank.
"""

from __future__ import annotations

import re
import unicodedata

NAME_MAX = 60


def bad_character(text: str, *, line_breaks: bool = False) -> str | None:
    """Why `text` cannot be stored as it is, in words, or None when it can."""
    for ch in text:
        if ch == "\x00":
            return "contains a NUL (\\x00) character"
        category = unicodedata.category(ch)
        if category == "Cs":
            return f"is not valid Unicode (a lone surrogate, \\u{ord(ch):04x})"
        if line_breaks and ch in "\n\t":
            continue
        if category.startswith("C"):
            return f"contains a control or invisible character (U+{ord(ch):04X})"
    return None


def unstorable(text: str) -> str | None:
    """Why no database could store `text` (NUL, a lone surrogate), or None."""
    if "\x00" in text:
        return "contains a NUL (\\x00) character"
    for ch in text:
        if "\ud800" <= ch <= "\udfff":
            return f"is not valid Unicode (a lone surrogate, \\u{ord(ch):04x})"
    return None


def clean_name(raw, what: str = "A name", max_length: int = NAME_MAX) -> str:
    """A name as people will read it on a leaderboard: trimmed, spaces collapsed, printable,
    not blank, not too long. Raises ValueError saying what is wrong."""
    if not isinstance(raw, str):
        raise ValueError(f"{what} must be text.")
    name = " ".join(raw.split())
    if not name:
        raise ValueError(f"{what} is empty.")
    if len(name) > max_length:
        raise ValueError(f"{what} is longer than {max_length} characters.")
    why = bad_character(name)
    if why:
        raise ValueError(f"{what} {why}.")
    return name


# A JSON string (skipped whole, escapes and all), or one bracket.
_JSON_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def json_depth(body: bytes) -> int:
    """How deeply a JSON text nests its arrays and objects, counted without parsing it (so a
    hostile body cannot exhaust the parser's stack first). Strings are skipped whole."""
    depth = deepest = 0
    for token in _JSON_TOKENS.finditer(body):
        first = token.group()[0]
        if first in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
        elif first in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest
