"""Webhooks: URLs an organizer (for an event) or a club (for all its events) registers to be
told of the news (hands stored, games agreed, rounds closed, nights finished, standings
changed, mismatches, calls), through a durable outbox in the database (docs/webhooks.md)."""


def connect() -> None:
    """Listen to the news the areas below announce (`core.hooks.NEWS`, run in the
    transaction of each change) and to a night's status being set. Called by create_app."""
    from ..core.hooks import NEWS
    from ..night import events
    from .outbox import listen, night_finished

    NEWS.listen(listen)
    events.STATUS_SET.listen(night_finished)
