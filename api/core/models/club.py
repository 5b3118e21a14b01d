"""A club and its year: keys, people, series and the club's audit log."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db
from .base import Timestamp, utcnow


class Club(db.Model):
    """An organization that plays again and again: its events, people and series."""

    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    slug: Mapped[str | None] = mapped_column(String(40), unique=True, nullable=True)
    # Bumped by every change to the registry (renames, merges, splits, privacy): what is kept
    # of profiles per process is kept for a revision.
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    # People's data (RULES.md section 9): whether new people start private, whether search
    # engines may index people's pages, and how many people the club has erased.
    people_private_by_default: Mapped[bool] = mapped_column(Boolean, default=False,
                                                            server_default=false())
    indexable: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    erased_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class ClubKey(db.Model):
    """A club key: everything an organizer key can do, in every event of its club."""

    __tablename__ = "club_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    hint: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)


class Person(db.Model):
    """One person in a club's registry, across all its events and formats."""

    __tablename__ = "people"
    __table_args__ = (UniqueConstraint("club_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    name_key: Mapped[str] = mapped_column(String(120))  # the name folded: one per club
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    # The profile's figures as last computed once every night of theirs was finished, and a
    # digest of what they came from (club/profiles.py); loaded only when read.
    profile_stamp: Mapped[str | None] = mapped_column(String(64), nullable=True)
    profile_kept: Mapped[dict | None] = mapped_column(JSON, nullable=True, deferred=True)
    erased_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Series(db.Model):
    """A named set of a club's events with a scoring rule that is data."""

    __tablename__ = "series"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    # {"method": "total"} or {"method": "places", "points": [10, 8, 6, ...]}
    scoring: Mapped[dict] = mapped_column(JSON)
    best_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    min_events: Mapped[int | None] = mapped_column(Integer, nullable=True)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    # A digest of what the rows in `series_rows` were computed from, once every event of the
    # series was finished (club/series.py): a fresh worker reads a page of them instead
    # of a year of finishes.
    standings_stamp: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class SeriesRow(db.Model):
    """One row of a series' standings as kept (see Series.standings_stamp), in order."""

    __tablename__ = "series_rows"

    series_id: Mapped[int] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"),
                                           primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    events_played: Mapped[int] = mapped_column(Integer)
    counted: Mapped[int] = mapped_column(Integer)
    total: Mapped[float] = mapped_column(Float)
    ranked: Mapped[bool] = mapped_column(Boolean)
    results: Mapped[list] = mapped_column(JSON)  # each event's: as the standings answer it


class SeriesEvent(db.Model):
    __tablename__ = "series_events"

    series_id: Mapped[int] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"),
                                           primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          primary_key=True, index=True)


class ClubAudit(db.Model):
    """A change to a club's records: who (which key), when, before and after."""

    __tablename__ = "club_audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # a club key's id
    action: Mapped[str] = mapped_column(String(40))
    entity: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[str] = mapped_column(String(64))
    before: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict | None] = mapped_column(JSON, nullable=True)
