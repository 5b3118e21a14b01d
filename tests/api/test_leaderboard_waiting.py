"""The leaderboard says what waits for agreement (RULES.md section 7, issue 29): under
confirm_each_hand and double_entry, a table's entries the other side has not agreed to are
left out of the totals, and the board tells, per table in play and on each player's row there,
how many hands wait and whether a mismatch waits to be settled. Under sign-off it says
nothing. Whatever changes what it says changes its ETag, so a poller never keeps a stale
note."""

from __future__ import annotations

from .verification_helpers import confirm, enter, new_id, night, read, sheet

ONE = {"maker": "A", "tricks": 3}  # side A makes it and takes three: 1 point to A
TWO = {"maker": "B", "tricks": 5}  # side B marches: 2 points to B


def _game(round_, table: int = 0) -> int:
    return round_["tables"][table]["games"][0]["id"]


def _seated(round_, table: int = 0) -> set[int]:
    return {s["player_id"] for s in round_["tables"][table]["seats"]}


class Poller:
    """A phone polling the board as the PWA does: If-None-Match with the last ETag."""

    def __init__(self, api, event):
        self.api, self.url, self.tag = api, f"/api/events/{event['id']}/leaderboard", None
        self.board = None

    def poll(self) -> dict:
        """The board after a change: a 200 with a new ETag (a 304 would keep a stale note)."""
        headers = {"If-None-Match": self.tag} if self.tag else {}
        answer = self.api.get(self.url, headers=headers, expect=200)
        assert answer.headers["ETag"] != self.tag
        self.tag, self.board = answer.headers["ETag"], answer.get_json()
        self.api.get(self.url, headers={"If-None-Match": self.tag}, expect=304)
        return self.board


def _rows(board) -> dict[int, dict]:
    return {r["entrant_id"]: r for r in board["rows"]}


def _notes(board) -> dict[int, str]:
    """Each row's note, for the rows that carry one."""
    return {r["entrant_id"]: r["waiting"]["words"] for r in board["rows"] if r["waiting"]}


def test_confirm_each_hand_hands_waiting_show_on_the_table_and_its_rows_not_in_totals(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game, players = _game(round_), _seated(round_)
    poller = Poller(api, event)
    assert poller.poll()["waiting"] == [] and _notes(poller.board) == {}

    first, second = new_id(), new_id()
    enter(api, key, game, "A", ONE, entry_id=first)
    enter(api, key, game, "A", TWO, entry_id=second)
    board = poller.poll()
    (table,) = board["waiting"]
    assert table == {"game_id": game, "round": 1, "table": 1, "game": 1, "hands": 2,
                     "mismatch": False, "changes": 0,
                     "words": "2 hands waiting to be agreed",
                     "entrants": table["entrants"]}
    assert set(table["entrants"]) == players
    assert _notes(board) == dict.fromkeys(players, "2 hands waiting to be agreed")
    assert all(r["waiting"]["tables"] == [1] for r in board["rows"] if r["waiting"])
    assert {r["total"] for r in board["rows"]} == {0}, "waiting hands count in no total"

    confirm(api, key, game, first, "B")
    board = poller.poll()
    assert _notes(board) == dict.fromkeys(players, "1 hand waiting to be agreed")
    assert sorted(r["total"] for r in board["rows"] if r["entrant_id"] in players) == \
        [0, 0, 1, 1], "the agreed hand counts; the one still waiting does not"

    confirm(api, key, game, second, "B")
    board = poller.poll()
    assert board["waiting"] == [] and _notes(board) == {}
    assert sorted(r["total"] for r in board["rows"] if r["entrant_id"] in players) == \
        [1, 1, 2, 2]


def test_a_rejected_or_withdrawn_entry_leaves_the_board_and_its_etag_changes(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = _game(round_)
    poller = Poller(api, event)
    poller.poll()
    rejected, withdrawn = new_id(), new_id()
    enter(api, key, game, "A", ONE, entry_id=rejected)
    assert poller.poll()["waiting"][0]["hands"] == 1
    api.post(f"/api/games/{game}/entries/{rejected}/reject", key=key,
             json={"side": "B", "reason": "It was 4 tricks"}, expect=200)
    assert poller.poll()["waiting"] == []
    enter(api, key, game, "B", TWO, entry_id=withdrawn)
    assert poller.poll()["waiting"][0]["words"] == "1 hand waiting to be agreed"
    api.put(f"/api/games/{game}/entries/{withdrawn}", key=key,
            json={"side": "B", **ONE}, expect=200)  # changed while it waits: still one
    assert poller.poll()["waiting"][0]["hands"] == 1
    api.post(f"/api/games/{game}/entries/{withdrawn}/withdraw", key=key, json={"side": "B"},
             expect=200)
    board = poller.poll()
    assert board["waiting"] == [] and _notes(board) == {}


def test_double_entry_a_mismatch_says_the_scores_differ_until_it_is_settled(api):
    event, key, round_ = night(api, "double_entry")
    game, players = _game(round_), _seated(round_)
    other = _game(round_, 1)
    poller = Poller(api, event)
    poller.poll()
    enter(api, key, game, "A", ONE)
    board = poller.poll()
    assert board["waiting"][0]["hands"] == 1, "one side's entry waits for the other's"
    enter(api, key, game, "B", ONE)
    board = poller.poll()
    assert board["waiting"] == [], "both sides entered it alike: agreed, counted"
    assert sorted(r["total"] for r in board["rows"] if r["entrant_id"] in players) == \
        [0, 0, 1, 1]

    enter(api, key, game, "A", TWO)
    enter(api, key, game, "A", ONE)  # side A is a hand ahead
    enter(api, key, game, "B", ONE)  # side B's hand 2 differs from A's
    enter(api, key, other, "B", TWO)  # another table: one hand waiting there
    board = poller.poll()
    mine, theirs = board["waiting"]
    assert (mine["table"], mine["hands"], mine["mismatch"]) == (1, 2, True)
    assert mine["words"] == "scores differ: waiting to be settled (2 hands waiting)"
    assert (theirs["table"], theirs["words"]) == (2, "1 hand waiting to be agreed")
    notes = _notes(board)
    assert {notes[p] for p in players} == {mine["words"]}
    assert {notes[p] for p in _seated(round_, 1)} == {"1 hand waiting to be agreed"}
    assert len(notes) == 8
    assert sorted(r["total"] for r in board["rows"] if r["entrant_id"] in players) == \
        [0, 0, 1, 1], "nothing waiting counts"

    api.post(f"/api/games/{game}/mismatches/2/settle", key=key, json={"take": "A"},
             expect=200)
    board = poller.poll()
    mine = board["waiting"][0]
    assert (mine["table"], mine["hands"], mine["mismatch"]) == (1, 1, False)
    assert mine["words"] == "1 hand waiting to be agreed", "A's hand 3 still waits for B"
    assert sorted(r["total"] for r in board["rows"] if r["entrant_id"] in players) == \
        [1, 1, 2, 2], "the settled hand counts: B marched (2)"


def test_a_paper_sheets_hands_each_count_once_and_a_correction_is_said_apart(api):
    event, organizer, round_ = night(api, "confirm_each_hand")
    runner = api.post(f"/api/events/{event['id']}/keys", key=organizer,
                      json={"label": "Phone"}, expect=201).get_json()["key"]
    game = _game(round_)
    poller = Poller(api, event)
    entry_id = new_id()
    enter(api, runner, game, "A", ONE, entry_id=entry_id)
    confirm(api, runner, game, entry_id, "B")
    sheet(api, runner, game, "A", [TWO, ONE, ONE, TWO, ONE, ONE, TWO])  # hands 2 to 8
    board = poller.poll()
    assert board["waiting"][0]["words"] == "7 hands waiting to be agreed"

    view = read(api, game)
    hand = view["hands"][0]
    api.put(f"/api/games/{game}/hands/{hand['id']}", key=runner,
            json={"side": "A", "maker": "A", "tricks": 5},
            headers={"If-Match": f'"{view["version"]}"'}, expect=202)
    board = poller.poll()
    (table,) = board["waiting"]
    assert (table["hands"], table["changes"]) == (7, 1)
    assert table["words"] == ("7 hands waiting to be agreed; "
                              "1 correction waiting to be agreed")


def test_a_forfeit_ruling_sets_aside_what_waited_and_the_board_says_so(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = _game(round_)
    poller = Poller(api, event)
    enter(api, key, game, "A", ONE)
    assert poller.poll()["waiting"][0]["hands"] == 1
    api.post(f"/api/games/{game}/rulings", key=key,
             json={"kind": "forfeit", "side": "B", "reason": "Left early"}, expect=201)
    board = poller.poll()
    assert board["waiting"] == [] and _notes(board) == {}


def test_under_sign_off_the_board_never_says_anything_waits(api):
    event, key, round_ = night(api, "sign_off")
    game = _game(round_)
    api.post(f"/api/games/{game}/hands", key=key, json={"id": new_id(), **ONE}, expect=201)
    board = api.leaderboard(event)
    assert board["waiting"] == [] and _notes(board) == {}
    assert sorted(r["total"] for r in board["rows"])[-1] == 1


def test_a_league_teams_row_carries_its_tables_note(api):
    """Team formats: the row is the team's, and the league's standings are ranked afresh."""
    event, key, teams = api.league(teams=("North", "South"), verification="double_entry")
    round_ = api.seat_round(event, 1)
    game = round_["tables"][0]["games"][0]["id"]
    enter(api, key, game, "A", ONE)
    board = api.leaderboard(event)
    (table,) = board["waiting"]
    assert set(table["entrants"]) == {teams["North"]["id"], teams["South"]["id"]}
    assert _notes(board) == {teams["North"]["id"]: "1 hand waiting to be agreed",
                             teams["South"]["id"]: "1 hand waiting to be agreed"}
