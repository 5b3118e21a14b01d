"""One attempt at a delivery: a signed POST (Standard Webhooks headers), no redirects followed,
no proxy, and a connection only to an address checked as public.

The receiver's name is resolved once per attempt, at connect time, and the connection goes to
the very address that was checked (the name is still sent as Host and, for https, checked
against the certificate). Checking a name and then letting the HTTP library resolve it again
would leave a gap: a name can answer a public address to the check and 127.0.0.1 to the
connection a moment later (DNS rebinding). WEBHOOKS_ALLOW_PRIVATE (a club's own network, the
tests' receiver on 127.0.0.1) lets private addresses through.
"""

from __future__ import annotations

import http.client
import socket
import urllib.error
import urllib.request
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook as Signer

from .registry import private_address

USER_AGENT = "euchre-scorekeeper-webhooks/1"

# The resolver (a name here so that a test can answer for a name of its own).
resolve = socket.getaddrinfo


class PrivateAddress(OSError):
    """The receiver's name resolved to an address inside a network, not the internet."""


def connect_public(address: tuple[str, int], timeout, source_address=None, *,
                   allow_private: bool) -> socket.socket:
    """A TCP connection to `address` (host, port), resolved here once; refused when any
    address the name has is private (unless allowed). Tries each address in turn, as
    socket.create_connection does, but only those it checked."""
    host, port = address
    found = resolve(host, port, type=socket.SOCK_STREAM)
    if not allow_private:
        for *_, sockaddr in found:
            if private_address(sockaddr[0]):
                raise PrivateAddress(f"{host} resolves to a private address ({sockaddr[0]}); "
                                     "not sent")
    error: OSError | None = None
    for *_, sockaddr in found:
        try:
            return socket.create_connection(sockaddr[:2], timeout, source_address)
        except OSError as failed:
            error = failed
    raise error or OSError(f"{host} has no address")


class Pinned:
    """An http.client connection whose socket comes from connect_public."""

    def __init__(self, *args, allow_private: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = lambda address, timeout, source=None: connect_public(
            address, timeout, source, allow_private=allow_private)


class PinnedHTTP(Pinned, http.client.HTTPConnection):
    pass


class PinnedHTTPS(Pinned, http.client.HTTPSConnection):
    pass


class PinnedHandler(urllib.request.HTTPHandler, urllib.request.HTTPSHandler):
    """Opens http and https URLs with the pinned connections."""

    def __init__(self, allow_private: bool):
        urllib.request.HTTPHandler.__init__(self)
        urllib.request.HTTPSHandler.__init__(self)
        self.allow_private = allow_private

    def http_open(self, req):
        return self.do_open(PinnedHTTP, req, allow_private=self.allow_private)

    def https_open(self, req):
        return self.do_open(PinnedHTTPS, req, context=self._context,
                            allow_private=self.allow_private)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not followed: it could point anywhere (inside the network)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def opener(allow_private: bool) -> urllib.request.OpenerDirector:
    # ProxyHandler({}): no proxy from the environment (a proxy would connect for us, past
    # the address check).
    return urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirects,
                                       PinnedHandler(allow_private))


OPENERS = {allowed: opener(allowed) for allowed in (False, True)}


def headers(secret: str, msg_id: str, body: str, when: datetime | None = None) -> dict:
    """The Standard Webhooks headers for one attempt (the timestamp is the attempt's)."""
    when = when or datetime.now(UTC)
    return {"webhook-id": msg_id, "webhook-timestamp": str(int(when.timestamp())),
            "webhook-signature": Signer(secret).sign(msg_id, when, body),
            "content-type": "application/json", "user-agent": USER_AGENT}


def send(url: str, secret: str, msg_id: str, body: str, timeout: float,
         allow_private: bool) -> tuple[bool, int | None, str | None]:
    """One attempt: (delivered, the HTTP status if any, what went wrong)."""
    try:
        request = urllib.request.Request(url, data=body.encode(), method="POST",
                                         headers=headers(secret, msg_id, body))
        with OPENERS[bool(allow_private)].open(request, timeout=timeout) as answer:
            answer.read(4096)
            return 200 <= answer.status < 300, answer.status, None
    except urllib.error.HTTPError as error:
        error.close()
        return False, error.code, f"HTTP {error.code}"
    except Exception as error:  # noqa: BLE001 (any failure is an attempt failed, logged)
        reason = getattr(error, "reason", None) or error
        return False, None, f"{type(error).__name__}: {reason}"[:300]
