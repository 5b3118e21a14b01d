"""The one cache every in-process cache of the app is (api/caching.py): bounded, the least
recently used out first, a read with another stamp a miss, safe to share between threads."""

from __future__ import annotations

import threading

import pytest

from api.core.caching import Kept, forget_everything

WAIT = 10  # seconds: a bound no test machine reaches, never a guess at how long work takes


def test_it_never_keeps_more_than_its_size():
    kept = Kept(3)
    for i in range(10):
        kept.put(i, f"value {i}")
        assert len(kept) <= 3
    assert [kept.peek(i) for i in range(10)] == [None] * 7 + ["value 7", "value 8", "value 9"]


def test_the_least_recently_used_goes_first():
    kept = Kept(3)
    for key in "abc":
        kept.put(key, key.upper())
    assert kept.get("a") == "A"  # read: now the most recently used
    kept.put("d", "D")
    assert kept.peek("b") is None  # the oldest unread one went
    assert [kept.peek(k) for k in "acd"] == ["A", "C", "D"]
    kept.peek("c")  # a peek is not a use
    kept.put("e", "E")
    assert kept.peek("c") is None and kept.peek("a") == "A"


def test_a_read_with_another_stamp_is_a_miss_and_a_new_value_replaces_the_old():
    kept = Kept(4)
    kept.put(("event", 1), "board at 3", stamp=3)
    assert kept.get(("event", 1), stamp=3) == "board at 3"
    assert kept.get(("event", 1), stamp=4) is None
    assert kept.get(("event", 1)) is None  # no stamp is a stamp too
    kept.put(("event", 1), "board at 4", stamp=4)
    assert len(kept) == 1
    assert kept.get(("event", 1), stamp=3) is None
    assert kept.get(("event", 1), stamp=4) == "board at 4"


def test_a_weight_bound_lets_the_oldest_go_but_always_keeps_the_newest():
    kept = Kept(10, weigh=len, max_weight=10)
    kept.put("a", b"x" * 4)
    kept.put("b", b"x" * 4)
    kept.put("c", b"x" * 4)  # 12 bytes: the oldest goes
    assert kept.peek("a") is None and kept.peek("b") and kept.peek("c")
    kept.put("big", b"x" * 50)  # heavier than the bound on its own: kept, alone
    assert len(kept) == 1 and kept.peek("big")
    kept.put("big", b"x")  # replaced: its old weight is gone with it
    kept.put("small", b"x" * 9)
    assert kept.peek("big") and kept.peek("small")


def test_update_changes_a_value_in_one_step():
    kept = Kept(2)
    assert kept.update("n", lambda old: (old or 0) + 1) == 1
    assert kept.update("n", lambda old: (old or 0) + 1) == 2
    assert kept.update("n", lambda old: (old or 0) + 1, stamp="other") == 1  # a miss: None


def test_threads_sharing_it_lose_no_update_and_never_exceed_its_size():
    kept, counter = Kept(8), Kept(1)
    start = threading.Barrier(6)
    wrong = []

    def work(me):
        start.wait(WAIT)
        for i in range(2000):
            counter.update("count", lambda old: (old or 0) + 1)
            kept.put((me, i % 20), i)
            value = kept.get((me, (i * 7) % 20))
            if value is not None and value % 20 != (i * 7) % 20:
                wrong.append(value)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert not any(t.is_alive() for t in threads)
    assert len(kept) <= 8 and not wrong
    assert counter.peek("count") == 6 * 2000


def test_threads_asking_for_the_same_value_share_one_build():
    kept = Kept(4)
    builds = []
    first_in = threading.Event()
    go_on = threading.Event()

    def build():
        builds.append(1)
        first_in.set()
        assert go_on.wait(WAIT)
        return "built"

    got = []
    threads = [threading.Thread(target=lambda: got.append(kept.get_or_build("k", build, 1)))
               for _ in range(4)]
    threads[0].start()
    assert first_in.wait(WAIT)
    assert kept.building("k", 1) and not kept.building("k", 2)
    for t in threads[1:]:
        t.start()
    go_on.set()
    for t in threads:
        t.join(WAIT)
    assert got == ["built"] * 4 and builds == [1]
    assert not kept.building("k", 1)


def test_a_failed_build_keeps_nothing_and_the_next_caller_builds_again():
    kept = Kept(4)

    def broken():
        raise RuntimeError("no database")

    with pytest.raises(RuntimeError):
        kept.get_or_build("k", broken)
    assert kept.peek("k") is None and not kept.building("k")
    assert kept.get_or_build("k", lambda: "built") == "built"


def test_forgetting_everything_clears_every_cache():
    one, two = Kept(2), Kept(2)
    one.put("a", 1)
    two.put("b", 2, stamp="s")
    forget_everything()
    assert len(one) == len(two) == 0


def test_a_cache_keeps_at_least_one_value():
    with pytest.raises(ValueError):
        Kept(0)
