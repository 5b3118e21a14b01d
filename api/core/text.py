"""What the API accepts as text: names people read on a board, and free text such as notes.

Every string that reaches the database passes one of these: no NUL (PostgreSQL cannot hold
one), no lone UTF-16 surrogate (no database can encode one: a 500 before), and, for names, no
control or invisible formatting characters (a right-to-left override turns "Ann" into a name
that reads backwards on every phone), no line breaks, and never blank.

One policy for every name: any name a person really has, in any script, is accepted, and a
name that shows nothing is refused.
- Joiners are part of real names: the zero-width non-joiner of Persian (U+200C, in "mi-ravad")
  and the zero-width joiner of emoji sequences (a family, a flag with tags). They are kept
  between two characters, where they join something; alone or at a word's edge they are
  invisible, and refused.
- A name must show something: a letter, digit, punctuation mark or symbol that is not one of
  the blank "letters" Unicode has (the Hangul fillers, the blank Braille cell, ...), and an
  accent must sit on a character, not alone.
"""

from __future__ import annotations

import re
import unicodedata

NAME_MAX = 60

ZWNJ, ZWJ = "\u200c", "\u200d"
# Letters and symbols that draw nothing (a name of only these looks blank).
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180b\u180c"
                          "\u180d\u180f")
# Emoji tag characters (a subdivision flag such as Scotland's): only inside a flag sequence.
TAGS = range(0xE0020, 0xE0080)
BLACK_FLAG = "\U0001f3f4"


def _joins(text: str, i: int) -> bool:
    """Whether the joiner at `i` stands between two characters that are not spaces."""
    return 0 < i < len(text) - 1 and not text[i - 1].isspace() and not text[i + 1].isspace()


def _in_flag(text: str, i: int) -> bool:
    """Whether the tag character at `i` belongs to a flag: after the black flag or a tag."""
    before = text[i - 1] if i else ""
    return before == BLACK_FLAG or (before != "" and ord(before) in TAGS)


def bad_character(text: str, *, line_breaks: bool = False) -> str | None:
    """Why `text` cannot be stored as it is, in words, or None when it can."""
    for i, ch in enumerate(text):
        if ch == "\x00":
            return "contains a NUL (\\x00) character"
        category = unicodedata.category(ch)
        if category == "Cs":
            return f"is not valid Unicode (a lone surrogate, \\u{ord(ch):04x})"
        if line_breaks and ch in "\n\t":
            continue
        if ch in (ZWNJ, ZWJ) and _joins(text, i):
            continue
        if ord(ch) in TAGS and _in_flag(text, i):
            continue
        if category.startswith("C"):
            return f"contains a control or invisible character (U+{ord(ch):04X})"
    return None


def _visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKING


def blank_looking(name: str) -> str | None:
    """Why a name would show nothing (or an accent on nothing), or None when it shows."""
    if not any(_visible(ch) for ch in name):
        return "shows no letter, digit or sign (only blank or invisible characters)"
    base = False  # whether the character before is one an accent can sit on
    for ch in name:
        if unicodedata.category(ch).startswith("M"):
            if not base:
                return f"has an accent (U+{ord(ch):04X}) on no letter"
        else:
            base = _visible(ch) or (base and ch in (ZWNJ, ZWJ))
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
    showing something, not too long. Raises ValueError saying what is wrong."""
    if not isinstance(raw, str):
        raise ValueError(f"{what} must be text.")
    name = " ".join(raw.split())
    if not name:
        raise ValueError(f"{what} is empty.")
    if len(name) > max_length:
        raise ValueError(f"{what} is longer than {max_length} characters.")
    why = bad_character(name) or blank_looking(name)
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
