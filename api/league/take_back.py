"""A forfeit announced ahead, taken back: the team that said "we'll miss week 8" found a
substitute and will play after all.

Before its week starts nothing of such a forfeit has counted: its games are forfeited, and it
becomes an offence, only when the week starts (forfeits.apply_advance_forfeits). So taking it
back leaves the week as if it had never been announced: the team plays it, the weeks it still
forfeits ahead each become one offence earlier, and the opponent's schedule and calendar show
the match again. The forfeit's row goes; the audit log keeps what it was, which is how a
request sent again is known and answered the same. Once the week has started the forfeit
stands: its games are lost and it is an offence, and only the organizer's ruling on a game
changes a result then."""

from __future__ import annotations

from sqlalchemy import select

from ..core.common import audit, get_team, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, NotFound
from ..core.keys import Principal
from ..core.models import AuditEntry, Event, Forfeit, Match, Round, Team
from .forfeits import offence_weeks, offences_view, require_league
from .nights import team_week

TAKE_BACK = "withdraw-forfeit"  # its audit action (the calendar feeds read it)


def take_back(event_id: int, team_id: int, principal: Principal, week: int) -> dict:
    """Take back the team's forfeit announced for `week`, while the week has not started.
    Sent again after it was taken back, answered the same, changing nothing."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    team = get_team(event, team_id)
    round_, match = team_week(event, team.id, week, NotFound)
    forfeit = None if match is None else db.session.execute(select(Forfeit).where(
        Forfeit.match_id == match.id, Forfeit.team_id == team.id)).scalar_one_or_none()
    if forfeit is None:
        if match is not None and _taken_back_before(event, match, team):
            db.session.rollback()  # a lost answer asked again: nothing more to do
            return _answer(event, team, round_, match)
        raise NotFound(f"{team.name} has no forfeit announced for {round_.label}: there is "
                       "nothing to take back.", code="no-forfeit-ahead")
    if round_.status != "scheduled" or not forfeit.advance:
        raise _stands(event, team, round_, match)
    if team.removed:
        raise Conflict(f"{team.name} was removed from the league: its matches from now on are "
                       "forfeit wins for its opponents, announced or not, so taking back "
                       f"{round_.label}'s forfeit would change nothing.", code="team-removed")
    offence = offence_weeks(event)[team.id].offence_of(round_.number)
    before = {"team": team.name, "team_id": team.id, "reason": forfeit.reason,
              "games": forfeit.games, "advance": True, "note": forfeit.note,
              "announced_by": forfeit.announced_by, "announced_at": forfeit.created_at,
              "offence": offence}
    db.session.delete(forfeit)
    db.session.flush()
    mine = offence_weeks(event).get(team.id)
    audit(event.id, principal, TAKE_BACK, "match", match.id, before=before,
          after={"team": team.name, "team_id": team.id, "week": round_.label,
                 "ahead": list(mine.ahead) if mine else []},
          round_number=round_.number, table=match.table)
    db.session.commit()
    return _answer(event, team, round_, match)


def _taken_back_before(event: Event, match: Match, team: Team) -> bool:
    """Whether this team's forfeit of this match was taken back (and not announced again,
    since then its row would be there)."""
    return any((before or {}).get("team_id") == team.id for before in db.session.execute(
        select(AuditEntry.before).where(AuditEntry.event_id == event.id,
                                        AuditEntry.action == TAKE_BACK,
                                        AuditEntry.entity == "match",
                                        AuditEntry.entity_id == str(match.id))).scalars())


def _stands(event: Event, team: Team, round_: Round, match: Match) -> Conflict:
    """The refusal once the week has started: the forfeit is part of the results now."""
    offence = offence_weeks(event)[team.id].offence_of(round_.number)
    games = sorted(match.games, key=lambda g: g.number)
    return Conflict(
        f"{round_.label} has started, so {team.name}'s forfeit of it stands: its games are "
        f"forfeited and it is the team's offence {offence}. Only the organizer's ruling on "
        "a game can change its result now (Corrections, the game's Rulings: POST "
        "/api/games/{id}/rulings).", code="forfeit-stands",
        rulings=[f"/api/games/{g.id}/rulings" for g in games])


def _answer(event: Event, team: Team, round_: Round, match: Match) -> dict:
    """The team plays the week after all; its offences and the weeks it still forfeits ahead
    (each with the offence it becomes when it starts), in words."""
    other_id = match.team_b_id if match.team_a_id == team.id else match.team_a_id
    other = next((t.name for t in event.teams if t.id == other_id), "the other team")
    mine = next(o for o in offences_view(event) if o["team_id"] == team.id)
    words = [f"{team.name} play {round_.label} after all: the forfeit announced for it is "
             f"taken back, and {other} see the match on their schedule again."]
    if mine["offences"]:
        words.append(mine["message"])
    words.append(mine["ahead_message"] or "No other week is forfeited ahead.")
    return {"team_id": team.id, "name": team.name, "week": round_.number,
            "match_id": match.id, "taken_back": True, "offences": mine["offences"],
            "status": mine["status"], "ahead": mine["ahead"], "message": " ".join(words)}
