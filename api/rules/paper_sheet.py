"""A game entered from its paper scoresheet: all its hands checked as a whole, row by row.

Loner Seekers rule 17 keeps phones away from the table, so the players' paper sheets are typed
in afterwards, one game at a time. Each row is a hand (maker, alone, tricks, renege). A sheet
is taken whole or not at all: every mistake is reported on its row, so the person typing can
fix row 5 without guessing, and nothing is stored until every row is right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import IllegalHand
from .games import GameFormat, GameState, add_hand, play_game
from .hands import Hand, HandScore, score_hand
from .presets import Preset


@dataclass(frozen=True)
class SheetCheck:
    """The verdict on a sheet's rows: the game's state after them (None when a row is wrong),
    each row's score (None for a row the rules refuse) and the mistakes by row (0-based)."""

    state: GameState | None
    scores: list[HandScore | None]
    errors: dict[int, str] = field(default_factory=dict)
    short: str | None = None  # the rows are right but do not end the game (time not called)

    @property
    def ok(self) -> bool:
        return not self.errors and self.short is None


def short_sheet(state: GameState, rows: int, label: str) -> str:
    """Why a sheet whose rows leave the game unfinished is refused, in words a scorekeeper can
    act on: how many hands the game has and how many the sheet brought."""
    fmt = state.format
    sheet = f"The sheet has {rows} hand{'' if rows == 1 else 's'}"
    if fmt.hands_per_game is not None:
        missing = fmt.hands_per_game - state.hands_played
        return (f"{sheet}, but {lower_first(label)} has {fmt.hands_per_game}: {missing} "
                f"{'is' if missing == 1 else 'are'} missing. Nothing was stored. Check the "
                "sheet for a hand left out or a row typed twice; if the round's time was "
                "called before the last hands were played, the organizer calls time first.")
    return (f"{sheet} and no side reached {fmt.target_points} ({state.points_a}-"
            f"{state.points_b}), so {lower_first(label)} is not finished. Nothing was stored. "
            "Type its remaining hands, or, if the round's time was called, the organizer "
            "calls time first.")


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def check_rows(fmt: GameFormat, earlier: Sequence[HandScore], rows: Sequence[Hand],
               preset: Preset, *, label: str = "This game", time_called: bool = False,
               tie_winner: str | None = None, whole: bool = False) -> SheetCheck:
    """Score each row and play them after the game's `earlier` hands.

    A row the rules refuse keeps its reason; a hand after the game ended (its target reached
    or its hands all played, before the sheet or at an earlier row) is refused on its row.
    Time called does not end the game before the rows: a paper sheet records the hands played
    before time was called. The state returned is the one `play_game` gives for all the hands.

    With `whole`, the sheet must end the game: a sheet of 7 hands for a game of 8 (a hand left
    out, or rows shifted up by a lost one) is refused as `short` unless time was called.
    """
    scores: list[HandScore | None] = []
    errors: dict[int, str] = {}
    for number, hand in enumerate(rows):
        try:
            scores.append(score_hand(hand, preset))
        except IllegalHand as refused:
            scores.append(None)
            errors[number] = refused.message
    state = play_game(fmt, earlier, label=label)
    ended_at = None if not state.over else -1  # the row after which the game was over
    for number, score in enumerate(scores):
        if score is None:
            continue
        if state.over and score.counts:
            if ended_at == -1:
                errors[number] = f"{state.why_over(label)} No more hands can be added."
            else:
                reason = state.why_over().split(": ", 1)[-1].rstrip(".")
                errors[number] = (f"The game ended at row {ended_at + 1} ({reason}), so this "
                                  "row cannot be one of its hands. Check the sheet.")
            continue
        state = add_hand(state, score, label)
        if state.over and ended_at is None:
            ended_at = number
    if errors:
        return SheetCheck(None, scores, errors)
    if whole and not time_called and not state.over:
        return SheetCheck(None, scores, {}, short_sheet(state, len(rows), label))
    final = play_game(fmt, [*earlier, *scores], time_called=time_called,
                      tie_winner=tie_winner, label=label)
    return SheetCheck(final, scores, {})
