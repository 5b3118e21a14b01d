"""A night's play read back from a file, checked by the rules before the import commits: each
hand's points follow from the hand as played (its maker, tricks, loner, renege), each game's
totals, end and winner from its hands (or its sheet, forfeit, tie settlement and rulings,
the way the app works them out after every change), and each result row, what the standings
add up, from its game. A file whose rows contradict its hands would show standings no game
produced: it is refused (422), naming the rows, and nothing is stored."""

from __future__ import annotations

from collections import defaultdict
from types import SimpleNamespace

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..core.common import preset_of
from ..core.db import db
from ..core.models import Event, Game, Match
from ..games.game_state import compute_state, rules_hand
from ..games.result_notes import ruled_state
from ..rules.errors import RuleError
from ..rules.hands import PLAY, HandScore, score_hand
from .checks import Faults


def _scores(hands: list[tuple[int, dict]], preset, where: str,
            faults: Faults) -> list[HandScore] | None:
    """A game's hands ((place in the file, row) each, in order) scored again: their scores as
    stored, or None when one does not score as stored."""
    scores = []
    for n, hand in hands:
        try:
            stored = HandScore(hand["points_a"], hand["points_b"], hand["result"],
                               hand["outcome"], counts=hand["kind"] == PLAY,
                               bumps={int(k): v for k, v in (hand["bumps"] or {}).items()})
            score = score_hand(rules_hand(SimpleNamespace(**hand)), preset)
        except (RuleError, TypeError, ValueError, AttributeError) as illegal:
            faults.add(f"{where}.hands[{n}]", f"breaks the rules: {illegal}")
            return None
        if (score.points_a, score.points_b, score.result, score.bumps) != \
                (stored.points_a, stored.points_b, stored.result, stored.bumps):
            faults.add(f"{where}.hands[{n}]", f"its points ({stored.points_a}-"
                       f"{stored.points_b}, {stored.result}) are not what the hand as played "
                       f"scores ({score.points_a}-{score.points_b}, {score.result})")
            return None
        scores.append(stored)
    return scores


def _shown(points_a, points_b, winner, end, hands_played) -> str:
    over = f"over ({end}), won by {winner or 'nobody'}" if end else "not over"
    return f"{points_a}-{points_b} after {hands_played} hands, {over}"


def check_play(event_id: int, night: dict, where: str, moved: dict[int, int]) -> None:
    """The night's hands, games and result rows (the file's, `night`) checked against the
    rules, with the night's games as stored (in the import's transaction) for their round;
    `moved`: each game's id in the file -> its id stored."""
    preset = preset_of(db.session.get(Event, event_id))
    stored = {g.id: g for g in db.session.execute(
        select(Game).where(Game.event_id == event_id)
        .options(selectinload(Game.match).selectinload(Match.round))).scalars()}
    hands = defaultdict(list)
    for n, hand in enumerate(night["hands"]):
        hands[hand["game_id"]].append((n, hand))
    faults = Faults()
    games = {}
    for n, row in enumerate(night["games"]):
        game = games[row["id"]] = stored[moved[row["id"]]]
        scores = _scores(sorted(hands[row["id"]], key=lambda h: h[1]["number"]), preset,
                         where, faults)
        if scores is None:
            continue
        try:
            state = ruled_state(game, compute_state(game, scores, preset))
        except RuleError as illegal:
            faults.add(f"{where}.games[{n}]", f"breaks the rules: {illegal}")
            continue
        played = (state.points_a, state.points_b, state.winner, state.end, state.hands_played)
        kept = (game.points_a, game.points_b, game.winner, game.end, game.hands_played)
        if played != kept:
            faults.add(f"{where}.games[{n}]", f"is stored as {_shown(*kept)}, but its hands "
                       f"make it {_shown(*played)}")
    faults.raise_any()
    for n, row in enumerate(night["results"]):
        game = games[row["game_id"]]
        points = {"A": game.points_a, "B": game.points_b}
        other = "B" if row["side"] == "A" else "A"
        won = None if game.winner is None else game.winner == row["side"]
        if (row["points"], row["against"], row["won"], row["forfeited"]) != \
                (points[row["side"]], points[other], won, game.forfeited_by is not None):
            faults.add(f"{where}.results[{n}]", f"says side {row['side']} scored "
                       f"{row['points']}-{row['against']}, but its game stands "
                       f"{points[row['side']]}-{points[other]}")
    faults.raise_any()
