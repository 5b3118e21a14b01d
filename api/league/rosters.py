"""What a league team's captain keeps with the team key (RULES.md §6): the roster (players and
substitutes, locked after the lock week), forfeits announced ahead, and the team's schedule."""

from __future__ import annotations

from sqlalchemy import func, select

from ..core.common import audit, get_event, get_team, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid
from ..core.keys import TEAM, Principal
from ..core.models import Event, Match, Player, Round, Seat, Team
from ..core.text import clean_name
from ..night.entrants import TEAM_SUBSTITUTES
from ..people.people import link_players
from ..rules import games as rgames
from ..rules import league_calendar as calendar
from ..rules import matches as rmatches
from .forfeits import forfeit_rows, offences_view, record_forfeit, require_league
from .nights import night_dates, night_lookup, night_of, playoff_index, team_week
from .protests import team_protests


def lock_week(event: Event) -> int:
    return event.roster_lock_week or calendar.ROSTER_LOCK_WEEK


def roster_locked(event: Event) -> bool:
    regular = [r for r in event.rounds if r.stage == rgames.REGULAR]
    started = sum(1 for r in regular if r.status != "scheduled")
    closed = sum(1 for r in regular if r.status == "closed")
    return calendar.roster_locked(lock_week(event), started, closed)


def entered_name(raw: str, what: str) -> str:
    try:
        return clean_name(raw, what)
    except ValueError as exc:
        raise Invalid(str(exc), code="bad-name") from None


def _roster(team: Team) -> dict:
    return {"name": team.name,
            "players": [m.name for m in team.members if m.role == "player"],
            "substitutes": [m.name for m in team.members if m.role == "substitute"]}


def update_roster(event_id: int, team_id: int, principal: Principal, changes: dict) -> Team:
    """Change a team's name, its two players or its substitutes. A captain can until the
    roster is final; after that only the organizer, and the refusal says why."""
    event = lock_event(event_id)
    require_league(preset_of(event))
    team = get_team(event, team_id)
    if principal.role == TEAM and roster_locked(event):
        raise Conflict(f"{team.name}'s roster is final: rosters lock after week "
                       f"{lock_week(event)}, and that week is over. Only the organizer can "
                       "change it now.", code="roster-locked")
    before = _roster(team)
    moved_down: set[int] = set()
    others = {p.name.casefold() for p in event.players if p.team_id != team.id}
    if "name" in changes:
        new = entered_name(changes["name"], "The team name")
        if any(t.name.casefold() == new.casefold() for t in event.teams if t.id != team.id):
            raise Conflict(f"There is already a team called '{new}'.", code="duplicate-name")
        team.name = new
    wanted = [entered_name(n, "A player's name") for n in changes.get("players", [])] + \
        [entered_name(n, "A substitute's name") for n in changes.get("substitutes", [])]
    folded = [n.casefold() for n in wanted]
    if len(set(folded)) != len(folded):
        raise Invalid("A name is on the roster twice.", code="duplicate-name")
    taken = [n for n in wanted if n.casefold() in others]
    if taken:
        raise Conflict(f"'{taken[0]}' is already registered in this event with another "
                       "team.", code="duplicate-name")
    if "players" in changes:
        if len(changes["players"]) != 2:
            raise Invalid(f"A team has exactly 2 players; {len(changes['players'])} given.",
                          code="bad-roster")
        moved_down = _set_players(event, team, [entered_name(n, "A player's name")
                                                for n in changes["players"]])
        db.session.refresh(team)
    if "substitutes" in changes:
        subs = [entered_name(n, "A substitute's name") for n in changes["substitutes"]]
        if len(subs) > TEAM_SUBSTITUTES:
            raise Invalid(f"A team keeps at most {TEAM_SUBSTITUTES} substitutes; {len(subs)} "
                          "given.", code="too-many-substitutes")
        _set_substitutes(event, team, subs, moved_down)
    db.session.flush()
    db.session.refresh(team)
    audit(event.id, principal, "roster", "team", team.id, before=before, after=_roster(team))
    db.session.commit()
    return team


def _next_position(event: Event) -> int:
    current = db.session.execute(select(func.max(Player.position))
                                 .where(Player.event_id == event.id)).scalar()
    return (current or 0) + 1


def _has_played(player: Player) -> bool:
    """Seated in a week that has started (the weeks to come are seated in advance)."""
    return db.session.execute(select(Seat.match_id).join(Match, Match.id == Seat.match_id)
                              .join(Round, Round.id == Match.round_id)
                              .where(Seat.player_id == player.id, Round.status != "scheduled")
                              .limit(1)).first() is not None


def _reseat(old: Player, new: Player) -> None:
    """The weeks still to come seat `new` where `old` was seated."""
    waiting = select(Seat).join(Match, Match.id == Seat.match_id).join(
        Round, Round.id == Match.round_id).where(Seat.player_id == old.id,
                                                 Round.status == "scheduled")
    for seat in db.session.execute(waiting).scalars():
        seat.player_id = new.id


def _set_players(event: Event, team: Team, names: list[str]) -> set[int]:
    """The two roster players. A name that is a substitute's moves them up; a new name renames
    a player who has not played yet, and otherwise joins as a new player (the one replaced
    stays as a substitute, so the games played keep their names). The weeks still to come
    seat the new pair. Returns the ids of players moved down to the substitutes."""
    players = [m for m in team.members if m.role == "player"]
    by_name = {m.name.casefold(): m for m in team.members}
    moved_down = set()
    for slot, name in enumerate(names):
        current = players[slot] if slot < len(players) else None
        if current is not None and current.name.casefold() == name.casefold():
            current.name = name
            continue
        incoming = by_name.get(name.casefold())
        if incoming is None and current is not None and not _has_played(current):
            current.name = name
            continue
        if incoming is None:
            incoming = Player(event_id=event.id, name=name, position=_next_position(event),
                              team_id=team.id, role="player")
            db.session.add(incoming)
            db.session.flush()
            link_players(event, [incoming])
        incoming.role = "player"
        if current is not None:
            current.role = "substitute"
            moved_down.add(current.id)
            _reseat(current, incoming)
    db.session.flush()
    return moved_down


def _set_substitutes(event: Event, team: Team, names: list[str],
                     moved_down: set[int] = frozenset()) -> None:
    """The substitutes as listed: new names added, names left out removed (a substitute who
    has played stays: their games are in the results; so does a player just moved down)."""
    keep = {n.casefold() for n in names}
    current = {m.name.casefold(): m for m in team.members if m.role == "substitute"}
    for folded, player in current.items():
        if folded in keep or player.id in moved_down:
            continue
        if _has_played(player):
            raise Conflict(f"{player.name} has played for {team.name}, so stays on its list of "
                           "substitutes.", code="substitute-played")
        db.session.delete(player)
    position = _next_position(event)
    added = []
    for name in names:
        if name.casefold() in current or any(m.name.casefold() == name.casefold()
                                             for m in team.members if m.role == "player"):
            continue
        player = Player(event_id=event.id, name=name, position=position, team_id=team.id,
                        role="substitute")
        position += 1
        db.session.add(player)
        added.append(player)
    db.session.flush()
    if added:
        link_players(event, added)


def announce_forfeit(event_id: int, team_id: int, principal: Principal, week: int,
                     note: str | None) -> dict:
    """A team says it cannot come on a week's night: its match that week is forfeited before
    the night (a no show), and the opponent sees it on their schedule."""
    event = get_event(event_id)
    require_league(preset_of(event))
    team = get_team(event, team_id)
    round_, match = team_week(event, team.id, week, Invalid)
    if match is None:
        raise Invalid(f"{team.name} has a bye in week {week}: there is no match to forfeit.",
                      code="bye")
    if round_.status != "scheduled":
        raise Conflict(f"Week {week} has started: tell the organizer at the venue instead.",
                       code="week-started")
    return record_forfeit(match.id, principal, team.id, "no-show", None, note)


def team_schedule(event: Event, team_id: int) -> dict:
    """A team's season on one page: each week's night, opponent, table, result and standings
    points, and every forfeit (its own and its opponents', advance ones too)."""
    require_league(preset_of(event))
    preset = preset_of(event)
    team = get_team(event, team_id)
    names = {t.id: t.name for t in event.teams}
    schedule = event.schedule or {}
    nights = night_dates(event)
    forfeits = forfeit_rows(event)
    rounds = {r.number: r for r in event.rounds if r.stage == rgames.REGULAR}
    weeks = []
    for number, pairs in enumerate(schedule.get("season", []), start=1):
        pair = next((p for p in pairs if team.id in p), None)
        round_ = rounds.get(number)
        row = {"week": number, "date": nights[number - 1], "start": schedule.get("start"),
               "status": round_.status if round_ else None, "bye": True, "opponent": None,
               "home": None, "table": None, "match_id": None, "games_won": None,
               "points": None, "forfeits": []}
        if pair is not None and pair[1] is not None:
            home = pair[0] == team.id
            other = pair[1] if home else pair[0]
            match = next((m for m in (round_.matches if round_ else [])
                          if {m.team_a_id, m.team_b_id} == {team.id, other}), None)
            row.update(bye=False, home=home, opponent={"id": other, "name": names.get(other)})
            if match is not None:
                us = "A" if match.team_a_id == team.id else "B"
                won = sum(1 for g in match.games if g.winner == us)
                lost = sum(1 for g in match.games if g.winner not in (None, us))
                over = match.status == "over" or won + lost == len(match.games)
                row.update(table=match.table, match_id=match.id,
                           date=night_of(event, match),
                           games_won={"us": won, "them": lost},
                           points=rmatches.week_points(preset, won) if over else None,
                           forfeits=forfeits.get(match.id, []))
        weeks.append(row)
    offence = next((o for o in offences_view(event) if o["team_id"] == team.id), None)
    locked = roster_locked(event)
    playoffs = _team_playoffs(event, team, names)
    return {"event_id": event.id, "event_name": event.name, "time_zone": event.time_zone,
            "team": {"id": team.id, "name": team.name, "division": team.division,
                     **_roster(team)},
            "roster_locked": locked, "lock_after_week": lock_week(event),
            "roster_message": calendar.roster_lock_words(lock_week(event), locked),
            "offences": offence, "weeks": weeks, "playoffs": playoffs,
            "protests": team_protests(event.id, team.id)}


def _team_playoffs(event: Event, team: Team, names: dict) -> list[dict]:
    """The team's playoff matches drawn so far, each with its night (its round's, or its own
    when it was moved: RULES.md §6), opponent, table, games won and whether the team went
    through."""
    night = night_lookup(event)
    index = playoff_index(event)
    start = (event.schedule or {}).get("start")
    out = []
    for round_ in sorted((r for r in event.rounds if r.stage == rgames.PLAYOFF),
                         key=lambda r: r.number):
        match = next((m for m in round_.matches if team.id in (m.team_a_id, m.team_b_id)),
                     None)
        if match is None:
            continue
        us = "A" if match.team_a_id == team.id else "B"
        other = match.team_b_id if us == "A" else match.team_a_id
        won = sum(1 for g in match.games if g.winner == us)
        lost = sum(1 for g in match.games if g.winner not in (None, us))
        out.append({"round": index[round_.number], "label": round_.label,
                    "round_id": round_.id, "status": round_.status,
                    "date": night(match.id, round_.number, round_.stage), "start": start,
                    "opponent": {"id": other, "name": names.get(other)},
                    "table": match.table, "match_id": match.id,
                    "games_won": {"us": won, "them": lost},
                    "won": None if match.winner is None else match.winner == us})
    return out
