"""The night around the games: entry fees and payouts, named awards, categories, door-prize
draws (disqualification and "paid" are set on the entrant: routes/entrants.py)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import require
from ..core.common import get_event
from ..core.keys import ORGANIZER
from ..standings import event_day as service
from ..standings.schemas import (
    CategoriesSetSchema,
    CategorySchema,
    DrawCreateSchema,
    DrawRepeatSchema,
    DrawSchema,
    MoneySchema,
    MoneySetSchema,
    NamedAwardSchema,
    NamedAwardsSetSchema,
)

blp = Blueprint("event_day", __name__, url_prefix="/api/events/<int:event_id>",
                description="Money, named awards, categories, door prizes")


@blp.route("/money")
class Money(MethodView):
    @blp.response(200, MoneySchema)
    def get(self, event_id):
        """The entry fee, maintenance fee and split; what was collected, the pool, each paid
        place's amount and who takes what (shared places share the money of the places they
        cover; what does not divide evenly stays with the organizer)."""
        return service.money_view(event_id)

    @blp.arguments(MoneySetSchema)
    @blp.response(200, MoneySchema)
    def put(self, body, event_id):
        """Set the entry fee, the maintenance fee (an amount or a per cent) and, optionally,
        a split of the event's own (organizer)."""
        principal = require(event_id, ORGANIZER)
        service.set_money(event_id, principal, body)
        return service.money_view(event_id)

    @blp.response(200, MoneySchema)
    def delete(self, event_id):
        """No money at this event: no fee, no pool, no payouts (organizer)."""
        principal = require(event_id, ORGANIZER)
        service.set_money(event_id, principal, None)
        return service.money_view(event_id)


@blp.route("/named-awards")
class NamedAwards(MethodView):
    @blp.response(200, NamedAwardSchema(many=True))
    def get(self, event_id):
        """The organizer's own awards (Farthest Traveler, Sportsmanship, ...)."""
        return service.named_awards(get_event(event_id))

    @blp.arguments(NamedAwardsSetSchema)
    @blp.response(200, NamedAwardSchema(many=True))
    def put(self, body, event_id):
        """Replace the list of named awards, each with its winners and a note (organizer)."""
        principal = require(event_id, ORGANIZER)
        return service.set_named_awards(event_id, principal, body["awards"])


@blp.route("/categories")
class Categories(MethodView):
    @blp.response(200, CategorySchema(many=True))
    def get(self, event_id):
        """The event's categories and their prize places (their place lists are on the
        leaderboard)."""
        event = get_event(event_id)
        return [{"name": k, **v} for k, v in (event.categories or {}).items()]

    @blp.arguments(CategoriesSetSchema)
    @blp.response(200, CategorySchema(many=True))
    def put(self, body, event_id):
        """Replace the categories (e.g. High lady, High man), each with its prize places;
        entrants are put in them on the Players screen (organizer)."""
        principal = require(event_id, ORGANIZER)
        event = service.set_categories(event_id, principal, body["categories"])
        return [{"name": k, **v} for k, v in (event.categories or {}).items()]


@blp.route("/draws")
class Draws(MethodView):
    @blp.response(200, DrawSchema(many=True))
    def get(self, event_id):
        """The door-prize draws so far, each with its seed and options."""
        return service.draws(event_id)

    @blp.arguments(DrawCreateSchema, required=False)
    @blp.response(201, DrawSchema)
    def post(self, body, event_id):
        """Draw door-prize winners at random among the checked-in entrants (by default
        leaving out prize winners and earlier winners); the seed is recorded, so the draw can
        be repeated (organizer)."""
        principal = require(event_id, ORGANIZER)
        return service.draw_door_prize(event_id, principal, body["count"],
                                       body["leave_out_prize_winners"], body["leave_out_drawn"],
                                       body["seed"])


@blp.route("/draws/<int:number>/repeat")
class DrawRepeat(MethodView):
    @blp.response(200, DrawRepeatSchema)
    def get(self, event_id, number):
        """Repeat draw `number` from its own candidate list and seed: the winners it gives now
        beside the recorded ones. A check anyone can make, not a new draw (nothing changes)."""
        return service.repeat_draw(event_id, number)
