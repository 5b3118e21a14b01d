"""A player's scoresheet: per round, table, seat, partner, opponents and score, and the games
a fixed schedule gives them still to come."""

from __future__ import annotations

from sqlalchemy import select

from ..core.common import get_event, get_player, preset_of
from ..core.db import db
from ..core.models import Club, Event, Match, Person, Player, Result, Round, Seat
from ..games.result_notes import event_game_notes
from ..rules import games as rgames
from ..rules import seats as rseats
from ..rules import standings as rstandings
from ..rules.presets import Preset


def scoresheet(event_id: int, player_id: int) -> dict:
    """One player's sheet: per round, table, seat, partner, opponents and score."""
    event = get_event(event_id)
    player = get_player(event, player_id)
    return _sheet(event, preset_of(event), player, {p.id: p.name for p in event.players},
                  event_game_notes(event.id))


def _sheet(event: Event, preset: Preset, player: Player, names: dict[int, str],
           notes: dict[int, list[str]]) -> dict:
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
        partner = everyone.get(rseats.partner_of(seat.seat))
        opponents = [everyone.get(n) for n in rseats.opponents_of(seat.seat)]
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
            "notes": [note for game_id in sorted({r.game_id for r in mine})
                      for note in notes.get(game_id, [])],
        })
    return {"player_id": player.id, "name": player.name, "event_id": event.id,
            "event_name": event.name, "team_id": player.team_id, "rounds": rows,
            "profile": _profile_path(event, player),
            "upcoming": _upcoming(event, player, names, seated={r["round"] for r in rows}),
            "total": total if preset.standings != "league" else None}


def _profile_path(event: Event, player: Player) -> str | None:
    """The player's profile in the event's club (/c/<slug>/people/<id>), when it is public."""
    if event.club_id is None or player.person_id is None:
        return None
    club, person = db.session.get(Club, event.club_id), db.session.get(Person, player.person_id)
    if club is None or not club.slug or person is None or person.private:
        return None
    return f"/c/{club.slug}/people/{person.id}"


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
            partner = seats[rseats.partner_of(seat) - 1]
            opponents = [seats[n - 1] for n in rseats.opponents_of(seat)]
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
    notes = event_game_notes(event.id)
    return [_sheet(event, preset, p, names, notes) for p in event.players]
