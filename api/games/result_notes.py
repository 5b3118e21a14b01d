"""What rulings and corrections add to a game: the standing point adjustments on its state
(`ruled_state`), and what its view says beyond the score: until when the table may correct
it (the correction window, RULES.md §7), the organizer's reasons for later changes, the
standing rulings and a playoff game's protests. Uses no other game module."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy import select

from ..core.common import preset_of
from ..core.db import db
from ..core.models import Event, Game, Player, Protest, Ruling, Team, utcnow
from ..rules import games as rgames


def ruled_state(game: Game, state: rgames.GameState) -> rgames.GameState:
    """The state as played with the organizer's standing point adjustments added (a
    forfeit's result stands as it is). A finished game goes to the side with more points
    once adjusted; level after the adjustment, it keeps the winner it had as played."""
    add_a, add_b = game.adjust_a or 0, game.adjust_b or 0
    if (add_a, add_b) == (0, 0) or state.end == "forfeit":
        return state
    points_a, points_b = state.points_a + add_a, state.points_b + add_b
    winner, level = state.winner, state.level
    if state.end is not None and points_a != points_b:
        winner, level = ("A" if points_a > points_b else "B"), False
    return replace(state, points_a=points_a, points_b=points_b, winner=winner, level=level)


def correctable_until(game) -> datetime | None:
    """When the table's correction window closes: `correction_minutes` (an event setting)
    after the game's round closed; None while the round has not closed (the table may change
    its games while the round is in play)."""
    round_ = game.match.round
    closed_at = getattr(round_, "closed_at", None)
    if round_.status != "closed" or closed_at is None:
        return None
    event = db.session.get(Event, game.event_id)
    return closed_at + timedelta(minutes=preset_of(event).correction_minutes)


def correction_view(game) -> dict:
    """What the game view says of corrections and rulings: until when the table may change
    the game, whether it may now, the organizer's reasons for changes made after that, the
    standing rulings and, before and after a playoff game, the protests lodged about it."""
    until = correctable_until(game)
    status = game.match.round.status
    ruled = bool(getattr(game, "ruled", False))
    return {
        "correctable_until": until,
        "correction_open": status == "playing" or (
            status == "closed" and until is not None and utcnow() < until),
        "corrections": list(getattr(game, "corrections", None) or []),
        "ruled": ruled,
        "rulings": [ruling_view(r) for r in db.session.execute(
            select(Ruling).where(Ruling.game_id == game.id, Ruling.withdrawn_at.is_(None))
            .order_by(Ruling.id)).scalars()] if ruled else [],
        "protests": [protest_view(p) for p in db.session.execute(
            select(Protest).where(Protest.game_id == game.id).order_by(Protest.id))
            .scalars()] if game.stage == rgames.PLAYOFF else [],
    }


def ruling_view(ruling: Ruling) -> dict:
    return {"id": ruling.id, "game_id": ruling.game_id, "kind": ruling.kind,
            "side": ruling.side, "points": ruling.points, "reason": ruling.reason,
            "protest_id": ruling.protest_id, "created_at": ruling.created_at,
            "withdrawn": ruling.withdrawn_at is not None, "withdrawn_at": ruling.withdrawn_at,
            "withdrawn_reason": ruling.withdrawn_reason}


def protest_view(protest: Protest) -> dict:
    def name(model, row_id):
        row = db.session.get(model, row_id)
        return row.name if row is not None else "?"

    return {"id": protest.id, "game_id": protest.game_id, "team_id": protest.team_id,
            "against_team_id": protest.against_team_id, "player_id": protest.player_id,
            "team_name": name(Team, protest.team_id),
            "against_team_name": name(Team, protest.against_team_id),
            "player_name": name(Player, protest.player_id),
            "grounds": protest.grounds, "lodged_by": protest.lodged_by,
            "status": protest.status, "lodged_at": protest.lodged_at,
            "ruled_at": protest.ruled_at, "ruling_reason": protest.ruling_reason}


def ruling_what(ruling: Ruling) -> str:
    """What a ruling does, in words, without its reason: "+3 points to side B"."""
    if ruling.kind == "adjust":
        return f"{ruling.points:+d} point{'s' if abs(ruling.points) != 1 else ''} to side " \
               f"{ruling.side}"
    if ruling.kind == "forfeit":
        return f"side {ruling.side} forfeits"
    if ruling.kind == "protest_upheld":
        return f"protest upheld, side {ruling.side} forfeits"
    return "protest rejected, the result stands"


def ruling_words(ruling: Ruling) -> str:
    """A standing ruling as the scoresheet and the exports say it."""
    return f"Ruling: {ruling_what(ruling)} ({ruling.reason})"


def event_game_notes(event_id: int) -> dict[int, list[str]]:
    """{game id: what its scoresheet says beyond the score}: the standing rulings, then the
    organizer's changes after the correction window, with their reasons."""
    notes: dict[int, list[str]] = {}
    for ruling in db.session.execute(
            select(Ruling).where(Ruling.event_id == event_id, Ruling.withdrawn_at.is_(None))
            .order_by(Ruling.id)).scalars():
        notes.setdefault(ruling.game_id, []).append(ruling_words(ruling))
    for game_id, corrections in db.session.execute(
            select(Game.id, Game.corrections).where(Game.event_id == event_id)):
        for correction in corrections or []:
            notes.setdefault(game_id, []).append(
                f"Corrected after the correction window: {correction['reason']}")
    return notes
