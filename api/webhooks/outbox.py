"""The outbox: a delivery row for each webhook told of a piece of news, written by one
statement in the transaction of the change that made the news (the hook `core.hooks.NEWS`,
run before that change's commit). A hand committed always has its delivery rows; a hand
rolled back never had them. The deliverer (deliver.py) sends them afterwards, off the request.

Whether an event has webhooks at all is read once and kept (`subscriptions`): a hand in an
event nobody subscribed to costs a look in the worker's memory and no statement. What is kept
is forgotten at once in the worker that registers or deletes a webhook, and within
SUBSCRIPTION_SECONDS in the others (a webhook registered in another worker may miss the news
of its first two seconds). The statement itself checks what it writes against the rows (the
webhook still there, still the event's or its club's), so a stale memory never sends news to
a webhook deleted or not the event's.
"""

from __future__ import annotations

import functools
import itertools
import json
import secrets
import threading
import time

from sqlalchemy import Integer, String, Text, bindparam, insert, literal, or_, select, union_all

from ..core.caching import Kept
from ..core.db import db
from ..core.models import Event, Timestamp, Webhook, WebhookDelivery, utcnow

# The kinds of news a webhook may ask for (docs/webhooks.md says what each carries).
KINDS = ("hand.stored", "game.agreed", "round.closed", "night.finished", "standings.changed",
         "mismatch", "call")

SUBSCRIPTION_SECONDS = 2.0

_kept = Kept(4096)
_changes = itertools.count()
_generation = [next(_changes)]
# Set when a delivery row was written in this process: the deliverer thread looks sooner.
written = threading.Event()


def forget_subscriptions() -> None:
    """A webhook was registered or deleted in this worker: what is kept is read again."""
    _generation[0] = next(_changes)


def subscriptions(event_id: int) -> tuple[tuple[int, frozenset], ...]:
    """(webhook id, kinds) of every webhook told of the event's news: its own and its
    club's. Kept per database and event for SUBSCRIPTION_SECONDS at most."""
    stamp = (_generation[0], int(time.monotonic() // SUBSCRIPTION_SECONDS))
    key = (id(db.engine), str(db.engine.url), event_id)
    return _kept.get_or_build(key, lambda: _read(event_id), stamp)


def _owned_by():
    """The webhooks of the event bound as `event`: its own, and its club's; not deleted."""
    hooks, events = Webhook.__table__, Event.__table__
    club = select(events.c.club_id).where(
        events.c.id == bindparam("event")).scalar_subquery()
    return (hooks.c.deleted_at.is_(None),
            or_(hooks.c.event_id == bindparam("event"), hooks.c.club_id == club))


@functools.cache
def subscription_query():
    """Built once, with the event as a bind parameter (`prepare` builds its SQL)."""
    hooks = Webhook.__table__
    return select(hooks.c.id, hooks.c.kinds).where(*_owned_by())


def _read(event_id: int) -> tuple[tuple[int, frozenset], ...]:
    rows = db.session.execute(subscription_query(), {"event": event_id})
    return tuple((row.id, frozenset(row.kinds or ())) for row in rows)


def prepare() -> None:
    """Build the subscription read's SQL before a worker takes hands (serving/hands.py's
    warm-up), as the hand's own statements are: the first hand would pay for it."""
    try:
        db.session.execute(subscription_query(), {"event": 0})
    finally:
        db.session.rollback()


def message(kind: str, data: dict, when=None) -> tuple[str, str]:
    """A new message's id and body: the bytes signed and sent, the same on every attempt."""
    when = when or utcnow()
    body = json.dumps({"type": kind, "timestamp": when.isoformat().replace("+00:00", "Z"),
                       "data": data}, separators=(",", ":"), default=str)
    return "msg_" + secrets.token_hex(12), body


COLUMNS = ("webhook_id", "msg_id", "kind", "body", "status", "attempts", "next_at",
           "created_at", "event_id")


def enqueue(event_id: int, news: list[tuple[str, dict]]) -> int:
    """The delivery rows of `news` ((kind, data) each) for the event's webhooks that asked
    for it, in ONE statement in the caller's transaction; none when nobody asked. Returns
    the number of messages written for (each to one or more webhooks)."""
    subscribed = subscriptions(event_id)
    if not subscribed:
        return 0
    now = utcnow()
    values, messages = {"event": event_id, "now": now}, 0
    for kind, data in news:
        ids = [webhook for webhook, kinds in subscribed if kind in kinds]
        if ids:
            n, messages = messages, messages + 1
            values[f"msg_{n}"], values[f"body_{n}"] = message(kind, data, now)
            values[f"kind_{n}"], values[f"ids_{n}"] = kind, ids
    if messages:
        db.session.execute(insert_statement(messages), values)
        written.set()
    return messages


@functools.cache
def insert_statement(messages: int):
    """The outbox's one insert for `messages` messages (each to the webhooks in `ids_n`),
    built once with bind parameters: building a statement and its cache key costs more than
    running it (8-10 ms a hand on a busy machine when it was built each time)."""
    hooks = Webhook.__table__
    now = bindparam("now", type_=Timestamp)
    selects = [select(hooks.c.id, bindparam(f"msg_{n}", type_=String),
                      bindparam(f"kind_{n}", type_=String), bindparam(f"body_{n}", type_=Text),
                      literal("pending", String), literal(0, Integer), now, now,
                      bindparam("event", type_=Integer))
               .where(hooks.c.id.in_(bindparam(f"ids_{n}", expanding=True)), *_owned_by())
               for n in range(messages)]
    rows = selects[0] if messages == 1 else union_all(*selects)
    table = WebhookDelivery.__table__
    return insert(table).from_select([table.c[name] for name in COLUMNS], rows)


def listen(event_id: int, news: list[tuple[str, dict]]) -> None:
    """`core.hooks.NEWS`'s listener."""
    enqueue(event_id, news)


def night_finished(event) -> None:
    """`night.events.STATUS_SET`'s listener: a night marked finished is news (its final
    standings too)."""
    if event.status == "finished":
        data = {"event_id": event.id, "name": event.name, "status": event.status}
        enqueue(event.id, [("night.finished", data), ("standings.changed",
                                                      {**data, "why": "night finished"})])
