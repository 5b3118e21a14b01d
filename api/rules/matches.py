"""One match: the games two sides play in a round, when it is decided, and league week points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .presets import Preset
from .seats import A, B


@dataclass(frozen=True)
class MatchState:
    """Games won per side, how many games the match needs, and whether it is decided."""

    games_won_a: int
    games_won_b: int
    games_needed: int  # games that must be played in all, as far as is known now
    over: bool
    winner: str | None

    def games_won(self, side: str) -> int:
        return self.games_won_a if side == A else self.games_won_b


def match_state(games_per_match: int, winners: Sequence[str | None], *,
                best_of: bool = False) -> MatchState:
    """Where a match stands given each game's winner so far (None: not finished).

    Every game is played when `best_of` is false (a league week's 3 games). A best-of
    match stops as soon as one side has won a majority (no third game after 2-0).
    """
    won_a = sum(1 for w in winners if w == A)
    won_b = sum(1 for w in winners if w == B)
    if best_of:
        majority = games_per_match // 2 + 1
        if max(won_a, won_b) >= majority:
            return MatchState(won_a, won_b, won_a + won_b, True, A if won_a > won_b else B)
        return MatchState(won_a, won_b, games_per_match, False, None)
    finished = sum(1 for w in winners if w is not None)
    over = finished >= games_per_match
    winner = None
    if over and won_a != won_b:
        winner = A if won_a > won_b else B
    return MatchState(won_a, won_b, games_per_match, over, winner)


def deciding_game(games_per_match: int, winners: Sequence[str | None]) -> int | None:
    """In a best-of match, the number of the game that decided it (1-based): the first at
    which a side holds a majority. None while it is undecided. Games after it are not played."""
    majority = games_per_match // 2 + 1
    won = {A: 0, B: 0}
    for number, winner in enumerate(winners, start=1):
        if winner in won:
            won[winner] += 1
            if won[winner] >= majority:
                return number
    return None


def week_points(preset: Preset, games_won: int, games_played: int | None = None) -> int:
    """League standings points for a week: per game won, plus the bonus for taking the match."""
    played = preset.games_per_match if games_played is None else games_played
    bonus = preset.match_win_bonus if games_won * 2 > played else 0
    return games_won * preset.points_per_game_won + bonus
