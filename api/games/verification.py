"""Who confirms a score (RULES.md section 7): a side's entry of a hand, or of a paper sheet,
kept as an entry (`hand_entries`) until both sides agree, then stored as the hand through the
one hand path (`hand_entry.record_locked`, `sheet_batch.enter_hands_the_long_way`), so the
stored hand is exactly what the same hand entered under sign-off gives.

- `confirm_each_hand`: one side enters, the other confirms (or rejects, with a reason for the
  audit log); the entering side may change or withdraw its entry while it waits. Entries are
  confirmed in hand order.
- `double_entry`: each side enters every hand itself. The second side's entry of hand N is
  compared with the first's: equal, the hand is stored at once; unequal, both are a mismatch,
  which the table settles in one choice (one side's entry, or the corrected hand) or the
  organizer does. No side enters past a mismatch.

Every write takes the event's lock first, so two phones' entries of one hand arriving at once
are decided once; every entry carries the id its phone made, and a request sent again gets
the same answer without a second change.
"""

from __future__ import annotations

from sqlalchemy import select

from ..core.common import audit, game_label, preset_of
from ..core.db import db
from ..core.errors import Conflict, Gone, Invalid, not_found
from ..core.keys import ORGANIZER, Principal
from ..core.models import Event, Hand, HandEntry, utcnow
from ..rules.hands import score_hand
from ..rules.presets import CONFIRM_EACH_HAND, DOUBLE_ENTRY
from . import entry_checks as checks
from . import hand_changes, hand_entry, sheet_batch
from .entry_views import (
    AGREED,
    CHANGES,
    HAND,
    MISMATCH,
    PENDING,
    entry_view,
    hand_fields,
    hands_words,
    verification_view,
    waiting_entries,
)
from .game_state import compute_state, read_game, rules_hand, stored_score
from .game_writes import locked_game, lower_first, may_take_back, writable
from .news import agreement, game_changed

# --- reading ---------------------------------------------------------------------------------


def game_read(game_id: int, side: str | None = None,
              principal: Principal | None = None) -> dict:
    """A game as `read_game` gives it, with its verification members (`verification_view`):
    the waiting entries as `side` may see them, all of them to the event's organizer."""
    view = read_game(game_id)
    event = db.session.get(Event, view["event_id"])
    organizer = principal is not None and principal.role == ORGANIZER and (
        principal.event_id == event.id
        or (principal.club_id is not None and principal.club_id == event.club_id))
    return {**view, **verification_view(game_id, preset_of(event).verification, side,
                                        organizer)}


def _answer(game_id: int, side: str | None, principal: Principal) -> dict:
    """The game after a verification write: as the side that wrote sees it."""
    return game_read(game_id, side, principal)


def enter(game_id: int, principal: Principal, body: dict, kind: str = HAND) -> tuple[dict, int]:
    """A side's entry of a hand (`kind` hand) or of a paper sheet's hands (`kind` sheet):
    kept as an entry, stored as the hand(s) when both sides agree. Returns (game, status)."""
    event, game, preset = locked_game(game_id)
    mode = preset.verification
    side = checks.needs_side(body, mode)
    known = db.session.get(HandEntry, {"event_id": event.id, "id": body["id"]})
    if known is not None:
        _check_retry(known, game, checks.sent(kind, body), body["id"])
        db.session.rollback()
        return _answer(game_id, side, principal), 200
    checks.id_free(event.id, body, kind)
    writable(game, principal)
    fields = checks.fields(kind, body)
    waiting = waiting_entries(game.id)
    ahead = [e for e in waiting if mode == CONFIRM_EACH_HAND or e.side == side]
    number = game.entries + sum(e.count for e in ahead) + 1
    twin = next((e for e in waiting if mode == DOUBLE_ENTRY and e.side != side
                 and e.number == number), None)
    checks.check_entry(game, preset, kind, fields, ahead,
                       played_before_time=twin is not None and checks.before_time(game, [twin]))
    checks.check_no_mismatch(waiting)
    row = HandEntry(id=body["id"], event_id=event.id, game_id=game.id, kind=kind, side=side,
                    number=number,
                    count=1 if kind == HAND else len(fields["hands"]), body=fields,
                    fingerprint=checks.sent(kind, body), content=checks.content(kind, fields),
                    state=PENDING, created_by=principal.key_id, created_at=utcnow())
    db.session.add(row)
    if twin is not None and twin.content == row.content and twin.kind == row.kind:
        _store(game, principal, twin, [row], by="both sides")
        return _answer(game_id, side, principal), 201
    if twin is not None:
        twin.state = row.state = MISMATCH
        db.session.flush()
        audit(event.id, principal, "hand-mismatch", "game", game.id,
              after={"number": row.number, "A": (twin if twin.side == "A" else row).body,
                     "B": (row if twin.side == "A" else twin).body},
              round_number=game.match.round.number, table=game.match.table)
        game_changed(event.id, game, "mismatch", number=row.number)
    db.session.commit()
    return _answer(game_id, side, principal), 201


def _check_retry(known: HandEntry, game, sent: str, entry_id: str) -> None:
    if known.game_id != game.id or known.fingerprint != sent:
        raise Conflict(f"A different entry was already made with id '{entry_id}'. Use a new "
                       "id for a new entry.", code="id-conflict")
    if known.state in ("rejected", "withdrawn"):
        by = f" by {known.decided_by}" if known.decided_by else ""
        raise Gone(f"Entry '{entry_id}' ({hands_words(known).lower()}) was {known.state}{by}, "
                   "so it is not entered again. If it should count, enter it under a new id.",
                   code=f"entry-{known.state}")


def _store(game, principal: Principal, taken: HandEntry, others: list[HandEntry], *,
           by: str, body: dict | None = None) -> None:
    """Store the agreed entry as the hand (or the sheet's hands) through the hand path, in
    the same transaction as the entries' new states; committed together or not at all.
    `body`: a corrected hand (or sheet) stored instead of the entry's own fields."""
    now = utcnow()
    hand_id = (body or {}).get("id") or taken.id
    for entry in [taken, *others]:
        if entry.state in (PENDING, MISMATCH):
            entry.state = AGREED if body is None else "overruled"
        entry.hand_id = hand_id if entry.state == AGREED else None
        entry.decided_at, entry.decided_by = now, by
    db.session.flush()
    stored = {**(body if body is not None else taken.body), "id": hand_id}
    _drop_past_the_end(game, principal, taken, stored, now)
    # Told with the hand's storing (the points after it), in the same transaction.
    agreed = agreement(game, how="entries agreed", by=by, entry_id=taken.id, hand_id=hand_id)
    if taken.kind == HAND:
        found = hand_entry.entry_of(game.id, hand_id)
        hand_entry.record_locked(found, principal, stored, agreed,
                                 played_before_time=checks.before_time(game, [taken, *others]))
    else:
        sheet_batch.enter_hands_the_long_way(game.id, principal, stored, agreed)


def _drop_past_the_end(game, principal: Principal, taken: HandEntry, stored: dict,
                       now) -> None:
    """When the hand (or sheet) about to be stored ends the game, the entries still waiting
    after it (a side that had entered further, its line ending later than the agreed one)
    can never be agreed: they are set aside, so nothing waits on a finished game."""
    preset = preset_of(db.session.get(Event, game.event_id))
    rows = [stored] if taken.kind == HAND else stored["hands"]
    scores = [stored_score(h) for h in game.hands]
    scores += [score_hand(rules_hand(row), preset) for row in rows]
    if compute_state(game, scores, preset=preset).end in ("target", "hands"):
        # (time called ends a game too, but the hands still being agreed were played)
        set_aside_waiting(game, principal, "the game was over before it", now,
                          after=taken.number)


def set_aside_waiting(game, principal: Principal, why: str, now=None, after: int = 0) -> None:
    """Set aside the game's new hands and sheets still waiting to be agreed (numbered after
    `after`), audited with `why`: the game is over (its last hand agreed, or forfeited), so
    they can never count. Changes proposed to its agreed hands still wait."""
    now = now or utcnow()
    for entry in waiting_entries(game.id):
        if entry.kind in CHANGES or entry.number <= after:
            continue
        before = entry_view(entry)
        entry.state, entry.decided_at, entry.decided_by = "withdrawn", now, why
        audit(game.event_id, principal, "drop-hand-entry", "hand_entry", entry.id,
              before=before, after={"reason": why},
              round_number=game.match.round.number, table=game.match.table)
    db.session.flush()


# --- deciding a waiting entry ----------------------------------------------------------------


def _the_entry(event_id: int, game, entry_id: str) -> HandEntry:
    row = db.session.get(HandEntry, {"event_id": event_id, "id": entry_id})
    if row is None or row.game_id != game.id:
        raise not_found(f"Entry '{entry_id}' of {lower_first(game_label(game))}")
    return row


def _confirm_mode(preset, what: str) -> None:
    if preset.verification != CONFIRM_EACH_HAND:
        raise Conflict(f"This event checks scores by {checks.MODE_WORDS[preset.verification]}, so "
                       f"an entry is not {what} by the other side"
                       + (": each side enters the hand itself." if preset.verification
                          == DOUBLE_ENTRY else "."), code="not-confirm-mode")


def _not_waiting(row: HandEntry) -> Conflict:
    by = f" by {row.decided_by}" if row.decided_by else ""
    return Conflict(f"{hands_words(row)} (entry '{row.id}') no longer waits: it was "
                    f"{row.state}{by}.", code="entry-decided")


def confirm(game_id: int, entry_id: str, principal: Principal, side: str) -> dict:
    """The other side confirms a waiting entry: the hand is stored."""
    event, game, preset = locked_game(game_id)
    row = _the_entry(event.id, game, entry_id)
    if row.kind not in CHANGES:  # a change of an agreed hand is confirmed in either mode
        _confirm_mode(preset, "confirmed")
    if row.state == AGREED and row.decided_by == f"side {side}":  # sent again
        db.session.rollback()
        return _answer(game_id, side, principal)
    if row.state != PENDING:
        raise _not_waiting(row)
    if row.side == side:
        raise Conflict(f"Side {side} entered {hands_words(row).lower()}; the other side "
                       "confirms it, not the side that entered it.", code="own-entry")
    writable(game, principal)
    if row.kind in CHANGES:
        hand_changes.check_still_there(game, row)
        hand_changes.apply(event, game, preset, row, principal, f"side {side}")  # commits
        return _answer(game_id, side, principal)
    if row.number != game.entries + 1:
        raise Conflict(f"Confirm hand {game.entries + 1} first: hands are confirmed in "
                       "order.", code="confirm-in-order")
    audit(event.id, principal, "confirm-hand-entry", "hand_entry", row.id,
          after={"number": row.number, "entered_by": f"side {row.side}",
                 "confirmed_by": f"side {side}"},
          round_number=game.match.round.number, table=game.match.table)
    _store(game, principal, row, [], by=f"side {side}")  # commits
    return _answer(game_id, side, principal)


def _drop(row: HandEntry, state: str, by: str, waiting: list[HandEntry], mode: str) -> None:
    """A waiting entry set aside (rejected or withdrawn): the entries after it that counted
    it move down, so hand numbers stay without gaps."""
    row.state, row.decided_at, row.decided_by = state, utcnow(), by
    for later in waiting:
        if later is not row and later.number > row.number and \
                (mode == CONFIRM_EACH_HAND or later.side == row.side):
            later.number -= row.count


def reject(game_id: int, entry_id: str, principal: Principal, side: str,
           reason: str | None) -> dict:
    """The other side says the waiting entry is wrong: it is set aside, with who and why in
    the audit log; the entering side enters the hand again."""
    event, game, preset = locked_game(game_id)
    row = _the_entry(event.id, game, entry_id)
    if row.kind not in CHANGES:
        _confirm_mode(preset, "rejected")
    if row.state == "rejected" and row.decided_by == f"side {side}":
        db.session.rollback()
        return _answer(game_id, side, principal)
    if row.state != PENDING:
        raise _not_waiting(row)
    if row.side == side:
        raise Conflict(f"Side {side} entered {hands_words(row).lower()}: withdraw it or "
                       "change it instead; the other side rejects it.", code="own-entry")
    writable(game, principal)
    before = entry_view(row)
    _drop(row, "rejected", f"side {side}", waiting_entries(game.id), preset.verification)
    audit(event.id, principal, "reject-hand-entry", "hand_entry", row.id, before=before,
          after={"rejected_by": f"side {side}", "reason": reason},
          round_number=game.match.round.number, table=game.match.table)
    db.session.commit()
    return _answer(game_id, side, principal)


def _own_waiting(event_id: int, game, entry_id: str, side: str, what: str) -> HandEntry:
    row = _the_entry(event_id, game, entry_id)
    if row.side != side:
        raise Conflict(f"Side {row.side} entered {hands_words(row).lower()}; only the side "
                       f"that entered it may {what} it.", code="not-own-entry")
    return row


def withdraw(game_id: int, entry_id: str, principal: Principal, side: str) -> dict:
    """The entering side takes its waiting entry (or its proposed change of an agreed hand)
    back. Nothing agreed changes, so the side may do it after the correction window too."""
    event, game, preset = locked_game(game_id)
    row = _own_waiting(event.id, game, entry_id, side, "withdraw")
    if row.state == "withdrawn":
        db.session.rollback()
        return _answer(game_id, side, principal)
    if row.state != PENDING:
        raise _not_waiting(row)
    closed = may_take_back(game)
    before = entry_view(row)
    _drop(row, "withdrawn", f"side {side}", waiting_entries(game.id), preset.verification)
    audit(event.id, principal, "withdraw-hand-entry", "hand_entry", row.id, before=before,
          after={"window_closed_at": closed} if closed is not None else None,
          round_number=game.match.round.number, table=game.match.table)
    db.session.commit()
    return _answer(game_id, side, principal)


def change(game_id: int, entry_id: str, principal: Principal, body: dict) -> dict:
    """The entering side corrects its waiting entry of one hand before it is decided."""
    event, game, preset = locked_game(game_id)
    side = checks.needs_side(body, preset.verification)
    row = _own_waiting(event.id, game, entry_id, side, "change")
    if row.state != PENDING:
        raise _not_waiting(row)
    if row.kind in CHANGES:
        raise Conflict(f"{hands_words(row)} is a proposed change: propose it again (PUT the "
                       "hand with your side); the new proposal replaces it.",
                       code="change-entry")
    if row.kind != HAND:
        raise Conflict("A sheet's entry is not changed row by row: withdraw it and enter the "
                       "sheet again.", code="sheet-entry")
    writable(game, principal)
    fields = hand_fields(body)
    if fields == row.body:  # the same change sent again
        db.session.rollback()
        return _answer(game_id, side, principal)
    checks.check_entry(game, preset, HAND, fields)
    before = entry_view(row)
    row.body, row.content = fields, checks.content(HAND, fields)
    audit(event.id, principal, "change-hand-entry", "hand_entry", row.id, before=before,
          after=entry_view(row), round_number=game.match.round.number,
          table=game.match.table)
    db.session.commit()
    return _answer(game_id, side, principal)


def settle(game_id: int, number: int, principal: Principal, take: str | None,
           corrected: dict | None, kind: str = HAND) -> dict:
    """A mismatch settled: one side's entry taken (`take`), or a corrected hand (or sheet)
    stored instead of both; by the table's key or the organizer's, audited."""
    event, game, preset = locked_game(game_id)
    by = "the organizer" if principal.role == ORGANIZER else "the table"
    rows = list(db.session.execute(
        select(HandEntry).where(HandEntry.game_id == game.id, HandEntry.number == number,
                                HandEntry.state.in_((MISMATCH, AGREED, "overruled")))
        .order_by(HandEntry.decided_at)).scalars())
    pair = {e.side: e for e in rows if e.state == MISMATCH}
    if len(pair) != 2:
        settled = {e.side: e for e in rows if e.state != MISMATCH}  # the latest of each side
        if len(settled) == 2 and _settled_so(settled, take, corrected):
            db.session.rollback()  # sent again: settled as asked
            return _answer(game_id, None, principal)
        raise Conflict(f"Hand {number} of {lower_first(game_label(game))} is not a mismatch "
                       "waiting to be settled.", code="not-a-mismatch")
    writable(game, principal)
    before = {side: entry_view(e) for side, e in pair.items()}
    if take is None and corrected is None:
        raise Invalid("Say how to settle it: 'take' a side's entry, or the corrected hand.",
                      code="settle-how")
    if take is None and pair["A"].kind != kind:
        raise Invalid(f"{hands_words(pair['A'])} was entered as a {pair['A'].kind}: settle "
                      f"it with a corrected {pair['A'].kind}, or take a side's entry.",
                      code="settle-how")
    audit(event.id, principal, "settle-mismatch", "game", game.id, before=before,
          after={"number": number, "settled_by": by, "took": take,
                 "corrected": corrected is not None},
          round_number=game.match.round.number, table=game.match.table)
    if take is not None:
        loser = pair["B" if take == "A" else "A"]
        loser.state = "overruled"
        _store(game, principal, pair[take], [loser], by=by)  # commits
    else:
        checks.id_free(event.id, corrected, kind)
        fields = checks.fields(kind, corrected)
        checks.check_entry(game, preset, kind, fields,
                           played_before_time=checks.before_time(game, list(pair.values())))
        _store(game, principal, pair["A"], [pair["B"]], by=by,
               body={**fields, "id": corrected["id"]})
    return _answer(game_id, None, principal)


def _settled_so(pair: dict, take: str | None, corrected: dict | None) -> bool:
    """Whether this hand's mismatch was settled the way asked (a settlement sent again)."""
    if take is not None:
        return pair[take].state == AGREED and pair["B" if take == "A" else "A"].state == \
            "overruled"
    return corrected is not None and all(e.state == "overruled" for e in pair.values()) and \
        db.session.get(Hand, {"event_id": pair["A"].event_id, "id": corrected["id"]}) \
        is not None
