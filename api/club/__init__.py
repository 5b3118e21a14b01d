"""The club's year: clubs, series, profiles, finishes and a person's data."""


def connect() -> None:
    """Listen to a night finishing (night sits below the club and imports nothing of it): the
    club keeps a finished night's finishes in its row, and the standings of each series whose
    nights are all finished. Called by create_app."""
    from ..night import events
    from .finishes import freeze
    from .series import keep_after_finish

    events.STATUS_SET.listen(freeze)
    events.CLUB_NIGHT_FINISHED.listen(keep_after_finish)
