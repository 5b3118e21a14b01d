"""A league's calendars: each team's matches (opponent, table, night and start), and the
league's nights (each week and each playoff round) for the league's and the club's feeds.

A match keeps one UID for the season, whatever happens to its night; a postponed or made-up
week, a moved match or a playoff round given another night changes that event (its SEQUENCE
up by one), never adds one. A match that will not be played (a team announced a forfeit
ahead, or withdrew) stays in the feed as STATUS:CANCELLED, so a subscriber's calendar drops
it rather than keeping the old entry; a forfeit ahead taken back confirms it again (another
change: its SEQUENCE up once more)."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..core.common import get_team, preset_of
from ..core.db import db
from ..core.models import AuditEntry, Event, Forfeit, Game, Match, Round, Team
from ..league.forfeits import REMOVE_TEAM, require_league
from ..league.nights import night_dates, night_lookup
from ..league.take_back import TAKE_BACK
from ..rules import games as rgames
from . import ical
from .history import replay, zone_changes

STAGES = (rgames.REGULAR, rgames.PLAYOFF)
UPDATE_TEAM = "update-team"  # the audit action of night/entrant_changes.update_team


def is_league(event: Event) -> bool:
    return preset_of(event).movement == "league-schedule"


def _when(event: Event, night: date) -> tuple[date | datetime, datetime | None]:
    """A night's start in the venue's time zone and its end (a whole day without a start
    time)."""
    start = (event.schedule or {}).get("start")
    if not start:
        return night, None
    begins = datetime.combine(night, time.fromisoformat(start),
                              tzinfo=ZoneInfo(event.time_zone or "UTC"))
    return begins, begins + ical.EVENING


def _zone_moved(event: Event) -> list[datetime]:
    """The time zone's changes, which move every entry with a start time (none without)."""
    return zone_changes(event) if (event.schedule or {}).get("start") else []


def _since(changes: list[datetime], created: datetime) -> list[datetime]:
    return [t for t in changes if t > created]


def load_season(event: Event) -> dict[int, list[str | None]]:
    """Every round of the league with its matches, in two queries (a feed reads them all,
    several times over), and each match's games' winners ("A", "B" or None), in one more.
    The event's rounds are loaded first: the session keeps only rows something holds, and the
    event holds its rounds."""
    assert event.rounds is not None
    db.session.execute(select(Round).where(Round.event_id == event.id).options(
        selectinload(Round.matches))).scalars().all()
    winners: dict[int, list[str | None]] = {}
    for match_id, winner in db.session.execute(
            select(Game.match_id, Game.winner).where(Game.event_id == event.id)):
        winners.setdefault(match_id, []).append(winner)
    return winners


def _matches(event: Event) -> list[Match]:
    return [m for r in event.rounds if r.stage in STAGES for m in r.matches
            if m.team_a_id is not None and m.team_b_id is not None]


def _match_nights(then) -> dict:
    night = night_lookup(then)
    return {m.id: night(m.id, m.round.number, m.round.stage)
            for r in then.rounds if r.stage in STAGES for m in r.matches}


def _withdrawals(event: Event) -> dict[int, list[datetime]]:
    """When each team was withdrawn or brought back (the audit log's team changes)."""
    out: dict[int, list[datetime]] = {}
    for team_id, at, before, after in db.session.execute(
            select(AuditEntry.entity_id, AuditEntry.at, AuditEntry.before, AuditEntry.after)
            .where(AuditEntry.event_id == event.id, AuditEntry.action == UPDATE_TEAM)
            .order_by(AuditEntry.id)):
        if bool((before or {}).get("withdrawn")) != bool((after or {}).get("withdrawn")):
            out.setdefault(int(team_id), []).append(at)
    return out


def _removals(event: Event) -> dict[int, datetime]:
    """When each team was removed from the league (its third offence's week started)."""
    return {int(team_id): at for team_id, at in db.session.execute(
        select(AuditEntry.entity_id, AuditEntry.at)
        .where(AuditEntry.event_id == event.id, AuditEntry.action == REMOVE_TEAM))}


def _forfeits_ahead(event: Event) -> tuple[dict[int, list[datetime]], dict[int, datetime]]:
    """When a forfeit announced ahead made each match one not to be played, or a forfeit
    taken back (the audit log keeps when it had been announced) made it one to play again;
    and each team's latest forfeit. A match forfeited ahead, taken back and forfeited again
    has three changes: its SEQUENCE goes up at each, never down."""
    spans: dict[int, list[tuple[datetime, datetime | None]]] = {}
    last_forfeit: dict[int, datetime] = {}
    for f in db.session.execute(select(Forfeit).where(Forfeit.event_id == event.id))\
            .scalars():
        if f.advance:
            spans.setdefault(f.match_id, []).append((f.created_at, None))
        last_forfeit[f.team_id] = max(last_forfeit.get(f.team_id, f.created_at), f.created_at)
    for match_id, at, before in db.session.execute(
            select(AuditEntry.entity_id, AuditEntry.at, AuditEntry.before)
            .where(AuditEntry.event_id == event.id, AuditEntry.action == TAKE_BACK)):
        announced = (before or {}).get("announced_at")
        spans.setdefault(int(match_id), []).append(
            (datetime.fromisoformat(announced) if announced else at, at))
    return {match_id: _flips(found) for match_id, found in spans.items()}, last_forfeit


def _flips(spans: list[tuple[datetime, datetime | None]]) -> list[datetime]:
    """The times a match went from to be played to not (a span begins while none is open)
    and back (the last open span ends)."""
    steps = sorted([(start, 1) for start, _ in spans] +
                   [(end, -1) for _, end in spans if end is not None])
    flips, open_ = [], 0
    for at, step in steps:
        if (open_ == 0) != (open_ + step == 0):
            flips.append(at)
        open_ += step
    return flips


def _not_played(event: Event) -> tuple[set[int], dict[int, list[datetime]]]:
    """The matches that will not be played (a forfeit announced ahead by either team, or a
    team withdrawn or removed before the match was over), and when each match's status
    changed: the forfeit (and its taking back), every withdrawal of either team and its
    return, the removal (when the week of the team's third offence started). So a
    team withdrawn and brought back raises its matches' SEQUENCE twice, never lowers it."""
    ahead, last_forfeit = _forfeits_ahead(event)
    toggled, removals = _withdrawals(event), _removals(event)
    teams = {t.id: t for t in event.teams}
    cancelled = {m for m, flips in ahead.items() if len(flips) % 2}
    changes = {m: list(flips) for m, flips in ahead.items() if flips}
    for match in _matches(event):
        made = match.round.created_at
        for team_id in (match.team_a_id, match.team_b_id):
            team = teams.get(team_id)
            if team is None:
                continue
            times = [t for t in toggled.get(team_id, []) if t > made]
            if team.withdrawn and not toggled.get(team_id):
                times = [made]  # withdrawn with no log of it (a file from elsewhere)
            if team.removed:  # (a file from elsewhere may have no log of the removal)
                times.append(removals.get(team_id) or last_forfeit.get(team_id, made))
            if match.status != "over" and (team.withdrawn or team.removed):
                cancelled.add(match.id)
            if times:
                changes.setdefault(match.id, []).extend(times)
    return cancelled, changes


def _result_words(match: Match, winners: list[str | None], side: str) -> str | None:
    won = sum(1 for w in winners if w == side)
    lost = sum(1 for w in winners if w not in (None, side))
    if match.status != "over" and won + lost < len(winners or [None]):
        return None
    return f"Games won {won}-{lost}."


def match_items(event: Event, team: Team) -> list[ical.Item]:
    """A team's matches that have a night, one VEVENT each."""
    winners = load_season(event)
    names = {t.id: t.name for t in event.teams}
    night = night_lookup(event)
    moved = replay(event, _match_nights)
    cancelled, status_changes = _not_played(event)
    reasons = {m["match_id"]: m.get("reason") for m in (event.schedule or {}).get("moves", [])
               if m.get("match_id")}
    zoned = _zone_moved(event)
    items = []
    for match in _matches(event):
        if team.id not in (match.team_a_id, match.team_b_id):
            continue
        day = night(match.id, match.round.number, match.round.stage)
        if day is None:
            continue
        start, end = _when(event, day)
        home, away = names.get(match.team_a_id), names.get(match.team_b_id)
        times, last = moved.get(match.id, (0, None))
        created = match.round.created_at
        rezoned = _since(zoned, created)
        statused = status_changes.get(match.id, [])
        changed = [t for t in (last, *statused, *rezoned) if t is not None]
        lines = [f"{event.name}, {match.round.label}: {home} (home) v {away} (away), "
                 f"table {match.table}."]
        if match.id in reasons and reasons[match.id]:
            lines.append(f"Moved: {reasons[match.id]}.")
        if match.id in cancelled:
            lines.append("Not played: a team forfeited it ahead or left the league.")
        words = _result_words(match, winners.get(match.id, []),
                              "A" if match.team_a_id == team.id else "B")
        us, them = (home, away) if match.team_a_id == team.id else (away, home)
        summary = f"{match.round.label}: {us} v {them}"
        if words:
            lines.append(words)
        items.append(ical.Item(
            uid=ical.uid("match", event.code, match.id), summary=summary, start=start,
            end=end, location=f"Table {match.table}", description="\n".join(lines),
            created=created, modified=max([created, *changed]),
            sequence=times + len(rezoned) + len(statused),
            status=ical.CANCELLED if match.id in cancelled else ical.CONFIRMED))
    return items


def _week_nights(then) -> dict:
    return {("week", n): day for n, day in enumerate(night_dates(then), start=1)}


def night_items(event: Event) -> list[ical.Item]:
    """The league's nights: each week of the season and each playoff round drawn, one
    VEVENT each (for the league's own feed and the club's)."""
    load_season(event)
    moved = replay(event, _week_nights)
    zoned = _zone_moved(event)
    nights = night_dates(event)
    rounds = {r.number: r for r in event.rounds if r.stage == rgames.REGULAR}
    items = []
    for number, day in enumerate(nights, start=1):
        if day is None:
            continue
        start, end = _when(event, day)
        times, last = moved.get(("week", number), (0, None))
        created = rounds[number].created_at if number in rounds else event.created_at
        rezoned = _since(zoned, created)
        items.append(ical.Item(
            uid=ical.uid("week", event.code, number), summary=f"{event.name}: Week {number}",
            start=start, end=end, created=created,
            modified=max(t for t in (created, last, *rezoned) if t is not None),
            sequence=times + len(rezoned),
            description=f"{event.name}: the league's week {number}."))
    items += _playoff_round_items(event, zoned)
    return items


def _playoff_round_items(event: Event, zoned: list[datetime]) -> list[ical.Item]:
    night = night_lookup(event)
    moved = replay(event, _playoff_nights)
    items = []
    for round_ in (r for r in event.rounds if r.stage == rgames.PLAYOFF):
        day = night(-1, round_.number, round_.stage)
        if day is None:
            continue
        start, end = _when(event, day)
        times, last = moved.get(("playoff", round_.number), (0, None))
        rezoned = _since(zoned, round_.created_at)
        items.append(ical.Item(
            uid=ical.uid("playoff", event.code, round_.number),
            summary=f"{event.name}: {round_.label}", start=start, end=end,
            created=round_.created_at, sequence=times + len(rezoned),
            modified=max(t for t in (round_.created_at, last, *rezoned) if t is not None),
            description=f"{event.name}: {round_.label} (playoffs)."))
    return items


def _playoff_nights(then) -> dict:
    night = night_lookup(then)
    return {("playoff", r.number): night(-1, r.number, r.stage)
            for r in then.rounds if r.stage == rgames.PLAYOFF}


def team_calendar(event: Event, team_id: int) -> tuple[str, list[ical.Item]]:
    """A team's feed: its name and its matches."""
    require_league(preset_of(event))
    team = get_team(event, team_id)
    return f"{team.name} ({event.name})", match_items(event, team)
