"""A player's statistics from the hands they played (RULES.md §5).

Only hands entered hand by hand count: games entered from a sheet, forfeited or settled by a
draw have no hands to read. For each hand the player's side and seat decide what it means for
them:

- *called*: their side made trump (a hand whose renege was upheld has no tricks to judge, so
  it is left out of called and made);
- *made*: called and took 3 or more tricks; *march*: called and took all 5 (a march is
  also made);
- *euchred*: called and took fewer than 3; *euchres* (as defenders): the other side called
  and took fewer than 3;
- loners belong to the lone player when the loner's seat was recorded; otherwise to both
  players of the side, and counted as *unattributed* so the figure can be read with care.
  A *loner made* is one that took 3 or more tricks, lone marches included (so
  `loners_made + loners_euchred == loners`, and `loners_marched <= loners_made`): the
  profile's figure and the "Most loners made" award count the same hands;
- *reneges*: upheld reneges by their side;
- *points per hand*: the points their side scored in their hands.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .seats import SIDE_OF_SEAT

__all__ = ["SIDE_OF_SEAT", "BEST_PARTNER_HANDS", "PlayedHand", "player_stats", "HAND_AWARDS",
           "MIN_CALLS_FOR_MAKE_PCT", "hand_award"]

# Hands together before a partner can be the "best partner": two progressive games.
BEST_PARTNER_HANDS = 16


@dataclass(frozen=True)
class PlayedHand:
    """One hand as one player saw it."""

    side: str  # the player's side, A or B
    seat: int
    maker: str | None
    alone: bool
    loner_seat: int | None
    tricks: int | None
    renege_by: str | None
    renege_upheld: bool | None
    side_points: int
    partner: Hashable | None = None  # the partner's person (None: a ghost, or not known)
    event: Hashable | None = None


def _blank() -> dict:
    return {"hands": 0, "called": 0, "made": 0, "marches": 0, "euchred": 0, "euchres": 0,
            "loners": 0, "loners_made": 0, "loners_marched": 0, "loners_euchred": 0,
            "loners_unattributed": 0, "reneges": 0, "points": 0}


def _add(tally: dict, hand: PlayedHand) -> None:
    tally["hands"] += 1
    tally["points"] += hand.side_points
    upheld = hand.renege_by is not None and bool(hand.renege_upheld)
    if upheld and hand.renege_by == hand.side:
        tally["reneges"] += 1
    if hand.maker is None or upheld or hand.tricks is None:
        return
    ours = hand.maker == hand.side
    if not ours:
        if hand.tricks < 3:
            tally["euchres"] += 1
        return
    tally["called"] += 1
    if hand.tricks >= 3:
        tally["made"] += 1
    else:
        tally["euchred"] += 1
    if hand.tricks == 5:
        tally["marches"] += 1
    if hand.alone and (hand.loner_seat is None or hand.loner_seat == hand.seat):
        tally["loners"] += 1
        if hand.loner_seat is None:
            tally["loners_unattributed"] += 1
        if hand.tricks >= 3:
            tally["loners_made"] += 1  # a lone march is made too
            if hand.tricks == 5:
                tally["loners_marched"] += 1
        else:
            tally["loners_euchred"] += 1


def _finish(tally: dict) -> dict:
    hands, called = tally["hands"], tally["called"]
    return {**tally,
            "make_pct": round(100 * tally["made"] / called, 1) if called else None,
            "points_per_hand": round(tally["points"] / hands, 3) if hands else None}


def player_stats(hands: Iterable[PlayedHand], best_partner_hands: int = BEST_PARTNER_HANDS) \
        -> dict:
    """Totals over all the hands, per event, and the best partner: the one with the most
    points per hand together, among partners of at least `best_partner_hands` hands (ties:
    more hands together first)."""
    overall = _blank()
    per_event: dict[Hashable, dict] = defaultdict(_blank)
    partners: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0])
    for hand in hands:
        _add(overall, hand)
        _add(per_event[hand.event], hand)
        if hand.partner is not None:
            together = partners[hand.partner]
            together[0] += 1
            together[1] += hand.side_points
    eligible = [(points / count, count, partner) for partner, (count, points)
                in partners.items() if count >= best_partner_hands]
    best = None
    if eligible:
        pph, count, partner = max(eligible, key=lambda e: (e[0], e[1]))
        best = {"partner": partner, "hands": count, "points_per_hand": round(pph, 3)}
    return {"overall": _finish(overall),
            "events": {event: _finish(tally) for event, tally in per_event.items()},
            "best_partner": best}


# Awards an organizer may add to an event, from the same record (RULES.md §5).
HAND_AWARDS = {"most-loners": "Most loners made", "most-marches": "Most marches",
               "best-make-pct": "Best make %"}
# Calls needed for the best make %: fewer, and one lucky call would take it.
MIN_CALLS_FOR_MAKE_PCT = 5


def hand_award(award: str, tallies: dict[Hashable, dict]) -> tuple[float | None, list]:
    """(the winning figure, the players who reach it) for one award over each player's
    totals (player_stats(...)["overall"]); (None, []) when nobody qualifies. Players level on
    the figure share the award."""
    if award == "most-loners":
        figures = {p: t["loners_made"] for p, t in tallies.items()}
    elif award == "most-marches":
        figures = {p: t["marches"] for p, t in tallies.items()}
    elif award == "best-make-pct":
        figures = {p: t["make_pct"] for p, t in tallies.items()
                   if t["called"] >= MIN_CALLS_FOR_MAKE_PCT and t["make_pct"] is not None}
    else:
        raise ValueError(f"No award called {award!r}: choose from {', '.join(HAND_AWARDS)}.")
    best = max(figures.values(), default=None)
    if not best:
        return None, []
    return best, sorted((p for p, v in figures.items() if v == best), key=str)
