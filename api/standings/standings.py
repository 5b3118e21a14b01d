"""Computing standings: who is ranked, their results as the rules read them, the teams
format's finalists and champion, and the standings of every format from them.

Shared by the leaderboard, the championship cut, league seeding, awards and exports.
"""

from __future__ import annotations

from collections.abc import Container

from sqlalchemy import false, null, select

from ..core.db import db
from ..core.errors import not_found
from ..core.models import Event, Match, Player, Result, Team
from ..rules import games as rgames
from ..rules import league as rleague
from ..rules import standings as rstandings
from ..rules.presets import Preset

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
    name, checked_in, withdrawn and disqualified (a big event has 2,000: no ORM objects
    needed)."""
    if preset.team_entry:
        return list(db.session.execute(
            select(Team).where(Team.event_id == event.id).order_by(Team.position)).scalars())
    if played is None:
        played = set(db.session.execute(
            select(Result.entrant_id).where(Result.event_id == event.id).distinct()).scalars())
    # `removed` and `division` are a team's; a player row has them too (never removed, no
    # division), so that reading them is an attribute, not a missing key's slow exception.
    players = db.session.execute(
        select(Player.id, Player.name, Player.checked_in, Player.withdrawn, Player.disqualified,
               false().label("removed"), null().label("division"))
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
    # Struck from the places: a team removed from a league, anyone disqualified (RULES.md §4:
    # their results stand for their opponents).
    struck = [p.id for p in people if p.removed or p.disqualified]
    division_of = {p.id: p.division for p in people if p.division}
    if preset.standings == "league" and division_of:
        # RULES.md §6: places and prizes per division; no overall place.
        return rleague.division_standings(preset, results, [p.id for p in people],
                                          division_of, manual_order(event), struck=struck)
    return rstandings.standings_for(preset, results, [p.id for p in people],
                                    manual_order(event), struck=struck, **extra)


def revision_of(event_id: int) -> int:
    """Only the event's revision: the cheap read behind every poll's ETag."""
    revision = db.session.execute(
        select(Event.revision).where(Event.id == event_id)).scalar_one_or_none()
    if revision is None:
        raise not_found(f"Event {event_id}")
    return revision
