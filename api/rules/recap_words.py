"""The night's story in words: one plain sentence rendered from each fact of rules/recap.py,
with nothing in it that the fact does not hold (the names, the numbers, where it happened)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .recap import Night


def _list(names: list[str]) -> str:
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _where(fact: dict) -> str:
    return fact["where"]


class _Words:
    def __init__(self, night: Night):
        self.night = night

    def entrants(self, fact: dict) -> str:
        return _list([self.night.names.get(e, "?") for e in fact["entrants"]])

    def players(self, fact: dict) -> str:
        if fact.get("team") is not None and fact["team"] in self.night.names:
            return self.night.names[fact["team"]]
        return _list([self.night.player_names.get(p, "?") for p in fact["players"]])

    def money(self, amount: int) -> str:
        return f"{self.night.currency}{amount}"


def _winner(w: _Words, fact: dict) -> str:
    if len(fact["entrants"]) > 1:
        return f"{w.entrants(fact)} shared first place with {_points(fact['value'])}."
    return f"{w.entrants(fact)} won the night with {_points(fact['value'])}."


def _money(w: _Words, fact: dict) -> str:
    paid = [f"{w.night.names.get(p['entrant'], '?')} {w.money(p['amount'])} "
            f"({_ordinal(p['place'])})" for p in fact["payouts"]]
    return f"The prize pool of {w.money(fact['value'])} paid {_list(paid)}."


def _high_game(w: _Words, fact: dict) -> str:
    also = ""
    if fact["others"]:
        also = (f"; {fact['others']} other side{'' if fact['others'] == 1 else 's'} "
                "matched it")
    return (f"The best game was {w.players(fact)}'s {_points(fact['value'])} "
            f"({_where(fact)}){also}.")


def _low_score(w: _Words, fact: dict) -> str:
    return f"The low score of the night was {_points(fact['value'])}, by {w.entrants(fact)}."


def _most_loners(w: _Words, fact: dict) -> str:
    n = fact["value"]
    return (f"{w.players(fact)} made the most loners: {n} loner{'' if n == 1 else 's'} "
            f"made{' each' if len(fact['players']) > 1 else ''}.")


def _most_euchres(w: _Words, fact: dict) -> str:
    n = fact["value"]
    return (f"{w.players(fact)} euchred the makers most often: {n} "
            f"time{'' if n == 1 else 's'}{' each' if len(fact['players']) > 1 else ''}.")


def _comeback(w: _Words, fact: dict) -> str:
    a, b = fact["score_then"]
    final_a, final_b = fact["final"]
    mine, theirs = (a, b) if fact["side"] == "A" else (b, a)
    won, lost = (final_a, final_b) if fact["side"] == "A" else (final_b, final_a)
    start = f"The biggest comeback: {w.players(fact)} were {mine}-{theirs} down ({_where(fact)})"
    if won == lost:  # a level game, won by its playoff hand or a card draw
        how = {"card-draw": "the card draw"}.get(fact.get("settled_by"), "the playoff hand")
        return f"{start}, drew level at {won}-{lost} and won {how}."
    return f"{start} and won {won}-{lost}."


def _record(w: _Words, fact: dict) -> str:
    kind = f" {w.night.format_name}" if w.night.format_name else ""
    return (f"{w.entrants(fact)}'s {_points(fact['value'])} is the club's best night "
            f"total{kind}, above the {fact['previous']} of {fact['previous_date']}.")


def _rating_jump(w: _Words, fact: dict) -> str:
    return (f"{w.players(fact)}'s rating rose the most: from {fact['before']:.1f} to "
            f"{fact['after']:.1f} (+{fact['value']:.1f}).")


WORDS: Mapping[str, Callable[[_Words, dict], str]] = {
    "winner": _winner, "money": _money, "high-game": _high_game, "low-score": _low_score,
    "most-loners": _most_loners, "most-euchres": _most_euchres, "comeback": _comeback,
    "record": _record, "rating-jump": _rating_jump,
}


def sentences(night: Night, found: list[dict]) -> list[dict[str, Any]]:
    """One sentence a fact: {"text", "fact"} (the index of its fact in `found`)."""
    words = _Words(night)
    return [{"text": WORDS[fact["kind"]](words, fact), "fact": i}
            for i, fact in enumerate(found)]
