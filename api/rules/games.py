"""One game: when it ends, who won, a level game's settlement, and the game sheet's plausibility."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache

from .errors import GameNotOver, GameOver, ImplausibleSheet, RuleError
from .hands import HandScore
from .presets import Preset
from .seats import SIDE_OF_SEAT, SIDES, A, B, dealer_after

# What kind of game a table is playing; each stage may have its own length.
REGULAR = "regular"  # a round's ordinary game (or a league week's game)
PLAYOFF = "playoff"  # a league playoff game (best of N, to the target)
CHAMPIONSHIP = "championship"  # the teams preset's final
CUT_PLAYOFF = "cut-playoff"  # teams level at the championship cut
SUDDEN_DEATH = "sudden-death"  # one hand after a level cut playoff
FINAL_PLAYOFF = "final-playoff"  # a level championship, settled like a tie at the cut
STAGES = (REGULAR, PLAYOFF, CHAMPIONSHIP, CUT_PLAYOFF, SUDDEN_DEATH, FINAL_PLAYOFF)

CARD_DRAW = "card-draw"
PLAYOFF_HAND = "playoff-hand"
SETTLEMENTS = (PLAYOFF_HAND, CARD_DRAW)


@dataclass(frozen=True)
class GameFormat:
    """How long one game lasts: to a score, or a set number of hands."""

    target_points: int | None = None
    hands_per_game: int | None = None

    def describe(self) -> str:
        if self.target_points is not None:
            return f"first to {self.target_points}"
        return f"{self.hands_per_game} hands"


def game_format(preset: Preset, stage: str = REGULAR) -> GameFormat:
    """The length of a game of this stage under the preset."""
    if stage == CHAMPIONSHIP:
        return GameFormat(hands_per_game=preset.championship_hands or preset.hands_per_game)
    if stage in (CUT_PLAYOFF, FINAL_PLAYOFF):
        return GameFormat(hands_per_game=preset.cut_playoff_hands)
    if stage == SUDDEN_DEATH:
        return GameFormat(hands_per_game=1)
    if stage not in (REGULAR, PLAYOFF):
        raise RuleError(f"Unknown stage '{stage}'.")
    return GameFormat(target_points=preset.target_points, hands_per_game=preset.hands_per_game)


@dataclass(frozen=True)
class GameState:
    """Where a game stands after its hands, as a scoresheet would show it."""

    format: GameFormat
    points_a: int = 0
    points_b: int = 0
    hands_played: int = 0
    end: str | None = None  # target, hands, time, forfeit, sheet
    winner: str | None = None
    level: bool = False  # over and level: needs a playoff hand or card draw to get a winner
    bumps: dict[int, int] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def finished(self) -> bool:
        """Over and with a winner: what movement and 'games won' need."""
        return self.over and self.winner is not None

    @property
    def hands_to_go(self) -> int | None:
        if self.format.hands_per_game is None or self.over:
            return None if self.format.hands_per_game is None else 0
        return self.format.hands_per_game - self.hands_played

    def points(self, side: str) -> int:
        return self.points_a if side == A else self.points_b

    def why_over(self, label: str = "This game") -> str:
        """The reason the game is over, in words for the runner."""
        if self.end == "target":
            if self.winner is None:
                # Both sides crossed the target on one hand (a false-claim penalty paid the
                # accused side as the makers scored) and no tie settlement is recorded yet.
                return f"{label} is over: both sides reached {self.points_a}."
            return (f"{label} is over: side {self.winner} reached "
                    f"{self.points(self.winner)}.")
        if self.end == "hands":
            return f"{label} is over: all {self.format.hands_per_game} hands are played."
        if self.end == "time":
            return f"{label} is over: time was called."
        if self.end == "forfeit":
            return f"{label} is over: it was forfeited to side {self.winner}."
        if self.end == "sheet":
            return f"{label} is over: it was entered from the game sheet."
        return f"{label} is still being played."


def _leader(points_a: int, points_b: int) -> str | None:
    if points_a > points_b:
        return A
    if points_b > points_a:
        return B
    return None


def play_game(
    fmt: GameFormat,
    scores: Iterable[HandScore],
    *,
    time_called: bool = False,
    tie_winner: str | None = None,
    label: str = "This game",
) -> GameState:
    """Replay a game's hands in order and say where it stands.

    Raises GameOver if a hand comes after the game had already ended, naming the
    hand, so an edit that would end the game early is refused rather than stored.
    Penalty entries (thrown-in cards) carry bumps only and never end a game.
    """
    points = {A: 0, B: 0}
    bumps: dict[int, int] = {}
    hands = 0
    end = None
    for score in scores:
        if score.counts and end is not None:
            state = GameState(fmt, points[A], points[B], hands, end, _leader(points[A],
                                                                               points[B]))
            raise GameOver(state.why_over(label) + f" Hand {hands + 1} cannot be added.")
        for seat, dollars in score.bumps.items():
            bumps[seat] = bumps.get(seat, 0) + dollars
        if not score.counts:
            continue
        points[A] += score.points_a
        points[B] += score.points_b
        hands += 1
        if fmt.target_points is not None and max(points.values()) >= fmt.target_points:
            end = "target"
        elif fmt.hands_per_game is not None and hands >= fmt.hands_per_game:
            end = "hands"
    if end is None and time_called:
        end = "time"
    return _finish(fmt, points[A], points[B], hands, end, tie_winner, bumps)


def add_hand(state: GameState, score: HandScore, label: str = "This game") -> GameState:
    """The state after one more entry, from the state before it alone: what `play_game` gives
    for all the hands, without reading them again (the hand path keeps only the totals).

    `state` is a game still being played, or over with only bump entries to come (cards
    thrown in after the last hand); a counting hand after the end raises GameOver. Time
    called and tie settlements belong to games already over, so they play no part here."""
    check_hand_allowed(state, label, counts=score.counts)
    bumps = dict(state.bumps)
    for seat, dollars in score.bumps.items():
        bumps[seat] = bumps.get(seat, 0) + dollars
    if not score.counts:
        return replace(state, bumps=bumps)
    fmt = state.format
    points_a, points_b = state.points_a + score.points_a, state.points_b + score.points_b
    hands = state.hands_played + 1
    end = None
    if fmt.target_points is not None and max(points_a, points_b) >= fmt.target_points:
        end = "target"
    elif fmt.hands_per_game is not None and hands >= fmt.hands_per_game:
        end = "hands"
    return _finish(fmt, points_a, points_b, hands, end, None, bumps)


def _finish(fmt, points_a, points_b, hands, end, tie_winner, bumps) -> GameState:
    winner = _leader(points_a, points_b) if end else None
    level = end is not None and winner is None
    if level and tie_winner is not None:
        if tie_winner not in SIDES:
            raise RuleError("The side that won the tie settlement must be A or B.")
        winner = tie_winner
    return GameState(fmt, points_a, points_b, hands, end, winner, level, bumps)


def forfeited_game(fmt: GameFormat, forfeited_by: str) -> GameState:
    """A game lost by forfeit: no hands, the other side wins."""
    if forfeited_by not in SIDES:
        raise RuleError("The forfeiting side must be A or B.")
    return GameState(fmt, 0, 0, 0, "forfeit", B if forfeited_by == A else A)


def check_hand_allowed(state: GameState, label: str = "This game", *,
                       counts: bool = True) -> None:
    """Refuse a new hand in a game that is over, with the reason. An entry that is not a hand
    of the game (`counts=False`: cards thrown in, bumps only) may still follow its last hand."""
    if state.over and counts:
        raise GameOver(state.why_over(label))


def settle_tie(state: GameState, method: str, winner: str, label: str = "This game") -> str:
    """Record who won a level game's playoff hand or card draw; returns the winning side.

    The game's points stay level; only the winner (for movement and games won) is decided.
    """
    if method not in SETTLEMENTS:
        raise RuleError(f"Settle a level game by '{PLAYOFF_HAND}' or '{CARD_DRAW}'.")
    if winner not in SIDES:
        raise RuleError("Say which side won the tie settlement: A or B.")
    if not state.over:
        raise GameNotOver(f"{label} is still being played; a tie is settled only at its end.")
    if state.end == "forfeit":
        # 0-0 but not level: a forfeit already has its winner.
        raise GameNotOver(f"{label} was forfeited to side {state.winner}; there is no tie to "
                          "settle.")
    if state.points_a != state.points_b:
        raise GameNotOver(f"{label} is not level ({state.points_a}-{state.points_b}); side "
                          f"{_leader(state.points_a, state.points_b)} won it outright.")
    return winner


def dealer_for_hand(first_dealer: int | None, hand_number: int) -> int | None:
    """The seat that deals hand `hand_number` (1-based), the deal passing clockwise."""
    if first_dealer is None:
        return None
    return dealer_after(first_dealer, hand_number - 1)


# --- the game sheet ------------------------------------------------------------------------

HAND_VALUES = (1, 2, 4)  # by default, every scored hand gives one side 1, 2 or 4 points


def sheet_hand_values(preset: Preset) -> tuple[int, ...]:
    """What one hand can give one side under a preset: its points table (1, 2 and 4 by
    default) and its renege penalties."""
    values = set(preset.hand_points().values()) | {preset.renege_points,
                                                   preset.renege_loner_points}
    return tuple(sorted(v for v in values if v > 0))


@cache
def _reachable(hands: int, values: tuple[int, ...] = HAND_VALUES) \
        -> frozenset[tuple[int, int]]:
    """Every (hands scored by a side, points) a side can have in `hands` scored hands."""
    totals = {(0, 0)}
    for _ in range(hands):
        totals |= {(k + 1, p + v) for k, p in totals for v in values}
    return frozenset(totals)


def sheet_is_possible(points_a: int, points_b: int, hands: int,
                      values: tuple[int, ...] = HAND_VALUES) -> bool:
    """Can `hands` hands, each giving one side one of `values` points, end at these scores?"""
    reachable = _reachable(hands, tuple(values))
    by_count: dict[int, set[int]] = {}
    for count, points in reachable:
        by_count.setdefault(count, set()).add(points)
    return any(points_a in by_count.get(k, ()) and points_b in by_count.get(hands - k, ())
               for k in range(hands + 1))


def sheet_game(
    fmt: GameFormat,
    points_a: int,
    points_b: int,
    bumps: dict[int, int],
    *,
    hands_played: int | None = None,
    tie_winner: str | None = None,
    label: str = "This game",
    values: tuple[int, ...] = HAND_VALUES,
    time_called: bool = False,
) -> GameState:
    """A game entered from the sheet (final points and bumps), checked for plausibility.
    `values` are what one hand can give a side (see sheet_hand_values). Fewer hands than the
    game has are possible only when time was called."""
    if fmt.hands_per_game is None:
        raise ImplausibleSheet("Game sheets are for games of a set number of hands.")
    hands = fmt.hands_per_game if hands_played is None else hands_played
    if not 0 <= hands <= fmt.hands_per_game:
        raise ImplausibleSheet(f"{label} has {fmt.hands_per_game} hands; {hands} were entered.")
    if hands < fmt.hands_per_game and not time_called:
        raise ImplausibleSheet(
            f"{label} has {fmt.hands_per_game} hands and time was not called, so a sheet "
            f"of {hands} hands cannot end it. Enter the sheet when all {fmt.hands_per_game} "
            "hands are played, or ask the organizer to call time.")
    for side, points in ((A, points_a), (B, points_b)):
        if points < 0:
            raise ImplausibleSheet(f"Side {side} cannot have negative points.")
    if not sheet_is_possible(points_a, points_b, hands, values):
        worth = ", ".join(str(v) for v in values[:-1]) + f" or {values[-1]}"
        hint = (" If time was called before the last hand, say how many hands were played."
                if time_called and hands_played is None else "")
        raise ImplausibleSheet(
            f"{points_a}-{points_b} cannot come out of {hands} hands (each hand gives one side "
            f"{worth} points). Check the sheet.{hint}")
    for seat, dollars in bumps.items():
        if seat not in SIDE_OF_SEAT:
            raise ImplausibleSheet("Bumps are per seat, 1 to 4.")
        # A player pays at most $1 a hand for thrown-in cards, and every euchre or renege
        # bump ($1, or $2 for a loner) gives the other side at least 2 points.
        against = points_b if SIDE_OF_SEAT[seat] == A else points_a
        if dollars < 0 or dollars > hands + against:
            raise ImplausibleSheet(
                f"Seat {seat} cannot owe ${dollars} in bumps when the other side scored "
                f"{against} points in {hands} hands. Check the sheet.")
    end = "time" if hands < fmt.hands_per_game else "sheet"
    return _finish(fmt, points_a, points_b, hands, end, tie_winner, dict(bumps))
