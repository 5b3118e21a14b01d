"""gunicorn settings: threaded workers, no app or database connection before the fork."""

import os

from gunicorn import glogging, util

from api.serving.worker import answer_errors_as_problems, tune_worker

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# The app is built in each worker, never in the master, so no connection crosses a fork.
preload_app = False
timeout = 30
graceful_timeout = 10
keepalive = 5
# https at the venue (README, "Serving it where the tables are"): a certificate and its key,
# e.g. made with mkcert for the laptop's address. Without them, plain http.
certfile = os.environ.get("TLS_CERT") or None
keyfile = os.environ.get("TLS_KEY") or None
# Keys travel in the Authorization header, never in the URL, and access logs omit headers.
accesslog = "-" if os.environ.get("ACCESS_LOG") else None
# The default format logs the Basic-auth user and the query string: a key sent the wrong way
# (curl -u KEY:, or ?key=KEY) would be written down. This one has neither.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms "%(a)s"'
errorlog = "-"


class OneLineAccessLog(glogging.Logger):
    """The access log with every line one request: the path is logged decoded, so a %0A in
    a URL wrote a line break into the log (a forged second line); control characters are
    written as \\xNN instead."""

    def atoms(self, resp, req, environ, request_time):
        return {name: _one_line(value) if isinstance(value, str) else value
                for name, value in super().atoms(resp, req, environ, request_time).items()}


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)


logger_class = OneLineAccessLog

# gunicorn's own answers (a 400, a 414) as problem+json with the app's security headers.
answer_errors_as_problems(util)


def post_worker_init(worker):
    """The worker's speed tricks and warm-up, once it has built the app (api/serving); then
    its webhook deliverer thread (api/webhooks/deliver.py; WEBHOOKS_DELIVER=off for none)."""
    tune_worker(worker)
    if not hasattr(worker.wsgi, "config"):  # not our Flask app (the bench's static baseline)
        return
    from api.webhooks.deliver import start_thread

    start_thread(worker.wsgi)
