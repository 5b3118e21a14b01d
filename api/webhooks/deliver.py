"""The deliverer: sends the outbox's rows, off every request, and survives restarts and kills.

A round (`deliver_due`): claim up to BATCH due rows in one short transaction (a lease: a token
and a time until which nobody else takes them, the attempt counted), commit, send them (a few
at once, each with a short timeout, signed per the Standard Webhooks scheme), then write each
outcome in a transaction of its own, only while the lease is still the claimer's. A process
killed mid-send leaves rows leased: once the lease runs out another deliverer takes them
again, with the same message id and body, so a receiver may get a message twice (at least
once), never without its id. On PostgreSQL the claim skips rows another deliverer holds
(FOR UPDATE SKIP LOCKED); on SQLite the claim's transaction holds the write lock (BEGIN
IMMEDIATE), so claims are one at a time there.

A failed attempt (no answer, an answer other than 2xx) is tried again after a back-off that
doubles each time, with jitter (half of it random), until WEBHOOKS_MAX_ATTEMPTS; then the
row is marked failed (the console's log shows it, with "retry now").

Where it runs: a thread in each gunicorn worker (`start_thread`, from gunicorn.conf.py, unless
WEBHOOKS_DELIVER=off), and/or `flask webhooks-deliver` as a process of its own.
"""

from __future__ import annotations

import logging
import random
import secrets
import socket
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from sqlalchemy import or_, select, update
from standardwebhooks.webhooks import Webhook as Signer

from ..core.db import db
from ..core.models import Webhook, WebhookDelivery, utcnow
from .outbox import written
from .registry import private_address

log = logging.getLogger(__name__)

BATCH = 20
SENDERS = 4
IDLE_SECONDS = 0.5
USER_AGENT = "euchre-scorekeeper-webhooks/1"


def settings(app) -> dict:
    config = app.config
    return {"timeout": float(config.get("WEBHOOKS_TIMEOUT_SECONDS", 5)),
            "lease": float(config.get("WEBHOOKS_LEASE_SECONDS", 60)),
            "max_attempts": int(config.get("WEBHOOKS_MAX_ATTEMPTS", 8)),
            "retry": float(config.get("WEBHOOKS_RETRY_SECONDS", 10)),
            "retry_max": float(config.get("WEBHOOKS_RETRY_MAX_SECONDS", 3600)),
            "allow_private": bool(config.get("WEBHOOKS_ALLOW_PRIVATE"))}


def back_off(attempts: int, base: float, most: float) -> float:
    """Seconds before the next attempt after `attempts` failed: base, 2 x base, 4 x base, ...
    up to `most`, the second half of it random (so receivers coming back are not hit by
    every delivery at once)."""
    full = min(most, base * 2 ** max(0, attempts - 1))
    return full / 2 + random.uniform(0, full / 2)


def claim(limit: int, lease_seconds: float) -> tuple[str, list]:
    """Lease up to `limit` due rows: (the lease's token, the rows with their webhook's URL
    and secret). Committed before anything is sent."""
    now = utcnow()
    token = secrets.token_hex(8)
    due = (select(WebhookDelivery.id)
           .where(WebhookDelivery.status == "pending", WebhookDelivery.next_at <= now,
                  or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now))
           .order_by(WebhookDelivery.next_at, WebhookDelivery.id).limit(limit)
           .with_for_update(skip_locked=True))
    try:
        ids = list(db.session.execute(due).scalars())
        if not ids:
            return token, []
        db.session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(ids)).values(
            lease=token, lease_until=now + timedelta(seconds=lease_seconds),
            attempts=WebhookDelivery.attempts + 1))
        rows = db.session.execute(
            select(WebhookDelivery.id, WebhookDelivery.msg_id, WebhookDelivery.body,
                   WebhookDelivery.attempts, Webhook.url, Webhook.secret, Webhook.deleted_at)
            .join(Webhook).where(WebhookDelivery.lease == token)).all()
        db.session.commit()
        return token, rows
    finally:
        db.session.rollback()


def headers(secret: str, msg_id: str, body: str, when: datetime | None = None) -> dict:
    """The Standard Webhooks headers for one attempt (the timestamp is the attempt's)."""
    when = when or datetime.now(UTC)
    return {"webhook-id": msg_id, "webhook-timestamp": str(int(when.timestamp())),
            "webhook-signature": Signer(secret).sign(msg_id, when, body),
            "content-type": "application/json", "user-agent": USER_AGENT}


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not followed: it could point anywhere (inside the network)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


OPENER = urllib.request.build_opener(NoRedirects)


def check_target(url: str) -> None:
    """Refuse to connect where the name resolves to a private address (WEBHOOKS_ALLOW_PRIVATE
    off): a public name may point inside the network."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    for info in socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP):
        if private_address(info[4][0]):
            raise ValueError(f"{parts.hostname} resolves to a private address "
                             f"({info[4][0]}); not sent")


def send(url: str, secret: str, msg_id: str, body: str, timeout: float,
         allow_private: bool) -> tuple[bool, int | None, str | None]:
    """One attempt: (delivered, the HTTP status if any, what went wrong)."""
    try:
        if not allow_private:
            check_target(url)
        request = urllib.request.Request(url, data=body.encode(), method="POST",
                                         headers=headers(secret, msg_id, body))
        with OPENER.open(request, timeout=timeout) as answer:
            answer.read(4096)
            return 200 <= answer.status < 300, answer.status, None
    except urllib.error.HTTPError as error:
        error.close()
        return False, error.code, f"HTTP {error.code}"
    except Exception as error:  # noqa: BLE001 (any failure is an attempt failed, logged)
        reason = getattr(error, "reason", None) or error
        return False, None, f"{type(error).__name__}: {reason}"[:300]


def finish(delivery_id: int, attempts: int, token: str,
           outcome: tuple[bool, int | None, str | None], conf: dict) -> str:
    """Write an attempt's outcome, only if the row is still leased to this claim (in the
    caller's transaction: a round's outcomes are committed together)."""
    ok, status, error = outcome
    now = utcnow()
    values = {"lease": None, "lease_until": None, "last_status": status, "last_error": error}
    if ok:
        values.update(status="delivered", delivered_at=now, last_error=None)
    elif attempts >= conf["max_attempts"]:
        values.update(status="failed")
    else:
        values.update(next_at=now + timedelta(
            seconds=back_off(attempts, conf["retry"], conf["retry_max"])))
    db.session.execute(update(WebhookDelivery).where(
        WebhookDelivery.id == delivery_id, WebhookDelivery.lease == token).values(values))
    return values.get("status", "pending")


def deliver_due(app, pool: ThreadPoolExecutor | None = None) -> int:
    """One round: the due rows claimed, sent and their outcomes written. Returns how many
    were claimed (0: nothing was due)."""
    conf = settings(app)
    with app.app_context():
        token, rows = claim(BATCH, conf["lease"])
        if not rows:
            return 0

        def attempt(row):
            if row.deleted_at is not None:
                return False, None, "webhook deleted"
            return send(row.url, row.secret, row.msg_id, row.body, conf["timeout"],
                        conf["allow_private"])

        outcomes = list(pool.map(attempt, rows)) if pool else [attempt(r) for r in rows]
        try:  # the round's outcomes in one transaction: one commit, not one a delivery
            for row, outcome in zip(rows, outcomes, strict=True):
                # A deleted webhook's delivery is not tried again.
                attempts = conf["max_attempts"] if row.deleted_at is not None else row.attempts
                finish(row.id, attempts, token, outcome, conf)
            db.session.commit()
        finally:
            db.session.rollback()
        return len(rows)


def run(app, stop: threading.Event, idle: float = IDLE_SECONDS) -> None:
    """Deliver until `stop` is set: a round, then another at once while rows were due, else
    a wait of `idle` seconds (shorter when this process wrote a delivery row)."""
    with ThreadPoolExecutor(SENDERS, thread_name_prefix="webhook-send") as pool:
        while not stop.is_set():
            try:
                claimed = deliver_due(app, pool)
            except Exception:  # the database away a moment: try again after a wait
                log.exception("webhook delivery round failed")
                claimed = 0
            if not claimed:
                written.wait(idle)
                written.clear()
        with app.app_context():
            db.session.remove()


def start_thread(app) -> tuple[threading.Thread, threading.Event] | None:
    """The deliverer as a daemon thread of this process (a gunicorn worker), unless
    WEBHOOKS_DELIVER is "off" (deliveries then wait for `flask webhooks-deliver`)."""
    if str(app.config.get("WEBHOOKS_DELIVER", "thread")).lower() == "off":
        return None
    stop = threading.Event()
    thread = threading.Thread(target=run, args=(app, stop), name="webhook-deliverer",
                              daemon=True)
    thread.start()
    return thread, stop
