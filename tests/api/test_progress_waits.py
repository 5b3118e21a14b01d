"""The progress board says, per table, what waits on whom (issue 29, point 5): a hand waiting
for the other side's confirmation or entry, a mismatch, a call to the organizer, a finished
game waiting for its sign-off; read with one query per kind for the whole round."""

from __future__ import annotations

from sqlalchemy import event as sa_event

from api.core.db import db

from .client import play
from .verification_helpers import enter, night


def _board(api, round_) -> dict[int, dict]:
    view = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    return {t["table"]: t for t in view["tables"]}


def _game(round_, table: int) -> int:
    return round_["tables"][table - 1]["games"][0]["id"]


def test_a_hand_waiting_for_confirmation_and_a_call_show_at_their_own_tables(api):
    event, key, round_ = night(api, "confirm_each_hand", players=12)
    enter(api, key, _game(round_, 1), "A", {"maker": "A", "tricks": 3})
    enter(api, key, _game(round_, 1), "A", {"maker": "B", "tricks": 4})
    api.post(f"/api/games/{_game(round_, 2)}/call", key=key, expect=201)
    board = _board(api, round_)
    (wait,) = board[1]["waits"]
    assert (wait["kind"], wait["side"], wait["number"]) == ("confirm", "B", 1)
    assert wait["game_id"] == _game(round_, 1) and wait["age_seconds"] >= 0
    assert wait["words"].startswith("Side B to confirm hand 1") and "2 entries" in \
        wait["words"]
    (call,) = board[2]["waits"]
    assert call["kind"] == "call" and call["call_id"] and "Called the organizer" in \
        call["words"]
    assert board[3]["waits"] == [] and not board[3]["waiting"]
    assert board[1]["waiting"] and board[2]["waiting"]
    view = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert view["progress"]["waiting"] == 2
    # Answered, the call no longer waits; confirmed, the hand no longer waits on B.
    api.post(f"/api/events/{event['id']}/calls/{call['call_id']}/answer", key=key, expect=200)
    first = api.get(f"/api/games/{_game(round_, 1)}", key=key, expect=200).get_json()
    api.post(f"/api/games/{_game(round_, 1)}/entries/{first['entries'][0]['id']}/confirm",
             key=key, json={"side": "B"}, expect=200)
    board = _board(api, round_)
    assert board[2]["waits"] == []
    assert [(w["kind"], w["number"]) for w in board[1]["waits"]] == [("confirm", 2)]


def test_double_entry_names_the_side_yet_to_enter_and_a_mismatch_until_settled(api):
    event, key, round_ = night(api, "double_entry", players=12)
    enter(api, key, _game(round_, 1), "B", {"maker": "A", "tricks": 3})
    enter(api, key, _game(round_, 3), "A", {"maker": "A", "tricks": 3})
    enter(api, key, _game(round_, 3), "B", {"maker": "A", "tricks": 4})
    board = _board(api, round_)
    assert [(w["kind"], w["side"], w["number"]) for w in board[1]["waits"]] == \
        [("enter", "A", 1)]
    assert "Side A to enter hand 1" in board[1]["waits"][0]["words"]
    assert board[2]["waits"] == []
    (mismatch,) = board[3]["waits"]
    assert (mismatch["kind"], mismatch["number"], mismatch["side"]) == ("mismatch", 1, None)
    assert "the pairs disagree" in mismatch["words"]
    # The organizer settles it where the board points: the hand is stored, nothing waits.
    game = api.post(f"/api/games/{mismatch['game_id']}/mismatches/1/settle", key=key,
                    json={"take": "B"}, expect=200).get_json()
    assert game["hands_played"] == 1 and game["mismatches"] == []
    assert _board(api, round_)[3]["waits"] == []


def test_a_finished_game_waits_for_its_sign_off_only_where_the_format_asks(api):
    for asks in (True, False):
        event = api.create_event("progressive", sign_off_required=asks)
        api.add_players(event, [f"P{n}" for n in range(1, 9)])
        round_ = api.seat_round(event, 1)
        key = event["organizer_key"]
        play(api, key, _game(round_, 1), [{"maker": "A", "tricks": 3}] * 8)
        board = _board(api, round_)
        kinds = [w["kind"] for w in board[1]["waits"]]
        assert kinds == (["sign_off"] if asks else [])
        assert board[2]["waits"] == [], "a game still being played waits on nobody"


def test_the_board_reads_with_the_same_statements_for_two_tables_or_six(api, app):
    def statements_for(players: int) -> int:
        event, key, round_ = night(api, "confirm_each_hand", players=players)
        for table in range(1, players // 4 + 1):
            enter(api, key, _game(round_, table), "A", {"maker": "A", "tricks": 3})
            api.post(f"/api/games/{_game(round_, table)}/call", key=key, expect=201)
        seen = []

        def count(conn, cursor, statement, parameters, context, executemany):
            if not statement.lstrip().upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT",
                                                          "RELEASE")):
                seen.append(statement.split()[0])

        with app.app_context():
            engine = db.engine
        sa_event.listen(engine, "before_cursor_execute", count)
        try:
            board = _board(api, round_)
        finally:
            sa_event.remove(engine, "before_cursor_execute", count)
        assert all([w["kind"] for w in t["waits"]] == ["call", "confirm"]
                   for t in board.values())
        return len(seen)

    two, six = statements_for(8), statements_for(24)
    assert 0 < two == six, (two, six)


def test_play_has_begun_once_a_hand_is_entered_counted_or_waiting(api):
    """`progress.begun` (the projector's seating gives way to the standings then): under
    double entry a hand one pair entered and the other has not yet is play begun, though
    nothing counts; taken back, the round has still begun. Under sign-off a hand counts at
    once. The rounds list says the same."""
    event, key, round_ = night(api, "double_entry")

    def progress(event_, round_):
        view = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()["progress"]
        listed = api.get(f"/api/events/{event_['id']}/rounds", expect=200).get_json()
        assert next(r for r in listed if r["id"] == round_["id"])["progress"] == view
        return view["hands"], view["begun"]

    assert progress(event, round_) == (0, False)
    enter(api, key, _game(round_, 2), "A", {"maker": "A", "tricks": 3}, entry_id="first-1")
    assert progress(event, round_) == (0, True)
    api.post(f"/api/games/{_game(round_, 2)}/entries/first-1/withdraw", key=key,
             json={"side": "A"}, expect=200)
    assert api.get(f"/api/games/{_game(round_, 2)}", key=key).get_json()["waiting"] == 0
    assert progress(event, round_) == (0, True)

    plain, plain_key, plain_round = night(api, "sign_off")
    assert progress(plain, plain_round) == (0, False)
    enter(api, plain_key, _game(plain_round, 1), "A", {"maker": "A", "tricks": 3})
    assert progress(plain, plain_round) == (1, True)
