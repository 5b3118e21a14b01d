"""The portable document's shape: its name and version, and which columns of which tables
each section carries. The sections are the tables themselves, column for column, less what is
secret (keys, PINs, tokens), kept for speed (digests of kept standings and profiles) or only a
device's business (pending entries, deleted hands' ids, calls, door requests, the audit
logs). Everything else is read back as it was, so every standing, series, statistic and
export that is computed from it comes out the same.

docs/portable-format.schema.json is generated from these lists (scripts/portable_schema.py),
and a test keeps the two alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Table

from ..core.models import (
    Club,
    Event,
    Forfeit,
    Game,
    Hand,
    Match,
    Person,
    Player,
    Protest,
    Result,
    Round,
    Ruling,
    Seat,
    Series,
    Team,
)

FORMAT = "euchre-scorekeeper/portable"
VERSION = 1
SCOPES = ("event", "club")


@dataclass(frozen=True)
class Section:
    name: str  # the key in the document
    table: Table
    left_out: frozenset[str] = frozenset()

    @property
    def columns(self) -> list:
        return [c for c in self.table.columns if c.name not in self.left_out]


def _section(name: str, model, *left_out: str) -> Section:
    return Section(name, model.__table__, frozenset(left_out))


# The club itself, and its registry: kept standings and profiles are computed again.
CLUB = _section("club", Club, "id", "slug", "revision")
PEOPLE = _section("people", Person, "club_id", "profile_stamp", "profile_kept")
SERIES = _section("series", Series, "club_id", "standings_stamp", "revision")

# A night (an event: a tournament night or a league season) and everything it holds, in the
# order they are stored (each refers only to sections before it).
EVENT = _section("event", Event, "club_id", "join_pin", "door_token", "registration_token")
NIGHT = (
    _section("teams", Team, "event_id"),
    _section("players", Player, "event_id"),
    _section("rounds", Round, "event_id"),
    _section("matches", Match, "event_id"),
    _section("seats", Seat),
    _section("games", Game, "event_id"),
    _section("hands", Hand, "event_id", "created_by"),
    _section("results", Result, "event_id"),
    _section("protests", Protest, "event_id"),
    _section("rulings", Ruling, "event_id", "created_by"),
    _section("forfeits", Forfeit, "event_id"),
)
NIGHT_SECTIONS = {s.name: s for s in NIGHT}
