"""Calendar feeds (api/feeds): the secret links of a league's team calendars."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db
from .base import Timestamp, utcnow


class TeamCalendar(db.Model):
    """A secret link to one team's calendar feed (a private league's feeds are read only
    through these). The token is the key: it is shown again on the team page, so it is kept
    as it is, like the registration link's; a new link revokes the old one. No event or club
    column: the token is never a name for erasure to look at."""

    __tablename__ = "team_calendars"

    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
