"""Each event's finishes (every entrant's place and total), as series and profiles read them.

A finished event's finishes are kept in the event row (`events.finishes`) when it is marked
finished, and forgotten when it is opened again: a club's year of nights is then read from
those rows, without building two hundred leaderboards. An event still open is read from its
leaderboard, kept per process for its revision. Finishes are kept by entrant (a player, or a
team); whose they are (the club's people) is read at the time, so a merge or a split shows at
once and never changes a result."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..core.caching import Kept
from ..core.common import preset_of
from ..core.db import db
from ..core.models import Event, Player
from ..leaderboard.board import build_leaderboard
from ..rules import series as rseries

KEPT = 500
_BOARDS = Kept(KEPT)  # (event id, code) -> its finishes, stamped with the event's revision


def forget() -> None:
    """Forget the boards kept (a restored backup sends revisions back)."""
    _BOARDS.clear()


def entrant_finishes(event: Event) -> dict:
    """{"entry": "player" | "team", "rows": [[entrant id, place, total], ...]} of an event:
    stored when it is finished, else from its leaderboard (kept for its revision)."""
    if event.status == "finished" and event.finishes is not None:
        return event.finishes
    key, stamp = (event.id, event.code), event.revision
    found = _BOARDS.get(key, stamp)
    if found is None:
        board = build_leaderboard(event)
        found = {"entry": "team" if preset_of(event).team_entry else "player",
                 "rows": [[row["entrant_id"], row["place"], row["total"]]
                          for row in board["rows"]]}
        _BOARDS.put(key, found, stamp)
    return found


def freeze(event: Event) -> None:
    """Keep the event's finishes in its row (when it is marked finished); None when opened."""
    event.finishes = None
    if event.status == "finished":
        event.finishes = entrant_finishes(event)


def entry_finish(event: Event, player_id: int, team_id: int | None) -> tuple:
    """(place, total, entrants) of one entry in the event: a player's, or their team's."""
    kept = entrant_finishes(event)
    entrant = team_id if kept["entry"] == "team" else player_id
    for row_entrant, place, total in kept["rows"]:
        if row_entrant == entrant:
            return place, total, len(kept["rows"])
    return None, None, len(kept["rows"])


def person_finishes(events: Iterable[Event]) -> dict[int, tuple[rseries.Finish, ...]]:
    """Each event's finishes by the club's people (team members share their team's), with
    one query for whose entries they are."""
    events = list(events)
    if not events:
        return {}
    # A year of a big club's nights is a hundred thousand entries: one query, plain rows.
    # On the session's connection, not through the ORM's row processing (a third of the time).
    entries = db.session.connection().execute(
        select(Player.event_id, Player.id, Player.team_id, Player.person_id, Player.role)
        .where(Player.event_id.in_([e.id for e in events]), Player.person_id.is_not(None))
    ).all()
    person_of: dict[tuple[int, int], int] = {}
    members: dict[tuple[int, int], list[int]] = {}
    for event_id, player_id, team_id, person_id, role in entries:
        person_of[event_id, player_id] = person_id
        if team_id is not None and role == "player":
            members.setdefault((event_id, team_id), []).append(person_id)
    found = {}
    finish = rseries.Finish
    for event in events:
        kept = entrant_finishes(event)
        eid = event.id
        if kept["entry"] == "team":
            found[eid] = tuple(finish(person, place, total) for team, place, total in kept["rows"]
                               for person in members.get((eid, team), ()))
        else:
            found[eid] = tuple(finish(person, place, total) for player, place, total in kept["rows"]
                               if (person := person_of.get((eid, player))) is not None)
    return found
