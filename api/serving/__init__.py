"""The speed tricks, in one place: what the app does only to be fast, above the routes.

Three WSGI layers before Flask, outermost first, wired by `wrap` (called by the app factory):

- `writes.WritesFirst`: writes counted while answered, so that board builds give way to them;
- `polls.LeaderboardPolls`: a leaderboard poll answered from one small query (304, or the
  board already built for the revision);
- `hands.HandPosts`: a new hand or a first game sheet answered without Flask's request.

And what gunicorn.conf.py does to each worker (`worker.py`): the interpreter's switch interval,
the collector's freeze and threshold, glibc's allocator, the warm-up; and gunicorn's own
error answers as problem+json.

Each module says beside each trick the need that was measured and the benchmark that shows
it; `python -m bench tricks` prices them all in one run, each switched off in turn
(SERVING_OFF, read in switches.py). Nothing below this package imports it; it imports the
routes and the leaderboard, never the other way. Importing the package builds nothing:
gunicorn.conf.py imports it in the master, before the fork.
"""

from __future__ import annotations


def wrap(app) -> None:
    """Put the layers switched on around the app's WSGI callable."""
    from .switches import on

    wsgi_app = app.wsgi_app
    if on("hand_posts"):
        from .hands import HandPosts

        wsgi_app = HandPosts(app, wsgi_app)
    if on("polls"):
        from .polls import LeaderboardPolls

        wsgi_app = LeaderboardPolls(app, wsgi_app)
    if on("writes_first"):
        from .writes import WritesFirst

        wsgi_app = WritesFirst(wsgi_app)
    app.wsgi_app = wsgi_app
