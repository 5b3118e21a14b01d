"""The planted-error night of issue 29 ("Measure it"), in Chromium: 8 tables under double entry,
two phones (one per pair) playing the tables in turn, where pair B's phone enters 10% of the
hands wrong (a wrong maker, tricks off by one, a loner missed). Every planted error must show as
a mismatch on the phones before the round closes (at least 95% of them), the stored hands must
be the hands as played, and the median hand must cost a player at most 3 s more than under
sign-off (one runner's taps), counting taps and the waits measured on the phones.

A tap is counted as TAP_S seconds (the same in both modes); a wait is measured: from a phone's
last tap of a hand (under double entry, the later of the two pairs' entries, since both enter at
once at a real table) to the hand counted on that phone's screen. The figures are printed (run
with -s) and written up in BENCHMARKS.md.
"""

from __future__ import annotations

import random
import statistics

import pytest

from .conftest import PHONE, EventSetup
from .steps import join_with_pin, open_game, pick_side, side_names, tap_hand, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLES = 8
TAP_S = 1.0
ERRORS = ("maker", "tricks", "loner")


def night_plan(seed: int = 29) -> list[list[dict]]:
    """Every table's 8 hands as played, with 10% of them marked to be entered wrong by pair B."""
    rng = random.Random(seed)
    hands = []
    for _ in range(TABLES * 8):
        alone = rng.random() < 0.1
        hands.append({"maker": rng.choice("AB"), "alone": alone,
                      "tricks": rng.choice([3, 4, 5]) if alone
                      else rng.choice([0, 1, 2, 3, 3, 3, 4, 4, 5]), "wrong": None})
    for n, index in enumerate(sorted(rng.sample(range(len(hands)), round(len(hands) / 10)))):
        kind = ERRORS[n % len(ERRORS)]
        if kind == "loner":  # a loner can only be missed when there was one
            hands[index].update(alone=True, tricks=5)
        hands[index]["wrong"] = kind
    return [hands[t * 8:(t + 1) * 8] for t in range(TABLES)]


def entered_wrong(hand: dict) -> dict:
    kind = hand["wrong"]
    if kind == "maker":
        return {**hand, "maker": "B" if hand["maker"] == "A" else "A"}
    if kind == "tricks":
        return {**hand, "tricks": hand["tricks"] + (1 if hand["tricks"] < 5 else -1)}
    return {**hand, "alone": False}


# Each phone notes (Date.now(), one clock for both) its last tap of a hand and the moment its
# screen first counts N hands, so the waits are measured on the phones while the test goes on.
WATCH = """
window.__taps = []; window.__shown = {};
document.addEventListener('click', (e) => {
  if (e.target.closest('[data-k^="tricks-"], [data-k^="take-"]')) window.__taps.push(Date.now());
}, true);
new MutationObserver(() => {
  const text = document.querySelector('.game-progress')?.textContent || '';
  const m = /(?:^| · )(\\d+) played/.exec(text);
  const key = location.pathname + '#' + (m && m[1]);
  if (m && !(key in window.__shown)) window.__shown[key] = Date.now();
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def enter(page, names, hand) -> int:
    """Tap a hand in; returns the taps it took."""
    tap_hand(page, names[hand["maker"]], hand["tricks"], alone=hand["alone"])
    return 2 + hand["alone"]


def shown(played: int) -> str:
    return (f"/(^| · ){played} played/.test(document.querySelector('.game-progress')"
            f"?.textContent || '')")


# When this page first counted at least N hands: a phone that learns hands by polling may go
# from 1 played to 3 at once, never showing 2.
FIRST_AT_LEAST = """(played) => {
  const times = Object.entries(window.__shown)
    .filter(([key]) => key.startsWith(location.pathname + '#')
      && Number(key.split('#')[1]) >= played)
    .map(([, at]) => at);
  return times.length ? Math.min(...times) : null;
}"""


def when_shown(page, game_id: int, played: int) -> float:
    wait_until(page, f"({FIRST_AT_LEAST})({played}) !== null")
    return page.evaluate(FIRST_AT_LEAST, played)


def level_games_settled(api, event) -> None:
    """A fixed-length game can end level: the table draws cards (not what is measured)."""
    for t in range(TABLES):
        game = event.game(event.game_id(t))
        if game["over"] and game["winner"] is None:
            api.call("POST", f"/api/games/{game['id']}/settlement",
                     {"method": "card-draw", "winner": "A"}, key=event.organizer_key,
                     expect=200)


def test_a_night_of_8_tables_catches_the_planted_errors_at_little_cost(
        page, api, browser, base_url):
    plan = night_plan()
    event = EventSetup(api, players=TABLES * 4, overrides={"verification": "double_entry"})
    other = browser.new_context(base_url=base_url, **PHONE)
    phone_b = other.new_page()
    planted = caught = 0
    per_hand, errors = [], []
    try:
        for page_ in (page, phone_b):
            page_.add_init_script(WATCH)
            page_.on("pageerror", lambda e: errors.append(str(e)))
            join_with_pin(page_, event)
        for t in range(TABLES):
            game_id = event.game_id(t)
            names = side_names(event.game(game_id))
            for page_, side in ((page, "A"), (phone_b, "B")):
                open_game(page_, event, game_id)
                pick_side(page_, names[side])
            taps, lasts = [], []
            for n, hand in enumerate(plan[t], start=1):
                taps_a = enter(page, names, hand)
                taps_b = enter(phone_b, names, entered_wrong(hand) if hand["wrong"] else hand)
                if hand["wrong"]:
                    planted += 1
                    wait_until(phone_b, "!!document.querySelector('table.mismatch')")
                    caught += 1
                    phone_b.get_by_role("button", name="Theirs is right").click()
                    taps_b += 1
                wait_until(phone_b, shown(n))
                taps.append(max(taps_a, taps_b))
                lasts.append(phone_b.evaluate("window.__taps.at(-1)"))
            # Pair A's phone learns each hand by reading the game again: when did it show it?
            seen_a = [when_shown(page, game_id, n) for n in range(1, 9)]
            seen_b = [when_shown(phone_b, game_id, n) for n in range(1, 9)]
            for k in range(8):
                wait = max(seen_a[k], seen_b[k]) - lasts[k]
                per_hand.append(taps[k] * TAP_S + max(wait, 0) / 1000)
            game = event.game(game_id)
            assert [(h["maker"], h["tricks"], h["alone"]) for h in game["hands"]] == \
                [(h["maker"], h["tricks"], h["alone"]) for h in plan[t]], f"table {t + 1}"
        level_games_settled(api, event)
        status, body, _ = api.call("POST", f"/api/rounds/{event.round['id']}/close",
                                   key=event.organizer_key)
        assert status == 200, body
        assert errors == []
    finally:
        other.close()

    # Today: one runner taps each hand in, on one phone (2 tables of the same plan suffice).
    today = EventSetup(api, players=8)
    join_with_pin(page, today)
    baseline = []
    for t in range(2):
        game_id = today.game_id(t)
        names = side_names(today.game(game_id))
        open_game(page, today, game_id)
        for n, hand in enumerate(plan[t], start=1):
            taps = enter(page, names, hand)
            last = page.evaluate("window.__taps.at(-1)")
            baseline.append(taps * TAP_S + (when_shown(page, game_id, n) - last) / 1000)

    double_median, today_median = statistics.median(per_hand), statistics.median(baseline)
    print(f"\nplanted {planted}, caught {caught} ({caught / planted:.0%}) in {len(per_hand)} "
          f"hands; median hand: double entry {double_median:.2f} s, sign-off "
          f"{today_median:.2f} s (+{double_median - today_median:.2f} s); worst hand "
          f"{max(per_hand):.2f} s; mean waits {statistics.mean(per_hand):.2f} s vs "
          f"{statistics.mean(baseline):.2f} s")
    assert planted >= 6 and caught / planted >= 0.95
    assert double_median - today_median <= 3.0
