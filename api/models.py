"""SQLAlchemy tables: persistence only. Behaviour lives in services/ and the game in rules/."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """A timestamp that always comes back as an aware UTC datetime, whatever the backend
    (SQLite keeps no time zone and would hand back naive ones)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


Timestamp = UTCDateTime()


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
    # profiles read a year of nights from these; services/finishes.py).
    finishes: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # Event day (services/event_day): the entry fee, maintenance fee and payout split
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
    # lists, series and profiles (services/clubs.py).
    archived_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    # League operations (services/captains.py): the team registration link's token, when
    # captains' registration closes, and the week after which rosters are final (None: 2).
    registration_token: Mapped[str | None] = mapped_column(String(32), nullable=True)
    registration_closes_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    roster_lock_week: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The divisions a captain picks from when registering (None: captains pick none).
    registration_divisions: Mapped[list | None] = mapped_column(JSON, nullable=True)

    players: Mapped[list[Player]] = relationship(back_populates="event",
                                                 order_by="Player.position")
    teams: Mapped[list[Team]] = relationship(back_populates="event", order_by="Team.position")
    rounds: Mapped[list[Round]] = relationship(back_populates="event", order_by="Round.number")


class Team(db.Model):
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
    # Event day: stays at this table every round (an accommodation; 0 = where seated in
    # round 1), entry fee paid, disqualified (the reason; results stand, no place or prize),
    # the categories it is tagged into ("High lady").
    stays_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paid: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    disqualified: Mapped[str | None] = mapped_column(String(200), nullable=True)
    categories: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)

    event: Mapped[Event] = relationship(back_populates="teams")
    members: Mapped[list[Player]] = relationship(back_populates="team",
                                                 order_by="Player.position")


class Player(db.Model):
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
    # Event day: stays at this table every round (an accommodation; 0 = where seated in
    # round 1), entry fee paid, disqualified (the reason; results stand, no place or prize),
    # the categories it is tagged into ("High lady").
    stays_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paid: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    disqualified: Mapped[str | None] = mapped_column(String(200), nullable=True)
    categories: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)

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
    # digest of what they came from (services/profiles.py); loaded only when read.
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
    # series was finished (services/series.py): a fresh worker reads a page of them instead
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
