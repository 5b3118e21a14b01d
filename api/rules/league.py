"""League forfeits and offences: which games lateness costs, and what repeat forfeits lead to."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleError
from .presets import Preset
from .standings import standings_for

LATE = "late"
NO_SHOW = "no-show"
ONE_PLAYER = "one-player"
REASONS = (LATE, NO_SHOW, ONE_PLAYER)

OK = "ok"
LOSS_OF_GAMES = "loss-of-games"
FLAGGED = "may-be-removed-from-playoffs"
REMOVED = "removed"


def forfeited_games(preset: Preset, reason: str, minutes_late: int | None = None) -> list[int]:
    """The game numbers a team forfeits: late by the preset's step (10 minutes) game 1, twice
    that game 2, three times (or no show, or one player) the whole match."""
    if reason not in REASONS:
        raise RuleError(f"A forfeit is for being '{LATE}' (with minutes), '{NO_SHOW}' or "
                        f"'{ONE_PLAYER}'.")
    games = preset.games_per_match
    if reason in (NO_SHOW, ONE_PLAYER):
        return list(range(1, games + 1))
    if minutes_late is None or minutes_late < 0:
        raise RuleError("Say how many minutes late the team was.")
    steps = minutes_late // preset.forfeit_minutes
    if steps < 1:
        raise RuleError(f"A team forfeits only from {preset.forfeit_minutes} minutes late; "
                        f"{minutes_late} minutes costs nothing.")
    if steps >= games:
        return list(range(1, games + 1))
    return list(range(1, steps + 1))


@dataclass(frozen=True)
class OffenceStatus:
    """Where a team stands after its forfeiting weeks."""

    offences: int
    status: str  # ok, loss-of-games, may-be-removed-from-playoffs, removed
    message: str


def offence_status(preset: Preset, offences: int) -> OffenceStatus:
    """Each week with a forfeit is one offence: the first costs the games, a later one flags
    the team for playoff removal (the organizer decides), and then it is removed."""
    if offences <= 0:
        return OffenceStatus(0, OK, "No forfeits.")
    if offences >= preset.offences_to_remove:
        return OffenceStatus(offences, REMOVED,
                             f"Offence {offences}: removed from the league; its later matches "
                             "are forfeit wins for its opponents.")
    if offences >= preset.offences_to_flag:
        return OffenceStatus(offences, FLAGGED,
                             f"Offence {offences}: loss of the games, and the team may be "
                             "removed from the playoffs (the organizer decides).")
    return OffenceStatus(offences, LOSS_OF_GAMES, f"Offence {offences}: loss of the games.")


def division_standings(preset: Preset, results, teams, division_of: dict, manual=None, *,
                       struck=()) -> list:
    """A league in divisions (RULES.md §6): each division ranked on its own, with its own
    places, ties and prize places (the preset's, for the division's size), since divisions
    play different schedules; no overall place. The divisions follow one another in name
    order, each team keeping its registration order within its division. Playoff results do
    not count, as in any league's standings (a final between division winners included)."""
    out = []
    named = {division_of.get(t) for t in teams}
    for division in sorted(named, key=lambda d: (d is None, d or "")):
        members = [t for t in teams if division_of.get(t) == division]
        mine = set(members)
        out += standings_for(preset, [r for r in results if r.entrant in mine], members,
                             manual, struck=[t for t in struck if t in mine])
    return out
