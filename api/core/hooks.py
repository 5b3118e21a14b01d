"""Hooks: how an area tells an area above it that something happened, without importing it.

The area below declares the hook and runs it where the thing happens; the area above adds its
listener when the app is built (the `connect()` of its package, called by `create_app`). So the
imports keep running one way: the area that announces knows the hook, never who listens.
"""

from __future__ import annotations

from collections.abc import Callable


class Hook:
    """Listeners called in the order they were added, each once however often it is added
    (the app may be built more than once in a process)."""

    def __init__(self, what: str):
        self.what = what
        self.listeners: list[Callable] = []

    def listen(self, listener: Callable) -> Callable:
        if listener not in self.listeners:
            self.listeners.append(listener)
        return listener

    def __call__(self, *args) -> None:
        for listener in self.listeners:
            listener(*args)

    def __repr__(self) -> str:
        return f"<Hook {self.what}: {len(self.listeners)} listening>"


# News someone outside may want (webhooks): `NEWS(event_id, [(kind, data), ...])`, run by the
# area where it happens, in the transaction of the change, before its commit; the webhooks'
# outbox (api/webhooks/outbox.py) writes its delivery rows in that transaction, so a change
# committed always has them and one rolled back never does. The kinds, with the data each
# carries, are listed in docs/webhooks.md.
NEWS = Hook("news for webhooks, in the transaction of the change")
