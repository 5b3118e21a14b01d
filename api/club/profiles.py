"""A person's profile in a club: the events they played (place, total) and the statistics
only a hand-by-hand record can give (api/rules/stats.py), read by indexed queries when asked
rather than kept on the hand path, so recording a hand costs nothing more."""

from __future__ import annotations

import hashlib
from datetime import date

from sqlalchemy import and_, select, update
from sqlalchemy.orm import aliased, load_only

from ..core.caching import Kept
from ..core.common import keep_quietly, preset_of
from ..core.db import db
from ..core.errors import Forbidden
from ..core.models import Club, Event, Game, Hand, Person, Player, Seat
from ..people.people import get_person
from ..rules import stats as rstats
from ..rules.hands import PLAY
from .finishes import entry_finish


def _played_hands(person_id: int) -> list[rstats.PlayedHand]:
    """Every hand the person played, entered hand by hand (no sheets, forfeits), with their
    seat and side, and their partner's person."""
    me = aliased(Player)
    partner_seat, partner = aliased(Seat), aliased(Player)
    partner_no = (Seat.seat + 1) % 4 + 1  # 1<->3, 2<->4
    # On the session's connection, past the ORM's row processing: a regular's year is 16,000
    # hands, and the ORM's rows cost more than the query.
    rows = db.session.connection().execute(
        select(Seat.seat, Hand.maker, Hand.alone, Hand.loner_seat, Hand.tricks, Hand.renege_by,
               Hand.renege_upheld, Hand.points_a, Hand.points_b, Game.event_id,
               partner.person_id)
        .select_from(me)
        .join(Seat, Seat.player_id == me.id)
        .join(Game, and_(Game.match_id == Seat.match_id, Game.from_sheet.is_(False),
                         Game.forfeited_by.is_(None)))
        # Not the nights the club set aside (archived).
        .join(Event, and_(Event.id == Game.event_id, Event.archived_at.is_(None)))
        .join(Hand, and_(Hand.game_id == Game.id, Hand.kind == PLAY))
        .outerjoin(partner_seat, and_(partner_seat.match_id == Seat.match_id,
                                      partner_seat.seat == partner_no))
        .outerjoin(partner, partner.id == partner_seat.player_id)
        .where(me.person_id == person_id)).all()
    return [rstats.PlayedHand(
        side=rstats.SIDE_OF_SEAT[seat], seat=seat, maker=maker, alone=bool(alone),
        loner_seat=loner_seat, tricks=tricks, renege_by=renege_by, renege_upheld=upheld,
        side_points=pa if rstats.SIDE_OF_SEAT[seat] == "A" else pb, partner=partner_person,
        event=event_id)
        for seat, maker, alone, loner_seat, tricks, renege_by, upheld, pa, pb, event_id,
        partner_person in rows]


KEPT = 256
# (club, person) -> the profile, stamped with the club's revision and the person's nights'.
_KEPT = Kept(KEPT)


def forget() -> None:
    _KEPT.clear()


def profile(club_id: int, person_id: int, viewer_is_club: bool) -> dict:
    """The profile, kept per process while the club's registry and the person's nights are
    unchanged (a regular of two hundred nights has sixteen thousand hands to read), and in
    the person's row once all those nights are finished (a fresh worker reads that)."""
    person = get_person(club_id, person_id)
    if person.private and not viewer_is_club:
        raise Forbidden(f"{person.name}'s profile is private: only the club sees it.",
                        code="private-person")
    nights = db.session.execute(
        select(Event.id, Event.code, Event.revision, Event.status)
        .where(Event.id.in_(select(Player.event_id).where(Player.person_id == person.id)),
               Event.archived_at.is_(None))
        .order_by(Event.id)).all()
    revision = db.session.execute(select(Club.revision).where(Club.id == club_id)).scalar()
    key, stamp = (club_id, person.id), (revision, tuple(tuple(n) for n in nights))
    found = _KEPT.get(key, stamp)
    if found is None:
        found = _kept_or_computed(club_id, person, repr((*key, *stamp)),
                                  all(n.status == "finished" for n in nights))
        _KEPT.put(key, found, stamp)
    return _for_viewer(found, viewer_is_club)


def _for_viewer(found: dict, viewer_is_club: bool) -> dict:
    """The public does not see a private best partner."""
    partner = found["best_partner"]
    if partner is not None:
        partner = None if partner["private"] and not viewer_is_club else {
            k: v for k, v in partner.items() if k != "private"}
    return {**found, "best_partner": partner}


def _kept_or_computed(club_id: int, person: Person, stamp: str, all_finished: bool) -> dict:
    digest = hashlib.sha256(stamp.encode()).hexdigest()
    if person.profile_stamp == digest and person.profile_kept is not None:
        kept = person.profile_kept
        return {**kept, "events": [{**e, "date": date.fromisoformat(e["date"])}
                                   for e in kept["events"]]}
    found = _profile(club_id, person)
    if all_finished:
        keep_quietly(update(Person).where(Person.id == person.id).values(
            profile_stamp=digest, profile_kept={**found, "events": [
                {**e, "date": e["date"].isoformat()} for e in found["events"]]}))
    return found


def _profile(club_id: int, person: Person) -> dict:
    played_in = select(Player.event_id).where(Player.person_id == person.id)
    entries = {event_id: (player_id, team_id) for event_id, player_id, team_id in
               db.session.execute(select(Player.event_id, Player.id, Player.team_id)
                                  .where(Player.person_id == person.id)).all()}
    # Only the columns a profile reads (a night in play loads the rest to build its board):
    # a regular's two hundred nights' formats and schedules are not needed.
    events = list(db.session.execute(
        select(Event).options(load_only(Event.id, Event.name, Event.code, Event.created_at,
                                        Event.night_date, Event.preset_key, Event.parameters,
                                        Event.status, Event.revision, Event.finishes))
        .where(Event.id.in_(played_in), Event.club_id == club_id, Event.archived_at.is_(None))
        .order_by(Event.night_date, Event.created_at, Event.id)).scalars())
    figures = rstats.player_stats(_played_hands(person.id))
    partner = figures["best_partner"]
    if partner is not None:
        mate = db.session.get(Person, partner["partner"])
        partner = None if mate is None else {
            "person_id": mate.id, "name": mate.name, "hands": partner["hands"],
            "points_per_hand": partner["points_per_hand"], "private": mate.private}
    played = []
    for event in events:
        player_id, team_id = entries[event.id]
        place, total, field_size = entry_finish(event, player_id, team_id)
        played.append({
            "event_id": event.id, "player_id": player_id, "name": event.name,
            "code": event.code,
            "date": event.night_date, "preset": event.preset_key, "status": event.status,
            "place": place, "total": total, "field": field_size,
            "prize": place is not None and place <= preset_of(event).prize_places_for(field_size),
            "stats": figures["events"].get(event.id)})
    return {"person_id": person.id, "club_id": club_id, "name": person.name,
            "private": person.private, "events": played, "stats": figures["overall"],
            "hands_counted": figures["overall"]["hands"], "best_partner": partner,
            "best_partner_min_hands": rstats.BEST_PARTNER_HANDS}
