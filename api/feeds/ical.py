"""Writing a feed with `icalendar`: one calendar, one VEVENT per thing that happens.

Each VEVENT has a UID that never changes for its match, week, night or round, so a change
(a postponed week, a moved match, a cancelled one) updates the event a subscriber already
has: its SEQUENCE goes up by one per change, and LAST-MODIFIED and DTSTAMP say when the last
change was. These come from what the database already records (the season's list of
changes, the audit log, forfeits), never from the time the feed is read, so two reads of an
unchanged calendar are the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from icalendar import Calendar, Timezone, vDuration, vText
from icalendar import Event as VEvent

PRODID = "-//Euchre scorekeeper//Calendar feeds//EN"
DOMAIN = "euchre-scorekeeper"  # the right-hand side of every UID
# How long a league night or a tournament round is shown when nothing says when it ends.
EVENING = timedelta(hours=3)
REFRESH = timedelta(hours=6)  # how often a subscriber is asked to read the feed again
MEDIA_TYPE = "text/calendar; charset=utf-8"
CONFIRMED, CANCELLED, TENTATIVE = "CONFIRMED", "CANCELLED", "TENTATIVE"


@dataclass
class Item:
    """One VEVENT: when (a date for a whole day, or an aware datetime), what and where, and
    its change history (SEQUENCE, when it was created and last changed)."""

    uid: str
    summary: str
    start: date | datetime
    created: datetime
    modified: datetime
    sequence: int = 0
    end: date | datetime | None = None
    location: str | None = None
    description: str | None = None
    status: str = CONFIRMED


def uid(*parts: object) -> str:
    return "-".join(str(p) for p in parts) + f"@{DOMAIN}"


def local(moment: datetime, zone: str | None) -> datetime:
    """A stored UTC moment in the venue's time zone (written with its TZID)."""
    return moment.astimezone(ZoneInfo(zone or "UTC"))


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(microsecond=0)


def calendar_bytes(name: str, calendar_uid: str, items: list[Item],
                   description: str | None = None) -> bytes:
    """The feed: a VCALENDAR named `name` with its items, in start order, and a VTIMEZONE for
    every time zone they use (covering only the years the items fall in)."""
    # No METHOD: a subscribed feed, not a scheduling message, so each DTSTAMP is when its
    # event was last revised (RFC 5545 3.8.7.2), like LAST-MODIFIED.
    cal = Calendar.new(prodid=PRODID, uid=calendar_uid)
    # RFC 7986 wants VALUE=DURATION on REFRESH-INTERVAL, which `Calendar.new` leaves out.
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    # The name and description typed as TEXT: `icalendar` does not know NAME (RFC 7986) or
    # the X-WR- names by type, and would write a team called "North, the best" unescaped.
    for prop in ("name", "x-wr-calname"):
        cal.add(prop, vText(name))
    if description:
        for prop in ("description", "x-wr-caldesc"):
            cal.add(prop, vText(description))
    cal.add("x-published-ttl", vDuration(REFRESH))  # a DURATION (PT6H), as Outlook reads it
    days = []
    for item in sorted(items, key=_order):
        modified = _utc(item.modified)
        event = VEvent.new(uid=item.uid, summary=item.summary, start=item.start,
                           stamp=modified, last_modified=modified,
                           created=_utc(item.created), sequence=item.sequence,
                           location=item.location, description=item.description,
                           status=item.status)
        if item.end is not None:
            event.add("dtend", item.end)
        event.add("transp", "TRANSPARENT" if item.status == CANCELLED else "OPAQUE")
        cal.add_component(event)
        days.append(item.start if not isinstance(item.start, datetime) else item.start.date())
    if days:
        first, last = min(days).year - 1, max(days).year + 2
        for tzid in sorted(cal.get_missing_tzids()):
            cal.subcomponents.insert(0, _zone(tzid, first, last))
    return cal.to_ical()


@lru_cache(maxsize=64)
def _zone(tzid: str, first: int, last: int) -> Timezone:
    """A time zone's VTIMEZONE for the years a feed covers: worked out once per process (its
    transitions are most of a feed's cost), and only read after."""
    return Timezone.from_tzid(tzid, first_date=date(first, 1, 1), last_date=date(last, 1, 1))


def _order(item: Item) -> tuple:
    start = item.start
    if not isinstance(start, datetime):
        start = datetime.combine(start, datetime.min.time(), tzinfo=UTC)
    return (start.astimezone(UTC), item.uid)
