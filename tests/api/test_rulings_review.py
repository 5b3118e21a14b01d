"""An independent review of issue 29's rulings, protests and calls through the HTTP API: a
forfeit or a protest where hands wait to be agreed, and keys or ids of another event or game,
refused with a problem and nothing stored."""

from __future__ import annotations

from .client import all_at_once, play
from .scripts import fixed_hands_game, to_target_game
from .test_protests import _player, _playoff
from .verification_helpers import enter, night, read


def _game(round_, table: int = 0) -> int:
    return round_["tables"][table]["games"][0]["id"]


def _problem(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert code is None or body["code"] == code, body
    return body


def test_a_forfeit_ruling_sets_aside_the_hands_waiting_and_the_round_closes(api):
    event, key, round_ = night(api, "double_entry")
    game = _game(round_)
    enter(api, key, game, "A", {"maker": "A", "tricks": 5})
    enter(api, key, game, "B", {"maker": "A", "tricks": 5})
    enter(api, key, game, "A", {"maker": "A", "tricks": 3})  # hand 2, B's entry never comes
    ruled = api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "forfeit", "side": "B", "reason": "Side B left at the break"}).get_json()
    assert ruled["game"]["forfeited_by"] == "B" and ruled["game"]["winner"] == "A"
    view = read(api, game, key=key)
    assert view["waiting"] == 0 and view["entries"] == []
    board = api.get(f"/api/rounds/{round_['id']}", expect=200).get_json()
    assert board["tables"][0]["waits"] == [], "nothing waits on a forfeited game"
    log = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    dropped = [e for e in log if e["action"] == "drop-hand-entry"]
    assert len(dropped) == 1 and dropped[0]["after"]["reason"] == "the game was forfeited"
    for hand in fixed_hands_game(5, 3, 8):  # the other table plays its game out
        enter(api, key, _game(round_, 1), "A", hand)
        enter(api, key, _game(round_, 1), "B", hand)
    api.close_round(event, round_["id"])


def test_a_protest_once_the_game_has_entries_waiting_is_refused(api):
    event, key, teams, game, captains = _playoff(api)
    api.patch(f"/api/events/{event['id']}", key=key, json={"verification": "double_entry"},
              expect=200)
    enter(api, key, game["id"], "A", {"maker": "A", "tricks": 3})
    refused = api.post(f"/api/games/{game['id']}/protests", key=captains["North"], json={
        "player_id": _player(teams, "South"), "grounds": "Not on the roster"})
    _problem(refused, 409, "game-started")
    assert api.get(f"/api/events/{event['id']}/protests", expect=200).get_json() == []


def test_another_events_organizer_key_and_ids_are_refused_and_store_nothing(api):
    mine, my_key, my_round = night(api, "sign_off")
    theirs, their_key, their_round = night(api, "sign_off")
    game, my_game = _game(their_round), _game(my_round)
    play(api, their_key, game, fixed_hands_game(6, 2, 8))
    play(api, my_key, my_game, fixed_hands_game(6, 2, 8))
    before = api.game(game)
    ruling = {"kind": "adjust", "side": "A", "points": 2, "reason": "Not my event"}
    _problem(api.post(f"/api/games/{game}/rulings", key=my_key, json=ruling), 403)
    _problem(api.post(f"/api/games/{game}/call", key=my_key), 403)
    # A ruling of their game withdrawn through my game's address: not found.
    theirs_ruling = api.post(f"/api/games/{game}/rulings", key=their_key, json=ruling,
                             expect=201).get_json()["id"]
    _problem(api.delete(f"/api/games/{my_game}/rulings/{theirs_ruling}", key=my_key,
                        json={"reason": "x"}), 404)
    # Their call answered through my event: not found, still waiting.
    call = api.post(f"/api/games/{game}/call", key=their_key, expect=201).get_json()["id"]
    _problem(api.post(f"/api/events/{mine['id']}/calls/{call}/answer", key=my_key), 404)
    assert api.get(f"/api/events/{theirs['id']}/calls", key=their_key,
                   expect=200).get_json()["waiting"] == 1
    after = api.game(game)
    assert after["points"] == {"A": 8, "B": 2} and before["points"] == {"A": 6, "B": 2}
    assert [r["withdrawn"] for r in api.get(f"/api/games/{game}/rulings",
                                            expect=200).get_json()] == [False]
    assert api.get(f"/api/games/{my_game}/rulings", expect=200).get_json() == []


def test_a_ruling_shows_in_every_export_and_the_calls_in_the_nights_counts(api):
    event, key, round_ = night(api, "confirm_each_hand")
    game = _game(round_)
    runner = api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1},
                      expect=201).get_json()["key"]
    api.post(f"/api/games/{game}/call", key=runner, expect=201)
    calls = api.get(f"/api/events/{event['id']}/calls", key=key, expect=200).get_json()
    api.post(f"/api/events/{event['id']}/calls/{calls['calls'][0]['id']}/answer", key=key,
             expect=200)
    api.post(f"/api/games/{game}/rulings", key=key, expect=201, json={
        "kind": "adjust", "side": "B", "points": 2, "reason": "Renege seen by the desk"})
    for name in ("games", "scoresheets"):
        text = api.get(f"/api/events/{event['id']}/export/{name}.csv", key=key,
                       expect=200).get_data(as_text=True)
        assert "Renege seen by the desk" in text, name
    sheets = api.get(f"/api/events/{event['id']}/scoresheets", expect=200).get_json()
    assert any("Renege seen by the desk" in n for s in sheets for r in s["rounds"]
               for n in r["notes"])
    counts = api.get(f"/api/events/{event['id']}/calls", key=key, expect=200).get_json()
    assert (counts["total"], counts["answered"], counts["waiting"]) == (1, 1, 0)
    actions = [e["action"] for e in api.get(f"/api/events/{event['id']}/audit", key=key,
                                            expect=200).get_json()]
    assert {"call", "answer-call", "ruling"} <= set(actions)


def test_two_rulings_on_one_protest_sent_at_once_are_decided_once(app, api):
    event, key, teams, game, captains = _playoff(api)
    lodged = api.post(f"/api/games/{game['id']}/protests", key=key, expect=201, json={
        "player_id": _player(teams, "South"), "grounds": "Played for another club"}).get_json()
    api.post(f"/api/games/{game['id']}/paper-sheet", key=key, expect=201, json={
        "id": "review-protest-sheet", "hands": to_target_game("A", 4)})  # played as scheduled
    url = f"/api/events/{event['id']}/protests/{lodged['id']}/ruling"
    answers = all_at_once(app, lambda client, index: client.post(url, key=key, json={
        "upheld": index == 0, "reason": f"Desk decision {index}"}).status_code, 2)
    assert sorted(answers) == [200, 409]
    rulings = api.get(f"/api/games/{game['id']}/rulings", expect=200).get_json()
    assert len(rulings) == 1, "one ruling, not two"
    (protest,) = api.get(f"/api/events/{event['id']}/protests", expect=200).get_json()
    assert protest["status"] == ("upheld" if rulings[0]["kind"] == "protest_upheld"
                                 else "rejected")
