"""Domain exceptions: what the rules refuse, in words a runner or organizer can act on."""


class RuleError(Exception):
    """Something the rules of the event do not allow.

    `message` is written for the person at the table or the organizer's desk.
    `kind` tells an outer layer how to report it without knowing euchre:
    "invalid" (the request itself makes no sense) or "conflict" (it made sense,
    but not in the event's current state).
    """

    kind = "invalid"
    code = "rule-violation"

    def __init__(self, message: str, **details):
        super().__init__(message)
        self.message = message
        self.details = details

    def __str__(self) -> str:
        return self.message


class InvalidPreset(RuleError):
    """A custom format whose parameters do not fit together."""

    code = "invalid-preset"


class IllegalHand(RuleError):
    """A hand that cannot have happened (e.g. six tricks, a loner with no maker)."""

    code = "illegal-hand"


class GameOver(RuleError):
    """A hand entered after the game ended."""

    kind = "conflict"
    code = "game-over"


class GameNotOver(RuleError):
    """Something that needs a finished game (a tie settlement, a sign-off) asked too early."""

    kind = "conflict"
    code = "game-not-over"


class ImplausibleSheet(RuleError):
    """A game sheet (final points and bumps) that no sequence of hands could give."""

    code = "implausible-sheet"


class SeatingError(RuleError):
    """A field that cannot be seated or moved as the format requires."""

    kind = "conflict"
    code = "seating"


class StandingsError(RuleError):
    """Standings or a tie-break asked for with data that does not fit."""

    code = "standings"
