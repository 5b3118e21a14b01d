"""Reading results: leaderboards for every format, awards, the bump cup and scoresheets.

Totals are kept per game and entrant in `results` as hands change; a read only ranks them.
A leaderboard is cached per (event, revision), so pollers after a change share one ranking.
"""

from __future__ import annotations

import functools
import gzip
import threading
import time
from collections import OrderedDict
from collections.abc import Container

from flask import current_app
from sqlalchemy import select

from ..db import db
from ..models import Event, Game, Match, Player, Result, Round, Seat, Team
from ..rules import games as rgames
from ..rules import standings as rstandings
from ..rules.presets import Preset
from .common import get_event, preset_of
from .totals import kept_totals

_cache: OrderedDict[tuple, object] = OrderedDict()
_cache_lock = threading.Lock()
_building: dict[tuple, threading.Lock] = {}
_newest: dict[tuple, int] = {}  # (event, code, name) -> the newest revision cached
_build_seconds: dict[tuple, float] = {}  # (event, code) -> its last leaderboard build
CACHE_SIZE = 64
CACHE_BYTES = 4_000_000  # bodies kept (a big event's leaderboard is 1.1 MB a revision)
_cache_bytes = 0


def cache_key(event_id: int, code: str, revision: int, name: str) -> tuple:
    # The random event code keeps two databases' event 1 apart (tests, a restored backup).
    return (event_id, code, revision, name)


def peek(key: tuple):
    """What is cached under `key`, or None (never builds)."""
    with _cache_lock:
        return _cache.get(key)


def building(*keys: tuple) -> bool:
    """Whether a thread of this process is building any of `keys` now."""
    with _cache_lock:
        return any(key in _building for key in keys)


def peek_newest(event_id: int, code: str, name: str) -> tuple[int, object] | None:
    """The newest revision of an event's `name` still cached, as (revision, value)."""
    with _cache_lock:
        revision = _newest.get((event_id, code, name))
        value = None if revision is None else _cache.get((event_id, code, revision, name))
    return None if value is None else (revision, value)


def cached(event: Event, name: str, build):
    """`build()` once per event revision and name, shared by every thread of the process:
    pollers that arrive while it is being built wait for that build instead of repeating it."""
    key = cache_key(event.id, event.code, event.revision, name)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
        building = _building.setdefault(key, threading.Lock())
    with building:
        with _cache_lock:
            if key in _cache:
                return _cache[key]
        try:
            value = build()
        finally:
            with _cache_lock:
                _building.pop(key, None)
        _keep(key, value)
    return value


def _keep(key: tuple, value) -> None:
    """Cache a value; the oldest go first beyond CACHE_SIZE entries or CACHE_BYTES of bytes
    (the newest is always kept)."""
    global _cache_bytes
    with _cache_lock:
        _cache[key] = value
        _cache_bytes += len(value) if isinstance(value, bytes) else 0
        event_id, code, revision, name = key
        if revision > _newest.get((event_id, code, name), -1):
            if len(_newest) >= 4 * CACHE_SIZE:
                _newest.clear()
                _build_seconds.clear()
            _newest[(event_id, code, name)] = revision
        while len(_cache) > 1 and (len(_cache) > CACHE_SIZE or _cache_bytes > CACHE_BYTES):
            _, old = _cache.popitem(last=False)
            _cache_bytes -= len(old) if isinstance(old, bytes) else 0


RESULT_COLUMNS = (Result.entrant_id, Result.round_number, Result.points, Result.against,
                  Result.won, Result.opponent_id, Result.partner_id, Result.table,
                  Result.ghost_table, Result.stage, Result.forfeited)


def rules_results(event_id: int, *, before_round: int | None = None) -> list[rstandings.Result]:
    # Plain rows, not ORM objects: a big event has 100,000 of them and the ORM's identity
    # map would multiply the cost of reading them tenfold.
    query = select(*RESULT_COLUMNS).where(Result.event_id == event_id)
    if before_round is not None:
        query = query.where(Result.round_number < before_round)
    return [rstandings.Result(entrant=entrant, round=round_, points=points, against=against,
                              won=won, opponent=opponent, partner=partner, table=table,
                              ghost_table=ghost, stage=stage, forfeited=forfeited)
            for (entrant, round_, points, against, won, opponent, partner, table, ghost, stage,
                 forfeited) in db.session.execute(query)]


def entrants(event: Event, preset: Preset, played: Container[int] | None = None) -> list:
    """Who is ranked: teams, or players who are in the field or have played (`played`: the
    entrants with results, when the caller knows them already). Players come as rows of id,
    name, checked_in and withdrawn (a big event has 2,000: no ORM objects needed)."""
    if preset.team_entry:
        return list(db.session.execute(
            select(Team).where(Team.event_id == event.id).order_by(Team.position)).scalars())
    if played is None:
        played = set(db.session.execute(
            select(Result.entrant_id).where(Result.event_id == event.id).distinct()).scalars())
    players = db.session.execute(
        select(Player.id, Player.name, Player.checked_in, Player.withdrawn)
        .where(Player.event_id == event.id, Player.role == "player")
        .order_by(Player.position))
    return [p for p in players if p.id in played or (p.checked_in and not p.withdrawn)]


def manual_order(event: Event) -> dict[int, int]:
    return {int(k): v for k, v in (event.manual_order or {}).items()}


def finalists_and_champion(event: Event) -> tuple[tuple, int | None]:
    """Teams format: the two finalists (once the championship is seated) and the champion."""
    rounds = [r for r in event.rounds if r.stage in (rgames.CHAMPIONSHIP, rgames.FINAL_PLAYOFF)]
    if not rounds:
        return (), None
    final = rounds[0].matches[0]
    finalists = (final.team_a_id, final.team_b_id)
    for round_ in reversed(rounds):
        game = round_.matches[0].games[0]
        if game.winner is not None:
            return finalists, final_team(round_.matches[0], game.winner)
    return finalists, None


def final_team(match: Match, side: str) -> int:
    return match.team_a_id if side == "A" else match.team_b_id


def compute_standings(event: Event, preset: Preset, *, before_round: int | None = None,
                      people=None, results: list[rstandings.Result] | None = None,
                      totals: dict | None = None) -> list[rstandings.Standing]:
    """The standings (before `before_round`, if given); `results` are all the event's results
    when the caller has read them already, `totals` the rows a Tally keeps (then no results
    are read at all)."""
    people = people if people is not None else entrants(event, preset)
    extra = {}
    if preset.standings == "teams" and before_round is None:
        finalists, champion = finalists_and_champion(event)
        if champion is not None:
            extra = {"finalists": finalists, "champion": champion}
    if totals is not None:
        results, extra["totals"] = [], totals
    elif results is None:
        results = rules_results(event.id, before_round=before_round)
    elif before_round is not None:
        results = [r for r in results if r.round < before_round]
    return rstandings.standings_for(preset, results, [p.id for p in people],
                                    manual_order(event), **extra)


def revision_of(event_id: int) -> int:
    """Only the event's revision: the cheap read behind every poll's ETag."""
    revision = db.session.execute(
        select(Event.revision).where(Event.id == event_id)).scalar_one_or_none()
    if revision is None:
        from .common import not_found

        raise not_found(f"Event {event_id}")
    return revision


def leaderboard(event_id: int) -> dict:
    """The leaderboard as a dict (exports, the tie-break answer); polls read the cached
    serialized form instead (`leaderboard_body`)."""
    return _leaderboard(get_event(event_id))


def leaderboard_body(event_id: int, serialize, gzipped: bool = False) -> bytes:
    """The leaderboard's response body, built and serialized once per revision and process
    (and gzipped once, for the clients that take it)."""
    event = get_event(event_id)

    def build() -> bytes:
        start = time.perf_counter()
        body = serialize(_leaderboard(event))
        with _cache_lock:
            _build_seconds[(event.id, event.code)] = time.perf_counter() - start
        return body

    body = cached(event, BOARD_BODY, build)
    if not gzipped:
        return body
    return cached(event, BOARD_BODY_GZIP, lambda: gzip.compress(body, GZIP_LEVEL, mtime=0))


def board_build_seconds(event_id: int, code: str) -> float | None:
    """How long this process took to build the event's last leaderboard (None: never built)."""
    with _cache_lock:
        return _build_seconds.get((event_id, code))


BOARD_BODY = "leaderboard.json"
BOARD_BODY_GZIP = "leaderboard.json.gz"
# Level 1: 0.7 ms for an 800-player board of 180 KB, to a seventh of it; higher levels take
# several times longer for a few percent less.
GZIP_LEVEL = 1


def _leaderboard(event: Event) -> dict:
    preset = preset_of(event)
    rounds = [r for r in event.rounds if r.status != "scheduled"]
    latest = max((r.number for r in rounds if r.stage == rgames.REGULAR), default=0)
    people, standings, previous, rounds_of = _ranked(event, preset, latest)
    names = {p.id: p.name for p in people}
    members = {}
    if preset.team_entry:
        for team in people:
            members[team.id] = [m.name for m in team.members if m.role == "player"]
    withdrawn = {p.id for p in people if getattr(p, "withdrawn", False)}
    rows = []
    for s in standings:
        rows.append({
            "place": s.place, "entrant_id": s.entrant, "name": names.get(s.entrant, "?"),
            "members": members.get(s.entrant, []),
            "total": s.total, "games_won": s.games_won, "games_played": s.games_played,
            "rounds": rounds_of(s),
            "shared": s.shared, "prize": s.prize,
            "movement": (previous[s.entrant] - s.place) if s.entrant in previous else None,
            "withdrawn": s.entrant in withdrawn,
            "stats": s.stats,
        })
    ties = _ties_to_settle(preset, standings, names)
    board = {
        "event_id": event.id, "event_name": event.name, "revision": event.revision,
        "preset": preset.key, "entry": preset.entry, "standings_kind": preset.standings,
        "rounds_played": len([r for r in rounds if r.status == "closed"]),
        "rounds_total": preset.rounds,
        "current_round": _current_round(rounds),
        "rows": rows, "ties": ties,
        "recorded_order": [e for e, _ in sorted(manual_order(event).items(),
                                                key=lambda item: item[1]) if e in names],
    }
    if preset.championship_teams:
        board["championship"] = championship_view(event, preset, standings, names)
    if preset.bumps:
        board["bump_cup_total"] = sum(bump_rows_total(event))
    return board


class RoundsView(dict):
    """A row's score per round, keyed by the round as text (as the API shows it), with room
    for its JSON: in a big event the rounds are most of the leaderboard, and they change only
    for the entrants whose results did, so both are kept per entrant between reads."""

    __slots__ = ("json", "row")

    def __init__(self, rounds: dict[int, int]):
        super().__init__((_round_key(k), v) for k, v in sorted(rounds.items()))
        self.json: str | None = None
        self.row: tuple | None = None  # the last row shown with these rounds, and its JSON


@functools.lru_cache(maxsize=1024)
def _round_key(number: int) -> str:
    return str(number)  # one "12" for every row, not one each


def _rounds_view(standing: rstandings.Standing) -> RoundsView:
    return RoundsView(standing.rounds)


def _ranked(event: Event, preset: Preset, latest: int):
    """Who is ranked, the standings, each entrant's place before the latest round (for the
    movement column) and how to show a standing's rounds, from the totals this process keeps
    (services/totals.py): only the results changed since the last read are read. The league,
    whose week points are not a plain sum, is ranked from all its results each time (a league
    is a few dozen teams)."""
    kept = kept_totals(event, preset)
    if kept is None:
        return (*_ranked_from_results(event, preset, latest), _rounds_view)
    try:
        people = entrants(event, preset, kept.played)
        ids = [p.id for p in people]
        standings = compute_standings(event, preset, people=people,
                                      totals=kept.now.rows_for(ids))
        versions = kept.now.row_version
        versions = {e: versions.get(e, 0) for e in ids}
        recent = kept.since_round(latest if latest > 1 else None)
        previous = {}
        if recent is not None:  # re-ranked only when an earlier round's results change
            key = (latest, kept.earlier_changes, tuple(ids),
                   tuple(sorted(manual_order(event).items())))
            if kept.memo.get("previous_key") != key:
                kept.memo["previous"] = {
                    s.entrant: s.place for s in compute_standings(
                        event, preset, before_round=latest, people=people,
                        totals=kept.now.rows_without(recent, ids))}
                kept.memo["previous_key"] = key
            previous = kept.memo["previous"]
        views = kept.memo.setdefault("rounds", {})
    finally:
        kept.lock.release()
    if current_app.testing:  # every API test that reads a leaderboard checks the kept totals
        assert (people, standings, previous) == _ranked_from_results(event, preset, latest), \
            "the kept totals rank differently from all the results"

    def rounds_of(standing: rstandings.Standing) -> RoundsView:
        version = versions[standing.entrant]
        known = views.get(standing.entrant)
        if known is not None and known[0] == version:
            return known[1]
        view = RoundsView(standing.rounds)
        views[standing.entrant] = (version, view)
        return view

    return people, standings, previous, rounds_of


def _ranked_from_results(event: Event, preset: Preset, latest: int) -> tuple[list, list, dict]:
    results = rules_results(event.id)
    people = entrants(event, preset, {r.entrant for r in results})
    standings = compute_standings(event, preset, people=people, results=results)
    previous = {}
    if latest > 1:
        previous = {s.entrant: s.place
                    for s in compute_standings(event, preset, before_round=latest, people=people,
                                               results=results)}
    return people, standings, previous


def _current_round(rounds: list[Round]) -> dict | None:
    if not rounds:
        return None
    from .rounds import clock_view

    r = rounds[-1]
    return {"id": r.id, "number": r.number, "label": r.label, "status": r.status,
            "stage": r.stage, "clock": clock_view(r)}


def _ties_to_settle(preset: Preset, standings, names) -> list[dict]:
    """Shared places that matter: in the prize places (or, in a league, the whole table)."""
    groups: dict[int, list] = {}
    for s in standings:
        if s.shared:
            groups.setdefault(s.place, []).append(s.entrant)
    places = preset.prize_places_for(len(standings))
    return [{"place": place, "entrants": [{"id": e, "name": names.get(e, "?")} for e in group],
             "affects_prizes": place <= places}
            for place, group in sorted(groups.items())]


def championship_view(event: Event, preset: Preset, standings, names) -> dict:
    from .championship import cut_state

    regular_done = len([r for r in event.rounds
                        if r.stage == rgames.REGULAR and r.status == "closed"]) >= preset.rounds
    view = {"decided_after_rounds": preset.rounds, "regular_rounds_done": regular_done,
            "qualified": [], "contenders": [], "playoff": None, "finalists": [],
            "champion": None}
    if not regular_done:
        return view
    cut = cut_state(event, preset)
    finalists, champion = finalists_and_champion(event)
    view.update({
        "qualified": [{"id": t, "name": names.get(t)} for t in cut.qualified],
        "contenders": [{"id": t, "name": names.get(t)} for t in cut.contenders],
        "playoff": cut.playoff, "spots": cut.spots,
        "finalists": [{"id": t, "name": names.get(t)} for t in finalists],
        "champion": {"id": champion, "name": names.get(champion)} if champion else None,
    })
    return view


def bump_records(event: Event) -> list[rstandings.Bump]:
    rows = db.session.execute(
        select(Game.bumps, Match.id, Match.table, Round.number)
        .join(Match, Game.match_id == Match.id).join(Round, Match.round_id == Round.id)
        .where(Game.event_id == event.id)).all()
    seats = {}
    for seat in db.session.execute(
            select(Seat).join(Match).where(Match.event_id == event.id)).scalars():
        seats[(seat.match_id, seat.seat)] = seat.player_id
    records = []
    for bumps, match_id, table, number in rows:
        for seat, dollars in (bumps or {}).items():
            player = seats.get((match_id, int(seat)))
            if player is not None and dollars:
                records.append(rstandings.Bump(player, number, table, dollars))
    return records


def bump_rows_total(event: Event) -> list[int]:
    return [b.dollars for b in bump_records(event)]


def awards_and_bumps(event_id: int) -> dict:
    event = get_event(event_id)
    return cached(event, "awards", lambda: _awards(event))


def _awards(event: Event) -> dict:
    preset = preset_of(event)
    people = entrants(event, preset)
    names = {p.id: p.name for p in people}
    player_names = {p.id: p.name for p in event.players}
    results = rules_results(event.id)
    standings = compute_standings(event, preset, people=people, results=results)
    found = rstandings.awards(standings, results)
    cup = rstandings.bump_cup(bump_records(event))
    return {
        "low_score": {"total": found.low_total,
                      "entrants": [{"id": e, "name": names.get(e)} for e in found.low_score]},
        "high_game": {"points": found.high_game_points,
                      "games": [{"id": e, "name": names.get(e), "round": r}
                                for e, r in found.high_game]},
        "bump_cup": {
            "total": cup.total,
            "players": sorted(({"id": p, "name": player_names.get(p), "dollars": d}
                               for p, d in cup.by_player.items()),
                              key=lambda row: (-row["dollars"], row["name"] or "")),
            "tables": [{"round": r, "table": t, "dollars": d}
                       for (r, t), d in sorted(cup.by_table.items())],
        },
    }


def scoresheet(event_id: int, player_id: int) -> dict:
    """One player's sheet: per round, table, seat, partner, opponents and score."""
    event = get_event(event_id)
    preset = preset_of(event)
    player = db.session.get(Player, player_id)
    if player is None or player.event_id != event.id:
        from .common import not_found

        raise not_found(f"Player {player_id} in this event")
    return _sheet(event, preset, player, {p.id: p.name for p in event.players})


def _sheet(event: Event, preset: Preset, player: Player, names: dict[int, str]) -> dict:
    seats = db.session.execute(
        select(Seat, Match, Round).join(Match, Seat.match_id == Match.id)
        .join(Round, Match.round_id == Round.id)
        .where(Seat.player_id == player.id).order_by(Round.number)).all()
    entrant = player.team_id if preset.team_entry else player.id
    results = {}
    for r in db.session.execute(select(Result).where(Result.event_id == event.id,
                                                     Result.entrant_id == entrant)).scalars():
        results.setdefault(r.round_number, []).append(r)
    rows = []
    total = 0
    for seat, match, round_ in seats:
        everyone = {s.seat: s.player_id for s in match.seats}
        partner_seat = {1: 3, 3: 1, 2: 4, 4: 2}[seat.seat]
        partner = everyone.get(partner_seat)
        opponents = [everyone.get(n) for n in ((2, 4) if seat.seat in (1, 3) else (1, 3))]
        mine = results.get(round_.number, [])
        score = sum(rstandings.round_score(preset, _as_rules(r)) for r in mine
                    if r.stage == rgames.REGULAR)
        if round_.stage == rgames.REGULAR and preset.standings != "league":
            total += score
        rows.append({
            "round": round_.number, "label": round_.label, "stage": round_.stage,
            "table": match.table, "seat": seat.seat,
            "partner": names.get(partner, "Ghost") if partner else "Ghost",
            "opponents": [names.get(o, "Ghost") if o else "Ghost" for o in opponents],
            "points": sum(r.points for r in mine), "against": sum(r.against for r in mine),
            "score": score, "won": [r.won for r in mine],
            "games_won": sum(1 for r in mine if r.won),
            "finished": bool(mine) and all(r.won is not None for r in mine),
            "running_total": total if preset.standings != "league" else None,
        })
    return {"player_id": player.id, "name": player.name, "event_id": event.id,
            "event_name": event.name, "team_id": player.team_id, "rounds": rows,
            "upcoming": _upcoming(event, player, names, seated={r["round"] for r in rows}),
            "total": total if preset.standings != "league" else None}


def _upcoming(event: Event, player: Player, names: dict[int, str], seated: set) -> list[dict]:
    """The games a fixed schedule (WEC singles) already gives this player, not seated yet:
    table, seat, partner and opponents as scheduled (a withdrawal or late arrival can still
    change a seat at the table)."""
    games = (event.schedule or {}).get("games") or []
    rows = []
    for number, tables in enumerate(games, start=1):
        if number in seated:
            continue
        for table, seats in enumerate(tables, start=1):
            if player.id not in seats:
                continue
            seat = seats.index(player.id) + 1
            partner = seats[{1: 3, 3: 1, 2: 4, 4: 2}[seat] - 1]
            opponents = [seats[n - 1] for n in ((2, 4) if seat in (1, 3) else (1, 3))]
            rows.append({"round": number, "label": f"Game {number}", "table": table,
                         "seat": seat, "partner": names.get(partner, "Ghost"),
                         "opponents": [names.get(o, "Ghost") for o in opponents]})
    return rows


def _as_rules(r: Result) -> rstandings.Result:
    return rstandings.Result(entrant=r.entrant_id, round=r.round_number, points=r.points,
                             against=r.against, won=r.won, ghost_table=r.ghost_table,
                             stage=r.stage)


def all_scoresheets(event_id: int) -> list[dict]:
    event = get_event(event_id)
    preset = preset_of(event)
    names = {p.id: p.name for p in event.players}
    return [_sheet(event, preset, p, names) for p in event.players]


def set_manual_order(event_id: int, principal, order: list[int]) -> Event:
    """The organizer's recorded order for entrants level on every tie-break (e.g. after
    rock-paper-scissors or a card draw): listed entrants are placed in this order."""
    from ..problems import Problem
    from .common import audit, lock_event

    event = lock_event(event_id)
    preset = preset_of(event)
    known = {p.id for p in entrants(event, preset)}
    unknown = [e for e in order if e not in known]
    if unknown:
        kind = "team" if preset.team_entry else "player"
        raise Problem(422, f"Not a {kind} of this event: {unknown[0]}.", code="unknown-entrant")
    if len(set(order)) != len(order):
        raise Problem(422, "Each entrant can appear only once in the order.", code="duplicate")
    before = event.manual_order
    event.manual_order = {str(e): i for i, e in enumerate(order)}
    audit(event.id, principal, "tiebreak-order", "event", event.id, before=before,
          after=event.manual_order)
    db.session.commit()
    return event
