"""The night around the games (RULES.md §4): entry fees and the prize pool, payouts by place,
the organizer's named awards, categories with their own places, and door-prize draws.

Disqualification and "paid" are set on the entrant (night/entrants.py); the standings strike
the disqualified (standings/standings.py). Everything here works for a standalone event as for
a club's.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select

from ..core.common import audit, get_event, lock_event, preset_of
from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.keys import Principal
from ..core.models import Event, Player, Team, utcnow
from ..rules import prizes as rprizes
from ..rules import standings as rstandings
from .standings import compute_standings, entrants

MAX_NAMED_AWARDS = 30
MAX_CATEGORIES = 10
MAX_DRAWS = 200


# --- money -------------------------------------------------------------------------------

def _settings(event: Event) -> dict | None:
    return event.money or None


def split_of(money: dict) -> tuple:
    rows = money.get("split")
    if not rows:
        return rprizes.DEFAULT_SPLIT
    return tuple((row["from_field"], tuple(row["percentages"])) for row in rows)


def set_money(event_id: int, principal: Principal, body: dict | None) -> Event:
    """Set (or, with None, clear) the entry fee, the maintenance fee and the split."""
    event = lock_event(event_id)
    before = event.money
    if body is None:
        event.money = None
    else:
        if body.get("maintenance_amount") and body.get("maintenance_percent"):
            raise Invalid("Give the maintenance fee as an amount or as a per cent of the fees, "
                          "not both.", code="bad-money")
        split = body.get("split")
        if split:
            rprizes.check_split([(row["from_field"], row["percentages"]) for row in split])
        event.money = {"entry_fee": body["entry_fee"], "currency": body.get("currency") or "$",
                       "maintenance_amount": body.get("maintenance_amount") or 0,
                       "maintenance_percent": body.get("maintenance_percent") or 0,
                       "split": split or None}
    audit(event.id, principal, "set-money", "event", event.id, before=before, after=event.money)
    db.session.commit()
    return event


def _paid_count(event: Event, team_entry: bool) -> tuple[int, int]:
    """Entrants marked paid, and those marked paid plus the checked-in ones not marked paid
    (players, or teams in team formats). A registered no-show owes nothing (RULES.md §4), so
    only a checked-in entrant counts as unpaid."""
    paid = set(_marked_paid(event, team_entry))
    here = _checked_in(event, team_entry, keep_withdrawn=True, keep_disqualified=True)
    return len(paid), len(paid) + len(here - paid)


def _marked_paid(event: Event, team_entry: bool) -> list[int]:
    if team_entry:
        query = select(Team.id).where(Team.event_id == event.id, Team.removed.is_(False),
                                      Team.paid.is_(True))
    else:
        query = select(Player.id).where(Player.event_id == event.id, Player.role == "player",
                                        Player.paid.is_(True))
    return list(db.session.execute(query).scalars())


def payouts_for(event: Event, standings: list[rstandings.Standing]) -> rprizes.Payouts | None:
    """What each placed entrant takes home, from the standings given (None: no money set)."""
    money = _settings(event)
    if money is None:
        return None
    paid, _ = _paid_count(event, preset_of(event).team_entry)
    pool = rprizes.prize_pool(money["entry_fee"], paid, money["maintenance_amount"],
                              money["maintenance_percent"])
    return rprizes.payouts(pool, [(s.entrant, s.place) for s in standings], split_of(money),
                           field_size=len(standings))


def money_view(event_id: int) -> dict:
    """The money as the organizer's desk and the printed results show it."""
    event = get_event(event_id)
    preset = preset_of(event)
    money = _settings(event)
    paid, registered = _paid_count(event, preset.team_entry)
    view = {"set": money is not None, "entry_fee": 0, "currency": "$", "maintenance_amount": 0,
            "maintenance_percent": 0, "split": [
                {"from_field": f, "percentages": list(p)} for f, p in rprizes.DEFAULT_SPLIT],
            "custom_split": False, "paid": paid, "unpaid": registered - paid, "collected": 0,
            "maintenance": 0, "pool": 0, "remainder": 0, "places": [], "payouts": [],
            "unpaid_winners": 0,
            "kept_by_organizer": 0, "field_size": 0}
    if money is None:
        return view
    people = entrants(event, preset)
    standings = compute_standings(event, preset, people=people)
    names = {p.id: p.name for p in people}
    paid_ids = set(_marked_paid(event, preset.team_entry))
    result = payouts_for(event, standings)
    split = split_of(money)
    view.update({
        "entry_fee": money["entry_fee"], "currency": money["currency"],
        "maintenance_amount": money["maintenance_amount"],
        "maintenance_percent": money["maintenance_percent"],
        "split": [{"from_field": f, "percentages": list(p)} for f, p in split],
        "custom_split": bool(money.get("split")),
        "collected": result.pool.collected, "maintenance": result.pool.maintenance,
        "pool": result.pool.pool, "remainder": result.remainder,
        "kept_by_organizer": result.pool.maintenance + result.remainder,
        "field_size": len(standings),
        "places": [{"place": i + 1, "percent": pct, "amount": amount}
                   for i, (pct, amount) in enumerate(zip(result.percentages, result.by_place,
                                                         strict=True))],
        "payouts": [{"entrant_id": s.entrant, "name": names.get(s.entrant), "place": s.place,
                     "shared": s.shared, "amount": result.by_entrant[s.entrant],
                     "paid": s.entrant in paid_ids}
                    for s in standings if s.entrant in result.by_entrant],
    })
    view["unpaid_winners"] = sum(not p["paid"] for p in view["payouts"])
    return view


# --- named awards ------------------------------------------------------------------------

def _entrant_names(event: Event) -> dict[int, str]:
    model = Team if preset_of(event).team_entry else Player
    query = select(model.id, model.name).where(model.event_id == event.id)
    if model is Player:
        query = query.where(Player.role == "player")
    return dict(db.session.execute(query).all())


def set_named_awards(event_id: int, principal: Principal, awards: list[dict]) -> list[dict]:
    """The organizer's own awards (Farthest Traveler, Sportsmanship, Best Dressed, any name),
    each with its winners and an optional note; the whole list at once."""
    event = lock_event(event_id)
    names = _entrant_names(event)
    seen = set()
    kept = []
    for index, award in enumerate(awards):
        title = award["name"]
        if title.casefold() in seen:
            raise Invalid(f"Two awards are called '{title}'; give each its own name.",
                          code="duplicate-award")
        seen.add(title.casefold())
        unknown = [w for w in award["winners"] if w not in names]
        if unknown:
            raise Invalid(f"Award {index + 1} ('{title}'): {unknown[0]} is not an entrant of "
                          "this event.", code="unknown-entrant")
        kept.append({"name": title, "winners": list(dict.fromkeys(award["winners"])),
                     "note": award.get("note") or None})
    before = event.named_awards
    event.named_awards = kept
    audit(event.id, principal, "named-awards", "event", event.id,
          before={"awards": before or []}, after={"awards": kept})
    db.session.commit()
    return named_awards(event)


def named_awards(event: Event) -> list[dict]:
    names = _entrant_names(event) if event.named_awards else {}
    return [{"name": a["name"], "note": a.get("note"),
             "winners": [{"id": w, "name": names.get(w)} for w in a["winners"]]}
            for a in event.named_awards or []]


# --- categories --------------------------------------------------------------------------

def set_categories(event_id: int, principal: Principal, categories: list[dict]) -> Event:
    """The event's categories ("High lady", "High man"), each with its prize places. A
    category still given to an entrant cannot be dropped."""
    event = lock_event(event_id)
    new = {}
    for category in categories:
        if category["name"].casefold() in {k.casefold() for k in new}:
            raise Invalid(f"Two categories are called '{category['name']}'.",
                          code="duplicate-category")
        new[category["name"]] = {"prize_places": category["prize_places"]}
    model = Team if preset_of(event).team_entry else Player
    kept = {k.casefold() for k in new}
    for name, tags in db.session.execute(select(model.name, model.categories).where(
            model.event_id == event.id, model.categories.is_not(None))):
        dropped = [t for t in tags or [] if t.casefold() not in kept]
        if dropped:
            raise Conflict(f"{name} is in the category '{dropped[0]}': take them out of it "
                           "first (Players).", code="category-in-use")
    before = event.categories
    event.categories = new
    audit(event.id, principal, "categories", "event", event.id,
          before={"categories": before or {}}, after={"categories": new})
    db.session.commit()
    return event


def category_tags(event: Event) -> dict[int, list[str]]:
    model = Team if preset_of(event).team_entry else Player
    return {entrant: tags for entrant, tags in db.session.execute(
        select(model.id, model.categories).where(model.event_id == event.id,
                                                 model.categories.is_not(None))) if tags}


def category_boards(event: Event, standings: list[rstandings.Standing],
                    names: dict) -> list[dict]:
    """Each category's own place list: its members in the overall order, places renumbered
    (the struck keep out of them), with the category's prize places."""
    if not event.categories:
        return []
    tags = category_tags(event)
    boards = []
    for name, settings in event.categories.items():
        members = {e for e, t in tags.items() if name in t}
        ranked = [s for s in standings if s.entrant in members]
        others = {s.entrant for s in ranked if s.place is None}
        placed = rstandings.strike(ranked, others, settings["prize_places"])
        boards.append({"name": name, "prize_places": settings["prize_places"], "rows": [
            {"entrant_id": s.entrant, "name": names.get(s.entrant, "?"), "place": s.place,
             "total": s.total, "shared": s.shared, "prize": s.prize} for s in placed]})
    return boards


# --- door prizes -------------------------------------------------------------------------

def draw_door_prize(event_id: int, principal: Principal, count: int,
                    leave_out_prize_winners: bool, leave_out_drawn: bool,
                    seed: int | None = None) -> dict:
    """Draw winners at random among the checked-in entrants (not withdrawn, not disqualified),
    from a recorded seed. The draw keeps its own candidate list, in a stable order (by id), so
    repeating it later (repeat_draw) gives the same winners whatever happened since."""
    event = lock_event(event_id)
    preset = preset_of(event)
    here = _checked_in(event, preset.team_entry)
    left_out: set[int] = set()
    if leave_out_prize_winners:
        people = entrants(event, preset)
        standings = compute_standings(event, preset, people=people)
        left_out |= {s.entrant for s in standings if s.prize}
        paid = payouts_for(event, standings)
        if paid is not None:
            left_out |= set(paid.by_entrant)
    draws = list(event.draws or [])
    if len(draws) >= MAX_DRAWS:
        raise Conflict(f"An event keeps at most {MAX_DRAWS} draws.", code="too-many-draws")
    if leave_out_drawn:
        left_out |= {w for d in draws for w in d["winners"]}
    candidates = sorted(here - left_out)
    if not candidates:
        raise Conflict("Nobody is left to draw from: no checked-in entrant is left once "
                       "those left out are.", code="nobody-to-draw")
    if count > len(candidates):
        raise Conflict(f"Only {len(candidates)} can be drawn from; {count} asked for.",
                       code="too-few-to-draw")
    seed = secrets.randbelow(2**31) if seed is None else seed
    winners = rprizes.draw(candidates, count, seed)
    record = {"number": len(draws) + 1, "at": utcnow().isoformat(), "seed": seed,
              "count": count, "leave_out_prize_winners": leave_out_prize_winners,
              "leave_out_drawn": leave_out_drawn, "candidates": len(candidates),
              "candidate_ids": candidates, "winners": winners}
    event.draws = [*draws, record]
    audit(event.id, principal, "door-prize-draw", "event", event.id, after=record)
    db.session.commit()
    return _draw_view(record, _entrant_names(event), with_candidates=True)


def repeat_draw(event_id: int, number: int) -> dict:
    """Draw `number` again from its own candidate list and seed: a check that the recorded
    winners are what the seed gives, not a new draw (nothing is stored)."""
    event = get_event(event_id)
    draws = event.draws or []
    if not 1 <= number <= len(draws):
        raise not_found(f"Door-prize draw {number}")
    record = draws[number - 1]
    if record.get("candidate_ids") is None:
        raise Conflict(f"Draw {number} was made before each draw kept its list of "
                       "candidates, so it cannot be repeated exactly.",
                       code="draw-not-repeatable")
    again = rprizes.draw(record["candidate_ids"], record["count"], record["seed"])
    names = _entrant_names(event)
    ref = lambda w: {"id": w, "name": names.get(w)}  # noqa: E731
    return {"number": number, "seed": record["seed"], "candidates": record["candidates"],
            "winners": [ref(w) for w in again], "recorded": [ref(w) for w in record["winners"]],
            "same": again == record["winners"]}


def _checked_in(event: Event, team_entry: bool, keep_withdrawn: bool = False,
                keep_disqualified: bool = False) -> set[int]:
    """The entrants here tonight: checked in (a team: all its players), by default neither
    withdrawn nor disqualified (the door-prize field, RULES.md §4)."""
    if team_entry:
        query = select(Team).where(Team.event_id == event.id, Team.removed.is_(False))
        if not keep_withdrawn:
            query = query.where(Team.withdrawn.is_(False))
        if not keep_disqualified:
            query = query.where(Team.disqualified.is_(None))
        return {t.id for t in db.session.execute(query).scalars()
                if all(m.checked_in for m in t.members if m.role == "player")}
    query = select(Player.id).where(Player.event_id == event.id, Player.role == "player",
                                    Player.checked_in.is_(True))
    if not keep_withdrawn:
        query = query.where(Player.withdrawn.is_(False))
    if not keep_disqualified:
        query = query.where(Player.disqualified.is_(None))
    return set(db.session.execute(query).scalars())


def _draw_view(record: dict, names: dict, with_candidates: bool = False) -> dict:
    view = {k: v for k, v in record.items() if k not in ("winners", "candidate_ids")}
    view["winners"] = [{"id": w, "name": names.get(w)} for w in record["winners"]]
    if with_candidates and record.get("candidate_ids") is not None:
        view["candidate_list"] = [{"id": c, "name": names.get(c)}
                                  for c in record["candidate_ids"]]
    return view


def draws(event_id: int) -> list[dict]:
    """Every draw with its candidate list (who was in it, in the order the draw used)."""
    event = get_event(event_id)
    names = _entrant_names(event) if event.draws else {}
    return [_draw_view(d, names, with_candidates=True) for d in event.draws or []]


def latest_draw(event: Event, names: dict) -> dict | None:
    if not event.draws:
        return None
    return _draw_view(event.draws[-1], names)


def door_prize_wins(event: Event) -> list[dict]:
    """Each door-prize winner with the numbers of every draw they won (a followed player's
    phone lists them all, not only the latest draw's)."""
    won: dict[int, list[int]] = {}
    for record in event.draws or []:
        for winner in record["winners"]:
            won.setdefault(winner, []).append(record["number"])
    return [{"entrant_id": e, "draws": numbers} for e, numbers in won.items()]
