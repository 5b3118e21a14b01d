"""The teams format after its regular rounds: the cut, its playoffs, the championship."""

from __future__ import annotations

from ..core.errors import Conflict
from ..core.models import Event, Round
from ..rules import games as rgames
from ..rules import schedules
from ..rules import standings as rstandings
from ..rules.presets import Preset
from ..standings.standings import compute_standings, final_team, finalists_and_champion
from .planning import Plan, team_tables


def _playoff_games(round_: Round) -> list[rstandings.PlayoffGame]:
    games = []
    for match in round_.matches:
        for game in match.games:
            winner = final_team(match, game.winner) if game.winner else None
            games.append(rstandings.PlayoffGame(match.team_a_id, match.team_b_id,
                                                game.points_a, game.points_b, winner))
    return games


def cut_state(event: Event, preset: Preset) -> rstandings.Cut:
    """The cut after the regular rounds, with every cut playoff so far applied in order.
    Withdrawn teams keep their row on the leaderboard but are out of the cut: they can be
    neither through nor level at it."""
    standings = compute_standings(event, preset)
    out = [t.id for t in event.teams if t.withdrawn or t.removed]
    cut = rstandings.championship_cut(standings, preset.championship_teams, out)
    pool: list[rstandings.PlayoffGame] = []
    for round_ in event.rounds:
        if round_.stage != rgames.CUT_PLAYOFF or round_.status != "closed":
            continue
        pool.extend(_playoff_games(round_))
        resolved = rstandings.resolve_cut(cut, pool)
        if resolved != cut:
            cut, pool = resolved, []
    return cut


def _pool_rounds(event: Event, cut: rstandings.Cut) -> int:
    """Round-robin rounds already played among the current contenders."""
    contenders = set(cut.contenders)
    count = 0
    for round_ in event.rounds:
        if round_.stage != rgames.CUT_PLAYOFF:
            continue
        teams = {t for m in round_.matches for t in (m.team_a_id, m.team_b_id)}
        count = count + 1 if teams <= contenders else 0
    return count


def plan_after_rounds(event: Event, preset: Preset, number: int) -> Plan:
    """What follows the regular rounds: a cut playoff, the championship, or its playoff."""
    teams = {t.id: t for t in event.teams}
    cut = cut_state(event, preset)
    if cut.contenders:
        if cut.playoff == rstandings.TWO_TEAM:
            pairs = [tuple(cut.contenders)]
        else:
            weeks = schedules.league_schedule(list(cut.contenders))
            index = _pool_rounds(event, cut)
            pairs = [(a, b) for a, b in weeks[index % len(weeks)] if b is not None]
        names = ", ".join(teams[t].name for t in cut.contenders)
        plan = Plan(number, rgames.CUT_PLAYOFF, "Playoff for the championship",
                    team_tables(pairs, teams),
                    notes=[f"Level at the cut: {names} ({cut.spots} spot"
                           f"{'s' if cut.spots > 1 else ''}). {preset.cut_playoff_hands}-hand "
                           "games; a level game is settled by a sudden-death hand."])
        return plan
    finalists = cut.qualified[:2]
    seated, champion = finalists_and_champion(event)
    if champion is not None:
        raise Conflict(f"The championship is decided: {teams[champion].name} won. The "
                       "event is complete.", code="event-complete")
    if not seated:
        return Plan(number, rgames.CHAMPIONSHIP, "Championship",
                    team_tables([tuple(finalists)], teams),
                    notes=[f"{preset.championship_hands}-hand championship match."])
    return Plan(number, rgames.FINAL_PLAYOFF, "Championship playoff",
                team_tables([tuple(seated)], teams),
                notes=["The championship ended level: a "
                       f"{preset.cut_playoff_hands}-hand playoff, then sudden death."])
