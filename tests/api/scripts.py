"""Scripted play for the whole-event tests: hands that give a game an exact score.

The values are written out from RULES.md's table (3 tricks = 1, a march = 2, a loner march =
4), not taken from the rules engine, so the tests check the engine rather than repeat it.
Also a night whose round 1 is played out that way, which several tests start from.
"""

from __future__ import annotations

from .client import ApiClient, play

ONE = {"tricks": 3}  # the makers take 3: +1
TWO = {"tricks": 5}  # a march: +2
FOUR = {"tricks": 5, "alone": True}  # a loner march: +4


def hand_values(points: int, hands: int) -> list[int] | None:
    """`hands` values of 1, 2 or 4 adding up to `points`, or None when none do."""
    if hands == 0:
        return [] if points == 0 else None
    for value in (4, 2, 1):
        rest = hand_values(points - value, hands - 1) if points - value >= hands - 1 else None
        if rest is not None:
            return [value] + rest
    return None


def split_hands(points_a: int, points_b: int, hands: int) -> tuple[int, int]:
    """How many of `hands` hands each side scores so both totals can be made."""
    for count_a in range(hands + 1):
        if hand_values(points_a, count_a) is not None and \
                hand_values(points_b, hands - count_a) is not None:
            return count_a, hands - count_a
    raise AssertionError(f"{points_a}-{points_b} cannot be made in {hands} hands")


def fixed_hands_game(points_a: int, points_b: int, hands: int) -> list[dict]:
    """Hands (maker side first) that end a fixed-length game at exactly points_a-points_b,
    alternating sides so neither side's points arrive all at once."""
    count_a, count_b = split_hands(points_a, points_b, hands)
    a = [("A", v) for v in hand_values(points_a, count_a)]
    b = [("B", v) for v in hand_values(points_b, count_b)]
    played = []
    while a or b:
        if a:
            played.append(a.pop())
        if b:
            played.append(b.pop())
    return [{"maker": side, **{1: ONE, 2: TWO, 4: FOUR}[value]} for side, value in played]


def to_target_game(winner: str, loser_points: int, target: int = 10) -> list[dict]:
    """Hands for a game to `target` that the winner takes, the loser stopping at
    loser_points: the loser's points first, then the winner's marches."""
    assert loser_points < target
    loser = "B" if winner == "A" else "A"
    played = [{"maker": loser, **ONE} for _ in range(loser_points)]
    marches = -(-target // 2)
    played += [{"maker": winner, **TWO} for _ in range(marches)]
    return played


EIGHT = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy"]


def played_round(api: ApiClient, name: str, *, close: bool = True,
                 **overrides) -> tuple[dict, str, dict, list[int]]:
    """A progressive night of 8 whose round 1 is played out (6-2 at both tables) and, unless
    `close` is False, closed: the event, its organizer key, the round and its two games."""
    event = api.create_event("progressive", name=name, **overrides)
    key = event["organizer_key"]
    api.add_players(event, EIGHT)
    round_ = api.seat_round(event, 1)
    games = [t["games"][0]["id"] for t in round_["tables"]]
    for game in games:
        play(api, key, game, fixed_hands_game(6, 2, 8))
    if close:
        api.close_round(event, round_["id"])
    return event, key, round_, games


def runner_key(api: ApiClient, event: dict, table: int) -> str:
    """A new runner key for one table of the event."""
    return api.post(f"/api/events/{event['id']}/keys", key=event["organizer_key"],
                    json={"table": table}, expect=201).get_json()["key"]
