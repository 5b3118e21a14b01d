"""Ratings after a night's hands are corrected (issue 30's independent check): a finished
night opened again, hands changed until a game's winner turns, finished again. The ratings
are re-rated from that game on (the nights before keep theirs, the later night's start from
the new ones) and are what rating everything afresh gives; no night's standings move."""

from __future__ import annotations

from .test_ratings import A_WINS, B_WINS, _club, _finish, _night, _people_by_side, _table


def _boards(api, events):
    return [api.get(f"/api/events/{e['id']}/leaderboard", expect=200).get_json()["rows"]
            for e in events]


def _nights(app, club):
    from api.core.db import db
    from api.core.models import RatingNight
    with app.app_context():
        return {(r.event_id, r.person_id): (round(r.mu_before, 9), round(r.mu, 9))
                for r in db.session.query(RatingNight).filter_by(club_id=club)}


def _give_hands_to_b(api, key, game_id, count):
    """The organizer corrects the game's first `count` hands: side B made them, 3 tricks."""
    for index in range(count):
        game = api.game(game_id)
        hand = game["hands"][index]
        api.put(f"/api/games/{game_id}/hands/{hand['id']}", key=key,
                json={"maker": "B", "tricks": 3},
                headers={"If-Match": f'"{game["version"]}"'}, expect=200)


def test_hands_corrected_in_a_finished_night_rerate_from_that_game_on(api, app):
    club, key = _club(api)
    dec, _ = _night(api, club, key, "Dec", "2025-12-12", sheets=(B_WINS, A_WINS))
    jan, jan_round = _night(api, club, key, "Jan", "2026-01-09")
    feb, _ = _night(api, club, key, "Feb", "2026-02-13", sheets=(B_WINS, B_WINS))
    for night in (dec, jan, feb):
        _finish(api, key, night)
    boards = _boards(api, [dec, jan, feb])
    first = _nights(app, club)
    rated = {r["person_id"]: (r["rating"], r["wins"]) for r in _table(api, club, key)}
    # January's table 1 (side A won 8-0) gets five hands turned: side B wins 5-3.
    _finish(api, key, jan, "open")
    game_id = next(t for t in jan_round["tables"] if t["table"] == 1)["games"][0]["id"]
    _give_hands_to_b(api, key, game_id, 5)
    assert api.game(game_id)["winner"] == "B"
    _finish(api, key, jan)
    after = _nights(app, club)
    turned = {r["person_id"]: (r["rating"], r["wins"]) for r in _table(api, club, key)}
    assert turned != rated
    assert sum(w for _, w in turned.values()) == sum(w for _, w in rated.values())
    # December's rows are as they were; January's and February's moved.
    for (event, person), row in first.items():
        if event == dec["id"]:
            assert after[(event, person)] == row
    assert any(after[k] != first[k] for k in first if k[0] == feb["id"])
    # Re-rating everything gives the same.
    from api.ratings.rerate import rerate_all
    with app.app_context():
        rerate_all(club)
    assert _nights(app, club) == after
    assert {r["person_id"]: (r["rating"], r["wins"]) for r in _table(api, club, key)} == turned
    # The ratings moved no standings: December and February read as before; January's are
    # those of its corrected hands, whatever the ratings say.
    now = _boards(api, [dec, jan, feb])
    assert now[0] == boards[0] and now[2] == boards[2]
    totals = sorted(r["total"] for r in now[1])
    assert totals == sorted([3, 3, 5, 5, 8, 8, 0, 0])


def test_the_backtest_command_says_when_there_is_no_club_or_nothing_to_predict(api, app):
    runner = app.test_cli_runner()
    missing = runner.invoke(args=["ratings-backtest", "2147483000"])
    assert missing.exit_code != 0 and "There is no club 2147483000" in missing.output
    club, key = _club(api)
    empty = runner.invoke(args=["ratings-backtest", str(club)])
    assert empty.exit_code == 0 and "no rated game yet" in empty.output
    assert "0.0000" not in empty.output, "no perfect scores for no games"
    night, _ = _night(api, club, key, "Jan", "2026-01-09")
    _finish(api, key, night)
    printed = runner.invoke(args=["ratings-backtest", str(club)]).output
    assert printed.splitlines()[0].split()[:2] == ["predictor", "games"]


def test_a_wec_game_entered_as_its_final_points_is_rated_by_its_result(api):
    club, key = _club(api)
    event = api.post(f"/api/clubs/{club}/events", key=key,
                     json={"name": "WEC", "preset": "wec-singles",
                           "overrides": {"rounds": 7}}, expect=201).get_json()
    api.add_players(event, [f"Player {n}" for n in range(1, 9)])
    round_ = api.post(f"/api/events/{event['id']}/rounds", key=key, json={"number": 1},
                      expect=201).get_json()
    winners = set()
    for table, points in zip(round_["tables"], ({"A": 9, "B": 3}, {"A": 4, "B": 8}),
                             strict=True):
        api.put(f"/api/games/{table['games'][0]['id']}/sheet", key=key,
                json={"points": points, "bumps": {}}, expect=200)
        side = "A" if points["A"] > points["B"] else "B"
        winners |= {s["player_id"] for s in table["seats"]
                    if s["seat"] in ((1, 3) if side == "A" else (2, 4))}
    _finish(api, key, event)
    players = {p["person_id"]: p["id"] for p in
               api.get(f"/api/events/{event['id']}/players").get_json()}
    rows = _table(api, club)
    assert len(rows) == 8 and all(r["games"] == 1 for r in rows)
    assert {players[r["person_id"]] for r in rows if r["wins"] == 1} == winners


def test_a_corrected_margin_with_the_same_winner_rerates_the_night(api, app):
    """A game's score weighs its update (api/rules/ratings.py, weight): a correction that
    narrows an 8-0 win to 5-3 leaves every win and loss as it was but moves the ratings,
    as rating everything afresh does."""
    club, key = _club(api)
    jan, jan_round = _night(api, club, key, "Jan", "2026-01-09")
    _finish(api, key, jan)
    first = {r["person_id"]: (r["rating"], r["wins"]) for r in _table(api, club, key)}
    _finish(api, key, jan, "open")
    game_id = next(t for t in jan_round["tables"] if t["table"] == 1)["games"][0]["id"]
    _give_hands_to_b(api, key, game_id, 3)
    game = api.game(game_id)
    assert (game["winner"], game["points"]) == ("A", {"A": 5, "B": 3})
    _finish(api, key, jan)
    after = {r["person_id"]: (r["rating"], r["wins"]) for r in _table(api, club, key)}
    assert {p: w for p, (_, w) in after.items()} == {p: w for p, (_, w) in first.items()}
    table_one = _people_by_side(api, jan, next(t for t in jan_round["tables"]
                                               if t["table"] == 1))
    for person in table_one["A"]:  # a narrower win: the winners rise less
        assert after[person][0] < first[person][0]
    for person in table_one["B"]:  # and the losers fall less
        assert after[person][0] > first[person][0]
    from api.ratings.rerate import rerate_all
    with app.app_context():
        rerate_all(club)
    assert {r["person_id"]: (r["rating"], r["wins"]) for r in _table(api, club, key)} == after
