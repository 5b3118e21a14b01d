"""Standings for every format: totals, shared places, tie-breaks, the championship cut, awards."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import StandingsError
from .games import REGULAR
from .matches import week_points
from .presets import Preset


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's part in one game, as the standings need it (slots: a big event's totals
    keep 100,000 of them in memory)."""

    entrant: Any  # a player (individual formats) or a team
    round: int
    points: int  # the points of the entrant's side in that game
    against: int = 0  # the other side's points
    won: bool | None = None  # None while the game is being played
    opponent: Any = None  # the opposing team, in team formats
    partner: Any = None  # the partner, in individual formats (None beside a ghost)
    table: int | None = None
    ghost_table: bool = False
    stage: str = REGULAR
    forfeited: bool = False  # a league game lost or won by forfeit, not played


@dataclass(frozen=True)
class Standing:
    """One row of a leaderboard."""

    entrant: Any
    place: int | None  # None: struck from the places (removed from a league, disqualified)
    total: int
    games_won: int = 0
    games_played: int = 0
    rounds: dict[int, int] = field(default_factory=dict)  # round (or week) -> its score
    shared: bool = False  # shares its place with another row (a tie not yet settled)
    prize: bool = False
    stats: dict[str, Any] = field(default_factory=dict)


def round_score(preset: Preset, result: Result) -> int:
    """A player's score for one round: the side's points, with the ghost minimum once it ends."""
    if (result.ghost_table and preset.ghost_minimum is not None and result.won is not None):
        return max(result.points, preset.ghost_minimum)
    return result.points


def assign_places(
    rows: Sequence[dict],
    key: Callable[[dict], tuple],
    manual: dict[Any, int] | None = None,
) -> list[tuple[dict, int, bool]]:
    """Sort rows by `key` (best first) and give places; equal keys share a place (1, 2, 2, 4).

    `manual` is the organizer's recorded order (entrant -> position) used only to split
    rows whose keys are equal; rows it does not split keep sharing their place.
    """
    manual = manual or {}
    last = float("inf")
    # Each row's key once (a big event ranks 2,000 rows after every hand); the index keeps
    # the sort stable and never compares two rows.
    keyed = sorted(((key(row), manual.get(row["entrant"], last)), index, row)
                   for index, row in enumerate(rows))
    placed = []
    previous = None
    for index, (full_key, _, row) in enumerate(keyed):
        place = placed[-1][1] if index and full_key == previous else index + 1
        previous = full_key
        placed.append((row, place))
    counts = defaultdict(int)
    for _, place in placed:
        counts[place] += 1
    return [(row, place, counts[place] > 1) for row, place in placed]


def _empty_row(entrant: Any) -> dict:
    return {"entrant": entrant, "total": 0, "won": 0, "played": 0, "rounds": defaultdict(int),
            "for": 0, "against": 0, "opponents": []}


def _totals(results: Iterable[Result], score: Callable[[Result], int],
            entrants: Iterable[Any]) -> dict[Any, dict]:
    rows: dict[Any, dict] = {e: _empty_row(e) for e in entrants}
    for r in results:
        if r.stage != REGULAR:
            continue
        row = rows.get(r.entrant)
        if row is None:
            continue
        value = score(r)
        row["total"] += value
        row["rounds"][r.round] += value
        row["for"] += r.points
        row["against"] += r.against
        if r.won is not None:
            row["played"] += 1
            row["won"] += 1 if r.won else 0
            if r.opponent is not None:
                row["opponents"].append(r.opponent)
    return rows


def tally_score(preset: Preset) -> Callable[[Result], int] | None:
    """What one result adds to its entrant's total, for the formats whose totals are a plain
    sum over results (all but the league, whose week points depend on the whole week)."""
    if preset.standings == "progressive":
        return lambda r: round_score(preset, r)
    if preset.standings in ("teams", "wec"):
        return lambda r: r.points
    return None


_TALLY_VERSIONS = itertools.count(1)


class Tally:
    """Every entrant's totals (the rows `_totals` builds) kept up to date as results come and
    go: adding or removing one result changes one row, so a leaderboard read ranks the rows
    instead of summing every result again. Counts what `_totals` counts (regular rounds only);
    with `from_round`, only that round and later ones (take them from a full tally for the
    standings before that round). The rows are shared, not copied: readers must not change
    them."""

    def __init__(self, score: Callable[[Result], int], from_round: int | None = None):
        self.score = score
        self.from_round = from_round
        self.rows: dict[Any, dict] = {}
        self.version = 0  # changes whenever a row does (never the same in two tallies)
        self.row_version: dict[Any, int] = {}  # the version at each row's last change
        # Results beyond the first in a round, per entrant and round: a round leaves a row
        # with its last result. (Mostly empty: one game a round is the common case.)
        self._more: dict[tuple, int] = {}

    def add(self, result: Result, sign: int = 1) -> None:
        if result.stage != REGULAR or (self.from_round is not None
                                       and result.round < self.from_round):
            return
        row = self.rows.get(result.entrant)
        if row is None:
            row = self.rows[result.entrant] = _empty_row(result.entrant)
        value = sign * self.score(result)
        row["total"] += value
        rounds, key = row["rounds"], (result.entrant, result.round)
        if sign > 0:
            if result.round in rounds:
                self._more[key] = self._more.get(key, 0) + 1
            rounds[result.round] += value
        elif self._more.get(key):
            self._more[key] -= 1
            if not self._more[key]:
                del self._more[key]
            rounds[result.round] += value
        else:  # the round's last result left: the round is gone from the row, as in _totals
            del rounds[result.round]
        row["for"] += sign * result.points
        row["against"] += sign * result.against
        if result.won is not None:
            row["played"] += sign
            if result.won:
                row["won"] += sign
        self.version = next(_TALLY_VERSIONS)
        self.row_version[result.entrant] = self.version

    def remove(self, result: Result) -> None:
        self.add(result, -1)

    def rows_for(self, entrants: Iterable[Any]) -> dict[Any, dict]:
        """The rows of these entrants, in their order, as `_totals` would give them."""
        return {e: self.rows.get(e) or _empty_row(e) for e in entrants}

    def rows_without(self, later: Tally, entrants: Iterable[Any]) -> dict[Any, dict]:
        """This tally's rows less a `later` tally's (the rounds from its `from_round` on): the
        totals before that round, to rank by. Their `rounds` are left empty: no format ranks
        by them."""
        out = {}
        for e in entrants:
            row, less = self.rows.get(e), later.rows.get(e)
            if row is None:
                out[e] = _empty_row(e)
                continue
            out[e] = {**row, "rounds": defaultdict(int), "opponents": []}
            if less is not None:
                for name in ("total", "won", "played", "for", "against"):
                    out[e][name] -= less[name]
        return out


def _standing(row: dict, place: int, shared: bool, prize: bool = False, **stats) -> Standing:
    return Standing(row["entrant"], place, row["total"], row["won"], row["played"],
                    dict(row["rounds"]), shared, prize, stats)


def progressive_standings(preset: Preset, results: Iterable[Result], players: Sequence[Any],
                          manual: dict[Any, int] | None = None,
                          totals: dict[Any, dict] | None = None) -> list[Standing]:
    """Individual totals over the rounds; equal totals share a place until the organizer orders
    them; prize places by field size. `totals`: the rows already summed (a Tally's)."""
    rows = totals if totals is not None else \
        _totals(results, lambda r: round_score(preset, r), players)
    prizes = preset.prize_places_for(len(players))
    placed = assign_places(list(rows.values()), lambda r: (-r["total"],), manual)
    return [_standing(row, place, shared, place <= prizes) for row, place, shared in placed]


def teams_standings(preset: Preset, results: Iterable[Result], teams: Sequence[Any],
                    manual: dict[Any, int] | None = None,
                    finalists: Sequence[Any] = (), champion: Any = None,
                    totals: dict[Any, dict] | None = None) -> list[Standing]:
    """Team totals after the regular rounds. Once the championship is decided its winner is
    first and the other finalist second; everyone else keeps their place by points."""
    rows = totals if totals is not None else _totals(results, lambda r: r.points, teams)
    if champion is not None:
        if champion not in finalists or len(finalists) != 2:
            raise StandingsError("The champion must be one of the two finalists.")
        runner_up = next(t for t in finalists if t != champion)
        top = {champion: 0, runner_up: 1}

        def key(r):
            return (top.get(r["entrant"], 2), -r["total"])
    else:
        def key(r):
            return (-r["total"],)
    placed = assign_places(list(rows.values()), key, manual)
    prizes = preset.prize_places_for(len(teams))
    return [_standing(row, place, shared, place <= prizes) for row, place, shared in placed]


def wec_standings(preset: Preset, results: Iterable[Result], entrants: Sequence[Any],
                  manual: dict[Any, int] | None = None,
                  totals: dict[Any, dict] | None = None) -> list[Standing]:
    """Total points, then games won, then the organizer's recorded tiebreak
    (rock-paper-scissors); rows still level share a place."""
    rows = totals if totals is not None else _totals(results, lambda r: r.points, entrants)
    placed = assign_places(list(rows.values()), lambda r: (-r["total"], -r["won"]), manual)
    prizes = preset.prize_places_for(len(entrants))
    return [_standing(row, place, shared, place <= prizes) for row, place, shared in placed]


def league_standings(preset: Preset, results: Iterable[Result], teams: Sequence[Any],
                     manual: dict[Any, int] | None = None,
                     totals: dict[Any, dict] | None = None) -> list[Standing]:
    """Season standings: week points (2 a game won, +1 for the match), then game-win
    percentage, then strength of schedule, then the manual order (default: the order of
    `teams`, i.e. registration). Playoff games do not count."""
    if totals is not None:
        raise StandingsError("League standings are not tallied: week points need each week.")
    results = [r for r in results if r.stage == REGULAR]
    by_week: dict[tuple[Any, int], list[Result]] = defaultdict(list)
    for r in results:
        by_week[(r.entrant, r.round)].append(r)

    def score(_: Result) -> int:
        return 0  # week points are added per week below, not per game

    rows = _totals(results, score, teams)
    for (team, week), games in by_week.items():
        if team not in rows:
            continue
        won = sum(1 for g in games if g.won)
        points = week_points(preset, won)
        rows[team]["total"] += points
        rows[team]["rounds"][week] += points
    pct = {t: (row["won"] / row["played"] if row["played"] else 0.0) for t, row in rows.items()}
    sos = {}
    for t, row in rows.items():
        opponents = [pct[o] for o in row["opponents"] if o in pct]
        sos[t] = sum(opponents) / len(opponents) if opponents else 0.0
    order = {t: i for i, t in enumerate(teams)}
    if manual:
        order = {t: manual.get(t, len(teams) + order[t]) for t in teams}
    placed = assign_places(
        list(rows.values()),
        lambda r: (-r["total"], -round(pct[r["entrant"]], 9), -round(sos[r["entrant"]], 9)),
        order,
    )
    prizes = preset.prize_places_for(len(teams))
    return [
        _standing(row, place, shared, place <= prizes,
                  game_win_pct=round(pct[row["entrant"]], 4),
                  strength_of_schedule=round(sos[row["entrant"]], 4),
                  points_for=row["for"], points_against=row["against"])
        for row, place, shared in placed
    ]


def playoff_seeds(standings: Sequence[Standing], ineligible: Iterable[Any] = ()) -> list[Any]:
    """The playoff seeding: standings order, leaving out ineligible and unplaced teams."""
    excluded = set(ineligible)
    return [s.entrant for s in sorted((s for s in standings if s.place is not None),
                                      key=lambda s: s.place)
            if s.entrant not in excluded]


STANDINGS_BY_FORMAT = {
    "progressive": progressive_standings,
    "teams": teams_standings,
    "wec": wec_standings,
    "league": league_standings,
}


def standings_for(preset: Preset, results: Iterable[Result], entrants: Sequence[Any],
                  manual: dict[Any, int] | None = None, *, struck: Iterable[Any] = (),
                  **extra) -> list[Standing]:
    """The leaderboard for any format. `struck` entrants (a team removed from a league, an
    entrant disqualified) keep their results, so their opponents' scores stand, but take no
    place and no prize: they are listed last, and the places below them close up."""
    standings = STANDINGS_BY_FORMAT[preset.standings](preset, results, entrants, manual,
                                                      **extra)
    struck = set(struck)
    if not struck & {s.entrant for s in standings}:
        return standings
    return strike(standings, struck, preset.prize_places_for(len(entrants)))


def strike(standings: Sequence[Standing], struck: set, prizes: int) -> list[Standing]:
    """Take `struck` entrants out of the places: the others keep their order and their ties,
    renumbered (1, 2, 2, 4 without one of the 2s is 1, 2, 3); the struck follow, unplaced."""
    ranked = sorted((s for s in standings if s.entrant not in struck), key=lambda s: s.place)
    counts: dict[int, int] = defaultdict(int)
    for s in ranked:
        counts[s.place] += 1
    places: dict[int, int] = {}
    out = []
    for index, s in enumerate(ranked):
        place = places.setdefault(s.place, index + 1)
        out.append(replace(s, place=place, shared=counts[s.place] > 1, prize=place <= prizes))
    out += [replace(s, place=None, shared=False, prize=False) for s in standings
            if s.entrant in struck]
    return out


# --- the championship cut (teams format) ----------------------------------------------------

TWO_TEAM = "two-team"  # a 4-hand playoff, then sudden death while level
ROUND_ROBIN = "round-robin"  # three or more level teams: a 4-hand round robin among them


THROUGH, OUT, LEVEL = "through", "out", "level"


@dataclass(frozen=True)
class Cut:
    """Who reaches the championship, and which playoff a tie at the cut needs."""

    qualified: tuple  # through without a playoff
    contenders: tuple = ()  # level at the cut, competing for the remaining spots
    spots: int = 0  # spots the contenders compete for
    playoff: str | None = None
    # Why each team is where it is: (team, THROUGH / OUT / LEVEL, the rule in words).
    reasons: tuple = field(default=(), compare=False)

    def reason(self, team: Any) -> tuple[str, str] | None:
        return next(((status, why) for t, status, why in self.reasons if t == team), None)


def _reasons(before: tuple) -> dict:
    return {team: (status, why) for team, status, why in before}


def _as_tuple(reasons: dict) -> tuple:
    return tuple((team, status, why) for team, (status, why) in reasons.items())


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def championship_cut(standings: Sequence[Standing], spots: int = 2,
                     ineligible: Iterable[Any] = ()) -> Cut:
    """The top `spots` teams by total reach the championship; teams level across the cut play
    off: two teams a 4-hand playoff (then sudden death), three or more a round robin.
    Ineligible teams (withdrawn) are left out, as if they were not in the standings: the next
    team takes their place."""
    if spots < 1:
        raise StandingsError("At least one spot is needed.")
    excluded = set(ineligible)
    ordered = sorted((s for s in standings if s.entrant not in excluded), key=lambda s: -s.total)
    reasons = {s.entrant: (OUT, "withdrawn: not in the cut") for s in standings
               if s.entrant in excluded}
    top = f"the top {spots}" if spots > 1 else "first place"
    if len(ordered) <= spots:
        reasons.update({s.entrant: (THROUGH, f"{_points(s.total)}: in {top}")
                        for s in ordered})
        return Cut(tuple(s.entrant for s in ordered), reasons=_as_tuple(reasons))
    boundary = ordered[spots - 1].total
    for s in ordered:
        if s.total > boundary or (s.total == boundary and ordered[spots].total != boundary):
            reasons[s.entrant] = (THROUGH, f"{_points(s.total)}: in {top}")
        elif s.total == boundary:
            reasons[s.entrant] = (LEVEL, f"level at the cut on {_points(s.total)}: "
                                  "plays off for the championship")
        else:
            reasons[s.entrant] = (OUT, f"{_points(s.total)}: below the cut "
                                  f"({_points(boundary)})")
    if ordered[spots].total != boundary:
        return Cut(tuple(s.entrant for s in ordered[:spots]), reasons=_as_tuple(reasons))
    above = tuple(s.entrant for s in ordered if s.total > boundary)
    level = tuple(s.entrant for s in ordered if s.total == boundary)
    return Cut(above, level, spots - len(above), TWO_TEAM if len(level) == 2 else ROUND_ROBIN,
               reasons=_as_tuple(reasons))


@dataclass(frozen=True)
class PlayoffGame:
    """One finished cut-playoff game between two contenders (points do not count elsewhere)."""

    a: Any
    b: Any
    points_a: int
    points_b: int
    winner: Any  # the winning team (after sudden death or a draw for a level game)


def resolve_cut(cut: Cut, games: Sequence[PlayoffGame]) -> Cut:
    """Apply cut-playoff games. Returns the new cut: done when `contenders` is empty.

    Two teams: the winner of their playoff (sudden death included) goes through.
    Round robin: contenders are ranked by playoff games won, then playoff points; those
    clearly inside the spots go through, and any still level across the cut play again.
    """
    if not cut.contenders:
        return cut
    contenders = set(cut.contenders)
    relevant = [g for g in games if g.a in contenders and g.b in contenders]
    reasons = _reasons(cut.reasons)
    if cut.playoff == TWO_TEAM:
        winners = [g.winner for g in relevant if g.winner is not None]
        if not winners:
            return cut
        winner = winners[-1]
        for team in cut.contenders:
            reasons[team] = (THROUGH, "won the playoff at the cut") if team == winner else \
                (OUT, "lost the playoff at the cut")
        return Cut(cut.qualified + (winner,), reasons=_as_tuple(reasons))
    wins = {t: 0 for t in cut.contenders}
    points = {t: 0 for t in cut.contenders}
    for g in relevant:
        points[g.a] += g.points_a
        points[g.b] += g.points_b
        if g.winner is not None:
            wins[g.winner] += 1
    needed = len(contenders) * (len(contenders) - 1) // 2
    if len(relevant) < needed:
        return cut
    ordered = sorted(cut.contenders, key=lambda t: (-wins[t], -points[t]))
    boundary = (wins[ordered[cut.spots - 1]], points[ordered[cut.spots - 1]])
    after = ((wins[ordered[cut.spots]], points[ordered[cut.spots]])
             if len(ordered) > cut.spots else None)
    games_each = len(contenders) - 1
    for team in ordered:
        key = (wins[team], points[team])
        won = f"won {wins[team]} of {games_each} playoff games"
        # The rule that decided: games won, or (level on games won) the points scored.
        on_points = sum(1 for t in ordered if wins[t] == wins[team]) > 1
        said = (f"{won}, level with another team; {_points(points[team])} in the playoff"
                if on_points else won)
        decider = "points" if on_points else "games won"
        if key > boundary or (key == boundary and after != boundary):
            reasons[team] = (THROUGH, f"{said}: through on {decider}")
        elif key == boundary:
            reasons[team] = (LEVEL, f"{said}: still level, so it plays off again")
        else:
            reasons[team] = (OUT, f"{said}: out on {decider}")
    if after != boundary:
        return Cut(cut.qualified + tuple(ordered[:cut.spots]), reasons=_as_tuple(reasons))
    through = tuple(t for t in ordered if (wins[t], points[t]) > boundary)
    level = tuple(t for t in ordered if (wins[t], points[t]) == boundary)
    spots = cut.spots - len(through)
    return Cut(cut.qualified + through, level, spots, TWO_TEAM if len(level) == 2 else ROUND_ROBIN,
               reasons=_as_tuple(reasons))


# --- WEC awards and the bump cup -------------------------------------------------------------

@dataclass(frozen=True)
class Awards:
    low_score: tuple  # entrants with the lowest total
    low_total: int | None
    high_game: tuple  # (entrant, round) pairs with the most points in one game
    high_game_points: int | None


def awards(standings: Sequence[Standing], results: Iterable[Result]) -> Awards:
    """Low Score (lowest total) and High Game (most points in one game); ties share."""
    placed = [s for s in standings if s.place is not None]  # the struck take no award
    low_total = min((s.total for s in placed), default=None)
    low = tuple(s.entrant for s in placed if s.total == low_total)
    eligible = {s.entrant for s in placed}
    finished = [r for r in results if r.won is not None and r.stage == REGULAR
                and r.entrant in eligible]
    high = max((r.points for r in finished), default=None)
    # Ties in the standings' order (as Low Score lists them): not by id, which an import
    # moves (and whose text puts 10 before 9).
    order = {s.entrant: n for n, s in enumerate(placed)}
    high_game = tuple(sorted({(r.entrant, r.round) for r in finished if r.points == high},
                             key=lambda pair: (pair[1], order[pair[0]])))
    return Awards(low, low_total, high_game, high)


@dataclass(frozen=True)
class Bump:
    """Dollars one player owes the bump cup from one game."""

    player: Any
    round: int
    table: int
    dollars: int


@dataclass(frozen=True)
class BumpCup:
    by_player: dict
    by_table: dict  # (round, table) -> dollars
    total: int


def bump_cup(bumps: Iterable[Bump]) -> BumpCup:
    """The bump cup: dollars per player, per table and for the event."""
    players: dict[Any, int] = defaultdict(int)
    tables: dict[tuple[int, int], int] = defaultdict(int)
    for b in bumps:
        players[b.player] += b.dollars
        tables[(b.round, b.table)] += b.dollars
    return BumpCup(dict(players), dict(tables), sum(players.values()))
