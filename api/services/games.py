"""Recording hands and finishing games: the way of one hand, from the runner's tap to the
stored totals, in one transaction."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import case, delete, select, update

from ..auth import ORGANIZER, Principal, require
from ..db import db
from ..models import DeletedHand, Event, Game, Hand, Match, Result, Round, Seat, utcnow
from ..problems import Problem
from ..rules import games as rgames
from ..rules.hands import PLAY, SEATS_OF, HandScore, Renege, score_hand
from ..rules.hands import Hand as RulesHand
from ..rules.matches import deciding_game, match_state
from ..rules.presets import Preset
from .common import audit, game_label, get_game, lock_event, not_found, preset_of

HAND_FIELDS = ("kind", "maker", "tricks", "alone", "loner_seat", "renege", "surrendered",
               "dealer", "trump", "note")


# --- reading a game ------------------------------------------------------------------------

def fmt_of(game: Game) -> rgames.GameFormat:
    return rgames.GameFormat(target_points=game.target_points,
                             hands_per_game=game.hands_per_game)


def rules_hand(row: Hand | dict) -> RulesHand:
    """The rules' view of a stored hand or of a request body."""
    get = row.get if isinstance(row, dict) else (lambda k, d=None: getattr(row, k, d))
    if isinstance(row, dict):
        renege = row.get("renege")
        renege = Renege(renege["by"], renege["upheld"]) if renege else None
    else:
        renege = Renege(row.renege_by, bool(row.renege_upheld)) if row.renege_by else None
    return RulesHand(maker=get("maker"), tricks=get("tricks"), alone=bool(get("alone", False)),
                     loner_seat=get("loner_seat"), renege=renege, kind=get("kind") or PLAY,
                     surrendered=tuple(get("surrendered") or ()))


def stored_score(hand: Hand) -> HandScore:
    return HandScore(hand.points_a, hand.points_b, hand.result, hand.outcome,
                     counts=hand.kind == PLAY,
                     bumps={int(k): v for k, v in (hand.bumps or {}).items()})


def compute_state(game: Game, scores: list[HandScore] | None = None,
                  preset: Preset | None = None) -> rgames.GameState:
    """Where the game stands, from its stored hands (or the given scores), its sheet, forfeit,
    the round's clock and any tie settlement."""
    fmt = fmt_of(game)
    if game.forfeited_by:
        return rgames.forfeited_game(fmt, game.forfeited_by)
    if game.from_sheet:
        values = rgames.sheet_hand_values(preset) if preset else rgames.HAND_VALUES
        return rgames.sheet_game(fmt, game.points_a, game.points_b,
                                 {int(k): v for k, v in (game.bumps or {}).items()},
                                 hands_played=game.hands_played, tie_winner=game.tie_winner,
                                 values=values, time_called=True)
    if scores is None:
        scores = [stored_score(h) for h in game.hands]
    time_called = game.match.round.time_called_at is not None
    return rgames.play_game(fmt, scores, time_called=time_called, tie_winner=game.tie_winner,
                            label=game_label(game))


def apply_state(game: Game, state: rgames.GameState) -> None:
    """Copy the rules' verdict onto the row (totals kept as they change)."""
    game.points_a, game.points_b = state.points_a, state.points_b
    game.hands_played = state.hands_played
    game.end, game.winner, game.level = state.end, state.winner, state.level
    game.bumps = {str(k): v for k, v in sorted(state.bumps.items())}
    if not state.level:
        game.tie_method = None
        game.tie_winner = None


def side_players(match: Match) -> dict[str, list[Seat]]:
    seats = {s.seat: s for s in match.seats}
    return {side: [seats[n] for n in numbers if n in seats] for side, numbers in SEATS_OF.items()}


def refresh_results(game: Game, preset: Preset) -> None:
    """Keep the game's rows in `results` (which the standings read) in step with the game:
    updated in place after a hand, written afresh when the game has none yet."""
    # One plain statement for both sides (no ORM-enabled update: this runs on every hand).
    table = Result.__table__
    side_a = table.c.side == "A"
    updated = db.session.execute(
        table.update().where(table.c.game_id == game.id)
        .values(points=case((side_a, game.points_a), else_=game.points_b),
                against=case((side_a, game.points_b), else_=game.points_a),
                won=None if game.winner is None else table.c.side == game.winner,
                forfeited=game.forfeited_by is not None,
                revision=event_revision(game.event_id))).rowcount
    if updated:
        return
    write_results(game, preset)


def write_results(game: Game, preset: Preset) -> None:
    """Write the game's rows in `results` from scratch (after seating or a seat change)."""
    db.session.execute(delete(Result).where(Result.game_id == game.id))
    match = game.match
    round_ = match.round
    won = {side: (None if game.winner is None else game.winner == side) for side in "AB"}
    points = {"A": game.points_a, "B": game.points_b}
    other = {"A": "B", "B": "A"}
    seats = side_players(match)
    ghost = any(s.player_id is None for s in match.seats)
    rows = []
    if preset.team_entry:
        teams = {"A": match.team_a_id, "B": match.team_b_id}
        for side in "AB":
            if teams[side] is None:
                continue
            rows.append(Result(entrant_id=teams[side], side=side, partner_id=None,
                               opponent_id=teams[other[side]]))
    else:
        for side in "AB":
            for seat in seats[side]:
                if seat.player_id is None:
                    continue
                partner = next((s.player_id for s in seats[side] if s.seat != seat.seat), None)
                rows.append(Result(entrant_id=seat.player_id, side=side, partner_id=partner,
                                   opponent_id=None))
    for row in rows:
        row.event_id = game.event_id
        row.game_id = game.id
        row.round_number = round_.number
        row.stage = game.stage
        row.table = match.table
        row.points = points[row.side]
        row.against = points[other[row.side]]
        row.won = won[row.side]
        row.ghost_table = ghost
        row.forfeited = game.forfeited_by is not None
        row.revision = event_revision(game.event_id)
    db.session.add_all(rows)


def event_revision(event_id: int):
    """The event's current revision, as SQL: every write bumps it first (lock_event), so a
    game's result rows carry the revision of the change that wrote them (all of them: both
    sides are written together), which lets the standings read only what changed."""
    return select(Event.revision).where(Event.id == event_id).scalar_subquery()


def refresh_match(match: Match, preset: Preset) -> None:
    """The match's winner and status; a best-of match gains or loses its deciding game."""
    winners = [g.winner for g in match.games]
    state = match_state(match.games_planned, winners, best_of=match.best_of)
    if match.best_of:
        decided = [g for g in match.games if g.winner is not None]
        if state.over:
            _drop_games_not_needed(match, deciding_game(match.games_planned, winners))
        elif all(g.winner is not None for g in match.games) and \
                len(match.games) < match.games_planned:
            last = match.games[-1]
            match.games.append(Game(event_id=match.event_id, number=len(decided) + 1,
                                    stage=last.stage, target_points=last.target_points,
                                    hands_per_game=last.hands_per_game, bumps={}))
    match.winner = state.winner if state.over else None
    match.status = "over" if state.over else "playing"


def _drop_games_not_needed(match: Match, deciding: int) -> None:
    """A best-of match is over: games after the deciding one are not played. One already
    started (a correction decided the match earlier) is not thrown away unasked."""
    extra = [g for g in match.games if g.number > deciding]
    started = [g for g in extra if g.hands or g.from_sheet or g.forfeited_by]
    if started:
        won = match_state(match.games_planned, [g.winner for g in match.games[:deciding]],
                          best_of=True)
        raise Problem(409, f"This change decides the match at table {match.table} "
                      f"{max(won.games_won_a, won.games_won_b)}-"
                      f"{min(won.games_won_a, won.games_won_b)} after game {deciding}, but "
                      f"game {started[0].number} already has hands entered. Delete those "
                      "hands first if the change is right.", code="match-decided")
    for game in extra:
        match.games.remove(game)


def save_game(game: Game, preset: Preset, state: rgames.GameState) -> None:
    apply_state(game, state)
    game.last_entry_at = utcnow()
    refresh_results(game, preset)
    refresh_match(game.match, preset)


def _lower(label: str) -> str:
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
    label = _lower(game_label(game))
    later = later_round(round_)
    if state.end is None or (state.winner is None and game.stage != rgames.CHAMPIONSHIP):
        where = (f"{state.hands_played} hands played" if state.end is None
                 else f"level at {state.points_a}-{state.points_b}")
        then = ("Reopen the round first to change that." if later is None else
                f"Correct it so the game keeps a result: {later.label} is already seated, so "
                "this round cannot be reopened.")
        raise Problem(409, f"{round_.label} is closed, and this change would leave {label} "
                      f"without a result ({where}). {then}", code="round-closed")
    moved = preset.moves_by_winner or game.stage != rgames.REGULAR
    if later is not None and moved and game.winner is not None and state.winner != game.winner:
        raise Problem(409, f"{later.label} was seated from this result (side {game.winner} won "
                      f"{label}); a correction that makes side {state.winner} the winner "
                      f"cannot be made now. Correct the points so side {game.winner} still "
                      "wins.", code="winner-used")


def store_result(game: Game, preset: Preset, state: rgames.GameState) -> bool:
    """Save a game's new state after a runner's or the organizer's change (a hand, an edit, a
    deletion, a sheet, a settlement), refusing what a closed round cannot take. A sign-off
    confirmed the old result: if the result changes (only the organizer can change a
    signed-off game), the sign-off goes and the opponents sign the new one. Returns whether
    a sign-off was undone."""
    _check_closed_round(game, preset, state)
    before = (game.points_a, game.points_b, game.winner, game.end)
    save_game(game, preset, state)
    after = (game.points_a, game.points_b, game.winner, game.end)
    if game.signed_off_at is None or before == after:
        return False
    game.signed_off_at = game.signed_off_by = None
    game.match.signed_off_at = game.match.signed_off_by = None
    return True


def next_dealer(game: Game) -> int | None:
    """The seat due to deal the next hand, when the first dealer (or a recorded dealer) is
    known; the deal passes clockwise and a misdeal is not a hand."""
    played = [h for h in game.hands if h.kind == PLAY]
    for offset, hand in enumerate(reversed(played)):
        if hand.dealer:
            return (hand.dealer - 1 + offset + 1) % 4 + 1
    return rgames.dealer_for_hand(game.first_dealer, len(played) + 1)


def hand_view(hand: Hand) -> dict:
    return {
        "id": hand.id, "number": hand.number, "kind": hand.kind, "maker": hand.maker,
        "alone": hand.alone, "loner_seat": hand.loner_seat, "tricks": hand.tricks,
        "renege": ({"by": hand.renege_by, "upheld": bool(hand.renege_upheld)}
                   if hand.renege_by else None),
        "surrendered": list(hand.surrendered or []), "dealer": hand.dealer,
        "trump": hand.trump, "note": hand.note,
        "points": {"A": hand.points_a, "B": hand.points_b}, "result": hand.result,
        "outcome": hand.outcome, "bumps": {str(k): v for k, v in (hand.bumps or {}).items()},
        "created_at": hand.created_at,
    }


def game_view(game: Game) -> dict:
    """Everything a runner's game screen shows, with the names on each side."""
    match = game.match
    round_ = match.round
    seats = side_players(match)
    teams = {"A": match.team_a, "B": match.team_b}
    sides = {}
    for side in "AB":
        people = [{"seat": s.seat, "player_id": s.player_id,
                   "name": s.player.name if s.player else "Ghost"} for s in seats[side]]
        team = teams[side]
        label = team.name if team else " & ".join(p["name"] for p in people)
        sides[side] = {"name": label, "team_id": team.id if team else None, "players": people}
    mstate = match_state(match.games_planned, [g.winner for g in match.games],
                         best_of=match.best_of)
    fmt = fmt_of(game)
    over = game.end is not None
    needs_settlement = bool(game.level and game.tie_winner is None
                            and game.stage != rgames.CHAMPIONSHIP)
    return {
        "id": game.id, "event_id": game.event_id, "match_id": match.id, "number": game.number,
        "label": game_label(game), "stage": game.stage, "table": match.table,
        "round": {"id": round_.id, "number": round_.number, "label": round_.label,
                  "status": round_.status, "time_called": round_.time_called_at is not None},
        "format": {"target_points": fmt.target_points, "hands_per_game": fmt.hands_per_game,
                   "description": fmt.describe()},
        "sides": sides,
        "points": {"A": game.points_a, "B": game.points_b},
        "hands_played": game.hands_played,
        "hands_to_go": (None if fmt.hands_per_game is None
                        else max(fmt.hands_per_game - game.hands_played, 0) if not over else 0),
        "points_to_target": (None if fmt.target_points is None else
                             {"A": max(fmt.target_points - game.points_a, 0),
                              "B": max(fmt.target_points - game.points_b, 0)}),
        "over": over, "end": game.end, "winner": game.winner, "level": game.level,
        "needs_settlement": needs_settlement,
        "tie": ({"method": game.tie_method, "winner": game.tie_winner}
                if game.tie_method else None),
        "forfeited_by": game.forfeited_by, "from_sheet": game.from_sheet,
        "first_dealer": game.first_dealer, "dealer": None if over else next_dealer(game),
        "bumps": dict(game.bumps or {}),
        "signed_off": game.signed_off_at is not None, "signed_off_by": game.signed_off_by,
        "signed_off_at": game.signed_off_at,
        "match": {"games_planned": match.games_planned, "best_of": match.best_of,
                  "games_won": {"A": mstate.games_won_a, "B": mstate.games_won_b},
                  "over": match.status == "over", "winner": match.winner,
                  "games": [{"id": g.id, "number": g.number, "winner": g.winner,
                             "over": g.end is not None} for g in match.games]},
        "version": game.version,
        "hands": [hand_view(h) for h in game.hands],
    }


def read_game(game_id: int) -> dict:
    return game_view(get_game(game_id))


# --- writing --------------------------------------------------------------------------------

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


def fingerprint(body: dict) -> str:
    canonical = {k: body.get(k) for k in HAND_FIELDS}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, default=str).encode()).hexdigest()


def _writable(game: Game, principal: Principal, *, organizer_override: bool = True) -> None:
    """May this key change this game now? Nobody before its round has started; runners not
    once it is signed off or its round closed; the organizer otherwise always (corrections),
    with the change audited."""
    round_ = game.match.round
    if round_.status == "scheduled":
        raise Problem(409, f"{round_.label} has not started yet; the organizer starts it "
                      "first.", code="round-not-started")
    if principal.role == ORGANIZER and organizer_override:
        return
    if round_.status == "closed":
        raise Problem(409, f"Round {round_.number} is closed; ask the organizer to correct "
                      "this game.", code="round-closed")
    if game.signed_off_at is not None:
        raise Problem(409, f"{game_label(game)} was signed off by {game.signed_off_by}; ask "
                      "the organizer to reopen it.", code="signed-off")


def _locked_game(game_id: int, event_id: int | None = None) -> tuple[Event, Game, Preset]:
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


def require_if_match(if_match: str | None) -> str:
    if if_match is None:
        raise Problem(428, "Send the game's version in If-Match (from its ETag) so a change "
                      "made meanwhile on another phone is not overwritten.",
                      code="if-match-required")
    return if_match


def _check_version(game: Game, if_match: str | None) -> None:
    require_if_match(if_match)
    wanted = {tag.strip().removeprefix("W/").strip('"') for tag in if_match.split(",")}
    if "*" not in wanted and str(game.version) not in wanted:
        raise Problem(412, f"{game_label(game)} was changed on another phone (now version "
                      f"{game.version}). Reload it and make the change again.",
                      code="stale", current_version=game.version)


def _stored_hand(event_id: int, hand_id: str, *, fresh: bool = False) -> Hand | None:
    return db.session.get(Hand, {"event_id": event_id, "id": hand_id},
                          populate_existing=fresh)


def record_hand(game_id: int, principal: Principal, body: dict) -> tuple[dict, bool]:
    """Store one hand. Idempotent on the client-made id, which is unique within the event:
    the same id and body again answers the stored game (created=False); the same id with
    another body is a 409; the id of a hand deleted since is a 410."""
    hand_id = body["id"]
    print_ = fingerprint(body)
    # The key checked before belongs to the game's event (require): no need to look it up.
    event_id = principal.event_id
    existing = _stored_hand(event_id, hand_id)
    if existing is not None:
        return _replayed(existing, game_id, print_), False
    event, game, preset = _locked_game(game_id, event_id)
    # On SQLite the whole request runs under the write lock (BEGIN IMMEDIATE) already.
    if db.session.get_bind().dialect.name != "sqlite":
        existing = _stored_hand(event_id, hand_id, fresh=True)
        if existing is not None:  # stored by a concurrent request while we waited for the lock
            db.session.rollback()
            return _replayed(_stored_hand(event_id, hand_id), game_id, print_), False
    _refuse_deleted(event_id, hand_id)
    _writable(game, principal)
    if game.forfeited_by or game.from_sheet:
        raise Problem(409, f"{game_label(game)} was "
                      f"{'forfeited' if game.forfeited_by else 'entered from the game sheet'};"
                      " hands cannot be added.", code="game-over")
    score = score_hand(rules_hand(body), preset)
    current = compute_state(game, preset=preset)
    rgames.check_hand_allowed(current, game_label(game), counts=score.counts)
    scores = [stored_score(h) for h in game.hands] + [score]
    state = compute_state(game, scores, preset)
    number = len(game.hands) + 1
    hand = Hand(id=hand_id, event_id=game.event_id, number=number, fingerprint=print_,
                created_by=principal.key_id, **_hand_columns(body, score))
    game.hands.append(hand)
    game.entries = number
    store_result(game, preset, state)
    return commit_and_view(game), True


def _refuse_deleted(event_id: int, hand_id: str) -> None:
    gone = db.session.get(DeletedHand, {"event_id": event_id, "id": hand_id})
    if gone is None:
        return
    where = _lower(game_label(db.session.get(Game, gone.game_id)))
    raise Problem(410, f"Hand '{hand_id}' was entered and then deleted from {where} "
                  f"(it was hand {gone.number}), so it is not entered again. If it should "
                  "count, enter it as a new hand.", code="hand-deleted")


def _replayed(existing: Hand, game_id: int, print_: str) -> dict:
    if existing.game_id != game_id or existing.fingerprint != print_:
        where = _lower(game_label(existing.game))
        raise Problem(409, f"A different hand was already stored with id '{existing.id}'"
                      f" (hand {existing.number} of {where}). Use a new id for a new hand.",
                      code="id-conflict")
    return game_view(existing.game)


def _hand_columns(body: dict, score: HandScore) -> dict:
    renege = body.get("renege")
    return {
        "kind": body.get("kind") or PLAY, "maker": body.get("maker"),
        "alone": bool(body.get("alone")), "loner_seat": body.get("loner_seat"),
        "tricks": body.get("tricks"),
        "renege_by": renege["by"] if renege else None,
        "renege_upheld": renege["upheld"] if renege else None,
        "surrendered": list(body.get("surrendered") or []), "dealer": body.get("dealer"),
        "trump": body.get("trump"), "note": body.get("note"),
        "points_a": score.points_a, "points_b": score.points_b, "result": score.result,
        "outcome": score.outcome, "bumps": {str(k): v for k, v in score.bumps.items()},
    }


def _unsigned(undone: bool) -> dict:
    """What the audit log says when a correction undid the game's sign-off."""
    return {"sign_off": "undone: the result changed"} if undone else {}


def _find_hand(game: Game, hand_id: str) -> Hand:
    for hand in game.hands:
        if hand.id == hand_id:
            return hand
    raise not_found(f"Hand '{hand_id}' in {game_label(game).lower()}")


def edit_hand(game_id: int, hand_id: str, principal: Principal, body: dict,
              if_match: str | None) -> dict:
    """Change a stored hand; every later hand is replayed, so an edit that would end the game
    before its last hand is refused with the reason."""
    event, game, preset = _locked_game(game_id)
    _writable(game, principal)
    _check_version(game, if_match)
    hand = _find_hand(game, hand_id)
    before = hand_view(hand)
    score = score_hand(rules_hand(body), preset)
    scores = [score if h.id == hand_id else stored_score(h) for h in game.hands]
    state = compute_state(game, scores, preset)
    for column, value in _hand_columns(body, score).items():
        setattr(hand, column, value)
    hand.fingerprint = fingerprint(body)
    unsigned = store_result(game, preset, state)
    audit(event.id, principal, "edit-hand", "hand", hand.id, before=before,
          after={**hand_view(hand), "game": game.number, **_unsigned(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def delete_hand(game_id: int, hand_id: str, principal: Principal, if_match: str | None) -> dict:
    """Remove a hand (undo) and close the gap in the numbering."""
    event, game, preset = _locked_game(game_id)
    _writable(game, principal)
    _check_version(game, if_match)
    hand = _find_hand(game, hand_id)
    before = hand_view(hand)
    remaining = [h for h in game.hands if h.id != hand_id]
    state = compute_state(game, [stored_score(h) for h in remaining], preset)
    # Its id stays taken: a phone still holding the hand in its outbox is told it was deleted.
    db.session.add(DeletedHand(event_id=hand.event_id, id=hand.id, game_id=game.id,
                               number=hand.number, fingerprint=hand.fingerprint,
                               deleted_by=principal.key_id))
    game.hands.remove(hand)
    db.session.flush()
    # Renumber one row at a time in rising order so the unique (game, number) pair never
    # collides, whatever order the database checks it in.
    for position, later in enumerate(remaining, start=1):
        if later.number != position:
            db.session.execute(update(Hand).where(Hand.event_id == later.event_id,
                                                  Hand.id == later.id).values(number=position))
    db.session.expire(game, ["hands"])
    game.entries = len(remaining)
    unsigned = store_result(game, preset, state)
    audit(event.id, principal, "delete-hand", "hand", hand_id, before=before,
          after={"game": game.number, **_unsigned(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def enter_sheet(game_id: int, principal: Principal, body: dict,
                if_match: str | None = None) -> dict:
    """The WEC game sheet: final points and bumps per seat instead of hand by hand. Replacing
    a sheet already entered needs the game's version (If-Match), as any edit does."""
    event, game, preset = _locked_game(game_id)
    _writable(game, principal)
    if game.from_sheet:
        _check_version(game, if_match)
    if not preset.game_sheet:
        raise Problem(409, "This format has no game sheet; enter the game hand by hand.",
                      code="no-game-sheet")
    if game.hands:
        raise Problem(409, f"{game_label(game)} already has {len(game.hands)} hands entered; "
                      "delete them first or keep entering hand by hand.", code="has-hands")
    before = {"points": [game.points_a, game.points_b], "bumps": game.bumps,
              "from_sheet": game.from_sheet}
    bumps = {int(k): v for k, v in (body.get("bumps") or {}).items()}
    state = rgames.sheet_game(fmt_of(game), body["points"]["A"], body["points"]["B"], bumps,
                              hands_played=body.get("hands_played"),
                              tie_winner=game.tie_winner, label=game_label(game),
                              values=rgames.sheet_hand_values(preset),
                              time_called=game.match.round.time_called_at is not None)
    game.from_sheet = True
    unsigned = store_result(game, preset, state)
    if before["from_sheet"]:
        audit(event.id, principal, "edit-sheet", "game", game.id, before=before,
              after={"points": [game.points_a, game.points_b], "bumps": game.bumps,
                     **_unsigned(unsigned)},
              round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def clear_sheet(game_id: int, principal: Principal, if_match: str | None) -> dict:
    """Remove a sheet entry (with the game's version, If-Match), to enter hand by hand."""
    event, game, preset = _locked_game(game_id)
    _writable(game, principal)
    _check_version(game, if_match)
    if not game.from_sheet:
        raise Problem(409, f"{game_label(game)} was not entered from a sheet.", code="no-sheet")
    before = {"points": [game.points_a, game.points_b], "bumps": game.bumps}
    game.from_sheet = False
    store_result(game, preset, compute_state(game, [], preset))
    audit(event.id, principal, "clear-sheet", "game", game.id, before=before,
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def settle_tie(game_id: int, principal: Principal, method: str, winner: str,
               if_match: str | None = None) -> dict:
    """Record who won a level game's playoff hand or card draw (its points stay level).
    Changing a settlement already recorded needs the game's version (If-Match)."""
    event, game, preset = _locked_game(game_id)
    _writable(game, principal)
    if game.tie_winner is not None and (game.tie_method, game.tie_winner) != (method, winner):
        _check_version(game, if_match)
    state = compute_state(game, preset=preset)
    if game.stage == rgames.CHAMPIONSHIP:
        raise Problem(409, "A level championship is settled by a playoff round; the organizer "
                      "starts it from the rounds page.", code="championship-playoff")
    rgames.settle_tie(state, method, winner, game_label(game))
    before = {"method": game.tie_method, "winner": game.tie_winner}
    game.tie_method, game.tie_winner = method, winner
    unsigned = store_result(game, preset, compute_state(game, preset=preset))
    audit(event.id, principal, "settle-tie", "game", game.id, before=before,
          after={"method": method, "winner": winner, **_unsigned(unsigned)},
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def sign_off(game_id: int, principal: Principal, signed_by: str) -> dict:
    """The opponents confirm the game's result; runners cannot change it afterwards."""
    event, game, preset = _locked_game(game_id)
    _writable(game, principal, organizer_override=False)
    if game.end is None:
        raise Problem(409, f"{game_label(game)} is still being played; sign it off at the end.",
                      code="game-not-over")
    if game.winner is None and game.stage != rgames.CHAMPIONSHIP:
        raise Problem(409, f"{game_label(game)} is level: record the playoff hand or card draw "
                      "before signing off.", code="tie-unsettled")
    signed_by = _signer(game, signed_by)
    game.signed_off_at = utcnow()
    game.signed_off_by = signed_by
    match = game.match
    if all(g.signed_off_at is not None for g in match.games) and match.status == "over":
        match.signed_off_at, match.signed_off_by = game.signed_off_at, signed_by
    audit(event.id, principal, "sign-off", "game", game.id, after={"signed_by": signed_by},
          round_number=match.round.number, table=match.table)
    return commit_and_view(game)


def _signer(game: Game, name: str) -> str:
    """Who signs: a player (or the team) of the side that lost, confirming the winners' result
    (either side when a championship ends level); by name as the table knows it."""
    match = game.match
    seats = side_players(match)
    teams = {"A": match.team_a, "B": match.team_b}
    sides = [s for s in "AB" if s != game.winner] if game.winner else ["A", "B"]
    known = {side: [s.player.name for s in seats[side] if s.player is not None]
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
    raise Problem(422, f"{why}. Sign off as: {allowed}.", code="not-a-signer",
                  errors={"by": ["Not a player of the side that signs this game off."]})


def reopen(game_id: int, principal: Principal) -> dict:
    """Organizer: undo a sign-off so the game can be corrected."""
    event, game, preset = _locked_game(game_id)
    require(event, ORGANIZER)
    before = {"signed_off_by": game.signed_off_by}
    game.signed_off_at = game.signed_off_by = None
    game.match.signed_off_at = game.match.signed_off_by = None
    audit(event.id, principal, "reopen", "game", game.id, before=before,
          round_number=game.match.round.number, table=game.match.table)
    return commit_and_view(game)


def set_first_dealer(game_id: int, principal: Principal, seat: int | None) -> dict:
    event, game, preset = _locked_game(game_id)
    _writable(game, principal)
    game.first_dealer = seat
    return commit_and_view(game)


def games_of_round(round_: Round) -> list[Game]:
    return list(db.session.execute(
        select(Game).join(Match).where(Match.round_id == round_.id)
        .order_by(Match.table, Game.number)).scalars())
