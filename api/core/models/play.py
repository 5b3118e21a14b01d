"""An event and its play: entrants, rounds, matches, seats, games and hands."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Integer,
    PrimaryKeyConstraint,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db import db
from .base import Timestamp, utcnow


def _local_today(context) -> date:
    """Today in the new event's time zone (its default night date)."""
    try:
        zone = ZoneInfo(context.get_current_parameters().get("time_zone") or "UTC")
    except (LookupError, ValueError):
        zone = UTC
    return utcnow().astimezone(zone).date()


class Event(db.Model):
    """A tournament or a league season, run under one preset (plus any overrides)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)  # public, short, for links
    name: Mapped[str] = mapped_column(String(120))
    preset_key: Mapped[str] = mapped_column(String(32))
    parameters: Mapped[dict] = mapped_column(JSON)  # the full resolved format
    status: Mapped[str] = mapped_column(String(16), default="open")
    # Bumped in the same transaction as every change, so a poller's ETag changes with it.
    revision: Mapped[int] = mapped_column(Integer, default=1)
    seed: Mapped[int] = mapped_column(Integer)  # seating randomness, repeatable
    join_pin: Mapped[str] = mapped_column(String(12))
    # The organizer's recorded order for entrants level on the tie-breaks: {entrant id: place}.
    manual_order: Mapped[dict] = mapped_column(JSON, default=dict)
    # A fixed schedule made up front (WEC singles seats, the league season), when the format
    # has one.
    schedule: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # The venue's IANA time zone: check-in windows, league nights and export times use it.
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    # The club it belongs to, if any: its players are then the club's people.
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", ondelete="SET NULL"),
                                                nullable=True, index=True)
    # The awards from the hands the organizer chose (rules/stats.py HAND_AWARDS), if any.
    hand_awards: Mapped[list | None] = mapped_column(JSON, nullable=True)
    # Every entrant's place and total, kept when the event is marked finished (series and
    # profiles read a year of nights from these; club/finishes.py).
    finishes: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # Event day (standings/event_day): the entry fee, maintenance fee and payout split
    # (rules/prizes.py); the check-in window (UTC, entered in the event's time zone); the door
    # token that the self check-in QR carries (rotated by the organizer); the organizer's named
    # awards, the entrant categories with their prize places, and the door-prize draws.
    money: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    check_in_opens_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    check_in_closes_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    door_token: Mapped[str | None] = mapped_column(String(32), nullable=True)
    named_awards: Mapped[list | None] = mapped_column(JSON, nullable=True)
    categories: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    draws: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    # The day the night was played (RULES.md §5), set by the organizer; by default the day it
    # was made, in its time zone. Series, profiles and charts date it by this.
    night_date: Mapped[date] = mapped_column(Date, default=_local_today)
    # When a club set the night aside (made by mistake, with results): it leaves the club's
    # lists, series and profiles (club/clubs.py).
    archived_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    # League operations (league/captains.py): the team registration link's token, when
    # captains' registration closes, and the week after which rosters are final (None: 2).
    registration_token: Mapped[str | None] = mapped_column(String(32), nullable=True)
    registration_closes_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    roster_lock_week: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The divisions a captain picks from when registering (None: captains pick none).
    registration_divisions: Mapped[list | None] = mapped_column(JSON, nullable=True)
    # A league's calendar feeds read only through each team's secret link (api/feeds).
    calendar_private: Mapped[bool] = mapped_column(Boolean, default=False,
                                                   server_default=false())

    players: Mapped[list[Player]] = relationship(back_populates="event",
                                                 order_by="Player.position")
    teams: Mapped[list[Team]] = relationship(back_populates="event", order_by="Team.position")
    rounds: Mapped[list[Round]] = relationship(back_populates="event", order_by="Round.number")


class EventDayMarks:
    """What an entrant (a team, or a player of an individual event) carries on the event day:
    stays at this table every round (an accommodation; 0 = where seated in round 1), entry
    fee paid, disqualified (the reason; results stand, no place or prize), the categories it
    is tagged into ("High lady"); and when it was registered."""

    stays_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paid: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    disqualified: Mapped[str | None] = mapped_column(String(200), nullable=True)
    categories: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Team(EventDayMarks, db.Model):
    """A fixed team of two (team formats); in a league, its roster and substitutes."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("event_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(Integer)  # registration order
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)  # league: third offence
    # A league's division (skill level); None when the league has one pool.
    division: Mapped[str | None] = mapped_column(String(40), nullable=True)
    playoff_excluded: Mapped[bool] = mapped_column(Boolean, default=False)

    event: Mapped[Event] = relationship(back_populates="teams")
    members: Mapped[list[Player]] = relationship(back_populates="team",
                                                 order_by="Player.position")


class Player(EventDayMarks, db.Model):
    """A person in an event: an individual entrant, or a team's roster player or substitute."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("event_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(Integer)  # registration order
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"),
                                                nullable=True, index=True)
    role: Mapped[str] = mapped_column(String(16), default="player")  # player | substitute
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    checked_in_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    late: Mapped[bool] = mapped_column(Boolean, default=False)  # arrived after round 1
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    # The club's record of this person, in a club's event (linked on an exact name match or
    # by the organizer's decision; never on a guess).
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id", ondelete="SET NULL"),
                                                  nullable=True, index=True)

    event: Mapped[Event] = relationship(back_populates="players")
    team: Mapped[Team | None] = relationship(back_populates="members")


class Round(db.Model):
    """A round of an event (a league week, a WEC game number, a playoff stage)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16), default="regular")
    label: Mapped[str] = mapped_column(String(60))
    status: Mapped[str] = mapped_column(String(16), default="playing")  # scheduled|playing|closed
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the clock's length
    clock_started_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    time_called_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)

    event: Mapped[Event] = relationship(back_populates="rounds")
    matches: Mapped[list[Match]] = relationship(back_populates="round",
                                                order_by="Match.table")


class Match(db.Model):
    """One table in one round: side A against side B for one or more games."""

    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("round_id", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"),
                                          index=True)
    table: Mapped[int] = mapped_column(Integer)
    team_a_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id"), nullable=True)
    team_b_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id"), nullable=True)
    games_planned: Mapped[int] = mapped_column(Integer, default=1)
    best_of: Mapped[bool] = mapped_column(Boolean, default=False)
    winner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # scheduled|playing|over
    signed_off_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    signed_off_by: Mapped[str | None] = mapped_column(String(120), nullable=True)

    round: Mapped[Round] = relationship(back_populates="matches")
    seats: Mapped[list[Seat]] = relationship(back_populates="match", order_by="Seat.seat",
                                             cascade="all, delete-orphan")
    games: Mapped[list[Game]] = relationship(back_populates="match", order_by="Game.number",
                                             cascade="all, delete-orphan")
    team_a: Mapped[Team | None] = relationship(foreign_keys=[team_a_id])
    team_b: Mapped[Team | None] = relationship(foreign_keys=[team_b_id])


class Seat(db.Model):
    """Who sits where at a match: seats 1 and 3 are side A, 2 and 4 side B; no player = ghost."""

    __tablename__ = "seats"
    __table_args__ = (CheckConstraint("seat BETWEEN 1 AND 4", name="seat_number"),)

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True,
                                                  index=True)

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()


class Game(db.Model):
    """One game of a match, with its running totals kept as hands are entered."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          index=True)
    number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16), default="regular")
    target_points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hands_per_game: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points_a: Mapped[int] = mapped_column(Integer, default=0)
    points_b: Mapped[int] = mapped_column(Integer, default=0)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    entries: Mapped[int] = mapped_column(Integer, default=0)  # hands + penalty entries
    end: Mapped[str | None] = mapped_column(String(16), nullable=True)
    winner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    level: Mapped[bool] = mapped_column(Boolean, default=False)
    tie_method: Mapped[str | None] = mapped_column(String(16), nullable=True)
    tie_winner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    forfeited_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    from_sheet: Mapped[bool] = mapped_column(Boolean, default=False)
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bumps: Mapped[dict] = mapped_column(JSON, default=dict)  # {"1": dollars, ...} per seat
    signed_off_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    signed_off_by: Mapped[str | None] = mapped_column(String(120), nullable=True)
    last_entry_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    # The organizer's standing rulings (games/rulings.py): points they add to each side (in
    # points_a/points_b already), and whether any ruling stands on the game at all.
    adjust_a: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    adjust_b: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ruled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Changes after the table's correction window closed, each with the organizer's reason:
    # [{"at", "reason", "key_id"}] (games/game_writes.py); the scoresheet shows them.
    corrections: Mapped[list | None] = mapped_column(JSON, nullable=True)
    # Optimistic locking: If-Match carries this; a stale edit is refused with 412.
    version: Mapped[int] = mapped_column(Integer, default=1)

    match: Mapped[Match] = relationship(back_populates="games")
    hands: Mapped[list[Hand]] = relationship(back_populates="game", order_by="Hand.number",
                                             cascade="all, delete-orphan")

    __mapper_args__ = {"version_id_col": version}


class Hand(db.Model):
    """One hand (or a penalty entry) as entered, with what it scored."""

    __tablename__ = "hands"
    # The id is made on the phone: unique within its event, so one event's ids never
    # collide with another's (a runner's "hand-1" is theirs alone).
    __table_args__ = (PrimaryKeyConstraint("event_id", "id"),
                      UniqueConstraint("game_id", "number"))

    id: Mapped[str] = mapped_column(String(64))
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16), default="play")
    maker: Mapped[str | None] = mapped_column(String(1), nullable=True)
    alone: Mapped[bool] = mapped_column(Boolean, default=False)
    loner_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tricks: Mapped[int | None] = mapped_column(Integer, nullable=True)
    renege_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    renege_upheld: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    surrendered: Mapped[list] = mapped_column(JSON, default=list)
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    trump: Mapped[str | None] = mapped_column(String(8), nullable=True)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)
    points_a: Mapped[int] = mapped_column(Integer, default=0)
    points_b: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str] = mapped_column(String(16))
    outcome: Mapped[str] = mapped_column(String(120))
    bumps: Mapped[dict] = mapped_column(JSON, default=dict)
    # A digest of what the runner sent: the same id with another body is a conflict.
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # key id

    game: Mapped[Game] = relationship(back_populates="hands")
