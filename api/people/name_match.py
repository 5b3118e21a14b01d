"""Finding a club's person by a typed name, fast enough for a 400-row import against a club
of 20,000 people (pure Python: no database here).

Two names are the same person when their folded forms are equal (`name_key`). A name that is
not equal may still be someone the club knows (`is_near`): "Ann B." for "Ann Baker", "Ann" for
"Ann Baker", "Jon Smith" for "John Smith". Comparing a new name with every person is what made
a big import take a minute; `NameIndex` instead looks only at the people who share something a
near name must share, and then asks `is_near` of those few:

- the same number of words with the same first letters ("ann b" / "ann baker", "jon smyth" /
  "john smith"): every initials-or-prefix match, and the typos that keep first letters;
- one word the same and the others the same but for their first letter ("kathy jones" /
  "cathy jones"): a typo in a first letter;
- the same first word, when either name is one word ("ann" / "ann baker").

What no key catches is a typo in a word's first letter together with another typo: such a
name is registered as a new person, which the organizer can merge later. Word comparisons are
remembered (a club's first names repeat), so a big import compares each pair of words once.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

# How alike two words must be (difflib's ratio) to be worth asking about.
NEAR_RATIO = 0.8


def name_key(name: str) -> str:
    """A name folded for comparison: case, accents, joiners and runs of spaces do not
    matter."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    # Joiners (U+200C, U+200D) join letters without changing whose name it is.
    plain = "".join(c for c in decomposed
                    if not unicodedata.combining(c) and c not in "\u200c\u200d")
    return " ".join(plain.replace(".", " ").split())


def _initials_fit(short: list[str], long: list[str]) -> bool:
    """'ann b' fits 'ann baker': as many words, each the other's word or its start."""
    return len(short) == len(long) and all(
        b.startswith(a) or a.startswith(b) for a, b in zip(short, long, strict=True))


@lru_cache(maxsize=65_536)
def _alike(x: str, y: str) -> bool:
    if x == y:
        return True
    # difflib's ratio is 2M / (len x + len y), where M (the letters matched) is at most the
    # letters the two words have in common: cheap bounds first, since most pairs fail them.
    needed = NEAR_RATIO * (len(x) + len(y)) / 2
    if min(len(x), len(y)) < needed:
        return False
    if sum(min(x.count(c), y.count(c)) for c in set(x)) < needed:
        return False
    return difflib.SequenceMatcher(None, x, y).ratio() >= NEAR_RATIO


def is_near(a: str, b: str) -> bool:
    """Whether two folded names may be one person (but are not the same name)."""
    if a == b:
        return False
    wa, wb = a.split(), b.split()
    if not wa or not wb:
        return False
    if _initials_fit(wa, wb):
        return True
    if len(wa) == 1 or len(wb) == 1:
        # A first name alone ("ann") for "ann baker": worth asking.
        return wa[0] == wb[0]
    # A typo in a word or two ("jon smith", "ann barker"); family members ("eve park", "dee
    # park") differ in a whole word and are not asked about.
    return len(wa) == len(wb) and all(_alike(x, y) for x, y in zip(wa, wb, strict=True))


def _initials(words: list[str]) -> tuple:
    return (len(words), *(w[0] for w in words))


def _one_kept(words: list[str], place: int) -> tuple:
    """The word at `place` whole, the others without their first letter."""
    return (len(words), place, *(w if i == place else w[1:] for i, w in enumerate(words)))


class NameIndex:
    """A club's people by folded name, with the keys near names share (see the module)."""

    def __init__(self, people: Iterable[tuple[int, str, str]] = ()):
        self.names: dict[int, tuple[str, str]] = {}  # id -> (name, name_key)
        self.exact: dict[str, int] = {}
        self._by_initials: dict[tuple, list[int]] = defaultdict(list)
        self._by_word: dict[tuple, list[int]] = defaultdict(list)
        self._by_first: dict[str, list[int]] = defaultdict(list)
        self._single_by_first: dict[str, list[int]] = defaultdict(list)
        self.largest_id = 0
        self.add_all(people)

    def add_all(self, people: Iterable[tuple[int, str, str]]) -> None:
        for person_id, name, key in people:
            self.add(person_id, name, key)

    def add(self, person_id: int, name: str, key: str) -> None:
        self.names[person_id] = (name, key)
        self.exact[key] = person_id
        self.largest_id = max(self.largest_id, person_id)
        words = key.split()
        if not words:
            return
        self._by_initials[_initials(words)].append(person_id)
        if len(words) > 1:
            for place in range(len(words)):
                self._by_word[_one_kept(words, place)].append(person_id)
        self._by_first[words[0]].append(person_id)
        if len(words) == 1:
            self._single_by_first[words[0]].append(person_id)

    def find(self, key: str) -> tuple[int | None, tuple[int, ...]]:
        """The person of exactly this folded name, else the near ones (ids, oldest first)."""
        if key in self.exact:
            return self.exact[key], ()
        words = key.split()
        if not words:
            return None, ()
        seen = set(self._by_initials.get(_initials(words), ()))
        if len(words) > 1:
            for place in range(len(words)):
                seen.update(self._by_word.get(_one_kept(words, place), ()))
        seen.update(self._by_first.get(words[0], ()) if len(words) == 1
                    else self._single_by_first.get(words[0], ()))
        near = sorted(i for i in seen if is_near(key, self.names[i][1]))
        return None, tuple(near)
