"""A club's registry of people: one record a person across all the club's events.

A player registered in a club's event is linked to the club's person of exactly that name
(letter case and spacing aside). A near or ambiguous name ("Ann B." when the club has "Ann
Baker" and "Ann Brown") is never linked on a guess: the organizer decides, per name, "link to
person N" or "new", and until then the registration is refused with the candidates. Renames,
merges and splits are in the club's audit log; none of them changes any event's results, only
whose they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm.attributes import set_committed_value

from ..auth import Principal
from ..db import db, reading_only
from ..models import Club, ClubAudit, Event, Person, Player, Series
from ..text import clean_name
from .common import jsonable
from .errors import Conflict, Invalid, not_found
from .name_match import NameIndex, name_key

NEW = "new"


def read_index(club_id: int) -> NameIndex:
    """The club's people by folded name, read in one statement (ids, names, keys only)."""
    rows = db.session.execute(select(Person.id, Person.name, Person.name_key)
                              .where(Person.club_id == club_id))
    return NameIndex(rows)


@dataclass
class Prepared:
    """A club's index and the matches of a registration's names (by folded name), made
    before its write began."""

    index: NameIndex
    found: dict[str, tuple[int | None, tuple[int, ...]]]


def read_index_before_write(event_id: int, names: Iterable[str] = ()) -> Prepared | None:
    """The index of the club an event belongs to, and the matches of `names`, made before a
    long write begins (a big import): on SQLite the read takes no write lock, so nobody's
    hands wait while thousands of people are read and compared. `link_players` checks it
    inside the write."""
    with reading_only():
        try:
            club_id = db.session.scalar(select(Event.club_id).where(Event.id == event_id))
            if club_id is None:
                return None
            index = read_index(club_id)
        finally:
            db.session.rollback()  # end the read, so the write begins afresh
    return Prepared(index, {key: index.find(key) for key in {name_key(n) for n in names}})


def _up_to_date(index: NameIndex, club_id: int, keys: set[str]) -> tuple[NameIndex, bool]:
    """The index read before the write, checked inside it, and whether it changed: people
    added since are added; if a person it would link to was renamed or merged away
    meanwhile, it is read again."""
    linked = {index.exact[k] for k in keys if k in index.exact}
    if linked:
        now = dict(db.session.execute(select(Person.id, Person.name_key)
                                      .where(Person.id.in_(linked))).all())
        if any(now.get(i) != index.names[i][1] for i in linked):
            return read_index(club_id), True
    added = db.session.execute(
        select(Person.id, Person.name, Person.name_key)
        .where(Person.club_id == club_id, Person.id > index.largest_id)
        .order_by(Person.id)).all()
    index.add_all(added)
    return index, bool(added)


@dataclass(frozen=True)
class Match:
    name: str
    person_id: int | None  # the exact match, if any
    candidates: tuple[tuple[int, str], ...]  # near matches to decide about: (id, name)


def match_names(index: NameIndex, names: Iterable[str],
                found: dict | None = None) -> dict[str, Match]:
    """For each name: the club's person of exactly that name, or the near ones (`found`:
    matches already made, by folded name)."""
    matches = {}
    for name in names:
        key = name_key(name)
        exact, near = (found or {}).get(key) or index.find(key)
        matches[name] = Match(name, exact, tuple((i, index.names[i][0]) for i in near))
    return matches


def _private_by_default(club_id: int) -> bool:
    """Whether the club makes new people private (its setting; RULES.md section 9)."""
    return bool(db.session.scalar(select(Club.people_private_by_default)
                                  .where(Club.id == club_id)))


def _new_person(club_id: int, name: str) -> Person:
    person = Person(club_id=club_id, name=name, name_key=name_key(name),
                    private=_private_by_default(club_id))
    db.session.add(person)
    db.session.flush()
    return person


def _folded(decisions: Mapping[str, object] | None) -> dict[str, object]:
    """The organizer's decisions by folded name: a person id, or NEW."""
    return {name_key(str(given)): value for given, value in (decisions or {}).items()}


def link_players(event: Event, players: list[Player],
                 decisions: Mapping[str, object] | None = None,
                 prepared: Prepared | None = None) -> None:
    """Link newly registered players of a club's event to the club's people: an exact name
    links, a decision links or makes a new person, a new name makes a new person; a near
    name without a decision refuses the whole registration (Conflict with `decisions`: each
    name and its candidates), so nothing is stored on a guess."""
    if event.club_id is None or not players:
        return
    keys = {name_key(p.name) for p in players}
    if prepared is None:
        index, found = read_index(event.club_id), {}
    else:
        index, changed = _up_to_date(prepared.index, event.club_id, keys)
        found = {} if changed else prepared.found
    matches = match_names(index, [p.name for p in players], found)
    folded = _folded(decisions)
    undecided = []
    chosen: dict[int, int | None] = {}  # player -> person id (None: a new person)
    for player in players:
        found = matches[player.name]
        decision = folded.get(name_key(player.name))
        if decision is not None and decision != NEW:
            person = db.session.get(Person, decision) if isinstance(decision, int) and \
                not isinstance(decision, bool) else None
            if person is None or person.club_id != event.club_id:
                raise Invalid(f"{player.name}: person {decision!r} is not in this club's "
                              "registry. Give one of the candidates' ids, or \"new\".",
                              code="unknown-person")
            chosen[player.id] = person.id
        elif decision == NEW:
            if found.person_id is not None:
                raise Conflict(f"{player.name}: the club already has a person of exactly "
                               f"this name (#{found.person_id}); they are linked to it, not "
                               "made again. Give the player another name (an initial) if "
                               "this is someone else.", code="person-exists")
            chosen[player.id] = None
        elif found.person_id is not None:
            chosen[player.id] = found.person_id
        elif found.candidates:
            undecided.append({"name": player.name, "candidates": [
                {"id": i, "name": name} for i, name in found.candidates]})
        else:
            chosen[player.id] = None
    if undecided:
        names = ", ".join(f"'{u['name']}' (" + " or ".join(c["name"] for c in u["candidates"])
                          + "?)" for u in undecided[:5])
        more = f" and {len(undecided) - 5} more" if len(undecided) > 5 else ""
        raise Conflict(f"Decide who these are before they are registered: {names}{more}. "
                       "For each, link to one of the club's people or make a new person. "
                       "Nothing was stored.", code="people-to-decide", decisions=undecided)
    # New people, then every player's link, one statement each.
    new = {}
    for player in players:
        if chosen[player.id] is None:
            new.setdefault(name_key(player.name), player.name)
    made: dict[str, int] = {}
    if new:
        private = _private_by_default(event.club_id)
        made = dict(db.session.execute(
            insert(Person).returning(Person.name_key, Person.id, sort_by_parameter_order=True),
            [{"club_id": event.club_id, "name": name, "name_key": key, "private": private}
             for key, name in new.items()]).all())
    links = {player.id: chosen[player.id] or made[name_key(player.name)] for player in players}
    db.session.flush()  # players made as objects (teams, substitutes) are stored first
    db.session.execute(update(Player), [{"id": i, "person_id": p} for i, p in links.items()])
    for player in players:
        set_committed_value(player, "person_id", links[player.id])


# --- the organizer's changes to the registry ----------------------------------------------

def club_audit(club_id: int, principal: Principal | None, action: str, entity: str,
               entity_id, *, before: dict | None = None, after: dict | None = None) -> None:
    db.session.add(ClubAudit(club_id=club_id, key_id=principal.key_id if principal else None,
                             action=action, entity=entity, entity_id=str(entity_id),
                             before=jsonable(before), after=jsonable(after)))


def get_person(club_id: int, person_id: int) -> Person:
    person = db.session.get(Person, person_id)
    if person is None or person.club_id != club_id:
        raise not_found(f"Person {person_id}")
    return person


def _free_name(club_id: int, name: str, but: int | None = None) -> None:
    taken = db.session.execute(select(Person).where(
        Person.club_id == club_id, Person.name_key == name_key(name))).scalar_one_or_none()
    if taken is not None and taken.id != but:
        raise Conflict(f"The club already has '{taken.name}' (#{taken.id}). Two people of one "
                       "name cannot be told apart: merge them if they are one person, or add "
                       "an initial.", code="duplicate-name")


def lock_club_people(club_id: int) -> None:
    """Serialize registry changes of one club (a merge and a rename racing would otherwise
    both pass the name check), and mark its series changed: their tables show the people."""
    db.session.execute(update(Club).where(Club.id == club_id)
                       .values(revision=Club.revision + 1))
    db.session.execute(update(Series).where(Series.club_id == club_id)
                       .values(revision=Series.revision + 1))


def _boards_of(person_ids) -> None:
    """The leaderboards link a public person's name to their profile: a change of privacy or
    of who an entry belongs to marks the person's events changed, so no board built before it
    is served after it."""
    db.session.execute(update(Event).where(Event.id.in_(
        select(Player.event_id).where(Player.person_id.in_(person_ids))))
        .values(revision=Event.revision + 1))


def change_person(club_id: int, principal: Principal, person_id: int, changes: dict) -> Person:
    """Rename a person or mark them private (or public again)."""
    lock_club_people(club_id)
    person = get_person(club_id, person_id)
    before = {"name": person.name, "private": person.private}
    if "name" in changes:
        try:
            name = clean_name(changes["name"], "The name")
        except ValueError as exc:
            raise Invalid(str(exc), code="bad-name") from None
        _free_name(club_id, name, but=person.id)
        person.name, person.name_key = name, name_key(name)
    if "private" in changes and person.private != bool(changes["private"]):
        person.private = bool(changes["private"])
        _boards_of([person.id])
    club_audit(club_id, principal, "update-person", "person", person.id, before=before,
               after={"name": person.name, "private": person.private})
    db.session.commit()
    return person


def merge_people(club_id: int, principal: Principal, keep_id: int, gone_id: int) -> Person:
    """One person recorded twice: every entry of `gone` becomes `keep`'s, and `gone` is
    removed. Results stay exactly as they were; only whose they are changes. Refused when both
    records played in one event (one person cannot have sat twice)."""
    if keep_id == gone_id:
        raise Invalid("Choose two different people to merge.", code="same-person")
    lock_club_people(club_id)
    keep, gone = get_person(club_id, keep_id), get_person(club_id, gone_id)
    both = db.session.execute(
        select(Player.event_id).where(Player.person_id == keep.id)
        .intersect(select(Player.event_id).where(Player.person_id == gone.id))).first()
    if both is not None:
        event = db.session.get(Event, both[0])
        raise Conflict(f"'{keep.name}' and '{gone.name}' both played in {event.name}: they are "
                       "two people. Nothing was merged.", code="both-played")
    _boards_of([gone.id])
    moved = db.session.execute(update(Player).where(Player.person_id == gone.id)
                               .values(person_id=keep.id)).rowcount
    club_audit(club_id, principal, "merge-people", "person", keep.id,
               before={"kept": {"id": keep.id, "name": keep.name},
                       "merged": {"id": gone.id, "name": gone.name}},
               after={"id": keep.id, "name": keep.name, "entries_moved": moved})
    db.session.delete(gone)
    db.session.commit()
    return keep


def split_entry(club_id: int, principal: Principal, person_id: int, player_id: int,
                to: object = NEW) -> Person:
    """An entry linked to the wrong person: move it to another person of the club, or (NEW)
    to a new person of the entry's name (an initial added when the name is taken, as the
    organizer would). Returns the person it now belongs to."""
    lock_club_people(club_id)
    person = get_person(club_id, person_id)
    player = db.session.get(Player, player_id)
    if player is None or player.person_id != person.id:
        raise not_found(f"Entry {player_id} of {person.name}")
    if to == NEW:
        name = player.name
        if name_key(name) == person.name_key:
            raise Conflict(f"This entry's name is '{name}', the person's own: a new person "
                           "needs another name. Rename the entry's person first, or move it "
                           "to another person.", code="duplicate-name")
        _free_name(club_id, name)
        target = _new_person(club_id, name)
    else:
        if not isinstance(to, int) or isinstance(to, bool):
            raise Invalid("Say where the entry goes: a person's id, or \"new\".",
                          code="bad-target")
        target = get_person(club_id, to)
        clash = db.session.execute(select(Player.id).where(
            Player.person_id == target.id, Player.event_id == player.event_id)).first()
        if clash is not None:
            raise Conflict(f"'{target.name}' already played in that event.", code="both-played")
    player.person_id = target.id
    _boards_of([target.id])
    club_audit(club_id, principal, "split-entry", "player", player.id,
               before={"person": {"id": person.id, "name": person.name}},
               after={"person": {"id": target.id, "name": target.name}})
    db.session.commit()
    return target


def people_of(club_id: int) -> list[dict]:
    """The registry, A to Z, with how many of the club's events each played."""
    events = (select(Player.person_id, func.count(func.distinct(Player.event_id)).label("n"))
              .join(Event, Event.id == Player.event_id)
              .where(Event.club_id == club_id, Player.person_id.is_not(None),
                     Event.archived_at.is_(None))  # not the nights set aside
              .group_by(Player.person_id).subquery())
    rows = db.session.execute(
        select(Person, func.coalesce(events.c.n, 0))
        .outerjoin(events, events.c.person_id == Person.id)
        .where(Person.club_id == club_id)).all()
    return sorted(({"id": p.id, "name": p.name, "private": p.private, "events": n,
                    "erased": p.erased_at is not None}
                   for p, n in rows), key=lambda r: name_key(r["name"]))
