"""The leaderboard's totals are kept per event as results change (api/leaderboard/totals.py):
after a hand only that game's result rows are read, and a deleted row makes everything be read
again. (That the kept totals rank exactly as all the results summed afresh is
test_fast_dumps_agree.py's.)"""

from __future__ import annotations

from sqlalchemy import delete, update

from api.core.db import db
from api.core.models import Event, Result
from api.leaderboard import totals

from .client import ApiClient


def _kept(event: dict) -> totals.EventTotals:
    kept = totals._kept.peek((event["id"], event["code"]))
    assert kept is not None, "the event's totals are kept"
    return kept


def test_after_a_hand_only_that_games_results_are_read(app):
    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(16)])
    games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
    api.hand(key, games[0], "A", 3)
    api.leaderboard(event)
    kept = _kept(event)
    reads = dict(kept.reads)
    api.hand(key, games[1], "B", 5)  # a march: 2 points
    board = api.leaderboard(event)
    assert kept.reads["full"] == reads["full"], "nothing was read in full again"
    assert kept.reads["delta"] == reads["delta"] + 1
    assert kept.reads["rows"] - reads["rows"] <= 8, "one game's rows (and the last change's)"
    totals_by_player = {r["entrant_id"]: r["total"] for r in board["rows"]}
    assert sorted(totals_by_player.values(), reverse=True)[:4] == [2, 2, 1, 1]


def test_deleted_results_make_the_totals_be_read_again(app):
    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    games = [t["games"][0]["id"] for t in api.seat_round(event, 1)["tables"]]
    api.hand(key, games[0], "A", 3)
    api.hand(key, games[1], "A", 4)
    api.leaderboard(event)
    kept = _kept(event)
    full = kept.reads["full"]
    with app.app_context():  # rows vanish (as a cascade would delete them) in a new revision
        db.session.execute(delete(Result).where(Result.game_id == games[1]))
        db.session.execute(update(Event).where(Event.id == event["id"])
                           .values(revision=Event.revision + 1))
        db.session.commit()
    # A write outside any request: the poll layer's shared revision read must be told.
    app.extensions["leaderboard_polls"].forget()
    board = api.leaderboard(event)
    assert kept.reads["full"] == full + 1
    assert sorted((r["total"] for r in board["rows"]), reverse=True)[:3] == [1, 1, 0]


def test_only_the_latest_rounds_keep_their_rows_and_an_older_correction_reads_all_again(app):
    from .client import play
    from .scripts import fixed_hands_game

    api = ApiClient(app.test_client())
    event = api.create_event("progressive")
    key = event["organizer_key"]
    api.add_players(event, [f"P{i}" for i in range(8)])
    first_game = None
    for number in range(1, 5):
        round_ = api.seat_round(event, number)
        for t in round_["tables"]:
            play(api, key, t["games"][0]["id"], fixed_hands_game(5, 3, 8))
        first_game = first_game or round_["tables"][0]["games"][0]["id"]
        api.close_round(event, round_["id"])
        board = api.leaderboard(event)
    kept = _kept(event)
    assert kept.keep_from == 3
    assert {rows[0][1] for rows in kept.games.values()} == {3, 4}
    # 4 rounds, 2 tables, each player scoring their side's 5 or 3
    assert sum(r["total"] for r in board["rows"]) == 4 * 2 * 2 * (5 + 3)
    full = kept.reads["full"]

    # The organizer corrects round 1's first hand: a point more or less for its makers (the
    # winner stays, as it must once later rounds were seated from it).
    game = api.game(first_game)
    hand = next(h for h in game["hands"] if not h["alone"])
    tricks, delta = (3, -1) if hand["tricks"] == 5 else (5, +1)
    api.put(f"/api/games/{first_game}/hands/{hand['id']}", key=key,
            headers={"If-Match": f'"{game["version"]}"'},
            json={"maker": hand["maker"], "tricks": tricks}, expect=200)
    after = api.leaderboard(event)
    assert kept.reads["full"] == full + 1
    assert sum(r["total"] for r in after["rows"]) == \
        sum(r["total"] for r in board["rows"]) + 2 * delta  # both makers
    assert after["rows"] != board["rows"]
