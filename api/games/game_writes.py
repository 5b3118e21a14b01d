"""What every change to a game goes through: the event's lock, who may change the game now,
its version (If-Match), a closed round's guard, saving the new state and answering with it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from ..core.common import audit, game_label, get_game, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Forbidden, Invalid, StaleVersion, VersionRequired, not_found
from ..core.keys import ORGANIZER, Principal
from ..core.models import Event, Game, Match, Round, utcnow
from ..rules import games as rgames
from ..rules.presets import Preset
from .game_state import game_view, ruled_state, save_game, sides_view
from .news import game_changed
from .result_notes import correctable_until


def locked_game(game_id: int, event_id: int | None = None) -> tuple[Event, Game, Preset]:
    """Lock the game's event first, then load the game: what is read is what is current.
    `event_id`: the game's event when the caller knows it already (the key's event)."""
    if event_id is None:
        event_id = db.session.execute(
            select(Game.event_id).where(Game.id == game_id)).scalar_one_or_none()
        if event_id is None:
            raise not_found(f"Game {game_id}")
    event = lock_event(event_id)
    game = get_game(game_id)
    if game.event_id != event.id:
        raise not_found(f"Game {game_id} in this event")
    return event, game, preset_of(event)


def writable(game: Game, principal: Principal, *, organizer_override: bool = True,
             reason: str | None = None) -> None:
    """May this key change this game now? Nobody before its round has started. The table
    (a runner's key) while its round is in play and, once the round has closed, until the
    correction window closes (`correction_minutes` after; RULES.md §7), signed off or not: a
    change that alters the result undoes the sign-off (`store_result`). After the window only
    the organizer, with a reason (`reason`, else the X-Reason the key came with), which the
    audit log and the game (its scoresheet) keep."""
    round_ = game.match.round
    if round_.status == "scheduled":
        raise Conflict(f"{round_.label} has not started yet; the organizer starts it "
                       "first.", code="round-not-started")
    until = correctable_until(game)
    closed = until is not None and utcnow() >= until
    if principal.role == ORGANIZER and (organizer_override or closed):
        if closed:
            _late_reason(game, principal, reason or principal.reason, until)
        return
    if closed:
        raise Forbidden(f"The correction window for {lower_first(game_label(game))} closed at "
                        f"{until:%H:%M} UTC ({until.isoformat(timespec='seconds')}), "
                        f"{_minutes(game)} after round {round_.number} closed. Call the "
                        "organizer to change it now.", code="correction-window-closed",
                        correctable_until=until.isoformat())


def may_take_back(game: Game) -> datetime | None:
    """A side taking back its own proposal that still waits (a hand or a change not yet
    agreed) changes no agreed result, so the correction window does not close it: the side
    that made it may withdraw it after the window too, with no reason asked of anyone
    (RULES.md §7). Refused only before the round has started. Returns when the window
    closed, when it has (for the audit log), else None."""
    round_ = game.match.round
    if round_.status == "scheduled":
        raise Conflict(f"{round_.label} has not started yet; the organizer starts it "
                       "first.", code="round-not-started")
    until = correctable_until(game)
    return until if until is not None and utcnow() >= until else None


def _minutes(game: Game) -> str:
    minutes = preset_of(db.session.get(Event, game.event_id)).correction_minutes
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _late_reason(game: Game, principal: Principal, reason: str | None, until) -> None:
    """An organizer's change after the window: refused without a reason; with one, the
    reason is kept on the game and in the audit log."""
    if not reason:
        raise Invalid(f"The correction window for {lower_first(game_label(game))} closed at "
                      f"{until.isoformat(timespec='seconds')}: say why you change it, in the "
                      "X-Reason header (percent-encoded UTF-8).", code="reason-required",
                      errors={"X-Reason": ["Required after the correction window."]})
    game.corrections = [*(game.corrections or []),
                        {"at": utcnow().isoformat(), "reason": reason,
                         "key_id": principal.key_id}]
    audit(game.event_id, principal, "late-correction", "game", game.id,
          after={"reason": reason, "window_closed_at": until},
          round_number=game.match.round.number, table=game.match.table)


def require_if_match(if_match: str | None) -> str:
    if if_match is None:
        raise VersionRequired("Send the game's version in If-Match (from its ETag) so a change "
                              "made meanwhile on another phone is not overwritten.",
                              code="if-match-required")
    return if_match


def check_version(game: Game, if_match: str | None) -> None:
    require_if_match(if_match)
    wanted = {tag.strip().removeprefix("W/").strip('"') for tag in if_match.split(",")}
    if "*" not in wanted and str(game.version) not in wanted:
        raise StaleVersion(f"{game_label(game)} was changed on another phone (now version "
                           f"{game.version}). Reload it and make the change again.",
                           code="stale", current_version=game.version)


def lower_first(label: str) -> str:
    return label[0].lower() + label[1:]


def later_round(round_: Round) -> Round | None:
    """The first round seated after this one, if any."""
    return db.session.execute(
        select(Round).where(Round.event_id == round_.event_id, Round.number > round_.number,
                            Round.status != "scheduled")
        .order_by(Round.number).limit(1)).scalar_one_or_none()


def _check_closed_round(game: Game, preset: Preset, state: rgames.GameState) -> None:
    """A closed round's results have been used (to close it, and maybe to seat the next one):
    a correction there must leave the game with a result, and, once a later round was seated
    from its winners, with the same winner."""
    round_ = game.match.round
    if round_.status != "closed":
        return
    label = lower_first(game_label(game))
    later = later_round(round_)
    if state.end is None or (state.winner is None and game.stage != rgames.CHAMPIONSHIP):
        where = (f"{state.hands_played} hands played" if state.end is None
                 else f"level at {state.points_a}-{state.points_b}")
        then = ("Reopen the round first to change that." if later is None else
                f"Correct it so the game keeps a result: {later.label} is already seated, so "
                "this round cannot be reopened.")
        raise Conflict(f"{round_.label} is closed, and this change would leave {label} "
                       f"without a result ({where}). {then}", code="round-closed")
    moved = preset.moves_by_winner or game.stage != rgames.REGULAR
    if later is not None and moved and game.winner is not None and state.winner != game.winner:
        names = {side: view["name"] for side, view in sides_view(game.match).items()}
        raise Conflict(f"{later.label} was seated from this result ({names[game.winner]} won "
                       f"{label}); a correction that makes {names[state.winner]} the winner "
                       f"cannot be made now. Correct the points so {names[game.winner]} still "
                       "win.", code="winner-used")


def store_result(game: Game, preset: Preset, state: rgames.GameState,
                 why: str | None = None) -> bool:
    """Save a game's new state after a runner's or the organizer's change (a hand, an edit, a
    deletion, a sheet, a settlement, a ruling), refusing what a closed round cannot take; the
    standing rulings are added to what was played. A sign-off confirmed the old result: if
    the result changes (the table within its correction window, the organizer at any time),
    the sign-off goes and the opponents sign the new one. `why`: a change that is not new
    hands (those tell their own news) and, when it changes the points, the winner or whether
    the game is over, is told to webhooks as `standings.changed`. Returns whether a sign-off
    was undone."""
    state = ruled_state(game, state)
    _check_closed_round(game, preset, state)
    before = (game.points_a, game.points_b, game.winner, game.end)
    save_game(game, preset, state, ruled=True)
    after = (game.points_a, game.points_b, game.winner, game.end)
    if why is not None and before != after:
        game_changed(game.event_id, game, "standings.changed", why=why)
    if game.signed_off_at is None or before == after:
        return False
    game.signed_off_at = game.signed_off_by = None
    game.match.signed_off_at = game.match.signed_off_by = None
    return True


def unsigned_note(undone: bool) -> dict:
    """What the audit log says when a correction undid the game's sign-off."""
    return {"sign_off": "undone: the result changed"} if undone else {}


def commit_and_view(game: Game) -> dict:
    """Build the answer from the rows as they will be committed, then commit: reading after
    the commit would reload everything (and, on SQLite, take the write lock again)."""
    db.session.flush()
    view = game_view(game)
    db.session.commit()
    return view


def where_is(game_id: int) -> tuple[int, int]:
    """A game's event and table, for checking a key before anything else is loaded."""
    row = db.session.execute(
        select(Game.event_id, Match.table).join(Match, Game.match_id == Match.id)
        .where(Game.id == game_id)).first()
    if row is None:
        raise not_found(f"Game {game_id}")
    return row.event_id, row.table
