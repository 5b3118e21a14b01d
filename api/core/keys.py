"""Keys: who is asking (a Principal with a role) and minting new keys; long random secrets
stored as digests."""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
from dataclasses import dataclass

from .db import db
from .models import ApiKey, ClubKey

ORGANIZER = "organizer"
RUNNER = "runner"
# A league captain's key: edits its own team's roster and announces its forfeits, nothing else.
TEAM = "team"
KEY_PREFIX = "euk_"


@dataclass(frozen=True)
class Principal:
    """Who is asking: a key of one event with a role, maybe limited to one table."""

    key_id: int
    event_id: int | None  # None for a club key, which reaches every event of its club
    role: str
    table: int | None = None
    club_id: int | None = None  # set for a club key (its role is organizer)
    team_id: int | None = None  # set for a team key (a league captain's)
    # Why the caller makes this change, when it said (the X-Reason header): the organizer's
    # reason for a correction after the table's correction window (games/game_writes.py).
    reason: str | None = None

    @property
    def label(self) -> str:
        if self.club_id is not None:
            return f"club key #{self.key_id}"
        where = f" (table {self.table})" if self.table else ""
        return f"{self.role} key #{self.key_id}{where}"


def client_bucket(address: str | None) -> str:
    """The name a client address is counted under (see client_address)."""
    text = (address or "").strip()
    # Some proxies forward the client's port too ("198.51.100.7:51234", "[2001:db8::1]:443"):
    # counted with it, every new connection would be a new client.
    port = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\](?::\d+)?|([0-9.]+):\d+", text)
    if port:
        text = port.group(1) or port.group(2)
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        # Not an address (a Unix socket's empty one, or whatever a misconfigured proxy
        # forwarded): counted as it is, at a length the limits table stores.
        return (address or "unknown").strip()[:64] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def digest(secret: str) -> str:
    # The secrets are 256-bit random values, so a fast hash is enough: nothing to brute-force.
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def issue_key(event_id: int, role: str, *, table: int | None = None, label: str = "",
              team_id: int | None = None) -> tuple[ApiKey, str]:
    """Create a key; the secret is returned once and only its digest is kept."""
    secret = new_secret()
    key = ApiKey(event_id=event_id, role=role, table=table, label=label,
                 digest=digest(secret), hint=secret[-4:], team_id=team_id)
    db.session.add(key)
    db.session.flush()
    return key, secret


def issue_club_key(club_id: int, label: str = "") -> tuple[ClubKey, str]:
    """Create a club key; the secret is returned once and only its digest is kept."""
    secret = new_secret()
    key = ClubKey(club_id=club_id, label=label, digest=digest(secret), hint=secret[-4:])
    db.session.add(key)
    db.session.flush()
    return key, secret
