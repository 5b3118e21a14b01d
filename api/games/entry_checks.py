"""What a side's entry must be before it is kept (`verification.py`): a side named, an id
not used by a hand, a hand the rules allow in a game still open, a sheet without a mistake, no
mismatch waiting before it; and what two entries of one hand compare."""

from __future__ import annotations

from datetime import UTC

from sqlalchemy import select

from ..core.common import game_label
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.models import DeletedHand, Hand, HandEntry
from ..rules import games as rgames
from ..rules.hands import score_hand
from ..rules.paper_sheet import check_rows
from ..rules.presets import MODE_WORDS, SIGN_OFF
from . import sheet_batch
from .entry_views import HAND, MISMATCH, SHEET, digest, hand_fields, hands_words
from .game_state import compute_state, fmt_of, rules_hand, stored_score
from .hands import fingerprint


def sheet_allowed(preset) -> None:
    """A game sheet (final points and bumps, PUT /sheet) has no hands to check one by one:
    under confirm_each_hand or double_entry the sheet's hands are entered as a side's entry
    (POST /paper-sheet with the side) instead."""
    if preset.verification != SIGN_OFF:
        raise Conflict(f"This event checks scores by {MODE_WORDS[preset.verification]}: "
                       "enter the game's hands from its paper sheet (POST paper-sheet with "
                       "your side), not its final points.", code="sheet-needs-hands")


# --- entering --------------------------------------------------------------------------------


def fields(kind: str, body: dict) -> dict:
    if kind == HAND:
        return hand_fields(body)
    ids = sheet_batch.sheet_ids(body)
    return {"hands": [{**hand_fields(row), "id": hand_id}
                      for row, hand_id in zip(body["hands"], ids, strict=True)],
            "tie": body.get("tie")}


def content(kind: str, fields: dict) -> str:
    """What two sides' entries of a hand compare: the hand's fields, never the ids."""
    if kind == HAND:
        return fingerprint(fields)
    return digest({"hands": [fingerprint(row) for row in fields["hands"]],
                   "tie": fields.get("tie")})


def sent(kind: str, body: dict) -> str:
    """The request as sent, for knowing a retry: the side and everything entered."""
    return digest({"kind": kind, "side": body.get("side"), **fields(kind, body)})


def needs_side(body: dict, mode: str) -> str:
    side = body.get("side")
    if side is None:
        raise Invalid(f"This event checks scores by {MODE_WORDS[mode]}: say which side "
                      "enters this ('side': 'A' or 'B').", code="side-required",
                      errors={"side": ["Which side enters it: A or B."]})
    return side


def id_free(event_id: int, body: dict, kind: str) -> None:
    ids = [body["id"]] + (sheet_batch.sheet_ids(body) if kind == SHEET else [])
    used = db.session.execute(select(Hand.id).where(Hand.event_id == event_id,
                                                    Hand.id.in_(ids)).limit(1)).first() or \
        db.session.execute(select(DeletedHand.id).where(DeletedHand.event_id == event_id,
                                                        DeletedHand.id.in_(ids))
                           .limit(1)).first()
    if used is not None:
        raise Conflict(f"Id '{used[0]}' was already used for a hand of this event. Use a new "
                       "id for a new entry.", code="id-conflict")


def check_entry(game, preset, kind: str, fields: dict, ahead: list[HandEntry] = (),
                played_before_time: bool = False) -> None:
    """The rules' word on the entry before it is kept: a hand that cannot have happened, a
    game already over or a sheet with a mistake is refused now, not when it is agreed.
    `ahead`: the waiting entries this one comes after (the same side's, under double entry):
    a hand past the end of the game they make is refused too, or it would wait for ever.
    `played_before_time`: the hand's first entry came before the round's time was called,
    so the game time ended still takes the other side's entry (or the settlement) of it."""
    label = game_label(game)
    if game.forfeited_by or game.from_sheet:
        raise Conflict(f"{label} was "
                       f"{'forfeited' if game.forfeited_by else 'entered from the game sheet'};"
                       " hands cannot be added.", code="game-over")
    if kind == HAND:
        score = score_hand(rules_hand(fields), preset)
        stored = compute_state(game, preset=preset)
        if not (played_before_time and stored.end == "time"):
            rgames.check_hand_allowed(stored, label, counts=score.counts)
        _check_after_waiting(game, preset, stored, [e for e in ahead if e.kind in (HAND, SHEET)],
                             label, score.counts)
        return
    tie = fields.get("tie")
    check = check_rows(fmt_of(game), [stored_score(h) for h in game.hands],
                       [rules_hand(r) for r in fields["hands"]], preset, label=label,
                       time_called=game.match.round.time_called_at is not None, whole=True,
                       tie_winner=tie["winner"] if tie else game.tie_winner)
    if check.short:
        raise Invalid(check.short, code="sheet-short")
    if not check.ok:
        errors = {str(n): [why] for n, why in sorted(check.errors.items())}
        detail = "; ".join(f"Row {int(n) + 1}: {why[0]}" for n, why in errors.items())
        raise Invalid(f"Nothing was stored. {detail}", code="sheet-rows",
                      errors={"hands": errors})


def _check_after_waiting(game, preset, stored, ahead: list[HandEntry], label: str,
                         counts: bool) -> None:
    """A hand after the waiting entries of its line: refused when those already end the game
    (all its hands entered, or the target reached), saying which entries are waiting."""
    if not ahead or not counts:
        return
    scores = [stored_score(h) for h in game.hands]
    for entry in ahead:
        rows = [entry.body] if entry.kind == HAND else entry.body["hands"]
        scores += [score_hand(rules_hand(row), preset) for row in rows]
    line = compute_state(game, scores, preset=preset)
    if not line.over or stored.over:
        return
    first, last = ahead[0].number, ahead[-1].number + ahead[-1].count - 1
    waits = f"hand {first}" if first == last else f"hands {first} to {last}"
    why = line.why_over(label)
    raise Conflict(f"With the entries waiting ({waits}, not yet agreed), "
                   f"{why[0].lower()}{why[1:]} There is no next hand to enter; if one of them "
                   "is wrong, withdraw it or change it.", code="game-over")


def before_time(game, entries: list[HandEntry]) -> bool:
    """Whether the first of these entries came before the round's time was called."""
    called = game.match.round.time_called_at
    if called is None or not entries:
        return False
    return min(_aware(e.created_at) for e in entries) <= _aware(called)


def _aware(moment):
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_no_mismatch(waiting: list[HandEntry]) -> None:
    first = next((e for e in waiting if e.state == MISMATCH), None)
    if first is not None:
        raise Conflict(f"{hands_words(first)} is a mismatch: side A and side B entered it "
                       "differently. Settle it first (take one side's entry or enter the "
                       "corrected hand, or ask the organizer); later hands wait behind it.",
                       code="mismatch-waiting")


