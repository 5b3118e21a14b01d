"""hands.csv carries the organizer's rulings (RULES.md §7): one row for each standing ruling,
in its game's place after the game's hands, with the points it gives each side and its
reason, so that adding up a game's rows in hands.csv gives the game's points, as games.csv
says them. A withdrawn ruling changes nothing, so it has no row."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

from .client import play
from .scripts import fixed_hands_game


def _csv(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def _night(api):
    """A progressive night of 12: tables 1 and 2 played out 6-2, table 3 not started."""
    event = api.create_event("progressive", name="Ruling night")
    key = event["organizer_key"]
    api.add_players(event, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hy", "Ivy", "Jo",
                            "Kit", "Lu"])
    round_ = api.seat_round(event, 1)
    games = [t["games"][0]["id"] for t in round_["tables"]]
    for game in games[:2]:
        play(api, key, game, fixed_hands_game(6, 2, 8))
    return event, key, games


def _rule(api, key, game, **body):
    return api.post(f"/api/games/{game}/rulings", key=key, json=body, expect=201).get_json()


def _exports(api, event, key) -> tuple[list[dict], list[dict]]:
    base = f"/api/events/{event['id']}/export"
    return (_csv(api.get(f"{base}/hands.csv", key=key, expect=200)),
            _csv(api.get(f"{base}/games.csv", key=key, expect=200)))


def _sums(hands: list[dict]) -> dict[tuple, tuple[int, int]]:
    sums: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for row in hands:
        place = (row["round"], row["table"], row["game"])
        sums[place][0] += int(row["points_a"])
        sums[place][1] += int(row["points_b"])
    return {place: tuple(points) for place, points in sums.items()}


def _games(games: list[dict]) -> dict[tuple, tuple[int, int]]:
    return {(g["round"], g["table"], g["game"]): (int(g["points_a"]), int(g["points_b"]))
            for g in games}


def _adds_up(hands: list[dict], games: list[dict]) -> None:
    """Every game's rows in hands.csv add up to its points in games.csv (a game with no row,
    not started, is 0-0), and every row belongs to a game there."""
    sums, points = _sums(hands), _games(games)
    assert set(sums) <= set(points)
    assert {place: sums.get(place, (0, 0)) for place in points} == points


def _names(api, game: int, side: str) -> str:
    return " & ".join(p["name"] for p in api.game(game)["sides"][side]["players"])


def test_each_standing_ruling_is_a_row_and_a_games_rows_add_up_to_its_points(api):
    event, key, (first, second, third) = _night(api)
    _rule(api, key, first, kind="adjust", side="B", points=3, reason="A renege seen")
    slow = _rule(api, key, first, kind="adjust", side="A", points=-2, reason="Slow play")
    api.delete(f"/api/games/{first}/rulings/{slow['id']}", key=key,
               json={"reason": "Another table"}, expect=200)
    _rule(api, key, first, kind="protest_rejected", reason="Nothing to it")
    _rule(api, key, second, kind="adjust", side="B", points=1, reason="Misdeal by A")
    _rule(api, key, second, kind="forfeit", side="A", reason="Left before the end")
    _rule(api, key, third, kind="forfeit", side="B", reason="Never sat down")

    hands, games = _exports(api, event, key)
    _adds_up(hands, games)
    assert _games(games)[("1", "2", "1")] == (0, 0) and _games(games)[("1", "1", "1")] == (6, 5)

    rulings = [r for r in hands if r["kind"] == "ruling"]
    assert [(r["table"], r["points_a"], r["points_b"], r["note"]) for r in rulings] == [
        ("1", "0", "3", "A renege seen"),
        ("1", "0", "0", "Nothing to it"),
        ("2", "0", "1", "Misdeal by A"),
        ("2", "-6", "-3", "Left before the end"),  # the forfeit: the game counts 0-0
        ("3", "0", "0", "Never sat down"),
    ], "standing rulings only: the withdrawn one has no row"
    assert rulings[0]["outcome"] == \
        f"Ruling: +3 points to side B ({_names(api, first, 'B')})"
    assert rulings[1]["outcome"] == "Ruling: protest rejected, the result stands"
    assert rulings[3]["outcome"] == (f"Ruling: side A ({_names(api, second, 'A')}) forfeits: "
                                     "the hands played no longer count")
    assert rulings[4]["outcome"] == f"Ruling: side B ({_names(api, third, 'B')}) forfeits"
    for row in rulings:
        assert (row["hand"], row["maker_side"], row["makers"], row["alone"], row["tricks"],
                row["renege_by"], row["renege"]) == ("", "", "", "", "", "", "")
        assert row["entered_at"], "when the ruling was made"

    # In the game's place: after its hands, before the next game's.
    order = [(r["table"], r["kind"]) for r in hands]
    assert order == ([("1", "play")] * 8 + [("1", "ruling")] * 2
                     + [("2", "play")] * 8 + [("2", "ruling")] * 2 + [("3", "ruling")])


def test_without_rulings_hands_csv_is_the_hands_alone(api):
    event, key, (first, _second, _third) = _night(api)
    hands, games = _exports(api, event, key)
    assert {r["kind"] for r in hands} == {"play"} and len(hands) == 16
    _adds_up(hands, games)
    ruling = _rule(api, key, first, kind="adjust", side="A", points=2, reason="Bonus")
    api.delete(f"/api/games/{first}/rulings/{ruling['id']}", key=key,
               json={"reason": "Not a rule here"}, expect=200)
    assert _exports(api, event, key)[0] == hands, "a withdrawn ruling leaves no trace here"


def test_a_ruling_on_a_later_rounds_game_goes_in_that_rounds_place(api):
    event, key, (first, second, third) = _night(api)
    play(api, key, third, fixed_hands_game(5, 3, 8))
    round_1 = api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json()[0]
    api.close_round(event, round_1["id"])
    later = api.seat_round(event, 2)["tables"][0]["games"][0]["id"]
    play(api, key, later, fixed_hands_game(4, 4, 8)[:3])
    _rule(api, key, later, kind="adjust", side="A", points=2, reason="Renege")
    _rule(api, key, first, kind="adjust", side="B", points=-1, reason="Slow")
    hands, games = _exports(api, event, key)
    _adds_up(hands, games)
    places = [(r["round"], r["table"], r["kind"]) for r in hands if r["kind"] == "ruling"]
    assert places == [("1", "1", "ruling"), ("2", "1", "ruling")]
    assert [(r["table"], r["kind"]) for r in hands if r["round"] == "2"] == \
        [("1", "play")] * 3 + [("1", "ruling")]
    assert [r["round"] for r in hands] == sorted(r["round"] for r in hands)
