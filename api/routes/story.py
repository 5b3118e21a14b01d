"""The night's story: a finished night's recap, public like its leaderboard."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..story.recap import recap
from ..story.schemas import RecapSchema

blp = Blueprint("story", __name__, url_prefix="/api/events/<int:event_id>",
                description="The night's story")


@blp.route("/recap")
class Recap(MethodView):
    @blp.response(200, RecapSchema)
    def get(self, event_id):
        """The night's story once it is finished: sentences in plain words, each written from
        a fact that names the games and hands it was found in."""
        return recap(event_id)
