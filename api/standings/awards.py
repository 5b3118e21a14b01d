"""The awards the results give: Low Score, High Game, the bump cup, and the awards from the
hands the organizer chose (most loners made, most marches, best make %)."""

from __future__ import annotations

from sqlalchemy import and_, select

from ..core.common import preset_of
from ..core.db import db
from ..core.models import Event, Game, Hand, Match, Round, Seat
from ..rules import standings as rstandings
from ..rules import stats as rstats
from ..rules.hands import PLAY
from .event_day import named_awards
from .standings import compute_standings, entrants, rules_results


def bump_records(event: Event) -> list[rstandings.Bump]:
    rows = db.session.execute(
        select(Game.bumps, Match.id, Match.table, Round.number)
        .join(Match, Game.match_id == Match.id).join(Round, Match.round_id == Round.id)
        .where(Game.event_id == event.id)).all()
    seats = {}
    for seat in db.session.execute(
            select(Seat).join(Match).where(Match.event_id == event.id)).scalars():
        seats[(seat.match_id, seat.seat)] = seat.player_id
    records = []
    for bumps, match_id, table, number in rows:
        for seat, dollars in (bumps or {}).items():
            player = seats.get((match_id, int(seat)))
            if player is not None and dollars:
                records.append(rstandings.Bump(player, number, table, dollars))
    return records


def bump_cup_total(event: Event) -> int:
    """The dollars the bump cup collected in the event."""
    return sum(b.dollars for b in bump_records(event))


def player_tallies(event: Event) -> dict[int, dict]:
    """Each player's figures from the event's hands entered hand by hand."""
    rows = db.session.execute(
        select(Seat.player_id, Seat.seat, Hand.maker, Hand.alone, Hand.loner_seat, Hand.tricks,
               Hand.renege_by, Hand.renege_upheld, Hand.points_a, Hand.points_b)
        .join(Game, and_(Game.match_id == Seat.match_id, Game.from_sheet.is_(False),
                         Game.forfeited_by.is_(None)))
        .join(Hand, and_(Hand.game_id == Game.id, Hand.kind == PLAY))
        .where(Game.event_id == event.id, Seat.player_id.is_not(None))).all()
    hands: dict[int, list[rstats.PlayedHand]] = {}
    for player, seat, maker, alone, loner_seat, tricks, by, upheld, pa, pb in rows:
        side = rstats.SIDE_OF_SEAT[seat]
        hands.setdefault(player, []).append(rstats.PlayedHand(
            side=side, seat=seat, maker=maker, alone=bool(alone), loner_seat=loner_seat,
            tricks=tricks, renege_by=by, renege_upheld=upheld,
            side_points=pa if side == "A" else pb))
    return {player: rstats.player_stats(played)["overall"] for player, played in hands.items()}


def hand_awards(event: Event, names: dict[int, str]) -> list[dict]:
    chosen = event.hand_awards or []
    if not chosen:
        return []
    tallies = player_tallies(event)
    awards = []
    for award in chosen:
        value, winners = rstats.hand_award(award, tallies)
        awards.append({
            "award": award, "label": rstats.HAND_AWARDS[award], "value": value,
            "minimum_calls": rstats.MIN_CALLS_FOR_MAKE_PCT if award == "best-make-pct" else None,
            "players": [{"id": p, "name": names.get(p)} for p in winners]})
    return awards


def event_awards(event: Event) -> dict:
    """Low Score, High Game and the bump cup (per player, per table, in all)."""
    preset = preset_of(event)
    people = entrants(event, preset)
    names = {p.id: p.name for p in people}
    player_names = {p.id: p.name for p in event.players}
    results = rules_results(event.id)
    standings = compute_standings(event, preset, people=people, results=results)
    found = rstandings.awards(standings, results)
    cup = rstandings.bump_cup(bump_records(event))
    return {
        "low_score": {"total": found.low_total,
                      "entrants": [{"id": e, "name": names.get(e)} for e in found.low_score],
                      # Before the first game is over, everyone is level on nothing.
                      "earned": any(r.won is not None for r in results)},
        "high_game": {"points": found.high_game_points,
                      "games": [{"id": e, "name": names.get(e), "round": r}
                                for e, r in found.high_game]},
        "bump_cup": {
            "total": cup.total,
            "players": sorted(({"id": p, "name": player_names.get(p), "dollars": d}
                               for p, d in cup.by_player.items()),
                              key=lambda row: (-row["dollars"], row["name"] or "")),
            "tables": [{"round": r, "table": t, "dollars": d}
                       for (r, t), d in sorted(cup.by_table.items())],
        },
        "hands": hand_awards(event, player_names),
        "named": named_awards(event),
    }
