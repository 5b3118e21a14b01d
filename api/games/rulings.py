"""The organizer's rulings on a game (RULES.md §7): points to a side, a forfeit, a protest
upheld (the protested side forfeits) or rejected, each with its reason. A ruling is part of
the result: the game's points and winner (and so its match, the standings and the
leaderboard, which read them) change with it, the game says it is ruled, the audit log,
scoresheets and exports show it. Withdrawing one (with a reason too) undoes its effect."""

from __future__ import annotations

from sqlalchemy import select

from ..core.common import audit, game_label
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Game, Protest, Ruling, utcnow
from .game_state import compute_state, game_view
from .game_writes import locked_game, lower_first, store_result, unsigned_note
from .news import game_changed
from .result_notes import ruling_view
from .verification import set_aside_waiting

ADJUST, FORFEIT, UPHELD, REJECTED = "adjust", "forfeit", "protest_upheld", "protest_rejected"
KINDS = (ADJUST, FORFEIT, UPHELD, REJECTED)
FORFEITS = (FORFEIT, UPHELD)  # the side named forfeits the game


def _check_body(kind: str, side: str | None, points: int | None) -> None:
    if kind in (ADJUST, FORFEIT, UPHELD) and side is None:
        what = {ADJUST: "gets the points", FORFEIT: "forfeits",
                UPHELD: "forfeits (the protested team's side)"}[kind]
        raise Invalid(f"Name the side that {what}: side 'A' or 'B'.", code="side-required",
                      errors={"side": ["Required for this kind of ruling."]})
    if kind == ADJUST and not points:
        raise Invalid("An adjustment gives a side some points: send points, a whole number "
                      "other than 0 (negative takes points away).", code="points-required",
                      errors={"points": ["Required, not 0, for an adjustment."]})
    if kind != ADJUST and points:
        raise Invalid(f"A {kind.replace('_', ' ')} ruling carries no points; send "
                      "kind 'adjust' to give a side points.", code="points-not-allowed",
                      errors={"points": ["Only an adjustment has points."]})


def _apply(game: Game, ruling: Ruling, sign: int) -> None:
    """Put a ruling's effect on the game (sign 1) or take it off (sign -1)."""
    if ruling.kind == ADJUST:
        column = f"adjust_{ruling.side.lower()}"
        setattr(game, column, (getattr(game, column) or 0) + sign * ruling.points)
    elif ruling.kind in FORFEITS:
        if sign > 0:
            if game.forfeited_by is not None:
                raise Conflict(f"{game_label(game)} is already forfeited by side "
                               f"{game.forfeited_by}; withdraw that first.",
                               code="already-forfeited")
            game.forfeited_by = ruling.side
        elif game.forfeited_by == ruling.side:
            game.forfeited_by = None


def _standing(game_id: int, but: int | None = None) -> list[Ruling]:
    query = select(Ruling).where(Ruling.game_id == game_id, Ruling.withdrawn_at.is_(None))
    if but is not None:
        query = query.where(Ruling.id != but)
    return list(db.session.execute(query).scalars())


def _store(event_id: int, game: Game, preset, principal: Principal, action: str,
           ruling: Ruling, before: dict) -> dict:
    game.ruled = bool(_standing(game.id))
    unsigned = store_result(game, preset, compute_state(game, preset=preset))
    db.session.flush()
    audit(event_id, principal, action, "game", game.id, before=before,
          after={"ruling": ruling_view(ruling), "points": [game.points_a, game.points_b],
                 "winner": game.winner, **unsigned_note(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    db.session.flush()
    game_changed(event_id, game, "standings.changed", why=f"ruling {action}")
    answer = {**ruling_view(ruling), "game": game_view(game)}
    db.session.commit()
    return answer


def add_ruling(game_id: int, principal: Principal, body: dict,
               protest: Protest | None = None) -> dict:
    """Record a ruling (the route lets only the organizer); `protest`: the league protest
    it decides (league/protests.py), marked upheld or rejected with it."""
    kind, side, points = body["kind"], body.get("side"), body.get("points")
    _check_body(kind, side, points)
    event, game, preset = locked_game(game_id)
    round_ = game.match.round
    if round_.status == "scheduled":
        raise Conflict(f"{round_.label} has not started; a ruling is on a game being played "
                       "or played.", code="round-not-started")
    before = {"points": [game.points_a, game.points_b], "winner": game.winner}
    ruling = Ruling(event_id=event.id, game_id=game.id, kind=kind, side=side, points=points,
                    reason=body["reason"], created_by=principal.key_id, created_at=utcnow(),
                    protest_id=protest.id if protest is not None else None)
    _apply(game, ruling, 1)
    if kind in FORFEITS:  # hands still waiting to be agreed will never count now
        set_aside_waiting(game, principal, "the game was forfeited")
    db.session.add(ruling)
    db.session.flush()
    if protest is not None:
        protest.status = "upheld" if kind == UPHELD else "rejected"
        protest.ruled_at, protest.ruling_reason = ruling.created_at, ruling.reason
    return _store(event.id, game, preset, principal, "ruling", ruling, before)


def withdraw_ruling(game_id: int, ruling_id: int, principal: Principal, reason: str) -> dict:
    """Withdraw a standing ruling, with why: its effect on the game goes (a protest it
    decided waits for a ruling again); the ruling stays listed as withdrawn."""
    event, game, preset = locked_game(game_id)
    ruling = db.session.get(Ruling, ruling_id)
    if ruling is None or ruling.game_id != game.id:
        raise not_found(f"Ruling {ruling_id} on {lower_first(game_label(game))}")
    if ruling.withdrawn_at is not None:
        raise Conflict(f"Ruling {ruling_id} was already withdrawn "
                       f"({ruling.withdrawn_reason}).", code="ruling-withdrawn")
    before = {"points": [game.points_a, game.points_b], "winner": game.winner}
    _apply(game, ruling, -1)
    ruling.withdrawn_at, ruling.withdrawn_reason = utcnow(), reason
    if ruling.protest_id is not None:
        protest = db.session.get(Protest, ruling.protest_id)
        if protest is not None:
            protest.status, protest.ruled_at, protest.ruling_reason = "waiting", None, None
    return _store(event.id, game, preset, principal, "withdraw-ruling", ruling, before)


def list_rulings(game_id: int) -> list[dict]:
    """Every ruling on a game, withdrawn ones too, oldest first."""
    if db.session.get(Game, game_id) is None:
        raise not_found(f"Game {game_id}")
    return [ruling_view(r) for r in db.session.execute(
        select(Ruling).where(Ruling.game_id == game_id).order_by(Ruling.id)).scalars()]
