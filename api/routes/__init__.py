"""HTTP entry points: flask-smorest blueprints that parse, authorize, call a service, serialize."""

from __future__ import annotations

from werkzeug.routing import IntegerConverter, UnicodeConverter

# The largest id a row can have: ids are 32-bit INTEGER columns on PostgreSQL.
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """`<int:...>` in every route: a number too large to be an id is a 404 at routing, not a
    500 from the database (SQLite cannot bind past 64 bits, PostgreSQL's ids stop at 32).
    flask-smorest documents the bound as the parameter's `maximum`."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=MAX_ID, signed=False):  # noqa: A002
        super().__init__(url_map, fixed_digits, min, max, signed)


class TextConverter(UnicodeConverter):
    """`<string:...>` (and plain `<...>`) in every route: no NUL, which PostgreSQL cannot
    compare with text (a 500 for /api/events/by-code/%00)."""

    def __init__(self, url_map, minlength=1, maxlength=None, length=None):
        super().__init__(url_map, minlength, maxlength, length)
        self.regex = self.regex.replace("[^/]", "[^/\\x00]", 1)


def register_routes(app, api) -> None:
    from . import entrants, events, exports, games, league, meta, reading, rounds

    app.url_map.converters["int"] = IdConverter  # before any rule is added
    app.url_map.converters["string"] = app.url_map.converters["default"] = TextConverter
    for module in (meta, events, entrants, rounds, games, league, reading, exports):
        api.register_blueprint(module.blp)
