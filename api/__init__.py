"""The Flask application factory: nothing runs at import, everything is built in create_app."""

from __future__ import annotations

from flask import Flask

from .config import ROOT, load_config


def create_app(config: dict | None = None) -> Flask:
    """Build the app: configuration, database, API blueprints, the PWA and security headers."""
    app = Flask(__name__, static_folder=None)
    app.config.update(load_config(config))
    app.json.sort_keys = False
    app.config.setdefault("MIGRATIONS_DIR", ROOT / "migrations")

    from .core.db import init_db

    init_db(app)

    from . import club, league, ratings, story, webhooks

    # Where an area must tell one above it (a night finishing tells the club; a scheduled
    # league week starting tells the league), the one above listens through a hook.
    league.connect()
    club.connect()
    ratings.connect()
    story.connect()
    webhooks.connect()

    from .problems import ProblemApi
    from .routes import register_routes
    from .routes.openapi import KeysAndVersions

    api = ProblemApi(app, spec_kwargs={"servers": [{"url": "/"}],
                                       "extra_plugins": [KeysAndVersions()]})
    register_routes(app, api)

    from .web import init_web

    init_web(app)

    from .cli import register_commands

    register_commands(app)

    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        # Behind a proxy the socket's address is the proxy's: take the client's from the
        # X-Forwarded-For the deployment's own proxies wrote (never more hops than it has).
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    from .serving import wrap

    # Leaderboard polls and ordinary new hands answered before Flask, writes counted so that
    # board builds give way to them: the speed tricks, each with its measured need (serving/).
    wrap(app)
    return app
