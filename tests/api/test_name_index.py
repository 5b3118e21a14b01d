"""The club's name index finds the near names that comparing with everyone found, without
comparing with everyone (no Flask, no database: the index is plain Python)."""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from api.people.name_match import NameIndex, is_near, name_key

WORDS = ["ann", "anne", "annie", "bob", "rob", "baker", "barker", "parker", "brown", "smith",
         "smyth", "john", "jon", "kathy", "cathy", "jones", "b", "a", "s", "park", "eve", "dee"]


def brute_force(key: str, people: dict[int, str]) -> tuple[int | None, tuple[int, ...]]:
    for person_id, other in people.items():
        if other == key:
            return person_id, ()
    return None, tuple(sorted(i for i, other in people.items() if is_near(key, other)))


names = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(club=st.lists(names, max_size=40, unique=True), typed=names)
def test_the_index_finds_what_comparing_with_everyone_finds(club, typed):
    people = {i + 1: name_key(n) for i, n in enumerate(club)}
    index = NameIndex((i, n, k) for i, (n, k) in enumerate(zip(club, people.values(),
                                                                strict=True), start=1))
    key = name_key(typed)
    exact, near = index.find(key)
    every_exact, every_near = brute_force(key, people)
    assert exact == every_exact
    assert set(near) <= set(every_near)
    for missed in set(every_near) - set(near):
        # Only what the module says no key catches: a typo in a first letter together with
        # another typo.
        mine, theirs = key.split(), people[missed].split()
        pairs = list(zip(mine, theirs, strict=True))
        assert len(mine) == len(theirs) > 1
        assert any(a[0] != b[0] for a, b in pairs)
        assert not any(a == b and all(x[1:] == y[1:] for x, y in pairs) for a, b in pairs)


def test_the_usual_near_names_are_asked_about():
    club = ["Ann Baker", "Ann Brown", "John Smith", "Kathy Jones", "Eve Park"]
    index = NameIndex((i, n, name_key(n)) for i, n in enumerate(club, start=1))

    def near(typed):
        return [club[i - 1] for i in index.find(name_key(typed))[1]]

    assert near("Ann B.") == ["Ann Baker", "Ann Brown"]
    assert near("ann") == ["Ann Baker", "Ann Brown"]
    assert near("Jon Smith") == ["John Smith"]
    assert near("Cathy Jones") == ["Kathy Jones"]  # a typo in the first letter
    assert near("Dee Park") == []  # family, not a typo
    assert index.find(name_key("  ANN   baker ")) == (1, ())


def test_an_import_of_400_against_20000_people_compares_only_a_few():
    rng = random.Random(7)

    def word():
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))

    firsts = [word() for _ in range(300)]
    lasts = [word() for _ in range(2000)]
    club = {f"{rng.choice(firsts)} {rng.choice(lasts)}" for _ in range(20_000)}
    index = NameIndex((i, n, n) for i, n in enumerate(sorted(club), start=1))
    calls = 0
    original = is_near

    def counting(a, b):
        nonlocal calls
        calls += 1
        return original(a, b)

    import api.people.name_match as module
    module.is_near = counting
    try:
        for _ in range(400):
            index.find(f"{rng.choice(firsts)} {word()}")
    finally:
        module.is_near = original
    # Comparing with everyone is 8,000,000 comparisons; the keys leave a few thousand.
    assert calls < 400 * 200, calls
