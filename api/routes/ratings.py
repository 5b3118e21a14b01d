"""A club's ratings (RULES.md section 8): the table, its CSV, and a person's rating over
their nights."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import RAISE

from ..club import clubs
from ..exports import as_text, file_slug, stream_csv
from ..ratings import reads
from ..ratings.schemas import RatingHistorySchema, RatingsPageSchema, RatingsTableSchema
from . import examples
from .clubs import is_club, not_for_search_engines, page_tag

blp = Blueprint("ratings", __name__, url_prefix="/api/clubs",
                description="Ratings: each person's skill from the games they won and lost")
blp.after_request(not_for_search_engines)

CSV_HEADER = ["place", "name", "rating", "sigma", "mu", "games", "wins"]


@blp.route("/<int:club_id>/ratings")
class Ratings(MethodView):
    @blp.arguments(RatingsPageSchema, location="query", unknown=RAISE)
    @blp.response(200, RatingsTableSchema, headers={"ETag": {"schema": {"type": "string"}}},
                  example=examples.RATINGS)
    @blp.alt_response(304, description="Nothing changed since the ETag in If-None-Match.")
    def get(self, page, club_id):
        """The club's ratings table, best first: each rated person's place (equal ratings
        share it), rating (mu - 3 sigma) with its uncertainty sigma, games and wins, a page
        of rows at a time (`total_rows` says how many there are). Private people only with
        the club key. Poll with If-None-Match: the ETag changes when a night's games are
        rated or the club's people change (a rename, privacy, a merge)."""
        clubs.get_club(club_id)
        club_key = is_club(club_id)
        stamp = reads.table_stamp(club_id)
        tag, unchanged = page_tag("r", stamp, club_key, page)
        if unchanged:
            return Response(status=304, headers={"ETag": tag})
        return reads.page(club_id, club_key, page["offset"], page["limit"], stamp), 200, \
            {"ETag": tag}


@blp.route("/<int:club_id>/ratings.csv")
class RatingsCsv(MethodView):
    @blp.doc(responses={"200": {"description": "UTF-8 CSV with a header row.", "content": {
        "text/csv": {"schema": {"type": "string"}, "example": examples.RATINGS_CSV}}}})
    def get(self, club_id):
        """The whole ratings table as CSV: place, name, rating (mu - 3 sigma), sigma, mu,
        games, wins. Private people only with the club key."""
        club = clubs.get_club(club_id)
        table = reads.table(club_id, is_club(club_id))
        rows = ([place, as_text(name), f"{rating:.2f}", f"{sigma:.3f}", f"{mu:.3f}", games,
                 wins] for place, _, name, rating, mu, sigma, games, wins in table)
        filename = f"{file_slug(club.name) or 'club'}-ratings.csv"
        return Response(stream_csv(CSV_HEADER, rows), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@blp.route("/<int:club_id>/people/<int:person_id>/rating")
class RatingHistory(MethodView):
    @blp.response(200, RatingHistorySchema, example=examples.RATING)
    def get(self, club_id, person_id):
        """A person's rating now and after each night they played a rated game (the
        profile's chart); a private person's only with the club key."""
        clubs.get_club(club_id)
        return reads.history(club_id, person_id, is_club(club_id))
