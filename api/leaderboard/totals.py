"""Standings totals kept in memory, per event and process, and brought up to date from only the
result rows written since (`results.revision`), so a leaderboard read after a hand costs the
same for a 2,000-player event with 200,000 hands as for a bar night.

Each game's result rows are always written together and carry the event revision of the change
that wrote them (games/game_state.py), so the rows with a revision at or after the one the totals
were brought up to are every row of every game that changed since: each such game's old rows
leave the totals and its new rows join them. Rows can also disappear (a round deleted, a game
reseated): the row count then no longer matches and everything is read again, as it is the
first time an event is read in a process.

Only the games of the latest two rounds keep their rows in memory (a big event's earlier
rounds are 100,000 rows, 13 MB): the rounds before are finished, and when one of their games
does change (an organizer's correction) everything is read again, once.
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Iterable

from sqlalchemy import func, select

from ..core.caching import Kept
from ..core.db import db
from ..core.models import Event, Result
from ..rules import standings as rstandings
from ..rules.presets import Preset

EVENTS_KEPT = 16  # events whose totals a process keeps (least recently read go first)

# (event id, event code) -> its EventTotals: brought up to each new revision in place, not
# stamped, since bringing them up reads only what changed (the rows' own revisions).
_kept = Kept(EVENTS_KEPT)


COLUMNS = (Result.game_id, Result.entrant_id, Result.round_number, Result.points,
           Result.against, Result.won, Result.ghost_table, Result.stage)


def _by_game(rows) -> dict[int, list[tuple]]:
    """Result rows grouped by game, each as a plain tuple of what the totals need (entrant,
    round, points, against, won, ghost_table, stage): tuples of numbers cost a third of the
    memory of objects and the garbage collector stops walking them (a big event keeps
    100,000)."""
    games: dict[int, list[tuple]] = {}
    for game, entrant, round_, points, against, won, ghost, stage in rows:
        games.setdefault(game, []).append(
            (entrant, round_, points, against, won, ghost, sys.intern(stage)))
    return games


def _result(fields: tuple) -> rstandings.Result:
    entrant, round_, points, against, won, ghost, stage = fields
    return rstandings.Result(entrant=entrant, round=round_, points=points, against=against,
                             won=won, ghost_table=ghost, stage=stage)


class EventTotals:
    """One event's results by game and the tallies over them. Hold `lock` while reading the
    tallies' rows: they change in place when the totals are brought up to date."""

    def __init__(self, event_id: int, preset: Preset, score):
        self.lock = threading.Lock()
        self.event_id = event_id
        self.preset = preset
        self.score = score
        self.revision: int | None = None  # the event revision the totals were read at
        self.games: dict[int, list[tuple]] = {}  # each row as in _by_game
        self.keep_from = 0  # the first round whose games' rows are in `games`
        self.count = 0
        self.played: Counter = Counter()  # result rows per entrant, any stage
        self.now = rstandings.Tally(score)
        # The latest round's totals (and later ones'), to take from `now` for the standings
        # before it, and a counter of changes to the rounds before it (which re-rank those).
        self.latest: int | None = None
        self.recent: rstandings.Tally | None = None
        self.earlier_changes = 0
        self.reads = {"full": 0, "delta": 0, "rows": 0}  # how the totals were kept (tests)
        self.memo: dict = {}  # derived values the standings keep with these totals
        self._ids: dict[int, int] = {}  # one int object per entrant id, not one per row

    # --- keeping up ------------------------------------------------------------------------

    def _add(self, rows: Iterable[tuple], sign: int) -> None:
        for fields in rows:
            r = _result(fields)
            self.now.add(r, sign)
            if self.recent is not None:
                self.recent.add(r, sign)
                if r.round < self.latest:
                    self.earlier_changes += 1
            self.played[r.entrant] += sign
            if not self.played[r.entrant]:
                del self.played[r.entrant]

    def _replace(self, game_id: int, rows: list[tuple]) -> None:
        old = self.games.pop(game_id, [])
        self._add(old, -1)
        if rows:
            ids = self._ids
            rows = [(ids.setdefault(row[0], row[0]), *row[1:]) for row in rows]
            self.games[game_id] = rows
            self._add(rows, 1)
        self.count += len(rows) - len(old)

    def _read_all(self, event_id: int) -> None:
        self.games, self.count, self.played, self.memo = {}, 0, Counter(), {}
        self.now = rstandings.Tally(self.score)
        self.recent = None
        latest, self.latest = self.latest, None
        if latest is None:  # the first read: keep the rows of the last two rounds played
            latest = db.session.execute(select(func.max(Result.round_number))
                                        .where(Result.event_id == event_id)).scalar()
            self.keep_from = 0 if latest is None else latest - 1
            latest = None
        else:
            self.keep_from = latest - 1
        # Row by row, in batches (a server-side cursor on PostgreSQL): a big event's 100,000
        # rows are counted without ever all being in memory at once.
        ids = self._ids
        for game, entrant, round_, points, against, won, ghost, stage in db.session.execute(
                select(*COLUMNS).where(Result.event_id == event_id)
                .execution_options(yield_per=5_000)):
            fields = (ids.setdefault(entrant, entrant), round_, points, against, won, ghost,
                      sys.intern(stage))
            self._add((fields,), 1)
            self.count += 1
            if round_ >= self.keep_from:
                self.games.setdefault(game, []).append(fields)
        self.since_round(latest)
        self.reads["full"] += 1
        self.reads["rows"] += self.count

    def bring_up_to(self, event: Event) -> None:
        """Read what changed since the totals' revision (or everything, the first time)."""
        if self.revision is not None and event.revision <= self.revision:
            return  # as new as the event (or newer: another thread read a later revision)
        if self.revision is None:
            self._read_all(event.id)
        else:
            changed = _by_game(db.session.execute(select(*COLUMNS).where(
                Result.event_id == event.id, Result.revision >= self.revision)))
            self.reads["delta"] += 1
            self.reads["rows"] += sum(len(rows) for rows in changed.values())
            if any(rows[0][1] < self.keep_from for rows in changed.values()):
                self._read_all(event.id)  # a game whose old rows were let go changed
            else:
                for game, rows in changed.items():
                    self._replace(game, rows)
                count = db.session.execute(select(func.count()).select_from(Result)
                                           .where(Result.event_id == event.id)).scalar_one()
                if count != self.count:  # rows were deleted: read everything again
                    self._read_all(event.id)
        self.revision = event.revision

    def since_round(self, number: int | None) -> rstandings.Tally | None:
        """The totals of round `number` and later ones (None: not needed), kept from now on
        as results change; `now` less these is the standings before that round."""
        if number != self.latest:
            if number is not None and number < self.keep_from:
                # Rows of that round's games were let go: read everything again (which
                # comes back here with every row at hand).
                self.latest = number
                self._read_all(self.event_id)
                return self.recent
            self.latest = number
            self.recent = None if number is None else rstandings.Tally(self.score, number)
            self.earlier_changes += 1
            if self.recent is not None:
                for rows in self.games.values():
                    for fields in rows:
                        if fields[1] >= number:
                            self.recent.add(_result(fields))
                self._let_go_before(number - 1)
        return self.recent

    def _let_go_before(self, round_number: int) -> None:
        """Keep only the rows of games from `round_number` on (their totals stay counted)."""
        if round_number > self.keep_from:
            self.games = {game: rows for game, rows in self.games.items()
                          if rows[0][1] >= round_number}
            self.keep_from = round_number


def kept_totals(event: Event, preset: Preset) -> EventTotals | None:
    """The event's totals in this process, brought up to the event's revision, and locked:
    release `lock` when done with them. None for formats that are not tallied (the league)."""
    score = rstandings.tally_score(preset)
    if score is None:
        return None
    totals = _kept.update((event.id, event.code), lambda kept: kept if (
        kept is not None and kept.preset == preset) else EventTotals(event.id, preset, score))
    totals.lock.acquire()
    try:
        totals.bring_up_to(event)
    except BaseException:
        totals.revision = None  # half brought up: read everything next time
        totals.lock.release()
        raise
    return totals
