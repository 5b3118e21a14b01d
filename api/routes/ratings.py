"""A club's ratings (RULES.md section 8): the table, its CSV, and a person's rating over
their nights."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from ..club import clubs
from ..exports import as_text, file_slug, stream_csv
from ..ratings import reads
from ..ratings.schemas import RatingHistorySchema, RatingRowSchema
from .clubs import is_club, not_for_search_engines

blp = Blueprint("ratings", __name__, url_prefix="/api/clubs",
                description="Ratings: each person's skill from the games they won and lost")
blp.after_request(not_for_search_engines)

CSV_HEADER = ["place", "name", "rating", "sigma", "mu", "games", "wins"]


@blp.route("/<int:club_id>/ratings")
class Ratings(MethodView):
    @blp.response(200, RatingRowSchema(many=True))
    def get(self, club_id):
        """The club's ratings table, best first: each rated person's rating (mu - 3 sigma)
        with its uncertainty sigma, games and wins. Private people only with the club key."""
        clubs.get_club(club_id)
        return reads.table(club_id, is_club(club_id))


@blp.route("/<int:club_id>/ratings.csv")
class RatingsCsv(MethodView):
    @blp.response(200, content_type="text/csv", description="UTF-8 CSV with a header row.")
    def get(self, club_id):
        """The ratings table as CSV: place, name, rating (mu - 3 sigma), sigma, mu, games,
        wins. Private people only with the club key."""
        club = clubs.get_club(club_id)
        table = reads.table(club_id, is_club(club_id))
        rows = ([r["place"], as_text(r["name"]), f"{r['rating']:.2f}", f"{r['sigma']:.3f}",
                 f"{r['mu']:.3f}", r["games"], r["wins"]] for r in table)
        filename = f"{file_slug(club.name) or 'club'}-ratings.csv"
        return Response(stream_csv(CSV_HEADER, rows), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@blp.route("/<int:club_id>/people/<int:person_id>/rating")
class RatingHistory(MethodView):
    @blp.response(200, RatingHistorySchema)
    def get(self, club_id, person_id):
        """A person's rating now and after each night they played a rated game (the
        profile's chart); a private person's only with the club key."""
        clubs.get_club(club_id)
        return reads.history(club_id, person_id, is_club(club_id))
