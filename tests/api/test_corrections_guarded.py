"""Changes after entry that must not slip through: retried hands that were undone, edits that
would unsettle a closed round, overwrites without a version, results that nobody confirmed."""

from __future__ import annotations

from .client import play
from .scripts import fixed_hands_game, to_target_game


def _progressive(api, name="Guarded night"):
    event = api.create_event("progressive", name=name)
    api.add_players(event, ["Ann", "Bob", "Carol", "Dave", "Eve", "Frank", "Gina", "Hal"])
    round_ = api.seat_round(event, 1)
    return event, event["organizer_key"], round_


def _if_match(state):
    return {"If-Match": f'"{state["version"]}"'}


def _signer(state, side="B"):
    return next(p["name"] for p in state["sides"][side]["players"] if p["player_id"])


# --- hand ids ---------------------------------------------------------------------------------

def test_two_events_may_use_the_same_hand_ids(api):
    first, key1, round1 = _progressive(api, "Friday")
    second, key2, round2 = _progressive(api, "Saturday")
    body = {"id": "t1-hand-1", "maker": "A", "tricks": 5}
    for key, round_ in ((key1, round1), (key2, round2)):
        game = round_["tables"][0]["games"][0]["id"]
        state = api.post(f"/api/games/{game}/hands", key=key, json=body, expect=201).get_json()
        assert state["points"] == {"A": 2, "B": 0}


def test_deleting_a_hand_renumbers_only_its_own_events_hands_of_the_same_ids(api):
    """Hand ids are unique per event: another event's hands with the same ids keep their
    numbers when one is deleted here."""
    games = []
    for name in ("Friday", "Saturday"):
        event, key, round_ = _progressive(api, name)
        game = round_["tables"][0]["games"][0]["id"]
        for n in (1, 2, 3):
            api.post(f"/api/games/{game}/hands", key=key,
                     json={"id": f"h{n}", "maker": "A", "tricks": 3}, expect=201)
        games.append((key, game))
    (key1, game1), (key2, game2) = games
    state = api.game(game1)
    after = api.delete(f"/api/games/{game1}/hands/h1", key=key1, headers=_if_match(state),
                       expect=200).get_json()
    assert [(h["id"], h["number"]) for h in after["hands"]] == [("h2", 1), ("h3", 2)]
    other = api.game(game2)
    assert [(h["id"], h["number"]) for h in other["hands"]] == [("h1", 1), ("h2", 2),
                                                                  ("h3", 3)]


def test_a_reused_id_names_the_hand_and_table_of_its_own_event(api):
    event, key, round_ = _progressive(api)
    one, two = (t["games"][0]["id"] for t in round_["tables"])
    api.post(f"/api/games/{one}/hands", key=key, json={"id": "x1", "maker": "A", "tricks": 3},
             expect=201)
    refused = api.post(f"/api/games/{two}/hands", key=key,
                       json={"id": "x1", "maker": "A", "tricks": 3}, expect=409).get_json()
    assert refused["code"] == "id-conflict"
    assert "(hand 1 of the game at table 1)" in refused["detail"]


def test_a_hand_deleted_since_is_not_stored_again_when_its_post_is_retried(api):
    event, key, round_ = _progressive(api)
    game = round_["tables"][0]["games"][0]["id"]
    body = {"id": "undo-me", "maker": "B", "tricks": 3}
    state = api.post(f"/api/games/{game}/hands", key=key, json=body, expect=201).get_json()
    after = api.delete(f"/api/games/{game}/hands/undo-me", key=key, headers=_if_match(state),
                       expect=200).get_json()
    retried = api.post(f"/api/games/{game}/hands", key=key, json=body)
    assert retried.status_code == 410
    problem = retried.get_json()
    assert retried.mimetype == "application/problem+json" and problem["code"] == "hand-deleted"
    assert "was entered and then deleted from the game at table 1" in problem["detail"]
    assert "enter it as a new hand" in problem["detail"]
    now = api.game(game)
    assert now["hands_played"] == 0 and now["version"] == after["version"]


# --- overwrites need the version ---------------------------------------------------------------

def _wec_game(api):
    event = api.create_event("wec-singles", name="Sheet night")
    api.add_players(event, [f"P{i}" for i in range(1, 13)])
    round_ = api.seat_round(event, 1)
    return event, event["organizer_key"], round_, round_["tables"][0]["games"][0]["id"]


def test_replacing_or_removing_a_game_sheet_needs_the_games_version(api):
    event, key, round_, game = _wec_game(api)
    first = api.put(f"/api/games/{game}/sheet", key=key, json={"points": {"A": 12, "B": 6}},
                    expect=200).get_json()
    missing = api.put(f"/api/games/{game}/sheet", key=key, json={"points": {"A": 3, "B": 15}})
    assert missing.status_code == 428 and missing.get_json()["code"] == "if-match-required"
    stale = api.put(f"/api/games/{game}/sheet", key=key, json={"points": {"A": 3, "B": 15}},
                    headers={"If-Match": '"1"'})
    assert stale.status_code == 412
    assert api.game(game)["points"] == {"A": 12, "B": 6}, "nothing overwritten"
    replaced = api.put(f"/api/games/{game}/sheet", key=key, json={"points": {"A": 3, "B": 15}},
                       headers=_if_match(first), expect=200).get_json()
    assert replaced["points"] == {"A": 3, "B": 15} and replaced["winner"] == "B"
    assert api.delete(f"/api/games/{game}/sheet", key=key).status_code == 428
    cleared = api.delete(f"/api/games/{game}/sheet", key=key, headers=_if_match(replaced),
                         expect=200).get_json()
    assert cleared["points"] == {"A": 0, "B": 0} and not cleared["over"]


def test_changing_a_recorded_tie_settlement_needs_the_games_version(api):
    event, key, round_ = _progressive(api)
    game = round_["tables"][0]["games"][0]["id"]
    play(api, key, game, fixed_hands_game(4, 4, 8))
    settled = api.post(f"/api/games/{game}/settlement", key=key,
                       json={"method": "card-draw", "winner": "A"}, expect=200).get_json()
    # The same settlement again (a retry) is fine without a version.
    again = api.post(f"/api/games/{game}/settlement", key=key,
                     json={"method": "card-draw", "winner": "A"}, expect=200).get_json()
    assert again["winner"] == "A"
    changed = api.post(f"/api/games/{game}/settlement", key=key,
                       json={"method": "card-draw", "winner": "B"})
    assert changed.status_code == 428
    assert api.game(game)["winner"] == "A"
    api.post(f"/api/games/{game}/settlement", key=key, headers=_if_match(again),
             json={"method": "card-draw", "winner": "B"}, expect=200)
    assert settled["version"] < api.game(game)["version"]
    assert api.game(game)["winner"] == "B"


# --- sign-off ---------------------------------------------------------------------------------

def test_a_player_of_the_losing_side_signs_the_game_off(api):
    event, key, round_ = _progressive(api)
    game = round_["tables"][0]["games"][0]["id"]
    state = play(api, key, game, fixed_hands_game(5, 3, 8))
    refused = api.post(f"/api/games/{game}/sign-off", key=key, json={"by": "Zed"})
    assert refused.status_code == 422
    assert "'Zed' is not playing at table 1" in refused.get_json()["detail"]
    winner = _signer(state, "A")  # side A won 5-3: side B confirms it
    refused = api.post(f"/api/games/{game}/sign-off", key=key, json={"by": winner})
    assert refused.status_code == 422
    assert f"{winner} is on the side that won" in refused.get_json()["detail"]
    assert not api.game(game)["signed_off"]
    name = _signer(state)
    signed = api.post(f"/api/games/{game}/sign-off", key=key, json={"by": f" {name.upper()} "},
                      expect=200).get_json()
    assert signed["signed_off_by"] == name, "stored as the table knows the name"


def test_an_organizer_correction_that_changes_the_result_undoes_the_sign_off(api):
    event, key, round_ = _progressive(api)
    game = round_["tables"][0]["games"][0]["id"]
    state = play(api, key, game, fixed_hands_game(5, 3, 8))
    signed = api.post(f"/api/games/{game}/sign-off", key=key, json={"by": _signer(state)},
                      expect=200).get_json()
    # A note changes nothing the opponents confirmed: the sign-off stays.
    first = signed["hands"][0]
    body = {"maker": first["maker"], "tricks": first["tricks"], "alone": first["alone"],
            "note": "checked"}
    noted = api.put(f"/api/games/{game}/hands/{first['id']}", key=key, json=body,
                    headers=_if_match(signed), expect=200).get_json()
    assert noted["signed_off"]
    # Points that change are not what was signed: the sign-off goes, and the log says so.
    body = {**body, "maker": "B" if first["maker"] == "A" else "A", "tricks": 3, "alone": False}
    fixed = api.put(f"/api/games/{game}/hands/{first['id']}", key=key, json=body,
                    headers=_if_match(noted), expect=200).get_json()
    assert fixed["points"] != signed["points"]
    assert not fixed["signed_off"] and fixed["signed_off_by"] is None
    audit = api.get(f"/api/events/{event['id']}/audit", key=key, expect=200).get_json()
    assert audit[0]["action"] == "edit-hand"
    assert audit[0]["after"]["sign_off"] == "undone: the result changed"


# --- closed rounds ----------------------------------------------------------------------------

def _close_round_one(api, event, key, round_):
    for table in round_["tables"]:
        play(api, key, table["games"][0]["id"], fixed_hands_game(5, 3, 8))
    api.close_round(event, round_["id"])


def test_a_closed_round_refuses_a_correction_that_leaves_a_game_unfinished(api):
    event, key, round_ = _progressive(api)
    _close_round_one(api, event, key, round_)
    game = round_["tables"][0]["games"][0]["id"]
    state = api.game(game)
    last = state["hands"][-1]["id"]
    refused = api.delete(f"/api/games/{game}/hands/{last}", key=key, headers=_if_match(state))
    assert refused.status_code == 409
    detail = refused.get_json()["detail"]
    assert detail.startswith("Round 1 is closed, and this change would leave the game at "
                             "table 1 without a result (7 hands played).")
    assert "Reopen the round first" in detail
    assert api.game(game) == state, "nothing changed"
    # Reopened, the same deletion is a correction like any other.
    api.post(f"/api/rounds/{round_['id']}/reopen", key=key, expect=200)
    api.delete(f"/api/games/{game}/hands/{last}", key=key, headers=_if_match(api.game(game)),
               expect=200)


def test_once_the_next_round_is_seated_a_correction_cannot_change_who_won(api):
    event, key, round_ = _progressive(api)
    _close_round_one(api, event, key, round_)
    api.seat_round(event, 2)
    game = round_["tables"][0]["games"][0]["id"]
    state = api.game(game)  # side A won 5-3
    hand = next(h for h in state["hands"] if h["maker"] == "A" and not h["alone"])
    flipped = {"maker": "B", "tricks": 5}  # A loses a point or two, B gains 2: B wins
    refused = api.put(f"/api/games/{game}/hands/{hand['id']}", key=key, json=flipped,
                      headers=_if_match(state))
    assert refused.status_code == 409 and refused.get_json()["code"] == "winner-used"
    side_a = state["sides"]["A"]["name"]
    side_b = state["sides"]["B"]["name"]
    assert refused.get_json()["detail"].startswith(
        f"Round 2 was seated from this result ({side_a} won the game at table 1); a "
        f"correction that makes {side_b} the winner cannot be made now.")
    assert api.game(game) == state
    # A correction of the points that keeps the winner is fine.
    fixed = api.put(f"/api/games/{game}/hands/{hand['id']}", key=key,
                    json={"maker": "A", "tricks": 5 if hand["tricks"] != 5 else 3},
                    headers=_if_match(state), expect=200).get_json()
    assert fixed["winner"] == "A" and fixed["points"] != state["points"]


# --- sheets, penalties, weeks not started, finished events ------------------------------------

def test_a_sheet_of_fewer_hands_needs_time_to_have_been_called(api):
    event, key, round_, game = _wec_game(api)
    refused = api.put(f"/api/games/{game}/sheet", key=key,
                      json={"points": {"A": 3, "B": 3}, "hands_played": 5})
    assert refused.status_code == 422
    assert "time was not called" in refused.get_json()["detail"]
    assert not api.game(game)["over"]
    api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=200)
    hint = api.put(f"/api/games/{game}/sheet", key=key, json={"points": {"A": 5, "B": 2}})
    assert hint.status_code == 422
    assert "say how many hands were played" in hint.get_json()["detail"]
    state = api.put(f"/api/games/{game}/sheet", key=key,
                    json={"points": {"A": 5, "B": 2}, "hands_played": 5},
                    expect=200).get_json()
    assert state["end"] == "time" and state["winner"] == "A"


def test_cards_thrown_in_on_the_last_hand_can_be_entered_after_it(api):
    event, key, round_, game = _wec_game(api)
    state = play(api, key, game, fixed_hands_game(7, 5, 12))
    assert state["over"]
    penalty = api.post(f"/api/games/{game}/hands", key=key,
                       json={"id": "thrown", "kind": "penalty", "surrendered": [2]},
                       expect=201).get_json()
    assert penalty["points"] == state["points"] and penalty["hands_played"] == 12
    assert penalty["bumps"]["2"] == state["bumps"].get("2", 0) + 1
    # A real hand is still refused.
    refused = api.post(f"/api/games/{game}/hands", key=key,
                       json={"id": "thirteenth", "maker": "A", "tricks": 3}, expect=409)
    assert "all 12 hands are played" in refused.get_json()["detail"]


def test_nobody_enters_hands_in_a_league_week_that_has_not_started(api):
    event = api.create_event("league", name="Not yet")
    key = event["organizer_key"]
    for name in ("North", "South", "East", "West"):
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    api.post(f"/api/events/{event['id']}/season", key=key, json={}, expect=201)
    rounds = api.get(f"/api/events/{event['id']}/rounds", expect=200).get_json()
    later = next(r for r in rounds if r["status"] == "scheduled")
    game = api.get(f"/api/rounds/{later['id']}", expect=200).get_json()["tables"][0]["games"][0]
    refused = api.post(f"/api/games/{game['id']}/hands", key=key,
                       json={"id": "early", "maker": "A", "tricks": 3}, expect=409).get_json()
    assert refused["code"] == "round-not-started"
    assert f"{later['label']} has not started yet" in refused["detail"]


def test_a_finished_event_takes_no_more_results_until_it_is_opened_again(api):
    event, key, round_ = _progressive(api)
    game = round_["tables"][0]["games"][0]["id"]
    api.patch(f"/api/events/{event['id']}", key=key, json={"status": "finished"}, expect=200)
    revision = api.get(f"/api/events/{event['id']}", expect=200).get_json()["revision"]
    hand = api.post(f"/api/games/{game}/hands", key=key,
                    json={"id": "late", "maker": "A", "tricks": 3}, expect=409).get_json()
    assert hand["code"] == "event-finished"
    assert "Guarded night is marked finished" in hand["detail"]
    api.post(f"/api/events/{event['id']}/players", key=key, json={"name": "Ivy"}, expect=409)
    api.post(f"/api/rounds/{round_['id']}/time", key=key, expect=409)
    assert api.get(f"/api/events/{event['id']}", expect=200).get_json()["revision"] == revision
    # Keys can still be issued, and the organizer can open the event again.
    api.post(f"/api/events/{event['id']}/keys", key=key, json={"table": 1}, expect=201)
    api.patch(f"/api/events/{event['id']}", key=key, json={"status": "open"}, expect=200)
    api.post(f"/api/games/{game}/hands", key=key, json={"id": "late", "maker": "A", "tricks": 3},
             expect=201)


# --- best of three ----------------------------------------------------------------------------

def test_a_correction_that_decides_a_best_of_three_early_is_refused_while_game_three_has_hands(
        api):
    event = api.create_event("league", name="Final night")
    key = event["organizer_key"]
    for name in ("North", "South"):
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    api.post(f"/api/events/{event['id']}/season", key=key, json={"weeks": 1}, expect=201)
    week = api.seat_round(event, 1)
    for game in week["tables"][0]["games"]:
        play(api, key, game["id"], to_target_game("A", 4))
    api.close_round(event, week["id"])
    final = api.seat_round(event)
    match = final["tables"][0]
    first = play(api, key, match["games"][0]["id"], to_target_game("A", 3))
    two = first["match"]["games"][1]["id"]  # each game of a best-of is added as it is needed
    march = {"tricks": 5}
    # Game 2: 8-8, then side B's march to 10.
    state = play(api, key, two, [{"maker": "B", **march}] * 4 + [{"maker": "A", **march}] * 4
                 + [{"maker": "B", **march}])
    assert state["winner"] == "B"
    three = state["match"]["games"][2]["id"]
    api.hand(key, three, "A", 3)
    # The last march of game 2 was really side A's: A would have won the final 2-0.
    refused = api.put(f"/api/games/{two}/hands/{state['hands'][-1]['id']}", key=key,
                      json={"maker": "A", "tricks": 5}, headers=_if_match(state))
    assert refused.status_code == 409 and refused.get_json()["code"] == "match-decided"
    assert refused.get_json()["detail"] == (
        "This change decides the match at table 1 2-0 after game 2, but game 3 already has "
        "hands entered. Delete those hands first if the change is right.")
    assert api.game(two) == state and api.game(three)["hands_played"] == 1
    # With game 3's hand deleted, the correction goes through and game 3 is gone.
    third = api.game(three)
    api.delete(f"/api/games/{three}/hands/{third['hands'][0]['id']}", key=key,
               headers=_if_match(third), expect=200)
    fixed = api.put(f"/api/games/{two}/hands/{state['hands'][-1]['id']}", key=key,
                    json={"maker": "A", "tricks": 5}, headers=_if_match(api.game(two)),
                    expect=200).get_json()
    assert fixed["winner"] == "A" and fixed["match"]["winner"] == "A"
    assert [g["number"] for g in fixed["match"]["games"]] == [1, 2]


def test_an_audited_hand_says_which_game_of_the_match_it_belongs_to(api):
    """A league week is three games at a table: the audit log names the game, not only the
    table."""
    event = api.create_event("league", name="Which game")
    key = event["organizer_key"]
    for name in ("Aces", "Bowers"):
        api.add_team(event, name, [f"{name} 1", f"{name} 2"])
    api.post(f"/api/events/{event['id']}/season", key=key, json={"weeks": 1}, expect=201)
    games = api.seat_round(event, 1)["tables"][0]["games"]
    assert [g["number"] for g in games] == [1, 2, 3]
    state = api.hand(key, games[1]["id"], "B", 3)
    hand = state["hands"][0]["id"]
    api.put(f"/api/games/{games[1]['id']}/hands/{hand}", key=key, headers=_if_match(state),
            json={"maker": "B", "tricks": 5}, expect=200)
    state = api.game(games[1]["id"])
    api.delete(f"/api/games/{games[1]['id']}/hands/{hand}", key=key, headers=_if_match(state),
               expect=200)
    deleted, edited = api.get(f"/api/events/{event['id']}/audit?table=1", key=key,
                              expect=200).get_json()[:2]
    assert edited["action"] == "edit-hand" and edited["after"]["game"] == 2
    assert edited["after"]["number"] == 1
    assert edited["before"]["outcome"] != edited["after"]["outcome"]
    assert deleted["action"] == "delete-hand" and deleted["after"]["game"] == 2
