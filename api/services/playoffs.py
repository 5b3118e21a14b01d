"""League playoffs: the next week of the season or the next playoff round (the league's
planner), the seeding, and the bracket to the final."""

from __future__ import annotations

from ..models import Event, Round
from ..rules import games as rgames
from ..rules import league_calendar as calendar
from ..rules import schedules
from ..rules import standings as rstandings
from ..rules.presets import Preset
from .common import preset_of
from .errors import Conflict
from .nights import match_nights, night_dates
from .planning import Plan, team_tables
from .standings import compute_standings, final_team


def plan_league_round(event: Event, preset: Preset, rounds: list[Round]) -> Plan:
    """The next week of the season, or, after it, the next round of the playoffs."""
    scheduled = [r for r in event.rounds if r.status == "scheduled"]
    if scheduled:
        # Weeks are played by night: a make-up week placed later waits for its night.
        order = calendar.play_order(night_dates(event))
        regular = {r.number: r for r in scheduled if r.stage == rgames.REGULAR}
        round_ = next((regular[n] for n in order if n in regular), scheduled[0])
        return Plan(round_.number, round_.stage, round_.label, [], existing_round=round_,
                    games_per_match=preset.games_per_match)
    if not any(r.stage == rgames.REGULAR for r in event.rounds):
        raise Conflict("Schedule the season first.", code="no-season")
    if not preset.playoff_games_per_match:
        raise Conflict("The season is over and this league has no playoffs.",
                       code="event-complete")
    teams = {t.id: t for t in event.teams}
    bracket = list((event.schedule or {}).get("bracket", []))
    number = len(event.rounds) + 1
    if not bracket:
        seeds = _playoff_seeds(event, preset)
        if len(seeds) < 2:
            raise Conflict("Fewer than 2 teams are eligible for the playoffs.",
                           code="too-few-teams")
        pairs = schedules.playoff_bracket(seeds)
    else:
        last = [r for r in event.rounds if r.stage == rgames.PLAYOFF][-1]
        winners = {}
        for match in last.matches:
            winners[(match.team_a_id, match.team_b_id)] = final_team(match, match.winner)
        previous = [tuple(p) for p in bracket[-1]]
        if len([p for p in previous]) == 1 and previous[0][1] is not None:
            champion = winners.get(previous[0])
            raise Conflict(f"The playoffs are over: {teams[champion].name} won.",
                           code="event-complete")
        pairs = schedules.next_bracket_round(previous, winners)
    playing = [(a, b) for a, b in pairs if b is not None]
    byes = [teams[a].name for a, b in pairs if b is None]
    label = _bracket_label(len(pairs), len(bracket) + 1)
    plan = Plan(number, rgames.PLAYOFF, label, team_tables(playing, teams),
                games_per_match=preset.playoff_games_per_match, best_of=True,
                notes=[f"Bye: {', '.join(byes)}."] if byes else [])
    plan.schedule = {**(event.schedule or {}),
                     "bracket": bracket + [[list(p) for p in pairs]]}
    return plan


def _bracket_label(matches: int, index: int) -> str:
    return {1: "Final", 2: "Semifinals"}.get(matches, f"Playoffs round {index}")


def _playoff_seeds(event: Event, preset: Preset) -> list[int]:
    ineligible = [t.id for t in event.teams if t.removed or t.playoff_excluded or t.withdrawn]
    return rstandings.playoff_seeds(compute_standings(event, preset), ineligible)


def bracket_view(event: Event) -> dict:
    """The whole bracket to the final: the rounds drawn so far with their results, then the
    rounds to come (teams already through in their places). Before the playoffs are drawn, the
    bracket the standings would give now (`projected`)."""
    preset = preset_of(event)
    names = {t.id: t.name for t in event.teams}
    playoff_rounds = [r for r in event.rounds if r.stage == rgames.PLAYOFF]
    drawn = [[tuple(p) for p in pairs] for pairs in (event.schedule or {}).get("bracket", [])]
    projected = not drawn
    if projected:
        seeds = (_playoff_seeds(event, preset) if preset.playoff_games_per_match
                 and any(r.stage == rgames.REGULAR for r in event.rounds) else [])
        drawn = [schedules.playoff_bracket(seeds)] if len(seeds) >= 2 else []
    seed_of = schedules.bracket_seeds(drawn[0]) if drawn else {}
    winners = {}
    # Playoffs come after every night of the season, a moved match's too.
    nights = [*night_dates(event), *match_nights(event).values()]

    def night(number: int):
        return calendar.playoff_night(nights, number)

    def ref(team):
        return {"id": team, "name": names.get(team), "seed": seed_of.get(team)} \
            if team is not None else None

    out = []
    for index, pairs in enumerate(drawn):
        round_ = playoff_rounds[index] if index < len(playoff_rounds) else None
        matches = {(m.team_a_id, m.team_b_id): m for m in (round_.matches if round_ else [])}
        rows = []
        for a, b in pairs:
            match = matches.get((a, b))
            winner = (final_team(match, match.winner) if match and match.winner
                      else (a if b is None else None))
            winners[(a, b)] = winner
            rows.append({
                "a": ref(a), "b": ref(b), "bye": b is None,
                "match_id": match.id if match else None,
                "games_won": ({"a": sum(1 for g in match.games if g.winner == "A"),
                               "b": sum(1 for g in match.games if g.winner == "B")}
                              if match else None),
                "games": [{"number": g.number, "points": {"a": g.points_a, "b": g.points_b},
                           "winner": final_team(match, g.winner) if g.winner else None}
                          for g in match.games] if match else [],
                "winner": winner,
            })
        out.append({"round": index + 1,
                    "label": round_.label if round_ else _bracket_label(len(pairs), index + 1),
                    "round_id": round_.id if round_ else None, "projected": projected,
                    "date": night(index + 1), "matches": rows})
    for pairs in schedules.bracket_outline(drawn, winners):
        out.append({"round": len(out) + 1, "label": _bracket_label(len(pairs), len(out) + 1),
                    "round_id": None, "projected": True, "date": night(len(out) + 1),
                    "matches": [{"a": ref(a), "b": ref(b), "bye": False, "match_id": None,
                                 "games_won": None, "games": [], "winner": None}
                                for a, b in pairs]})
    seeds = sorted(seed_of, key=seed_of.get)
    return {"rounds": out, "drawn": not projected,
            "seeds": [{"seed": seed_of[t], "id": t, "name": names.get(t)} for t in seeds]}
