"""What a game's changes tell webhooks (`core.hooks.NEWS`, in the change's transaction): the
data of each kind of news, built in one place for the short and the long way alike."""

from __future__ import annotations

from ..core.hooks import NEWS


def hands_stored(event_id: int, game_id: int, table: int, hands: list[tuple[str, int]],
                 state, agreed: dict | None = None) -> None:
    """New hands stored (one, or a paper sheet's): the game's points after them; standings
    changed too when they ended the game. `agreed` (`agreement`): the hands are an entry
    both sides made alike, told as `game.agreed` with the points after them."""
    points = {"A": state.points_a, "B": state.points_b}
    data = {"event_id": event_id, "game_id": game_id, "table": table,
            "hands": [{"id": hand_id, "number": number} for hand_id, number in hands],
            "points": points, "hands_played": state.hands_played,
            "over": state.end is not None, "winner": state.winner}
    news = [("hand.stored", data)]
    if agreed is not None:
        news.insert(0, ("game.agreed", {**agreed, "points": points, "winner": state.winner}))
    if state.end is not None:
        news.append(("standings.changed", {"event_id": event_id, "game_id": game_id,
                                           "why": "game over"}))
    NEWS(event_id, news)


def agreement(game, **more) -> dict:
    """What `game.agreed` says of an entry both sides agreed on, less the points and the
    winner, which `hands_stored` adds once the hands are stored."""
    return {"event_id": game.event_id, "game_id": game.id, "table": game.match.table,
            "round": game.match.round.number, **more}


def game_changed(event_id: int, game, kind: str, **more) -> None:
    """A game agreed (signed off, or a hand both sides entered alike), or its result changed
    by a ruling (standings.changed), or a mismatch or a call at its table."""
    NEWS(event_id, [(kind, {"event_id": event_id, "game_id": game.id,
                            "table": game.match.table, "round": game.match.round.number,
                            "points": {"A": game.points_a, "B": game.points_b},
                            "winner": game.winner, **more})])
