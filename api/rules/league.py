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


def offence_consequence(preset: Preset, offence: int) -> str:
    """What the team's offence number `offence` (1 for the first) costs it, in words."""
    if offence >= preset.offences_to_remove:
        return "removed from the league; its later matches are forfeit wins for its opponents"
    if offence >= preset.offences_to_flag:
        return ("loss of the games, and the team may be removed from the playoffs (the "
                "organizer decides)")
    return "loss of the games"


def offence_status(preset: Preset, offences: int) -> OffenceStatus:
    """Each week with a forfeit is one offence: the first costs the games, a later one flags
    the team for playoff removal (the organizer decides), and then it is removed."""
    if offences <= 0:
        return OffenceStatus(0, OK, "No forfeits.")
    status = (REMOVED if offences >= preset.offences_to_remove else
              FLAGGED if offences >= preset.offences_to_flag else LOSS_OF_GAMES)
    return OffenceStatus(offences, status,
                         f"Offence {offences}: {offence_consequence(preset, offences)}.")


@dataclass(frozen=True)
class OffenceWeeks:
    """A team's weeks with a forfeit, in the order they count as offences (the first is
    offence 1), and how many of them count now."""

    order: tuple[int, ...]
    counted: int

    def offence_of(self, week: int) -> int:
        """The offence a week's forfeit is (or will be, once its week starts)."""
        return self.order.index(week) + 1

    @property
    def ahead(self) -> tuple[int, ...]:
        """The weeks forfeited ahead that have not started: not offences yet."""
        return self.order[self.counted:]


def offence_weeks(weeks, started, play_order) -> OffenceWeeks:
    """A week's forfeit is an offence once the week has started: a forfeit announced ahead
    ("we will miss weeks 5, 8 and 11") is not one before its night, so the team plays the
    weeks in between as a team in good standing. The started weeks count first, then those
    to come in the order they will be played (`play_order`: week numbers; a number not in it,
    a playoff round, comes after the season's weeks)."""
    place = {week: i for i, week in enumerate(play_order)}
    order = tuple(sorted(set(weeks), key=lambda week: (week not in started,
                                                       place.get(week, len(place) + week))))
    return OffenceWeeks(order, sum(1 for week in order if week in started))


def week_offence_words(preset: Preset, weeks: OffenceWeeks, week: int, label: str) -> str:
    """The offence a week's forfeit is, in words: "Offence 2: ..." once the week has started,
    else "Week 8 (forfeited ahead) becomes offence 2 when it starts: ..."."""
    offence = weeks.offence_of(week)
    if week not in weeks.ahead:
        return offence_status(preset, offence).message
    return (f"{label} (forfeited ahead) becomes offence {offence} when it starts: "
            f"{offence_consequence(preset, offence)}.")


def ahead_words(preset: Preset, weeks: OffenceWeeks, labels: dict[int, str]) -> str:
    """The forfeits announced for weeks not started yet, each with the offence it becomes
    when its week starts; empty when there are none."""
    return " ".join(week_offence_words(preset, weeks, week, labels.get(week, f"Week {week}"))
                    for week in weeks.ahead)


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
