"""Ratings (RULES.md section 8, api/ratings/): each rated game's step per person, each
person's rating now, and what the ratings were computed from (to find the first game a
change touched)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import BigInteger, Boolean, Date, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db


class RatingStep(db.Model):
    """One person's rating before and after one rated game. `play_order` sorts a club's
    games in the order they were played (api/ratings/order.py)."""

    __tablename__ = "rating_steps"
    __table_args__ = (Index("ix_rating_steps_person_order", "club_id", "person_id", "play_order"),
                      Index("ix_rating_steps_club_order", "club_id", "play_order"))

    # No foreign key: a game deleted keeps its steps until its night is re-rated (which
    # deletes them), so the counts kept in `ratings` stay exact (api/ratings/rerate.py).
    game_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"),
                                           primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    play_order: Mapped[int] = mapped_column(BigInteger)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    won: Mapped[bool] = mapped_column(Boolean)


class Rating(db.Model):
    """A person's rating after their last rated game, and how many games it counts."""

    __tablename__ = "ratings"

    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"),
                                         primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"),
                                           primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class RatedNight(db.Model):
    """A club night as the ratings last saw it: its revision, date, who played in it (a
    digest of its players' people, which a merge or split changes) and its rated games."""

    __tablename__ = "rated_nights"

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"),
                                         index=True)
    revision: Mapped[int] = mapped_column(Integer)
    night_date: Mapped[date] = mapped_column(Date)
    people: Mapped[str] = mapped_column(String(64))
    games: Mapped[str] = mapped_column(String(64))  # its rated games' digest (order.py)
    club_revision: Mapped[int] = mapped_column(Integer)  # the registry's, when last seen
