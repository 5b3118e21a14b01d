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

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.orm.attributes import set_committed_value

from ..core.common import jsonable
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Club, ClubAudit, Event, Person, Player, Series
from .name_match import NameIndex, name_key

NEW = "new"


def read_index(club_id: int) -> NameIndex:
    """The club's people by folded name, read in one statement (ids, names, keys only)."""
    rows = db.session.execute(select(Person.id, Person.name, Person.name_key)
                              .where(Person.club_id == club_id))
    return NameIndex(rows)


@dataclass
class Prepared:
    """A club's index, its registry's revision, and the matches of a registration's names
    (by folded name), made before the registration's write began."""

    club_id: int
    revision: int
    index: NameIndex
    found: dict[str, tuple[int | None, tuple[int, ...]]]


def read_people(club_id: int, names: Iterable[str] = ()) -> Prepared:
    """The club's index and the matches of `names`, read in whatever transaction is open:
    before a big import's write (a read that takes no write lock, so nobody's hands wait
    while thousands of people are read and compared), or inside a small one."""
    revision = db.session.scalar(select(Club.revision).where(Club.id == club_id)) or 0
    index = read_index(club_id)
    return Prepared(club_id, revision, index,
                    {key: index.find(key) for key in {name_key(n) for n in names}})


# Up to this many names, a registration reads only their candidates (`read_candidates`).
FEW_NAMES = 20


def read_candidates(club_id: int, names: Iterable[str], ids: Iterable[int] = ()) -> Prepared:
    """`read_people` for a few names (one player at the door, a team) inside their write: only
    the people they could match are read, and the people `ids` (the organizer's decisions).
    Every person a name is near shares its first word's first letter, or one of its later
    words whole (name_match's keys: its initials, one word whole, its first word), so a
    club of 20,000 people gives a few hundred rows, not all of them, and the same matches."""
    revision = db.session.scalar(select(Club.revision).where(Club.id == club_id)) or 0
    keys = {name_key(n) for n in names}
    could = [Person.id.in_(list(ids))]
    for key in keys:
        words = key.split()
        if words:
            could.append(Person.name_key.startswith(words[0][0], autoescape=True))
            could.extend(Person.name_key.contains(f" {w}", autoescape=True)
                         for w in words[1:])
    index = NameIndex(db.session.execute(select(Person.id, Person.name, Person.name_key)
                                         .where(Person.club_id == club_id, or_(*could))))
    return Prepared(club_id, revision, index, {key: index.find(key) for key in keys})


def brought_up_to_date(prepared: Prepared) -> bool:
    """Inside the write: the people read before it made as they are now, and whether they
    changed. A change to the registry (a rename, merge, split or erasure moves the club's
    revision) reads it again; people added since (another event's registrations) are
    added, and only the names they could match are looked at again."""
    club_id = prepared.club_id
    revision = db.session.scalar(select(Club.revision).where(Club.id == club_id)) or 0
    if revision != prepared.revision:
        again = read_people(club_id, prepared.found)
        prepared.revision, prepared.index, prepared.found = again.revision, again.index, \
            again.found
        return True
    added = db.session.execute(
        select(Person.id, Person.name, Person.name_key)
        .where(Person.club_id == club_id, Person.id > prepared.index.largest_id)
        .order_by(Person.id)).all()
    if not added:
        return False
    extra = NameIndex(added)
    for key, (exact, near) in prepared.found.items():
        if exact is None:
            now_exact, now_near = extra.find(key)
            prepared.found[key] = (now_exact, ()) if now_exact is not None else \
                (None, tuple(sorted({*near, *now_near})))
    prepared.index.add_all(added)
    return True


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


def choose_people(prepared: Prepared, names: Iterable[str],
                  decisions: Mapping[str, object] | None = None) -> dict[str, int | None]:
    """Who each name is: the club's person's id, or None for a new person. An exact name
    links, a decision links or makes a new person, a new name makes a new person; a near
    name without a decision refuses the whole registration (Conflict with `decisions`: each
    name and its candidates), so nothing is stored on a guess. Reads nothing: a decision's
    person is looked up in the index."""
    matches = match_names(prepared.index, names, prepared.found)
    folded = _folded(decisions)
    undecided = []
    chosen: dict[str, int | None] = {}
    for name, found in matches.items():
        decision = folded.get(name_key(name))
        if decision is not None and decision != NEW:
            known = isinstance(decision, int) and not isinstance(decision, bool) and \
                decision in prepared.index.names
            if not known:
                raise Invalid(f"{name}: person {decision!r} is not in this club's "
                              "registry. Give one of the candidates' ids, or \"new\".",
                              code="unknown-person")
            chosen[name] = decision
        elif decision == NEW:
            if found.person_id is not None:
                raise Conflict(f"{name}: the club already has a person of exactly "
                               f"this name (#{found.person_id}); they are linked to it, not "
                               "made again. Give the player another name (an initial) if "
                               "this is someone else.", code="person-exists")
            chosen[name] = None
        elif found.person_id is not None:
            chosen[name] = found.person_id
        elif found.candidates:
            undecided.append({"name": name, "candidates": [
                {"id": i, "name": n} for i, n in found.candidates]})
        else:
            chosen[name] = None
    if undecided:
        listed = ", ".join(f"'{u['name']}' (" + " or ".join(c["name"] for c in u["candidates"])
                           + "?)" for u in undecided[:5])
        more = f" and {len(undecided) - 5} more" if len(undecided) > 5 else ""
        raise Conflict(f"Decide who these are before they are registered: {listed}{more}. "
                       "For each, link to one of the club's people or make a new person. "
                       "Nothing was stored.", code="people-to-decide", decisions=undecided)
    return chosen


def store_people(club_id: int, chosen: Mapping[str, int | None]) -> dict[str, int]:
    """Each name's person id, the new people made first (one statement)."""
    new = {}
    for name, person_id in chosen.items():
        if person_id is None:
            new.setdefault(name_key(name), name)
    made: dict[str, int] = {}
    if new:
        # Inserted in one statement (the table's, without the ORM's bookkeeping a row), then
        # their ids read back by name in one more: on SQLite an INSERT ... RETURNING in
        # parameter order runs one statement a row.
        private = _private_by_default(club_id)
        db.session.execute(insert(Person.__table__), [
            {"club_id": club_id, "name": name, "name_key": key, "private": private}
            for key, name in new.items()])
        made = dict(db.session.execute(select(Person.name_key, Person.id).where(
            Person.club_id == club_id, Person.name_key.in_(list(new)))).all())
    return {name: person_id or made[name_key(name)] for name, person_id in chosen.items()}


def link_players(event: Event, players: list[Player],
                 decisions: Mapping[str, object] | None = None,
                 prepared: Prepared | None = None) -> None:
    """Link newly registered players of a club's event to the club's people (who each is:
    `choose_people`). `prepared`: the people read before the write, brought up to date."""
    if event.club_id is None or not players:
        return
    names = [p.name for p in players]
    if prepared is None and len(names) <= FEW_NAMES:
        decided = [v for v in (decisions or {}).values()
                   if isinstance(v, int) and not isinstance(v, bool)]
        prepared = read_candidates(event.club_id, names, decided)
    elif prepared is None:
        prepared = read_people(event.club_id, names)
    else:
        brought_up_to_date(prepared)
    ids = store_people(event.club_id, choose_people(prepared, names, decisions))
    db.session.flush()  # players made as objects (teams, substitutes) are stored first
    db.session.execute(update(Player), [{"id": p.id, "person_id": ids[p.name]}
                                        for p in players])
    for player in players:
        set_committed_value(player, "person_id", ids[player.name])


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
        name = changes["name"]  # cleaned by the route's schema (NameField)
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
    else:  # a person's id: the route's schema (PersonChoice) takes nothing else
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
