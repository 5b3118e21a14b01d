"""A game's state: where it stands from its hands (or sheet, forfeit, settlement), the rows
the standings read (`results`), its match, and the view a runner's screen shows.

Every change to a game ends here: the rules give the new state, `save_game` copies it onto
the rows. Reads and writes both use this module; of the other game modules it uses only
`result_notes.py` (the correction window, rulings and protests on the view).
"""

from __future__ import annotations

from sqlalchemy import case, delete, select

from ..core.caching import Kept
from ..core.common import game_label, get_game, preset_of
from ..core.db import db
from ..core.errors import Conflict
from ..core.models import Event, Game, Hand, Match, Result, Seat, utcnow
from ..rules import games as rgames
from ..rules import seats
from ..rules.hands import PLAY, SEATS_OF, HandScore, Renege
from ..rules.hands import Hand as RulesHand
from ..rules.matches import deciding_game, match_state
from ..rules.presets import Preset
from .result_notes import correction_view, ruled_state

# --- where a game stands ---------------------------------------------------------------------

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
        return rgames.sheet_game(fmt, game.points_a - (game.adjust_a or 0),
                                 game.points_b - (game.adjust_b or 0),
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


# --- the rows the standings read, and the match -----------------------------------------


def refresh_results(game: Game, preset: Preset) -> None:
    """Keep the game's rows in `results` (which the standings read) in step with the game:
    updated in place after a hand, written afresh when the game has none yet."""
    if update_results(game.id, game.points_a, game.points_b, game.winner,
                      forfeited=game.forfeited_by is not None,
                      revision=event_revision(game.event_id)):
        return
    write_results(game, preset)


def update_results(game_id: int, points_a: int, points_b: int, winner: str | None, *,
                   forfeited: bool, revision) -> int:
    """Both sides' result rows of a game in one plain statement (this runs on every hand);
    returns how many rows it updated (none before the game's first change)."""
    table = Result.__table__
    side_a = table.c.side == "A"
    return db.session.execute(
        table.update().where(table.c.game_id == game_id)
        .values(points=case((side_a, points_a), else_=points_b),
                against=case((side_a, points_b), else_=points_a),
                won=None if winner is None else table.c.side == winner,
                forfeited=forfeited, revision=revision)).rowcount


def write_results(game: Game, preset: Preset) -> None:
    """Write the game's rows in `results` from scratch (after seating or a seat change)."""
    db.session.execute(delete(Result).where(Result.game_id == game.id))
    db.session.add_all(Result(**row) for row in
                       result_rows(game, preset, event_revision(game.event_id)))


def result_rows(game, preset: Preset, revision) -> list[dict]:
    """The game's rows in `results` as column values: one a team (team formats) or one a
    seated player (never a ghost), each with its side's points. `game` is a row or plain
    values shaped like one (game.match.seats, ...)."""
    match = game.match
    won = {side: (None if game.winner is None else game.winner == side)
           for side in seats.SIDES}
    points = {"A": game.points_a, "B": game.points_b}
    ghost = any(s.player_id is None for s in match.seats)
    rows = []
    if preset.team_entry:
        teams = {"A": match.team_a_id, "B": match.team_b_id}
        for side in seats.SIDES:
            if teams[side] is None:
                continue
            rows.append({"entrant_id": teams[side], "side": side, "partner_id": None,
                         "opponent_id": teams[seats.other(side)]})
    else:
        by_seat = {s.seat: s.player_id for s in match.seats}
        for side, seated in side_players(match).items():
            for seat in seated:
                if seat.player_id is None:
                    continue
                rows.append({"entrant_id": seat.player_id, "side": side,
                             "partner_id": by_seat.get(seats.partner_of(seat.seat)),
                             "opponent_id": None})
    for row in rows:
        side = row["side"]
        row.update(event_id=game.event_id, game_id=game.id, round_number=match.round.number,
                   stage=game.stage, table=match.table, points=points[side],
                   against=points[seats.other(side)], won=won[side], ghost_table=ghost,
                   forfeited=game.forfeited_by is not None, revision=revision)
    return rows

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
        raise Conflict(f"This change decides the match at table {match.table} "
                      f"{max(won.games_won_a, won.games_won_b)}-"
                      f"{min(won.games_won_a, won.games_won_b)} after game {deciding}, but "
                      f"game {started[0].number} already has hands entered. Delete those "
                      "hands first if the change is right.", code="match-decided")
    for game in extra:
        match.games.remove(game)

def save_game(game: Game, preset: Preset, state: rgames.GameState, *,
              ruled: bool = False) -> None:
    """Store a game's new state (as played: the standing rulings are added here, unless
    `ruled` says the state has them already)."""
    apply_state(game, state if ruled else ruled_state(game, state))
    game.last_entry_at = utcnow()
    refresh_results(game, preset)
    refresh_match(game.match, preset)


# --- the view ------------------------------------------------------------------------------


def next_dealer(game: Game, hands: list[dict]) -> int | None:
    """The seat due to deal the next hand, when the first dealer (or a recorded dealer) is
    known; `hands` are the game's hand views."""
    return seats.next_dealer(game.first_dealer,
                             [h["dealer"] for h in hands if h["kind"] == PLAY])

def dealing_view(game: Game, people: list[dict], hands: list[dict]) -> dict | None:
    """Who deals the next hand: the seat, and the person who handles the cards (a ghost's
    partner deals for it)."""
    dealer = None if game.end is not None else next_dealer(game, hands)
    if dealer is None:
        return None
    ghosts = [p["seat"] for p in people if p["player_id"] is None]
    by_seat = {p["seat"]: p for p in people}
    hands = by_seat.get(seats.dealing_seat(dealer, ghosts))
    return {"seat": dealer, "for_ghost": dealer in ghosts,
            "name": hands["name"] if hands else None}

def signers_view(game: Game, sides: dict, preset: Preset | None = None) -> list[dict]:
    """The real players (never a ghost) who may sign the finished game off now: nobody
    where the event checks scores by agreeing each hand (`Preset.signs_off`). `preset`: the
    event's, when the caller has it (else it is read)."""
    if game.end is None:
        return []
    if not (preset or preset_of(db.session.get(Event, game.event_id))).signs_off:
        return []
    allowed = seats.signing_sides(game.winner, level_allowed=game.stage == rgames.CHAMPIONSHIP)
    return [{"seat": p["seat"], "player_id": p["player_id"], "name": p["name"], "side": side}
            for side in allowed for p in sides[side]["players"] if p["player_id"] is not None]

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
        "created_at": hand.created_at, "state": "agreed",
    }

def sides_view(match: Match) -> dict[str, dict]:
    """Each side's name as the table knows it (the team, or "Ann & Carol") and its players."""
    seated = side_players(match)
    teams = {"A": match.team_a, "B": match.team_b}
    sides = {}
    for side in seats.SIDES:
        people = [{"seat": s.seat, "player_id": s.player_id,
                   "name": s.player.name if s.player else "Ghost"} for s in seated[side]]
        team = teams[side]
        label = team.name if team else " & ".join(p["name"] for p in people)
        sides[side] = {"name": label, "team_id": team.id if team else None, "players": people}
    return sides


# The hand views of the games this process answered for lately, by game, stamped with its
# version and last entry: any change to a game's hands changes its version, so a view built
# once serves until then. The hand path adds its new hand to these instead of reading every
# hand again; the last entry's time keeps two databases' game 1 at version 3 (tests, a
# restored backup) apart.
HAND_VIEWS_KEPT = 4096
_HAND_VIEWS = Kept(HAND_VIEWS_KEPT)


def _stamp(game) -> tuple:
    return (game.version, game.last_entry_at)


def known_hand_views(game) -> list[dict] | None:
    """The game's hand views at its current version, if this process built them."""
    views = _HAND_VIEWS.get(game.id, _stamp(game))
    return None if views is None else list(views)


def remember_hand_views(game, views: list[dict]) -> None:
    _HAND_VIEWS.put(game.id, tuple(views), _stamp(game))


def forget_hand_views() -> None:
    """As a restart would (after rows were put back by hand)."""
    _HAND_VIEWS.clear()


def game_view(game: Game, hands: list[dict] | None = None,
              preset: Preset | None = None) -> dict:
    """Everything a runner's game screen shows, with the names on each side. `hands`: the
    game's hand views when the caller has them (the hand path); else they are built from
    its rows and kept for the next change. `preset`: the event's, when the caller has it
    (the hand path reads nothing more for it)."""
    if hands is None:
        hands = [hand_view(h) for h in game.hands]
        remember_hand_views(game, hands)
    match = game.match
    round_ = match.round
    sides = sides_view(match)
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
        "attention": (f"{game_label(game)} is level, {game.points_a}-{game.points_b}: record "
                      "who won the playoff hand or the card draw, or the round cannot close."
                      if needs_settlement and over else None),
        "tie": ({"method": game.tie_method, "winner": game.tie_winner}
                if game.tie_method else None),
        "forfeited_by": game.forfeited_by, "from_sheet": game.from_sheet,
        "first_dealer": game.first_dealer,
        "dealer": None if over else next_dealer(game, hands),
        "dealing": dealing_view(game, sides["A"]["players"] + sides["B"]["players"], hands),
        "signers": signers_view(game, sides, preset),
        "bumps": dict(game.bumps or {}),
        "signed_off": game.signed_off_at is not None, "signed_off_by": game.signed_off_by,
        "signed_off_at": game.signed_off_at,
        **correction_view(game),
        "match": {"games_planned": match.games_planned, "best_of": match.best_of,
                  "games_won": {"A": mstate.games_won_a, "B": mstate.games_won_b},
                  "over": match.status == "over", "winner": match.winner,
                  "games": [{"id": g.id, "number": g.number, "winner": g.winner,
                             "over": g.end is not None} for g in match.games]},
        "version": game.version,
        "hands": hands,
    }

def read_game(game_id: int) -> dict:
    return game_view(get_game(game_id))
