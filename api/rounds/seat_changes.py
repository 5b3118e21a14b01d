"""Changing who sits where once a round is seated: the organizer's swap of two entrants before
a table's first hand, and the correction of players who sat in each other's seats and played
hands before anyone noticed (RULES.md §4, "Seat swaps")."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm.attributes import flag_modified

from ..core.common import audit, game_label, get_round, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Game, Match, Player, Result, Round, Team
from ..games.game_state import sides_view, write_results
from ..games.game_writes import check_version, commit_and_view, later_round, locked_game, writable
from ..rules import games as rgames
from ..rules.presets import Preset
from ..rules.seats import SEATS_OF, SIDE_OF_SEAT, partner_of
from .planning import player_stays, team_stays


def _started(match: Match) -> bool:
    """Whether anything is recorded at the table: a hand, a penalty, a sheet or a forfeit."""
    return any(g.entries or g.hands_played or g.from_sheet or g.forfeited_by
               for g in match.games)


def _rewrite(matches: list[Match], preset: Preset) -> None:
    """After a seat change: each game's rows in `results` name the new occupants (where the
    game has rows yet), and each game's version moves on, so a phone holding the old seats
    reloads them."""
    db.session.flush()
    for match in matches:
        for seat in match.seats:
            db.session.expire(seat, ["player"])
        db.session.expire(match, ["team_a", "team_b"])
        ids = [g.id for g in match.games]
        written = set(db.session.execute(
            select(Result.game_id).where(Result.game_id.in_(ids)).distinct()).scalars())
        for game in match.games:
            if game.id in written:
                write_results(game, preset)
            flag_modified(game, "bumps")


def _names(match: Match) -> dict[int, str]:
    return {s.seat: s.player.name if s.player else "Ghost" for s in match.seats}


# --- before the first hand: two seated entrants change places ---------------------------------

def _player_place(round_: Round, player_id: int):
    for match in round_.matches:
        for seat in match.seats:
            if seat.player_id == player_id:
                return match, seat
    raise Invalid(f"Player {player_id} is not seated in {round_.label}.", code="not-seated")


def _team_place(round_: Round, team_id: int):
    for match in round_.matches:
        for side in SEATS_OF:
            if getattr(match, f"team_{side.lower()}_id") == team_id:
                return match, side
    raise Invalid(f"Team {team_id} is not seated in {round_.label}.", code="not-seated")


def swap_entrants(round_id: int, principal: Principal, first: int, second: int) -> Round:
    """Two seated entrants (players, or teams in a team format) change places, within a table
    or across two, as long as neither table has anything recorded yet."""
    event_id = db.session.execute(
        select(Round.event_id).where(Round.id == round_id)).scalar_one_or_none()
    if event_id is None:
        raise not_found(f"Round {round_id}")
    event = lock_event(event_id)
    round_ = get_round(round_id)
    preset = preset_of(event)
    if first == second:
        raise Invalid("Name two different entrants to swap.", code="same-entrant")
    if preset.movement == "league-schedule":
        raise Conflict("League matches follow the season's schedule; to seat a substitute, "
                       "change the seat at the match instead.", code="league-schedule")
    if round_.status != "playing":
        raise Conflict(f"{round_.label} is {round_.status}: seats can be swapped only in a "
                       "round being played, before its tables' first hands.",
                       code="round-not-playing")
    if preset.team_entry:
        (one, side_one), (two, side_two) = _team_place(round_, first), _team_place(round_, second)
    else:
        (one, seat_one), (two, seat_two) = _player_place(round_, first), \
            _player_place(round_, second)
    for match in dict.fromkeys((one, two)):
        if _started(match):
            raise Conflict(f"Hands are already recorded at table {match.table}, so its seats "
                           "can no longer be swapped. If players sat in the wrong seats, "
                           "correct that game's seats instead (Corrections).",
                           code="hands-recorded")
    _keep_stayers(event, preset, {first: (one, two), second: (two, one)})
    before = {"a": _where(one, first, preset), "b": _where(two, second, preset)}
    if preset.team_entry:
        seated_one = [s for s in one.seats if s.seat in SEATS_OF[side_one]]
        seated_two = [s for s in two.seats if s.seat in SEATS_OF[side_two]]
        players_one = [s.player_id for s in seated_one]
        players_two = [s.player_id for s in seated_two]
        setattr(one, f"team_{side_one.lower()}_id", second)
        setattr(two, f"team_{side_two.lower()}_id", first)
        for seat, player in zip(seated_one, players_two, strict=True):
            seat.player_id = player
        for seat, player in zip(seated_two, players_one, strict=True):
            seat.player_id = player
    else:
        seat_one.player_id, seat_two.player_id = second, first
    _rewrite(list(dict.fromkeys((one, two))), preset)
    audit(event.id, principal, "swap-seats", "round", round_.number, before=before,
          after={"a": _where(two, first, preset), "b": _where(one, second, preset)},
          round_number=round_.number, table=one.table if one is two else None)
    db.session.commit()
    return round_


def _keep_stayers(event, preset: Preset, moves: dict[int, tuple[Match, Match]]) -> None:
    """An entrant who stays at a table (an accommodation, RULES.md §4) never changes table: a
    swap that would take one from their table to another is refused, naming them and the
    table. A swap within the table, or one bringing them to their own table, is fine. To move
    them anyway, the organizer first sets them to "Moves as usual" (Players)."""
    moving = {e: (here, there) for e, (here, there) in moves.items()
              if here.table != there.table}
    if not moving:
        return
    if preset.team_entry:
        stays = team_stays(event, list(db.session.execute(
            select(Team).where(Team.id.in_(moving))).scalars()))
        model = Team
    else:
        stays = player_stays(event, list(db.session.execute(
            select(Player).where(Player.id.in_(moving))).scalars()))
        model = Player
    for entrant, (here, there) in moving.items():
        if entrant not in stays:
            continue
        table = stays[entrant] or here.table
        if there.table == table:
            continue
        name = db.session.get(model, entrant).name
        raise Conflict(f"{name} stays at table {table} (an accommodation): this swap would move "
                       f"them to table {there.table}. Swap them with someone at table {table}, "
                       "or, if they can move after all, first set them to \"Moves as "
                       "usual\" (Players).", code="stays-at-table", entrant_id=entrant,
                       entrant=name, stays_at=table)


def _where(match: Match, entrant: int, preset: Preset) -> dict:
    """Where an entrant sits, for the audit log: the table, and the seat or side."""
    if preset.team_entry:
        side = "A" if match.team_a_id == entrant else "B"
        return {"entrant": entrant, "table": match.table, "side": side}
    seat = next((s.seat for s in match.seats if s.player_id == entrant), None)
    return {"entrant": entrant, "table": match.table, "seat": seat}


# --- after hands were played: players who sat in each other's seats --------------------------

def correct_seats(game_id: int, principal: Principal, seats: list[int],
                  if_match: str | None) -> dict:
    """The players in two seats sat in each other's places: swap them in the game's match,
    keeping every hand as entered. Hands are stored by side and seat, so each hand's points
    (and a seat's loner, bumps or deal) now belong to the player who really sat there; the
    rows the standings read are written afresh. In a team format partners sit opposite, so
    two seats on different sides mean the two teams sat on each other's sides: both pairs of
    players change places and the teams change sides."""
    event, game, preset = locked_game(game_id)
    writable(game, principal)
    check_version(game, if_match)
    first, second = seats
    if first == second:
        raise Invalid("Name two different seats to swap.", code="same-seat")
    match = game.match
    by_seat = {s.seat: s for s in match.seats}
    for number in (first, second):
        if number not in by_seat or by_seat[number].player_id is None:
            raise Conflict(f"Seat {number} at table {match.table} is the ghost's; a wrong-seat "
                           "correction swaps two players.", code="ghost-seat")
    across = SIDE_OF_SEAT[first] != SIDE_OF_SEAT[second]
    if across:
        _check_result_unused(game, preset)
    pairs = [(first, second)]
    if preset.team_entry and across:
        pairs.append((partner_of(first), partner_of(second)))
        match.team_a_id, match.team_b_id = match.team_b_id, match.team_a_id
    before = _names(match)
    for one, two in pairs:
        by_seat[one].player_id, by_seat[two].player_id = \
            by_seat[two].player_id, by_seat[one].player_id
    _rewrite([match], preset)
    after = _names(match)
    changed = sorted({seat for pair in pairs for seat in pair})
    audit(event.id, principal, "correct-seats", "game", game.id,
          before={"seats": {str(s): before[s] for s in changed}},
          after={"seats": {str(s): after[s] for s in changed}, "game": game.number,
                 "hands_kept": game.entries},
          round_number=match.round.number, table=match.table)
    return commit_and_view(game)


def _check_result_unused(game: Game, preset: Preset) -> None:
    """Players changing sides change who won: refused once a later round was seated from the
    result (the movement already used it)."""
    round_ = game.match.round
    later = later_round(round_)
    decided = [g for g in game.match.games if g.winner is not None]
    moved = preset.moves_by_winner or game.stage != rgames.REGULAR
    if later is None or not decided or not moved:
        return
    names = {side: view["name"] for side, view in sides_view(game.match).items()}
    winner = decided[-1].winner
    raise Conflict(f"{later.label} was seated from this result ({names[winner]} won "
                   f"{game_label(game).lower()}); players changing sides would change who "
                   "won, so this correction cannot be made now. Swapping partners (seats on "
                   "the same side) is still possible.", code="winner-used")
