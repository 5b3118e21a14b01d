"""What the tables still playing have entered that is not counted yet (RULES.md section 7).

Under `confirm_each_hand` and `double_entry` a side's entry is not a hand until the other side
agrees, so the standings (and the board's totals) leave it out. Without a word, a player
whose table has entered two hands the opponents have not confirmed sees a total that looks
stale. The board says it instead: per game of a round in play, how many hands wait to be
agreed, whether a mismatch waits to be settled and how many corrections of agreed hands wait,
in words; and on the row of each entrant at that table. Under sign-off nothing waits.

Read in two queries (the round's waiting entries, then who plays at those tables) for the
whole event, once per revision with the rest of the board: every change to an entry is a
write that bumps the event's revision, so the board's ETag changes with what it says here.
"""

from __future__ import annotations

from sqlalchemy import select

from ..core.db import db
from ..core.models import Event, Game, HandEntry, Match, Seat
from ..games.entry_views import CHANGES, MISMATCH, WAITING
from ..rules.presets import CONFIRM_EACH_HAND, DOUBLE_ENTRY, Preset

MODES = (CONFIRM_EACH_HAND, DOUBLE_ENTRY)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def waiting_words(hands: int, mismatch: bool, changes: int) -> str:
    """What waits, in the board's words: "2 hands waiting to be agreed", "scores differ:
    waiting to be settled", "1 correction waiting to be agreed"."""
    parts = []
    if mismatch:
        parts.append("scores differ: waiting to be settled"
                     + (f" ({_plural(hands, 'hand')} waiting)" if hands > 1 else ""))
    elif hands:
        parts.append(f"{_plural(hands, 'hand')} waiting to be agreed")
    if changes:
        parts.append(f"{_plural(changes, 'correction')} waiting to be agreed")
    return "; ".join(parts)


def _what(hands: int, mismatch: bool, changes: int) -> dict:
    return {"hands": hands, "mismatch": mismatch, "changes": changes,
            "words": waiting_words(hands, mismatch, changes)}


def tables_waiting(event: Event, preset: Preset, round_ids: list[int]) -> list[dict]:
    """The games of the rounds `round_ids` (those in play) with entries waiting for the other
    side, by round and table: each with how many hands wait to be agreed (a hand entered by
    both sides counts once), whether a mismatch waits to be settled, how many corrections of
    agreed hands wait, the words for it and the entrants playing it. Empty under sign-off."""
    if preset.verification not in MODES or not round_ids:
        return []
    games: dict[int, dict] = {}
    for game_id, kind, state, number, count, game_number, table, round_id, match_id in \
            db.session.execute(
                select(HandEntry.game_id, HandEntry.kind, HandEntry.state, HandEntry.number,
                       HandEntry.count, Game.number, Match.table, Match.round_id, Match.id)
                .join(Game, Game.id == HandEntry.game_id)
                .join(Match, Match.id == Game.match_id)
                .where(Match.round_id.in_(round_ids), HandEntry.state.in_(WAITING))):
        game = games.setdefault(game_id, {"game_id": game_id, "round_id": round_id,
                                          "match_id": match_id, "table": table,
                                          "game": game_number,
                                          "numbers": set(), "mismatch": False, "changes": 0})
        if kind in CHANGES:
            game["changes"] += 1
        else:  # a hand, or a paper sheet's hands: each hand once, whichever side entered it
            game["numbers"].update(range(number, number + count))
        game["mismatch"] |= state == MISMATCH
    if not games:
        return []
    players = _entrants(preset, {g["match_id"] for g in games.values()})
    numbers = {r.id: r.number for r in event.rounds}
    waiting = []
    for game in games.values():
        waiting.append({"game_id": game["game_id"], "round": numbers.get(game["round_id"]),
                        "table": game["table"], "game": game["game"],
                        **_what(len(game["numbers"]), game["mismatch"], game["changes"]),
                        "entrants": players.get(game["match_id"], [])})
    waiting.sort(key=lambda w: (w["round"] or 0, w["table"], w["game"]))
    return waiting


def _entrants(preset: Preset, match_ids: set[int]) -> dict[int, list[int]]:
    """{match id: the entrants playing it}: its two teams (team formats) or its seated
    players, side A first (a ghost seat is nobody's row)."""
    if preset.team_entry:
        return {match: [t for t in (a, b) if t is not None] for match, a, b in
                db.session.execute(select(Match.id, Match.team_a_id, Match.team_b_id)
                                   .where(Match.id.in_(match_ids)))}
    players: dict[int, list[int]] = {}
    for match, player in db.session.execute(
            select(Seat.match_id, Seat.player_id)
            .where(Seat.match_id.in_(match_ids), Seat.player_id.is_not(None))
            .order_by(Seat.match_id, Seat.seat)):
        players.setdefault(match, []).append(player)
    return players


def rows_waiting(waiting: list[dict]) -> dict[int, dict]:
    """{entrant id: what waits at their table(s)}, for their row on the board. The players of
    one table share one dict (a big event has hundreds of tables waiting at once)."""
    by_entrant: dict[int, list[dict]] = {}
    for game in waiting:
        for entrant in game["entrants"]:
            by_entrant.setdefault(entrant, []).append(game)
    shared: dict[int, dict] = {}  # game id -> its players' note
    rows = {}
    for entrant, games in by_entrant.items():
        if len(games) == 1:
            game = games[0]
            note = shared.get(game["game_id"])
            if note is None:
                note = shared[game["game_id"]] = {
                    **_what(game["hands"], game["mismatch"], game["changes"]),
                    "tables": [game["table"]]}
            rows[entrant] = note
        else:  # in two games at once (a best-of match's next game, two rounds in play)
            rows[entrant] = {**_what(sum(g["hands"] for g in games),
                                     any(g["mismatch"] for g in games),
                                     sum(g["changes"] for g in games)),
                             "tables": sorted({g["table"] for g in games})}
    return rows
