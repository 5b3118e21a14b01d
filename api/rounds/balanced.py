"""A balanced first round (issue 30): on the organizer's asking, round 1's partners are drawn
so that the two sides at each table have ratings as close as can be found (the search is
api/rules/balance.py). Only where partners are drawn (progressive, WEC singles); the team
formats seat round 1 by a random draw of fixed teams, and a league by its schedule, so they
are refused.

Ratings live in an area above this one; it answers RATINGS_WANTED (below) when the app is
built. Without a listener, or for someone without a rated game, a player counts as the start
rating."""

from __future__ import annotations

from ..core.errors import Invalid
from ..core.hooks import Hook
from ..core.models import Event
from ..rules import balance
from ..rules.presets import Preset
from .planning import Plan, round_rng

# The movements whose rules draw partners for round 1: only these can be balanced.
BALANCED_MOVEMENTS = ("progressive", "wec-singles")

# Seating asks for ratings: listeners get (club_id, person_ids, found, fresh) and put
# {person_id: mu} into `found` for the people rated. `fresh`: bring the ratings up to date
# first, which ends the transaction: the preview (a read) asks it, the seating (under the
# event's lock) reads what was last rated, which is what the preview just brought up to date.
RATINGS_WANTED = Hook("seating asks the ratings of a club's people")


def check_format(preset: Preset) -> None:
    """Refuse balancing for a format whose rules seat round 1 at random (or by its schedule):
    asked before anything else about the next round, so the answer is the same whether or
    not the event is ready to seat it."""
    if preset.movement not in BALANCED_MOVEMENTS:
        raise Invalid("Balanced seating is only for formats that draw partners for the first "
                      "round (progressive, WEC singles); this format's rules seat round 1 by "
                      "a random draw (or its schedule), so it is seated that way.",
                      code="balance-not-allowed")


def check_allowed(preset: Preset, plan: Plan) -> None:
    check_format(preset)
    if plan.number != 1:
        raise Invalid(f"Balanced seating is for the first round only; the next round is "
                      f"{plan.label}, seated by the format's movement.",
                      code="balance-first-round-only")


def player_ratings(event: Event, fresh: bool) -> dict[int, float]:
    """Each player's rating (mu) by their club person, for those who have one."""
    people = {p.id: p.person_id for p in event.players if p.person_id is not None}
    club_id = event.club_id
    found: dict[int, float] = {}
    if club_id is not None and people:
        RATINGS_WANTED(club_id, sorted(set(people.values())), found, fresh)
    return {player: found[person] for player, person in people.items() if person in found}


def balance_plan(event: Event, preset: Preset, plan: Plan, fresh: bool) -> Plan:
    """The first round's plan with its partners balanced; for WEC singles the whole schedule
    is relabelled the way game 1 was, so nobody partners anyone twice still holds."""
    check_allowed(preset, plan)
    ratings = player_ratings(event, fresh)
    drawn = [list(t.seats) for t in plan.tables]
    result = balance.balance_tables(drawn, ratings, seed=round_rng(event, 1).randrange(2**31),
                                    fixed=plan.stays)
    relabel = {before: after for old, new in zip(drawn, result.tables, strict=True)
               for before, after in zip(old, new, strict=True) if before is not None}
    for table, seats in zip(plan.tables, result.tables, strict=True):
        table.seats = list(seats)
    if plan.schedule and plan.schedule.get("games"):
        plan.schedule = {**plan.schedule, "games": [
            [[relabel.get(p, p) for p in seats] for seats in game]
            for game in plan.schedule["games"]]}
    players = [p for seats in drawn for p in seats if p is not None]
    plan.balance = {"spread": round(result.spread, 2),
                    "drawn_spread": round(result.drawn_spread, 2),
                    "rated": sum(1 for p in players if p in ratings),
                    "players": len(players)}
    plan.notes.append(
        f"Balanced by rating: the largest difference between two sides' ratings at a table "
        f"is {result.spread:.1f}, against {result.drawn_spread:.1f} in the random draw "
        f"({plan.balance['rated']} of {len(players)} players rated; the others count as the "
        f"start rating).")
    return plan
