"""A finished night's recap, read from the database and told by rules/recap.py: its games and
hands, its standings and prize money, the club's earlier nights (for a record) and the rating
changes the night made (for a rating jump). Public like the leaderboard."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select

from ..core.caching import Kept
from ..core.common import get_event, preset_of
from ..core.db import db
from ..core.models import Event, Game, Hand, Match, Person, Player, Result, Round, Seat
from ..rules import recap as rrecap
from ..rules.recap_words import sentences
from ..standings.event_day import payouts_for
from ..standings.standings import compute_standings, entrants
from . import ratings_link

# Recaps built, by event, stamped with the revisions they were told from.
_RECAPS = Kept(128)


def recap(event_id: int) -> dict:
    """The recap of a finished night: its sentences, each with the index of the fact it was
    rendered from, and the facts with the games and hands they were found in. A night not
    finished yet has no story: `finished` is false and both lists are empty."""
    event = get_event(event_id)
    view = {"event_id": event.id, "name": event.name, "night_date": event.night_date,
            "finished": event.status == "finished", "sentences": [], "facts": []}
    if not view["finished"]:
        return view
    # First, as bringing the ratings up to date ends the transaction (ratings_link.py).
    changes = ratings_link.rating_changes(event.id) if event.club_id is not None else {}
    stamp = (event.revision, _club_stamp(event), tuple(sorted(changes.items())))
    kept = _RECAPS.get((event.id, event.code), stamp)
    if kept is None:
        night = read_night(event, changes)
        found = rrecap.facts(night)
        kept = {"sentences": sentences(night, found), "facts": found}
        _RECAPS.put((event.id, event.code), kept, stamp)
    return {**view, **kept}


def _club_stamp(event: Event) -> tuple:
    """What else a recap reads: the club's other nights (a record)."""
    if event.club_id is None:
        return ()
    return tuple(sorted(tuple(row) for row in db.session.execute(
        select(Event.id, Event.revision).where(Event.club_id == event.club_id))))


def read_night(event: Event, changes: dict) -> rrecap.Night:
    preset = preset_of(event)
    people = entrants(event, preset)
    standings = compute_standings(event, preset, people=people)
    names = {p.id: p.name for p in people}
    player_names = {p.id: p.name for p in event.players}
    games_of = defaultdict(set)
    for entrant, game in db.session.execute(
            select(Result.entrant_id, Result.game_id).where(Result.event_id == event.id)):
        games_of[entrant].add(game)
    placings = [rrecap.Placing(s.entrant, s.place, s.total, tuple(sorted(games_of[s.entrant])))
                for s in standings]
    night = rrecap.Night(games=read_games(event), placings=placings, names=names,
                         player_names=player_names,
                         format_name=f"for a {preset.name.lower()}")
    payouts = payouts_for(event, standings)
    if payouts is not None:
        places = {s.entrant: s.place for s in standings}
        night.payouts = [(e, places[e], amount) for e, amount in payouts.by_entrant.items()]
        night.pool = payouts.pool.pool
        night.currency = (event.money or {}).get("currency", "$")
    night.earlier_best = earlier_best(event)
    night.rating_changes, night.private = player_rating_changes(event, changes)
    return night


def read_games(event: Event) -> list[rrecap.GameRow]:
    """The night's finished games in play order, each with its seats and its hands."""
    rows = db.session.execute(
        select(Game, Match.table, Match.team_a_id, Match.team_b_id, Match.games_planned,
               Round.number, Round.label)
        .join(Match, Game.match_id == Match.id).join(Round, Match.round_id == Round.id)
        .where(Game.event_id == event.id, Game.end.is_not(None))
        .order_by(Round.number, Match.table, Game.number)).all()
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    for match_id, seat, player in db.session.execute(
            select(Seat.match_id, Seat.seat, Seat.player_id)
            .join(Match, Seat.match_id == Match.id).where(Match.event_id == event.id)):
        seats[match_id][seat] = player
    hands: dict[int, list[rrecap.HandRow]] = defaultdict(list)
    for hand in db.session.execute(
            select(Hand).where(Hand.event_id == event.id).order_by(Hand.game_id, Hand.number)
    ).scalars():
        hands[hand.game_id].append(rrecap.HandRow(
            hand.id, hand.number, hand.points_a, hand.points_b, hand.maker, bool(hand.alone),
            hand.loner_seat, hand.tricks, hand.renege_by, hand.renege_upheld))
    games = []
    for game, table, team_a, team_b, planned, number, label in rows:
        played = [] if game.from_sheet or game.forfeited_by else hands.get(game.id, [])
        games.append(rrecap.GameRow(
            game.id, number, table, tuple(seats[game.match_id].get(n) for n in (1, 2, 3, 4)),
            game.points_a, game.points_b, game.winner, tuple(played),
            from_sheet=bool(game.from_sheet), team_a=team_a, team_b=team_b,
            settled_by=game.tie_method,
            where=f"{label}, table {table}" + (f", game {game.number}" if planned > 1 else "")))
    return games


def earlier_best(event: Event) -> tuple[int, str] | None:
    """The best night total of the club's earlier finished nights in the same format, and
    the date of the night it was set (None: no earlier night to beat)."""
    if event.club_id is None:
        return None
    earlier = db.session.execute(
        select(Event.finishes, Event.night_date, Event.id)
        .where(Event.club_id == event.club_id, Event.preset_key == event.preset_key,
               Event.status == "finished", Event.archived_at.is_(None), Event.id != event.id)).all()
    best = None
    for finishes, night_date, other in earlier:
        if (night_date, other) >= (event.night_date, event.id):
            continue
        for _entrant, _place, total in (finishes or {}).get("rows", []):
            if total is not None and (best is None or total > best[0]):
                best = (total, f"{night_date.day} {night_date:%B %Y}")
    return best


def player_rating_changes(event: Event, changes: dict) -> tuple[dict, frozenset]:
    """The night's rating changes (by person) by player, and the players who are private
    people (their rise is not told, and nobody else is said to have risen the most when
    they rose more)."""
    if not changes:
        return {}, frozenset()
    rows = db.session.execute(
        select(Player.id, Player.person_id, Person.private)
        .join(Person, Person.id == Player.person_id).where(Player.event_id == event.id)).all()
    return ({player: changes[person] for player, person, _ in rows if person in changes},
            frozenset(player for player, _, private in rows if private))
