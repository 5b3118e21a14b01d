"""League protests (RULES.md §6): a captain (the team key) or the organizer lodges a protest
about an opposing player's eligibility before a playoff game; the game is played as
scheduled; the organizer rules later with a reason: upheld, the protested team forfeits the
game (a ruling on it, games/rulings.py); rejected, the result stands. Audited; shown on the
game, the team page and the protests list."""

from __future__ import annotations

from sqlalchemy import or_, select

from ..core.common import audit, game_label, get_event, lock_event
from ..core.db import db
from ..core.errors import Conflict, Forbidden, Invalid, not_found
from ..core.keys import TEAM, Principal
from ..core.models import Game, Player, Protest, utcnow
from ..games.entry_views import waiting_counts
from ..games.game_writes import locked_game, lower_first
from ..games.result_notes import protest_view
from ..games.rulings import REJECTED, UPHELD, add_ruling
from ..rules import games as rgames


def _protested_side(game: Game, player: Player) -> str:
    match = game.match
    if player.team_id is not None and player.team_id == match.team_a_id:
        return "A"
    if player.team_id is not None and player.team_id == match.team_b_id:
        return "B"
    raise Invalid(f"{player.name} does not play for either team at table {match.table}; a "
                  "protest names a player of the opposing team.", code="not-an-opponent",
                  errors={"player_id": ["Not on either team of this match."]})


def lodge(game_id: int, principal: Principal, body: dict) -> tuple[dict, bool]:
    """Lodge a protest before the playoff game: (the protest, whether it is new). The same
    protest lodged again while it waits is the one already lodged."""
    event, game, _preset = locked_game(game_id)
    label = lower_first(game_label(game))
    if game.stage != rgames.PLAYOFF:
        raise Conflict(f"Protests are lodged before a playoff game; {label} is a "
                       f"{game.stage} game.", code="not-a-playoff-game")
    if game.entries or game.from_sheet or game.end is not None or game.forfeited_by or \
            waiting_counts([game.id]):
        raise Conflict(f"{game_label(game)} has started (it has entries): a protest is "
                       "lodged before the game. Speak to the organizer.",
                       code="game-started")
    player = db.session.get(Player, body["player_id"])
    if player is None or player.event_id != event.id:
        raise not_found(f"Player {body['player_id']} in this event")
    side = _protested_side(game, player)
    match = game.match
    against = match.team_a_id if side == "A" else match.team_b_id
    protesting = match.team_b_id if side == "A" else match.team_a_id
    if principal.role == TEAM and principal.team_id != protesting:
        raise Forbidden("A team's captain protests about the opposing team's players, in "
                        "the team's own matches.", code="not-your-match")
    same = db.session.execute(select(Protest).where(
        Protest.game_id == game.id, Protest.player_id == player.id,
        Protest.status == "waiting")).scalar_one_or_none()
    if same is not None:
        view = protest_view(same)
        db.session.rollback()
        return view, False
    protest = Protest(event_id=event.id, game_id=game.id, team_id=protesting,
                      against_team_id=against, player_id=player.id, grounds=body["grounds"],
                      lodged_by="team" if principal.role == TEAM else "organizer",
                      status="waiting", lodged_at=utcnow())
    db.session.add(protest)
    db.session.flush()
    audit(event.id, principal, "protest", "game", game.id,
          after={"protest": protest.id, "player": player.name, "grounds": protest.grounds},
          round_number=match.round.number, table=match.table)
    view = protest_view(protest)
    db.session.commit()
    return view, True


def rule(event_id: int, protest_id: int, principal: Principal, upheld: bool,
         reason: str) -> dict:
    """The organizer's ruling on a waiting protest: upheld, the protested team forfeits the
    game; rejected, the result stands. Either way a ruling on the game, with the reason."""
    lock_event(event_id, bump=False)  # two rulings sent at once: the second sees the first
    protest = db.session.get(Protest, protest_id)
    if protest is None or protest.event_id != event_id:
        raise not_found(f"Protest {protest_id} in this event")
    if protest.status != "waiting":
        raise Conflict(f"Protest {protest_id} was already {protest.status} "
                       f"({protest.ruling_reason}); withdraw that ruling on the game first "
                       "to rule again.", code="protest-ruled")
    game = db.session.get(Game, protest.game_id)
    side = "A" if game.match.team_a_id == protest.against_team_id else "B"
    body = {"kind": UPHELD if upheld else REJECTED, "side": side if upheld else None,
            "reason": reason}
    answer = add_ruling(protest.game_id, principal, body, protest=protest)
    return {**protest_view(db.session.get(Protest, protest_id)), "ruling": answer["id"],
            "game": answer["game"]}


def event_protests(event_id: int) -> list[dict]:
    get_event(event_id)
    return [protest_view(p) for p in db.session.execute(
        select(Protest).where(Protest.event_id == event_id).order_by(Protest.id)).scalars()]


def team_protests(event_id: int, team_id: int) -> list[dict]:
    """The protests a team lodged or that were lodged against it (its team page)."""
    return [protest_view(p) for p in db.session.execute(
        select(Protest).where(Protest.event_id == event_id,
                              or_(Protest.team_id == team_id,
                                  Protest.against_team_id == team_id))
        .order_by(Protest.id)).scalars()]

