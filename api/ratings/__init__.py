"""A club's ratings (RULES.md section 8): Weng-Lin with the two players of a side as a team,
one update per rated game in play order (weighed by its score), kept per person and night,
re-rated from the first night a change touched."""


def connect() -> None:
    """Listen to a club's night finishing (night sits below and imports nothing of this
    area): its games are rated (or re-rated from its first game on) at once, so the night's
    recap and the next read find them. Called by create_app."""
    from ..night import events
    from .rerate import after_night_finished

    events.CLUB_NIGHT_FINISHED.listen(after_night_finished)
