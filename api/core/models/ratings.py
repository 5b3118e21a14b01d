"""Ratings (RULES.md section 8, api/ratings/): each person's rating before and after each
night they played rated games in, each person's rating now, and what the ratings were
computed from (to find the first game a change touched)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import BigInteger, Date, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db


class RatingNight(db.Model):
    """One person's rating before a night's first rated game and after its last, and the
    rated games they played and won in it. `night_order` is the play order of the night's
    first possible game (api/ratings/order.py): a club's rows sort by it, and re-rating a
    change starts at a night's first game, so it deletes and writes whole nights' rows.

    One row per person per night, not per game: what reads them is drawn or told per night
    (the profile's chart, the recap's rating jump), and a club's year is about eight times
    fewer rows this way (a million steps for 2,000,000 hands against 100,000 of these)."""

    __tablename__ = "rating_nights"
    __table_args__ = (Index("ix_rating_nights_club_order", "club_id", "night_order"),)

    # Keyed by (club, person, night's order): a person's chart reads their rows in order by
    # it, and the other index finds a night's rows (a recap) and the club's from a night on
    # (a re-rate). Two B-trees, not three, for the rows a re-rate writes.
    # Foreign keys: only the person's, so a merge's removed person takes their rows along.
    # None to the night or the club: on PostgreSQL each key checked costs COPY about a third
    # more for a club's year of rows, and neither is deleted while it has rated games (a
    # night with results is archived, not deleted; a night gone from the club's ratings has
    # its rows deleted when the club is re-rated from it, api/ratings/rerate.py).
    club_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"),
                                           primary_key=True)
    night_order: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    event_id: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


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
