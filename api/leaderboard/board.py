"""The leaderboard of an event, as a dict: places, totals, a column per round, movement since
the last round, ties to settle, the teams format's championship, the bump cup's total.

Ranked from the totals this process keeps (totals.py), so a read after a hand reads only the
results that changed; built once per revision (cache.py).
"""

from __future__ import annotations

import functools

from ..core.common import get_event, preset_of
from ..core.models import Event, Round
from ..core.writes_first import yield_to_writes
from ..people.profile_links import profile_paths
from ..rounds.championship import cut_state
from ..rounds.round_view import clock_view
from ..rules import games as rgames
from ..rules import standings as rstandings
from ..rules.presets import Preset
from ..standings.awards import bump_cup_total, event_awards
from ..standings.event_day import (
    category_boards,
    door_prize_wins,
    latest_draw,
    named_awards,
    payouts_for,
)
from ..standings.standings import (
    compute_standings,
    entrants,
    finalists_and_champion,
    manual_order,
    rules_results,
)
from .cache import cached
from .totals import kept_totals
from .waiting import rows_waiting, tables_waiting


def leaderboard(event_id: int) -> dict:
    """The leaderboard as a dict (exports, the tie-break answer); polls read the cached
    serialized form instead (`leaderboard_body`)."""
    return build_leaderboard(get_event(event_id))


def build_leaderboard(event: Event) -> dict:
    preset = preset_of(event)
    rounds = [r for r in event.rounds if r.status != "scheduled"]
    latest = max((r.number for r in rounds if r.stage == rgames.REGULAR), default=0)
    people, standings, previous, rounds_of = _ranked(event, preset, latest)
    names = {p.id: p.name for p in people}
    members = {}
    if preset.team_entry:
        for team in people:
            members[team.id] = [m.name for m in team.members if m.role == "player"]
    withdrawn = {p.id for p in people if p.withdrawn}
    divisions = {p.id: p.division for p in people if p.division}
    removed = {p.id for p in people if p.removed}
    disqualified = {p.id: p.disqualified for p in people if p.disqualified}
    money = payouts_for(event, standings)
    payouts = money.by_entrant if money is not None else {}
    profiles = {} if preset.team_entry else profile_paths(event)
    # What the tables in play entered that waits for the other side (not in the totals).
    waiting = tables_waiting(event, preset, [r.id for r in rounds if r.status == "playing"])
    waits = rows_waiting(waiting)
    yield_to_writes()
    rows = []
    for s in standings:
        rows.append({
            "place": s.place, "entrant_id": s.entrant, "name": names.get(s.entrant, "?"),
            "members": members.get(s.entrant, []),
            "total": s.total, "games_won": s.games_won, "games_played": s.games_played,
            "rounds": rounds_of(s),
            "shared": s.shared, "prize": s.prize,
            "movement": (previous[s.entrant] - s.place)
            if s.place is not None and previous.get(s.entrant) is not None else None,
            "withdrawn": s.entrant in withdrawn, "removed": s.entrant in removed,
            "stats": s.stats, "division": divisions.get(s.entrant), "division_place": None,
            "disqualified": disqualified.get(s.entrant),
            "payout": payouts.get(s.entrant, 0) if money is not None else None,
            "profile": profiles.get(s.entrant),
            "waiting": waits.get(s.entrant),
        })
    _division_places(rows)
    ties = _ties_to_settle(preset, standings, names, divisions)
    board = {
        "event_id": event.id, "event_name": event.name, "revision": event.revision,
        "finished": event.status == "finished",
        "preset": preset.key, "entry": preset.entry, "standings_kind": preset.standings,
        "rounds_played": len([r for r in rounds if r.status == "closed"]),
        "rounds_total": preset.rounds,
        "current_round": _current_round(rounds),
        "rows": rows, "ties": ties, "waiting": waiting,
        "recorded_order": [e for e, _ in sorted(manual_order(event).items(),
                                                key=lambda item: item[1]) if e in names],
    }
    if preset.championship_teams:
        board["championship"] = championship_view(event, preset, standings, names)
    if preset.bumps:
        board["bump_cup_total"] = bump_cup_total(event)
    if money is not None:
        board["money"] = {"currency": event.money["currency"], "pool": money.pool.pool,
                          "paid_places": len(money.percentages), "remainder": money.remainder}
    if event.categories:
        board["categories"] = category_boards(event, standings, names)
    if event.draws:
        board["draw"] = latest_draw(event, names)
        board["door_prizes"] = door_prize_wins(event)
    if event.named_awards:
        board["named_awards"] = named_awards(event)
    return board


def _division_places(rows: list[dict]) -> None:
    """Each team's rank within its division, from the overall order (level teams share it,
    as they share their place overall)."""
    last: dict[str, tuple] = {}  # division -> (its rows so far, its last place, that overall)
    for row in rows:
        division = row["division"]
        if division is None or row["place"] is None:
            continue
        seen, place, overall = last.get(division, (0, 0, None))
        seen += 1
        if row["place"] != overall:
            place = seen
        row["division_place"] = place
        last[division] = (seen, place, row["place"])


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
    (totals.py): only the results changed since the last read are read. The league,
    whose week points are not a plain sum, is ranked from all its results each time (a league
    is a few dozen teams)."""
    kept = kept_totals(event, preset)
    if kept is None:
        return (*_ranked_from_results(event, preset, latest), _rounds_view)
    try:
        people = entrants(event, preset, kept.played)
        yield_to_writes()  # see body.leaderboard_body
        ids = [p.id for p in people]
        standings = compute_standings(event, preset, people=people,
                                      totals=kept.now.rows_for(ids))
        yield_to_writes()
        versions = kept.now.row_version
        versions = {e: versions.get(e, 0) for e in ids}
        recent = kept.since_round(latest if latest > 1 else None)
        previous = {}
        if recent is not None:  # re-ranked only when an earlier round's results change
            # Who is struck from the places (disqualified, removed) changes the places too.
            struck = tuple(p.id for p in people
                           if p.removed or p.disqualified)
            key = (latest, kept.earlier_changes, tuple(ids),
                   tuple(sorted(manual_order(event).items())), struck)
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
    r = rounds[-1]
    return {"id": r.id, "number": r.number, "label": r.label, "status": r.status,
            "stage": r.stage, "clock": clock_view(r)}


def _ties_to_settle(preset: Preset, standings, names, divisions=None) -> list[dict]:
    """Shared places that matter: in the prize places (or, in a league, the whole table). A
    league in divisions has its places per division: a tie is within one division."""
    divisions = divisions or {}
    groups: dict[tuple, list] = {}
    for s in standings:
        if s.shared:
            groups.setdefault((divisions.get(s.entrant) or "", s.place), []).append(s.entrant)
    size = {d: sum(1 for s in standings if (divisions.get(s.entrant) or "") == d)
            for d, _ in groups}
    return [{"place": place, "entrants": [{"id": e, "name": names.get(e, "?")} for e in group],
             "affects_prizes": place <= preset.prize_places_for(size[division]),
             **({"division": division} if division else {})}
            for (division, place), group in sorted(groups.items())]


def championship_view(event: Event, preset: Preset, standings, names) -> dict:
    regular_done = len([r for r in event.rounds
                        if r.stage == rgames.REGULAR and r.status == "closed"]) >= preset.rounds
    view = {"decided_after_rounds": preset.rounds, "regular_rounds_done": regular_done,
            "qualified": [], "contenders": [], "playoff": None, "finalists": [],
            "champion": None, "reasons": []}
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
        "reasons": [{"id": t, "name": names.get(t), "status": status, "reason": why}
                    for t, status, why in (
                        (s.entrant, *cut.reason(s.entrant)) for s in standings
                        if cut.reason(s.entrant) is not None)],
    })
    return view


def awards_and_bumps(event_id: int) -> dict:
    event = get_event(event_id)
    return cached(event, "awards", lambda: event_awards(event))
