"""League forfeits: late, absent or one-player teams forfeit games; each week with a forfeit
is an offence once that week has started, and the third removes the team from the league."""

from __future__ import annotations

from ..core.common import audit, get_match, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.hooks import NEWS
from ..core.keys import Principal
from ..core.models import Event, Forfeit, Game, Match, Round, utcnow
from ..games.entry_views import waiting_counts
from ..games.game_state import compute_state, game_view, save_game
from ..rules import games as rgames
from ..rules import league as rleague
from ..rules import league_calendar as calendar
from ..rules.presets import Preset
from .nights import night_dates, start_of

REMOVE_TEAM = "remove-team"  # the audit action of a team removed (the calendar feeds read it)


def require_league(preset: Preset) -> None:
    if preset.movement != "league-schedule":
        raise Conflict("Only a league has a season schedule, forfeits and substitutes.",
                       code="not-league")


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


def forfeit_rows(event: Event) -> dict[int, list[dict]]:
    """Every forfeit of the event by match: who, why, which games, whether it was announced
    before the night (and by whom), and the offence it is (`counted`), or becomes when its
    week starts."""
    names = {t.id: t.name for t in event.teams}
    preset = preset_of(event)
    weeks = offence_weeks(event)
    labels = _labels(event)
    rows: dict[int, list[dict]] = {}
    for f in db.session.execute(db.select(Forfeit).where(Forfeit.event_id == event.id)
                                .order_by(Forfeit.id)).scalars():
        mine = weeks[f.team_id]
        rows.setdefault(f.match_id, []).append({
            "team_id": f.team_id, "name": names.get(f.team_id), "reason": f.reason,
            "minutes_late": f.minutes_late, "games": f.games, "advance": bool(f.advance),
            "announced_by": f.announced_by, "note": f.note,
            "offence": mine.offence_of(f.round_number),
            "counted": f.round_number not in mine.ahead,
            "offence_message": rleague.week_offence_words(preset, mine, f.round_number,
                                                          labels[f.round_number])})
    return rows


def measured_lateness(event: Event, match: Match) -> tuple[int, str]:
    """How late a team is now, measured from its night's start (the match's own night if it
    moved), and that start in words. Refused when the season has no start time."""
    begins = start_of(event, match)
    if begins is None:
        raise Invalid("Say how many minutes late the team was: this season has no league "
                      "night start time to measure from.", code="minutes-needed")
    minutes = calendar.minutes_late(begins.date(), begins.timetz().replace(tzinfo=None),
                                    begins.tzinfo, utcnow())
    when = f"{begins.strftime('%H:%M')} on {begins.date().isoformat()}"
    if minutes < 0:
        raise Conflict(f"The night has not started yet ({when}): a team is late only after "
                       "the start. To record that a team will not come, record a no show.",
                       code="not-late-yet")
    return minutes, when


def offences_view(event: Event) -> list[dict]:
    """Each team's offences so far (weeks with a forfeit that have started), where that
    leaves it, and the weeks it forfeited ahead that are not offences yet."""
    preset = preset_of(event)
    weeks = offence_weeks(event)
    labels = _labels(event)
    rows = []
    for team in event.teams:
        mine = weeks.get(team.id, rleague.OffenceWeeks((), 0))
        status = rleague.offence_status(preset, mine.counted)
        rows.append({"team_id": team.id, "name": team.name, "offences": mine.counted,
                     "status": status.status, "message": status.message,
                     "ahead": list(mine.ahead),
                     "ahead_message": rleague.ahead_words(preset, mine, labels),
                     "removed": team.removed, "playoff_excluded": team.playoff_excluded})
    return rows


def offence_weeks(event: Event) -> dict[int, rleague.OffenceWeeks]:
    """Each team's weeks with a forfeit, in offence order, and how many count now: a week
    counts once it has started (a week forfeited ahead is not an offence before its night),
    the weeks to come in the order they will be played."""
    started = {r.number for r in event.rounds if r.status != "scheduled"}
    weeks: dict[int, list[int]] = {}
    for team_id, number in db.session.execute(
            db.select(Forfeit.team_id, Forfeit.round_number)
            .where(Forfeit.event_id == event.id).distinct()):
        weeks.setdefault(team_id, []).append(number)
    order = calendar.play_order(night_dates(event))
    return {team_id: rleague.offence_weeks(numbers, started, order)
            for team_id, numbers in weeks.items()}


def _offences(event: Event, team_id: int) -> int:
    """The team's offences so far: its weeks with a forfeit that have started."""
    mine = offence_weeks(event).get(team_id)
    return mine.counted if mine else 0


def _labels(event: Event) -> dict[int, str]:
    return {r.number: r.label for r in event.rounds}


def _remove_if_due(event: Event, team_id: int, principal: Principal | None,
                   round_: Round) -> None:
    """The team's offences reached the preset's count (the third): it is removed from the
    league, and its matches of the weeks still to come are forfeited as each week opens
    (`forfeit_removed_teams`). Audited, by the app when a week's start did it."""
    team = next(t for t in event.teams if t.id == team_id)
    offences = _offences(event, team_id)
    status = rleague.offence_status(preset_of(event), offences)
    if team.removed or status.status != rleague.REMOVED:
        return
    team.removed = True
    audit(event.id, principal, REMOVE_TEAM, "team", team.id,
          before={"removed": False},
          after={"team": team.name, "removed": True, "offence": offences,
                 "week": round_.label},
          round_number=round_.number)


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
        if game.hands or waiting_counts([game.id]):
            raise Conflict(f"Game {number} at table {match.table} already has hands (agreed "
                           "or entered); a game being played cannot be forfeited.",
                           code="game-started")
        game.forfeited_by = side
        save_game(game, preset, compute_state(game, preset=preset))
        db.session.flush()
        forfeited.append(number)
    if forfeited:  # forfeit wins count in the standings at once (webhooks' news)
        NEWS(match.event_id, [("standings.changed", {
            "event_id": match.event_id, "match_id": match.id, "round": match.round.number,
            "table": match.table, "games": forfeited, "why": "forfeit"})])
    return forfeited, kept


def _announced_games(match: Match, side: str, numbers: list[int]) \
        -> tuple[list[int], dict[int, str]]:
    """The games a forfeit recorded before the night will cost (a week is scheduled ahead,
    its matches all games played: never a best-of playoff match): forfeited when the week
    starts (`apply_advance_forfeits`), not before, so the standings count only the weeks
    opened so far. A game another forfeit of this match already names is left out. Returns
    the games, and why each other one is left out, in words (as `_forfeit_games`)."""
    named: dict[int, str] = {}
    for forfeit in db.session.execute(db.select(Forfeit).where(Forfeit.match_id == match.id)
                                      .order_by(Forfeit.id)).scalars():
        by = "A" if forfeit.team_id == match.team_a_id else "B"
        for number in forfeit.games:
            named.setdefault(number, by)
    existing = {g.number for g in match.games}
    forfeited, kept = [], {}
    for number in numbers:
        if number in named:
            kept[number] = "already forfeited" if named[number] == side else \
                "forfeited by the other team"
        elif number not in existing:
            kept[number] = "not needed"
        else:
            forfeited.append(number)
    return forfeited, kept


def apply_advance_forfeits(event: Event, round_: Round) -> None:
    """A week opens: the forfeits recorded before it (a team that called ahead) forfeit their
    games now, so they count in the standings from this week on (the webhooks hear
    standings.changed), and each is an offence from now on: the one that is a team's third
    removes it from the league (before `forfeit_removed_teams` runs for this week)."""
    matches = {m.id: m for m in round_.matches}
    if not matches:
        return
    preset = preset_of(event)
    for forfeit in db.session.execute(
            db.select(Forfeit).where(Forfeit.event_id == event.id, Forfeit.advance.is_(True),
                                     Forfeit.match_id.in_(list(matches)))
            .order_by(Forfeit.id)).scalars():
        match = matches[forfeit.match_id]
        side = "A" if forfeit.team_id == match.team_a_id else "B"
        _forfeit_games(match, side, list(forfeit.games), preset)
        _remove_if_due(event, forfeit.team_id, None, round_)


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
    with a forfeit is an offence once the week has started, and the third removes the team
    from the league.

    "Late" without minutes is measured from the night's start time. A forfeit recorded
    while the week is still to come is an advance forfeit (the team called ahead, a no show
    or one player; nobody is late before the night): the opponent's schedule shows it at
    once, and its games are forfeited when the week starts, so the standings count it with
    the weeks opened so far; it is an offence from then too (a team that announces three
    absences plays the weeks between them). Sent again unchanged, it is answered as
    recorded."""
    match = get_match(match_id)
    event = lock_event(match.event_id)
    preset = preset_of(event)
    require_league(preset)
    if team_id not in (match.team_a_id, match.team_b_id):
        raise Invalid(f"Team {team_id} does not play at table {match.table} this week.",
                      code="not-in-match")
    round_ = match.round
    if round_.status == "closed":
        raise Conflict(f"{round_.label} is closed.", code="round-closed")
    team = next(t for t in event.teams if t.id == team_id)
    existing = db.session.execute(db.select(Forfeit).where(
        Forfeit.match_id == match.id, Forfeit.team_id == team_id)).scalar_one_or_none()
    if team.removed:
        if existing is None:
            raise Conflict(f"{team.name} was removed from the league after "
                           f"{_offences(event, team_id)} weeks with a forfeit: its matches are "
                           "already forfeit wins for its opponents, and no further forfeit or "
                           "offence is recorded.", code="team-removed")
        # The forfeit that removed the team, sent again (a phone retrying a lost answer):
        # answer it as recorded, changing nothing.
        return _answer(event, match, existing, preset, None)
    advance = round_.status == "scheduled"
    if advance and reason == rleague.LATE:
        raise Conflict(f"{round_.label} has not started: a team is late only after its "
                       "night's start. To record now that a team will not come, record a no "
                       "show.", code="not-late-yet")
    measured = None
    if reason == rleague.LATE and minutes_late is None:
        minutes_late, measured = measured_lateness(event, match)
    numbers = rleague.forfeited_games(preset, reason, minutes_late)
    side = "A" if team_id == match.team_a_id else "B"
    before_games = [(g.number, g.forfeited_by) for g in match.games]
    forfeited, kept = (_announced_games(match, side, numbers) if advance
                       else _forfeit_games(match, side, numbers, preset))
    if not forfeited and existing is None:
        raise Conflict(f"Nothing to forfeit for {team.name} at table {match.table}: "
                       f"{_kept_words(kept)} A game played is not forfeited, so no offence is "
                       "recorded.", code="nothing-to-forfeit")
    if not forfeited and (existing.reason, existing.minutes_late, existing.note) == \
            (reason, minutes_late, note):
        # The same forfeit sent again (a lost answer retried): answered as recorded.
        db.session.rollback()
        return _answer(event, match, existing, preset, None)
    if existing:
        existing.reason, existing.minutes_late, existing.note = reason, minutes_late, note
        existing.advance = existing.advance and advance
        existing.games = sorted(set(existing.games) | set(forfeited))
        games = existing.games
    else:
        games = forfeited
        db.session.add(Forfeit(event_id=event.id, match_id=match.id, team_id=team_id,
                               round_number=round_.number, reason=reason,
                               minutes_late=minutes_late, games=games, note=note,
                               advance=advance, announced_by=principal.role))
    db.session.flush()
    # The log says the offence this forfeit is, or becomes when its week starts (as the
    # answer does), and where the team stands now.
    weeks = offence_weeks(event)[team_id]
    status = rleague.offence_status(preset, weeks.counted)
    audit(event.id, principal, "forfeit", "match", match.id,
          before={"games": before_games},
          after={"team": team.name, "team_id": team_id, "reason": reason,
                 "minutes_late": minutes_late, "games": forfeited,
                 "offence": weeks.offence_of(round_.number), "offences": status.offences,
                 "status": status.status, "advance": advance, "measured_from": measured},
          round_number=round_.number, table=match.table)
    if not advance:
        _remove_if_due(event, team_id, principal, round_)
    db.session.commit()
    kept_played = {n: why for n, why in kept.items() if n not in games}
    lateness = (f"{minutes_late} minutes late, measured from {measured}." if measured
                else None)
    return _answer(event, match, existing or _forfeit_of(match.id, team_id), preset,
                   lateness, _kept_words(kept_played))


def _forfeit_of(match_id: int, team_id: int) -> Forfeit:
    return db.session.execute(db.select(Forfeit).where(
        Forfeit.match_id == match_id, Forfeit.team_id == team_id)).scalar_one()


def _answer(event: Event, match: Match, forfeit: Forfeit, preset: Preset,
            lateness: str | None, kept: str = "") -> dict:
    """What recording a forfeit answers: its games, the team's offences so far, the offence
    this forfeit is (or becomes when its week starts), and in words what happens (an advance
    forfeit: who sees it, and when its games and its offence count)."""
    weeks = offence_weeks(event)[forfeit.team_id]
    status = rleague.offence_status(preset, weeks.counted)
    label = match.round.label
    counted = forfeit.round_number not in weeks.ahead
    other = match.team_b if forfeit.team_id == match.team_a_id else match.team_a
    ahead = None
    if forfeit.advance and other is not None:
        when = (f"its games are forfeited when {label} starts" if match.round.status ==
                "scheduled" else f"its games were forfeited when {label} started")
        ahead = f"Recorded before the night: {other.name} see it on their schedule; {when}."
    words = rleague.week_offence_words(preset, weeks, forfeit.round_number, label)
    message = " ".join(filter(None, [lateness, ahead, status.message if counted else words,
                                     kept]))
    return {"games": forfeit.games, "offences": status.offences, "status": status.status,
            "offence": weeks.offence_of(forfeit.round_number), "counted": counted,
            "message": message, "minutes_late": forfeit.minutes_late,
            "advance": bool(forfeit.advance), "match": game_view(match.games[0])["match"]}


def forfeit_removed_teams(event: Event, round_: Round) -> None:
    """A week opens: the matches of teams removed from the league are forfeit wins for their
    opponents. Done week by week, not at the removal, so the standings and the projected
    bracket count only the weeks opened so far."""
    removed = {t.id for t in event.teams if t.removed}
    if not removed or round_.stage != rgames.REGULAR:
        return
    preset = preset_of(event)
    for match in round_.matches:
        for team_id, side in ((match.team_a_id, "A"), (match.team_b_id, "B")):
            if team_id in removed:
                numbers = [g.number for g in match.games if not g.hands]
                _forfeit_games(match, side, numbers, preset)
