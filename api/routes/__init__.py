"""HTTP entry points: flask-smorest blueprints that parse, authorize, call a service, serialize."""

from __future__ import annotations


def register_routes(app, api) -> None:
    from . import meta

    for module in (meta,):
        api.register_blueprint(module.blp)
