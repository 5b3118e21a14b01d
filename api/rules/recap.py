"""The night's story (issue 30): a recap of a finished night, as facts found in its games and
hands, and a sentence rendered from each fact. Nothing is said that a fact does not hold,
and every fact names the games and hands it was found in, so it can be checked against them.

The facts, in the order they are told:

- `winner`: first place (shared when level), with the total and the games it came from;
- `money`: what the prize pool paid, place by place (only when the night had money set);
- `high-game`: the most points a side scored in one game;
- `low-score`: the lowest total of the night (three entrants or more);
- `most-loners`: the most loners made by one player (RULES.md §5, stats.py's definition);
- `most-euchres`: the most euchres of the makers by one player, as a defender;
- `comeback`: the largest deficit a game's winners overcame, from the running score hand by
  hand (games entered from a sheet have no hands, so none from them);
- `record`: the night's top total above every earlier night of the club in the same format;
- `rating-jump`: the largest rise of a displayed rating (μ − 3σ) over the night, told only
  of someone not private.

A fact whose material is absent is left out, and its sentence with it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .seats import SIDE_OF_SEAT

SMALLEST_COMEBACK = 3  # a deficit of fewer points is the ordinary swing of a game


@dataclass(frozen=True)
class HandRow:
    id: str
    number: int
    points_a: int
    points_b: int
    maker: str | None = None
    alone: bool = False
    loner_seat: int | None = None
    tricks: int | None = None
    renege_by: str | None = None
    renege_upheld: bool | None = None


@dataclass(frozen=True)
class GameRow:
    """A finished game: where it was played, who sat where (player ids, None a ghost), its
    points and winner, and its hands in order (empty for a sheet, forfeit or settlement)."""

    id: int
    round: int
    table: int
    seats: tuple
    points_a: int
    points_b: int
    winner: str | None
    hands: tuple[HandRow, ...] = ()
    from_sheet: bool = False
    team_a: Any = None
    team_b: Any = None
    where: str = ""  # how the night names the game: "Round 2, table 3", "Week 1, table 2, game 3"
    settled_by: str | None = None  # a level game: "playoff-hand" or "card-draw"

    @property
    def named(self) -> str:
        return self.where or f"Round {self.round}, table {self.table}"


@dataclass(frozen=True)
class Placing:
    entrant: Any
    place: int | None
    total: int
    games: tuple = ()  # the games this entrant's total came from


@dataclass
class Night:
    """What a recap reads, all plain data; names are of entrants (players or teams) and of
    players, by id."""

    games: list[GameRow]
    placings: list[Placing]
    names: Mapping[Any, str]
    player_names: Mapping[Any, str]
    payouts: list[tuple[Any, int, int]] = field(default_factory=list)  # entrant, place, amount
    currency: str = "$"
    pool: int = 0
    earlier_best: tuple[int, str] | None = None  # the club's best night total before, its date
    format_name: str = ""
    rating_changes: Mapping[Any, tuple[float, float]] = field(default_factory=dict)  # player
    private: frozenset = frozenset()  # players whose rating the public does not see


def _fact(kind: str, value: Any, *, entrants=(), players=(), games=(), hands=(), **more) -> dict:
    return {"kind": kind, "value": value, "entrants": list(entrants), "players": list(players),
            "games": sorted(set(games)), "hands": list(hands), **more}


def facts(night: Night) -> list[dict]:
    """The night's facts, in the order the recap tells them."""
    found = [_winner(night), _money(night), _high_game(night), _low_score(night),
             *_hand_leaders(night), _comeback(night), _record(night), _rating_jump(night)]
    return [f for f in found if f is not None]


def _placed(night: Night) -> list[Placing]:
    return [p for p in night.placings if p.place is not None]


def _winner(night: Night) -> dict | None:
    first = [p for p in _placed(night) if p.place == 1]
    if not first:
        return None
    return _fact("winner", first[0].total, entrants=[p.entrant for p in first],
                 games=[g for p in first for g in p.games])


def _money(night: Night) -> dict | None:
    paid = [(e, place, amount) for e, place, amount in night.payouts if amount > 0]
    if not paid:
        return None
    games = {p.entrant: p.games for p in night.placings}
    return _fact("money", night.pool, entrants=[e for e, _, _ in paid],
                 games=[g for e, _, _ in paid for g in games.get(e, ())],
                 payouts=[{"entrant": e, "place": place, "amount": amount}
                          for e, place, amount in sorted(paid, key=lambda row: row[1])])


def side_players(game: GameRow, side: str) -> list:
    return [p for n, p in enumerate(game.seats, 1) if SIDE_OF_SEAT[n] == side and p is not None]


def _high_game(night: Night) -> dict | None:
    sides = [(points, game, side) for game in night.games
             for side, points in (("A", game.points_a), ("B", game.points_b))]
    if not sides or max(points for points, _, _ in sides) <= 0:
        return None
    top = max(points for points, _, _ in sides)
    level = [(game, side) for points, game, side in sides if points == top]
    game, side = level[0]
    return _fact("high-game", top, players=side_players(game, side), games=[game.id],
                 hands=[h.id for h in game.hands], side=side, round=game.round,
                 table=game.table, where=game.named,
                 team=game.team_a if side == "A" else game.team_b, others=len(level) - 1)


def _low_score(night: Night) -> dict | None:
    placed = _placed(night)
    if len(placed) < 3:
        return None
    low = min(p.total for p in placed)
    last = [p for p in placed if p.total == low]
    return _fact("low-score", low, entrants=[p.entrant for p in last],
                 games=[g for p in last for g in p.games])


def hand_tallies(games: Sequence[GameRow]) -> tuple[dict, dict]:
    """{player: [(game id, hand id)]} of loners made (by the lone player, or both of the side
    when the seat was not recorded) and of euchres made as a defender; reneged hands count for
    neither (stats.py)."""
    loners, euchres = defaultdict(list), defaultdict(list)
    for game in games:
        for hand in game.hands:
            upheld = hand.renege_by is not None and bool(hand.renege_upheld)
            if hand.maker is None or upheld or hand.tricks is None:
                continue
            if hand.tricks < 3:
                for player in side_players(game, "B" if hand.maker == "A" else "A"):
                    euchres[player].append((game.id, hand.id))
            elif hand.alone:
                for seat, player in enumerate(game.seats, 1):
                    if player is not None and SIDE_OF_SEAT[seat] == hand.maker and \
                            hand.loner_seat in (None, seat):
                        loners[player].append((game.id, hand.id))
    return loners, euchres


def _hand_leaders(night: Night) -> list[dict | None]:
    loners, euchres = hand_tallies(night.games)
    return [_leader("most-loners", loners), _leader("most-euchres", euchres)]


def _leader(kind: str, tally: dict) -> dict | None:
    if not tally:
        return None
    most = max(len(ids) for ids in tally.values())
    leaders = sorted(p for p, ids in tally.items() if len(ids) == most)
    if len(leaders) > 3:  # a four-way tie says nothing about anyone
        return None
    return _fact(kind, most, players=leaders, games=[g for p in leaders for g, _ in tally[p]],
                 hands=list(dict.fromkeys(h for p in leaders for _, h in tally[p])))


def deficit_overcome(game: GameRow) -> tuple[int, HandRow | None, tuple[int, int]]:
    """The most points the game's winners were behind after any hand, the hand after which
    they were, and the score (A, B) then."""
    worst, at, score = 0, None, (0, 0)
    a = b = 0
    if game.winner not in ("A", "B"):
        return worst, at, score
    for hand in game.hands:
        a, b = a + hand.points_a, b + hand.points_b
        behind = (b - a) if game.winner == "A" else (a - b)
        if behind > worst:
            worst, at, score = behind, hand, (a, b)
    return worst, at, score


def _comeback(night: Night) -> dict | None:
    best = None
    for game in night.games:
        if game.from_sheet or not game.hands:
            continue
        deficit, hand, score = deficit_overcome(game)
        if deficit >= SMALLEST_COMEBACK and (best is None or deficit > best[0]):
            best = (deficit, game, hand, score)
    if best is None:
        return None
    deficit, game, hand, score = best
    return _fact("comeback", deficit, players=side_players(game, game.winner), games=[game.id],
                 hands=[h.id for h in game.hands], side=game.winner, round=game.round,
                 table=game.table, where=game.named, behind_after=hand.id, score_then=list(score),
                 final=[game.points_a, game.points_b],
                 settled_by=game.settled_by if game.points_a == game.points_b else None,
                 team=game.team_a if game.winner == "A" else game.team_b)


def _record(night: Night) -> dict | None:
    placed = _placed(night)
    if night.earlier_best is None or not placed:
        return None
    top = max(p.total for p in placed)
    before, when = night.earlier_best
    if top <= before:
        return None
    holders = [p for p in placed if p.total == top]
    return _fact("record", top, entrants=[p.entrant for p in holders],
                 games=[g for p in holders for g in p.games], previous=before,
                 previous_date=when)


def _rating_jump(night: Night) -> dict | None:
    """The largest rise of the night, told of someone whose rating the public sees. When only
    private people rose that much it is not told at all: naming the next one down would say
    they rose the most, which they did not."""
    # From the figures the sentence shows (one decimal), so "from 0.0 to 2.5" says +2.5.
    rises = {p: round(round(after, 1) - round(before, 1), 1)
             for p, (before, after) in night.rating_changes.items()}
    if not rises or max(rises.values()) <= 0:
        return None
    top = max(rises.values())
    shown = [p for p, rise in rises.items() if rise == top and p not in night.private]
    if not shown:
        return None
    player = min(shown)
    before, after = night.rating_changes[player]
    return _fact("rating-jump", top, players=[player], before=round(before, 1),
                 after=round(after, 1))
