"""What an event keeps beside its play: results, deleted hands, keys, limits, the audit log,
door requests and forfeits."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db
from .base import Timestamp, utcnow


class DeletedHand(db.Model):
    """The id of a hand that was deleted (undone): a phone that sends it again, say from an
    outbox that never heard the first answer, is told so instead of storing it a second time."""

    __tablename__ = "deleted_hands"
    __table_args__ = (PrimaryKeyConstraint("event_id", "id"),)

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    id: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # its place in the game when deleted
    fingerprint: Mapped[str] = mapped_column(String(64))
    deleted_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    deleted_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # key id


class HandEntry(db.Model):
    """One side's entry of a hand (or of a paper sheet's hands) while the event verifies
    scores by confirmation or double entry: not a hand until both sides agree, then stored as
    one through the hand path. Kept after it is decided (agreed, rejected, withdrawn or
    overruled) so that a phone sending it again gets the same answer."""

    __tablename__ = "hand_entries"
    __table_args__ = (PrimaryKeyConstraint("event_id", "id"),
                      Index("ix_hand_entries_game_state", "game_id", "state"))

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    id: Mapped[str] = mapped_column(String(64))  # made on the phone, as a hand's id is
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # the (first) hand number it enters
    count: Mapped[int] = mapped_column(Integer, default=1)  # hands it enters (a sheet: rows)
    kind: Mapped[str] = mapped_column(String(8), default="hand")  # hand | sheet
    side: Mapped[str] = mapped_column(String(1))  # the side that entered it
    body: Mapped[dict] = mapped_column(JSON)  # the hand's fields (a sheet's rows) as entered
    fingerprint: Mapped[str] = mapped_column(String(64))  # the request as sent (retries)
    content: Mapped[str] = mapped_column(String(64))  # what the two sides' entries compare
    # pending | mismatch | agreed | rejected | withdrawn | overruled
    state: Mapped[str] = mapped_column(String(12), default="pending")
    hand_id: Mapped[str | None] = mapped_column(String(64), nullable=True)  # what it became
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # key id
    decided_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(40), nullable=True)  # side B, ...


class Result(db.Model):
    """One entrant's part in one game: the totals the standings read, kept as hands change."""

    __tablename__ = "results"
    __table_args__ = (Index("ix_results_event_entrant", "event_id", "entrant_id"),
                      Index("ix_results_event_revision", "event_id", "revision"))

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16))
    table: Mapped[int] = mapped_column(Integer)
    entrant_id: Mapped[int] = mapped_column(Integer)  # a player or a team, by the format
    side: Mapped[str] = mapped_column(String(1))
    partner_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    opponent_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points: Mapped[int] = mapped_column(Integer, default=0)
    against: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    ghost_table: Mapped[bool] = mapped_column(Boolean, default=False)
    forfeited: Mapped[bool] = mapped_column(Boolean, default=False)
    # The event's revision when the row was last written: a game's rows are always written
    # together, so a reader that knows the totals at revision R reads only rows since R.
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ApiKey(db.Model):
    """An access key: organizer (everything for its event) or runner (hands, maybe one table).
    Only a digest of the secret is stored."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    role: Mapped[str] = mapped_column(String(16))  # organizer | runner
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    hint: Mapped[str] = mapped_column(String(8))  # the last characters, to tell keys apart
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    # A team key (role "team"): the league team whose captain holds it.
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"),
                                                nullable=True, index=True)


class RateLimit(db.Model):
    """Attempts in the current window for one bucket (e.g. an event's join PIN at a table)."""

    __tablename__ = "rate_limits"

    bucket: Mapped[str] = mapped_column(String(120), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(Timestamp)
    attempts: Mapped[int] = mapped_column(Integer, default=0)


class AuditEntry(db.Model):
    """A change after entry: who, when, what it was before and after."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    role: Mapped[str] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(40))
    entity: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[str] = mapped_column(String(64))
    round_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    before: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class DoorRequest(db.Model):
    """Someone at the door who is not registered yet asks to be added (self check-in); the
    organizer accepts (a player is added and checked in) or declines."""

    __tablename__ = "door_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(120))
    status: Mapped[str] = mapped_column(String(16), default="waiting")  # waiting|accepted|declined
    player_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # once accepted
    client: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)


class Forfeit(db.Model):
    """A league team's forfeit in one week: the reason and the games it cost."""

    __tablename__ = "forfeits"
    __table_args__ = (UniqueConstraint("match_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id"))
    round_number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    minutes_late: Mapped[int | None] = mapped_column(Integer, nullable=True)
    games: Mapped[list] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    # Recorded before the night (the team said it cannot come), and by whom: organizer or
    # the team's captain.
    advance: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    announced_by: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Ruling(db.Model):
    """The organizer's ruling on a game, with its reason (games/rulings.py): points to a side
    (`adjust`), a forfeit, a protest upheld (the protested side forfeits) or rejected. A
    withdrawn ruling is kept, with when and why, and no longer counts."""

    __tablename__ = "rulings"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))  # adjust|forfeit|protest_upheld|_rejected
    side: Mapped[str | None] = mapped_column(String(1), nullable=True)
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(300))
    protest_id: Mapped[int | None] = mapped_column(
        ForeignKey("protests.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # key id
    withdrawn_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    withdrawn_reason: Mapped[str | None] = mapped_column(String(300), nullable=True)


class Protest(db.Model):
    """A league team's protest about an opposing player's eligibility, lodged before a
    playoff game (league/protests.py); the organizer rules on it later."""

    __tablename__ = "protests"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id"))  # the team protesting
    against_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id"))  # the protested one
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))  # whose eligibility
    grounds: Mapped[str] = mapped_column(String(300))
    lodged_by: Mapped[str] = mapped_column(String(16))  # team | organizer
    status: Mapped[str] = mapped_column(String(16), default="waiting")  # |upheld|rejected
    lodged_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    ruled_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    ruling_reason: Mapped[str | None] = mapped_column(String(300), nullable=True)


class Call(db.Model):
    """A table calling the organizer from its phone (games/calls.py): waiting until answered."""

    __tablename__ = "calls"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    table: Mapped[int] = mapped_column(Integer)
    round_number: Mapped[int] = mapped_column(Integer)
    key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the calling key
    called_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    answered_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # key id
