"""The deliverer: sends the outbox's rows, off every request, and survives restarts and kills.

Endpoints are independent: a receiver that is slow or dead holds up its own deliveries only.
`run` keeps SENDERS sender threads; whenever one is free it claims the due rows of one more
webhook (up to PER_ENDPOINT of them, oldest first), skipping every webhook that has a
delivery in flight (leased) anywhere, so no webhook takes two senders, and hands them to the
free sender, which sends them in order, each with a short timeout. When one gets no answer
at all (no connection, the timeout), the rest of its group are not sent this time (failed
attempts like it), and the webhook's other due rows wait for the same back-off (no attempt
counted): a dead receiver costs a sender one timeout a back-off, not one a message.

A claim is one short transaction: each row leased (a token and a time until which nobody
else takes it), the attempt counted, committed before anything is sent. Outcomes are written
together when the group is done, only while the lease is still the claimer's. A process
killed mid-send leaves rows leased: once the lease runs out another deliverer takes them
again, with the same message id and body, so a receiver may get a message twice (at least
once), never without its id. On PostgreSQL the claim skips rows another deliverer holds
(FOR UPDATE SKIP LOCKED); on SQLite the claim's transaction holds the write lock (BEGIN
IMMEDIATE), so claims are one at a time there.

A failed attempt (no answer, an answer other than 2xx) is tried again after a back-off that
doubles each time, with jitter (half of it random), until WEBHOOKS_MAX_ATTEMPTS; then the
row is marked failed (the console's log shows it, with "retry now").

Where it runs: a thread in each gunicorn worker (`start_thread`, from gunicorn.conf.py, unless
WEBHOOKS_DELIVER=off), and/or `flask webhooks-deliver` as a process of its own. Sending itself
(signing, the address check pinned to the connection) is in sending.py.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from itertools import groupby

from sqlalchemy import or_, select, update

from ..core.db import db
from ..core.models import Webhook, WebhookDelivery, utcnow
from .outbox import written
from .sending import send

log = logging.getLogger(__name__)

BATCH = 20  # rows looked at by one claim
SENDERS = 4  # sender threads of one deliverer: this many endpoints at once
PER_ENDPOINT = 5  # rows of one webhook claimed together (fewer if the lease is short)
IDLE_SECONDS = 0.5


def settings(app) -> dict:
    config = app.config
    return {"timeout": float(config.get("WEBHOOKS_TIMEOUT_SECONDS", 5)),
            "lease": float(config.get("WEBHOOKS_LEASE_SECONDS", 60)),
            "max_attempts": int(config.get("WEBHOOKS_MAX_ATTEMPTS", 8)),
            "retry": float(config.get("WEBHOOKS_RETRY_SECONDS", 10)),
            "retry_max": float(config.get("WEBHOOKS_RETRY_MAX_SECONDS", 3600)),
            "allow_private": bool(config.get("WEBHOOKS_ALLOW_PRIVATE"))}


def per_endpoint(conf: dict) -> int:
    """Rows of one webhook a claim takes: all of them sent to a receiver that uses the whole
    timeout on each still end within half the lease (else another deliverer could take them
    again while this one is still sending)."""
    return max(1, min(PER_ENDPOINT, int(conf["lease"] / 2 // max(conf["timeout"], 0.001))))


def back_off(attempts: int, base: float, most: float) -> float:
    """Seconds before the next attempt after `attempts` failed: base, 2 x base, 4 x base, ...
    up to `most`, the second half of it random (so receivers coming back are not hit by
    every delivery at once)."""
    full = min(most, base * 2 ** max(0, attempts - 1))
    return full / 2 + random.uniform(0, full / 2)


def claim(endpoints: int, lease_seconds: float, rows_each: int = PER_ENDPOINT
          ) -> tuple[str, list[list]]:
    """Lease the due rows of up to `endpoints` webhooks, at most `rows_each` rows of each,
    none of a webhook with a delivery in flight: (the lease's token, the rows grouped by
    webhook, each with its webhook's URL and secret). Committed before anything is sent."""
    now = utcnow()
    token = secrets.token_hex(8)
    in_flight = select(WebhookDelivery.webhook_id).where(
        WebhookDelivery.status == "pending", WebhookDelivery.lease_until >= now)
    due = (select(WebhookDelivery.id, WebhookDelivery.webhook_id)
           .where(WebhookDelivery.status == "pending", WebhookDelivery.next_at <= now,
                  or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now),
                  WebhookDelivery.webhook_id.not_in(in_flight))
           .order_by(WebhookDelivery.next_at, WebhookDelivery.id).limit(BATCH)
           .with_for_update(skip_locked=True))
    try:
        taken: dict[int, list[int]] = {}
        for row_id, webhook_id in db.session.execute(due):
            group = taken.get(webhook_id)
            if group is None and len(taken) < endpoints:
                group = taken[webhook_id] = []
            if group is not None and len(group) < rows_each:
                group.append(row_id)
        ids = [row_id for group in taken.values() for row_id in group]
        if not ids:
            return token, []
        db.session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(ids)).values(
            lease=token, lease_until=now + timedelta(seconds=lease_seconds),
            attempts=WebhookDelivery.attempts + 1))
        rows = db.session.execute(
            select(WebhookDelivery.id, WebhookDelivery.webhook_id, WebhookDelivery.msg_id,
                   WebhookDelivery.body, WebhookDelivery.attempts, Webhook.url,
                   Webhook.secret, Webhook.deleted_at)
            .join(Webhook).where(WebhookDelivery.lease == token)
            .order_by(WebhookDelivery.webhook_id, WebhookDelivery.next_at,
                      WebhookDelivery.id)).all()
        db.session.commit()
        return token, [list(group) for _, group in groupby(rows, lambda r: r.webhook_id)]
    finally:
        db.session.rollback()


def finish(delivery_id: int, attempts: int, token: str,
           outcome: tuple[bool, int | None, str | None], conf: dict) -> str:
    """Write an attempt's outcome, only if the row is still leased to this claim (in the
    caller's transaction: a group's outcomes are committed together)."""
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


def postpone(webhook_id: int, attempts: int, conf: dict) -> None:
    """The receiver did not answer: its other due deliveries (not claimed) wait for the same
    back-off, no attempt counted, so a dead receiver costs one timeout a back-off, not one
    for every PER_ENDPOINT messages queued for it."""
    now = utcnow()
    later = now + timedelta(seconds=back_off(attempts, conf["retry"], conf["retry_max"]))
    db.session.execute(update(WebhookDelivery).where(
        WebhookDelivery.webhook_id == webhook_id, WebhookDelivery.status == "pending",
        WebhookDelivery.next_at < later,
        or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now))
        .values(next_at=later))


def send_group(app, token: str, rows: list, conf: dict) -> int:
    """Send one webhook's claimed rows in order and write their outcomes. After an attempt
    that got no answer the rest are not sent: the receiver is away, each is a failed
    attempt like it."""
    outcomes, away, tried = [], None, 0
    for row in rows:
        if row.deleted_at is not None:
            outcome = (False, None, "webhook deleted")
        elif away is not None:
            outcome = (False, None, f"not sent: the receiver did not answer ({away})"[:300])
        else:
            outcome = send(row.url, row.secret, row.msg_id, row.body, conf["timeout"],
                           conf["allow_private"])
            if outcome[1] is None and not outcome[0]:
                away, tried = outcome[2], row.attempts
        outcomes.append(outcome)
    with app.app_context():
        try:  # the group's outcomes in one transaction: one commit, not one a delivery
            for row, outcome in zip(rows, outcomes, strict=True):
                # A deleted webhook's delivery is not tried again.
                attempts = conf["max_attempts"] if row.deleted_at is not None else row.attempts
                finish(row.id, attempts, token, outcome, conf)
            if away is not None:
                postpone(rows[0].webhook_id, tried, conf)
            db.session.commit()
        finally:
            db.session.rollback()
    return len(rows)


def deliver_due(app) -> int:
    """One round in this thread: every due row claimed (of webhooks not in flight), sent
    endpoint after endpoint, outcomes written. Returns how many were claimed (0: nothing
    was due). `flask webhooks-deliver --once` and the tests use it; `run` sends in parallel."""
    conf = settings(app)
    with app.app_context():
        token, groups = claim(BATCH, conf["lease"], per_endpoint(conf))
    return sum(send_group(app, token, group, conf) for group in groups)


def run(app, stop: threading.Event, idle: float = IDLE_SECONDS) -> None:
    """Deliver until `stop` is set. Whenever a sender is free, the due rows of as many more
    webhooks are claimed and handed out, one webhook to a sender; a sender stuck on a slow
    receiver leaves the others to go on. With nothing to claim, a wait of `idle` seconds
    (cut short when this process writes a delivery row or a sender finishes)."""
    conf = settings(app)
    rows_each = per_endpoint(conf)
    busy: set = set()
    with ThreadPoolExecutor(SENDERS, thread_name_prefix="webhook-send") as pool:
        while not stop.is_set():
            busy = {future for future in busy if not future.done()}
            groups: list = []
            if len(busy) < SENDERS:
                try:
                    with app.app_context():
                        token, groups = claim(SENDERS - len(busy), conf["lease"], rows_each)
                except Exception:  # the database away a moment: try again after a wait
                    log.exception("webhook delivery claim failed")
            for group in groups:
                future = pool.submit(send_group, app, token, group, conf)
                future.add_done_callback(_sent)
                busy.add(future)
            if not groups:
                written.wait(idle)
                written.clear()
    # (Leaving the pool waited for the senders still sending: their outcomes are written.)
    with app.app_context():
        db.session.remove()


def _sent(future) -> None:
    """A sender is done: the loop looks again at once (a sender is free)."""
    if future.exception() is not None:  # the database away while writing its outcomes
        log.error("webhook sender failed", exc_info=future.exception())
    written.set()


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
