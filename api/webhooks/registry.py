"""Registering webhooks (an organizer for an event, a club for all its events), their secrets,
and the log of their deliveries with "retry now".

A URL is refused unless it is http(s) to a host on the internet: a webhook to the server's own
network (localhost, 10.x, 192.168.x, link-local, ...) would let whoever holds a key make the
server call inside it. WEBHOOKS_ALLOW_PRIVATE (for tests and a club's own LAN) allows them.
The names are checked here; the deliverer checks the addresses a name resolves to before
each attempt (deliver.py)."""

from __future__ import annotations

import base64
import ipaddress
import secrets
from urllib.parse import urlsplit

from flask import current_app
from sqlalchemy import func, select, update

from ..core.db import db
from ..core.errors import Conflict, Invalid, not_found
from ..core.models import Webhook, WebhookDelivery, utcnow
from .outbox import KINDS, forget_subscriptions

# Webhooks one event (or one club) may have at once.
MAX_WEBHOOKS = 10
MAX_URL = 500


def new_secret() -> str:
    """A Standard Webhooks secret: whsec_ and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def private_allowed() -> bool:
    return bool(current_app.config.get("WEBHOOKS_ALLOW_PRIVATE"))


def private_address(address: str) -> bool:
    """Whether an IP address is not on the internet: loopback, private, link-local, ..."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def check_url(url: str, allow_private: bool) -> str:
    """The URL, stripped, or Invalid with what is wrong."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port that is not a number, or past 65535, raises)
    except ValueError:  # "http://[::1", "http://host:99999"
        raise Invalid("The URL cannot be read (its host or port); write it as "
                      "https://host/path.", code="webhook-url",
                      errors={"url": ["not a URL"]}) from None
    if len(url) > MAX_URL:
        raise Invalid(f"The URL is {len(url)} characters long; at most {MAX_URL}.",
                      code="webhook-url", errors={"url": ["too long"]})
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Invalid("A webhook's URL must be http:// or https:// with a host name, e.g. "
                      "https://example.org/euchre-hook.", code="webhook-url",
                      errors={"url": ["not an http(s) URL"]})
    if parts.username or parts.password:
        raise Invalid("Put no user name or password in a webhook's URL: each delivery is "
                      "signed, and the receiver checks the signature.", code="webhook-url",
                      errors={"url": ["credentials in the URL"]})
    host = parts.hostname.lower().rstrip(".")
    if not allow_private:
        try:
            private = private_address(host)
        except ValueError:  # a name, not an address
            private = host == "localhost" or host.endswith((".localhost", ".local",
                                                            ".internal", ".lan", ".home.arpa"))
        if private:
            raise Invalid(f"'{parts.hostname}' is not on the internet (a local or private "
                          "address): webhooks go to public addresses only.",
                          code="webhook-private-address", errors={"url": ["private address"]})
    return url


def check_kinds(kinds: list[str] | None) -> list[str]:
    if not kinds:
        return list(KINDS)
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise Invalid(f"Unknown kind(s) of news: {', '.join(unknown)}. The kinds are "
                      f"{', '.join(KINDS)}.", code="webhook-kinds",
                      errors={"kinds": [f"unknown: {k}" for k in unknown]})
    return [k for k in KINDS if k in kinds]  # in the documented order, once each


def _owner(event_id: int | None, club_id: int | None):
    return (Webhook.event_id == event_id) if event_id is not None else \
        (Webhook.club_id == club_id)


def view(hook: Webhook, *, with_secret: bool = False) -> dict:
    out = {"id": hook.id, "event_id": hook.event_id, "club_id": hook.club_id, "url": hook.url,
           "kinds": list(hook.kinds), "created_at": hook.created_at,
           "rotated_at": hook.rotated_at}
    if with_secret:
        out["secret"] = hook.secret
    return out


def register(url: str, kinds: list[str] | None, *, event_id: int | None = None,
             club_id: int | None = None) -> dict:
    """A new webhook; its answer holds the secret, shown this once."""
    url = check_url(url, private_allowed())
    kinds = check_kinds(kinds)
    count = db.session.scalar(select(func.count()).select_from(Webhook).where(
        _owner(event_id, club_id), Webhook.deleted_at.is_(None)))
    if count >= MAX_WEBHOOKS:
        raise Conflict(f"There are {count} webhooks already, the most one "
                       f"{'event' if event_id is not None else 'club'} may have: delete one "
                       "first.", code="too-many-webhooks")
    hook = Webhook(event_id=event_id, club_id=club_id, url=url, kinds=kinds,
                   secret=new_secret(), created_at=utcnow())
    db.session.add(hook)
    db.session.commit()
    forget_subscriptions()
    return view(hook, with_secret=True)


def webhooks(*, event_id: int | None = None, club_id: int | None = None) -> list[dict]:
    rows = db.session.execute(select(Webhook).where(
        _owner(event_id, club_id), Webhook.deleted_at.is_(None)).order_by(Webhook.id)).scalars()
    return [view(hook) for hook in rows]


def webhook(webhook_id: int) -> Webhook:
    hook = db.session.get(Webhook, webhook_id)
    if hook is None or hook.deleted_at is not None:
        raise not_found(f"Webhook {webhook_id}")
    return hook


def delete(webhook_id: int) -> None:
    """No more deliveries to it: marked deleted (its log goes with it from the lists), its
    waiting deliveries dropped."""
    hook = webhook(webhook_id)
    hook.deleted_at = utcnow()
    db.session.execute(update(WebhookDelivery).where(
        WebhookDelivery.webhook_id == webhook_id, WebhookDelivery.status == "pending")
        .values(status="failed", last_error="webhook deleted", lease=None, lease_until=None))
    db.session.commit()
    forget_subscriptions()


def rotate(webhook_id: int) -> dict:
    """A new secret, shown this once; deliveries from now on are signed with it."""
    hook = webhook(webhook_id)
    hook.secret, hook.rotated_at = new_secret(), utcnow()
    answer = view(hook, with_secret=True)
    db.session.commit()
    return answer


def sending(row: WebhookDelivery) -> bool:
    """Claimed by a deliverer and not yet answered (its lease running): in flight."""
    return row.status == "pending" and row.lease_until is not None and \
        row.lease_until > utcnow()


def delivery_view(row: WebhookDelivery, url: str) -> dict:
    in_flight = sending(row)
    return {"id": row.id, "webhook_id": row.webhook_id, "url": url, "msg_id": row.msg_id,
            "kind": row.kind, "status": row.status, "attempts": row.attempts,
            "sending": in_flight,
            "next_at": row.next_at if row.status == "pending" and not in_flight else None,
            "last_status": row.last_status, "last_error": row.last_error,
            "created_at": row.created_at, "delivered_at": row.delivered_at,
            "event_id": row.event_id}


STATUSES = ("pending", "delivered", "failed")


def deliveries(*, event_id: int | None = None, club_id: int | None = None,
               status: str | None = None, limit: int = 100) -> list[dict]:
    """The newest deliveries of the event's (or the club's) webhooks, failures first when
    asked for (`status`)."""
    query = (select(WebhookDelivery, Webhook.url).join(Webhook)
             .where(_owner(event_id, club_id), Webhook.deleted_at.is_(None))
             .order_by(WebhookDelivery.id.desc()).limit(limit))
    if status is not None:
        query = query.where(WebhookDelivery.status == status)
    return [delivery_view(row, url) for row, url in db.session.execute(query)]


def delivery_owner(delivery_id: int) -> tuple[int | None, int | None]:
    """(event id, club id) of the webhook a delivery went to: whose key may retry it."""
    row = db.session.execute(select(Webhook.event_id, Webhook.club_id).join(
        WebhookDelivery, WebhookDelivery.webhook_id == Webhook.id).where(
        WebhookDelivery.id == delivery_id, Webhook.deleted_at.is_(None))).first()
    if row is None:
        raise not_found(f"Delivery {delivery_id}")
    return row.event_id, row.club_id


def webhook_owner(webhook_id: int) -> tuple[int | None, int | None]:
    hook = webhook(webhook_id)
    return hook.event_id, hook.club_id


def redeliver(delivery_id: int) -> dict:
    """Retry now: the same message (same id and body) due at once, whatever it came to; one
    more attempt even after the last one failed."""
    row = db.session.get(WebhookDelivery, delivery_id)
    if row is None:
        raise not_found(f"Delivery {delivery_id}")
    if sending(row):
        raise Conflict("This delivery is being sent right now; look again in a moment.",
                       code="delivery-in-flight")
    row.status, row.next_at, row.lease, row.lease_until = "pending", utcnow(), None, None
    max_attempts = int(current_app.config.get("WEBHOOKS_MAX_ATTEMPTS", 8))
    row.attempts = min(row.attempts, max_attempts - 1)
    url = webhook(row.webhook_id).url
    answer = delivery_view(row, url)
    db.session.commit()
    return answer
