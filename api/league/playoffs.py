"""League playoffs: the next week of the season or the next playoff round (the league's
planner), the seeding, and the bracket to the final."""

from __future__ import annotations

from ..core.common import preset_of
from ..core.errors import Conflict
from ..core.models import Event, Round
from ..rounds.planning import Plan, team_tables
from ..rules import games as rgames
from ..rules import league_calendar as calendar
from ..rules import schedules
from ..rules import standings as rstandings
from ..rules.presets import Preset
from ..standings.standings import compute_standings, final_team
from .nights import (
    chosen_playoff_nights,
    match_nights,
    night_dates,
    playoff_round_nights,
)


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
    if len(_divisions(event)) > 1:
        return _plan_division_round(event, preset, teams, number)
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


def _divisions(event: Event) -> list[str]:
    return list((event.schedule or {}).get("divisions") or [])


def _winners(event: Event) -> dict[tuple, int]:
    """Every decided playoff match: (team a, team b) -> the winner."""
    return {(m.team_a_id, m.team_b_id): final_team(m, m.winner)
            for r in event.rounds if r.stage == rgames.PLAYOFF for m in r.matches if m.winner}


def _drawn(event: Event) -> tuple[dict[str, list], list]:
    """A league in divisions: each division's bracket drawn so far, and the final between
    the division winners (its rounds), as pairs."""
    schedule = event.schedule or {}
    brackets = {d: [[tuple(p) for p in pairs] for pairs in rounds]
                for d, rounds in (schedule.get("brackets") or {}).items()}
    return brackets, [[tuple(p) for p in pairs] for pairs in schedule.get("final") or []]


def _division_seeds(event: Event, preset: Preset) -> dict[str, list[int]]:
    """Each division's playoff seeds, from the standings within it."""
    ineligible = [t.id for t in event.teams if t.removed or t.playoff_excluded or t.withdrawn]
    standings = compute_standings(event, preset)
    seeds = {}
    for division in _divisions(event):
        members = {t.id for t in event.teams if t.division == division}
        seeds[division] = rstandings.playoff_seeds(
            [s for s in standings if s.entrant in members], ineligible)
    return seeds


def _first_rounds(seeds: dict[str, list[int]]) -> dict[str, list[tuple]]:
    """Each division's first playoff round; a division of one eligible team has its champion
    without playing (a bye), one of none takes no part."""
    return {d: schedules.playoff_bracket(s) if len(s) >= 2 else [(s[0], None)]
            for d, s in seeds.items() if s}


def _plan_division_round(event: Event, preset: Preset, teams: dict, number: int) -> Plan:
    """Playoffs per division, played on the same nights (each division's bracket a round at a
    time), then, when the organizer asked for it, a final between the division winners."""
    schedule = event.schedule or {}
    brackets, final = _drawn(event)
    winners = _winners(event)
    new: dict[str, list[tuple]] = {}
    if not brackets:
        new = _first_rounds(_division_seeds(event, preset))
        if not any(b is not None for pairs in new.values() for _, b in pairs):
            raise Conflict("No division has 2 teams eligible for the playoffs.",
                           code="too-few-teams")
    elif not final:
        new = {d: schedules.next_bracket_round(rounds[-1], winners)
               for d, rounds in brackets.items()
               if schedules.bracket_champion(rounds, winners) is None}
    if new:
        pairs = [p for d in new for p in new[d]]
        depth = {len(p) for p in new.values()}
        label = ("Division finals" if depth == {1} else "Division semifinals" if depth == {2}
                 else f"Playoffs round {len(next(iter(brackets.values()), [])) + 1}")
        schedule = {**schedule, "brackets": {
            **{d: [[list(p) for p in r] for r in rounds] for d, rounds in brackets.items()},
            **{d: [[list(p) for p in r] for r in brackets.get(d, [])] + [[list(p) for p in
                                                                          new[d]]]
               for d in new}}}
    else:
        champions = {d: schedules.bracket_champion(rounds, winners)
                     for d, rounds in brackets.items()}
        done = schedules.bracket_champion(final, winners) if final else None
        if done is not None or (not final and (not schedule.get("division_final")
                                               or len(champions) < 2)):
            words = (f"{teams[done].name} won" if done is not None else "; ".join(
                f"{d}: {teams[c].name}" for d, c in champions.items()))
            raise Conflict(f"The playoffs are over: {words}.", code="event-complete")
        if final:
            pairs = schedules.next_bracket_round(final[-1], winners)
        else:  # the division winners, seeded by their season's record (points, then rates)
            record = {s.entrant: (-s.total, -s.stats.get("game_win_pct", 0),
                                  -s.stats.get("strength_of_schedule", 0), n)
                      for n, s in enumerate(compute_standings(event, preset))}
            pairs = schedules.playoff_bracket(sorted(champions.values(), key=record.get))
        label = _bracket_label(len(pairs), len(final) + 1)
        schedule = {**schedule, "final": [[list(p) for p in r] for r in final]
                    + [[list(p) for p in pairs]]}
    playing = [(a, b) for a, b in pairs if b is not None]
    byes = [teams[a].name for a, b in pairs if b is None]
    plan = Plan(number, rgames.PLAYOFF, label, team_tables(playing, teams),
                games_per_match=preset.playoff_games_per_match, best_of=True,
                notes=[f"Bye: {', '.join(byes)}."] if byes else [])
    plan.schedule = schedule
    return plan


def _division_bracket_view(event: Event, preset: Preset) -> dict:
    """The bracket of a league in divisions: round by round, every division's matches (each
    marked with its division), then the final between the division winners when there is
    one; before the draw, the brackets the standings within each division would give now."""
    names = {t.id: t.name for t in event.teams}
    brackets, final = _drawn(event)
    projected = not brackets
    if projected and preset.playoff_games_per_match and \
            any(r.stage == rgames.REGULAR for r in event.rounds):
        brackets = {d: [pairs] for d, pairs in
                    _first_rounds(_division_seeds(event, preset)).items()}
    winners = _winners(event)
    seed_of = {d: schedules.bracket_seeds(rounds[0]) for d, rounds in brackets.items()}
    division_of = {t: d for d, seeds in seed_of.items() for t in seeds}
    played = {(m.team_a_id, m.team_b_id): (m, r) for r in event.rounds
              if r.stage == rgames.PLAYOFF for m in r.matches}
    playoff_rounds = [r for r in event.rounds if r.stage == rgames.PLAYOFF]

    def ref(team):
        return {"id": team, "name": names.get(team),
                "seed": seed_of.get(division_of.get(team), {}).get(team)} \
            if team is not None else None

    def row(a, b, division):
        return {**_match_row(played.get((a, b), (None, None))[0], a, b, ref),
                "division": division}

    # Each division's rounds drawn, then the rounds still to come, side by side by index.
    columns = {d: [(pairs, False) for pairs in rounds]
               + [(pairs, True) for pairs in schedules.bracket_outline(rounds, winners)]
               for d, rounds in brackets.items()}
    depth = max((len(c) for c in columns.values()), default=0)
    out = []
    for index in range(depth):
        rows = [row(a, b, d) for d, column in columns.items() if index < len(column)
                for a, b in column[index][0]]
        ahead = projected or all(column[index][1] for column in columns.values()
                                 if index < len(column))
        round_ = playoff_rounds[index] if index < len(playoff_rounds) and not ahead else None
        sizes = {len(column[index][0]) for column in columns.values() if index < len(column)}
        out.append({"round": index + 1,
                    "label": round_.label if round_ else "Division finals" if sizes == {1}
                    else "Division semifinals" if sizes == {2} else f"Playoffs round {index + 1}",
                    "round_id": round_.id if round_ else None, "projected": ahead,
                    "matches": rows})
    if final or (event.schedule or {}).get("division_final"):
        if final:
            drawn, outline = final, schedules.bracket_outline(final, winners)
        else:  # the division winners known so far, the others still to come
            known = [schedules.bracket_champion(r, winners) for r in brackets.values()]
            known += [None] * (len(known) % 2)
            drawn, outline = [[(known[i], known[i + 1]) for i in range(0, len(known), 2)]], []
        for number, pairs in enumerate(drawn + outline, start=depth + 1):
            ahead = not final or number > depth + len(final)
            round_ = playoff_rounds[number - 1] \
                if not ahead and number - 1 < len(playoff_rounds) else None
            out.append({"round": number, "label": "Final" if len(pairs) <= 1 else
                        _bracket_label(len(pairs), number),
                        "round_id": round_.id if round_ else None, "projected": ahead,
                        "matches": [row(a, b, None) for a, b in pairs]})
    _dated(event, out)
    return {"rounds": out, "drawn": not projected,
            "seeds": [{"seed": seeds[t], "id": t, "name": names.get(t), "division": d}
                      for d, seeds in seed_of.items() for t in sorted(seeds, key=seeds.get)]}


def _dated(event: Event, rounds: list[dict]) -> None:
    """Each bracket round's night (RULES.md §6: the organizer's for the round, else a week
    after the round before), and each match's own night when it was moved."""
    nights = playoff_round_nights(event, len(rounds))
    moved = match_nights(event)
    chosen = chosen_playoff_nights(event)
    for round_, night in zip(rounds, nights, strict=True):
        round_["date"] = night
        round_["chosen"] = round_["round"] in chosen
        for match in round_["matches"]:
            match["date"] = moved.get(match["match_id"], night)


def _match_row(match, a, b, ref) -> dict:
    """A bracket match as the view shows it: its teams (`ref` makes each one's entry), a bye,
    the games won and each game's points, and the winner (a bye's team goes through)."""
    winner = (final_team(match, match.winner) if match and match.winner
              else (a if a is not None and b is None else None))
    return {"a": ref(a), "b": ref(b), "bye": a is not None and b is None, "division": None,
            "match_id": match.id if match else None,
            "games_won": ({"a": sum(1 for g in match.games if g.winner == "A"),
                           "b": sum(1 for g in match.games if g.winner == "B")}
                          if match else None),
            "games": [{"number": g.number, "points": {"a": g.points_a, "b": g.points_b},
                       "winner": final_team(match, g.winner) if g.winner else None}
                      for g in match.games] if match else [],
            "winner": winner}


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
    if len(_divisions(event)) > 1:
        return _division_bracket_view(event, preset)
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

    def ref(team):
        return {"id": team, "name": names.get(team), "seed": seed_of.get(team)} \
            if team is not None else None

    out = []
    for index, pairs in enumerate(drawn):
        round_ = playoff_rounds[index] if index < len(playoff_rounds) else None
        matches = {(m.team_a_id, m.team_b_id): m for m in (round_.matches if round_ else [])}
        rows = []
        for a, b in pairs:
            rows.append(_match_row(matches.get((a, b)), a, b, ref))
            winners[(a, b)] = rows[-1]["winner"]
        out.append({"round": index + 1,
                    "label": round_.label if round_ else _bracket_label(len(pairs), index + 1),
                    "round_id": round_.id if round_ else None, "projected": projected,
                    "matches": rows})
    for pairs in schedules.bracket_outline(drawn, winners):
        out.append({"round": len(out) + 1, "label": _bracket_label(len(pairs), len(out) + 1),
                    "round_id": None, "projected": True,
                    "matches": [{"a": ref(a), "b": ref(b), "bye": False, "match_id": None,
                                 "games_won": None, "games": [], "winner": None}
                                for a, b in pairs]})
    _dated(event, out)
    seeds = sorted(seed_of, key=seed_of.get)
    return {"rounds": out, "drawn": not projected,
            "seeds": [{"seed": seed_of[t], "id": t, "name": names.get(t)} for t in seeds]}
