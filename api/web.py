"""The PWA's static files and the headers every response carries (security, caching, CORS)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Request, request, send_from_directory
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import PathConverter

from .club import clubs
from .problems import Problem

NOINDEX = "noindex, nofollow"

# No inline script anywhere, so the policy can forbid it; the PWA loads nothing from elsewhere.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
# The API docs page (ReDoc) builds its styles at run time and runs in a web worker.
DOCS_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


class BoundedRequest(Request):
    """A request whose body past MAX_CONTENT_LENGTH is a 413 however it is sent. With a
    Content-Length werkzeug refuses it up front; a chunked body (gunicorn passes those on)
    is read up to the limit and then ends as if it were complete: a CSV import would store
    the players of its first 2 MB and a cut-off name. A body that fills the limit is one
    that did not fit."""

    def get_data(self, cache=True, as_text=False, parse_form_data=False):
        data = super().get_data(cache=cache, as_text=False, parse_form_data=parse_form_data)
        limit = self.max_content_length
        if limit is not None and self.content_length is None and len(data) >= limit:
            raise RequestEntityTooLarge()
        return data.decode(errors="replace") if as_text else data


class PwaPathConverter(PathConverter):
    """A path outside /api. The PWA's catch-all must not match API addresses: it would answer
    GET on a POST-only resource with a 404 instead of a 405, and put GET in its Allow. Nor
    a NUL: looking for a file named with one was a 500."""

    regex = r"(?!api(?:/|$))[^/\x00][^\x00]*?"  # no NUL either: a file name cannot hold one


def init_web(app: Flask) -> None:
    pwa = Path(app.config["PWA_DIR"])
    app.request_class = BoundedRequest
    app.url_map.converters["pwa_path"] = PwaPathConverter
    origins = {o.strip() for o in app.config.get("CORS_ORIGINS", "").split(",") if o.strip()}

    @app.get("/api/docs/redoc.standalone.js")
    def redoc_script():
        # ReDoc, vendored (see api/static/redoc/README): the docs page loads nothing remote.
        response = send_from_directory(Path(__file__).parent / "static" / "redoc",
                                       "redoc.standalone.js", max_age=86400)
        return response

    @app.get("/")
    def index():
        return _send(pwa, "index.html")

    @app.get("/<pwa_path:name>")
    def pwa_file(name: str):
        target = (pwa / name).resolve()
        if pwa.resolve() in target.parents and target.is_file():
            return _send(pwa, name)
        if "." not in name.rsplit("/", 1)[-1]:
            # A screen's address (e.g. /e/ABC123/board): the app shell routes it in the browser.
            response = _send(pwa, "index.html")
            if name.startswith("c/") and not clubs.indexable(slug=name.split("/")[1]):
                # A club's pages name its people: not for search engines unless it opts in.
                response.headers["X-Robots-Tag"] = NOINDEX
            return response
        raise Problem(404, f"There is no file /{name}.", code="not-found")

    @app.after_request
    def headers(response):
        h = response.headers
        docs = request.path.startswith("/api/docs")
        h.setdefault("Content-Security-Policy", DOCS_CSP if docs else CSP)
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Referrer-Policy", "no-referrer")
        h.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        if request.path.startswith("/api/"):
            h.setdefault("Cache-Control", "no-cache")
        origin = request.headers.get("Origin")
        if origin and origin in origins:
            h["Access-Control-Allow-Origin"] = origin
            h["Vary"] = "Origin"
            h["Access-Control-Allow-Headers"] = "Authorization, Content-Type, If-Match, " \
                                                "If-None-Match"
            h["Access-Control-Allow-Methods"] = "GET, POST, PUT, PATCH, DELETE"
            h["Access-Control-Expose-Headers"] = "ETag, Location"
        return response


class LearnedHeaders:
    """The headers Flask gave each kind of answer, remembered so that a layer before Flask
    (leaderboard polls, new hands) can give the same kind of answer with exactly Flask's
    security and CORS headers. A kind is the layer's key: the status and the request's
    Origin, at least. Bounded: a client inventing Origins cannot grow it for ever."""

    SKIP = ("etag", "content-length")  # each answer's own

    def __init__(self, limit: int = 96):
        self.sets: dict[tuple, list[tuple[str, str]]] = {}
        self.limit = limit

    def get(self, kind: tuple) -> list[tuple[str, str]] | None:
        return self.sets.get(kind)

    def learning(self, start_response, kind_of):
        """start_response for Flask's answer, remembering its headers under
        `kind_of(status code)` (None: not a kind to learn) when it is a plain answer with an
        ETag and sets no cookie."""

        def learn(status, headers, exc_info=None):
            kind = kind_of(status[:3])
            names = [name.lower() for name, _ in headers]
            if kind is not None and exc_info is None and "etag" in names and \
                    "set-cookie" not in names and \
                    (len(self.sets) < self.limit or kind in self.sets):
                self.sets[kind] = [(name, value) for name, value in headers
                                   if name.lower() not in self.SKIP]
            return start_response(status, headers, exc_info)

        return learn


def _send(folder: Path, name: str):
    response = send_from_directory(folder, name, max_age=0)
    # The service worker decides what is cached; the browser must always revalidate.
    response.headers["Cache-Control"] = "no-cache"
    if name == "sw.js":
        response.headers["Service-Worker-Allowed"] = "/"
    return response
