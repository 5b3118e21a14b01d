"""The league: the season schedule, weeks, forfeits and offences, substitutes, the playoffs."""

from __future__ import annotations

from ..auth import Principal
from ..db import db
from ..models import Event, Forfeit, Game, Match, Round
from ..problems import Problem
from ..rules import games as rgames
from ..rules import league as rleague
from ..rules import schedules
from ..rules import standings as rstandings
from ..rules.presets import Preset
from . import games as game_service
from .common import audit, get_match, lock_event, preset_of
from .entrants import field_teams
from .standings import compute_standings, final_team


def _require_league(preset: Preset) -> None:
    if preset.movement != "league-schedule":
        raise Problem(409, "Only a league has a season schedule, forfeits and substitutes.",
                      code="not-league")


def create_season(event_id: int, principal: Principal, weeks: int | None) -> Event:
    """Schedule the whole season: a round robin of the teams, a week per round, each match 3
    games to 10; a bye when the count is odd."""
    from .rounds import Plan, PlannedTable, _check_rosters, store_plan

    event = lock_event(event_id)
    preset = preset_of(event)
    _require_league(preset)
    if any(r.stage == rgames.REGULAR for r in event.rounds):
        raise Problem(409, "The season is already scheduled.", code="season-exists")
    teams = field_teams(event)
    if len(teams) < 2:
        raise Problem(409, "A league needs at least 2 teams before the season is scheduled.",
                      code="too-few-teams")
    _check_rosters(teams)
    weeks = weeks or preset.rounds
    season = schedules.league_schedule([t.id for t in teams], weeks)
    by_id = {t.id: t for t in teams}
    for number, pairs in enumerate(season, start=1):
        tables = []
        for home, away in pairs:
            if away is None:
                continue
            a = [m.id for m in by_id[home].members if m.role == "player"]
            b = [m.id for m in by_id[away].members if m.role == "player"]
            tables.append(PlannedTable(len(tables) + 1, [a[0], b[0], a[1], b[1]], home, away))
        store_plan(event, preset, Plan(number, rgames.REGULAR, f"Week {number}", tables,
                                       games_per_match=preset.games_per_match,
                                       status="scheduled"))
    event.schedule = {"season": [[list(pair) for pair in week] for week in season]}
    audit(event.id, principal, "schedule-season", "event", event.id,
          after={"weeks": len(season), "teams": len(teams)})
    db.session.commit()
    return event


def season_view(event: Event) -> dict:
    names = {t.id: t.name for t in event.teams}
    weeks = []
    rounds = {r.number: r for r in event.rounds}
    for number, pairs in enumerate((event.schedule or {}).get("season", []), start=1):
        round_ = rounds.get(number)
        matches = {(m.team_a_id, m.team_b_id): m for m in (round_.matches if round_ else [])}
        rows = []
        for home, away in pairs:
            if away is None:
                rows.append({"home": {"id": home, "name": names.get(home)}, "away": None,
                             "bye": True})
                continue
            match = matches.get((home, away))
            rows.append({
                "home": {"id": home, "name": names.get(home)},
                "away": {"id": away, "name": names.get(away)}, "bye": False,
                "match_id": match.id if match else None,
                "table": match.table if match else None,
                "status": match.status if match else None,
                "games_won": ({"home": sum(1 for g in match.games if g.winner == "A"),
                               "away": sum(1 for g in match.games if g.winner == "B")}
                              if match else None),
                "forfeits": [f.team_id for f in _forfeits_of(match)] if match else [],
            })
        weeks.append({"week": number, "round_id": round_.id if round_ else None,
                      "status": round_.status if round_ else None, "matches": rows})
    return {"weeks": weeks, "offences": offences_view(event),
            "forfeit_choices": forfeit_choices(preset_of(event))}


def forfeit_choices(preset: Preset) -> list[dict]:
    """The reasons an organizer can record, each with the games it costs, in words."""
    if preset.movement != "league-schedule":
        return []
    choices = [(rleague.LATE, preset.forfeit_minutes * step, f"{preset.forfeit_minutes * step} "
                "minutes late") for step in range(1, preset.games_per_match + 1)]
    choices += [(rleague.NO_SHOW, None, "No show"), (rleague.ONE_PLAYER, None, "Only one player")]
    out = []
    for reason, minutes, label in choices:
        games = rleague.forfeited_games(preset, reason, minutes)
        out.append({"reason": reason, "minutes_late": minutes, "games": games,
                    "label": f"{label}: game{'s' if len(games) > 1 else ''} "
                             f"{', '.join(map(str, games))}"})
    return out


def _forfeits_of(match: Match) -> list[Forfeit]:
    return list(db.session.execute(
        db.select(Forfeit).where(Forfeit.match_id == match.id)).scalars())


def offences_view(event: Event) -> list[dict]:
    preset = preset_of(event)
    rows = []
    for team in event.teams:
        count = _offences(event, team.id)
        status = rleague.offence_status(preset, count)
        rows.append({"team_id": team.id, "name": team.name, "offences": count,
                     "status": status.status, "message": status.message,
                     "removed": team.removed, "playoff_excluded": team.playoff_excluded})
    return rows


def _offences(event: Event, team_id: int) -> int:
    weeks = db.session.execute(
        db.select(Forfeit.round_number).where(Forfeit.event_id == event.id,
                                              Forfeit.team_id == team_id).distinct()).all()
    return len(weeks)


def _forfeit_games(match: Match, side: str, numbers: list[int], preset: Preset) \
        -> tuple[list[int], dict[int, str]]:
    """Forfeit these games of the match for `side`. A game already played (or forfeited, or
    not needed in a decided best-of match) is left as it is: it is not forfeited. Returns the
    games forfeited, and why each other one was not, in words."""
    forfeited, kept = [], {}
    for number in numbers:
        game = next((g for g in match.games if g.number == number), None)
        if game is None:
            if not match.best_of or match.status == "over":
                kept[number] = "not needed"
                continue
            last = match.games[-1]
            game = Game(event_id=match.event_id, number=number, stage=last.stage,
                        target_points=last.target_points, hands_per_game=last.hands_per_game,
                        bumps={})
            match.games.append(game)
            db.session.flush()
        if game.forfeited_by is not None:
            kept[number] = "already forfeited" if game.forfeited_by == side else \
                "forfeited by the other team"
            continue
        if game.end is not None:
            kept[number] = "already played"
            continue
        if game.hands:
            raise Problem(409, f"Game {number} at table {match.table} already has hands; a "
                          "game being played cannot be forfeited.", code="game-started")
        game.forfeited_by = side
        game_service.save_game(game, preset, game_service.compute_state(game, preset=preset))
        db.session.flush()
        forfeited.append(number)
    return forfeited, kept


def _games_words(numbers) -> str:
    numbers = sorted(numbers)
    if len(numbers) == 1:
        return f"Game {numbers[0]}"
    return f"Games {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def _kept_words(kept: dict[int, str]) -> str:
    """'Game 1 was already played: its result stands.' and the like."""
    by_reason: dict[str, list[int]] = {}
    for number, why in sorted(kept.items()):
        by_reason.setdefault(why, []).append(number)
    sentences = []
    for why, numbers in by_reason.items():
        verb = "was" if len(numbers) == 1 else "were"
        tail = {"already played": ": the result stands"}.get(why, "")
        sentences.append(f"{_games_words(numbers)} {verb} {why}{tail}.")
    return " ".join(sentences)


def record_forfeit(match_id: int, principal: Principal, team_id: int, reason: str,
                   minutes_late: int | None, note: str | None) -> dict:
    """A team late (10/20/30 minutes), absent, or with one player forfeits games; each week
    with a forfeit is an offence, and the third removes the team from the league."""
    match = get_match(match_id)
    event = lock_event(match.event_id)
    preset = preset_of(event)
    _require_league(preset)
    if team_id not in (match.team_a_id, match.team_b_id):
        raise Problem(422, f"Team {team_id} does not play at table {match.table} this week.",
                      code="not-in-match")
    round_ = match.round
    if round_.status == "closed":
        raise Problem(409, f"{round_.label} is closed.", code="round-closed")
    team = next(t for t in event.teams if t.id == team_id)
    existing = db.session.execute(db.select(Forfeit).where(
        Forfeit.match_id == match.id, Forfeit.team_id == team_id)).scalar_one_or_none()
    if team.removed:
        if existing is None:
            raise Problem(409, f"{team.name} was removed from the league after "
                          f"{_offences(event, team_id)} weeks with a forfeit: its matches are "
                          "already forfeit wins for its opponents, and no further forfeit or "
                          "offence is recorded.", code="team-removed")
        # The forfeit that removed the team, sent again (a phone retrying a lost answer):
        # answer it as recorded, changing nothing.
        status = rleague.offence_status(preset, _offences(event, team_id))
        return {"games": existing.games, "offences": status.offences,
                "status": status.status, "message": status.message,
                "match": game_service.game_view(match.games[0])["match"]}
    numbers = rleague.forfeited_games(preset, reason, minutes_late)
    side = "A" if team_id == match.team_a_id else "B"
    before_games = [(g.number, g.forfeited_by) for g in match.games]
    forfeited, kept = _forfeit_games(match, side, numbers, preset)
    if not forfeited and existing is None:
        raise Problem(409, f"Nothing to forfeit for {team.name} at table {match.table}: "
                      f"{_kept_words(kept)} A game played is not forfeited, so no offence is "
                      "recorded.", code="nothing-to-forfeit")
    if existing:
        existing.reason, existing.minutes_late, existing.note = reason, minutes_late, note
        existing.games = sorted(set(existing.games) | set(forfeited))
        games = existing.games
    else:
        games = forfeited
        db.session.add(Forfeit(event_id=event.id, match_id=match.id, team_id=team_id,
                               round_number=round_.number, reason=reason,
                               minutes_late=minutes_late, games=games, note=note))
    db.session.flush()
    status = rleague.offence_status(preset, _offences(event, team_id))
    if status.status == rleague.REMOVED and not team.removed:
        team.removed = True
        _forfeit_later_matches(event, preset, team_id, round_.number)
    audit(event.id, principal, "forfeit", "match", match.id,
          before={"games": before_games},
          after={"team": team.name, "reason": reason, "minutes_late": minutes_late,
                 "games": forfeited, "offence": status.offences, "status": status.status},
          round_number=round_.number, table=match.table)
    db.session.commit()
    kept_played = {n: why for n, why in kept.items() if n not in games}
    message = " ".join(filter(None, [status.message, _kept_words(kept_played)]))
    return {"games": games, "offences": status.offences, "status": status.status,
            "message": message, "match": game_service.game_view(match.games[0])["match"]}


def _forfeit_later_matches(event: Event, preset: Preset, team_id: int, after: int) -> None:
    """A removed team's later matches are forfeit wins for its opponents."""
    for round_ in event.rounds:
        if round_.number <= after or round_.stage != rgames.REGULAR:
            continue
        for match in round_.matches:
            if team_id in (match.team_a_id, match.team_b_id):
                side = "A" if team_id == match.team_a_id else "B"
                numbers = [g.number for g in match.games if not g.hands]
                _forfeit_games(match, side, numbers, preset)


def set_seat(match_id: int, principal: Principal, seat: int, player_id: int) -> Match:
    """Put a substitute (or the roster player back) in a seat. Regular season only: playoff
    matches are for roster players."""
    match = get_match(match_id)
    event = lock_event(match.event_id)
    preset = preset_of(event)
    _require_league(preset)
    player = next((p for p in event.players if p.id == player_id), None)
    team_id = match.team_a_id if seat in (1, 3) else match.team_b_id
    if player is None or player.team_id != team_id:
        raise Problem(422, f"Player {player_id} is not on the roster or substitutes of the "
                      f"team in seat {seat}.", code="not-on-team")
    if match.round.stage != rgames.REGULAR and player.role != "player":
        raise Problem(409, f"{player.name} is a substitute: only roster players may play "
                      "playoff matches.", code="roster-only")
    taken = [s for s in match.seats if s.player_id == player_id and s.seat != seat]
    if taken:
        raise Problem(409, f"{player.name} already sits in seat {taken[0].seat}.",
                      code="already-seated")
    target = next(s for s in match.seats if s.seat == seat)
    before = {"seat": seat, "player_id": target.player_id}
    target.player_id = player_id
    audit(event.id, principal, "substitute", "match", match.id, before=before,
          after={"seat": seat, "player_id": player_id, "name": player.name},
          round_number=match.round.number, table=match.table)
    db.session.commit()
    return match


def plan_league_round(event: Event, preset: Preset):
    """The next week of the season, or, after it, the next round of the playoffs."""
    from .rounds import Plan, _team_tables

    scheduled = [r for r in event.rounds if r.status == "scheduled"]
    if scheduled:
        round_ = scheduled[0]
        return Plan(round_.number, round_.stage, round_.label, [], existing_round=round_,
                    games_per_match=preset.games_per_match)
    if not any(r.stage == rgames.REGULAR for r in event.rounds):
        raise Problem(409, "Schedule the season first.", code="no-season")
    if not preset.playoff_games_per_match:
        raise Problem(409, "The season is over and this league has no playoffs.",
                      code="event-complete")
    teams = {t.id: t for t in event.teams}
    bracket = list((event.schedule or {}).get("bracket", []))
    number = len(event.rounds) + 1
    if not bracket:
        seeds = _playoff_seeds(event, preset)
        if len(seeds) < 2:
            raise Problem(409, "Fewer than 2 teams are eligible for the playoffs.",
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
            raise Problem(409, f"The playoffs are over: {teams[champion].name} won.",
                          code="event-complete")
        pairs = schedules.next_bracket_round(previous, winners)
    playing = [(a, b) for a, b in pairs if b is not None]
    byes = [teams[a].name for a, b in pairs if b is None]
    label = _bracket_label(len(pairs), len(bracket) + 1)
    plan = Plan(number, rgames.PLAYOFF, label, _team_tables(playing, teams),
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
                    "matches": rows})
    for pairs in schedules.bracket_outline(drawn, winners):
        out.append({"round": len(out) + 1, "label": _bracket_label(len(pairs), len(out) + 1),
                    "round_id": None, "projected": True,
                    "matches": [{"a": ref(a), "b": ref(b), "bye": False, "match_id": None,
                                 "games_won": None, "games": [], "winner": None}
                                for a, b in pairs]})
    seeds = sorted(seed_of, key=seed_of.get)
    return {"rounds": out, "drawn": not projected,
            "seeds": [{"seed": seed_of[t], "id": t, "name": names.get(t)} for t in seeds]}


def league_round_of(match: Match) -> Round:
    return match.round
