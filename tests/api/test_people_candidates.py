"""A registration of a few names in a club's event reads only the people those names could
match (people/people.read_candidates), not the whole registry: the same person and the same
near names as reading everyone, on both databases."""

from __future__ import annotations

import random
import uuid

from sqlalchemy import insert

from api.core.db import db
from api.core.models import Club, Person
from api.people.name_match import name_key
from api.people.people import read_candidates, read_people

FIRST = ["Ann", "Anne", "Bob", "Rob", "Cathy", "Kathy", "Jon", "John", "Zoë", "Ada", "Eve"]
LAST = ["Baker", "Barker", "Brown", "Stone", "Stoner", "Smith", "Smyth", "O'Neil", "Park",
        "Dal_ton", "50%Off"]


def test_the_candidates_of_a_few_names_match_as_the_whole_registry_does(app):
    rng = random.Random(27)
    people = sorted({f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(80)}
                    - {"Cathy Stone"})
    people += ["Ann", "Kathy", "A. B.", "Jon Smith Jr", "Eve Park", "Kathy Stone", "Ann Baker"]
    asked = ["Ann B.", "Ann", "Eve", "Cathy Stone", "Kathy Ston", "John Smith", "Jon Smyth Jr",
             "A B", "Bob", "Rob Barker", "Eve Dal_ton", "Ada 50%Off", "Zoe Brown",
             "Nobody Known", "Dee Park", "Anne Baker", "Rob O'Neil"]
    with app.app_context():
        club = Club(name="Candidates", slug=f"c-{uuid.uuid4().hex[:8]}")
        db.session.add(club)
        db.session.flush()
        db.session.execute(insert(Person), [
            {"club_id": club.id, "name": n, "name_key": name_key(n), "private": False}
            for n in people])
        db.session.commit()
        everyone = read_people(club.id, asked)
        # Near by a first letter ("Cathy" for "Kathy"), by initials, by a first name alone.
        for name in ("Cathy Stone", "Ann B.", "Eve"):
            assert everyone.found[name_key(name)][1], name
        for name in asked:
            few = read_candidates(club.id, [name])
            key = name_key(name)
            assert few.found[key] == everyone.found[key], name
            assert len(few.index.names) < len(everyone.index.names), name
        # A decision's person is read too, whatever their name.
        zed = db.session.scalar(insert(Person).values(
            club_id=club.id, name="Zed Quinn", name_key="zed quinn", private=False)
            .returning(Person.id))
        assert zed in read_candidates(club.id, ["Ann B."], [zed]).index.names
        db.session.rollback()
