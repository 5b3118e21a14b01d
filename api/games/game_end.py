"""Ending a game: the WEC game sheet, a level game's settlement, the opponents' sign-off and
the organizer's reopening of it."""

from __future__ import annotations

from ..core.common import audit, game_label
from ..core.errors import Conflict, Invalid
from ..core.keys import Principal
from ..core.models import Game, utcnow
from ..rules import games as rgames
from ..rules import seats
from ..rules.presets import MODE_WORDS
from .game_state import compute_state, fmt_of, side_players
from .game_writes import (
    check_version,
    commit_and_view,
    locked_game,
    lower_first,
    store_result,
    unsigned_note,
    writable,
)
from .news import game_changed


def enter_sheet(game_id: int, principal: Principal, body: dict,
                if_match: str | None = None) -> dict:
    """The WEC game sheet: final points and bumps per seat instead of hand by hand. Replacing
    a sheet already entered needs the game's version (If-Match), as any edit does."""
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    if game.from_sheet:
        check_version(game, if_match)
    if not preset.game_sheet:
        raise Conflict("This format has no game sheet; enter the game hand by hand.",
                       code="no-game-sheet")
    if game.hands:
        raise Conflict(f"{game_label(game)} already has {len(game.hands)} hands entered; "
                       "delete them first or keep entering hand by hand.", code="has-hands")
    before = {"points": [game.points_a, game.points_b], "bumps": game.bumps,
              "from_sheet": game.from_sheet}
    bumps = {int(k): v for k, v in (body.get("bumps") or {}).items()}
    tie = body.get("tie")
    label = game_label(game)
    state = rgames.sheet_game(fmt_of(game), body["points"]["A"], body["points"]["B"], bumps,
                              hands_played=body.get("hands_played"),
                              tie_winner=tie["winner"] if tie else game.tie_winner, label=label,
                              values=rgames.sheet_hand_values(preset),
                              time_called=game.match.round.time_called_at is not None)
    if tie:
        sheet_tie(game, state, tie, label)
    game.from_sheet = True
    unsigned = store_result(game, preset, state, why="game sheet entered")
    if before["from_sheet"]:
        audit(event.id, principal, "edit-sheet", "game", game.id, before=before,
              after={"points": [game.points_a, game.points_b], "bumps": game.bumps,
                     **unsigned_note(unsigned)},
              round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def sheet_tie(game: Game, state: rgames.GameState, tie: dict, label: str) -> None:
    """A sheet's playoff hand or card draw, stored with it: only on a level sheet."""
    if game.stage == rgames.CHAMPIONSHIP:
        raise Conflict("A level championship is settled by a playoff round; the organizer "
                       "starts it from the rounds page.", code="championship-playoff")
    if not state.level:
        raise Invalid(f"{label} is not level ({state.points_a}-{state.points_b}): side "
                      f"{state.winner} won it, so there is no playoff hand or card draw to "
                      "record. Check the points, or leave the playoff out.",
                      code="not-level", errors={"tie": ["Only a level game has a playoff."]})
    rgames.settle_tie(state, tie["method"], tie["winner"], label)
    game.tie_method, game.tie_winner = tie["method"], tie["winner"]


def clear_sheet(game_id: int, principal: Principal, if_match: str | None) -> dict:
    """Remove a sheet entry (with the game's version, If-Match), to enter hand by hand."""
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    check_version(game, if_match)
    if not game.from_sheet:
        raise Conflict(f"{game_label(game)} was not entered from a sheet.", code="no-sheet")
    before = {"points": [game.points_a, game.points_b], "bumps": game.bumps}
    game.from_sheet = False
    store_result(game, preset, compute_state(game, [], preset), why="game sheet cleared")
    audit(event.id, principal, "clear-sheet", "game", game.id, before=before,
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def settle_tie(game_id: int, principal: Principal, method: str, winner: str,
               if_match: str | None = None) -> dict:
    """Record who won a level game's playoff hand or card draw (its points stay level).
    Changing a settlement already recorded needs the game's version (If-Match)."""
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    if game.tie_winner is not None and (game.tie_method, game.tie_winner) != (method, winner):
        check_version(game, if_match)
    state = compute_state(game, preset=preset)
    if game.stage == rgames.CHAMPIONSHIP:
        raise Conflict("A level championship is settled by a playoff round; the organizer "
                       "starts it from the rounds page.", code="championship-playoff")
    rgames.settle_tie(state, method, winner, game_label(game))
    before = {"method": game.tie_method, "winner": game.tie_winner}
    game.tie_method, game.tie_winner = method, winner
    unsigned = store_result(game, preset, compute_state(game, preset=preset), why="tie settled")
    audit(event.id, principal, "settle-tie", "game", game.id, before=before,
          after={"method": method, "winner": winner, **unsigned_note(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def sign_off(game_id: int, principal: Principal, signed_by: str) -> dict:
    """The opponents confirm the game's result; runners cannot change it afterwards."""
    event, game, preset = locked_game(game_id)
    if not preset.signs_off:
        raise Conflict(f"This event checks scores by {MODE_WORDS[preset.verification]}: both "
                       f"sides agree each hand of {lower_first(game_label(game))}, so it "
                       "needs no sign-off.", code="no-sign-off")
    writable(game, principal, organizer_override=False)
    if game.end is None:
        raise Conflict(f"{game_label(game)} is still being played; sign it off at the end.",
                       code="game-not-over")
    if game.winner is None and game.stage != rgames.CHAMPIONSHIP:
        raise Conflict(f"{game_label(game)} is level: record the playoff hand or card draw "
                       "before signing off.", code="tie-unsettled")
    signed_by = _signer(game, signed_by)
    game.signed_off_at = utcnow()
    game.signed_off_by = signed_by
    match = game.match
    if all(g.signed_off_at is not None for g in match.games) and match.status == "over":
        match.signed_off_at, match.signed_off_by = game.signed_off_at, signed_by
    audit(event.id, principal, "sign-off", "game", game.id, after={"signed_by": signed_by},
          round_number=match.round.number, table=match.table)
    game_changed(event.id, game, "game.agreed", how="signed off", by=signed_by)
    return commit_and_view(game)


def _signer(game: Game, name: str) -> str:
    """Who signs: a player (or the team) of the side that lost, confirming the winners' result
    (either side when a championship ends level); by name as the table knows it."""
    match = game.match
    seated = side_players(match)
    teams = {"A": match.team_a, "B": match.team_b}
    sides = seats.signing_sides(game.winner, level_allowed=game.stage == rgames.CHAMPIONSHIP)
    known = {side: [s.player.name for s in seated[side] if s.player is not None]
             + ([teams[side].name] if teams[side] is not None else []) for side in "AB"}
    wanted = name.strip().casefold()
    for side in sides:
        for candidate in known[side]:
            if candidate.casefold() == wanted:
                return candidate
    allowed = ", ".join(n for side in sides for n in known[side])
    if any(n.casefold() == wanted for side in "AB" for n in known[side]):
        why = f"{name.strip()} is on the side that won; the other side confirms the result"
    else:
        why = f"'{name.strip()}' is not playing at table {match.table}"
    raise Invalid(f"{why}. Sign off as: {allowed}.", code="not-a-signer",
                  errors={"by": ["Not a player of the side that signs this game off."]})


def reopen(game_id: int, principal: Principal) -> dict:
    """Undo a sign-off so the game can be corrected (the route lets only the organizer)."""
    event, game, preset = locked_game(game_id)
    before = {"signed_off_by": game.signed_off_by}
    game.signed_off_at = game.signed_off_by = None
    game.match.signed_off_at = game.match.signed_off_by = None
    audit(event.id, principal, "reopen", "game", game.id, before=before,
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)
