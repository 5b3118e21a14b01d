"""The ids a night keeps inside its JSON columns, moved to the ids its rows get on import:
entrants (a player or a team, by the format) in the recorded order, the kept finishes, named
awards and door-prize draws; teams, players and matches in a league's or a WEC night's
schedule. A value of the wrong shape is refused with its path."""

from __future__ import annotations

from collections.abc import Callable

from ..core.errors import Invalid

Move = Callable[[int], int]


class Shape(Exception):
    def __init__(self, where: str):
        super().__init__(where)
        self.where = where


def _id(value, move: Move, where: str):
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise Shape(where)
    try:
        return move(value)
    except KeyError:
        raise Shape(where) from None


def _ids(values, move: Move, where: str) -> list:
    if not isinstance(values, list):
        raise Shape(where)
    return [_id(v, move, f"{where}[{n}]") for n, v in enumerate(values)]


def _pairs(rounds, move: Move, where: str) -> list:
    """[[[a, b], ...], ...]: rounds of pairs (a bye's other side is null)."""
    if not isinstance(rounds, list):
        raise Shape(where)
    return [[_ids(p, move, f"{where}[{r}][{n}]") for n, p in enumerate(pairs)]
            if isinstance(pairs, list) else _ids(pairs, move, f"{where}[{r}]")
            for r, pairs in enumerate(rounds)]


def _schedule(schedule, teams: Move, players: Move, matches: Move, where: str):
    if schedule is None:
        return None
    if not isinstance(schedule, dict):
        raise Shape(where)
    moved = dict(schedule)
    for name in ("season", "bracket", "final"):
        if schedule.get(name) is not None:
            moved[name] = _pairs(schedule[name], teams, f"{where}.{name}")
    if schedule.get("brackets") is not None:
        if not isinstance(schedule["brackets"], dict):
            raise Shape(f"{where}.brackets")
        moved["brackets"] = {d: _pairs(r, teams, f"{where}.brackets.{d}")
                             for d, r in schedule["brackets"].items()}
    if schedule.get("games") is not None:
        moved["games"] = _pairs(schedule["games"], players, f"{where}.games")
    if schedule.get("moves") is not None:
        if not isinstance(schedule["moves"], list):
            raise Shape(f"{where}.moves")
        moved["moves"] = []
        for n, change in enumerate(schedule["moves"]):
            if not isinstance(change, dict):
                raise Shape(f"{where}.moves[{n}]")
            change = dict(change)
            if "match_id" in change:
                change["match_id"] = _id(change["match_id"], matches,
                                         f"{where}.moves[{n}].match_id")
            moved["moves"].append(change)
    return moved


def _entrant_key(key, move: Move, where: str) -> str:
    try:
        return str(move(int(key)))
    except (TypeError, ValueError):
        raise Shape(where) from None


def move_event_json(event: dict, entrants: Move, teams: Move, players: Move, matches: Move,
                    where: str) -> None:
    """The event row's JSON columns, in place, with their ids moved."""
    try:
        order = event.get("manual_order") or {}
        if not isinstance(order, dict):
            raise Shape(f"{where}.manual_order")
        event["manual_order"] = {_entrant_key(k, entrants, f"{where}.manual_order.{k}"): v
                                 for k, v in order.items()}
        finishes = event.get("finishes")
        if finishes is not None:
            if not isinstance(finishes, dict) or not isinstance(finishes.get("rows"), list):
                raise Shape(f"{where}.finishes")
            rows = []
            for n, row in enumerate(finishes["rows"]):
                if not isinstance(row, list) or len(row) != 3:
                    raise Shape(f"{where}.finishes.rows[{n}]")
                rows.append([_id(row[0], entrants, f"{where}.finishes.rows[{n}][0]"), *row[1:]])
            event["finishes"] = {**finishes, "rows": rows}
        awards = event.get("named_awards")
        if awards is not None:
            if not isinstance(awards, list) or not all(isinstance(a, dict) for a in awards):
                raise Shape(f"{where}.named_awards")
            event["named_awards"] = [
                {**a, "winners": _ids(a.get("winners", []), entrants,
                                      f"{where}.named_awards[{n}].winners")}
                for n, a in enumerate(awards)]
        draws = event.get("draws")
        if draws is not None:
            if not isinstance(draws, list) or not all(isinstance(d, dict) for d in draws):
                raise Shape(f"{where}.draws")
            event["draws"] = [
                {**d, "winners": _ids(d.get("winners", []), entrants,
                                      f"{where}.draws[{n}].winners"),
                 "candidate_ids": _ids(d.get("candidate_ids", []), entrants,
                                       f"{where}.draws[{n}].candidate_ids")}
                for n, d in enumerate(draws)]
        event["schedule"] = _schedule(event.get("schedule"), teams, players, matches,
                                      f"{where}.schedule")
    except Shape as shape:
        raise Invalid(f"The file cannot be imported: {shape.where} is not shaped as this "
                      "version writes it (or names an id the file does not hold).",
                      code="bad-portable-file", errors={shape.where: ["bad shape"]}) from None
