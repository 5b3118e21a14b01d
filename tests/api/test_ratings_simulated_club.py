"""An independent check of the ratings (issue 30), done the way docs/club.md tells a club to:
a club of people with known skills plays progressive nights through the public API (the
app's own seating and movement, each game entered from its paper sheet, each hand won with a
chance set by the four players' true skills), then the ratings are read from the API and
the CSV and compared with the true skills, and `flask ratings-backtest` is run on the club
and read as a person would read it.

The issue asks: after 20 nights the ratings rank people by their true skill with Spearman
0.8 or more, and after the club's nights their Brier score beats the season's points per
hand and a coin. The ratings are read as the app keeps them: each game's update weighed by
its score (api/rules/ratings.py, weight). The simulation here is not
api/rules/rating_check.py's: the tables are seated by the app's progressive movement
(winners stay, losers move), not drawn anew every round."""

from __future__ import annotations

import csv
import io
import math
import random
import uuid

import pytest

from api.rules.rating_check import spearman

PEOPLE = 60
NIGHTS = 30
RANKED_AFTER = 20


def _hands(rng: random.Random, edge: float, count: int = 8) -> tuple[list[dict], dict | None]:
    """A game's hands: each won by side A with a logistic chance on the sides' summed skills
    (0.35 a unit, as the bench's club), worth 1 (3 tricks), 2 (a march) or 4 (a loner
    march); a level game is settled by a playoff hand won the same way."""
    p_hand = 1.0 / (1.0 + math.exp(-0.35 * edge))
    hands, points = [], {"A": 0, "B": 0}
    for _ in range(count):
        side = "A" if rng.random() < p_hand else "B"
        kind = rng.choices(("made", "march", "loner"), (0.7, 0.25, 0.05))[0]
        hands.append({"maker": side, "tricks": 3 if kind == "made" else 5,
                      "alone": kind == "loner"})
        points[side] += {"made": 1, "march": 2, "loner": 4}[kind]
    tie = None
    if points["A"] == points["B"]:
        tie = {"method": "playoff-hand", "winner": "A" if rng.random() < p_hand else "B"}
    return hands, tie


def _spearman_of(rows: list[dict], person_skill: dict[int, float]) -> tuple[float, int]:
    ranked = [r for r in rows if r["person_id"] in person_skill]
    return (spearman([person_skill[r["person_id"]] for r in ranked],
                     [r["rating"] for r in ranked]), len(ranked))


def play_club(api, app, *, seed: int, people: int = PEOPLE, nights: int = NIGHTS,
              rounds: int = 8, attendance: float = 0.7, log=None) -> dict:
    rng = random.Random(seed)
    made = api.post("/api/clubs", json={"name": "Simulated club",
                                        "slug": f"sim-{uuid.uuid4().hex[:8]}"},
                    expect=201).get_json()
    club, key = made["id"], made["club_key"]
    names = [f"Player {n:02d}" for n in range(1, people + 1)]
    skill_of = {name: rng.gauss(0.0, 1.0) for name in names}
    person_skill: dict[int, float] = {}
    found: dict = {}
    for night in range(nights):
        here = [n for n in names if rng.random() < attendance]
        # Tables of four: who sits the night out is drawn, not the last names on the list
        # (cutting the list's end left Player 60 out of about 4 nights in 5, and out of all
        # of the first 20 on about one run in 50, which then ranked 59 people of 60).
        rng.shuffle(here)
        here = here[:len(here) - len(here) % 4]
        event = api.post(f"/api/clubs/{club}/events", key=key, expect=201, json={
            "name": f"Night {night + 1}", "preset": "progressive",
            "overrides": {"rounds": rounds}}).get_json()
        day = f"2025-{1 + night // 28:02d}-{1 + night % 28:02d}"
        api.patch(f"/api/clubs/{club}/events/{event['id']}", key=key, json={"date": day},
                  expect=200)
        rows = ["name,checked_in"] + [f"{n},yes" for n in here]
        api.post(f"/api/events/{event['id']}/import", key=key,
                 json={"csv": "\n".join(rows)}, expect=201)
        players = api.get(f"/api/events/{event['id']}/players").get_json()
        skill = {p["id"]: skill_of[p["name"]] for p in players}
        for p in players:
            person_skill[p["person_id"]] = skill_of[p["name"]]
        for number in range(1, rounds + 1):
            seated = api.post(f"/api/events/{event['id']}/rounds", key=key,
                              json={"number": number}, expect=201).get_json()
            for table in seated["tables"]:
                seats = {s["seat"]: s["player_id"] for s in table["seats"]}
                edge = (skill[seats[1]] + skill[seats[3]] - skill[seats[2]]
                        - skill[seats[4]])
                hands, tie = _hands(rng, edge)
                api.post(f"/api/games/{table['games'][0]['id']}/paper-sheet", key=key,
                         expect=201, json={"id": uuid.uuid4().hex[:12], "hands": hands,
                                           "tie": tie})
            api.post(f"/api/rounds/{seated['id']}/close", key=key, expect=200)
        api.patch(f"/api/events/{event['id']}", key=key, json={"status": "finished"},
                  expect=200)
        if night + 1 == RANKED_AFTER:
            rows = api.get(f"/api/clubs/{club}/ratings", key=key, expect=200).get_json()["rows"]
            found["spearman_after_20"], found["ranked"] = _spearman_of(rows, person_skill)
            found["played_by_20"] = len(person_skill)
        if log:
            log(f"night {night + 1} done")
    found.update(club=club, key=key, person_skill=person_skill)
    return found


def read_backtest(app, club: int) -> dict[str, dict[str, float]]:
    """`flask ratings-backtest <club>`'s table, as a person reads it: a line a predictor,
    its name then games, accuracy, Brier score and log loss."""
    printed = app.test_cli_runner().invoke(args=["ratings-backtest", str(club)]).output
    out = {}
    for line in printed.splitlines()[1:]:
        cells = line.split()
        name, figures = " ".join(cells[:-4]), [float(c) for c in cells[-4:]]
        out[name] = dict(zip(("games", "accuracy", "brier", "log_loss"), figures, strict=True))
    return out


@pytest.mark.slow  # 2,400 games' sheets: about 25 s on a quiet machine
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_simulated_club_is_ranked_by_its_true_skill_and_predicted(api, app):
    found = play_club(api, app, seed=7)
    club, key = found["club"], found["key"]
    # Everyone who played by then is ranked (at 70% a night all 60 have played by night 20
    # but on about one run in 10^8); Spearman 0.92 to 0.98 in 20 runs (the app's draw of
    # each night's first round differs by run).
    assert found["ranked"] == found["played_by_20"] == PEOPLE, \
        ("ranked, played by then:", found["ranked"], found["played_by_20"])
    assert found["spearman_after_20"] >= 0.8, found["spearman_after_20"]
    # The CSV says what the table says.
    text = api.get(f"/api/clubs/{club}/ratings.csv", key=key, expect=200).get_data(as_text=True)
    table = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    rows = api.get(f"/api/clubs/{club}/ratings", key=key, expect=200).get_json()["rows"]
    assert [(r["name"], float(r["rating"]), int(r["games"])) for r in table] == \
        [(r["name"], r["rating"], r["games"]) for r in rows]
    # The ratings kept night by night as the club played are one pass over its games in
    # play order.
    with app.app_context():
        from api.ratings.order import club_nights, rated_games
        from api.rules import ratings as rr
        games = rated_games({n.id: n.night_date for n in club_nights(club)})
    once, _ = rr.rate(games)
    assert {r["person_id"]: (r["mu"], r["sigma"]) for r in rows} == \
        {p: (round(mu, 3), round(sigma, 3)) for p, (mu, sigma) in once.items()}
    figures = read_backtest(app, club)
    ratings, season, coin = (figures[k] for k in ("ratings", "points per hand", "coin"))
    assert ratings["games"] == season["games"] == coin["games"] > 2000
    assert ratings["brier"] < coin["brier"] - 0.03
    # And ahead of the season's points per hand: with each game's update weighed by its
    # score, ahead on every run (seeds 1-20: by 0.0009 to 0.0054, BENCHMARKS.md "Ratings");
    # counting only wins and losses it was ahead on about half.
    assert ratings["brier"] < season["brier"], figures
    assert ratings["log_loss"] < coin["log_loss"], figures
