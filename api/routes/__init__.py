"""HTTP entry points: flask-smorest blueprints that parse, authorize, call a service, serialize."""

from __future__ import annotations


def register_routes(app, api) -> None:
    from . import entrants, events, exports, games, league, meta, reading, rounds

    for module in (meta, events, entrants, rounds, games, league, reading, exports):
        api.register_blueprint(module.blp)
