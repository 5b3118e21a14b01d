"""Clubs: their keys, events, registry of people, series standings and player profiles."""

from __future__ import annotations

import hashlib

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import RAISE

from ..auth import client_address, current_principal, require_club
from ..club import clubs as service
from ..club import people_data, profiles, series
from ..club.schemas import (
    ClubAuditSchema,
    ClubCreatedSchema,
    ClubCreateSchema,
    ClubEventSchema,
    ClubKeyCreatedSchema,
    ClubKeyCreateSchema,
    ClubKeySchema,
    ClubPageSchema,
    ClubSchema,
    ClubUpdateSchema,
    NightUpdateSchema,
    PersonDataSchema,
    ProfileSchema,
    SeriesCreateSchema,
    SeriesPageSchema,
    SeriesSchema,
    SeriesStandingsSchema,
    SeriesUpdateSchema,
)
from ..exports import as_text, file_slug, stream_csv
from ..night.schemas import EventCreatedSchema, EventCreateSchema
from ..people import people
from ..people.schemas import MergeSchema, PersonSchema, PersonUpdateSchema, SplitSchema
from ..web import NOINDEX
from . import examples
from .events import event_view

PRIVATE_CELL = "private"  # a private person's event cell in the public series CSV

blp = Blueprint("clubs", __name__, url_prefix="/api/clubs",
                description="Clubs: events, people, series and profiles across nights")


@blp.after_request
def not_for_search_engines(response):
    """People's names and figures are not for search engines unless the club opts in."""
    args = request.view_args or {}
    if ("club_id" in args or "slug" in args) and not service.indexable(
            club_id=args.get("club_id"), slug=args.get("slug")):
        response.headers["X-Robots-Tag"] = NOINDEX
    return response


def is_club(club_id: int) -> bool:
    """Whether this request carries this club's key (private people show to it alone)."""
    principal = current_principal()
    return principal is not None and principal.club_id == club_id


def page_tag(kind: str, stamp: object, club_key: bool, page: dict) -> tuple[str, bool]:
    """A paged table's ETag (`kind`: a letter that keeps tables apart), from what the table
    is now (`stamp`), the viewer and the page; and whether If-None-Match already holds it."""
    mark = f"{stamp}.{int(club_key)}.{page['offset']}.{page['limit']}"
    tag = f'"{kind}' + hashlib.sha1(mark.encode()).hexdigest()[:20] + '"'
    return tag, request.if_none_match.contains(tag.strip('"'))


def _page(club) -> dict:
    club_key = is_club(club.id)
    return {"id": club.id, "name": club.name, "slug": club.slug, "created_at": club.created_at,
            "people_private_by_default": club.people_private_by_default,
            "indexable": club.indexable,
            "events": service.club_events(club.id, archived=club_key),
            "series": [series.series_view(s) for s in series.club_series(club.id)],
            "people": [p for p in people.people_of(club.id) if club_key or not p["private"]]}


@blp.route("")
class Clubs(MethodView):
    @blp.arguments(ClubCreateSchema)
    @blp.response(201, ClubCreatedSchema)
    def post(self, body):
        """Create a club. The answer carries the club key once: it can do everything an
        organizer key can in every event of the club, and make the club's events."""
        club, secret = service.create_club(body["name"], body["slug"], client_address())
        return {"id": club.id, "name": club.name, "slug": club.slug,
                "people_private_by_default": bool(club.people_private_by_default),
                "indexable": bool(club.indexable),
                "created_at": club.created_at, "club_key": secret}


@blp.route("/<int:club_id>")
class ClubById(MethodView):
    @blp.response(200, ClubPageSchema, example=examples.CLUB)
    def get(self, club_id):
        """The club's page: its events (newest first), series and people (private people
        only with the club key)."""
        return _page(service.get_club(club_id))

    @blp.arguments(ClubUpdateSchema, required=False)
    @blp.response(200, ClubSchema)
    def patch(self, body, club_id):
        """Rename the club, change its page's address, or its people's data settings: whether
        new people start private, and whether search engines may index people's pages (club
        key). Audited."""
        principal = require_club(club_id)
        return service.update_club(club_id, principal, body or {})


@blp.route("/by-slug/<string:slug>")
class ClubBySlug(MethodView):
    @blp.response(200, ClubPageSchema, example=examples.CLUB)
    def get(self, slug):
        """The club's page by its address (/c/<slug>)."""
        return _page(service.club_by_slug(slug))


@blp.route("/<int:club_id>/keys")
class ClubKeys(MethodView):
    @blp.response(200, ClubKeySchema(many=True))
    def get(self, club_id):
        """The club's keys (club key)."""
        require_club(club_id)
        return service.list_keys(club_id)

    @blp.arguments(ClubKeyCreateSchema, required=False)
    @blp.response(201, ClubKeyCreatedSchema)
    def post(self, body, club_id):
        """Another club key (a second organizer's), shown once (club key)."""
        principal = require_club(club_id)
        key, secret = service.issue_key(club_id, principal, (body or {}).get("label", ""))
        return {"id": key.id, "label": key.label, "hint": key.hint,
                "created_at": key.created_at, "revoked_at": None, "key": secret}


@blp.route("/<int:club_id>/keys/<int:key_id>")
class ClubKeyById(MethodView):
    @blp.response(200, ClubKeySchema)
    def delete(self, club_id, key_id):
        """Revoke a club key: it stops working at once (club key)."""
        principal = require_club(club_id)
        return service.revoke_key(club_id, principal, key_id)


@blp.route("/<int:club_id>/events")
class ClubEvents(MethodView):
    @blp.response(200, ClubEventSchema(many=True))
    def get(self, club_id):
        """The club's events, the latest night first (those set aside: club key only)."""
        service.get_club(club_id)
        return service.club_events(club_id, archived=is_club(club_id))

    @blp.arguments(EventCreateSchema)
    @blp.response(201, EventCreatedSchema)
    def post(self, body, club_id):
        """Create an event of the club (club key): its players are matched against the club's
        people as they register. The answer carries the event's organizer key once."""
        principal = require_club(club_id)
        event, secret = service.create_club_event(
            club_id, principal, body["name"], body["preset"], body["overrides"],
            body["time_zone"], client_address())
        view = event_view(event)
        view["links"]["organizer"] += f"#key={secret}"
        return {**view, "organizer_key": secret, "join_pin": event.join_pin}


@blp.route("/<int:club_id>/events/<int:event_id>")
class ClubEventById(MethodView):
    @blp.arguments(NightUpdateSchema, required=False)
    @blp.response(200, ClubEventSchema)
    def patch(self, body, club_id, event_id):
        """Set the day a night was played (series, profiles and charts date it so), or set
        it aside (archived: true) and back (club key). Audited."""
        principal = require_club(club_id)
        return service.change_night(club_id, principal, event_id, body or {})

    @blp.response(204)
    @blp.alt_response(409, description="The night has results: archive it instead.")
    def delete(self, club_id, event_id):
        """Delete a night made by mistake, while nothing was scored in it (club key). One
        with hands, sheets or forfeits is refused (409): archive it instead. Audited."""
        principal = require_club(club_id)
        service.delete_night(club_id, principal, event_id)


@blp.route("/<int:club_id>/people")
class People(MethodView):
    @blp.response(200, PersonSchema(many=True), example=examples.PEOPLE)
    def get(self, club_id):
        """The club's people, A to Z (private ones only with the club key)."""
        service.get_club(club_id)
        club_key = is_club(club_id)
        return [p for p in people.people_of(club_id) if club_key or not p["private"]]


def _person_row(club_id: int, person) -> dict:
    return next(p for p in people.people_of(club_id) if p["id"] == person.id)


@blp.route("/<int:club_id>/people/<int:person_id>")
class PersonById(MethodView):
    @blp.response(200, ProfileSchema, example=examples.PROFILE)
    def get(self, club_id, person_id):
        """A person's profile: events played with place and total, and statistics from the
        hands (a private person's only with the club key)."""
        return profiles.profile(club_id, person_id, is_club(club_id))

    @blp.arguments(PersonUpdateSchema, required=False)
    @blp.response(200, PersonSchema)
    def patch(self, body, club_id, person_id):
        """Rename a person, or mark them private (club key). Audited."""
        principal = require_club(club_id)
        person = people.change_person(club_id, principal, person_id, body or {})
        return _person_row(club_id, person)


@blp.route("/<int:club_id>/people/<int:person_id>/erase")
class Erase(MethodView):
    @blp.response(200, PersonSchema)
    def post(self, club_id, person_id):
        """Erase a person at their request (club key): their name, and every name they played
        under, becomes "Former player N" in every page, answer, export and audit text of the
        club, while every result and total stays the same. Cannot be undone; a repeat changes
        nothing. Audited (without the name)."""
        principal = require_club(club_id)
        person = people_data.erase_person(club_id, principal, person_id)
        return _person_row(club_id, person)


@blp.route("/<int:club_id>/people/<int:person_id>/data")
class PersonData(MethodView):
    @blp.response(200, PersonDataSchema)
    def get(self, club_id, person_id):
        """Everything the club keeps about a person, as one JSON file to hand over (club
        key): their record, profile, entries in every event, every hand they sat in and the
        league protests about them or their team."""
        require_club(club_id)
        data = people_data.person_data(club_id, person_id)
        name = file_slug(data["person"]["name"]) or "person"
        return data, 200, {"Content-Disposition":
                           f'attachment; filename="{name}-{person_id}-data.json"'}


@blp.route("/<int:club_id>/people/<int:person_id>/merge")
class Merge(MethodView):
    @blp.arguments(MergeSchema)
    @blp.response(200, PersonSchema)
    def post(self, body, club_id, person_id):
        """Merge another record of the same person into this one (club key). Results are
        unchanged; only whose they are. Audited."""
        principal = require_club(club_id)
        person = people.merge_people(club_id, principal, person_id, body["merge"])
        return _person_row(club_id, person)


@blp.route("/<int:club_id>/people/<int:person_id>/split")
class Split(MethodView):
    @blp.arguments(SplitSchema)
    @blp.response(200, PersonSchema)
    def post(self, body, club_id, person_id):
        """Move an event entry wrongly linked to this person to another person or a new one
        (club key). Audited."""
        principal = require_club(club_id)
        person = people.split_entry(club_id, principal, person_id, body["player_id"],
                                    body["to"])
        return _person_row(club_id, person)


@blp.route("/<int:club_id>/audit")
class ClubAudit(MethodView):
    @blp.response(200, ClubAuditSchema(many=True))
    def get(self, club_id):
        """Changes to the club's records, newest first: who (which club key), when, before,
        after (club key)."""
        require_club(club_id)
        return service.club_audit_entries(club_id)


@blp.route("/<int:club_id>/series")
class SeriesList(MethodView):
    @blp.response(200, SeriesSchema(many=True), example=examples.SERIES_LIST)
    def get(self, club_id):
        """The club's series."""
        service.get_club(club_id)
        return [series.series_view(s) for s in series.club_series(club_id)]

    @blp.arguments(SeriesCreateSchema)
    @blp.response(201, SeriesSchema)
    def post(self, body, club_id):
        """A series of the club's events, scored by total points or by place from a points
        table, optionally the best N events, optionally a minimum of events (club key)."""
        principal = require_club(club_id)
        return series.series_view(series.create_series(club_id, principal, body))


@blp.route("/<int:club_id>/series/<int:series_id>")
class SeriesById(MethodView):
    @blp.arguments(SeriesPageSchema, location="query", unknown=RAISE)
    @blp.response(200, SeriesStandingsSchema, headers={"ETag": {"schema": {"type": "string"}}},
                  example=examples.SERIES)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, page, club_id, series_id):
        """The series standings, live: place, person, events played, counted results, total,
        and each event's result, a page of rows at a time. Poll with If-None-Match."""
        found = series.get_series(club_id, series_id)
        club_key = is_club(club_id)
        revision = series.series_revision(found)
        tag, unchanged = page_tag("s", revision, club_key, page)
        if unchanged:
            return Response(status=304, headers={"ETag": tag})
        return series.standings(found, club_key, revision, page["offset"], page["limit"]), \
            200, {"ETag": tag}

    @blp.arguments(SeriesUpdateSchema, required=False)
    @blp.response(200, SeriesSchema)
    def patch(self, body, club_id, series_id):
        """Change a series: name, scoring, best N, minimum, its events (club key)."""
        principal = require_club(club_id)
        return series.series_view(series.update_series(club_id, principal, series_id,
                                                       body or {}))


@blp.route("/<int:club_id>/series/<int:series_id>/events/<int:event_id>")
class SeriesEventById(MethodView):
    @blp.response(200, SeriesSchema)
    def put(self, club_id, series_id, event_id):
        """Add one of the club's events to the series (club key)."""
        principal = require_club(club_id)
        return series.series_view(series.add_event(club_id, principal, series_id, event_id))

    @blp.response(200, SeriesSchema)
    def delete(self, club_id, series_id, event_id):
        """Take an event out of the series (club key)."""
        principal = require_club(club_id)
        return series.series_view(series.remove_event(club_id, principal, series_id,
                                                      event_id))


@blp.route("/<int:club_id>/series/<int:series_id>/standings.csv")
class SeriesCsv(MethodView):
    @blp.response(200, content_type="text/csv", description="UTF-8 CSV with a header row.")
    def get(self, club_id, series_id):
        """The series standings as CSV: place, name, events, counted, total, then each
        event's series points ('' where not played, in brackets where not counted, 'private'
        in every event of a private person's row unless the club key asks)."""
        found = series.get_series(club_id, series_id)
        club_key = is_club(club_id)
        table = series.standings(found, club_key, limit=None)
        header = ["place", "name", "events", "counted", "total",
                  *(as_text(e["name"]) for e in table["events"])]

        def rows():
            for row in table["rows"]:
                by_event = {r["event_id"]: r for r in row["results"]}
                # A private person's nights are the club's to see: masked, not blank (a blank
                # reads "did not play").
                masked = row["private"] and not club_key
                cells = []
                for e in table["events"]:
                    r = by_event.get(e["id"])
                    cells.append(PRIVATE_CELL if masked else "" if r is None else
                                 f"{r['points']:g}" if r["counted"] else f"({r['points']:g})")
                yield [row["place"] if row["place"] is not None else "", as_text(row["name"]),
                       row["events_played"], row["counted"], f"{row['total']:g}", *cells]

        filename = f"{file_slug(found.name)}-series.csv"
        return Response(stream_csv(header, rows()), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})
